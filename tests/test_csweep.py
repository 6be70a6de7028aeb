"""The explicit sweep of a structure in C beside the kernel (grundy/verify/check/csweep.py,
grundy/solvers/native/sweep.py) against the Python path: the same verdicts, counts,
counterexamples and cross-check samples, planted false claims included; the C path used where
it serves and declined where it could be inexact."""
import itertools
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hs

from grundy import Solver
from grundy.settings import override
from grundy.solvers.native import build
from grundy.solvers.native.sweep import SweepRun, sweep_source
from grundy.spec import Structure, all_of, any_of
from grundy.spec.games import get_game
from grundy.verify.check import csweep
from grundy.verify.check.deadline import Deadline
from grundy.verify.check.sweep import sweep
from grundy.verify.claims import Claim, Explicit
from grundy.verify.families import complete, heaps
from grundy.verify.loading import load
from grundy.verify.recheck import CrossCheck
from grundy.verify.sample import Sample

THEOREMS = Path(__file__).resolve().parents[1] / "theorems"
pytestmark = pytest.mark.skipif(not build.available(), reason="no C compiler here")


def run(claim, c_path: bool, monkeypatch, c_from: int = 0, c_always: int | None = None):
    """The sweep's result and its cross-check sample; how many ranges C checked (``c_always``
    default ``c_from``: no cost test, C wherever it serves)."""
    monkeypatch.setattr(csweep, "ENABLED", c_path)
    calls = []
    real = SweepRun.run

    def spy(self, *a, **k):
        got = real(self, *a, **k)
        calls.append(got is not None and got[0] == 0)
        return got
    monkeypatch.setattr(SweepRun, "run", spy)
    cross = CrossCheck(claim)
    with override(c_from=c_from, c_always=c_from if c_always is None else c_always):
        r = sweep(claim, Explicit(), claim.bounds, Solver(), Deadline(None), cross=cross)
    cex = r.cex and (r.cex.witness, r.cex.claimed, r.cex.actual, r.cex.structure, r.cex.how)
    sample = [(e[0], e[1], e[3]) for e in cross.sample.entries()]
    return (r.checked, r.met, r.structures, r.complete, r.text, cex, sample), sum(calls)


def same(claim, monkeypatch, c_from: int = 0):
    c, used = run(claim, True, monkeypatch, c_from)
    p, unused = run(claim, False, monkeypatch, c_from)
    assert unused == 0
    assert c == p
    return c, used


def heavy(g, s):
    """A planted false characterization: P iff every edge at the token weighs at least 3."""
    return any_of((s.token == t) & all_of(s.weight[g.edge_id(min(t, u), max(t, u))] >= 3
                                          for u in g.vertices if u != t) for t in g.vertices)


def edge0(g, s):
    """A planted false Grundy formula: the weight at edge 0."""
    return s.weight[0]


def nim_sum(g, s):
    x = s.heap[0]
    for i in range(1, g.n):
        x = x ^ s.heap[i]
    return x


def zero_sum(g, s):
    return nim_sum(g, s) == 0


def big_heaps(g, s):
    return all_of(s.heap[i] >= 2 for i in g.elements)


CLAIMS = [
    Claim("t/heavy", game="edge-nim", kind="char", family=complete(4), statement=heavy,
          bounds={"weight": (1, 4)}, expect="refuted"),
    Claim("t/heavy-misere", game="edge-nim", kind="char", family=complete(4), statement=heavy,
          bounds={"weight": (1, 4)}, convention="misere", expect="refuted"),
    Claim("t/edge0", game="edge-nim", kind="grundy", family=complete(4), statement=edge0,
          bounds={"weight": (1, 4)}, expect="refuted"),
    Claim("t/bouton", game="nim", kind="grundy", family=heaps(2, 3), statement=nim_sum,
          bounds={"heap": 9}, expect="proved"),
    Claim("t/bouton-p", game="nim", kind="char", family=heaps(2, 3), statement=zero_sum, assume=big_heaps,
          bounds={"heap": 9}, expect="proved"),
]


