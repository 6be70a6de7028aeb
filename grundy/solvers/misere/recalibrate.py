"""Recalibration: the quotient of the sums of heaps <= n when adding heap n splits classes of Q_{n-1}.

Adjoining heap n to Q_{n-1} (:mod:`.quotient`) assumes that the outcome of Y + k H_n depends on
Y's element of Q_{n-1} only. When the exact check refutes that (two sums that Q_{n-1} identifies
are told apart by copies of heap n), the quotient is learnt again from the rules, as a finite
automaton is learnt from a membership oracle (Angluin's L*, with Rivest and Schapire's handling
of counterexamples):

- *membership*: the misère outcome of a sum of heaps <= n, by search: a sum of heaps < n is
  answered by Q_{n-1} (proved exact for those sums), any other by its options;
- *access sums* S (one per state) and *tests* E: two sums are one state while no test tells
  them apart; the states, moved by adding one heap, are a hypothesis (Q, P, Phi);
- *equivalence*: the exact check of :func:`.automaton.verify`; a failure names a sum whose
  outcome the hypothesis gets wrong, from which one new test is found.

The result, once the check holds, is reduced by indistinguishability: it is Q_n.
"""
from __future__ import annotations

import heapq
import sys
import time
from typing import Callable, Sequence

from .automaton import Verdict, least_failure, verify
from .monoid import Bipartite, Monoid, reduce
from .native import NativeSearch

__all__ = ["relearn", "MAX_ROUNDS", "OutOfTime"]

MAX_ROUNDS = 200
POWER = 3                   # heap h weighs h^3: its options (parts totalling at most h) weigh less
MAX_NATIVE = 200            # sums of at most this many heaps are searched in C (where it serves)
CHECK_EVERY = 4096          # searches between two looks at the clock


class OutOfTime(Exception):
    """The CPU deadline (``time.process_time()``) passed during a heap's computation."""


def past(deadline: float | None) -> None:
    """Raise :class:`OutOfTime` if the process-time ``deadline`` has passed (None: no deadline)."""
    if deadline is not None and time.process_time() > deadline:
        raise OutOfTime


class _Oracle:
    """Exact misère outcomes (True: P-position) of sums of heaps <= n."""

    def __init__(self, parts: list[list[tuple[int, ...]]], n: int, old: Callable[[tuple[int, ...]], bool],
                 deadline: float | None = None, old_table: tuple[list[list[int]], frozenset[int]] | None = None):
        self.parts, self.n, self.old = parts, n, old
        self.memo: dict[tuple[int, ...], bool] = {}
        self.deadline = deadline
        self.weight = [h ** POWER for h in range(n + 1)]     # every option weighs less than its heap
        self.bound = 0                                  # sums weighing less: answered by `known`
        self.known: tuple[list[list[int]], frozenset[int]] = ([], frozenset())
        self.native = None if old_table is None else NativeSearch.make(parts, n)
        if self.native is not None and old_table is not None:
            self.native.set_old(*old_table)

    def certify(self, bound: int, act: list[list[int]], p: frozenset[int]) -> None:
        """A hypothesis proved right on every sum weighing less than ``bound``
        (:func:`.automaton.least_failure`) answers those sums from now on."""
        if bound > self.bound:
            self.bound, self.known = bound, (act, p)
            if self.native is not None:
                self.native.certify(act, p, self.weight, bound)

    def weighs(self, pos: Sequence[int]) -> int:
        w = self.weight
        return sum([w[h] for h in pos])

    def __call__(self, pos: tuple[int, ...]) -> bool:
        pos = tuple(sorted(pos))
        if not pos or pos[-1] < self.n:
            return self.old(pos)
        if self.weighs(pos) < self.bound:
            act, p = self.known
            return _run(act, pos) in p
        got = self.memo.get(pos)
        if got is None:
            if self.native is not None and len(pos) <= MAX_NATIVE:
                got = self.memo[pos] = self.native.outcome(pos, lambda: past(self.deadline))
                return got
            if len(self.memo) % CHECK_EVERY == 0:
                past(self.deadline)
            got = self.memo[pos] = self._search(pos)
        return got

    def _search(self, pos: tuple[int, ...]) -> bool:
        moved = False
        for i, h in enumerate(pos):
            if i and pos[i - 1] == h:
                continue
            rest = pos[:i] + pos[i + 1:]
            for ps in self.parts[h]:
                moved = True
                if self(rest + ps):
                    return False
        return moved


