"""The misère quotient as a value source: it answers what misère search answers, or declines.

The source (:mod:`grundy.solvers.misere.source`) answers "does the mover win?" of a misère sum of
heaps of a heap game from the game's quotient, computed on demand; these tests hold it to the
solver's own misère search (its table of the compiled rules, the quotient source removed) on
every sum they draw, check what it declines (Grundy values, normal play, heaps the quotient does
not cover) and that a sum of ten heaps of up to 10^4 tokens of a wild game is answered by it.
"""
from __future__ import annotations

import json
import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grundy.api import solve
from grundy.solvers.heaps import sum_of_heaps
from grundy.solvers.misere import Quotient
from grundy.solvers.misere import source as source_module
from grundy.solvers.misere.source import QUOTIENT, MisereQuotientSource, quotient_label, rule_quotient
from grundy.solvers.solver import Solver
from grundy.solvers.sources import Query
from grundy.spec import read_position

GAMES = [{"game": "octal", "code": c} for c in ("0.75", "0.07", "0.137", "0.6", "0.35", "0.52", "4.07")] + \
        [{"game": "subtraction", "set": [1, 3, 4]}, {"game": "subtraction", "set": [2, 5]}]


def searched(pos) -> bool:
    """Whether the mover wins, by the solver's misère search alone (no quotient)."""
    s = Solver(native=False)
    s.sources = tuple(src for src in s.sources if src.name != QUOTIENT)
    return s.mover_wins(pos)


def asked(pos, src: MisereQuotientSource | None = None, question: str = "wins"):
    """What the source alone answers at ``pos`` (None: it declined)."""
    s = Solver(native=False)
    src = src or MisereQuotientSource()
    q = Query(pos.game, pos.structure, pos.convention, question)
    if not src.can_answer(s.ctx, q):
        return None
    got = src.values(s.ctx, q, [pos.state])
    return None if not got else got[0]


@settings(max_examples=40, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(GAMES), st.lists(st.integers(0, 7), min_size=1, max_size=4).filter(lambda h: sum(h) <= 14))
def test_the_source_answers_as_misere_search(game, heaps):
    pos = read_position({**game, "heaps": heaps, "convention": "misere"})
    got = asked(pos)
    assert got is not None, (game, heaps)          # these quotients reach heap 7 within the limit
    assert got == searched(pos), (game, heaps)


def test_a_misere_sum_of_ten_heaps_up_to_ten_thousand_is_answered_by_the_quotient():
    rng = random.Random(40)
    heaps = [rng.randint(1, 10**4) for _ in range(10)]
    pos = read_position({"game": "octal", "code": "0.75", "heaps": heaps, "convention": "misere"})
    s = Solver(native=False)
    t = time.perf_counter()
    out = s.outcome(pos)
    took = time.perf_counter() - t
    label = quotient_label(pos.game, pos.structure)
    used = next(src for src in s.sources if src.name == QUOTIENT).used
    assert label is not None and used == {label: 1} and "proved" in label and "0.75" in label
    # the quotient's own rules, computed apart from the source: the product of the heaps'
    # elements (through the proved period) is in P exactly at a P-position
    q = Quotient("octal", code="0.75")
    assert q.proved and not q.tame()                 # a wild game, its period proved
    assert out == q.outcome(heaps)
    move = q.winning_move(heaps)
    assert (move is not None) == (out == "N")
    if move is not None:                             # the quotient's winning move leads to a P-position
        after = read_position({"game": "octal", "code": "0.75", "heaps": move[2], "convention": "misere"})
        assert s.outcome(after) == "P"
    assert took < 5.0                                # well under a second unloaded; slack for a busy machine


def test_small_heaps_of_the_large_sum_agree_with_search_through_the_period():
    """Heaps replaced by the heap of the same residue near the preperiod: the source answers the
    large sum and the small one alike, and search agrees on the small one."""
    q = Quotient("octal", code="0.75")
    n0, p = q.q.period
    rng = random.Random(7)
    for _ in range(3):
        small = [rng.randint(n0, n0 + p - 1) for _ in range(2)] + [rng.randint(1, 3)]
        large = [h + p * rng.randint(100, 4000) if h >= n0 else h for h in small]
        ps = read_position({"game": "octal", "code": "0.75", "heaps": small, "convention": "misere"})
        pl = read_position({"game": "octal", "code": "0.75", "heaps": large, "convention": "misere"})
        assert asked(pl) == asked(ps) == searched(ps), (small, large)


