"""Periodicity theorems for one-heap rules: which one applies to a rule, and how far the values
must be checked for a period to be proved for every heap.

A theorem is applied to the *rule's options*, never to its name: a take-and-break code
(:class:`~grundy.spec.heaprule.TakeBreak`, finite: a last digit t) has its theorem; a
hand-written :class:`~grundy.spec.HeapRule` gets the theorem of the code whose options it has,
the two compared heap by heap (every heap up to the theorem's bound, never trusted).

- **No breaks** (a finite subtraction set, codes with digits 0..3): for n > t, G(n) depends only
  on G(n - t..n - 1), so a window of t values that repeats p later repeats for ever: checking
  G(n + p) = G(n) for n0 <= n < max(n0, 1) + t proves it for every n >= n0.
- **Finite codes with breaks** (Guy and Smith, 1956): checking G(n + p) = G(n) for
  n0 <= n < 2 n0 + p + t proves it for every n >= n0 (for n0 = 0 one more heap: at N = p + t the
  induction would pair the split p + p of N + p with the "split" p + 0 of N).

No theorem is known here for infinite codes, for unequal splits, or for arithmetic periodicity
(G(n + p) = G(n) + s with s > 0): there a period is only checked as far as values were computed.

>>> code = TakeBreak((0, 7, 7))
>>> th = theorem_for(code)
>>> th.name, th.end(71, 12), th.needed(71, 12)
('the periodicity theorem of Guy and Smith', 156, 167)
>>> theorem_for(TakeBreak((0, 3, 3, 3))).end(0, 4)        # take 1..3: the subtraction window
4
>>> theorem_for(TakeBreak((0,), tail=3)) is None         # Nim: an infinite code
True
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

from ...spec.heaprule import OneHeap, TakeBreak
from .rules import rule_options

__all__ = ["PeriodTheorem", "theorem_for", "code_of_rule", "options_match"]

MATCH_HEAPS = 40      # heaps on which a hand-written rule's code is read (then compared further)


@dataclass(frozen=True)
class PeriodTheorem:
    """A periodicity theorem for ``code``: G(n + p) = G(n) checked for n0 <= n < end(n0, p)
    proves it for every n >= n0."""

    name: str
    code: TakeBreak

    @cached_property
    def t(self) -> int:
        assert self.code.last is not None
        return self.code.last

    @cached_property
    def breaks(self) -> bool:
        return bool(self.code.breaks)

    def end(self, n0: int, p: int) -> int:
        """The first heap n for which G(n + p) = G(n) need not be checked."""
        if self.breaks:
            return 2 * n0 + p + self.t + (1 if n0 == 0 else 0)
        return max(n0, 1) + self.t

    def needed(self, n0: int, p: int) -> int:
        """The largest heap whose value the check reads."""
        return self.end(n0, p) - 1 + p

    def linear(self) -> tuple[int, int, int, int]:
        """(a, b, c, c0): :meth:`needed` as a n0 + b p + c for n0 >= 1 and b p + c0 for n0 = 0
        (the bound the C period check is given; :mod:`.period` compares it with ``needed``).

        >>> th = theorem_for(TakeBreak((0, 7, 7)))
        >>> a, b, c, c0 = th.linear(); a * 71 + b * 12 + c == th.needed(71, 12), b * 12 + c0 == th.needed(0, 12)
        (True, True)
        """
        if self.breaks:                  # end = 2 n0 + p + t, one more at n0 = 0
            return 2, 2, self.t - 1, self.t
        return 1, 1, self.t - 1, self.t  # end = max(n0, 1) + t


def theorem_for(code: TakeBreak | None) -> PeriodTheorem | None:
    """The periodicity theorem that applies to ``code`` (None: none does)."""
    if code is None or code.last is None or code.unequal:
        return None
    if code.breaks:
        return PeriodTheorem("the periodicity theorem of Guy and Smith", code)
    return PeriodTheorem("the subtraction-game window (a window of t values repeating)", code)


def _code_options(code: TakeBreak, h: int) -> set[tuple[int, ...]]:
    """The options of a heap of h under ``code``, as sorted tuples of the non-empty parts."""
    out: set[tuple[int, ...]] = set()
    top = h if code.last is None else min(h, code.last)
    for k in range(0, top + 1):
        d, rest = code.digit(k), h - k
        if d & 1 and rest == 0 and k > 0:
            out.add(())
        if d & 2 and rest > 0 and k > 0:
            out.add((rest,))
        if d & 4:
            for a in range(1, rest // 2 + 1):
                if not (code.unequal and a == rest - a):
                    out.add((a, rest - a))
    return out


def _rule_options(rule: OneHeap, h: int) -> set[tuple[int, ...]]:
    return {tuple(sorted(ps)) for _, ps in rule_options(rule, h)}


def code_of_rule(rule: OneHeap) -> TakeBreak | None:
    """The finite take-and-break code whose options a rule has on its first heaps (the code's
    own, for a code; read from heaps 0..MATCH_HEAPS otherwise), or None when no code has them.
    Read, not proved: :func:`options_match` compares the two further."""
    if rule.code is not None:
        return rule.code
    digits = [0] * (MATCH_HEAPS + 1)
    for h in range(MATCH_HEAPS + 1):
        for ps in _rule_options(rule, h):
            k = h - sum(ps)
            if len(ps) > 2 or k < 0:
                return None
            digits[k] |= 1 if not ps else 2 if len(ps) == 1 else 4
    if digits[0] & 3:
        return None
    try:
        code = TakeBreak(tuple(digits))
    except Exception:
        return None
    return code if all(_code_options(code, h) == _rule_options(rule, h) for h in range(MATCH_HEAPS + 1)) else None


def options_match(rule: OneHeap, code: TakeBreak, upto: int) -> int | None:
    """The first heap <= ``upto`` whose options under the rule and under ``code`` differ (None:
    equal on every heap 0..upto). A rule with the code itself needs no comparison."""
    if rule.code == code:
        return None
    for h in range(upto + 1):
        if _code_options(code, h) != _rule_options(rule, h):
            return h
    return None
