"""One-heap values of heap rules in C (grundy.solvers.heaps.rulevalues) against the Python
method, on every registered heap-rule game and on random rules, and against values from the
literature (Lasker's Nim: G(4k+1) = 4k+1, G(4k+2) = 4k+2, G(4k+3) = 4k+4, G(4k+4) = 4k+3)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy
from grundy.errors import RuleError
from grundy.solvers.heaps import heap_values, rule_values
from grundy.solvers.heaps.rulevalues import native_rule_values
from grundy.solvers.native import build
from grundy.spec import HeapRule, option, read_position
from grundy.spec.games import GAMES
from grundy.spec.heaprule import rule_heaps

needs_cc = pytest.mark.skipif(not build.available(), reason="no C compiler")


def lasker(n):
    return n if n % 4 in (0, 1, 2) and n % 4 != 0 else n + 1 if n % 4 == 3 else n - 1


# every registered heap-rule game, with parameters where it takes some (the take-and-break ones
# have options derived from their code: the C runs them through their options too)
REGISTERED = [{"game": "lasker-nim"}, {"game": "grundys-game"}, {"game": "subtraction", "set": [1, 3, 4]},
              {"game": "subtraction", "set": [2, 5, 6]}, {"game": "octal", "code": "0.6"},
              {"game": "octal", "code": "0.77"}, {"game": "octal", "code": "4.07"},
              {"game": "octal", "code": "0.137"}]


def test_every_registered_heap_rule_game_is_listed():
    listed = {obj["game"] for obj in REGISTERED}
    assert listed == {name for name in GAMES if isinstance(GAMES[name], HeapRule)}


@needs_cc
def test_lasker_nim_from_the_literature():
    rule = GAMES["lasker-nim"].heap_rule(rule_heaps(1))
    got = native_rule_values(rule, 5000)
    assert got is not None and got == [0] + [lasker(n) for n in range(1, 5001)]


@needs_cc
@pytest.mark.parametrize("obj", REGISTERED, ids=lambda o: "-".join(map(str, o.values())))
def test_every_registered_heap_rule_game(obj):
    p = read_position({**obj, "heaps": [1]})
    rule = p.game.heap_rule(p.structure)
    want = rule_values(rule, 300)
    assert native_rule_values(rule, 300) == want
    if rule.code is not None:                                  # and the sparse-space method agrees
        assert heap_values(rule, 300) == want
    else:
        assert heap_values(rule, 300, native=True) == want == heap_values(rule, 300, native=False)


class Random(HeapRule):
    """A rule from a few numbers: take k (k in TAKE), or take k and split the rest into two
    heaps a + b (k in SPLIT; unequal ones only with UNEQ), or halve an even heap (HALVE)."""

    name = "random-rule-test"
    TAKE: tuple[int, ...] = ()
    SPLIT: tuple[int, ...] = ()
    UNEQ = False
    HALVE = False

    def options(self, g, n):
        for k in self.TAKE:
            yield option(f"take {k} from heap {{heap}}", guard=n >= k, parts=[n - k])
        for k in self.SPLIT:
            yield self.split(n, k)
        if self.HALVE:
            yield option("halve heap {heap}", guard=(n >= 2) & (n % 2 == 0), parts=[n // 2])

    def split(self, n, k):
        rest = n - k
        return option(f"take {k} from heap {{heap}} and split the rest into {{a}} + {{b}}", guard=n >= k + 2,
                      choose=[("a", 1, (rest - 1) // 2 if self.UNEQ else rest // 2),
                              ("b", lambda a: rest - a, lambda a: rest - a)],
                      parts=lambda a, b: [a, b])


@needs_cc
@settings(max_examples=25, deadline=None)
@given(st.lists(st.integers(1, 6), max_size=3, unique=True), st.lists(st.integers(0, 3), max_size=2, unique=True),
       st.booleans(), st.booleans(), st.integers(0, 400))
def test_random_rules_agree_with_python(take, split, uneq, halve, n):
    cls = type("R", (Random,), {"TAKE": tuple(take), "SPLIT": tuple(split), "UNEQ": uneq, "HALVE": halve,
                                "name": "random-rule-test"})
    rule = cls().heap_rule(rule_heaps(1))
    want = rule_values(rule, n)
    got = native_rule_values(rule, n)
    assert got == want


@needs_cc
def test_a_rule_that_makes_tokens_is_still_an_error():
    class Grow(HeapRule):
        name = "grow-native-test"

        def options(self, g, n):
            yield option("grow heap {heap}", guard=n >= 2, parts=[n - 1, 2])

    rule = Grow().heap_rule(rule_heaps(1))
    assert native_rule_values(rule, 50) is None               # C stops; Python names the option
    with pytest.raises(RuleError, match="grow heap"):
        heap_values(rule, 50, native=True)


@needs_cc
def test_solve_uses_the_c_values(monkeypatch):
    from grundy.solvers.heaps import rules

    def python_refused(rule, n, start=None):
        raise AssertionError("the Python method was used")
    monkeypatch.setattr(rules, "rule_values", python_refused)
    r = grundy.solve(GAMES["lasker-nim"].position([3000, 7]))            # n >= NATIVE_FROM: in C
    assert r["grundy"] == lasker(3000) ^ lasker(7)