def test_the_source_declines_grundy_values_normal_play_and_sweeps():
    pos = read_position({"game": "octal", "code": "0.75", "heaps": [3, 4], "convention": "misere"})
    assert asked(pos, question="grundy") is None
    normal = read_position({"game": "octal", "code": "0.75", "heaps": [3, 4]})
    assert asked(normal) is None
    s = Solver(native=False)
    assert not MisereQuotientSource().can_answer(s.ctx, Query(pos.game, pos.structure, "misere", "wins", sweep=True))
    assert not MisereQuotientSource().can_answer(Solver(native=False, decompose=False).ctx,
                                                 Query(pos.game, pos.structure, "misere", "wins"))
    nim = read_position({"game": "nim", "heaps": [3, 4], "convention": "misere"})
    assert asked(nim) is None                        # not a heap rule: search answers
    assert solve({"game": "octal", "code": "0.75", "heaps": [3, 4], "convention": "misere"})["misere_grundy"] \
        == Solver(native=False).grundy(pos)         # Grundy values still come from search


def test_heaps_beyond_a_quotient_that_ran_out_go_to_search(monkeypatch):
    monkeypatch.setattr(source_module, "_QUOTIENTS", {})
    src = MisereQuotientSource(time_limit=0.0)        # stops after its first heap
    pos = read_position({"game": "octal", "code": "0.77", "heaps": [5, 3, 1], "convention": "misere"})
    assert asked(pos, src) is None
    rule = sum_of_heaps(pos.game, pos.structure)
    e = rule_quotient(rule, 5, 0.0)
    assert e.final and not e.q.proved and e.q.computed < 5    # out of time: not computed again
    s = Solver(native=False)
    s.sources = (s.sources[0], src, *s.sources[2:])
    assert s.mover_wins(pos) == searched(pos)        # the search answered
    h = min(1, e.q.computed)                        # heaps it covers (none but 0 if it stopped at once)
    one = read_position({"game": "octal", "code": "0.77", "heaps": [h, h], "convention": "misere"})
    assert asked(one, src) == searched(one)          # are answered


def test_the_quotient_is_kept_by_content_and_computed_further_when_asked(monkeypatch):
    monkeypatch.setattr(source_module, "_QUOTIENTS", {})
    a = read_position({"game": "subtraction", "set": [1, 3, 4], "heaps": [2], "convention": "misere"})
    b = read_position({"game": "subtraction", "set": [1, 3, 4], "heaps": [9, 1], "convention": "misere"})
    c = read_position({"game": "subtraction", "set": [2, 5], "heaps": [2], "convention": "misere"})
    ra, rb, rc = (sum_of_heaps(p.game, p.structure) for p in (a, b, c))
    first = rule_quotient(ra, 2)
    assert first.q.computed == 2 and not first.final
    assert rule_quotient(ra, 2) is first                      # kept
    further = rule_quotient(rb, 9)                            # same rules (another structure): further
    assert further is not first and further.q.computed >= 9 and len(source_module._QUOTIENTS) == 1
    rule_quotient(rc, 2)
    assert len(source_module._QUOTIENTS) == 2                 # other rules: their own quotient
    assert asked(b) == searched(b)


@pytest.mark.parametrize("code", ["0.75", "0.312"])
def test_the_solve_command_names_the_quotient(code, capsys):
    from grundy.cli import main
    heaps = [str(10**4 - 3 * i) for i in range(10)]
    assert main(["solve", "--json", "--outcome-only", "--misere", "octal", "--code", code, *heaps]) == 0
    out, err = capsys.readouterr()
    q = Quotient("octal", code=code)
    assert json.loads(out)["outcome"] == q.outcome([int(h) for h in heaps])
    assert f"answered by the misère quotient of octal {code}" in err and "proved" in err
