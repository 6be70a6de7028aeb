"""The sample of a sweep the cross-check re-solves (:mod:`grundy.verify.recheck`): the smallest
positions in size order and others drawn at random, taken as the sweep offers them.

>>> s = Sample(seed=1, smallest=2, drawn=1)
>>> s.add("owner", [5, 3, 9, 1], key=lambda w: (0, 0, w))
>>> [e[3] for e in s.entries()][:2]
[1, 3]
"""
from __future__ import annotations

import heapq
import math
import random
from typing import Any, Callable, Sequence

__all__ = ["Sample"]


def _rank(entry: tuple) -> tuple:
    """An entry's place in the sample's order: its size key, then its sweep index."""
    return entry[0], entry[1]


class _Later:
    """A position taken into the draw, made only if it stays there (``make(arg)``: a sweep's
    position at an index, :meth:`Sample.add`'s ``wheres`` with a ``later`` method)."""

    __slots__ = ("make", "arg")

    def __init__(self, make: Callable[[Any], Any], arg: Any):
        self.make, self.arg = make, arg


class Sample:
    """The positions offered by a sweep, as they come: the ``smallest`` smallest by key and
    ``drawn`` others drawn uniformly at random (a reservoir of ``smallest + drawn``, Li's
    algorithm L: one random number per position taken, none per position passed over; those
    among the smallest are left out of the draw)."""

    def __init__(self, seed: int, smallest: int, drawn: int):
        self.k, self.want = smallest, drawn
        self.d = smallest + drawn if drawn else 0           # the reservoir's size
        self.small: list[tuple] = []
        self.drawn: list[tuple] = []
        self.seen = 0
        self.rng = random.Random(seed)
        self._w = math.exp(math.log(self.rng.random()) / self.d) if self.d else 0.0
        self._next = self.d + self._skip() if self.d else -1
        self._entries: list[tuple] | None = None
        self._pruned = False                                 # self.small sorted, k at most

    def _skip(self) -> int:
        return int(math.log(self.rng.random()) / math.log(1 - self._w)) if self._w < 1 else 0

    def add(self, owner: Any, wheres: Sequence[Any], key: Callable[[Any], tuple] | None = None,
            total: Callable[[Any], int] | None = None, totals: Sequence[int] | None = None) -> None:
        """Take a batch of positions of one structure (``owner``'s) in sweep order: ``key(where)``
        is a position's size key (None: the order they come in), ``total(where)`` the third
        component of the key (the sum of the numeric fields), cheap, to pass over most
        positions without making their key; ``totals``: those sums, already known (a sweep in C).
        ``wheres`` may make its positions when read (``wheres.later(j)``: a function and its
        argument that make position ``j``): a position drawn is then made only if it is still
        drawn at the end (most are replaced)."""
        first = self.seen
        self.seen += len(wheres)
        self._smallest(owner, wheres, first, key, total, totals)
        later = getattr(wheres, "later", None)
        at: Callable[[int], Any] = wheres.__getitem__ if later is None else (lambda j: _Later(*later(j)))
        for i in range(first, min(self.d, self.seen)):    # the reservoir fills first
            self.drawn.append((i, owner, at(i - first)))
        if not self.d or self._next >= self.seen:
            return
        d, drawn, nxt, w = self.d, self.drawn, self._next, self._w
        randrange, rand, log, exp = self.rng.randrange, self.rng.random, math.log, math.exp
        while nxt < self.seen:           # (as :meth:`_skip`, its names read once)
            drawn[randrange(d)] = (nxt, owner, at(nxt - first))
            w *= exp(log(rand()) / d)
            nxt += (int(log(rand()) / log(1 - w)) if w < 1 else 0) + 1
        self._next, self._w = nxt, w

    def _smallest(self, owner: Any, wheres: Sequence[Any], first: int, key: Callable | None,
                  total: Callable | None, totals: Sequence[int] | None = None) -> None:
        if key is None:
            take = wheres[:max(0, self.k - len(self.small))]
            self.small.extend(((first + i,), first + i, owner, w) for i, w in enumerate(take))
            return
        picked: list[int] | range = range(len(wheres))
        cap = None
        if len(self.small) >= self.k:
            top = self.small[-1][0] if self._pruned else max(self.small)[0]
            here = key(wheres[0])[:2]
            if here > top[:2]:
                return                   # a larger structure than every one kept (families grow)
            if here == top[:2]:
                cap = top[2]
        if (total is not None or totals is not None) and (cap is not None or len(wheres) > self.k > 0):
            sums = totals if totals is not None else list(map(total, wheres))   # type: ignore[arg-type]
            if len(wheres) > self.k > 0:
                # one structure: a position whose sum exceeds the k-th least sum of the batch has
                # k positions of the batch before it in size order, so it is not among the k smallest
                least = heapq.nsmallest(self.k, sums)[-1]
                cap = least if cap is None else min(cap, least)
            if cap is not None:          # (always, by the condition above)
                picked = [i for i, t in enumerate(sums) if t <= cap]
        for i in picked:
            st = wheres[i]                                   # (made once: its key and the entry)
            self.small.append((key(st), first + i, owner, st))
        if len(self.small) > self.k:
            self.small = sorted(heapq.nsmallest(self.k, self.small, key=_rank))
            self._pruned = True

    def entries(self) -> list[tuple]:
        """(key, sweep index, owner, where) of every position taken: the smallest first, in
        size order, then the drawn ones in sweep order."""
        if self._entries is None:
            small = heapq.nsmallest(self.k, self.small, key=_rank)
            seen = {e[1] for e in small}
            pool = list(self.drawn)
            self.rng.shuffle(pool)
            rest = [(("drawn",), i, owner, w.make(w.arg) if type(w) is _Later else w)
                    for i, owner, w in [e for e in pool if e[0] not in seen][:self.want]]
            self._entries = sorted(small, key=_rank) + sorted(rest, key=lambda e: e[1])
        return self._entries
