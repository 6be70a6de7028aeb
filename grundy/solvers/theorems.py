"""Proved theorems as a value source: a claim's formula answers the positions in its scope.

The verify layer (:mod:`grundy.verify.serve`) establishes a claim's verdict first (checked, or
read from the content-keyed verdict cache) and hands over only a **proved** one, as a
:class:`ProvedFormula`: its game, play convention, the structure it is about, its bit width
(Z3 on k-bit vectors proves it for every field below 2^k; None: all sizes), its ``assume``
and its statement, evaluated here on concrete states. :class:`TheoremSource` answers a state
only inside that scope (the same rules by content, not by the game's name; convention and
structure; every field below 2^k; ``assume`` true) and says nothing otherwise (the next source answers). A grundy
claim on one heap of a game whose positions are sums of heaps by construction answers any
number of heaps (normal play): the XOR of the formula at each heap, each below 2^k.

Its premise is the proof itself: the source states it (``premises``), and the solver's log
names the theorem ("by theorem classics/bouton-3, proved").
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable

from ..spec.fingerprint import rules_digest
from .explicit.compile import State
from .heaps import sum_of_heaps

if TYPE_CHECKING:
    from .context import SourceContext
    from .sources import Query

__all__ = ["ProvedFormula", "TheoremSource", "THEOREM"]

THEOREM = "proved theorem"


@dataclass
class ProvedFormula:
    """A proved claim's formula: ``value(state)`` is the Grundy value (``gives == "grundy"``) or
    True at the P-positions (``gives == "P"``); ``inside(state)``: the claim's ``assume``."""

    claim: str
    game: str
    convention: str
    structure: Any
    gives: str                      # what value() gives: "grundy" (the Grundy value) or "P" (a P-position)
    bits: int | None
    value: Callable[[tuple[int, ...]], Any]
    inside: Callable[[tuple[int, ...]], bool] | None = None
    per_heap: bool = False          # a one-heap grundy formula of a game that is sums of heaps
    how: str = ""
    rules: str = ""                 # the content digest of the rules it was proved about (on ``structure``)

    @property
    def label(self) -> str:
        return f"by theorem {self.claim}, proved ({self.how})" if self.how else f"by theorem {self.claim}, proved"

    def answer(self, state: tuple[int, ...], question: str) -> Any:
        """The answer at ``state``, or None outside the formula's scope."""
        if self.bits is not None and any(not 0 <= x < (1 << self.bits) for x in state):
            return None
        if self.per_heap:
            v = 0
            for h in state:
                if h:
                    v ^= self.value((h,))
            return v if question == "grundy" else v != 0
        if self.inside is not None and not self.inside(state):
            return None
        x = self.value(state)
        if self.gives == "grundy":
            return x if question == "grundy" else x != 0
        return None if question == "grundy" else not x      # char: true at P (the mover loses)


@dataclass
class TheoremSource:
    """Proved formulas, asked first; a state outside every formula's scope goes to the next source."""

    formulas: list[ProvedFormula] = field(default_factory=list)
    used: dict[str, int] = field(default_factory=dict)     # label -> positions answered (each once)
    seen: set[int] = field(default_factory=set, repr=False)
    name: str = THEOREM
    premises: str = "the theorem's proof (established before the formula was registered)"
    _matched: dict = field(default_factory=dict, repr=False)   # (game, structure, convention) -> formulas

    def _for(self, q: "Query") -> list[ProvedFormula]:
        key = (id(q.game), q.structure, q.convention, len(self.formulas))   # formulas are only ever added
        hit = self._matched.get(key)
        if hit is None or hit[0] is not q.game:
            hit = self._matched[key] = (q.game, [f for f in self.formulas if self._about(f, q)])
        return hit[1]

    def _about(self, f: ProvedFormula, q: "Query") -> bool:
        """Whether ``f`` was proved about the rules ``q`` is played by: the same content (a name
        is no identity), convention and structure (or, per heap, the same one-heap rule)."""
        if f.game != q.game.name or f.convention != q.convention:
            return False
        if f.per_heap:
            if (sum_of_heaps(q.game, q.structure) is None
                    or getattr(f.structure, "params", ()) != getattr(q.structure, "params", ())):
                return False
        elif f.structure != q.structure:
            return False
        return not f.rules or f.rules == rules_digest(q.game.rules(f.structure))

    def can_answer(self, ctx: "SourceContext", q: "Query") -> bool:
        return bool(self.formulas) and bool(self._for(q))

    def values(self, ctx: "SourceContext", q: "Query", states: list[State]) -> list[Any] | None:
        fs = self._for(q)
        out: list[Any] = []
        for s in states:
            for f in fs:
                a = f.answer(tuple(s), q.question)
                if a is not None:
                    out.append(a)
                    key = hash((f.label, q.structure, tuple(s)))
                    if key not in self.seen:
                        self.seen.add(key)
                        self.used[f.label] = self.used.get(f.label, 0) + 1
                    ctx.note(q.game, q.structure, f.label)
                    break
            else:
                break                       # the next sources answer from here
        return out or None
