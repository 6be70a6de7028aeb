"""Misère search of small sums of heaps, and checks of quotients and of claims about them.

:func:`search_outcomes` plays every sum of heaps of total size <= T by plain misère search (its
own, from the options; nothing from the quotient). :func:`mismatches` compares a quotient with it.
:func:`check_quotient_claim` gives a claimed quotient (a presentation, its P-portion and the
pretending function) a verdict; :func:`check_order_claim` a claimed order and P-portion.

>>> from grundy.spec.heaprule import parse_octal
>>> from grundy.solvers.misere.quotient import code_options, quotient_of
>>> opts = code_options(parse_octal("0.75"))
>>> q = quotient_of(opts, 40, last=2)
>>> mismatches(q, opts, 16)
[]
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from itertools import combinations
from typing import Callable, Iterator, Sequence

from .monoid import Bipartite
from .quotient import HeapQuotient, Options

__all__ = ["search_outcomes", "mismatches", "sums", "ClaimVerdict", "check_quotient_claim", "check_order_claim"]


def sums(max_heap: int, total: int) -> Iterator[tuple[int, ...]]:
    """Every sum of heaps 1..max_heap of total size <= total (sorted tuples), by total size."""
    def parts(t: int, most: int) -> Iterator[tuple[int, ...]]:
        if t == 0:
            yield ()
            return
        for h in range(min(t, most), 0, -1):
            for rest in parts(t - h, h):
                yield rest + (h,)
    for t in range(total + 1):
        yield from parts(t, max_heap)


def search_outcomes(options: Options, total: int, max_heap: int | None = None) -> dict[tuple[int, ...], bool]:
    """The misère outcome (True: P) of every sum of heaps of total <= ``total``, by search."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    cache: dict[int, list[tuple[int, ...]]] = {}
    memo: dict[tuple[int, ...], bool] = {}

    def opts(h: int) -> list[tuple[int, ...]]:
        if h not in cache:
            cache[h] = sorted({tuple(sorted(p for p in o if p)) for o in options(h)})
        return cache[h]

    def is_p(pos: tuple[int, ...]) -> bool:
        got = memo.get(pos)
        if got is not None:
            return got
        moved = False
        got = True
        for i, h in enumerate(pos):
            if i and pos[i - 1] == h:
                continue
            rest = pos[:i] + pos[i + 1:]
            for ps in opts(h):
                moved = True
                if is_p(tuple(sorted(rest + ps))):
                    got = False
                    break
            if not got:
                break
        memo[pos] = got = got and moved
        return got
    return {pos: is_p(pos) for pos in sums(max_heap or total, total)}


def mismatches(q: HeapQuotient, options: Options, total: int,
               outcomes: dict[tuple[int, ...], bool] | None = None) -> list[tuple[int, ...]]:
    """The sums of heaps of total <= ``total`` whose misère outcome by search is not the quotient's."""
    outcomes = outcomes if outcomes is not None else search_outcomes(options, total)
    m = q.q.monoid
    bad = []
    for pos, is_p in outcomes.items():
        x = 0
        for h in pos:
            x = m.times(x, q.element(h))
        if (x in q.p) != is_p:
            bad.append(pos)
    return bad


@dataclass(frozen=True)
class ClaimVerdict:
    verdict: str                      # proved / verified / refuted / unknown
    why: str
    counterexample: tuple[tuple[int, ...], ...] = ()

    def to_json(self) -> dict:
        return {"verdict": self.verdict, "why": self.why, "counterexample": [list(c) for c in self.counterexample]}


