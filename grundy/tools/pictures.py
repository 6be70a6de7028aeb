"""Pictures of positions for reports: SVG text drawn with matplotlib (``pip install grundy[report]``).

A graph's layout is recognised from its **structure**, never from a game's or claim's name:
the Petersen graph in its standard drawing (outer 5-cycle, inner pentagram), complete
multipartite graphs with one column per part, paths on a line, cycles and complete graphs on
a circle, wheels with their hub in the middle, hypercubes as projected cubes, grids on their
grid, prisms as two rings; anything else by a force layout. Which drawing a position gets
(a graph, or heaps as bars) is the game's :meth:`~grundy.spec.Game.picture`; a game family may
also define ``draw(ax, position)`` (its drawing hook), used first when it returns a caption.

Edge weights are written along their edge in a boxed label placed where it overlaps no vertex
and no other label; vertex weights (chips) in a box beside their vertex; the token's vertex is
filled orange; loops are small rings; the active edge is thick and red. A position without
vertices is a captioned placeholder, never a blank image. Two-heap positions are drawn as the
grid of P-positions around them.

>>> svg = position_svg({"game": "edge-nim", "nodes": [0, 1, 2], "edges": [[0, 1, 2], [1, 2, 1]], "token": 0})
>>> svg is None or (svg.lstrip().startswith("<svg") and "token on 0" in svg)
True
"""
from __future__ import annotations

import io
import json
import math
import textwrap
from typing import Any, Callable

from .layout import Pos, edge_routes, graph_of, layout_of, line_heading, span_of, vertex_radius
from .positions import picture_of, two_heap_ppositions

__all__ = ["layout_of", "position_svg", "line_svg", "available", "draw_graph", "draw_heaps", "draw_two_heap_grid",
           "draw_position"]

ORANGE, BLUE, RED, GREY = "#e07b39", "#9cc0e6", "#c0392b", "#555555"


def available() -> bool:
    """True when matplotlib is installed (pictures can be drawn)."""
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return False
    return True


# ------------------------------------------------------------------------------- reading
def _structure(position: dict) -> str:
    """"heaps" when the position is drawn as heaps, else "graph"."""
    return "heaps" if picture_of(position)[0] == "bars" else "graph"


def _hook(position: dict) -> Callable | None:
    try:
        from ..spec.games import GAMES
        return getattr(GAMES[position["game"]], "draw", None)
    except (KeyError, ImportError):
        return None


# ------------------------------------------------------------------------------- drawing
def _draw_loops(ax, loops: list, pos: Pos, vweight: dict, r: float, centre: tuple[float, float], flat: bool) -> None:
    """A loop at each vertex of ``loops``: a small circle beside it, pointing away from the centre
    (beside the weight box, where there is one)."""
    from matplotlib.patches import Circle
    cx, cy = centre
    for v in loops:
        if v not in pos:
            continue
        x, y = pos[v]
        dx, dy = x - cx, y - cy
        d = math.hypot(dx, dy) or 1.0
        dx, dy = (dx / d, dy / d) if math.hypot(x - cx, y - cy) > 1e-9 and not flat else (0.0, -1.0)
        if v in vweight and not flat:             # the weight box sits outward: the loop beside it
            turn = math.radians(-75)
            dx, dy = dx * math.cos(turn) - dy * math.sin(turn), dx * math.sin(turn) + dy * math.cos(turn)
        ax.add_patch(Circle((x + 1.6 * r * dx, y + 1.6 * r * dy), 0.9 * r, fill=False, lw=1.1,
                            ec="#333333", zorder=1))


