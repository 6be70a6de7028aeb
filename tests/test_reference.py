"""The reference engine (grundy.solvers.reference): a plain second solver.

It must agree with the explicit solver (symmetry, components, one-heap tables, compiled code,
the C kernel) on every registered game, in normal and misère play, on positions and on sums;
find cycles and moves leaving a field's domain; and stop at its budget of work units, the same
way on every run.
"""
from __future__ import annotations

import pytest
from drawn import draw_structure
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grundy.errors import RuleError
from grundy.solvers.reference import Reference, ReferenceCycle, ReferenceLimit
from grundy.solvers.solver import Solver
from grundy.spec import Field, Game, HeapRule, Position, Structure, move, option, read_position
from grundy.spec.games import GAMES

BUDGET = 300_000          # work units per position: small positions only
PARAMS = {"octal": ["0.07", "0.6", "4.07", "0.137", "0.77"], "subtraction": [[1, 3, 4], [2, 5], [1, 2]]}


@st.composite
def positions(draw, name: str) -> Position:
    """A small position of the game ``name``: any state in the field domains (a HeapRule game:
    read from JSON, so that its slots are sized as reading sizes them)."""
    game = GAMES[name]
    conv = draw(st.sampled_from(["normal", "misere"]))
    if isinstance(game, HeapRule):
        obj = {"game": name, "heaps": draw(st.lists(st.integers(0, 6), min_size=1, max_size=3)), "convention": conv}
        if name in PARAMS:
            obj["code" if name == "octal" else "set"] = draw(st.sampled_from(PARAMS[name]))
        return read_position(obj)
    g = draw_structure(draw, game)
    rules = game.rules(g)
    state = []
    for name_, _ in rules.schema.slots:
        f = rules.schema.fields[name_]
        lo, hi = {"int": (f.lower, f.lower + 3), "bool": (0, 1), "vertex": (0, g.n - 1),
                  "edge": (-1, len(g.edges) - 1)}[f.kind]
        state.append(draw(st.integers(lo, hi)))
    return Position(game, g, tuple(state), conv)


@pytest.mark.parametrize("name", sorted(GAMES))
def test_agrees_with_the_explicit_solver_on_every_game(name):
    @settings(max_examples=25, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(positions(name))
    def check(p):
        ref = Reference(max_work=BUDGET)
        try:
            mine = (ref.grundy(p), ref.outcome(p))
        except ReferenceLimit:
            return
        s = Solver()
        assert mine == (s.grundy(p), s.outcome(p)), (p.structure, p.state, p.convention)
    check()


def test_misere_values_are_the_explicit_solvers():
    ref = Reference()
    nim = [ref.grundy(read_position({"game": "nim", "heaps": [n], "convention": "misere"})) for n in range(6)]
    assert nim == [1, 0, 2, 3, 4, 5]                  # misère nim's single heaps
    two = read_position({"game": "nim", "heaps": [1, 1], "convention": "misere"})
    assert ref.outcome(two) == "N" and ref.grundy(two) == Solver().grundy(two)


@pytest.mark.parametrize("conv", ["normal", "misere"])
def test_sums_are_searched_as_one_game(conv):
    for a, b in [({"game": "nim", "heaps": [3]}, {"game": "grim", "edges": [[0, 1], [1, 2]]}),
                 ({"game": "wythoff", "heaps": [2, 3]}, {"game": "lasker-nim", "heaps": [3]}),
                 ({"game": "nim", "heaps": [1]}, {"game": "nim", "heaps": [1]})]:
        p = read_position({"game": "sum", "parts": [a, b], "convention": conv})
        ref = Reference()
        assert (ref.grundy(p), ref.outcome(p)) == (Solver().grundy(p), Solver().outcome(p)), (a, b)
    # normal play: the value of a sum is the XOR of its parts', found here without XOR
    p = read_position({"game": "sum", "parts": [{"game": "nim", "heaps": [5]}, {"game": "nim", "heaps": [3]}]})
    assert Reference().grundy(p) == 5 ^ 3


def test_heap_rules_are_played_from_their_one_heap_text():
    # on one slot, the fixed-slot rules have no room for a split; the engine appends the parts
    lasker = GAMES["lasker-nim"]
    p = Position(lasker, Structure.heaps(1), (3,))
    assert Reference().grundy(p) == 4                   # 3 splits into 1 + 2: G(3) = 4, not 3
    ref = Reference()
    arena, state = ref.arena(p)
    assert sorted(nxt for _, _, nxt in ref.options(arena, state)) == [(0,), (1,), (1, 2), (2,)]


class _Maker(HeapRule):
    name = "tokens-out-of-nothing"

    def options(self, g, n):
        yield option("grow {heap}", guard=n >= 1, parts=[n - 1, 2])


def test_a_heap_rule_that_makes_tokens_is_a_rule_error():
    p = Position(_Maker(), Structure.heaps(1), (1,))
    with pytest.raises(RuleError, match="together at most 1"):
        Reference().grundy(p)


class _Loop(Game):
    """A token on two vertices, moving back and forth: a cycle."""
    name = "ref-test-loop"
    structure = "heaps"
    heap_count = 1

    def fields(self, g):
        return [Field("t")]

    def moves(self, g, s):
        yield move("flip", guard=s.t <= 1, update=s.set(t=1 - s.t))

    def rank(self, g, s):
        return s.t


class _Escape(Game):
    """A move that sets a field below its lower bound."""
    name = "ref-test-escape"
    structure = "heaps"
    heap_count = 1

    def fields(self, g):
        return [Field("h", lower=1)]

    def moves(self, g, s):
        yield move("take {k}", choose=[("k", 1, s.h)], update=lambda k: s.set(h=s.h - k))

    def rank(self, g, s):
        return s.h


def test_a_cycle_is_found():
    with pytest.raises(ReferenceCycle, match="rank does not decrease"):
        Reference().grundy(Position(_Loop(), Structure.heaps(1), (0,)))
    with pytest.raises(ReferenceCycle):
        Reference().outcome(Position(_Loop(), Structure.heaps(1), (1,)))


def test_a_move_leaving_its_domain_is_a_one_line_rule_error():
    with pytest.raises(RuleError) as e:
        Reference().grundy(Position(_Escape(), Structure.heaps(1), (3,)))
    text = str(e.value)
    assert "\n" not in text and "take 3" in text and "h to 0" in text


def test_the_budget_is_work_not_time():
    p = read_position({"game": "wythoff", "heaps": [9, 9]})
    whole = Reference()
    whole.grundy(p)
    assert whole.work > 100
    for cap in (10, whole.work // 2, whole.work - 1):
        ref = Reference(max_work=cap)
        with pytest.raises(ReferenceLimit, match=f"budget of {cap:,} work units"):
            ref.grundy(p)
        assert ref.work >= cap
    again = Reference(max_work=whole.work)
    assert again.grundy(p) == Solver().grundy(p) and again.work == whole.work   # the same work every run
    # a limit is an exception, never a value; the memo keeps only what was finished
    ref = Reference(max_work=whole.work // 2)
    with pytest.raises(ReferenceLimit):
        ref.grundy(p)
    ref.max_work = None
    assert ref.grundy(p) == Solver().grundy(p)


def test_a_choice_range_beyond_the_budget_is_not_enumerated():
    ref = Reference(max_work=1000)
    with pytest.raises(ReferenceLimit):            # 10^12 choices: refused before the loop
        ref.grundy(read_position({"game": "nim", "heaps": [10 ** 12]}))