def relearn(parts: list[list[tuple[int, ...]]], n: int, old: Callable[[tuple[int, ...]], bool],
            max_states: int, deadline: float | None = None, seeds: Sequence[tuple[int, ...]] = (),
            old_table: tuple[list[list[int]], frozenset[int]] | None = None,
            ) -> tuple[Bipartite, list[int], list[tuple[int, ...]]] | str:
    """Q_n learnt from the rules (see the module's text): (Q, Phi of heaps 0..n, a sum of heaps for
    each element), or why not. ``parts[h]``: the options of heap h; ``old(pos)``: the outcome of a
    sum of heaps < n (True: P). ``deadline``: a process time after which the search raises
    :class:`OutOfTime` (checked every :data:`CHECK_EVERY` positions searched). ``seeds``: the
    first tests (sums of heaps < n, answered by ``old``: a sum for each element of Q_{n-1} tells
    its elements apart at once). ``old_table``: Q_{n-1} as ``(cols, P)`` with ``cols[h][x]`` =
    x Phi(h), for the search in C (:mod:`.native`, where a C compiler serves; else in Python)."""
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20_000))
    o = _Oracle(parts, n, old, deadline, old_table)
    S: list[tuple[int, ...]] = [()]
    E: list[tuple[int, ...]] = [()] + sorted({tuple(sorted(e)) for e in seeds if e}, key=lambda e: (sum(e), e))
    letters = range(1, n + 1)
    for _ in range(MAX_ROUNDS):
        q, act = _hypothesis(o, S, E, letters)
        if _commute(o, act, S, E):                  # a new test: the states did not commute
            continue
        types, heap_of_type, phi = _types(q, act, parts, n)
        v = verify(q, types, max_states)
        if not v.holds:                             # the fewest tokens where it fails: right below
            least = least_failure(q, types, [o.weight[h] for h in heap_of_type], max_states,
                                  lambda: past(deadline))
            if least is not None and least[0] >= 0:
                o.certify(least[0], act, q.p)
                v = Verdict(False, v.states, v.why, least[1])
        if v.holds:
            red, f = reduce(q)
            reps: list[tuple[int, ...] | None] = [None] * red.size
            for i, s in enumerate(S):
                if reps[f[i]] is None:
                    reps[f[i]] = s
            return red, [f[x] for x in phi], [r or () for r in reps]
        if not v.witness:
            return v.why or "the check failed"
        _learn(o, q, act, S, E, [heap_of_type[t] for t in v.witness], parts)
    return f"heap {n}: no quotient learnt in {MAX_ROUNDS} rounds"


def _row(o: _Oracle, s: tuple[int, ...], E: list[tuple[int, ...]]) -> tuple[bool, ...]:
    return tuple(o(s + e) for e in E)


