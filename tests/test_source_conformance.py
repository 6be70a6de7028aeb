"""Every value source answers what the reference engine answers, or declines.

Each source of a solver's chain (``Solver().sources``: the proved theorems, the one-heap tables,
the C kernel, the Python search, and any source registered there later) is asked on its own,
through the interface the solver uses (``can_answer(ctx, q)``, ``values(ctx, q, states)``), about
small batches of states of every registered game and of random user rules, in normal and misère
play, for Grundy values and outcomes. What it answers must be the reference engine's answer
(:mod:`grundy.solvers.reference`: no reduction, no table, no kernel); declining (``can_answer``
false, None, or answering only the first states) is always allowed. A source that hands a batch
back (:class:`~grundy.solvers.sources.Partial`: the Python search asking for its premises, or
handing its table to the kernel) is asked again for the rest, as the solver would.

The sources never see the solver: they are handed its :class:`SourceContext`, and no module of
a source imports the solver (checked below on their signatures and imports).
"""
from __future__ import annotations

import ast
import inspect
from pathlib import Path

import pytest
from drawn import draw_structure, random_heap_game
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grundy.errors import ReferenceLimit
from grundy.solvers.context import SourceContext
from grundy.solvers.explicit import compile_rules
from grundy.solvers.native.build import available
from grundy.solvers.reference import Reference
from grundy.solvers.search import ASK_PREMISES
from grundy.solvers.solver import Solver
from grundy.solvers.sources import Partial, Query
from grundy.solvers.theorems import ProvedFormula
from grundy.spec import HeapRule, Position, Structure, option, read_position
from grundy.spec.games import GAMES

needs_cc = pytest.mark.skipif(not available(), reason="no C compiler")

BUDGET = 30_000           # reference work units per state: small positions only (the rest skipped)
PARAMS = {"octal": ["0.07", "0.6", "4.07", "0.137", "0.77"], "subtraction": [[1, 3, 4], [2, 5], [1, 2]]}
FAST = settings(max_examples=3, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))


# --------------------------------------------------------------------------- what a source answers
def reference_answers(game, structure, states, convention, question):
    """The reference engine's answers (None: beyond its budget)."""
    ref = Reference(max_work=BUDGET * len(states))
    try:
        pos = [Position(game, structure, tuple(s), convention) for s in states]
        return [ref.grundy(p) if question == "grundy" else ref.mover_wins(p) for p in pos]
    except ReferenceLimit:
        return None


def source_answers(solver, index, game, structure, states, convention, question, sweep):
    """What the source at ``index`` of ``solver``'s chain answers at ``states`` on its own: its
    answers at the first states (all of them, or fewer where it declined the rest). After a
    :class:`Partial` it is asked again for the rest, as the solver asks its chain again."""
    src, ctx = solver.sources[index], solver.ctx
    q = Query(game, structure, convention, question, sweep=sweep)
    out: list = []
    for _ in range(8):                          # a hand-over is followed by an answer, not by another
        if len(out) == len(states) or not src.can_answer(ctx, q):
            break
        got = src.values(ctx, q, states[len(out):])
        if got is None:
            break
        assert isinstance(got, (list, Partial)), (src.name, got)
        vals = got.values if isinstance(got, Partial) else got
        assert len(vals) <= len(states) - len(out), src.name
        out.extend(vals)
        if not isinstance(got, Partial):
            break
    else:
        raise AssertionError(f"{src.name} handed the batch back 8 times in a row")
    return out


def check_every_source(make_solver, game, structure, states, convention, sweep=False, theorems=()):
    """Each source of a fresh solver (``make_solver()``, with ``theorems`` registered), on its own,
    answers what the reference engine answers, or declines. Returns the names of the sources
    that answered something (for the tests' own checks of coverage)."""
    answered = set()
    for question in ("grundy", "wins"):
        want = reference_answers(game, structure, states, convention, question)
        if want is None:
            continue
        for i in range(len(make_solver().sources)):
            solver = make_solver()
            solver.theorems.formulas.extend(theorems)
            got = source_answers(solver, i, game, structure, states, convention, question, sweep)
            name = solver.sources[i].name
            assert got == want[:len(got)], (name, question, convention, structure, states)
            if got:
                answered.add(name)
    return answered