def draw_graph(ax, position: dict, small: bool = False, before: dict | None = None,
               layout: Pos | None = None) -> str:
    """Draw a graph position on ``ax``; returns a caption (layout, token, active edge). With
    ``before`` (the position a move came from) the edges and vertex weights it changed are red;
    ``layout`` keeps the vertices where an earlier drawing put them."""
    from matplotlib.patches import Circle, FancyArrowPatch, FancyBboxPatch
    g, vweight, eweight = graph_of(position)
    pos, name = layout_of(g)
    if layout is not None and all(v in layout for v in pos):
        pos = {v: layout[v] for v in pos}
    changed: set = set()
    vchanged: set = set()
    if before is not None:
        _, vw0, ew0 = graph_of(before)
        changed = {e for e, w in eweight.items() if ew0.get(e, ew0.get(e[::-1])) != w}
        vchanged = {v for v, w in vweight.items() if vw0.get(v) != w}
    ax.set_axis_off()
    if not pos:
        ax.add_patch(FancyBboxPatch(
            (0.1, 0.25), 0.8, 0.5, boxstyle="round,pad=0.02", fill=False, ls="--", ec=GREY,
            transform=ax.transAxes))
        ax.text(0.5, 0.5, "empty graph\n(no vertices, no moves)", ha="center", va="center",
                fontsize=8 if small else 12, color=GREY, transform=ax.transAxes)
        return "the empty graph"
    ref = layout if layout is not None and set(pos) <= set(layout) else pos   # the frame: the start's
    r = vertex_radius(ref)
    flat = len({round(p[1], 6) for p in ref.values()}) == 1
    cx = sum(p[0] for p in ref.values()) / len(ref)
    cy = sum(p[1] for p in ref.values()) / len(ref)
    fs = 6 if small else 9
    token = position.get("token")
    active = position.get("active")
    active_set = {tuple(active), tuple(active[::-1])} if active else set()
    directed = g.is_directed()
    shown = set() if small and len(pos) > 12 else set(eweight)
    for e in edge_routes(g, pos, r, shown):
        u, v = e.u, e.v
        w = eweight.get((u, v), eweight.get((v, u)))
        is_active = (u, v) in active_set or (u, v) in changed or (v, u) in changed
        ax.add_patch(FancyArrowPatch(pos[u], pos[v], connectionstyle=f"arc3,rad={e.rad}",
                                     arrowstyle="-|>" if directed else "-", mutation_scale=10,
                                     shrinkA=9 if not small else 6, shrinkB=9 if not small else 6,
                                     lw=3.2 if is_active else 1.1, color=RED if is_active else "#333333",
                                     ls=":" if w == 0 else "-", zorder=1))
        if w is None or e.label is None:
            continue
        ax.text(e.label[0], e.label[1], str(w), ha="center", va="center", fontsize=fs, zorder=4,
                color=RED if is_active else "black",
                bbox=dict(boxstyle="round,pad=0.15", fc="white", ec="#999999", lw=0.5))
    _draw_loops(ax, position.get("loops", []), pos, vweight, r, (cx, cy), flat)
    if "multipartite" in name or "bipartite" in name:          # the parts: one shaded column each
        for x in sorted({p[0] for p in pos.values()}):
            ys = [p[1] for p in pos.values() if p[0] == x]
            ax.add_patch(FancyBboxPatch((x - 1.5 * r, min(ys) - 1.5 * r), 3 * r, max(ys) - min(ys) + 3 * r,
                                        boxstyle=f"round,pad=0,rounding_size={r}", fc="#eef3f8",
                                        ec="#b7c7d8", lw=0.8, zorder=0))
    for v, (x, y) in pos.items():
        ax.add_patch(Circle((x, y), r, fc=ORANGE if v == token else BLUE, ec="#222222", lw=1.0, zorder=2))
        ax.text(x, y, str(v), ha="center", va="center", fontsize=fs, zorder=3,
                fontweight="bold" if v == token else "normal")
        if v in vweight:                          # outward from the centre; above on a flat drawing
            dx, dy = x - cx, y - cy
            d = math.hypot(dx, dy)
            dx, dy = (dx / d, dy / d) if d > 1e-9 and not flat else (0.0, 1.0)
            ax.text(x + 1.9 * r * dx, y + 1.9 * r * dy, str(vweight[v]), ha="center",
                    va="center", fontsize=fs, zorder=4, color=RED if v in vchanged else "#1b4f72",
                    bbox=dict(boxstyle="round,pad=0.2", fc="#fdf2d0", ec=RED if v in vchanged else "#b9a15a",
                              lw=1.2 if v in vchanged else 0.6))
    xs, ys = [p[0] for p in ref.values()], [p[1] for p in ref.values()]
    pad = 3.2 * r
    ax.set_xlim(min(xs) - pad, max(xs) + pad)
    ax.set_ylim(min(ys) - pad, max(ys) + pad)
    ax.set_aspect("equal")
    bits = [name]
    if token is not None:
        bits.append(f"token on {token}")
    if active:
        bits.append(f"active edge {active[0]}–{active[1]}")
    if vweight:
        bits.append("boxed: vertex weights")
    return ", ".join(bits)


