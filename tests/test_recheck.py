"""The cross-check (grundy.verify.recheck): the reference engine behind every verdict.

The disagreement path is tested with a deliberately broken value source: the explicit solver
patched to give a wrong value at one position (a would-be ``verified`` claim and would-be
``refuted`` ones must come back ``error`` naming the position), and a certificate's moves
patched; then the sample itself (which positions, the same every run), ``--recheck all`` and
``--recheck none`` on a small theorem file, and what the scope says.
"""
from __future__ import annotations

import json
import re
import textwrap

import pytest

from grundy.cli import main
from grundy.solvers.solver import Solver
from grundy.spec import HeapGame, Position, ite, maximum, minimum, move
from grundy.verify import Claim, heaps, positions, recheck
from grundy.verify.check import check_claim, csweep
from grundy.verify.check import claim as check_run
from grundy.verify.check import deadline as check_deadline
from grundy.verify.check import replay as check_replay
from grundy.verify.verdict import Verdict


@pytest.fixture(autouse=True)
def _forget_test_games():
    """Games registered by a test are forgotten after it (other tests list every game)."""
    from grundy.spec.registry import GAMES as registry
    with registry.scoped():
        yield


def nim_p(h):
    x = 0
    for v in h:
        x ^= v
    return x == 0


def _lie(monkeypatch, at: tuple | set, outcome: str | None = None, value: int | None = None):
    """The explicit solver, broken at the state ``at`` (or each of a set of states): it says
    ``outcome`` / ``value`` there."""
    at = at if isinstance(at, set) else {at}
    wins, grundy = Solver.mover_wins, Solver.grundy
    # the sweep on the Python path, which asks the broken solver (the C interpreter, which
    # serves nim's heaps with components, would search them itself)
    monkeypatch.setattr(csweep, "VM", False)

    def mover_wins(self, pos):
        if isinstance(pos, Position) and pos.state in at and outcome is not None:
            return outcome == "N"
        return wins(self, pos)

    def value_(self, pos):
        if isinstance(pos, Position) and pos.state in at and value is not None:
            return value
        return grundy(self, pos)
    answers = Solver.answers

    def answers_(self, game, structure, states, convention="normal", question="wins"):   # a sweep's chunk
        got = answers(self, game, structure, states, convention, question)
        lie = (None if outcome is None else outcome == "N") if question == "wins" else value
        return [lie if st in at and lie is not None else v for st, v in zip(states, got, strict=True)]
    monkeypatch.setattr(Solver, "mover_wins", mover_wins)
    monkeypatch.setattr(Solver, "grundy", value_)
    monkeypatch.setattr(Solver, "answers", answers_)


def test_a_would_be_pass_is_an_error_naming_the_position(monkeypatch):
    # nim on two heaps: P iff equal, except that [2, 3] and [3, 2] are claimed P (they are N:
    # take 1 from the heap of 3); the solver is broken at both (a small table is not reduced by
    # symmetry: each is solved as itself)
    claim = Claim("x/nim-lie", game="nim", kind="char", family=heaps(2), bounds={"heap": 5},
                  statement=lambda g, s: (s.heap[0] == s.heap[1]) | ((s.heap[0] + s.heap[1] == 5)
                                                                   & (s.heap[0] * 1 >= 2) & (s.heap[1] >= 2)))
    assert not nim_p([2, 3])
    assert check_claim(claim).verdict == "refuted"              # the solver, unbroken, finds it
    _lie(monkeypatch, {(2, 3), (3, 2)}, outcome="P")             # ... broken, it agrees with the claim
    assert check_claim(claim, recheck="none").verdict == "verified"
    v = check_claim(claim)
    assert v.verdict == "error" and v.counterexample is None
    assert v.detail == ('the solvers disagree at {"game": "nim", "heaps": [2, 3]}: N by the reference engine, '
                        'P by the solver')


