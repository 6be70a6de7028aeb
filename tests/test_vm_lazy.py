"""The interpreter's statements computed lazily (grundy/solvers/native/vmstatement.py): on
hypothesis-drawn DAGs with much sharing (every node may be an operand of many), the lazy
program gives the eager program's values and the Python path's; a node no deciding operand
needs does not run (an overflow there is not flagged); the pieces of shared nodes nest."""
from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grundy.solvers.explicit import compile_expr
from grundy.solvers.native import vm
from grundy.solvers.native.box import Box
from grundy.solvers.native.kernel import GRUNDY
from grundy.solvers.native.sweep import SweepRun
from grundy.solvers.native.vmstatement import DEPTH, Statement
from grundy.spec.expr import BOOL, all_of, any_of, ite, lift, maximum, minimum
from grundy.spec.games import GAMES
from grundy.spec.structure import Structure

needs_vm = pytest.mark.skipif(not vm.available(), reason="no C compiler")
NIM3 = GAMES["nim"].rules(Structure.heaps(3))
H = [NIM3.state.heap[i] for i in range(3)]
STATES = st.lists(st.tuples(*[st.integers(0, 5)] * 3), min_size=1, max_size=8)


@st.composite
def dags(draw):
    """A statement and an assumption over the three heaps, each node built from earlier ones
    (operands drawn from every node so far: shared, at many depths)."""
    ints, bools = [*H, lift(draw(st.integers(-2, 4)))], [H[0] < H[1]]
    for _ in range(draw(st.integers(3, 24))):
        a, b, c = (draw(st.sampled_from(ints)) for _ in range(3))
        p, q = draw(st.sampled_from(bools)), draw(st.sampled_from(bools))
        kind = draw(st.sampled_from(["add", "sub", "mul", "min", "max", "xor", "ite", "lt", "le", "eq",
                                     "and", "or", "not", "bite"]))
        k = draw(st.integers(-2, 2))
        made = {"add": a + b, "sub": a - b, "mul": a * k, "min": minimum(a, b, c), "max": maximum(a, b),
                "xor": a ^ b, "ite": ite(p, a, b), "lt": a < b, "le": a <= b, "eq": a == c,
                "and": all_of([p, q, a < c]), "or": any_of([p, q, b == c]), "not": ~p, "bite": ite(p, q, a <= b)}
        (ints if made[kind].sort != BOOL else bools).append(made[kind])
    stmt = draw(st.sampled_from(bools[-3:] + ints[-3:]))
    assume = draw(st.sampled_from([None, *bools[-4:]]))
    return stmt, assume


@needs_vm
@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(dags(), STATES)
def test_lazy_is_eager_is_python(dag, states):
    stmt, assume = dag
    lazy, eager = (Statement(NIM3, stmt, assume, lazy=z) for z in (True, False))
    f, a = compile_expr(NIM3, stmt), None if assume is None else compile_expr(NIM3, assume)
    for s in states:
        want = int(f(s)) if a is None or a(s) else None
        assert vm.statement_at(lazy, s) == want == vm.statement_at(eager, s), (stmt, assume, s)


def _status(statement: Statement, states: list) -> int:
    """The sweep's status over the product of ``states``' values (6: a product overflowed)."""
    vals = [sorted({s[i] for s in states}) for i in range(3)]
    prog = vm.Program(NIM3, Box.around(NIM3, [tuple(v[0] for v in vals), tuple(v[-1] for v in vals)]))
    prog.use(statement)
    got = SweepRun(NIM3, vals, True).run(vm.VMKernel(prog, GRUNDY), 0, len(vals[0]) * len(vals[1]) * len(vals[2]),
                                         lambda: None)
    assert got is not None
    return got[0]


@needs_vm
def test_a_node_no_deciding_operand_needs_does_not_run():
    # the product overflows 64 bits once h0 >= 2; it is shared (two users), both under a branch
    # taken only where h0 > 9, which no state here reaches: lazily never run, eagerly flagged
    big = H[0] * (2 ** 62)
    stmt = ite(H[0] > 9, minimum(big, H[1]) + maximum(big, H[2]), H[1] ^ H[2])
    states = [(h, 1, 2) for h in range(5)]
    assert _status(Statement(NIM3, stmt, None), states) == 0
    assert _status(Statement(NIM3, stmt, None, lazy=False), states) == 6
    guarded = (H[0] > 9) & (big > H[1]) | (H[1] == 1) & (big < H[2])
    assert _status(Statement(NIM3, guarded == (H[2] > 0), H[1] > 0), [(h, 2, 1) for h in range(4)]) == 0
    assert _status(Statement(NIM3, guarded == (H[2] > 0), H[1] > 0), [(h, 1, 1) for h in range(4)]) == 6


@needs_vm
def test_deep_chains_and_pieces_needed_after_they_are_written():
    # a chain deeper than DEPTH (written as pieces of their own) whose nodes are also needed from
    # pieces written later; the shared sums are needed again from the statement's end
    x = H[0] + 0
    sums = []
    for i in range(3 * DEPTH):
        x = ite(H[1] > i % 4, x + 1, x - H[2]) if i % 7 else x + H[i % 3]
        sums.append(x)
    stmt = any_of([sums[-1] > sums[DEPTH], sums[5] == sums[2 * DEPTH] - 3, sums[7] < 0])
    f = compile_expr(NIM3, stmt)
    st_ = Statement(NIM3, stmt, H[2] < 5)
    assert st_.nflag > 0
    for s in [(0, 0, 0), (3, 2, 1), (5, 4, 4), (1, 5, 5)]:
        assert vm.statement_at(st_, s) == (int(f(s)) if s[2] < 5 else None)


def test_a_shared_node_is_one_piece_a_shared_leaf_node_is_written_at_each_use():
    from grundy.solvers.native.vmcode import OP
    s, t = 2 * H[0] + H[1], H[0] + H[1]                 # s over a node, t over leaves alone
    stmt = (s < 3) | ((s > 7) & (H[2] == 1)) | (t == 4) | (t == 9)
    for lazy in (True, False):
        got = Statement(NIM3, stmt, None, lazy=lazy)
        assert got.nflag == 1 and got.code[-1] == OP["ret"] and stmt.sort == BOOL