def draw_heaps(ax, position: dict, small: bool = False, top: int | None = None) -> str:
    """Heaps as horizontal bars with their sizes written beside them (``top``: the size a full
    bar stands for, so that the panels of a line share one scale)."""
    hs = list(position.get("heaps", []))
    ax.set_axis_off()
    if not hs:
        ax.text(0.5, 0.5, "no heaps", ha="center", va="center", color=GREY, transform=ax.transAxes)
        return "no heaps"
    top = max(top or 0, max(hs), 1)
    for i, h in enumerate(hs):
        y = len(hs) - 1 - i
        ax.barh(y, h, height=0.6, color=BLUE, ec="#222222", lw=0.8)
        ax.text(-0.03 * top, y, f"heap {i + 1}", ha="right", va="center", fontsize=6 if small else 9)
        ax.text(h + 0.03 * top, y, str(h), ha="left", va="center", fontsize=6 if small else 9, fontweight="bold")
    ax.set_xlim(-0.45 * top, 1.25 * top)
    ax.set_ylim(-0.7, len(hs) - 0.3)
    return "heaps " + ", ".join(map(str, hs))


def draw_two_heap_grid(ax, position: dict) -> str | None:
    """The P-positions of a two-heap game around ``position`` (marked by a red ring)."""
    found = two_heap_ppositions(position)
    if found is None:
        return None
    n, p = found
    a, b = position["heaps"]
    ax.scatter([i for i, _ in p], [j for _, j in p], s=28, marker="s", color="#2e86c1", zorder=2)
    ax.scatter([a], [b], s=180, facecolors="none", edgecolors=RED, linewidths=2.0, zorder=3)
    ax.set_xlim(-0.7, n + 0.7)
    ax.set_ylim(-0.7, n + 0.7)
    ax.set_aspect("equal")
    ax.set_xticks(range(0, n + 1, 2 if n > 12 else 1))
    ax.set_yticks(range(0, n + 1, 2 if n > 12 else 1))
    ax.tick_params(labelsize=7)
    ax.grid(True, lw=0.3, color="#dddddd")
    ax.set_xlabel("heap 1", fontsize=8)   # heaps numbered from 1, as moves name them
    ax.set_ylabel("heap 2", fontsize=8)
    conv = " (misère)" if position.get("convention") == "misere" else ""
    return f"P-positions{conv} (squares); counterexample ({a}, {b}) ringed"


def draw_position(ax, position: dict, small: bool = False, before: dict | None = None,
                  layout: Pos | None = None, top: int | None = None) -> str:
    """Draw any position on ``ax`` (the game's hook, else by its structure); returns a caption."""
    hook = _hook(position)
    if hook is not None:
        caption = hook(ax, position)
        if caption:
            return str(caption)
    kind, data = picture_of(position)
    if kind == "bars":
        return draw_heaps(ax, {"heaps": list(data)}, small, top)
    if kind == "graph":
        return draw_graph(ax, data, small, before, layout)
    ax.set_axis_off()
    ax.text(0.5, 0.5, f"(no drawing for a {kind!r} picture)", ha="center", va="center",
            color=GREY, transform=ax.transAxes)
    return json.dumps({k: v for k, v in position.items() if k != "game"})[:80]


# ------------------------------------------------------------------------------- to SVG
def _svg(fig, fmt: str = "svg") -> Any:
    """The figure as SVG text (from its ``<svg`` tag, to inline in HTML), or PNG bytes."""
    buf: Any = io.StringIO() if fmt == "svg" else io.BytesIO()
    fig.savefig(buf, format=fmt, bbox_inches="tight", pad_inches=0.05, dpi=110)
    if fmt != "svg":
        return buf.getvalue()
    text = buf.getvalue()
    return text[text.index("<svg"):]