def batch(game, structure, root, extra):
    """``root`` and up to ``extra`` of its options (states of the same structure)."""
    succ = [s for _, _, s in compile_rules(game.rules(structure), symmetry=False, decompose=False).options(root)]
    return [tuple(root), *(tuple(s) for s in succ[:extra])]


# --------------------------------------------------------------------------- registered games
@st.composite
def game_batches(draw, name):
    """A small batch of states of the registered game ``name`` on one structure: a root drawn in
    the field domains (a HeapRule game: read from JSON) and some of its options."""
    game = GAMES[name]
    conv = draw(st.sampled_from(["normal", "misere"]))
    if isinstance(game, HeapRule):
        obj = {"game": name, "heaps": draw(st.lists(st.integers(0, 4), min_size=1, max_size=3))}
        if name in PARAMS:
            obj["code" if name == "octal" else "set"] = draw(st.sampled_from(PARAMS[name]))
        p = read_position(obj)
        g, root = p.structure, p.state
    else:
        g = draw_structure(draw, game)
        schema = game.rules(g).schema
        root = []
        for field_, _ in schema.slots:
            f = schema.fields[field_]
            lo, hi = {"int": (f.lower, f.lower + 3), "bool": (0, 1), "vertex": (0, g.n - 1),
                      "edge": (-1, len(g.edges) - 1)}[f.kind]
            root.append(draw(st.integers(lo, hi)))
    return game, g, batch(game, g, tuple(root), draw(st.integers(0, 3))), conv, draw(st.booleans())


def bouton(structure):
    """Bouton's theorem (nim's Grundy value is the XOR of its heaps) as a proved formula."""
    def xor(state):
        v = 0
        for h in state:
            v ^= h
        return v
    return ProvedFormula("bouton", "nim", "normal", structure, "grundy", None, xor)


def lasker(structure):
    """Lasker's nim, one heap (Winning Ways, ch. 4): G(4k+1) = 4k+1, G(4k+2) = 4k+2,
    G(4k+3) = 4k+4, G(4k+4) = 4k+3; a sum of heaps is the XOR (per_heap)."""
    return ProvedFormula("lasker", "lasker-nim", "normal", Structure.heaps(1), "grundy", None,
                         lambda s: s[0] + (s[0] % 4 == 3) - (s[0] % 4 == 0 and s[0] > 0), per_heap=True)


def python_only(reduce_after):
    return lambda: Solver(native=False, reduce_after=reduce_after)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_source_answers_as_the_reference_on_every_registered_game(name):
    seen: set[str] = set()

    @FAST
    @given(game_batches(name), st.sampled_from([10**9, 3]))
    def check(drawn, reduce_after):
        game, g, states, conv, sweep = drawn
        theorems = [bouton(g), lasker(g)]
        seen.update(check_every_source(python_only(reduce_after), game, g, states, conv, sweep, theorems))
    check()
    assert "Python search" in seen          # the source that answers everything answered here