def _hypothesis(o: _Oracle, S: list[tuple[int, ...]], E: list[tuple[int, ...]],
                letters: range) -> tuple[Bipartite, list[list[int]]]:
    """Close S (every state plus one heap is a state) and read the automaton off it."""
    rows = {_row(o, s, E): i for i, s in enumerate(S)}
    if len(rows) < len(S):                      # a new test merged nothing: rows stay distinct
        raise AssertionError("access sums with equal rows")
    act: list[list[int]] = [[-1] * len(S) for _ in letters]
    # the sums S[i] + h in the order of their weights (:func:`.automaton.least_failure`): a new
    # state's access sum weighs least of those found (a counterexample's queries stay below it)
    todo = [(o.weighs(s) + o.weight[h], i, j) for i, s in enumerate(S) for j, h in enumerate(letters)]
    heapq.heapify(todo)
    while todo:
        _, i, j = heapq.heappop(todo)
        t = tuple(sorted(S[i] + (letters[j],)))
        r = _row(o, t, E)
        if r not in rows:
            rows[r] = len(S)
            S.append(t)
            for a in act:
                a.append(-1)
            for k, h in enumerate(letters):
                heapq.heappush(todo, (o.weighs(t) + o.weight[h], len(S) - 1, k))
        act[j][i] = rows[r]
    m = Monoid(act, len(S), [f"h{h}" for h in letters])
    return Bipartite(m, frozenset(i for i, s in enumerate(S) if o(s))), act


def _commute(o: _Oracle, act: list[list[int]], S: list[tuple[int, ...]], E: list[tuple[int, ...]]) -> bool:
    """If two heaps added in either order reach different states, add the test that tells the
    (one) sum apart from one of them, and say so (True). Commuting actions: a commutative monoid."""
    for x in range(len(S)):
        for i in range(len(act)):
            a = act[i][x]
            for j in range(i + 1, len(act)):
                b = act[j][x]
                s1, s2 = act[j][a], act[i][b]
                if s1 == s2:
                    continue
                for e in E:
                    truth = o(S[x] + (i + 1, j + 1) + e)
                    if o(S[s1] + e) != truth:        # S[x]+h_i ~ S[a], yet h_j + e tells them apart
                        E.append(tuple(sorted((j + 1,) + e)))
                        return True
                    if o(S[s2] + e) != truth:
                        E.append(tuple(sorted((i + 1,) + e)))
                        return True
                raise AssertionError("two states with the same row")
    return False


def _types(q: Bipartite, act: list[list[int]], parts: list[list[tuple[int, ...]]],
           n: int) -> tuple[list[tuple[int, frozenset[int], bool]], list[int], list[int]]:
    phi = [0] + [act[h - 1][0] for h in range(1, n + 1)]

    def image(ps: Sequence[int]) -> int:
        x = 0
        for h in ps:
            x = act[h - 1][x]
        return x
    seen: dict[tuple[int, frozenset[int], bool], int] = {}
    for h in range(1, n + 1):
        if parts[h]:
            seen.setdefault((phi[h], frozenset(image(ps) for ps in parts[h]), True), h)
    return list(seen), list(seen.values()), phi


def _run(act: list[list[int]], heaps: Sequence[int], start: int = 0) -> int:
    x = start
    for h in heaps:
        x = act[h - 1][x]
    return x


def _learn(o: _Oracle, q: Bipartite, act: list[list[int]], S: list[tuple[int, ...]], E: list[tuple[int, ...]],
           w: list[int], parts: list[list[tuple[int, ...]]]) -> None:
    """Add a test from a sum ``w`` where the check failed: the sum, or one of its options, is
    predicted wrongly (the hypothesis is commutative, so the option's state is the one checked);
    the Rivest-Schapire split of that word gives a test no state had."""
    bad = None
    candidates = [list(w)] + [list(w[:i]) + list(w[i + 1:]) + list(ps) for i in range(len(w)) for ps in parts[w[i]]]
    for z in candidates:
        if o(tuple(z)) != (_run(act, z) in q.p):
            bad = z
            break
    if bad is None:
        raise AssertionError("the check failed but every outcome is predicted right")
    m = len(bad)
    alpha = [o(tuple(S[_run(act, bad[:i])]) + tuple(bad[i:])) for i in range(m + 1)]
    for i in range(m):
        if alpha[i] != alpha[i + 1]:
            E.append(tuple(sorted(bad[i + 1:])))
            return
    raise AssertionError("no test found in a counterexample")
