"""Heap games: the base class :class:`HeapGame` and helpers for rules on rows of heaps.

Public: a game file outside the package subclasses :class:`HeapGame` (field ``heap``,
rank = total, JSON ``"heaps": [...]``) and writes only ``name``, ``summary`` and
``moves``. A heap game's position is one integer per heap (``s.heap[i]``); a heap at 0 has
ceased to exist. :func:`smallest` is "the smallest existing heap" as an expression.

>>> from grundy.spec import Var, evaluate
>>> a, b, c = Var.int("a"), Var.int("b"), Var.int("c")
>>> [evaluate(smallest([a, b, c]), {"a": x, "b": y, "c": z}) for x, y, z in [(0, 4, 2), (0, 0, 0)]]
[2, 0]
"""
from __future__ import annotations

from typing import Any, Sequence

from ..errors import InputError, RuleError
from .expr import Expr, Term, all_of, ite, lift, maximum, minimum, total
from .game import Game
from .position import read_heaps
from .schema import Field, SymState
from .structure import Structure

__all__ = ["HeapGame", "smallest", "distinct", "check_distinct"]


def smallest(heaps: Sequence[Term]) -> Expr:
    """The smallest non-zero heap among ``heaps``, or 0 when every heap is 0 (no heap exists)."""
    if not heaps:
        return lift(0)
    top = maximum(heaps)                       # >= every heap, and 0 when all heaps are 0
    return minimum([ite(h > 0, h, top) for h in heaps])


def distinct(heaps: Sequence[Term]) -> Expr:
    """No two existing (non-zero) heaps are equal."""
    return all_of(~((a > 0) & (a == b)) for i, a in enumerate(heaps) for b in heaps[i + 1:])


class HeapGame(Game):
    """A game on a row of heaps: field ``heap``, rank = total, JSON ``"heaps": [...]``.

    ``heap_count`` (see :class:`~grundy.spec.game.Game`) fixes the number of heaps the game is
    played on (None: any); reading a position checks it here, every other path in ``rules``.
    """

    structure = "heaps"

    def fields(self, g: Structure) -> list[Field]:
        return [Field("heap", over="heaps")]

    def rank(self, g: Structure, s: SymState) -> Term:
        return total(s.heap[i] for i in g.elements)

    def read(self, obj: dict[str, Any]) -> tuple[Structure, dict[str, Any]]:
        heaps = read_heaps(obj)
        try:
            self.check_structure(Structure.heaps(len(heaps)))   # the heap count, checked in one place
        except RuleError as e:
            raise InputError("heaps", str(e)) from None
        self.check(heaps)
        return Structure.heaps(len(heaps)), {"heap": heaps}

    def check(self, heaps: list[int]) -> None:
        """Further checks of the heaps read (raise InputError)."""

    def write(self, g: Structure, values: dict[str, Any]) -> dict[str, Any]:
        return {"heaps": [values["heap"][i] for i in g.elements]}


def check_distinct(heaps: list[int]) -> None:
    """InputError unless the non-zero heaps are pairwise distinct."""
    seen: dict[int, int] = {}
    for i, h in enumerate(heaps):
        if h > 0 and h in seen:
            raise InputError(f"heaps[{i}]", f"equals heaps[{seen[h]}] = {h}: the existing heaps "
                                            f"must be pairwise distinct")
        seen.setdefault(h, i)
