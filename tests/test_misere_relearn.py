"""The relearning's shortcuts, each held to misère search: the least failure of a wrong quotient
(right on every lighter sum, wrong at the sum it names), the separating sums of a quotient, and
quotients computed through splits with the certified oracle against search."""
from __future__ import annotations

import pytest

from grundy.solvers.misere import Quotient, search_outcomes
from grundy.solvers.misere.automaton import least_failure
from grundy.solvers.misere.monoid import Bipartite
from grundy.solvers.misere.quotient import _Builder, code_options, quotient_of
from grundy.spec.heaprule import parse_octal


def _types(q, options, n):
    """The heap types of a computed quotient and the least heap of each (as the relearning has them)."""
    m = q.q.monoid
    seen: dict = {}
    for h in range(1, n + 1):
        opts = [tuple(sorted(p for p in o if p)) for o in options(h)]
        if opts:
            images = set()
            for ps in opts:
                x = 0
                for p in ps:
                    x = m.times(x, q.phi[p])
                images.add(x)
            seen.setdefault((q.phi[h], frozenset(images), True), h)
    return list(seen), list(seen.values())


@pytest.mark.parametrize("code,n", [("0.75", 12), ("0.312", 12), ("0.123", 10), ("0.77", 8)])
def test_least_failure_of_a_wrong_p_portion(code: str, n: int) -> None:
    """Flip one element in or out of P: the quotient is then wrong somewhere; the least failure
    names a sum where it is wrong, of the least tokens: every lighter sum it gets right."""
    options = code_options(parse_octal(code))
    q = quotient_of(options, n)
    assert q.computed == n
    types, heaps = _types(q, options, n)
    assert least_failure(q.q, types, heaps, 100_000) is None           # the right one holds
    m = q.q.monoid
    for x in range(m.size):
        wrong = Bipartite(m, q.q.p ^ {x})
        got = least_failure(wrong, types, heaps, 100_000)
        assert got is not None and got[0] >= 0, x
        t, word = got
        heaps_at = tuple(sorted(heaps[u] for u in word))
        assert sum(heaps_at) == t
        truth = search_outcomes(options, t, max_heap=n)

        def says(pos: tuple[int, ...], p: frozenset[int] = wrong.p) -> bool:
            y = 0
            for h in pos:
                y = m.times(y, q.phi[h])
            return y in p
        assert says(heaps_at) != truth[heaps_at], (x, heaps_at)
        assert all(says(pos) == p for pos, p in truth.items() if sum(pos) < t), x


@pytest.mark.parametrize("code,n", [("0.07", 16), ("0.312", 12), ("0.77", 14)])
def test_separating_sums_tell_every_two_elements_apart(code: str, n: int) -> None:
    b = _Builder(code_options(parse_octal(code)), 2_000_000)
    for h in range(1, n + 1):
        assert b.add_heap(h) is None
    m, P = b.q.monoid, b.q.p
    tests = [b.image(z) for z in b.separating()]
    assert len(tests) < m.size                      # fewer than one per element
    rows = {tuple(m.times(x, z) in P for z in tests) for x in range(m.size)}
    assert len(rows) == m.size


@pytest.mark.slow
@pytest.mark.parametrize("code,n", [("0.77", 26), ("0.17", 26)])
def test_quotients_through_splits_match_search(code: str, n: int) -> None:
    """Relearnt with the certified oracle (classes split on the way): 0 mismatches against
    misère search on every sum of total <= 24."""
    from grundy.solvers.misere import mismatches
    q = Quotient("octal", code=code, max_heap=n, time_limit=25)
    assert q.q.computed >= 24 and q.q.splits >= 1, q.q.why
    assert mismatches(q.q, code_options(parse_octal(code)), 24) == []
