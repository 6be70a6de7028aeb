"""Misère quotients of heap games (Plambeck; Plambeck and Siegel): misère play of sums of heaps.

- :mod:`.monoid`: finite commutative monoids, bipartite monoids (Q, P), reduction, isomorphism;
- :mod:`.quotient`: the quotient heap by heap (:func:`quotient_of`), :mod:`.automaton` its exact
  check and the periodicity proof, :mod:`.recalibrate` the relearning when classes split;
- :mod:`.check`: misère search of small sums, checks of quotients and of claims;
- :class:`Quotient`: a game's quotient, answering the misère outcome and a winning move of a sum.

>>> q = Quotient("octal", code="0.75")
>>> q.size, len(q.p_portion), q.proved, q.outcome([1, 1, 1]), q.outcome([10**6, 3, 7])
(8, 2, True, 'P', 'N')
>>> q.outcome(q.winning_move([10**6, 3, 7])[2])
'P'
"""
from __future__ import annotations

from typing import Any

from ...errors import InputError
from .check import check_order_claim, check_quotient_claim, mismatches, search_outcomes
from .monoid import Bipartite, Monoid, from_presentation, isomorphic, minimal_generators, reduce
from .quotient import HeapQuotient, Options, code_options, quotient_of

__all__ = ["Quotient", "HeapQuotient", "quotient_of", "code_options", "game_options", "Monoid", "Bipartite",
           "reduce", "isomorphic", "from_presentation", "minimal_generators", "search_outcomes", "mismatches",
           "check_quotient_claim", "check_order_claim"]

DEFAULT_MAX_HEAP = 200


def game_options(game: str, **params: Any) -> tuple[Options, int | None, str]:
    """The options of one heap of a registered heap game (with its JSON parameters), the most
    tokens a move removes when a finite code without unequal splits gives the options (else
    None), and a label. InputError if the game is not a sum of heaps under one rule."""
    from ...spec import read_position
    from ..heaps import rule_options, sum_of_heaps
    pos = read_position({"game": game, **params, "heaps": []})
    rule = sum_of_heaps(pos.game, pos.structure)          # type: ignore[union-attr]
    if rule is None:
        raise InputError("game", f"{game!r} is not a one-heap game (its positions are not sums of heaps under one rule)")
    label = " ".join([game, *(str(v) for v in params.values())])
    if rule.code is not None:
        code = rule.code
        last = code.last if not code.unequal else None
        return code_options(code), last, label

    def options(n: int) -> list[tuple[int, ...]]:
        return [tuple(ps) for _, ps in rule_options(rule, n)]
    return options, None, label


