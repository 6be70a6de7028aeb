"""The interpreter of the IR (grundy/solvers/native/vm.py) against the other two backends: its
successors are the Python compile's (and the generated C's), its values the Python solver's
in every mode, its statements the Python evaluation's, on every registered game and on
hypothesis-drawn structures, rules and expressions; a claim's sweep through it gives what the
Python path gives."""
from __future__ import annotations

from collections import Counter

import pytest
from drawn import draw_structure, random_heap_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grundy.solvers.explicit import compile_expr, compile_rules
from grundy.solvers.native import vm
from grundy.solvers.native.box import Box, Halt
from grundy.solvers.native.kernel import GRUNDY, MISERE, MISERE_GRUNDY, NORMAL, Kernel
from grundy.solvers.solver import Solver
from grundy.spec import HeapRule, Position, Structure, read_position
from grundy.spec.bits import bit_and, bit_or, nim_product, popcount
from grundy.spec.expr import ite, lift, maximum, minimum, product
from grundy.spec.games import GAMES

needs_vm = pytest.mark.skipif(not vm.available(), reason="no C compiler")
FAST = settings(max_examples=4, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
PARAMS = {"octal": ["0.07", "0.6", "4.07", "0.137"], "subtraction": [[1, 3, 4], [2, 5]]}
MODES = {GRUNDY: ("normal", "grundy"), NORMAL: ("normal", "wins"), MISERE: ("misere", "wins"),
         MISERE_GRUNDY: ("misere", "grundy")}


def vm_values(rules, states, mode):
    """The interpreter's bytes at ``states``, its box widened until it holds every successor;
    None where it stops otherwise (a status)."""
    box = Box.around(rules, states)
    for _ in range(12):
        got = vm.VMKernel(vm.Program(rules, box), mode).values(states)
        if isinstance(got, bytes):
            return got
        assert isinstance(got, Halt)
        if not got.outside:
            return None
        box = got.widened(rules, box, states)
    raise AssertionError("the box kept growing")


def python_truths(game, g, states, mode):
    """The Python solver's answers, as the interpreter's bytes would read."""
    conv, question = MODES[mode]
    s = Solver(native=False)
    out = []
    for st_ in states:
        p = Position(game, g, tuple(st_), conv)
        if question == "grundy":
            out.append(s.grundy(p) + 1)
        else:
            out.append(2 if s.mover_wins(p) else 1)
    return out


@st.composite
def positions(draw, name):
    """A structure of the registered game ``name`` and a few states on it."""
    game = GAMES[name]
    if isinstance(game, HeapRule):
        obj = {"game": name, "heaps": draw(st.lists(st.integers(0, 5), min_size=1, max_size=3))}
        if name in PARAMS:
            obj["code" if name == "octal" else "set"] = draw(st.sampled_from(PARAMS[name]))
        p = read_position(obj)
        return game, p.structure, [p.state]
    g = draw_structure(draw, game)
    schema = game.rules(g).schema
    states = []
    for _ in range(draw(st.integers(1, 3))):
        root = []
        for field_, _ in schema.slots:
            f = schema.fields[field_]
            lo, hi = {"int": (f.lower, f.lower + 3), "bool": (0, 1), "vertex": (0, max(g.n - 1, 0)),
                      "edge": (-1, len(g.edges) - 1)}[f.kind]
            root.append(draw(st.integers(lo, hi)))
        states.append(tuple(root))
    return game, g, states


def same_successors(rules, state):
    """The interpreter's successors of ``state`` are the Python compile's (as multisets)."""
    box = Box.around(rules, [state])
    want = Counter(tuple(s) for _, _, s in compile_rules(rules, symmetry=False, decompose=False).options(state))
    if want:
        box = box.join(Box.around(rules, list(want)))
    got = vm.VMKernel(vm.Program(rules, box), GRUNDY).successors(state)
    assert not isinstance(got, int), got
    assert Counter(got) == want


@needs_vm
@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_registered_game_as_the_python_solver(name):
    @FAST
    @given(positions(name), st.sampled_from(sorted(MODES)))
    def check(drawn, mode):
        game, g, states = drawn
        rules = game.rules(g)
        for s in states:
            try:
                same_successors(rules, s)
            except Exception as e:          # a rule error at this state: the Python side's to report
                if type(e).__name__ in ("RuleError", "DomainError"):
                    return
                raise
        got = vm_values(rules, states, mode)
        if got is not None:
            assert list(got) == python_truths(game, g, states, mode), (name, g, states, mode)
    check()


@needs_vm
@FAST
@given(st.lists(st.integers(1, 4), min_size=1, max_size=3, unique=True),
       st.lists(st.integers(1, 3), max_size=2, unique=True), st.booleans(),
       st.lists(st.integers(0, 7), min_size=2, max_size=3), st.sampled_from(sorted(MODES)))
def test_random_rules_as_the_python_solver(take, both, halve, heaps, mode):
    game = random_heap_game(take, both, halve, "random-vm")
    g = Structure.heaps(len(heaps))
    rules = game.rules(g)
    same_successors(rules, tuple(heaps))
    got = vm_values(rules, [tuple(heaps)], mode)
    assert got is not None and list(got) == python_truths(game, g, [tuple(heaps)], mode)


def widening(make, rules, states):
    """``make(box).values(states)`` on a box widened until it holds every successor."""
    box = Box.around(rules, states)
    while True:
        got = make(box).values(states)
        if not isinstance(got, Halt) or not got.outside:
            return got, box
        box = got.widened(rules, box, states)


@needs_vm
@pytest.mark.parametrize("name", ["vertexnim", "edge-nim", "grim"])
def test_as_the_generated_kernel_on_graph_games(name):
    game = GAMES[name]
    g = Structure.graph(range(4), [(0, 1), (1, 2), (2, 3), (0, 2)], [1] if name == "vertexnim" else [])
    rules = game.rules(g)
    schema = rules.schema
    start = []
    for i, (field_, _) in enumerate(schema.slots):
        f = schema.fields[field_]
        start.append({"int": 1 + i % 3, "bool": 1, "vertex": 0, "edge": 0}[f.kind])
    states = [tuple(start)]
    states += [tuple(s) for _, _, s in compile_rules(rules, symmetry=False, decompose=False).options(states[0])][:3]
    for mode in (GRUNDY, NORMAL, MISERE):
        want, box = widening(lambda b, mode=mode: Kernel(rules, b, mode, quick=True), rules, states)
        got = vm.VMKernel(vm.Program(rules, box), mode).values(states)
        assert isinstance(want, bytes) and got == want, (mode, want, got)
    k = Kernel(rules, box, GRUNDY, quick=True)
    for s in states:
        assert sorted(vm.VMKernel(vm.Program(rules, box), GRUNDY).successors(s)) == sorted(k.successors(s))


# ------------------------------------------------------------------- statements
NIM3 = GAMES["nim"].rules(Structure.heaps(3))
LEAVES = [NIM3.state.heap[i] for i in range(3)]


@st.composite
def int_exprs(draw, depth=3):
    if depth == 0 or draw(st.integers(0, 3)) == 0:
        return draw(st.sampled_from([*LEAVES, lift(draw(st.integers(-3, 5)))]))
    a, b = draw(int_exprs(depth - 1)), draw(int_exprs(depth - 1))
    op = draw(st.sampled_from(["add", "sub", "mul", "div", "mod", "xor", "band", "bor", "min", "max", "ite",
                               "popcount", "product", "nim_product"]))
    simple = {"add": lambda: a + b, "sub": lambda: a - b, "mul": lambda: a * draw(st.integers(-3, 3)),
              "div": lambda: a // draw(st.integers(1, 4)), "mod": lambda: a % draw(st.integers(1, 4)),
              "xor": lambda: a ^ b, "band": lambda: bit_and(a, b), "bor": lambda: bit_or(a, b),
              "popcount": lambda: popcount(a), "product": lambda: product(a, b),
              "nim_product": lambda: nim_product(LEAVES[0], LEAVES[1] + draw(st.integers(0, 2)))}
    if op in simple:
        return simple[op]()
    if op in ("min", "max"):
        return (minimum if op == "min" else maximum)(a, b, draw(int_exprs(depth - 1)))
    return ite(draw(bool_exprs(depth - 1)), a, b)


@st.composite
def bool_exprs(draw, depth=2):
    a, b = draw(int_exprs(depth)), draw(int_exprs(depth))
    op = draw(st.sampled_from(["lt", "le", "eq", "not", "and", "or", "beq"]))
    if op in ("lt", "le", "eq"):
        return a < b if op == "lt" else a <= b if op == "le" else a == b
    c = a < b
    if op == "not":
        return ~c
    d = draw(bool_exprs(depth - 1)) if depth > 0 else (a == b)
    return (c & d) if op == "and" else (c | d) if op == "or" else (c == d)


@needs_vm
@settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(int_exprs(), bool_exprs(), st.lists(st.tuples(st.integers(0, 6), st.integers(0, 6), st.integers(0, 6)),
                                           min_size=1, max_size=6), st.booleans())
def test_statements_as_python_evaluates_them(stmt, assume, states, bool_stmt):
    if bool_stmt:
        stmt = stmt < LEAVES[2]
    prog = vm.Program(NIM3, Box.around(NIM3, states))
    prog.use(vm.Statement(NIM3, stmt, assume))
    k = vm.VMKernel(prog, GRUNDY)
    f, a = compile_expr(NIM3, stmt), compile_expr(NIM3, assume)
    for st_ in states:
        want = int(f(st_)) if a(st_) else None
        assert k.evaluate(st_) == want, (stmt, assume, st_)


# ------------------------------------------------------------------- a claim's sweep
def sweep_through(claim, vm_on, monkeypatch):
    """The sweep of ``claim`` with every structure below ``c_from`` (the interpreter's, or with
    ``vm_on`` False the Python path's): its result, the cross-check's sample, and how many
    ranges the interpreter checked."""
    from grundy.settings import override
    from grundy.verify.check import csweep
    from grundy.verify.check.deadline import Deadline
    from grundy.verify.check.sweep import sweep
    from grundy.verify.claims import Explicit
    from grundy.verify.recheck import CrossCheck
    monkeypatch.setattr(csweep, "VM", vm_on)
    used = []
    real = csweep._ranges

    def spy(inst, run, kernel, *a):
        used.append(isinstance(kernel(), vm.VMKernel))
        return real(inst, run, kernel, *a)
    monkeypatch.setattr(csweep, "_ranges", spy)
    cross = CrossCheck(claim)
    with override(c_from=10 ** 9, c_always=10 ** 9):
        r = sweep(claim, Explicit(), claim.bounds, Solver(), Deadline(None), cross=cross)
    cex = r.cex and (r.cex.witness, r.cex.claimed, r.cex.actual, r.cex.structure, r.cex.how)
    sample = [(e[0], e[1], e[3]) for e in cross.sample.entries()]
    return (r.checked, r.met, r.structures, r.complete, r.text, cex, sample), sum(used)


def _claims():
    from pathlib import Path

    from grundy.verify.loading import load
    root = Path(__file__).resolve().parents[1] / "theorems"
    planted = [c for c in load([str(root / "planted.py")], None) if c.kind != "strategy"]
    import tests.test_csweep as t  # the C sweep's own claims
    return t.CLAIMS[:3] + planted[:2]


@needs_vm
def test_a_sweep_through_the_interpreter_is_the_python_paths(monkeypatch):
    served = 0
    for claim in _claims():
        got, used = sweep_through(claim, True, monkeypatch)
        want, none = sweep_through(claim, False, monkeypatch)
        assert none == 0 and got == want, claim.id
        served += used > 0
    assert served >= 2


# ------------------------------------------------------------------- components
SPLITTING = sorted(name for name in ("grim", "mig", "edge-delete", "weighted-grim") if name in GAMES)


@st.composite
def graph_states(draw):
    """A graph game whose positions split, a graph on 1 to 7 vertices, and some of its positions
    (the start and states along a line of play)."""
    game = GAMES[draw(st.sampled_from(SPLITTING))]
    n = draw(st.integers(1, 7))
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
    g = Structure.graph(range(n), [p for p in pairs if draw(st.booleans())])
    rules = game.rules(g)
    code = compile_rules(rules, symmetry=False, decompose=False)
    schema = rules.schema
    s = tuple({"int": 2, "bool": 1, "vertex": 0, "edge": 0}[schema.fields[f].kind] for f, _ in schema.slots)
    states = [s]
    for _ in range(draw(st.integers(0, 3))):
        opts = [tuple(o) for _, _, o in code.options(states[-1])]
        if not opts:
            break
        states.append(opts[draw(st.integers(0, len(opts) - 1))])
    return game, g, rules, states


@needs_vm
@settings(max_examples=8, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(graph_states())
def test_components_as_the_python_path_and_the_generated_kernel(drawn):
    game, g, rules, states = drawn
    want, box = widening(lambda b: Kernel(rules, b, GRUNDY, quick=True, decompose=True), rules, states)
    assert isinstance(want, bytes)
    prog = vm.Program(rules, box, splits=True)
    prog.decompose()
    assert vm.VMKernel(prog, GRUNDY).values(states) == want
    assert list(want) == python_truths(game, g, states, GRUNDY)


@needs_vm
def test_components_split_and_store_fewer():
    rules = GAMES["grim"].rules(Structure.graph(range(16), [(i, i + 1) for i in range(15)]))
    start = [(1,) * 16]
    box = Box.around(rules, [(0,) * 16, (1,) * 16])
    whole, split = vm.Program(rules, box, splits=True), vm.Program(rules, box, splits=True)
    split.decompose()
    a, b = vm.VMKernel(whole, GRUNDY), vm.VMKernel(split, GRUNDY)
    assert a.values(start) == b.values(start) == bytes(python_truths(GAMES["grim"], rules.structure, start, GRUNDY))
    assert split.split_share() > 0.5 and whole.split_share() == 0.0      # (counted while splitting or probing)
    assert 10 * b.stored < a.stored
    with pytest.raises(ValueError):
        vm.Program(rules, box).decompose()              # a program without the rules' components


def _sweep_vm(solver, game, g, question, states, lo, hi):
    """The solver's interpreter table for a sweep of ``question`` on ``g`` over the box of
    ``lo``..``hi``, and its answers at ``states`` (as bytes)."""
    rules = game.rules(g)
    k = solver.sweep_vm(game, g, "normal", question, Box.around(rules, [lo, hi]))
    assert k is not None
    return k, k.values(states)


@needs_vm
@pytest.mark.parametrize("n, question, mode", [(20, "wins", GRUNDY), (20, "grundy", GRUNDY), (16, "wins", NORMAL)])
def test_the_premise_asked_then_split(n, question, mode):
    """A path splits once its premise is proved (after reduce_after positions stored); an
    outcome's trial of the Grundy search with components is given up on a wheel (its hub joins
    every part): the outcome search answers, as the Python path does."""
    game = GAMES["grim"]
    edges = [(i, i + 1) for i in range(n - 1)] if n == 20 else \
        [(0, i) for i in range(1, n)] + [tuple(sorted((i, i % (n - 1) + 1))) for i in range(1, n)]
    g = Structure.graph(range(n), edges)
    solver = Solver(reduce_after=50)
    start = (1,) * n
    k, got = _sweep_vm(solver, game, g, question, [start], (0,) * n, (1,) * n)
    t = solver.table(game, g)
    assert t.decomposed and k.prog.decomposes and k.mode == mode
    assert k.stage == (2 if (question, mode) == ("wins", GRUNDY) else 3)    # (2: the path within its trial)
    want = python_truths(game, g, [start], GRUNDY if question == "grundy" else NORMAL)
    assert (list(got) if question == "grundy" else [1 + (v != 1) for v in got]) == want


@needs_vm
def test_no_split_where_the_premise_is_not_proved():
    """test-nim-plus4 declares its heaps independent, and they are not: never split."""
    import sys
    from pathlib import Path

    from grundy.solvers.premises import VIOLATED
    from grundy.spec.games import get_game
    sys.path.insert(0, str(Path(__file__).parent / "soundness"))
    import _premise_games
    _premise_games.register()        # (again: an earlier file's may have been forgotten with its scope)
    game = get_game("test-nim-plus4")
    g = Structure.heaps(2)
    solver = Solver(reduce_after=1000)
    states = [(60, 59), (37, 50), (4, 4)]
    k, got = _sweep_vm(solver, game, g, "grundy", states, (0, 0), (200, 200))
    assert solver.table(game, g).premises["decomposition"].status == VIOLATED
    assert not k.prog.decomposes and k.stage == 3
    assert list(got) == python_truths(game, g, states, GRUNDY)