def test_a_would_be_refutation_is_an_error_naming_the_position(monkeypatch):
    true = Claim("x/nim-true", game="nim", kind="char", family=heaps(2), bounds={"heap": 5},
                 statement=lambda g, s: s.heap[0] == s.heap[1])
    _lie(monkeypatch, (1, 2), outcome="P")                       # [1, 2] is N
    assert check_claim(true, recheck="none").verdict == "refuted"
    v = check_claim(true)
    assert v.verdict == "error" and v.counterexample is None
    assert v.detail == ('the solvers disagree at {"game": "nim", "heaps": [1, 2]}: N by the reference engine, '
                        'P by the solver')


def test_the_evaluators_disagreeing_is_an_error_naming_the_position(monkeypatch):
    # the statement as compiled to Python (what the cross-check compares the reference
    # engine's own evaluation with on the Python path) broken at [2, 3]: the position is named
    # in the error. The sweep runs on the Python path (the interpreter off: where it sweeps a
    # structure whole, its own program of the statement is what the cross-check compares, and
    # the compiled statement is not read at all)
    from grundy.verify.check import instance
    monkeypatch.setattr(csweep, "VM", False)
    plain = instance.compile_expr

    def lying(rules, e):
        f = plain(rules, e)
        return (lambda s: True if tuple(s) == (2, 3) else f(s)) if e.op == "eq" else f
    monkeypatch.setattr(instance, "compile_expr", lying)
    claim = Claim("x/nim-eval", game="nim", kind="char", family=heaps(2), bounds={"heap": 5},
                  statement=lambda g, s: s.heap[0] == s.heap[1])
    v = check_claim(claim)
    assert v.verdict == "error"
    assert v.detail == ('the evaluators disagree at {"game": "nim", "heaps": [2, 3]}: the statement is N by the '
                        "reference engine's evaluator, P as compiled")


def test_a_would_be_refutation_of_a_value_is_an_error(monkeypatch):
    true = Claim("x/nim-value", game="nim", kind="grundy", family=heaps(1), bounds={"heap": 8},
                 statement=lambda g, s: s.heap[0])
    _lie(monkeypatch, (3,), value=5)
    assert check_claim(true, recheck="none").verdict == "refuted"
    v = check_claim(true)
    assert v.verdict == "error"
    assert "disagree at {\"game\": \"nim\", \"heaps\": [3]}: 3 by the reference engine, 5 by the solver" in v.detail


def test_a_listed_sum_is_cross_checked_on_the_sum(monkeypatch):
    sums = positions([{"game": "sum", "parts": [{"game": "nim", "heaps": [a]}, {"game": "nim", "heaps": [b]}]}
                      for a in range(4) for b in range(4)], "nim + nim")
    claim = Claim("x/sums", game="sum", kind="grundy", family=sums,
                  statement=lambda g, s: s[0].heap[0] ^ s[1].heap[0])
    v = check_claim(claim)
    assert v.verdict == "verified" and "cross-checked by the reference engine at 16 positions" in v.scope
    grundy = Solver.grundy

    def broken(self, pos):                 # a sum's value: the XOR of wrong part values
        if isinstance(pos, Position) and pos.state == (2,):
            return 7
        return grundy(self, pos)
    monkeypatch.setattr(Solver, "grundy", broken)
    v = check_claim(claim)
    assert v.verdict == "error" and "the solvers disagree at" in v.detail and "by the reference engine" in v.detail


def test_a_certificate_is_rechecked_on_the_rule(monkeypatch):
    # true only below 3000: [3000, 3000] is claimed N, and each of its 6000 moves leads outside
    # the claimed P-positions (NP): a certificate, re-checked with the engine's moves
    claim = Claim("x/np", game="nim", kind="char", family=heaps(2), bounds={"heap": 6},
                  statement=lambda g, s: (s.heap[0] == s.heap[1]) & (s.heap[0] != 3000),
                  methods=["explicit", "smt"], expect="refuted")
    v = check_claim(claim)
    assert v.verdict == "refuted" and v.counterexample.how.startswith("a partition certificate")
    assert v.scope.endswith("; the certificate cross-checked by the reference engine")
    real = check_replay._all_options

    def lost(inst, state):                  # a move lost by the solver's representation
        opts = real(inst, state)
        return opts[1:] if opts else opts
    monkeypatch.setattr(check_replay, "_all_options", lost)
    v = check_claim(claim)
    assert v.verdict == "error", v.scope
    n = int(re.search(r"(\d+) moves by the reference engine, (\d+) by the solver", v.detail).group(1))
    assert n >= 6000 and f"{n} moves by the reference engine, {n - 1} by the solver" in v.detail


