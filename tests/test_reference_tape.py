"""The reference engine's move interpreter (grundy.solvers.reference.tape.MoveTape): ``run``
enumerates exactly the choices a plain level-by-level enumeration finds, with the same
updates, and counts exactly the same work (the budget's unit: the cross-check's "checked at N
positions" depends on it)."""
from __future__ import annotations

import itertools

import pytest

from grundy.solvers.reference.tape import MoveTape
from grundy.spec import Var, move

a, b = Var.int("a"), Var.int("b")
INPUTS = {"a": 0, "b": 1}

MOVES = {
    "no choice": move("swap", guard=a > b, update={0: b, 1: a}),
    "no choice, always": move("bump", update={0: a + 1}),
    "one choice": move("take {k}", choose=[("k", 1, a)], update=lambda k: {0: a - k}),
    "one choice, guarded": move("odd {k}", choose=[("k", 0, a)], guard=lambda k: ((k % 2) == 1) & (b > 0),
                                update=lambda k: {0: a - k, 1: b ^ k}),
    "one choice, state guard": move("t {k}", choose=[("k", 0, b - 1)], guard=lambda k: (a == 2) & (b > 0),
                                    update=lambda k: {1: k}),
    "two choices": move("split {i} {j}", choose=[("i", 1, a), ("j", 0, lambda i: a - i)],
                        guard=lambda i, j: (i + j) <= b, update=lambda i, j: {0: a - i - j, 1: b + j}),
    "three choices": move("x {i} {j} {k}", choose=[("i", 0, a), ("j", 0, b), ("k", 0, lambda i, j: i + j)],
                          guard=lambda i, j, k: ((i ^ j) != k) & (k <= 3), update=lambda i, j, k: {0: i, 1: j + k}),
}


def plain(mt: MoveTape, values: tuple) -> tuple[list, int]:
    """The definition, spelled out with the tape's levels (``_level``: a level's conjuncts'
    steps, and the next levels' steps where they hold): one unit per candidate and per call,
    the nodes evaluated, the update's nodes per choice found; recursion over the choices."""
    vals = mt.tape.template[:]
    for k, i in mt.loads[0]:
        vals[k] = values[i]
    ok, work = mt._level(vals, -1)
    if not ok:
        return [], work + 1
    nc = len(mt.bounds)
    if nc == 0:
        return [((), mt._payload(vals))], work + 1 + len(mt.payload)
    out: list = []
    chosen = [0] * nc

    def level(j: int, work: int) -> int:
        for v in range(vals[mt.bounds[j][0]], vals[mt.bounds[j][1]] + 1):
            chosen[j] = v
            for k, _ in mt.loads[j + 1]:
                vals[k] = v
            ok, n = mt._level(vals, j)
            work += n + 1
            if not ok:
                continue
            if j + 1 < nc:
                work = level(j + 1, work)
            else:
                out.append((tuple(chosen), mt._payload(vals)))
                work += len(mt.payload)
        return work

    return out, level(0, work)


@pytest.mark.parametrize("name", sorted(MOVES))
def test_run_finds_and_counts_as_the_plain_enumeration(name):
    mt = MoveTape(MOVES[name], INPUTS)
    some = 0
    for values in itertools.product(range(0, 6), range(0, 5)):
        found, work = plain(mt, values)
        assert mt.run(values, 1 << 40) == (found, work), values
        assert mt.run(values, work) == (found, work), values       # its own work is within budget
        for cv, upd in found:
            assert mt.at(values, cv) == upd                          # each choice found is legal there
        some += len(found)
    assert some > 0


def test_run_stops_past_its_budget():
    mt = MoveTape(MOVES["two choices"], INPUTS)
    found, work = plain(mt, (5, 4))
    assert len(found) > 3
    assert all(mt.run((5, 4), w) is None for w in range(0, work - len(mt.payload) - 1))


@pytest.mark.parametrize("name", sorted(MOVES))
def test_remembered_runs_answer_as_fresh_ones(name):
    """``run`` remembers its answers by the values of the slots the tape reads: at any budget,
    in any order of calls, it answers (moves, work, or None past the budget) exactly as a tape
    that remembers nothing."""
    kept = MoveTape(MOVES[name], INPUTS)
    fresh = MoveTape(MOVES[name], INPUTS)
    fresh.memo_cap = 0
    states = list(itertools.product(range(0, 6), range(0, 5)))
    asked = 0
    for r in range(3):
        for values in states[r::2] + states:
            for budget in (1 << 40, 0, 3, 7, 12, 25, -2):
                want = fresh.run(values, budget)
                assert kept.run(values, budget) == want, (values, budget)
                asked += want is not None
    assert not fresh._memo and kept.hits > 0 and asked > 0
    assert MOVES[name].update and set(kept.reads) <= {0, 1}


def test_remembered_runs_stop_where_the_run_stops():
    """A remembered answer is refused below the least budget its run fits in (``need``), and
    given at or above it, as a fresh run is."""
    mt = MoveTape(MOVES["two choices"], INPUTS)
    (found, work), need = mt._run((5, 4), 1 << 40)
    assert need <= work and mt.run((5, 4), 1 << 40) == (found, work)
    for b in range(-2, work + 2):
        fresh = MoveTape(MOVES["two choices"], INPUTS)
        assert (mt.run((5, 4), b) is None) == (b < need) == (fresh.run((5, 4), b) is None), b


def test_a_tape_evaluates_as_the_ir_read_node_by_node():
    """A Tape keeps each operator node as one step (one, two or more operands, as ``evaluate``
    runs it): its values are those of the IR read recursively by the catalogue's meanings."""
    from grundy.solvers.reference.tape import Tape, operands
    from grundy.spec import ite, maximum
    from grundy.spec.expr import lift
    from grundy.spec.ops import OPS

    exprs = [ite(a < b, a ^ b, b // 2), maximum(a, b, a + b), (a > 1) & (b < 3) & (a != b), -a,
             ~((a > 2) | (b > 2)), (a * 3 + b) % 4, 7]

    def plain(x, env):
        x = lift(x)
        if x.op == "const":
            return x.args[0]
        if x.op == "var":
            return env[x.args[0]]
        return OPS[x.op].concrete(*(plain(y, env) for y in x.args))

    t = Tape(exprs, INPUTS)
    assert {len(operands(st)) for st in t.steps} == {1, 2, 3}
    assert len(t.steps) == len({st[0] for st in t.steps})                 # one step a node
    for values in itertools.product(range(0, 6), range(0, 5)):
        assert t.run(values) == [plain(e, {"a": values[0], "b": values[1]}) for e in exprs], values
