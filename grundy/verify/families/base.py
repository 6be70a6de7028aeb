"""A :class:`Family`: named structures, smallest first (fewest vertices, then fewest edges);
families add up with ``+``. :class:`Lazy` builds its structures on first use.
"""
from __future__ import annotations

from typing import Callable, Iterable

from ...spec.structure import Structure

Item = tuple[str, Structure]


def _size(item: Item) -> tuple:
    g = item[1]
    return (g.n, len(g.edges) + len(g.loops))


def elide(names: list[str], noun: str = "structures", keep: int = 6) -> str:
    """A list of names as a scope: all of them up to ``keep``, else the first and the last.

    >>> elide(["C_3", "C_4"]), elide([f"C_{n}" for n in range(3, 41)], "cycles")
    ('C_3, C_4', 'C_3 … C_40 (38 cycles)')
    """
    if len(names) <= keep:
        return ", ".join(names)
    return f"{names[0]} … {names[-1]} ({len(names)} {noun})"


class Family:
    """Named structures, ordered by size; ``scope`` is how a verdict describes the family (by
    default its names, a long list elided: ``noun`` names what it lists). ``unbounded``: the
    family stands for structures of every size (set by a family that a parametric argument
    covers); a verdict says "for all sizes" of a finite family only when the structures are
    rows of heaps (the numeric fields are then the sizes)."""

    of_positions = False            # a family of listed positions (they add only to each other)
    unbounded = False

    def __init__(self, items: Iterable[Item], scope: str | None = None, noun: str = "structures"):
        self._sorted = sorted(items, key=_size)
        self.scope = scope if scope is not None else elide([n for n, _ in self._items], noun)

    @property
    def _items(self) -> list[Item]:         # what the methods read (built on demand by subclasses)
        return self._sorted

    def items(self) -> list[Item]:
        return list(self._items)

    def names(self) -> list[str]:
        return [n for n, _ in self._items]

    def __add__(self, other: "Family") -> "Family":
        if other.of_positions:
            raise TypeError("a family of structures does not add to a family of positions")
        return Family(self._items + other._items, f"{self.scope}; {other.scope}")

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"Family({self.scope})"


class Lazy(Family):
    """A family built on first use: loading a theorem file stays fast, and a worker builds only
    the families it checks. ``make()`` yields (name, structure) or (name, structure, data); the
    data of each structure is kept in ``table`` (a claim's statement may read it). A structure
    met twice is kept once."""

    def __init__(self, make: Callable[[], Iterable[tuple]], scope: str):
        self._make, self.scope = make, scope
        self._built: list[Item] | None = None
        self.table: dict[Structure, object] = {}

    @property
    def _items(self) -> list[Item]:
        if self._built is None:
            items: list[Item] = []
            for item in self._make():
                if item[1] in self.table:
                    continue
                self.table[item[1]] = item[2] if len(item) > 2 else None
                items.append(item[:2])
            self._built = sorted(items, key=_size)
        return self._built


def label_of(family: Family, g: Structure) -> str:
    for name, h in family.items():
        if h == g:
            return name
    return f"{g.kind} on {g.n}"
