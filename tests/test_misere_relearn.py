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


@pytest.mark.parametrize("power", [1, 3])
@pytest.mark.parametrize("code,n", [("0.75", 12), ("0.312", 12), ("0.123", 10), ("0.77", 8)])
def test_least_failure_of_a_wrong_p_portion(code: str, n: int, power: int) -> None:
    """Flip one element in or out of P: the quotient is then wrong somewhere; the least failure
    names a sum where it is wrong, of the least weight (heap h weighing h^power): every lighter
    sum it gets right (those of at most 16 tokens are searched)."""
    options = code_options(parse_octal(code))
    q = quotient_of(options, n)
    assert q.computed == n
    types, heaps = _types(q, options, n)
    weights = [h ** power for h in heaps]
    assert least_failure(q.q, types, weights, 100_000) is None           # the right one holds
    m = q.q.monoid
    for x in range(m.size):
        wrong = Bipartite(m, q.q.p ^ {x})
        got = least_failure(wrong, types, weights, 100_000)
        assert got is not None and got[0] >= 0, x
        t, word = got
        heaps_at = tuple(sorted(heaps[u] for u in word))
        assert sum(h ** power for h in heaps_at) == t
        truth = search_outcomes(options, max(sum(heaps_at), 16), max_heap=n)

        def says(pos: tuple[int, ...], p: frozenset[int] = wrong.p) -> bool:
            y = 0
            for h in pos:
                y = m.times(y, q.phi[h])
            return y in p
        assert says(heaps_at) != truth[heaps_at], (x, heaps_at)
        assert all(says(pos) == p for pos, p in truth.items() if sum(h ** power for h in pos) < t), x


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


@pytest.mark.parametrize("code,n", [("0.14", 16), pytest.param("0.26", 20, marks=pytest.mark.slow)])
def test_quotients_through_splits_match_search(code: str, n: int) -> None:
    """Relearnt with the seeded tests, the certified hypothesis and the search in C (classes
    split on the way: once for 0.14, five times for 0.26): 0 mismatches against misère search on
    every sum of total <= n."""
    from grundy.solvers.misere import mismatches
    q = Quotient("octal", code=code, max_heap=n, time_limit=25)
    assert q.q.computed == n and q.q.splits >= 1, q.q.why
    assert mismatches(q.q, code_options(parse_octal(code)), n) == []


def test_the_search_in_c_and_in_python_give_one_quotient(monkeypatch: pytest.MonkeyPatch) -> None:
    from grundy.solvers.misere import native, recalibrate
    options = code_options(parse_octal("0.77"))          # Kayles: classes split at heap 9
    if native.NativeSearch.make([[]], 1) is None:
        pytest.skip("no C compiler here")
    in_c = quotient_of(options, 12)
    monkeypatch.setattr(recalibrate.NativeSearch, "make", classmethod(lambda cls, parts, n: None))
    in_python = quotient_of(options, 12)
    assert in_c.splits == in_python.splits == 1
    assert (in_c.size, in_c.p, in_c.phi, in_c.presentation()) == \
        (in_python.size, in_python.p, in_python.phi, in_python.presentation())
