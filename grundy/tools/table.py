"""Tables of values over ranges of heap sizes, or over a family of graphs.

One or two axes vary: heap sizes (other heaps may be held fixed), or the parameter n of
a graph family (``paths``, ``cycles``, ``complete``, ``stars``, ``wheels``, ``hypercubes``).
Each cell is a Grundy value (normal play) or an outcome, N or P (either convention).

>>> t = table("nim", range(4), range(4))
>>> print(t)
nim: Grundy values, normal play (rows: heap 1, columns: heap 2)
         heap 2
heap 1 | 0 1 2 3
-------+--------
     0 | 0 1 2 3
     1 | 1 0 3 2
     2 | 2 3 0 1
     3 | 3 2 1 0
>>> table("grim", range(1, 7), family="paths").values()
[0, 1, 2, 0, 1, 2]
>>> print(table("octal", range(6), code="0.07").bfile(), end="")
0 0
1 0
2 1
3 1
4 2
5 0
"""
from __future__ import annotations

import csv
import io
import json
import re
from dataclasses import dataclass, field
from typing import Any, Sequence, cast

from ..solvers.solver import DEFAULT, Solver
from ..spec.games import GAMES
from ..spec.position import InputError, Position, read_position
from .graphs import FAMILIES, family_graph
from .positions import graph_position, takes_heaps

__all__ = ["table", "ValueTable", "parse_range"]

MAX_CELLS = 100_000

_RANGE = re.compile(r"(?:[A-Za-z]\w*=)?(\d+)(?:\.\.(\d+))?")


def parse_range(text: str, where: str = "range") -> range | int:
    """``"0..10"`` (both ends included; ``n=1..12`` too) is a range, ``"5"`` a fixed size.

    >>> parse_range("n=1..3"), parse_range("7")
    (range(1, 4), 7)
    """
    m = _RANGE.fullmatch(text.strip())
    if not m:
        raise InputError(where, f"{text!r} is not a size nor a range like 0..20")
    lo = int(m.group(1))
    if m.group(2) is None:
        return lo
    hi = int(m.group(2))
    if hi < lo:
        raise InputError(where, f"{text!r}: the range is empty")
    return range(lo, hi + 1)


@dataclass
class ValueTable:
    """Values over one or two axes; ``cells`` maps each point (a tuple) to its value."""

    game: str
    axes: list[tuple[str, list[int]]]
    kind: str                                  # "grundy" or "outcome"
    convention: str = "normal"
    cells: dict[tuple[int, ...], Any] = field(default_factory=dict)
    positions: dict[tuple[int, ...], dict] = field(default_factory=dict)

    @property
    def title(self) -> str:
        what = "Grundy values" if self.kind == "grundy" else "outcomes"
        conv = "misère play" if self.convention == "misere" else "normal play"
        names = [a for a, _ in self.axes]
        where = (f"rows: {names[0]}, columns: {names[1]}" if len(names) == 2 else f"by {names[0]}")
        return f"{self.game}: {what}, {conv} ({where})"

    def points(self) -> list[tuple[int, ...]]:
        if len(self.axes) == 1:
            return [(a,) for a in self.axes[0][1]]
        return [(a, b) for a in self.axes[0][1] for b in self.axes[1][1]]

    def values(self) -> list[Any]:
        """The cells in order (row by row)."""
        return [self.cells[p] for p in self.points()]

    def __str__(self) -> str:
        cells = {p: str(v) for p, v in self.cells.items()}
        if len(self.axes) == 1:
            name, xs = self.axes[0]
            w = max([len(name)] + [len(str(x)) for x in xs])
            v = max([len(self.kind)] + [len(c) for c in cells.values()])
            lines = [self.title, f"{name:>{w}} | {self.kind:>{v}}", "-" * (w + 1) + "+" + "-" * (v + 1)]
            lines += [f"{x:>{w}} | {cells[(x,)]:>{v}}" for x in xs]
            return "\n".join(lines)
        (rname, rows), (cname, cols) = self.axes
        w = max([len(rname)] + [len(str(r)) for r in rows])
        cw = max([len(str(c)) for c in cols] + [len(c) for c in cells.values()])
        head = " ".join(f"{c:>{cw}}" for c in cols)
        lines = [self.title, " " * (w + 3) + cname, f"{rname:>{w}} | {head}", "-" * (w + 1) + "+" + "-" * (len(head) + 1)]
        for r in rows:
            lines.append(f"{r:>{w}} | " + " ".join(f"{cells[(r, c)]:>{cw}}" for c in cols))
        return "\n".join(lines)

    def to_csv(self) -> str:
        """One row per cell: the axes' values, then the value."""
        buf = io.StringIO()
        wr = csv.writer(buf, lineterminator="\n")
        wr.writerow([a for a, _ in self.axes] + [self.kind])
        for p in self.points():
            wr.writerow([*p, self.cells[p]])
        return buf.getvalue()

    def to_json_lines(self) -> str:
        """One JSON object per cell: the axes' values, the position and the value."""
        out = []
        for p in self.points():
            row = {a: x for (a, _), x in zip(self.axes, p, strict=False)}
            out.append(json.dumps({**row, "position": self.positions[p], self.kind: self.cells[p]}))
        return "\n".join(out) + "\n"

    def bfile(self) -> str:
        """The sequence as an OEIS b-file: lines ``n a(n)`` (one axis, Grundy values)."""
        if len(self.axes) != 1 or self.kind != "grundy":
            raise InputError("bfile", "a b-file is one sequence: one axis of Grundy values")
        return "".join(f"{x} {self.cells[(x,)]}\n" for x in self.axes[0][1])

    def to_latex(self, shade: bool = False) -> str:
        """A LaTeX ``tabular`` (booktabs) of the table, P-positions shaded with ``shade``; see
        :func:`grundy.tools.latex.table_latex`."""
        from .latex import table_latex
        return table_latex(self, shade=shade)

    def _repr_html_(self) -> str:
        from .display import table_html
        return table_html(self)