def test_a_single_move_certificate_is_rechecked(monkeypatch):
    claim = Claim("x/pn", game="nim", kind="char", family=heaps(2), bounds={"heap": 6},
                  statement=lambda g, s: (s.heap[0] == s.heap[1]) | ((s.heap[0] == 1) & (s.heap[1] == 5000)),
                  methods=["explicit", "smt"], expect="refuted")
    v = check_claim(claim)
    assert v.verdict == "refuted" and "cross-checked by the reference engine" in v.scope
    real = check_replay._apply

    def elsewhere(inst, mi, cv, state):     # the solver's move lands on another (claimed P) position
        nxt = real(inst, mi, cv, state)
        if nxt is None:
            return None
        return (nxt[0], nxt[0]) if nxt[0] != nxt[1] else (nxt[0] + 1, nxt[0] + 1)
    monkeypatch.setattr(check_replay, "_apply", elsewhere)
    v = check_claim(claim)
    assert v.verdict == "error" and "not legal there" in v.detail


def test_strategy_and_exactness_counterexamples_are_rechecked():
    from pathlib import Path

    from grundy.verify.loading import load
    theorems = Path(__file__).resolve().parents[1] / "theorems"
    claims = {c.id: c for c in load([str(theorems / "planted.py"), str(theorems / "erickson.py")],
                                    ["planted/prop3.1-strategy-off-by-one", "erickson/prop3.1-strategy-unique"])}
    v = check_claim(claims["planted/prop3.1-strategy-off-by-one"])     # the strategy's move is not legal
    assert v.verdict == "refuted" and "it fails" in str(v.counterexample.actual)
    assert v.scope.endswith("the counterexample cross-checked by the reference engine")
    v = check_claim(claims["erickson/prop3.1-strategy-unique"])         # not exactly the winning moves
    assert v.verdict == "refuted" and str(v.counterexample.actual).startswith("winning moves")
    assert v.scope.endswith("the counterexample cross-checked by the reference engine")


def test_the_engine_re_solves_with_the_collector_paused(monkeypatch):
    """The reference engine's searches run with Python's cycle collector off (what they make
    dies with the engine), and it is as it was afterwards: on after a pass, a refutation and a
    disagreement; off if it was off."""
    import gc
    seen: list[bool] = []
    search = recheck.Reference.mover_wins

    def spy(self, pos):
        seen.append(gc.isenabled())
        return search(self, pos)
    monkeypatch.setattr(recheck.Reference, "mover_wins", spy)
    true = Claim("x/nim-eq", game="nim", kind="char", family=heaps(2), bounds={"heap": 5},
                 statement=lambda g, s: s.heap[0] == s.heap[1])
    false = Claim("x/nim-le", game="nim", kind="char", family=heaps(2), bounds={"heap": 5},
                  statement=lambda g, s: s.heap[0] <= s.heap[1])
    gc.enable()
    v = check_claim(true)
    assert v.verdict == "verified" and "cross-checked by the reference engine at 36" in v.scope
    assert seen and not any(seen) and gc.isenabled()
    seen.clear()
    v = check_claim(false)
    assert v.verdict == "refuted" and "the counterexample cross-checked" in v.scope
    assert seen and not any(seen) and gc.isenabled()
    gc.disable()
    try:
        assert check_claim(true).verdict == "verified" and not gc.isenabled()
    finally:
        gc.enable()
    _lie(monkeypatch, (1, 2), outcome="P")
    assert check_claim(true).verdict == "error" and gc.isenabled()


