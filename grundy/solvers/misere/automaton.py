"""Exact checks of a misère quotient: every sum of heaps, by a finite automaton; and the period.

**Verification.** Heaps are grouped by *type*: (Phi(h), the set of the images of h's options,
whether h has an option). A sum X of heaps is read by the automaton state

    s(X) = (Phi(X), and for each type t present in X: Phi(X - H_t))

(H_t one heap of type t; heaps of one type are interchangeable here; two types with the same
Phi, whose options have images in P from the same elements y (y * o in P), are one type here). Adding a heap of type u
maps s(X) to s(X + H_u) from s(X) alone. The images of the options of X are exactly
Phi(X - H_t) * o for t present and o an option image of t, so at every reachable state the rule of
misère play can be checked: Phi(X) is in P iff X has an option and no option's image is in P.
When that holds at every reachable state (finitely many), induction on X shows that
o(X) = P iff Phi(X) in P for *every* sum of heaps of the types seen: then (Q, P) reduced is the
misère quotient of those sums, and any later heap of an existing type changes nothing.

**Periodicity** (finite take-and-break codes, removing at most t tokens, no unequal splits): if
Phi(n + p) = Phi(n) for n0 <= n and n + p <= N, with n0 >= 1 and N >= 2 n0 + 2p + t - 1, then the
options of every heap n > N map onto the same images as those of n - p (each option is a heap
n - k >= n0 + p or a split a + b = n - k with b >= (n - k) / 2 >= n0 + p, matched with b - p, and
back), so heap n has the type of heap n - p, by induction for every n: Phi is periodic from n0
with period p and the quotient of all heaps is the one verified (docs/misere.md).

>>> find_period([0, 1, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3, 2, 3], 13, 1)
(2, 2, True)
"""
from __future__ import annotations

import heapq
from collections import deque
from dataclasses import dataclass
from typing import Callable

from .monoid import Bipartite

__all__ = ["Verdict", "verify", "find_period", "least_failure"]


@dataclass(frozen=True)
class Verdict:
    holds: bool
    states: int
    why: str | None = None
    witness: tuple[int, ...] = ()        # the types of a sum where the check fails (one per heap)


def verify(q: Bipartite, types: list[tuple[int, frozenset[int], bool]], max_states: int) -> Verdict:
    """Check (Q, P, Phi) on every sum of heaps of ``types`` (see the module's text)."""
    m, P = q.monoid, q.p
    merged: dict[tuple[int, frozenset[int], bool], int] = {}     # what the check reads of a type
    for g, opts, h in types:
        merged.setdefault((g, _bad(q, opts), h), len(merged))
    keys = list(merged)
    n = len(keys)
    mul = [[m.times(y, g) for y in range(m.size)] for g, _, _ in keys]
    bad = [b for _, b, _ in keys]
    first: dict[int, int] = {}
    for i, (g, opts, h) in enumerate(types):
        first.setdefault(merged[(g, _bad(q, opts), h)], i)
    for t, (_, b, _) in enumerate(keys):             # P-positions: no option into P (pairs (z g, z): all z)
        for z in range(m.size):
            if mul[t][z] in P and z in b:
                return Verdict(False, 0, f"the quotient says P at {m.word(mul[t][z])}, which has an option "
                                         f"in P", _find(q, keys, mul, first, mul[t][z], t, z))
    if 0 in P:
        return Verdict(False, 0, "the empty sum is N in misère play, not P", ())
    start = (0,) + (-1,) * n
    ext = [row + [-1] for row in mul]                # ext[u][-1] = -1: a type absent stays absent
    shift = [[1 << (t * m.size + y) for y in range(m.size)] + [0] for t in range(n)]   # a state's bits
    seen: dict[tuple[int, ...], tuple[tuple[int, ...], int] | None] = {start: None}
    kept: dict[int, _Antichain] = {}             # per element: the explored states' (type, value) bit sets
    todo = deque([start])                 # breadth first: a failure is met at a smallest sum
    while todo:
        s = todo.popleft()
        x, ys = s[0], s[1:]
        if x not in P and any(ys[t] >= 0 for t in range(n)) and not any(
                ys[t] >= 0 and ys[t] in bad[t] for t in range(n)):
            return Verdict(False, len(seen), f"the quotient says N at {m.word(x)} where no option is in P",
                           tuple(first[u] for u in _path(seen, s)))
        for u in range(n):
            row = ext[u]
            vals = [row[y] for y in ys]                  # Phi(X + H_u - H_t) = Phi(X - H_t) Phi(H_u)
            vals[u] = x                                  # Phi(X + H_u - H_u) = Phi(X)
            new = (row[x], *vals)
            if new in seen:
                continue
            bits = sum([sh[y] for sh, y in zip(shift, vals)])
            mine = kept.get(new[0])
            if mine is None:
                mine = kept[new[0]] = _Antichain()
            elif mine.covered(bits):
                continue
            seen[new] = (s, u)
            mine.keep(bits)
            if len(seen) > max_states:
                return Verdict(False, len(seen), f"more than {max_states} automaton states to check")
            todo.append(new)
    return Verdict(True, len(seen))


