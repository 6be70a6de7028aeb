"""Solver.answers: many states in one call, each answered as it would be alone (the same source,
the same values, the same source log, no kernel built for the batch); and the sweeps that use it
(grundy/verify/check/instance.py: structures too small for the kernel's batches) give the
verdicts, scopes and counterexamples of judging start by start."""
from __future__ import annotations

import pytest

from grundy.solvers.native.build import available
from grundy.solvers.solver import Solver
from grundy.solvers.source_log import SourceLog
from grundy.spec import all_of, any_of, ite, read_position
from grundy.verify.check import check_claim
from grundy.verify.check.instance import Instance
from grundy.verify.claims import Claim
from grundy.verify.families import complete, heaps, paths

native = pytest.mark.skipif(not available(), reason="no C compiler")

GRID = [(a, b) for a in range(12) for b in range(12)]


def _wythoff(convention: str = "normal"):
    p = read_position({"game": "wythoff", "heaps": [3, 5], "convention": convention})
    return p.game, p.structure


def _one_by_one(s: Solver, game, g, states, convention, question):
    out = []
    for st in states:
        p = read_position({"game": game.name, "heaps": list(st), "convention": convention})
        out.append(s.mover_wins(p) if question == "wins" else s.grundy(p))
    return out


def _state(s: Solver, game, g):
    t = s.table(game, g)
    return t.in_use, sorted(t.kernels), t.py_stored, t.asked, s.log.summary() if s.log else None


@pytest.mark.parametrize("convention", ["normal", "misere"])
@pytest.mark.parametrize("question", ["wins", "grundy"])
@pytest.mark.parametrize("native_", [None, False])
def test_answers_equal_one_by_one_and_build_no_kernel(convention, question, native_):
    game, g = _wythoff(convention)
    a, b = Solver(native=native_, reduce_after=30), Solver(native=native_, reduce_after=30)
    a.log, b.log = SourceLog(), SourceLog()
    got = a.answers(game, g, GRID, convention, question)
    want = _one_by_one(b, game, g, GRID, convention, question)
    assert got == want
    assert _state(a, game, g) == _state(b, game, g)
    assert not a.table(game, g).in_use and not a.table(game, g).kernels   # no kernel for the batch
    if question == "wins" and convention == "normal":    # Wythoff's P-positions below 12
        pairs = {(0, 0), (1, 2), (3, 5), (4, 7), (6, 10)}
        assert {st for st, w in zip(GRID, got) if not w} == pairs | {(b, a) for a, b in pairs}


@native
@pytest.mark.parametrize("question", ["wins", "grundy"])
def test_answers_follow_the_hand_over_to_the_kernel(question, tune):
    tune(native_after=40)
    game, g = _wythoff()
    a, b = Solver(), Solver()
    a.log, b.log = SourceLog(), SourceLog()
    got = a.answers(game, g, GRID, "normal", question)
    assert got == _one_by_one(b, game, g, GRID, "normal", question)
    assert a.table(game, g).in_use and a.table(game, g).kernels      # handed over mid-batch
    assert _state(a, game, g) == _state(b, game, g)


class EvenSevens:
    """A source answering the Grundy question with 7 at states of even sum, declining (a shorter
    list, as the theorem source does) from the first state of odd sum."""

    name, premises = "sevens", "none"

    def can_answer(self, solver, q):
        return q.question == "grundy"

    def values(self, solver, q, states):
        out = []
        for st in states:
            if sum(st) % 2:
                break
            out.append(7)
        return out or None


def test_a_source_that_declines_a_state_is_asked_again_at_the_next():
    game, g = _wythoff()
    a, b = Solver(native=False), Solver(native=False)
    a.sources = (EvenSevens(), *a.sources)
    b.sources = (EvenSevens(), *b.sources)
    got = a.answers(game, g, GRID, "normal", "grundy")
    assert got == _one_by_one(b, game, g, GRID, "normal", "grundy")
    assert got.count(7) >= 72                  # every even-sum state: the first source's answer


def heavy(g, s):
    """A planted false characterization: P iff every edge at the token weighs at least 3."""
    return any_of((s.token == t) & all_of(s.weight[g.edge_id(min(t, u), max(t, u))] >= 3
                                          for u in g.vertices if u != t) for t in g.vertices)


def xor_but_7(g, s):
    """A planted false Grundy formula: the nim-sum of the heaps, except 0 where the first is 7."""
    v = s.heap[0]
    for i in range(1, g.n):
        v = v ^ s.heap[i]
    return ite(s.heap[0] == 7, 0, v)


def p_iff_even(g, s):
    """A planted false characterization: P iff the weights sum to an even number."""
    return sum((s.weight[i] for i in range(len(g.edges))), 0) % 2 == 0


CLAIMS = [
    Claim("t/heavy", game="edge-nim", kind="char", family=complete(3, 4), statement=heavy,
          bounds={"weight": (0, 3)}, expect="refuted"),
    Claim("t/heavy-misere", game="edge-nim", kind="char", family=complete(3, 4), statement=heavy,
          bounds={"weight": (0, 3)}, convention="misere", expect="refuted"),
    Claim("t/xor", game="wythoff", kind="grundy", family=heaps(2), statement=xor_but_7,
          bounds={"heap": (0, 9)}, expect="refuted"),
    Claim("t/nim", game="nim", kind="grundy", family=heaps(2, 3), statement=xor_but_7,
          bounds={"heap": (0, 6)}, expect="verified"),
    Claim("t/even", game="edge-nim", kind="char", family=paths(2, 4), statement=p_iff_even,
          bounds={"weight": (0, 3)}, expect="refuted"),
]


@pytest.mark.parametrize("claim", CLAIMS, ids=[c.id for c in CLAIMS])
@pytest.mark.parametrize("native_", [None, False])
def test_sweeps_in_chunks_equal_one_by_one(claim, native_, monkeypatch):
    chunked = check_claim(claim, solver=Solver(native=native_))
    monkeypatch.setattr(Instance, "_answers", lambda self, batch: None)      # start by start
    single = check_claim(claim, solver=Solver(native=native_))
    assert chunked.verdict == single.verdict == claim.expect
    assert chunked.scope == single.scope
    assert chunked.counterexample == single.counterexample