def check_quotient_claim(options: Options, claimed: Bipartite, phi: Callable[[int], int], total: int,
                         computed: HeapQuotient | None = None) -> ClaimVerdict:
    """A claimed quotient (Q, P) with pretending function ``phi`` (heap -> element of Q): refuted by
    the smallest sum (total <= ``total``) whose outcome by search differs from the claim's; else
    proved when ``computed`` (a quotient proved for every heap) is isomorphic to it with the same
    pretending function, else verified on the sums searched."""
    outcomes = search_outcomes(options, total)
    m = claimed.monoid
    for pos, is_p in outcomes.items():
        x = 0
        for h in pos:
            x = m.times(x, phi(h))
        if (x in claimed.p) != is_p:
            return ClaimVerdict("refuted", f"the sum {list(pos)} is {'P' if is_p else 'N'} by misère search; "
                                           f"the claimed quotient says {'P' if x in claimed.p else 'N'}", (pos,))
    if computed is not None and computed.proved and _same(computed, claimed, phi):
        return ClaimVerdict("proved", f"the quotient computed (period {computed.period} proved) is the claimed one")
    return ClaimVerdict("verified", f"every sum of heaps of total <= {total} agrees (misère search)")


def _same(q: HeapQuotient, claimed: Bipartite, phi: Callable[[int], int]) -> bool:
    """Whether X -> (claimed element of X) is an isomorphism of Q onto the claimed quotient: each
    element is sent through a sum of heaps for it; the map must be a bijection keeping P and
    commute with adding any heap of the period's range (every heap's element is one of those)."""
    if q.size != claimed.size or q.period is None:
        return False
    c, m = claimed.monoid, q.q.monoid

    def image(heaps: tuple[int, ...]) -> int:
        y = 0
        for h in heaps:
            y = c.times(y, phi(h))
        return y
    g = [image(q.reps[x]) for x in range(q.size)]
    if len(set(g)) != q.size or any((g[x] in claimed.p) != (x in q.p) for x in range(q.size)):
        return False
    n0, p = q.period
    return all(g[m.times(x, q.element(h))] == c.times(g[x], phi(h))
               for h in range(1, n0 + 2 * p + 1) for x in range(q.size))


def check_order_claim(q: HeapQuotient, order: int | None, p_portion: int | None, total: int,
                      options: Options) -> ClaimVerdict:
    """"The quotient of the sums of heaps <= q.computed has ``order`` elements and ``p_portion`` in
    P". Refuted (counterexample: more pairwise distinguishable sums than claimed, each pair told
    apart by a sum, all replayed by search on total <= ``total``); proved when the quotient is the
    exact one and the figures agree; unknown when the claim says more than the exact quotient has
    (no finite counterexample exists)."""
    have = {"order": (order, q.size), "P-portion": (p_portion, len(q.p))}
    for name, (claim, real) in have.items():
        if claim is None or claim == real:
            continue
        if claim > real:
            return ClaimVerdict("unknown", f"the claimed {name} {claim} exceeds the exact one ({real}); a sum "
                                           f"cannot show that")
        elems = sorted(q.p) if name == "P-portion" else list(range(q.size))
        wit = _witnesses(q, elems[: claim + 1], options, total)
        if wit is not None:
            return ClaimVerdict("refuted", f"{claim + 1} sums pairwise told apart (claimed {name} {claim})", wit)
        return ClaimVerdict("unknown", f"the exact {name} is {real}, but no witness within total {total}")
    scope = "every heap (period proved)" if q.proved else f"the sums of heaps <= {q.computed}"
    return ClaimVerdict("proved", f"the quotient of {scope} is exact (checked by its automaton): "
                                  f"order {q.size}, P-portion {len(q.p)}")


def _witnesses(q: HeapQuotient, elems: Sequence[int], options: Options,
               total: int) -> tuple[tuple[int, ...], ...] | None:
    """Sums for ``elems`` and, per pair, a sum telling them apart, checked by search (None if too big)."""
    reps = q.reps
    m = q.q.monoid
    out = [reps[x] for x in elems]
    outcomes = search_outcomes(options, total)
    for x, y in combinations(elems, 2):
        z = next((z for z in range(m.size) if (m.times(x, z) in q.p) != (m.times(y, z) in q.p)), None)
        if z is None:
            return None
        a, b = tuple(sorted(reps[x] + reps[z])), tuple(sorted(reps[y] + reps[z]))
        if sum(a) > total or sum(b) > total or outcomes[a] == outcomes[b]:
            return None
        out.append(reps[z])
    return tuple(out)
