"""Pictures of values: the P-positions (or Grundy values as colours) of a two-heap game, and
the values of a one-heap game with its period marked. PNG, SVG or PDF by the file's suffix;
TikZ for a paper (``fmt="tikz"``, or a ``.tex`` file: a ``tikzpicture`` to ``\\input``).

matplotlib is optional (``pip install 'grundy[report]'``); without it these functions
raise :class:`MissingDependency`, a one-line error (TikZ needs no matplotlib). Figures are
built without pyplot, so they neither open windows nor change a notebook's backend.

>>> fig = plot_values("octal", range(0, 120), code="0.07")        # doctest: +SKIP
"""
from __future__ import annotations

from pathlib import Path
from typing import cast

from ..errors import MissingDependency
from ..solvers.solver import Solver
from ..spec.position import InputError
from .table import Axis, table

__all__ = ["plot_ppositions", "plot_values", "find_period", "period_note", "MissingDependency", "FORMATS"]


def _figure(width: float, height: float):
    try:
        from matplotlib.figure import Figure
    except ImportError:
        raise MissingDependency("plots need matplotlib: pip install 'grundy[report]'") from None
    return Figure(figsize=(width, height), layout="constrained")


def _params(code: str | None, params: dict | None) -> dict:
    """The game's parameters: ``params``, with ``code`` (its short form) added."""
    return {**(params or {}), **({"code": code} if code is not None else {})}


def _name(game: str, params: dict) -> str:
    """A title's name of the game: ``octal 0.77``, ``subtraction 1,3,4``."""
    words = [",".join(map(str, v)) if isinstance(v, (list, tuple)) else str(v) for v in params.values()]
    return " ".join([game, *words])


def find_period(game: str, values: list[int], *, code: str | None = None, params: dict | None = None):
    """The period of the one-heap values G(0..N), a ``grundy.solvers.heaps.Period``
    (preperiod, period, proved: by a periodicity theorem for the game's rule, else only
    apparent), or None. The one place the plots ask for a period.

    >>> find_period("octal", [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3], code="0.07") is None
    True
    """
    from ..solvers.heaps import period
    from ..spec.game import Game
    from ..spec.games import GAMES
    from ..spec.position import Position, read_position
    if game not in GAMES or type(GAMES[game]).heap_rule is Game.heap_rule:
        return None
    obj: dict = {"game": game, **_params(code, params), "heaps": [0]}
    pos = cast(Position, read_position(obj))      # heaps: never a sum
    rule = pos.game.heap_rule(pos.structure)
    if rule is None:
        return None
    return period(rule.code, values)


FORMATS = ("png", "svg", "pdf", "tikz")


def _tikz(path: str | Path | None, fmt: str | None) -> bool:
    """Whether a TikZ picture is asked for (``fmt="tikz"`` or a ``.tex`` path)."""
    if fmt is not None and fmt not in FORMATS:
        raise InputError("format", f"{fmt!r}: one of {', '.join(FORMATS)}")
    suffix = Path(path).suffix.lower().lstrip(".") if path is not None else ""
    want = "tex" if fmt == "tikz" else fmt
    if path is not None and want is not None and suffix != want:
        raise InputError("format", f"{path}: a {fmt} picture's file ends in .{want}")
    return fmt == "tikz" or suffix == "tex"


def _write_tikz(text: str, path: str | Path | None) -> str:
    if path is not None:
        try:
            Path(path).write_text(text + "\n", encoding="utf-8")
        except OSError as e:
            raise InputError("output", f"cannot write {path}: {e.strerror}") from None
    return text


def _save(fig, path: str | Path | None) -> None:
    if path is None:
        return
    suffix = Path(path).suffix.lower()
    if suffix not in (".png", ".svg", ".pdf"):
        raise InputError("output", f"{path}: the picture's file must end in .png, .svg or .pdf")
    try:
        fig.savefig(path)
    except OSError as e:
        raise InputError("output", f"cannot write {path}: {e.strerror}") from None