@pytest.mark.parametrize("claim", CLAIMS, ids=[c.id for c in CLAIMS])
def test_c_sweep_equals_python(claim, monkeypatch):
    (checked, met, _, complete_, _, cex, sample), used = same(claim, monkeypatch)
    assert complete_ and checked > 0 and (sample or cex)
    assert (cex is not None) == (claim.expect == "refuted")
    if claim.game == "edge-nim" or claim.convention == "misere" or claim.kind == "char":
        assert used > 0                       # the C path served (nim's Grundy values: one-heap tables)
    if claim.assume is not None:
        assert checked < met


@pytest.mark.parametrize("c_path", [True, False])
def test_a_refuted_sweep_passes_over_larger_positions_and_keeps_the_least(c_path, monkeypatch):
    """Once a failure is found, positions of a larger sum are not judged: fewer are checked
    than the assumption admits, and the counterexample is the least of every failure, found by
    judging each position of the structure alone."""
    from grundy.verify.check.instance import Instance
    from grundy.verify.families import size_key, states
    claim = Claim("t/heavy-k3", game="edge-nim", kind="char", family=complete(3), statement=heavy,
                  bounds={"weight": (1, 4)}, expect="refuted")
    (checked, met, _, _, _, cex, _), used = run(claim, c_path, monkeypatch)
    assert (used > 0) == c_path
    label, g = next(iter(claim.family.items()))
    inst = Instance(claim, label, g, Solver())
    failures = []
    for st in states(inst.rules, claim.bounds, None):
        found = inst.judge(st, inst.prefetch([st])[0])
        if found is not None:
            failures.append((size_key(inst.rules, st), st))
    least = min(failures)[1]
    assert checked < met == 64 * 3
    assert cex[0] == inst.position(least).to_json()


def test_planted_claims(monkeypatch):
    """Every planted false claim of the library, its explicit sweep in C where it serves."""
    planted = [c for c in load([str(THEOREMS / "planted.py")], None) if c.kind != "strategy"]
    assert len(planted) >= 4
    served = 0
    for claim in planted:
        (_, _, _, _, _, cex, _), used = same(claim, monkeypatch)
        assert cex is not None, claim.id
        served += used > 0
    assert served >= 2


def test_threshold_keeps_small_structures_in_python(monkeypatch):
    monkeypatch.setattr(csweep, "VM", False)        # (with it: the interpreter, tests/test_vm.py)
    _, used = same(CLAIMS[0], monkeypatch, c_from=10 ** 9)
    assert used == 0


def test_below_c_always_the_first_starts_tell_whether_a_kernel_pays(tune, monkeypatch):
    """Between c_from and c_always starts (grundy.settings), the first `pilot` starts are judged in Python, and the
    rest go to C only where the kernel's compiler time (build.compile_cost, shared among the
    structures of the sweep with the same text) is below what the Python path would spend on
    them (py_store a position its solver stored on the first ones, py_judge a start); else the
    rest in Python too. Either way the answers, the scope and the cross-check's sample are the
    Python path's."""
    asked: list[bool] = []
    real = csweep.worth

    def spy(*a):
        got = real(*a)
        asked.append(got)
        return got
    monkeypatch.setattr(csweep, "worth", spy)
    tune(pilot=100)
    p, _ = run(CLAIMS[0], False, monkeypatch)
    tune(py_judge=1.0)           # a dear Python: every kernel pays
    c, used = run(CLAIMS[0], True, monkeypatch, c_always=10 ** 9)
    assert c == p and used > 0 and asked and all(asked)
    asked.clear()
    tune(py_judge=1e-12)         # a cheap Python: none pays
    tune(py_store=1e-12)
    monkeypatch.setattr(csweep, "VM", False)
    c, used = run(CLAIMS[0], True, monkeypatch, c_always=10 ** 9)
    assert c == p and used == 0 and asked and not any(asked)
    monkeypatch.setattr(csweep, "VM", True)     # ... the rest then in the interpreter (native/vm.py)
    c, used = run(CLAIMS[0], True, monkeypatch, c_always=10 ** 9)
    assert c == p and used > 0