def test_the_sample_is_the_smallest_and_a_seeded_draw():
    claim = Claim("x/big", game="nim", kind="char", family=heaps(3), bounds={"heap": 15},
                  statement=lambda g, s: (s.heap[0] ^ s.heap[1] ^ s.heap[2]) == 0)
    taken = []
    for _ in range(2):
        cross = recheck.CrossCheck(claim)
        check_run._run(claim, "quick", Solver(), check_deadline.Deadline(None), lambda _: None,
                       Verdict(claim.id, claim.kind, "unknown"), False, cross)
        taken.append([(e[1], e[3]) for e in cross.sample.entries()])
    assert taken[0] == taken[1]                                      # the same sample every run
    states = [s for _, s in taken[0]]
    assert len(states) == len(set(states)) == recheck.SMALLEST + recheck.DRAWN
    smallest = sorted(states, key=lambda s: (sum(s), max(s), s))[:recheck.SMALLEST]
    assert states[:recheck.SMALLEST] == smallest                     # smallest first, in size order
    assert all(sum(s) <= sum(smallest[-1]) for s in states[:recheck.SMALLEST])
    drawn = states[recheck.SMALLEST:]
    assert max(map(sum, drawn)) > 30 and min(map(sum, drawn)) < 25   # drawn from the whole sweep


THEOREMS = textwrap.dedent('''
    from grundy.verify import Claim, heaps
    CLAIMS = [Claim("small/nim", game="nim", kind="char", family=heaps(2), bounds={"heap": 30},
                    statement=lambda g, s: s.heap[0] == s.heap[1]),
              Claim("small/nim-false", game="nim", kind="char", family=heaps(2), bounds={"heap": 30},
                    statement=lambda g, s: s.heap[0] <= s.heap[1], expect="refuted")]
''')


@pytest.mark.parametrize("mode", ["all", "none", "sample"])
def test_recheck_modes_on_a_small_theorem_file(tmp_path, capsys, monkeypatch, mode):
    monkeypatch.setenv("GRUNDY_CACHE", str(tmp_path / "cache"))
    f = tmp_path / "small.py"
    f.write_text(THEOREMS)
    assert main(["verify", str(f), "--json", "--jobs", "1", "--recheck", mode]) == 0
    got = {o["id"]: o for o in map(json.loads, capsys.readouterr().out.splitlines()) if "id" in o}
    ok, bad = got["small/nim"], got["small/nim-false"]
    if mode == "all":        # every swept position re-solved
        assert ok["coverage"]["cross_checked"] == ok["coverage"]["positions"] == 961
        assert "; cross-checked by the reference engine at 961 positions" in ok["scope"]
    elif mode == "none":
        assert "cross_checked" not in ok["coverage"]
        assert "; not cross-checked (--recheck none)" in ok["scope"]
    else:                    # 200 smallest + 200 drawn, within the budget
        cov = ok["coverage"]
        assert cov["cross_checked"] + cov["cross_check_beyond"] == 400 and cov["cross_checked"] >= 200
    assert bad["verdict"] == "refuted"
    assert ("not cross-checked" in bad["scope"]) == (mode == "none")


