"""Families of positions themselves (no sweep over a product of field values): positions
given one by one, sums of two games' positions, and the positions of a table of claimed values.
"""
from __future__ import annotations

from typing import Any, Callable, Iterable, Iterator

from ...spec.structure import Structure
from .base import Family, Item


class Positions(Family):
    """A family of positions themselves: the claim is checked at exactly these (no sweep over a
    product of field values, no bounds). ``make()`` yields, each optionally as ``(label, item)``:
    a position (:class:`~grundy.spec.Position`, a sum, or a JSON object), or a pair
    ``(structure, state)`` on the claim's game (a state: a tuple of the schema's slots, e.g.
    the heaps). Built on first use; cut into chunks by index for a parallel run."""

    of_positions = True

    def __init__(self, make: Callable[[], Iterable[Any]], scope: str, span: tuple[int, int | None] = (0, None)):
        self._make, self.scope, self._span = make, scope, span
        self._built: list[tuple[str, Any]] | None = None

    def listed(self) -> list[tuple[str, Any]]:
        """(label, item) for every position of the family (of its part)."""
        if self._built is None:
            out: list[tuple[str, Any]] = []
            for item in self._make():
                if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
                    out.append(item)
                else:
                    out.append(("", item))
            lo, hi = self._span
            self._built = out[lo:hi]
        return self._built

    @property
    def _items(self) -> list[Item]:          # the structures met (for code that lists them)
        seen: dict[Structure, str] = {}
        for label, item in self.listed():
            g = item[0] if isinstance(item, tuple) else getattr(item, "structure", None)
            if isinstance(g, Structure) and g not in seen:
                seen[g] = label or f"{g.kind} on {g.n}"
        return [(name, g) for g, name in seen.items()]

    def span(self) -> int:
        return len(self.listed())

    def part(self, start: int, stop: int) -> "Positions":
        lo, _ = self._span
        return Positions(self._make, self.scope, (lo + start, lo + stop))

    def __len__(self) -> int:
        return len(self.listed())

    def __add__(self, other: "Family") -> "Family":
        if not isinstance(other, Positions):
            raise TypeError("a family of positions adds only to another family of positions")
        a, b = self, other
        return Positions(lambda: a.listed() + b.listed(), f"{self.scope}; {other.scope}")

    def __repr__(self) -> str:
        return f"Positions({self.scope})"


def positions(make: "Callable[[], Iterable[Any]] | Iterable[Any]", scope: str | None = None) -> Positions:
    """A family of positions given one by one (see :class:`Positions`): sweeps over correlated
    positions (a graph and a matching heap, sums of two games) without filtering a product.

    >>> from grundy.spec import Structure
    >>> fam = positions(lambda: ((Structure.heaps(2), (n, n + 1)) for n in range(5)), "pairs (n, n+1)")
    >>> len(fam), fam.names()
    (5, ['heaps on 2'])
    """
    if not callable(make):
        items = list(make)
        make = lambda: items  # noqa: E731
    return Positions(make, scope or "listed positions")


def sums(a: Iterable[Any], b: Iterable[Any], scope: str | None = None) -> Positions:
    """Every sum of a position from ``a`` and one from ``b`` (positions or JSON objects; in a
    claim, ``game="sum"``).

    >>> fam = sums([{"game": "nim", "heaps": [k]} for k in range(3)],
    ...            [{"game": "grim", "edges": [[0, 1]]}])
    >>> len(fam)
    3
    """
    xs, ys = list(a), list(b)

    def make() -> Iterator[Any]:
        for x in xs:
            for y in ys:
                yield {"game": "sum", "parts": [_as_json(x), _as_json(y)]}
    return Positions(make, scope or f"sums of {len(xs)} x {len(ys)} positions")


def _as_json(p: Any) -> Any:
    return p if isinstance(p, dict) else p.to_json()


class TableStatement:
    """``table=``: the claimed value at each listed state (an int: a Grundy value; "P" / "N")."""

    def __init__(self, table: dict[tuple[int, ...], Any]):
        self.table = table

    def claimed(self, state: tuple[int, ...]) -> Any:
        return self.table[tuple(state)]

    def __call__(self, g: Any, s: Any) -> Any:         # not an IR statement
        raise TypeError("a table claim's values are data, not an expression")


def table_positions(family: "Family | None", table: Any) -> tuple[Positions, TableStatement]:
    """The family of the table's positions and its statement (see ``Claim(table=...)``).

    >>> fam, st = table_positions(None, [0, 1, 0, 1])
    >>> len(fam), st.claimed((3,))
    (4, 1)
    >>> table_positions(None, {(1, 2): "N", (1, 1): "P"})[1].claimed((1, 1))
    'P'
    """
    items: dict[tuple[int, ...], Any] = {}
    if isinstance(table, (list, tuple)):
        items = {(n,): v for n, v in enumerate(table)}
    elif isinstance(table, dict):
        for k, v in table.items():
            if isinstance(k, bool) or not isinstance(k, (int, tuple)):
                raise TypeError(f"a key must be an int or a tuple of ints, got {k!r}")
            key = (k,) if isinstance(k, int) else tuple(k)
            if not all(isinstance(x, int) and not isinstance(x, bool) for x in key):
                raise TypeError(f"a key must be an int or a tuple of ints, got {k!r}")
            items[key] = v
    else:
        raise TypeError(f"must be a list or a dict, got {type(table).__name__}")
    if not items:
        raise ValueError("is empty")
    for k, v in items.items():
        if not ((isinstance(v, int) and not isinstance(v, bool) and v >= 0) or v in ("P", "N")):
            raise ValueError(f"the value at {k if len(k) > 1 else k[0]} must be a Grundy value "
                             f"(an int >= 0) or 'P' / 'N', got {v!r}")
    if family is not None and isinstance(family, Positions):
        raise TypeError("the family of a table claim is a family of structures")
    structs = None if family is None else [g for _, g in family.items()]

    def make() -> Iterator[Any]:
        for key in items:
            for g in (structs if structs is not None else [Structure.heaps(len(key))]):
                yield (g, key)
    what = "heap" if all(len(k) == 1 for k in items) else "position"
    scope = f"the table's {len(items)} {what}{'s' * (len(items) != 1)}"
    if family is not None:
        scope += f" on {family.scope}"
    return Positions(make, scope), TableStatement(items)
