"""A misère sum of big heaps without a search: when the quotient answers the outcome and a search
for the misère Grundy value would store more positions than the limit, ``solve`` gives the
outcome (the quotient's) and says why the value is not computed, instead of searching for it;
within the limit the value is searched for as before, and equals the search's."""
from __future__ import annotations

import json
import time

import pytest

from grundy.api import solve
from grundy.solvers.misere import Quotient
from grundy.solvers.misere.source import QUOTIENT, outcome_without_value, sums_below
from grundy.solvers.solver import Solver
from grundy.spec import read_position

BIG = [10**4 - 7 * i for i in range(10)]


def misere(code: str, heaps: list[int]) -> dict:
    return {"game": "octal", "code": code, "heaps": heaps, "convention": "misere"}


@pytest.mark.parametrize("code", ["0.75", "0.312"])
def test_big_sum_outcome_without_search(code: str) -> None:
    t = time.process_time()
    got = solve(misere(code, BIG), solver=Solver(native=False), value_budget=20_000_000)
    assert time.process_time() - t < 10            # no search (the search would not end)
    assert got["misere_grundy"] is None and got["outcome"] == Quotient("octal", code=code).outcome(BIG)
    why = got["value_not_computed"]
    assert f"misère quotient of octal {code}" in why and "proved" in why and "20,000,000" in why


@pytest.mark.parametrize("heaps", [[4, 3, 2], [5, 1, 1], [7, 2]])
def test_within_the_budget_the_value_is_searched(heaps: list[int]) -> None:
    """The same value as with no budget at all (the search's), and the same outcome."""
    budget = solve(misere("0.75", heaps), solver=Solver(native=False), value_budget=10**6)
    plain = solve(misere("0.75", heaps), solver=Solver(native=False))
    assert budget == plain and isinstance(plain["misere_grundy"], int)
    assert (plain["misere_grundy"] == 0) == (plain["outcome"] == "P")


def test_a_budget_below_the_sum_declines_the_value_only_where_the_quotient_answers() -> None:
    pos = read_position(misere("0.75", [30, 29, 28]))
    assert sums_below(pos.state) > 100
    s = Solver(native=False)
    got = outcome_without_value(s, pos, 100)
    assert got is not None and got[0] == Quotient("octal", code="0.75").outcome([30, 29, 28])
    no_quotient = Solver(native=False)
    no_quotient.sources = tuple(src for src in no_quotient.sources if src.name != QUOTIENT)
    assert outcome_without_value(no_quotient, pos, 100) is None       # the search answered: not ours
    normal = read_position({"game": "octal", "code": "0.75", "heaps": [30, 29, 28]})
    assert outcome_without_value(Solver(native=False), normal, 100) is None


def test_the_solve_command_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    from grundy.cli import main
    heaps = [str(h) for h in BIG]
    assert main(["solve", "--misere", "octal", "--code", "0.75", *heaps]) == 0
    out, err = capsys.readouterr()
    row = out.splitlines()[1].split()
    assert row[-2:] == ["-", Quotient("octal", code="0.75").outcome(BIG)]
    assert "misère Grundy value not computed" in err and "--max-positions" in err
    assert main(["solve", "--json", "--misere", "octal", "--code", "0.75", *heaps]) == 0
    line = json.loads(capsys.readouterr()[0])
    assert line["misere_grundy"] is None and "value_not_computed" in line


def test_no_shortcut_and_no_work_for_other_games() -> None:
    """A misère position that is no sum of heaps under one rule: declined before any search."""
    pos = read_position({"game": "edge-nim", "edges": [[0, 1, 9], [1, 2, 9], [2, 0, 9]], "token": 0,
                         "convention": "misere"})
    s = Solver(native=False)
    assert outcome_without_value(s, pos, 1) is None and s.stored == 0


class _Told:
    """A source answering outcomes only, whatever the game: its answers are what it is told."""

    name = "told"
    premises = "none"

    def __init__(self, wins: bool, cost: int):
        self.wins, self.cost, self.asked = wins, cost, 0

    def can_answer(self, ctx, q) -> bool:
        return q.question == "wins"

    def values(self, ctx, q, states):
        self.asked += 1
        return [self.wins for _ in states]

    def value_cost(self, q, state) -> int:
        return self.cost

    def label(self, q) -> str | None:
        return "by what it was told"

    def why_no_value(self, q, state, cost, budget, label) -> str:
        return f"not computed: {cost} > {budget}, {label}"


@pytest.mark.parametrize("wins", [True, False])
def test_the_shortcut_is_the_source_interfaces(wins: bool) -> None:
    """``solve(value_budget=...)`` asks the sources' capability, not the misère quotient by name:
    a source with it answers alone (its outcome, its words) in any convention; beyond its cost
    the value is searched for as without a budget."""
    s = Solver(native=False)
    told = _Told(wins, cost=1000)
    s.sources = (told, *s.sources)
    got = solve({"game": "nim", "heaps": [1, 2]}, solver=s, value_budget=999)
    assert got == {"grundy": None, "outcome": "N" if wins else "P",
                   "value_not_computed": "not computed: 1000 > 999, by what it was told"}
    assert told.asked == 1
    within = solve({"game": "nim", "heaps": [1, 2]}, solver=s, value_budget=1000)
    assert within["grundy"] == 3 and "value_not_computed" not in within


def test_a_source_without_the_capability_gives_no_shortcut() -> None:
    pos = read_position(misere("0.75", [30, 29, 28]))
    s = Solver(native=False)
    s.sources = tuple(src for src in s.sources if src.name != QUOTIENT)
    assert s.outcome_alone(pos, 1) is None and s.stored == 0          # nothing searched either