class Quotient:
    """The misère quotient of a heap game: ``Quotient("octal", code="0.75")``, or
    ``Quotient.of_options(options, last=t)``. Heaps beyond those computed are answered only
    through a proved period (a ValueError otherwise)."""

    def __init__(self, game: str | None = None, *, max_heap: int = DEFAULT_MAX_HEAP, time_limit: float | None = None,
                 options: Options | None = None, last: int | None = None, label: str = "", **params: Any):
        if options is None:
            if game is None:
                raise InputError("game", "give a game's name or its options")
            options, last, label = game_options(game, **params)
        self.options, self.last, self.label = options, last, label or (game or "")
        self.q: HeapQuotient = quotient_of(options, max_heap, last=last, time_limit=time_limit)

    @classmethod
    def of_options(cls, options: Options, *, last: int | None = None, max_heap: int = DEFAULT_MAX_HEAP,
                   label: str = "") -> "Quotient":
        return cls(options=options, last=last, max_heap=max_heap, label=label)

    @property
    def size(self) -> int:
        return self.q.size

    @property
    def p_portion(self) -> frozenset[int]:
        return self.q.p

    @property
    def proved(self) -> bool:
        return self.q.proved

    def element(self, heaps: list[int]) -> int:
        """The element of Q of a sum of heaps."""
        m = self.q.q.monoid
        x = 0
        for h in heaps:
            if h < 0:
                raise InputError("heaps", f"a heap of {h} tokens")
            if h:
                x = m.times(x, self.q.element(h))
        return x

    def outcome(self, heaps: list[int]) -> str:
        """'P' (the player to move loses in misère play) or 'N'."""
        return "P" if self.element(heaps) in self.q.p else "N"

    def winning_move(self, heaps: list[int]) -> tuple[int, tuple[int, ...], list[int]] | None:
        """A move to a P-position: (index of the heap played, the parts it leaves, the new heaps);
        None if the sum is a P-position."""
        m = self.q.q.monoid
        k = len(heaps)
        pre, suf = [0] * (k + 1), [0] * (k + 1)
        for i, h in enumerate(heaps):
            pre[i + 1] = m.times(pre[i], self.q.element(h) if h else 0)
        for i in range(k - 1, -1, -1):
            suf[i] = m.times(suf[i + 1], self.q.element(heaps[i]) if heaps[i] else 0)
        for i, h in enumerate(heaps):
            rest = m.times(pre[i], suf[i + 1])
            for ps in self.options(h) if h else ():
                if m.times(rest, self.element(list(ps))) in self.q.p:
                    return i, tuple(ps), [*heaps[:i], *(p for p in ps if p), *heaps[i + 1:]]
        return None

    def to_json(self) -> dict[str, Any]:
        q = self.q
        mg = minimal_generators(q.q.monoid)
        n_show = min(q.computed, (q.period[0] + 2 * q.period[1]) if q.period else q.computed)
        return {"game": self.label, "order": q.size, "p_portion": len(q.p),
                "presentation": _presentation(mg), "P": sorted(mg.word(x) for x in q.p),
                "pretending": [mg.word(q.phi[h]) for h in range(n_show + 1)],
                "period": q.period[1] if q.period else None, "preperiod": q.period[0] if q.period else None,
                "period_proved": q.proved, "heaps_computed": q.computed, "tame": self.tame(),
                "splits": q.splits, "stopped": q.why}

    def tame(self) -> bool:
        """Whether the quotient is a tame one: misère Nim's quotient of heaps *1 .. *(2^k - 1)."""
        return is_tame(self.q.q)


def _presentation(m: Monoid) -> list[str]:
    from .monoid import presentation
    return presentation(m)


def tame_quotient(k: int) -> Bipartite:
    """Misère Nim's quotient of the heaps *1 .. *(2^k - 1) (Conway's tame games): the elements
    (v, 0) for v in {0, 1} and (v, 1) for v < 2^k, (v, e)(w, f) = (v xor w, e or f), P = {(1, 0),
    (0, 1)}: order 2 for k = 1, 2^k + 2 for k >= 2 (T_k of Plambeck and Siegel).

    >>> [tame_quotient(k).size for k in (1, 2, 3)], isomorphic(tame_quotient(2), from_presentation(
    ...     "ab", ["a^2 = 1", "b^3 = b"], ["a", "b^2"]))
    ([2, 6, 10], True)
    """
    def index(v: int, e: int) -> int:
        return v if e == 0 else 2 + v
    elems = [(v, 0) for v in (0, 1)] + ([(v, 1) for v in range(1 << k)] if k >= 2 else [])
    gens = [(1, 0)] + [(1 << j, 1) for j in range(1, k)]
    act = [[index(v ^ w, e | f) for v, e in elems] for w, f in gens]
    p = {index(1, 0)} | ({index(0, 1)} if k >= 2 else set())
    return Bipartite(Monoid(act, len(elems)), frozenset(p))


def is_tame(q: Bipartite) -> bool:
    """Whether (Q, P) is isomorphic to a tame quotient T_k (see :func:`tame_quotient`)."""
    n = q.size
    m = q.monoid
    if any(m.times(m.times(x, x), x) != x for x in range(n)):     # x^3 = x in every tame quotient
        return False
    for k in range(1, 12):
        order = 2 if k == 1 else (1 << k) + 2
        if order == n:
            return isomorphic(q, tame_quotient(k))
        if order > n:
            return False
    return False