def test_a_text_met_again_shares_its_compiler_time():
    tally = csweep.Tally()
    text = "x" * 60_000
    cost = build.compile_cost(text, True)
    assert csweep.kernel_cost(tally, text, True) == cost
    assert csweep.kernel_cost(tally, text, True) == cost / 2                       # met twice
    assert csweep.kernel_cost(tally, text + " ", True) == build.compile_cost(text + " ", True)   # its own count


def test_a_sweep_kernel_declined_leaves_the_table_as_it_was():
    """A kernel the sweep cannot have (a box beyond 64-bit keys) does not leave the table marked
    as the kernel's: the Python path then answers as it would have, not through a kernel built
    on the side (vnim/thm3 took 9 s compiling one)."""
    from grundy.solvers.native.kernel import MAX_KEY, Box
    from grundy.solvers.solver import Query
    solver = Solver()
    g = Structure.heaps(3)
    game = get_game("nim")
    rules = game.rules(g)
    box = Box.around(rules, [(0, 0, 0), (2 ** 22, 2 ** 22, 2 ** 22)])
    assert box.size >= MAX_KEY
    assert solver.sweep_kernel(game, g, "normal", "wins", box, "") is None
    t = Query(game, g, "normal", "wins", sweep=True).table(solver)
    assert not t.in_use and not t.kernels


def test_inexact_statements_are_declined():
    r = get_game("nim").rules(Structure.heaps(2))
    s = r.state
    vals = [list(range(10)), list(range(10))]
    assert sweep_source(r, s.heap[0] == s.heap[1], s.heap[0] >= 0, vals) is not None
    huge = s.heap[0] * (2 ** 40) * (2 ** 30) + s.heap[1]      # beyond 64 bits at the bounds
    assert sweep_source(r, huge == 0, s.heap[0] >= 0, vals) is None
    assert sweep_source(r, s.heap[0] == 0, huge > 0, vals) is None
    assert sweep_source(r, s.heap[0] == 0, s.heap[0] >= 0, [[0, 2 ** 63 - 1], [0]]) is None


def test_ranges_in_product_order():
    r = get_game("nim").rules(Structure.heaps(3))
    vals = [[0, 2, 5], [1], [3, 4, 7, 9]]
    run_ = SweepRun(r, vals, by_value=False)
    every = list(itertools.product(*vals))
    assert [run_.state(i) for i in range(run_.size)] == every
    assert list(run_.states(4, 11)) == every[4:11]


def test_sample_totals_as_computed():
    wheres = [(a, b) for a in range(6) for b in range(6)]
    key = lambda w: (2, 0, sum(w), max(w), w)  # noqa: E731
    one, two = Sample(3, 5, 4), Sample(3, 5, 4)
    for part in (wheres[:10], wheres[10:]):
        one.add("o", part, key, sum)
        two.add("o", part, key, sum, [sum(w) for w in part])
    assert one.entries() == two.entries()


@settings(max_examples=6, deadline=None)
@given(hs.integers(1, 3), hs.integers(0, 3), hs.integers(2, 4), hs.integers(0, 1))
def test_random_linear_claims(a, b, m, r):
    """Random false or true characterizations of nim on two heaps, ``a*h0 + b*h1 = r (mod m)``
    at the P-positions: the C and Python sweeps agree (verdict, counts, counterexample)."""
    def stmt(g, s):
        return (a * s.heap[0] + b * s.heap[1]) % m == r

    claim = Claim("t/linear", game="minnie", kind="char", family=heaps(2), statement=stmt,
                  bounds={"heap": 7}, expect="refuted")
    with pytest.MonkeyPatch.context() as mp:
        c, used = run(claim, True, mp)
        p, _ = run(claim, False, mp)
    assert c == p and used > 0