def _bad(q: Bipartite, opts: frozenset[int]) -> frozenset[int]:
    """The elements y from which an option image o leads into P (y * o in P)."""
    m = q.monoid
    return frozenset(y for y in range(m.size) if any(m.times(y, o) in q.p for o in opts))


class _Antichain:
    """The explored states' (type, value) bit sets of one element, for the covering rule: only
    the minimal ones (a set that contains another covers nothing more), filed by their lowest
    bit, so that a state is compared only with the sets whose lowest bit it has.

    >>> kept = _Antichain()
    >>> kept.keep(0b110); kept.keep(0b011); kept.keep(0b010); sorted(k for v in kept.by_low.values() for k in v)
    [2]
    >>> kept.covered(0b111), kept.covered(0b101)
    (True, False)
    """

    def __init__(self) -> None:
        self.by_low: dict[int, list[int]] = {}

    def covered(self, bits: int) -> bool:
        """Whether an explored state has the same element and a subset of these types with the
        same values: every check at this state and beyond is then implied by the checks made
        there and beyond."""
        others = ~bits
        by_low = self.by_low
        if 0 in by_low:
            return True                                 # the empty set is a subset of any
        b = bits
        while b:
            low = b & -b
            for k in by_low.get(low, ()):
                if not k & others:
                    return True
            b ^= low
        return False

    def keep(self, bits: int) -> None:
        """Keep an explored state's bits, dropping the kept ones it is a subset of: whatever they
        cover, it covers, so the answers of :meth:`covered` stay the same."""
        for low, ks in self.by_low.items():
            self.by_low[low] = [k for k in ks if bits & ~k]
        self.by_low.setdefault(bits & -bits, []).append(bits)


def _find(q: Bipartite, keys: list, mul: list[list[int]], first: dict[int, int], x: int, t: int,
          z: int) -> tuple[int, ...]:
    """Types of a sum X with Phi(X - H_t) = z (a word for z over the types, then t)."""
    m = q.monoid
    parent: dict[int, tuple[int, int] | None] = {0: None}
    todo = deque([0])
    while todo and z not in parent:
        y = todo.popleft()
        for u in range(len(keys)):
            w = mul[u][y]
            if w not in parent:
                parent[w] = (y, u)
                todo.append(w)
    if z not in parent:
        return ()
    out = [t]
    while parent[z] is not None:
        z, u = parent[z]                                  # type: ignore[misc]
        out.append(u)
    _ = m
    return tuple(first[u] for u in reversed(out))


def least_failure(q: Bipartite, types: list[tuple[int, frozenset[int], bool]], weights: list[int],
                  max_states: int, tick: Callable[[], None] | None = None) -> tuple[int, tuple[int, ...]] | None:
    """The least weight of a sum of heaps of ``types`` at whose state the rule of misère play
    fails, and the types of such a sum: a heap of type i weighs ``weights[i]`` (the weights
    given must make every option of a heap weigh less than the heap, as tokens do). None if no
    state fails; (-1, ()) past ``max_states`` (not known). ``tick()`` is called every 4,096
    states (a deadline's check may raise there). Two parts, as in :func:`verify`:

    - *P-elements*: the rule fails at X = Z + H_t exactly where Phi(X) = Phi(Z) g_t is in P and Z
      has an option image o of t with Phi(Z) o in P, whatever else X holds: the lightest such X
      is the lightest Z of each element (a search over the elements) plus the lightest heap t;
    - *N-elements*: the states in the order of the least weight reaching them, a state skipped
      when an explored one has its element and a subset of its (type, value) pairs: a failure
      (N said, no option in P) at that state plus Z gives one at the explored state plus Z, no
      heavier (its options there are among these; it has a heap, not being the empty sum).

    If it returns (t, w): the rule holds at the state of every sum weighing less than t, so (by
    induction on the weight: a sum's options weigh less) (Q, P, Phi) gives the right outcome of
    *every* sum weighing less than t; at w the rule fails while its options are right, so
    (Q, P, Phi) is wrong at w itself.

    >>> from .monoid import from_presentation
    >>> t2 = from_presentation("ab", ["a^2 = 1", "b^3 = b"], ["a", "b^2"])   # misere Nim, heaps 1 and 2
    >>> a, b = t2.monoid.act[0][0], t2.monoid.act[1][0]
    >>> types = [(a, frozenset({0}), True), (b, frozenset({0, a}), True)]
    >>> least_failure(t2, types, [1, 2], 1000) is None
    True
    >>> wrong = Bipartite(t2.monoid, frozenset({a}))                        # *2 + *2 said N
    >>> least_failure(wrong, types, [1, 2], 1000)
    (4, (1, 1))
    """
    m, P = q.monoid, q.p
    mul = [[m.times(y, g) for y in range(m.size)] + [-1] for g, _, _ in types]
    bad = [_bad(q, opts) for _, opts, _ in types]
    if 0 in P:
        return 0, ()
    best = _p_failure(m.size, mul, bad, P, weights)
    got = _n_failure(m.size, mul, bad, P, weights, max_states, tick, best[0] if best else None)
    return got if got is not None else best


