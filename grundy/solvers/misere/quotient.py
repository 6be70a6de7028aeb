"""The misère quotient of a heap game, heap by heap (after Plambeck and Siegel).

A heap game is given by the options of one heap: ``options(n)`` lists, for a heap of n tokens,
each option as the tuple of the non-zero heaps it leaves (all smaller than n). A_n is the set of
sums of heaps of at most n tokens; its misère quotient Q_n is A_n modulo indistinguishability
(X ~ Y when o(X + Z) = o(Y + Z) for every Z in A_n), a finite commutative monoid with the
P-portion P_n (the images of the misère P-positions), and the *pretending function* Phi maps
each heap to its element of Q_n.

Heap by heap (:func:`quotient_of`):

1. the options of heap n are mapped into Q_{n-1} through Phi; a heap with no option is the
   empty game (the identity); a heap whose options map to the same set as an earlier heap's
   pretends to be that heap (it has the same *type*, see below: nothing new to check);
2. otherwise a generator g is adjoined: the outcomes of x g^k (x in Q_{n-1}, k = 0, 1, ...) are
   computed by playing on representatives of the elements, until the outcome vectors repeat in k;
   then the new monoid {x g^k} is reduced by indistinguishability (:func:`.monoid.reduce`);
3. the result is **verified exactly** (:func:`.automaton.verify`): a finite automaton runs over
   every sum of heaps <= n and checks at each state that the claimed outcome is the one the rules
   give (a P-position has an option and no option in P). If it holds, (Q, P, Phi) gives the right
   misère outcome of every sum of heaps <= n and, being reduced, *is* Q_n. If it fails, the
   computation stops there and says so: the quotient stays the one proved for heaps < n.

The computation stops at ``max_heap``, at a time limit, or when :mod:`.automaton` proves the
pretending function periodic (finite take-and-break codes; see ``docs/misere.md``).

>>> from grundy.spec.heaprule import parse_octal
>>> q = quotient_of(code_options(parse_octal("0.75")), 40, last=2)
>>> q.size, len(q.p), q.period, q.proved
(8, 2, (8, 2), True)
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Sequence

from ...errors import RuleError
from ...spec.heaprule import TakeBreak
from .automaton import find_period, verify
from .monoid import Bipartite, Monoid, _gen_name, presentation, reduce
from .recalibrate import CHECK_EVERY, OutOfTime, past, relearn

__all__ = ["HeapQuotient", "quotient_of", "code_options", "Options", "MAX_K"]

Options = Callable[[int], Sequence[tuple[int, ...]]]

MAX_K = 64              # copies of a new heap tried before its outcome vectors must repeat
MAX_SIZE = 4096         # the largest quotient kept (the extension has |Q| * (K + p) elements)


@dataclass
class HeapQuotient:
    """The misère quotient of the sums of heaps 0..``computed`` (and of every heap if ``proved``)."""

    q: Bipartite
    phi: list[int]                      # phi[h]: the element of heap h (phi[0] = identity)
    computed: int
    period: tuple[int, int] | None = None      # (preperiod n0, period p) of phi, from heap n0 on
    proved: bool = False
    why: str = ""                               # why the computation stopped where it did
    states: int = 0                             # automaton states of the last verification
    splits: int = 0                             # heaps where classes of the quotient split (relearnt)
    reps: list[tuple[int, ...]] = field(default_factory=list)     # a sum of heaps for each element
    types: list[tuple[int, frozenset[int], bool]] = field(default_factory=list)

    @property
    def size(self) -> int:
        return self.q.size

    @property
    def p(self) -> frozenset[int]:
        return self.q.p

    def element(self, h: int) -> int:
        """Phi(h): for h beyond the heaps computed, only through a proved period (else ValueError)."""
        if h <= self.computed:
            return self.phi[h]
        if self.proved and self.period is not None:
            n0, p = self.period
            return self.phi[n0 + (h - n0) % p]
        raise ValueError(f"heap {h}: the quotient is known for heaps <= {self.computed} only "
                         f"(no period proved)")

    def presentation(self) -> list[str]:
        return presentation(self.q.monoid)


def code_options(code: TakeBreak) -> Options:
    """The options of a heap under a take-and-break code, as tuples of non-zero parts.

    >>> from grundy.spec.heaprule import parse_octal
    >>> sorted(code_options(parse_octal("0.77"))(3))
    [(1,), (1, 1), (2,)]
    """
    def options(n: int) -> list[tuple[int, ...]]:
        out: set[tuple[int, ...]] = set()
        for k in range(0, n + 1):
            d = code.digit(k)
            if k > 0 and d & 1 and n == k:
                out.add(())
            if k > 0 and d & 2 and n > k:
                out.add((n - k,))
            if d & 4:
                r = n - k
                for a in range(1, r // 2 + 1):
                    if r - a >= 1 and not (code.unequal and a == r - a):
                        out.add((a, r - a))
        return sorted(out)
    return options


class _Builder:
    """The state of the heap-by-heap computation (see the module's text)."""

    def __init__(self, options: Options, max_states: int, deadline: float | None = None):
        self.options = options
        self.max_states = max_states
        self.deadline = deadline                    # process time after which a heap is abandoned
        self.q = Bipartite(Monoid([], 1), frozenset())
        self.phi = [0]
        self.parts: list[list[tuple[int, ...]]] = [[]]
        self.rep: list[tuple[int, ...]] = [()]          # a sum of heaps for every element
        self.heap_type: dict[tuple[frozenset[int], bool], int] = {}   # (option images, has options) -> a heap
        self.states = 0
        self.splits = 0                             # heaps at which classes split (relearnt)

    def image(self, heaps: Sequence[int]) -> int:
        x = 0
        m = self.q.monoid
        for h in heaps:
            x = m.times(x, self.phi[h])
        return x

    def option_images(self, n: int) -> frozenset[int]:
        return frozenset(self.image(ps) for ps in self.parts[n])

    def types(self) -> list[tuple[int, frozenset[int], bool]]:
        seen: dict[tuple[int, frozenset[int], bool], int] = {}
        for h in range(1, len(self.phi)):
            if self.parts[h]:
                t = (self.phi[h], self.option_images(h), True)
                seen.setdefault(t, h)
        return list(seen)

    def add_heap(self, n: int) -> str | None:
        """Extend to heap n; None, or why the quotient could not be extended."""
        ps = [tuple(sorted(p for p in o if p)) for o in self.options(n)]
        for o in ps:
            if sum(o) > n or any(p >= n for p in o):
                raise RuleError(f"an option of a heap of {n} leaves {list(o)}: parts must be smaller "
                                f"than the heap and total at most it")
        self.parts.append(sorted(set(ps)))
        if not ps:
            self.phi.append(0)                      # no option: the heap is the empty game
            return None
        key = (self.option_images(n), True)
        if key in self.heap_type:                   # the type of an earlier heap: nothing new
            self.phi.append(self.phi[self.heap_type[key]])
            return None
        old = (self.q, list(self.phi), list(self.rep))
        try:
            why = self.extend(n, key[0])
            if why is None:
                ok = verify(self.q, self.types(), self.max_states)
                self.states = ok.states
                if not ok.holds:
                    why = ok.why
            if why is not None:                     # classes of Q_{n-1} split: learn Q_n again
                self.q, self.phi, self.rep = old
                why = self.relearn(n)
                self.splits += why is None
        except OutOfTime:
            why = f"ran out of time at heap {n}"
        if why is not None:
            self.q, self.phi, self.rep = old
            self.parts.pop()
            return why
        self.heap_type = {(self.option_images(h), True): h for h in range(1, n + 1) if self.parts[h]}
        return None

    def relearn(self, n: int) -> str | None:
        q, phi = self.q, list(self.phi)
        m = q.monoid
        cols = [[m.times(x, e) for x in range(m.size)] for e in phi]     # cols[h][x] = x Phi(h)

        def old(pos: tuple[int, ...]) -> bool:
            x = 0
            for h in pos:
                x = cols[h][x]
            return x in q.p
        got = relearn(self.parts, n, old, self.max_states, self.deadline, seeds=self.separating(),
                      old_table=(cols, q.p))
        if isinstance(got, str):
            return got
        red, self.phi, self.rep = got
        red.monoid.names = [_gen_name(i) for i in range(len(red.monoid.act))]
        self.q = red
        return None

    def separating(self) -> list[tuple[int, ...]]:
        """Sums of heaps that tell every two elements of the quotient apart (x z in P for one
        and not the other), few and small: the representatives of elements z in the order of
        their tokens, each kept where it splits a class of those kept before."""
        m, P = self.q.monoid, self.q.p
        cls = [0] * m.size
        out: list[tuple[int, ...]] = []
        for z in sorted(range(m.size), key=lambda z: (sum(self.rep[z]), self.rep[z])):
            keys: dict[tuple[int, bool], int] = {}
            new = [keys.setdefault((cls[x], m.times(x, z) in P), len(keys)) for x in range(m.size)]
            if len(keys) > len(set(cls)):
                cls = new
                out.append(self.rep[z])
        return out

    def outcome_vectors(self, n: int, images: frozenset[int]) -> tuple[list[list[bool]], int, int] | str:
        """V[k][x]: is x g^k a P-position (g heap n), for k until V repeats: (V, K, p)."""
        m, P = self.q.monoid, self.q.p
        V = [[x in P for x in range(m.size)]]
        seen = {tuple(V[0]): 0}
        for k in range(1, MAX_K + 1):
            memo: dict[int, bool] = {}
            prev = V[-1]
            for x in range(m.size):
                self._play(self.rep[x], x, memo, prev, images)
            vec = [memo[x] for x in range(m.size)]
            if tuple(vec) in seen:
                K = seen[tuple(vec)]
                return V, K, k - K
            seen[tuple(vec)] = k
            V.append(vec)
        return f"heap {n}: the outcomes of sums with k copies of it do not repeat for k <= {MAX_K}"

    def _play(self, Y: tuple[int, ...], x: int, memo: dict[int, bool], prev: list[bool],
              images: frozenset[int]) -> bool:
        """Is Y + k g a P-position (k >= 1; x = Phi(Y); prev: the outcomes with k - 1 copies)."""
        if x in memo:
            return memo[x]
        if len(memo) % CHECK_EVERY == 0:
            past(self.deadline)
        m = self.q.monoid
        win = any(prev[m.times(x, o)] for o in images)      # play in one copy of g
        if not win:
            for i, h in enumerate(Y):
                if i and Y[i - 1] == h:
                    continue
                rest = Y[:i] + Y[i + 1:]
                xr = self.image(rest)
                for ps in self.parts[h]:
                    if self._play(tuple(sorted(rest + ps)), m.times(xr, self.image(ps)), memo, prev, images):
                        win = True
                        break
                if win:
                    break
        memo[x] = not win
        return not win

    def extend(self, n: int, images: frozenset[int]) -> str | None:
        got = self.outcome_vectors(n, images)
        if isinstance(got, str):
            return got
        V, K, p = got
        m = self.q.monoid
        L, s = K + p, m.size
        if L * s > MAX_SIZE * 4:
            return f"heap {n}: the extension would have {L * s} elements (more than {MAX_SIZE * 4})"
        act = [[a[x] + k * s for k in range(L) for x in range(s)] for a in m.act]
        act.append([x + (k + 1 if k + 1 < L else K) * s for k in range(L) for x in range(s)])
        names = [*m.names, _next_name(m.names)]
        big = Bipartite(Monoid(act, L * s, names), frozenset(x + k * s for k in range(L) for x in range(s) if V[k][x]))
        red, f = reduce(big)
        if red.size > MAX_SIZE:
            return f"heap {n}: the quotient would have {red.size} elements (more than {MAX_SIZE})"
        rep: list[tuple[int, ...] | None] = [None] * red.size
        for k in range(L):
            for x in range(s):
                cand = tuple(sorted(self.rep[x] + (n,) * k))
                y = f[x + k * s]
                if rep[y] is None or (sum(cand), cand) < (sum(rep[y]), rep[y]):      # type: ignore[arg-type]
                    rep[y] = cand
        self.q = red
        self.phi = [f[e] for e in self.phi] + [f[(1 if L > 1 else K) * s]]
        self.rep = [r if r is not None else () for r in rep]
        return None


def _next_name(names: list[str]) -> str:
    used = set(names)
    i = 0
    while _gen_name(i) in used:
        i += 1
    return _gen_name(i)


def quotient_of(options: Options, max_heap: int, *, last: int | None = None, time_limit: float | None = None,
                max_states: int = 2_000_000, check_every: int = 8) -> HeapQuotient:
    """The misère quotient of the sums of heaps up to ``max_heap`` under ``options`` (see the
    module's text). ``last``: the most tokens a move removes, for a finite take-and-break code
    without unequal splits (its options exactly ``code_options`` of the code): then the period is
    proved where :func:`.automaton.find_period` says so, and the computation stops there.
    ``time_limit``: CPU seconds (process time), after which it stops with what is proved (a heap
    whose computation passes it is abandoned: the quotient stays the one of the heaps before)."""
    start = time.process_time()
    b = _Builder(options, max_states, None if time_limit is None else start + time_limit)
    why = f"stopped at heap {max_heap} (--max-heap)"
    period: tuple[int, int] | None = None
    proved = False
    n = 0
    for n in range(1, max_heap + 1):
        reason = b.add_heap(n)
        if reason is not None:
            why = reason
            n -= 1
            break
        if n % check_every == 0 or n == max_heap:
            found = find_period(b.phi, n, last)
            if found is not None:
                period, proved = (found[0], found[1]), found[2]
                if proved:
                    why = f"period proved at heap {n}"
                    break
        if time_limit is not None and time.process_time() - start > time_limit:
            why = f"ran out of time ({time_limit:g} s) at heap {n}"
            break
    if not proved:
        found = find_period(b.phi, n, last)
        period, proved = (found[0], found[1]) if found else None, bool(found and found[2])
    return HeapQuotient(b.q, b.phi, n, period, proved, why, b.states, b.splits, b.rep, b.types())