def test_recheck_all_through_the_executor(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("GRUNDY_CACHE", str(tmp_path / "cache"))
    f = tmp_path / "small.py"
    f.write_text(textwrap.dedent('''
        from grundy.verify import Claim, heaps
        CLAIMS = [Claim("small/nim", game="nim", kind="char", family=heaps(1, 2), bounds={"heap": 12},
                        statement=lambda g, s: s.heap[0] == (s.heap[1] if g.n == 2 else 0))]
    '''))
    assert main(["verify", str(f), "--json", "--executor", "local:2", "--recheck", "all"]) == 0
    got = {o["id"]: o for o in map(json.loads, capsys.readouterr().out.splitlines()) if "id" in o}
    ok = got["small/nim"]
    assert ok["coverage"]["cross_checked"] == ok["coverage"]["positions"] == 13 + 169


def test_the_cache_keys_the_recheck_mode(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("GRUNDY_CACHE", str(tmp_path / "cache"))
    f = tmp_path / "small.py"
    f.write_text(THEOREMS)
    main(["verify", str(f), "--recheck", "none"])
    capsys.readouterr()
    main(["verify", str(f)])
    out = capsys.readouterr().out
    assert "from the cache" not in out and "cross-checked by the reference engine at" in out


def test_misere_values_are_compared_as_misere_values(monkeypatch):
    claim = Claim("x/misere", game="nim", kind="grundy", family=heaps(1), bounds={"heap": 9},
                  convention="misere", statement=lambda g, s: ite(s.heap[0] <= 1, 1 - s.heap[0], s.heap[0]))
    v = check_claim(claim)
    assert v.verdict == "verified" and "cross-checked by the reference engine at 10 positions" in v.scope
    _lie(monkeypatch, (1,), value=1)
    v = check_claim(Claim("x/misere-wrong", game="nim", kind="grundy", family=heaps(1), bounds={"heap": 9},
                          convention="misere", statement=lambda g, s: ite(s.heap[0] == 0, 1, s.heap[0])))
    assert v.verdict == "error" and '"heaps": [1], "convention": "misere"}: 0 by the reference engine' in v.detail


# ------------------------------------------------------------------ tests/soundness/large.py
def _nim_moves(h: tuple[int, int]) -> list[tuple[int, int]]:
    """Nim, in words: take k >= 1 tokens from one heap."""
    return [(h[0] - k, h[1]) for k in range(1, h[0] + 1)] + [(h[0], h[1] - k) for k in range(1, h[1] + 1)]


def _p_positions(misere: bool, top: int) -> set[tuple[int, int]]:
    """Two-heap nim's P-positions up to ``top`` by the definition alone: P iff no move leads to
    a P-position, except at the end, where the player to move loses (normal play) or wins
    (misère play)."""
    p: set[tuple[int, int]] = set()
    for total in range(2 * top + 1):
        for a in range(max(0, total - top), min(total, top) + 1):
            h = (a, total - a)
            opts = _nim_moves(h)
            if (not opts and not misere) or (opts and not any(o in p for o in opts)):
                p.add(h)
    return p


def test_the_large_planted_claims_are_false_by_brute_force():
    """Each planted claim of tests/soundness/large.py, in Python from the rules in words: below
    its far position it states the P-positions found by brute force; at the far position it
    claims N while every move leads to a position it also claims N (so it contradicts itself:
    an N-position has a move to a P-position). The far position is P: the heaps are equal."""
    H, H_BITS = 300_000, 400_000
    equal = lambda h: h[0] == h[1]                                             # noqa: E731
    misere = lambda h: (h[0] == h[1] and max(h) > 1) or (max(h) <= 1 and sum(h) == 1)   # noqa: E731
    planted = {"large/np-far": (lambda h: equal(h) and h != (H, H), H, False),
               "large/np-far-20-bit": (lambda h: equal(h) and h[0] != H_BITS, H_BITS, False),
               "large/np-far-strategy": (lambda h: equal(h) and h != (H, H), H, False),
               "large/np-far-misere": (lambda h: misere(h) and h != (H, H), H, True)}
    for cid, (claim, far, mis) in planted.items():
        truth = _p_positions(mis, 12)
        assert {h for h in truth} == {(a, b) for a in range(13) for b in range(13) if claim((a, b))}, cid
        assert not claim((far, far)) and not any(claim(o) for o in _nim_moves((far, far))), cid


# ------------------------------------------------------------------ what it catches unpredicted
class _Lopsided(HeapGame):
    """Heap 1 plays nim, heap 2 plays the subtraction game S(1..4): not symmetric, although the
    default declaration says so, and like nim on heaps of at most 3 (where a vet would look)."""
    name = "recheck-test-lopsided"
    heap_count = 2

    def moves(self, g, s):
        yield move("take {k} from heap 1", choose=[("k", 1, s.heap[0])], update=lambda k: s.set(heap={0: s.heap[0] - k}))
        yield move("take {k} from heap 2", choose=[("k", 1, minimum(4, s.heap[1]))],
                   update=lambda k: s.set(heap={1: s.heap[1] - k}))


def _lopsided_values(top: int) -> dict[tuple[int, int], int]:
    """Grundy values by the definition (mex of the options), from the rules in words."""
    val: dict[tuple[int, int], int] = {}
    for a in range(top + 1):
        for b in range(top + 1):
            opts = {val[(a - k, b)] for k in range(1, a + 1)} | {val[(a, b - k)] for k in range(1, min(4, b) + 1)}
            val[(a, b)] = next(m for m in range(len(opts) + 1) if m not in opts)
    return val


def test_a_wrong_declared_symmetry_never_passes_nor_refutes_a_true_claim():
    game = _Lopsided()
    val = _lopsided_values(7)
    assert all(val[(a, b)] == a ^ (b % 5) for a in range(8) for b in range(8))   # the true values
    true = Claim("x/lopsided-true", game=game, kind="grundy", family=heaps(2), bounds={"heap": 7},
                 statement=lambda g, s: s.heap[0] ^ (s.heap[1] % 5))
    # what a solver that sorts the heaps would compute: false at [7, 2] (it is 5)
    false = Claim("x/lopsided-false", game=game, kind="grundy", family=heaps(2), bounds={"heap": 7},
                  statement=lambda g, s: minimum(s.heap[0], s.heap[1]) ^ (maximum(s.heap[0], s.heap[1]) % 5))
    assert val[(7, 2)] == 5 and min(7, 2) ^ (max(7, 2) % 5) == 0
    v = check_claim(true)
    assert v.verdict in ("verified", "error"), v.scope          # never refuted
    if v.verdict == "error":
        assert v.detail.startswith("the solvers disagree at"), v.detail
    v = check_claim(false)
    assert v.verdict in ("refuted", "error"), v.scope           # never verified
    if v.verdict == "error":
        assert v.detail.startswith("the solvers disagree at"), v.detail


def _misere_lasker(top: int) -> list[int]:
    """Misère Grundy values of one heap of Lasker's Nim, from the rules in words: remove any
    number of tokens from a heap, or split a heap into two non-empty heaps; a position is a
    multiset of heaps; the value is the mex of the options' values, 1 where no move is left."""
    memo: dict[tuple[int, ...], int] = {}

    def value(h: tuple[int, ...]) -> int:
        if h not in memo:
            opts = set()
            for i, x in enumerate(h):
                rest = h[:i] + h[i + 1:]
                opts |= {value(tuple(sorted(rest + ((x - k,) if x > k else ())))) for k in range(1, x + 1)}
                opts |= {value(tuple(sorted(rest + (a, x - a)))) for a in range(1, x // 2 + 1)}
            memo[h] = next(m for m in range(len(opts) + 1) if m not in opts) if opts else 1
        return memo[h]
    return [value((n,) if n else ()) for n in range(top + 1)]


def test_a_heap_rule_on_one_slot_never_passes_with_its_splits_lost():
    # the class 2: Lasker's Nim on heaps(1) has no slot for a split's second part
    true = _misere_lasker(9)
    assert true[:5] == [1, 0, 2, 4, 3]                    # 3 splits into 1 + 2 (misère value 0)
    lost = [1, 0] + list(range(2, 10))                    # the values without splits (misère nim)
    v = check_claim(Claim("x/lasker-misere", game="lasker-nim", table=true, family=heaps(1), convention="misere"))
    assert v.verdict in ("verified", "error"), v.scope    # never refuted
    if v.verdict == "error":
        assert v.detail.startswith('the solvers disagree at {"game": "lasker-nim", "heaps": [3]'), v.detail
    v = check_claim(Claim("x/lasker-lost", game="lasker-nim", table=lost, family=heaps(1), convention="misere"))
    assert v.verdict in ("refuted", "error"), v.scope     # never verified