def _p_failure(size: int, mul: list[list[int]], bad: list[frozenset[int]], P: frozenset[int],
               weights: list[int]) -> tuple[int, tuple[int, ...]] | None:
    """The lightest sum Z + H_t with Phi(Z) g_t in P and Phi(Z) in bad[t] (see least_failure)."""
    light: dict[int, int] = {0: 0}
    parent: dict[int, tuple[int, int] | None] = {0: None}
    todo = [(0, 0)]
    while todo:
        d, z = heapq.heappop(todo)
        if light[z] != d:
            continue
        for u, row in enumerate(mul):
            y, nd = row[z], d + weights[u]
            if nd < light.get(y, nd + 1):
                light[y], parent[y] = nd, (z, u)
                heapq.heappush(todo, (nd, y))
    best: tuple[int, int, int] | None = None
    for t, row in enumerate(mul):
        for z, d in light.items():
            if row[z] in P and z in bad[t] and (best is None or d + weights[t] < best[0]):
                best = (d + weights[t], z, t)
    if best is None:
        return None
    word = [best[2]]
    z = best[1]
    while parent[z] is not None:
        z, u = parent[z]                                  # type: ignore[misc]
        word.append(u)
    return best[0], tuple(reversed(word))


def _n_failure(size: int, mul: list[list[int]], bad: list[frozenset[int]], P: frozenset[int], weights: list[int],
               max_states: int, tick: Callable[[], None] | None,
               below: int | None) -> tuple[int, tuple[int, ...]] | None:
    """The lightest sum said N with a heap and no option into P, lighter than ``below`` (see
    least_failure); (-1, ()) past ``max_states``."""
    n = len(mul)
    start = (0,) + (-1,) * n
    shift = [[1 << (t * size + y) for y in range(size)] + [0] for t in range(n)]
    dist: dict[tuple[int, ...], int] = {start: 0}
    parent: dict[tuple[int, ...], tuple[tuple[int, ...], int] | None] = {start: None}
    kept: dict[int, _Antichain] = {}
    todo = [(0, 0, start)]
    count = 0
    while todo:
        d, _, s = heapq.heappop(todo)
        if dist[s] != d:
            continue
        if below is not None and d >= below:
            return None
        x, ys = s[0], s[1:]
        if s != start:
            mine = kept.setdefault(x, _Antichain())
            bits = sum([sh[y] for sh, y in zip(shift, ys)])
            if mine.covered(bits):
                continue
            mine.keep(bits)
            if x not in P and not any(ys[t] >= 0 and ys[t] in bad[t] for t in range(n)):
                return d, _path(parent, s)
        for u in range(n):
            row = mul[u]
            vals = [row[y] for y in ys]
            vals[u] = x
            new = (row[x], *vals)
            nd = d + weights[u]
            if nd < dist.get(new, nd + 1):
                dist[new], parent[new] = nd, (s, u)
                count += 1
                if len(dist) > max_states:
                    return -1, ()
                if tick is not None and not count & 4095:
                    tick()
                heapq.heappush(todo, (nd, count, new))
    return None


def find_period(phi: list[int], n: int, last: int | None) -> tuple[int, int, bool] | None:
    """The least period p of Phi(1..n) with its preperiod n0 >= 1: proved when ``last`` (t) is given
    and n >= 2 n0 + 2p + t - 1 (see the module's text); else only *apparent*, when the periodic part
    repeats at least three times and covers at least half of 1..n. None if neither."""
    best: tuple[int, int, bool] | None = None
    for p in range(1, n // 2 + 1):
        n0 = n - p + 1
        while n0 > 1 and phi[n0 - 1] == phi[n0 - 1 + p]:
            n0 -= 1
        if last is not None and n >= 2 * n0 + 2 * p + last - 1:
            return (n0, p, True)
        if best is None and n - n0 + 1 >= 3 * p and 2 * (n - n0 + 1) >= n:
            best = (n0, p, False)
    return best


def _path(parents: dict, s: tuple[int, ...]) -> tuple[int, ...]:
    out = []
    while parents[s] is not None:
        s, u = parents[s]
        out.append(u)
    return tuple(reversed(out))