def plot_ppositions(game: str, rows: Axis = range(0, 31), cols: Axis = range(0, 31), *more: Axis,
                    values: bool = False, code: str | None = None, misere: bool = False,
                    path: str | Path | None = None, solver: Solver | None = None, params: dict | None = None,
                    fmt: str | None = None):
    """The P-positions (black) of a two-heap game over ``rows`` x ``cols`` heap sizes, or with
    ``values=True`` its Grundy values as colours; further heap sizes in ``more`` are held
    fixed. Returns the matplotlib Figure (saved to ``path`` if given); with ``fmt="tikz"`` or a
    ``.tex`` path, the TikZ text (written to ``path`` if given)."""
    tikz = _tikz(path, fmt)
    params = _params(code, params)
    t = table(game, rows, cols, *more, params=params, misere=misere, outcome=not values, solver=solver)
    if len(t.axes) != 2:
        raise InputError("range", "a picture of a two-heap game needs two ranges")
    conv = ", misère" if misere else ""
    if tikz:
        from .tikz import ppositions_tikz
        what = "Grundy values (darker: larger)" if values else "P-positions (filled)"
        return _write_tikz(ppositions_tikz(t, values, f"{_name(game, params)}: {what}{conv}"), path)
    (rname, rs), (cname, cs) = t.axes
    grid = [[t.cells[(r, c)] for c in cs] for r in rs]
    fig = _figure(6, 5.2 if values else 5)
    ax = fig.add_subplot()
    extent = (cs[0] - 0.5, cs[-1] + 0.5, rs[0] - 0.5, rs[-1] + 0.5)
    if values:
        im = ax.imshow(grid, origin="lower", extent=extent, cmap="viridis", interpolation="nearest",
                       aspect="equal")
        fig.colorbar(im, ax=ax, label="Grundy value")
        if len(rs) * len(cs) <= 400:
            top = max(max(row) for row in grid) or 1
            for r, row in zip(rs, grid, strict=False):
                for c, v in zip(cs, row, strict=False):
                    ax.text(c, r, str(v), ha="center", va="center", fontsize=7,
                            color="white" if v < top / 2 else "black")
        what = "Grundy values"
    else:
        ax.imshow([[1 if v == "P" else 0 for v in row] for row in grid], origin="lower", extent=extent,
                  cmap="Greys", vmin=0, vmax=1, interpolation="nearest", aspect="equal")
        what = "P-positions (black)"
    ax.set_xlabel(cname)
    ax.set_ylabel(rname)
    ax.set_title(f"{_name(game, params)}: {what}{conv}")
    _save(fig, path)
    return fig


def period_note(found, xs: list[int]) -> str:
    """What a values plot's title says of the period ``found`` (or None) in G(xs)."""
    if found is None:
        return f"no period proved or apparent in G({xs[0]}..{xs[-1]})"
    return (f"period {found.period} from n = {found.preperiod} (" + (
        f"proved by G(0..{xs[-1]})" if found.proved else f"apparent in G(0..{xs[-1]}), not proved") + ")")


def plot_values(game: str, n: Axis = range(0, 101), *more: Axis, code: str | None = None,
                path: str | Path | None = None, solver: Solver | None = None, params: dict | None = None,
                fmt: str | None = None):
    """The Grundy values G(n) of a one-heap game over ``n`` (further heaps in ``more`` held
    fixed), with the period the values prove marked: the preperiod shaded, a line at the
    start of each period. Returns the matplotlib Figure (saved to ``path`` if given); with
    ``fmt="tikz"`` or a ``.tex`` path, the TikZ text (written to ``path`` if given)."""
    tikz = _tikz(path, fmt)
    params = _params(code, params)
    t = table(game, n, *more, params=params, solver=solver)
    if len(t.axes) != 1:
        raise InputError("range", "a values plot takes one range of heap sizes")
    xs = t.axes[0][1]
    ys = t.values()
    found = None
    if xs == list(range(len(xs))) and not more:        # G(0..N): a period can be read
        found = find_period(game, ys, params=params)
    name = _name(game, params)
    note = period_note(found, xs)
    if tikz:
        from .tikz import values_tikz
        return _write_tikz(values_tikz(xs, ys, found, f"{name}: {note}", t.axes[0][0]), path)
    fig = _figure(8, 3.6)
    ax = fig.add_subplot()
    ax.plot(xs, ys, color="#9aa5b1", linewidth=0.8, zorder=1)
    ax.scatter(xs, ys, s=10, color="#1f4e79", zorder=2)
    if found is not None:
        n0, p = found.preperiod, found.period
        if n0 > xs[0]:
            ax.axvspan(xs[0] - 0.5, n0 - 0.5, color="#f4d58d", alpha=0.5, label=f"preperiod (n < {n0})")
        for k, start in enumerate(range(n0, xs[-1] + 1, p)):
            ax.axvline(start - 0.5, color="#c0392b", linestyle="--", linewidth=0.8,
                       label=f"period {p}" if k == 0 else None)
        ax.legend(loc="upper left", fontsize=8)
    ax.set_title(f"{name}: {note}")
    ax.set_xlabel(t.axes[0][0])
    ax.set_ylabel("Grundy value")
    ax.set_xlim(xs[0] - 0.5, xs[-1] + 0.5)
    _save(fig, path)
    return fig