def _figure(ncols: int = 1, size=(4.6, 4.0), rows: int = 1):
    """A figure outside pyplot: no global figure list, the user's backend left alone."""
    from matplotlib.figure import Figure
    fig = Figure(figsize=size)
    axes = fig.subplots(rows, ncols, squeeze=False)
    return fig, [ax for row in axes for ax in row]


def _style():
    """Text kept as text in the SVG, ids stable, one font: for this drawing only."""
    import matplotlib
    return matplotlib.rc_context({"svg.fonttype": "none", "svg.hashsalt": "grundy",
                                  "font.family": "DejaVu Sans"})


def position_svg(position: dict, title: str | None = None, grid: bool = True, fmt: str = "svg") -> Any:
    """An SVG picture of one position, captioned; None without matplotlib. A two-heap
    position is drawn (with ``grid``) as the P-positions around it. ``fmt="png"``: PNG bytes."""
    if not available():
        return None
    with _style():
        return _position(position, title, grid, fmt)


def _position(position: dict, title: str | None, grid: bool, fmt: str) -> Any:
    fig, (ax,) = _figure()
    caption = None
    hs = position.get("heaps")
    if grid and _structure(position) == "heaps" and isinstance(hs, list) and len(hs) == 2 and _hook(position) is None:
        try:
            caption = draw_two_heap_grid(ax, position)
        except Exception:                   # a position the solver cannot answer: plain bars
            ax.clear()
            caption = None
    if caption is None:
        caption = draw_position(ax, position)
    ax.set_title(title or caption, fontsize=9, wrap=True)
    if title:
        fig.text(0.5, 0.01, caption, ha="center", va="bottom", fontsize=8, color=GREY, wrap=True)
    return _svg(fig, fmt)


def line_svg(position: dict, line: list[dict], first_mover_wins: bool | None, most: int = 12,
             fmt: str = "svg") -> Any:
    """A line of play as a strip of small positions (the start, then after each move), the
    mover of each move named. Titled "winning line" only when the first mover wins."""
    if not available() or not line:
        return None
    with _style():
        return _line(position, line, first_mover_wins, most, fmt)


def _line(position: dict, line: list[dict], first_mover_wins: bool | None, most: int, fmt: str) -> Any:
    shown = line[: most - 1]
    panels = len(shown) + 1
    cols = min(4, panels)
    rows = -(-panels // cols)
    layout = None
    ratio = 0.6
    if _structure(position) != "heaps" and position.get("nodes"):
        layout = layout_of(graph_of(position)[0])[0]         # every panel keeps the start's layout
        xs, ys = [p[0] for p in layout.values()], [p[1] for p in layout.values()]
        pad = 0.45 * span_of(layout)
        ratio = min(1.1, max(0.3, (max(ys) - min(ys) + pad) / (max(xs) - min(xs) + pad)))
    fig, axes = _figure(cols, size=(2.5 * cols, (2.5 * ratio + 0.7) * rows), rows=rows)
    for ax in axes[panels:]:
        ax.set_axis_off()
    top = max([h for p in [position] + [m["to"] for m in shown] for h in p.get("heaps", [])] or [1])
    draw_position(axes[0], position, small=True, layout=layout, top=top)
    axes[0].set_title("start: Player 1 to move", fontsize=7)
    prev = position
    for i, (ax, m) in enumerate(zip(axes[1:], shown, strict=False)):
        draw_position(ax, m["to"], small=True, before=prev, layout=layout, top=top)
        prev = m["to"]
        mover = "Player 1" if i % 2 == 0 else "Player 2"
        ax.set_title(textwrap.fill(f"{i + 1}. {mover}: {m['move']}", 34), fontsize=7,
                     color="#1a5276" if i % 2 == 0 else "#7b241c")
    head = line_heading(first_mover_wins, len(shown), len(line))
    weighted = any(len(e) > 2 for e in position.get("edges", [])) or any(
        isinstance(v, list) for v in position.get("nodes", []))
    fig.suptitle(head + ("; red: what the move changed" if layout and weighted else ""), fontsize=9, y=1.0)
    return _svg(fig, fmt)