# --------------------------------------------------------------------------- random user rules
def random_heap_rule(take, split, halve):
    """A user's rule on one heap (a HeapRule: sums of heaps by construction): take k (in ``take``),
    or take k (in ``split``) and split the rest into two heaps, or halve an even heap."""
    class Drawn(HeapRule):
        name = "random-conformance-rule"

        def options(self, g, n):
            for k in take:
                yield option(f"take {k} from heap {{heap}}", guard=n >= k, parts=[n - k])
            for k in split:
                yield option(f"take {k} from heap {{heap}} and split the rest", guard=n >= k + 2,
                             choose=[("a", 1, (n - k) // 2)], parts=lambda a, k=k: [a, n - k - a])
            if halve:
                yield option("halve heap {heap}", guard=(n >= 2) & (n % 2 == 0), parts=[n // 2])
    return Drawn()


sets = st.lists(st.integers(1, 4), max_size=3, unique=True)


@settings(FAST, max_examples=12)
@given(sets, st.lists(st.integers(1, 3), max_size=2, unique=True), st.booleans(), st.integers(1, 3),
       st.data(), st.sampled_from(["normal", "misere"]), st.sampled_from([10**9, 3]))
def test_every_source_answers_as_the_reference_on_random_user_rules(take, both, lopsided, k, data, conv,
                                                                       reduce_after):
    game = random_heap_game(take, both, lopsided, "random-conformance")
    g = Structure.heaps(k)
    root = tuple(data.draw(st.lists(st.integers(0, 5), min_size=k, max_size=k)))
    states = batch(game, g, root, data.draw(st.integers(0, 3)))
    assert "Python search" in check_every_source(python_only(reduce_after), game, g, states, conv,
                                                 data.draw(st.booleans()))


@settings(FAST, max_examples=12)
@given(sets, st.lists(st.integers(0, 2), max_size=2, unique=True), st.booleans(),
       st.lists(st.integers(0, 6), min_size=1, max_size=3), st.sampled_from(["normal", "misere"]))
def test_every_source_answers_as_the_reference_on_random_heap_rules(take, split, halve, heaps, conv):
    game = random_heap_rule(take, split, halve)
    p = game.position(heaps)
    states = batch(game, p.structure, p.state, 2)
    got = check_every_source(python_only(10**9), game, p.structure, states, conv)
    assert ("one-heap tables" in got) == (conv == "normal")     # sums of heaps: normal play only


# --------------------------------------------------------------------------- the C kernel
KERNEL_CASES = [("nim", [3, 2, 1]), ("wythoff", [4, 2]), ("lasker-nim", [5, 2]),
                ("edge-nim", None), ("grim", None)]


def _case(name, heaps):
    if heaps is not None:
        obj = {"game": name, "heaps": heaps}
    elif name == "edge-nim":
        obj = {"game": name, "nodes": [0, 1, 2], "edges": [[0, 1, 2], [1, 2, 1], [0, 2, 1]], "token": 0}
    else:
        obj = {"game": name, "nodes": [0, 1, 2, 3], "edges": [[0, 1], [1, 2], [2, 3]]}
    p = read_position(obj)
    return p.game, p.structure, batch(p.game, p.structure, p.state, 4)


@needs_cc
@pytest.mark.parametrize("name,heaps", KERNEL_CASES)
@pytest.mark.parametrize("conv", ["normal", "misere"])
def test_the_kernel_answers_as_the_reference(name, heaps, conv):
    game, g, states = _case(name, heaps)
    for sweep in (False, True):
        got = check_every_source(lambda: Solver(native=True), game, g, states, conv, sweep)
        assert "C kernel" in got             # a batch of several states puts the table in use
    assert "C kernel" in check_every_source(lambda: Solver(native="always"), game, g, states[:1], conv)


@needs_cc
def test_the_python_search_hands_its_table_to_the_kernel_and_answers_the_rest(tune):
    tune(native_after=5)
    p = read_position({"game": "wythoff", "heaps": [7, 9], "convention": "misere"})
    solver = Solver(native=True)
    python = [src.name for src in solver.sources].index("Python search")
    q = Query(p.game, p.structure, p.convention, "grundy")
    got = solver.sources[python].values(solver.ctx, q, [p.state, (1, 1)])
    assert isinstance(got, Partial) and got.values == [] and "C kernel" in got.because
    assert solver.table(p.game, p.structure).in_use       # the kernel serves the table from now on
    assert source_answers(Solver(native=True), python, p.game, p.structure, [p.state, (1, 1)], "misere",
                          "grundy", False) == reference_answers(p.game, p.structure, [p.state, (1, 1)],
                                                                "misere", "grundy")


def test_the_python_search_returns_a_hand_over_to_ask_for_its_premises():
    p = read_position({"game": "wythoff", "heaps": [6, 9]})
    solver = Solver(native=False, reduce_after=3)
    python = [src.name for src in solver.sources].index("Python search")
    q = Query(p.game, p.structure, p.convention, "grundy")
    got = solver.sources[python].values(solver.ctx, q, [(0, 1), p.state])
    assert isinstance(got, Partial) and got.values == [1] and got.because == ASK_PREMISES   # (0, 1): 2 stored
    t = solver.table(p.game, p.structure)
    assert t.asked and t.symmetric                       # asked by the source, through its context
    again = solver.sources[python].values(solver.ctx, q, [p.state])
    assert again == reference_answers(p.game, p.structure, [p.state], "normal", "grundy")


@pytest.mark.slow
@needs_cc
@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_source_with_a_kernel_answers_as_the_reference_on_every_registered_game(name):
    @settings(max_examples=4, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(game_batches(name))
    def check(drawn):
        game, g, states, conv, sweep = drawn
        check_every_source(lambda: Solver(native=True), game, g, states, conv, sweep)
        check_every_source(lambda: Solver(native="always"), game, g, states[:1], conv)
    check()


class Liar:
    """A source registered first that says every position is a P-position (value 0)."""

    name, premises = "liar", "none"

    def can_answer(self, ctx, q):
        return True

    def values(self, ctx, q, states):
        return [0 if q.question == "grundy" else False for _ in states]


def test_a_source_answering_otherwise_than_the_reference_is_caught():
    p = read_position({"game": "nim", "heaps": [1, 2]})

    def with_liar():
        s = Solver(native=False)
        s.sources = (Liar(), *s.sources)
        return s
    with pytest.raises(AssertionError, match="liar"):
        check_every_source(with_liar, p.game, p.structure, [p.state, (0, 0)], "normal")
    assert check_every_source(with_liar, p.game, p.structure, [(0, 0), (1, 1)], "normal") >= {"liar"}   # right there


# --------------------------------------------------------------------------- a level store (grundy solve --store)
@needs_cc
def test_a_level_store_answers_as_the_reference(tmp_path):
    from grundy.solvers.levelled import solve_levelled
    from grundy.solvers.levelled.source import LEVEL_STORE, LevelStoreSource
    p = read_position({"game": "edge-nim", "nodes": [0, 1, 2], "edges": [[0, 1, 2], [1, 2, 1], [0, 2, 2]],
                       "token": 0})
    store = solve_levelled(p.game, p.structure, [p.state], engine="numpy", root=tmp_path)

    def with_store():                          # registered first, as grundy solve --store does
        s = Solver(native=True)
        s.sources = (LevelStoreSource(store), *s.sources)
        return s
    states = batch(p.game, p.structure, p.state, 4)
    for conv in ("normal", "misere"):
        for sweep in (False, True):
            got = check_every_source(with_store, p.game, p.structure, states, conv, sweep)
            assert (LEVEL_STORE in got) == (conv == "normal")       # normal play only
    src = with_store().sources[0]
    for method in ("can_answer", "values"):    # handed the context, as every source
        ctx = list(inspect.signature(getattr(src, method)).parameters.values())[0]
        assert ctx.name == "ctx" and "SourceContext" in str(ctx.annotation)


# --------------------------------------------------------------------------- no source knows the solver
SOURCE_MODULES = ["sources.py", "search.py", "theorems.py", "context.py", "coins.py", "levelled/source.py"]


def test_no_source_receives_the_solver():
    for src in Solver().sources:
        for method in ("can_answer", "values"):
            params = list(inspect.signature(getattr(src, method)).parameters.values())
            assert params[0].name == "ctx" and "SourceContext" in str(params[0].annotation), (src.name, method)
            assert not any("Solver" in str(p.annotation) for p in params), (src.name, method)
    ctx = Solver().ctx                       # what they are handed: no reference to a solver in it
    assert isinstance(ctx, SourceContext) and not any(isinstance(v, Solver) for v in vars(ctx).values())


def test_no_source_module_imports_the_solver():
    here = Path(__file__).parent.parent / "grundy" / "solvers"
    for name in SOURCE_MODULES:
        tree = ast.parse((here / name).read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom):
                assert node.module not in ("solver", "grundy.solvers.solver"), (name, node.module)
                assert all(a.name != "Solver" for a in node.names), name
            if isinstance(node, ast.ClassDef):     # no exception class: a hand-over is a value
                assert not any(getattr(b, "id", "").endswith(("Exception", "Error")) for b in node.bases), \
                    (name, node.name)


def test_the_context_makes_the_solvers_limit_error_and_keeps_no_cycle_through_it():
    import weakref

    from grundy.errors import SolverLimit

    class Counting(Solver):                  # as the verify pool's solver counts the limits it hits
        hits = 0

        def _limit(self):
            self.hits += 1
            return super()._limit()
    s = Counting(native=False, max_positions=50)
    with pytest.raises(SolverLimit, match="50 positions"):
        s.grundy(read_position({"game": "wythoff", "heaps": [20, 30]}))
    assert s.hits == 1
    gone = weakref.ref(s)
    del s
    assert gone() is None                    # freed at once: the context holds the solver weakly
