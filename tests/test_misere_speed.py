"""The quotient's faster paths against the plain ones: the multiplication table against products
by normal forms, the kept antichain of the exact check's covering rule against a scan of every
explored state, and whole quotients computed with the table and without it."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grundy.solvers.misere import Quotient, automaton, from_presentation, monoid
from grundy.solvers.misere.quotient import code_options, quotient_of
from grundy.spec.heaprule import parse_octal


@pytest.mark.parametrize("code", ["0.123", "0.312", "0.34", "0.75"])
def test_table_is_the_product(code: str) -> None:
    m = Quotient("octal", code=code).q.q.monoid
    assert all(m.times(x, y) == m.product(x, y) == m.product(y, x)
               for x in range(m.size) for y in range(m.size))


def test_table_of_a_presentation() -> None:
    m = from_presentation("abc", ["a^2 = 1", "b^3 = b", "b c = a b", "c^2 = b^2"], []).monoid
    t = m.table()
    assert all(t[x][y] == m.product(x, y) for x in range(m.size) for y in range(m.size))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 255), max_size=30), st.lists(st.integers(0, 255), max_size=30))
def test_kept_antichain_covers_as_every_state(explored: list[int], asked: list[int]) -> None:
    """Whatever states were explored, in any order: the kept antichain covers a state exactly
    when some explored state's bits are a subset of its bits."""
    kept = automaton._Antichain()
    for n, b in enumerate(explored):
        kept.keep(b)
        for z in asked + explored:
            assert kept.covered(z) == any(not (k & ~z) for k in explored[:n + 1])
    assert sum(map(len, kept.by_low.values())) <= len(set(explored))


@pytest.mark.parametrize("code,n", [("0.07", 18), ("0.17", 16), ("0.34", 40), ("0.56", 20)])
def test_quotients_with_and_without_the_table(code: str, n: int, monkeypatch: pytest.MonkeyPatch) -> None:
    c = parse_octal(code)
    fast = quotient_of(code_options(c), n, last=c.last)
    monkeypatch.setattr(monoid, "TABLE_MAX", 0)            # every product by normal forms
    plain = quotient_of(code_options(c), n, last=c.last)
    assert (fast.size, fast.p, fast.phi, fast.period, fast.proved, fast.states, fast.splits) == \
        (plain.size, plain.p, plain.phi, plain.period, plain.proved, plain.states, plain.splits)
    assert fast.presentation() == plain.presentation()