def _kernels_made(monkeypatch) -> list:
    """The sweep kernels the solver hands out from now on (None where none serves), in order."""
    kernels: list = []
    real = Solver.sweep_kernel

    def spy(self, *a, **k):
        got = real(self, *a, **k)
        kernels.append(got)
        return got
    monkeypatch.setattr(Solver, "sweep_kernel", spy)
    return kernels


def test_a_sweep_kernel_optimized_in_the_middle_of_a_sweep_answers_as_python(tune, monkeypatch):
    """A sweep kernel on a large box starts with -Og and goes on with -O1 (a sweep of moderate
    size) once it has paused upgrade_after times (kernel.counted), in the middle of a range:
    the same verdict, counts and sample as the Python path (no reduction: 68,921 starts, each
    solved, so the kernel pauses)."""
    tune(upgrade_after=1)
    tune(quick_box=0)                # every box large: tiered
    tune(c_quick=0)              # the sweep asks for no -Og: light
    tune(c_from=0)
    tune(c_always=0)
    kernels = _kernels_made(monkeypatch)
    bouton = Claim("t/bouton-40", game="nim", kind="grundy", family=heaps(3), statement=nim_sum,
                   bounds={"heap": 40}, expect="verified")
    got = []
    for c_path in (True, False):
        monkeypatch.setattr(csweep, "ENABLED", c_path)
        cross = CrossCheck(bouton)
        r = sweep(bouton, Explicit(), bouton.bounds, Solver(symmetry=False, decompose=False), Deadline(None),
                  cross=cross)
        got.append((r.checked, r.met, r.complete, r.text, r.cex, [(e[0], e[1], e[3]) for e in cross.sample.entries()]))
    assert got[0] == got[1] and got[0][0] == 41 ** 3
    assert kernels and all(k is not None and not k.tiered and k.light and not k.quick for k in kernels)


def test_the_next_claims_sweep_kernel_takes_on_the_table(monkeypatch):
    """Two claims on one solver, the same rules and box: the second claim's kernel (its own
    statement compiled) takes on the first one's table, and both sweeps answer as the Python
    path's."""
    kernels = _kernels_made(monkeypatch)
    claims = [Claim(f"t/nim-{i}", game="nim", kind="char", family=heaps(3), statement=stmt,
                    bounds={"heap": 12}) for i, stmt in enumerate((zero_sum, lambda g, s: s.heap[0] == s.heap[1]))]
    got = []
    for c_path in (True, False):
        monkeypatch.setattr(csweep, "ENABLED", c_path)
        solver = Solver(symmetry=False, decompose=False)
        with override(c_from=0, c_always=0):
            for claim in claims:
                r = sweep(claim, Explicit(), claim.bounds, solver, Deadline(None), cross=CrossCheck(claim))
                got.append((c_path, r.checked, r.complete, r.text, r.cex and r.cex.witness))
    assert [g[1:] for g in got[:2]] == [g[1:] for g in got[2:]]
    distinct = list({id(k): k for k in kernels if k is not None}.values())   # asked once a range
    first, second = distinct
    assert first is not second and first.extra != second.extra
    assert second._owned is first._owned and second.stored >= first.stored > 0


def test_an_assumption_true_everywhere_is_not_evaluated_per_position(monkeypatch):
    """An assumption that is the constant True admits every position without being evaluated
    (Instance.assumes_nothing); any other is evaluated at each (fewer positions checked)."""
    from grundy.verify.check.instance import Instance
    monkeypatch.setattr(Instance, "assume", property(lambda self: pytest.fail("evaluated")))
    always = Claim("t/always", game="nim", kind="char", family=heaps(2), statement=zero_sum,
                   assume=lambda g, s: True, bounds={"heap": 5}, expect="proved")
    (checked, met, *_), _ = run(always, False, monkeypatch)
    assert checked == met == 36
    monkeypatch.undo()
    (checked, met, *_), _ = run(CLAIMS[-1], False, monkeypatch)
    assert checked < met