Axis = int | range | Sequence[int] | str


def _one_heap_values(game: str, params: dict[str, Any], parts: list) -> list[int] | None:
    """G(0..max) of the game's one-heap rule when its positions are sums of heaps under one
    rule (octal and other take-and-break codes, subtraction games...), else None."""
    from ..solvers.heaps import heap_values, sum_of_heaps
    obj: dict[str, Any] = {"game": game, **params, "heaps": [0] * len(parts)}
    pos = cast(Position, read_position(obj))  # a bad code is an InputError here
    rule = sum_of_heaps(pos.game, pos.structure)      # sums of heaps by construction only
    if rule is None:
        return None
    return heap_values(rule, max(max(x) if isinstance(x, list) else x for x in parts))


def _axis(x: Axis, where: str) -> int | list[int]:
    if isinstance(x, str):
        x = parse_range(x, where)
    if isinstance(x, int):
        return x
    xs = list(x)
    if not xs or any(isinstance(v, bool) or not isinstance(v, int) or v < 0 for v in xs):
        raise InputError(where, "a range of sizes must hold non-negative integers")
    return xs


def table(game: str, *axes: Axis, family: str | None = None, code: str | None = None,
          weights: Any = None, token: Any = None, misere: bool = False, outcome: bool = False,
          solver: Solver | None = None, params: dict[str, Any] | None = None) -> ValueTable:
    """The values of ``game`` over the given axes.

    The game's parameters: ``params``, its JSON fields (``{"set": [1, 3, 4]}``); ``code`` is
    short for ``params={"code": code}``.

    Heap games: one argument per heap, a size (held fixed) or a range (varying; one or two
    of them). Graph games: ``family`` and one range of its parameter n, with ``weights``
    (one for all, or one per weighted element) and ``token``. Misère play gives outcomes
    (Grundy values are normal play's); ``outcome=True`` asks for outcomes in normal play.

    Parameters
    ----------
    game : str
        A registered game's name.
    *axes : int, str or range
        Heap games: one per heap, a size or a range (``"0..20"``, ``range(21)``).
        Graph games: one range of the family's parameter n.
    family, weights, token
        Graph games: the family (``"path"``, ...), the weights, the token's vertex.
    code, params : optional
        The game's parameters (``code`` is short for ``params={"code": code}``).
    misere, outcome : bool
        Misère play (outcomes); outcomes in normal play.
    solver : Solver, optional
        The solver to ask (default: the process's shared one).

    Returns
    -------
    ValueTable
        The values by row (and column), shown as a table in a notebook.

    Raises
    ------
    grundy.errors.InputError
        An unknown game, no range or more than two, a family on a heap game (one line).

    Examples
    --------
    >>> t = table("nim", "0..4", 2)                  # the first heap 0..4, the second 2
    >>> [t.cells[(i,)] for i in range(5)]
    [2, 3, 0, 1, 6]
    """
    if game not in GAMES:
        raise InputError("game", GAMES.unknown(game))
    solver = solver or DEFAULT
    parts = [_axis(x, f"axis {i + 1}") for i, x in enumerate(axes)]
    varying = [i for i, p in enumerate(parts) if isinstance(p, list)]
    if not 1 <= len(varying) <= 2:
        raise InputError("range", "give one or two ranges (like 0..20); the other sizes are held fixed")
    kind = "outcome" if (outcome or misere) else "grundy"
    heaps_game = takes_heaps(game)
    if heaps_game:
        if family is not None:
            raise InputError("family", f"{game} is played on heaps, not on graphs")
        names = [f"heap {i + 1}" for i in varying]
    else:
        if family is None:
            raise InputError("family", f"{game} is played on graphs: name a family "
                                       f"({', '.join(FAMILIES)}) and a range of n")
        if len(parts) != 1:
            raise InputError("range", "a graph family takes one range of n")
        names = ["n"]
    t = ValueTable(game, [(nm, parts[i]) for nm, i in zip(names, varying, strict=False)], kind,  # type: ignore[misc]
                   "misere" if misere else "normal")
    pts = t.points()
    if len(pts) > MAX_CELLS:
        raise InputError("range", f"{len(pts):,} cells: at most {MAX_CELLS:,}")
    params = {**(params or {}), **({"code": code} if code is not None else {})}
    one = _one_heap_values(game, params, parts) if heaps_game and not misere else None
    for p in pts:
        if one is not None:   # a sum of heaps under one rule: XOR of one-heap values, no position built
            heaps = list(parts)
            for i, x in zip(varying, p, strict=False):
                heaps[i] = x
            v = 0
            for h in heaps:
                v ^= one[h]  # type: ignore[index]
            t.positions[p] = {"game": game, **params, "heaps": heaps}
            t.cells[p] = ("N" if v else "P") if kind == "outcome" else v
            continue
        if heaps_game:
            heaps = list(parts)
            for i, x in zip(varying, p, strict=False):
                heaps[i] = x
            obj: dict[str, Any] = {"game": game, **params, "heaps": heaps}
            if misere:
                obj["convention"] = "misere"
        else:
            obj = graph_position(game, family_graph(family, p[0]), weights=weights, token=token,  # type: ignore[arg-type]
                                 misere=misere, params=params)
        pos = read_position(obj)
        t.positions[p] = obj
        t.cells[p] = solver.outcome(pos) if kind == "outcome" else solver.grundy(pos)
    return t


