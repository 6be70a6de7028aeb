"""The box of a C kernel: each slot's least value and number of values, and the packing of a
position into one 64-bit index by a mixed radix.

>>> b = Box((0, 0), (4, 6))
>>> b.size, b.index((3, 5)), b.contains((4, 0))
(24, 23, False)
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from math import prod
from operator import ge, mul, sub
from typing import Iterable, Sequence

from ...spec.game import Rules

__all__ = ["Box", "Halt", "OUT_OF_BOX"]

OUT_OF_BOX = 1      # the C's status of a successor outside the box (the others: codegen's codes)

State = tuple[int, ...]


@dataclass(frozen=True)
class Box:
    """For each slot its least value and its number of values; index = mixed radix, the slots
    taken in ``order`` (least significant first: the single-valued fields such as a token, so
    that lowering any indexed value lowers the index)."""

    lo: tuple[int, ...]
    radix: tuple[int, ...]
    order: tuple[int, ...] = ()

    def __post_init__(self):
        if not self.order:
            object.__setattr__(self, "order", tuple(range(len(self.lo))))

    @property
    def size(self) -> int:
        return prod(self.radix)

    @cached_property
    def strides(self) -> list[int]:
        out, m = [0] * len(self.radix), 1
        for i in self.order:
            out[i] = m
            m *= self.radix[i]
        return out

    @cached_property
    def _digits(self) -> list[tuple[int, int, int]]:
        return list(zip(self.lo, self.radix, self.strides, strict=False))

    def index(self, s: Sequence[int]) -> int:
        """The position's index (ValueError if it is outside the box)."""
        d = list(map(sub, s, self.lo))
        if min(d, default=0) < 0 or any(map(ge, d, self.radix)):
            raise ValueError("outside the box")
        return sum(map(mul, d, self.strides))

    def state(self, index: int) -> State:
        out = [0] * len(self.lo)
        for i in self.order:
            index, d = divmod(index, self.radix[i])
            out[i] = self.lo[i] + d
        return tuple(out)

    def contains(self, s: Sequence[int]) -> bool:
        d = list(map(sub, s, self.lo))
        return min(d, default=0) >= 0 and not any(map(ge, d, self.radix))

    @staticmethod
    def around(rules: Rules, states: Iterable[Sequence[int]]) -> "Box":
        """The least box of the game's slot domains holding ``states``: vertex, edge and bool
        slots take their whole domain; the int slots of one field share the field's largest value."""
        sch, g = rules.schema, rules.structure
        states = list(states)
        top: dict[str, int] = {}
        low_of: dict[str, int] = {}
        by_field: dict[str, list[int]] = {}
        for i, (nm, _) in enumerate(sch.slots):
            by_field.setdefault(nm, []).append(i)
        cols = list(zip(*states, strict=False)) or [()] * len(sch.slots)     # each slot's values
        for name, slots in by_field.items():
            f = sch.fields[name]
            if f.kind == "int":
                top[name] = max([f.lower, *(max(cols[i], default=f.lower) for i in slots)])
                low_of[name] = min([f.lower, *(min(cols[i], default=f.lower) for i in slots)])
        lo: list[int] = []
        radix: list[int] = []
        for name, _ in sch.slots:
            f = sch.fields[name]
            if f.kind == "bool":
                lo.append(0)
                radix.append(2)
            elif f.kind == "vertex":
                lo.append(0)
                radix.append(max(g.n, 1))
            elif f.kind == "edge":
                lo.append(-1)
                radix.append(len(g.edges) + 1)
            else:
                lo.append(low_of[name])
                radix.append(top[name] - low_of[name] + 1)
        order = sorted(range(len(lo)), key=lambda i: (sch.fields[sch.slots[i][0]].over is not None, i))
        return Box(tuple(lo), tuple(radix), tuple(order))

    def join(self, other: "Box") -> "Box":
        """The least box holding both."""
        lo = [min(a, b) for a, b in zip(self.lo, other.lo, strict=False)]
        hi = [max(a + r, b + s) for a, r, b, s in zip(self.lo, self.radix, other.lo, other.radix, strict=False)]
        return Box(tuple(lo), tuple(h - low for h, low in zip(hi, lo, strict=False)), self.order)

    def grown(self, need: "Box") -> "Box":
        """The least box holding this one and ``need``, each slot that grows at least doubled (a
        sweep meeting ever larger states rebuilds its kernel a logarithmic number of times, not
        once per state: a box's bounds are constants of the kernel's C text).

        >>> Box((0, 0), (5, 5)).grown(Box((0, 0), (6, 3))).radix
        (10, 5)
        """
        j = self.join(need)
        radix = [max(r, 2 * o) if r > o else r for r, o in zip(j.radix, self.radix, strict=False)]
        return Box(j.lo, tuple(radix), self.order)

    def widened(self, slot_name_slots: list[int], value: int) -> "Box":
        """The box with the given slots (one field's) grown to hold ``value`` (at least doubled)."""
        lo, radix = list(self.lo), list(self.radix)
        for i in slot_name_slots:
            hi = max(lo[i] + 2 * radix[i] - 1, value)
            low = min(lo[i], value)
            lo[i], radix[i] = low, hi - low + 1
        return Box(tuple(lo), tuple(radix), self.order)


@dataclass(frozen=True)
class Halt:
    """Why a search in C gave no answer, as a value (a kernel's ``values``, a follower's
    ``follow_many`` return it; nothing is raised): ``status`` :data:`OUT_OF_BOX` with ``slot``
    None (a state asked lies outside the box) or the slot a successor's value ``value`` left;
    else one of the C's codes (``value``: the packed key of the position, for a domain).

    >>> from grundy.spec.games import get_game
    >>> from grundy.spec import Structure
    >>> rules = get_game("nim").rules(Structure.heaps(2))
    >>> box = Box.around(rules, [(3, 2)])                  # one int field: both heaps 0..3
    >>> Halt(OUT_OF_BOX).widened(rules, box, [(9, 0)]).radix
    (10, 10)
    >>> Halt(OUT_OF_BOX, slot=0, value=6).widened(rules, box, []).radix
    (8, 8)
    """

    status: int
    slot: int | None = None
    value: int = 0

    @property
    def outside(self) -> bool:
        """Whether a larger box answers (the caller rebuilds on :meth:`widened` and asks again)."""
        return self.status == OUT_OF_BOX

    def widened(self, rules: Rules, box: Box, states: Sequence[Sequence[int]]) -> Box:
        """The box to rebuild on: ``box`` grown (at least doubled) to hold the states asked, or
        the field of the slot a successor left grown to hold its value."""
        if self.slot is None:
            return box.grown(Box.around(rules, states))
        slots = rules.schema.slots
        name = slots[self.slot][0]
        return box.widened([i for i, (nm, _) in enumerate(slots) if nm == name], self.value)
