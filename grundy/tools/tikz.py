"""TikZ pictures for papers: the plots of :mod:`.plot` and the drawings of positions of
:mod:`.pictures`, as ``tikzpicture`` fragments to ``\\input`` (``\\usepackage{tikz}``; nothing
else). They need no matplotlib; a graph is laid out, and its labels placed, by the same
geometry as the matplotlib drawings (:mod:`.layout`). A game's own matplotlib drawing hook is
not used here: TikZ draws what :func:`~.positions.picture_of` says (a graph, or heaps as bars).

>>> tex = position_tikz({"game": "edge-nim", "nodes": [0, 1, 2], "edges": [[0, 1, 2], [1, 2, 1]], "token": 0})
>>> tex.splitlines()[2], "token on 0" in tex
('\\\\begin{tikzpicture}', True)
"""
from __future__ import annotations

import json
import math
from typing import TYPE_CHECKING, Any

from .latex import latex_escape
from .layout import Pos, edge_routes, graph_of, layout_of, line_heading, span_of, vertex_radius
from .positions import picture_of, two_heap_ppositions

if TYPE_CHECKING:
    from .table import ValueTable

__all__ = ["ppositions_tikz", "values_tikz", "position_tikz", "line_tikz", "NEEDS"]

NEEDS = r"% needs \usepackage{tikz}"
ORANGE, BLUE, RED, NAVY = "{rgb,255:red,224;green,123;blue,57}", "{rgb,255:red,156;green,192;blue,230}", \
    "{rgb,255:red,192;green,57;blue,43}", "{rgb,255:red,31;green,78;blue,121}"


def _n(x: float) -> str:
    """A coordinate: three decimals at most, no trailing zeros."""
    s = f"{x:.3f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _pt(p) -> str:
    return f"({_n(p[0])},{_n(p[1])})"


def _ticks(n: int) -> int:
    return 1 if n <= 16 else 2 if n <= 32 else 5 if n <= 80 else 10 if n <= 160 else 20 if n <= 400 else 50


# ------------------------------------------------------------------------------- plots
def ppositions_tikz(t: ValueTable, values: bool, title: str) -> str:
    """The P-positions (filled cells) of a two-axis table of outcomes, or with ``values`` its
    Grundy values as shades of grey (written in the cells when there are at most 400)."""
    (rname, rs), (cname, cs) = t.axes
    s = min(0.4, 9.0 / max(len(cs), len(rs)))
    out = [f"% {latex_escape(title)}", NEEDS, rf"\begin{{tikzpicture}}[x={_n(s)}cm, y={_n(s)}cm]"]
    top = max([v for v in t.cells.values() if isinstance(v, int)] + [1])
    small = len(rs) * len(cs) <= 400
    for i, r in enumerate(rs):
        for j, c in enumerate(cs):
            v = t.cells[(r, c)]
            if values:
                k = round(80 * v / top)
                out.append(rf"\fill[black!{k}] ({j},{i}) rectangle +(1,1);")
                if small:
                    out.append(rf"\node[font=\tiny, text={'white' if k > 45 else 'black'}] at "
                               f"({j + 0.5},{i + 0.5}) {{{v}}};")
            elif v == "P":
                out.append(rf"\fill ({j},{i}) rectangle +(1,1);")
    out.append(rf"\draw[black!60] (0,0) rectangle ({len(cs)},{len(rs)});")
    step = _ticks(max(len(rs), len(cs)))
    for j, c in enumerate(cs):
        if c % step == 0:
            out.append(rf"\node[below, font=\tiny, inner sep=1pt] at ({j + 0.5},0) {{{c}}};")
    for i, r in enumerate(rs):
        if r % step == 0:
            out.append(rf"\node[left, font=\tiny, inner sep=1pt] at (0,{i + 0.5}) {{{r}}};")
    out += [rf"\node[below=9pt, font=\small] at ({_n(len(cs) / 2)},0) {{{latex_escape(cname)}}};",
            rf"\node[left=12pt, rotate=90, anchor=south, font=\small] at (0,{_n(len(rs) / 2)}) "
            f"{{{latex_escape(rname)}}};",
            rf"\node[above, font=\small, text width={_n(len(cs) * s)}cm, align=center] at "
            f"({_n(len(cs) / 2)},{len(rs)}) {{{latex_escape(title)}}};", r"\end{tikzpicture}"]
    return "\n".join(out)


def values_tikz(xs: list[int], ys: list[int], found: Any, title: str, xname: str = "n") -> str:
    """G(n) over ``xs`` as points joined by a thin line; ``found`` (a Period or None): the
    preperiod shaded, a dashed line at the start of each period."""
    sx = 12.0 / max(xs[-1] - xs[0], 1)
    top = max(ys + [1])
    sy = 4.0 / top
    out = [f"% {latex_escape(title)}", NEEDS, rf"\begin{{tikzpicture}}[x={_n(sx)}cm, y={_n(sy)}cm]"]
    x0, x1 = xs[0] - 0.5, xs[-1] + 0.5
    if found is not None:
        n0, p = found.preperiod, found.period
        if n0 > xs[0]:
            out.append(rf"\fill[yellow!35] ({_n(x0)},0) rectangle ({_n(n0 - 0.5)},{top});")
        for start in range(n0, xs[-1] + 1, p):
            out.append(rf"\draw[color={RED}, dashed, line width=0.4pt] ({_n(start - 0.5)},0) -- "
                       f"({_n(start - 0.5)},{top});")
    out.append(r"\draw[black!40, line width=0.3pt] plot coordinates {"
               + " ".join(f"({x},{y})" for x, y in zip(xs, ys)) + "};")
    dot = 1.2 if len(xs) <= 300 else 0.6
    out += [rf"\fill[color={NAVY}] ({x},{y}) circle ({dot}pt);" for x, y in zip(xs, ys)]
    out.append(rf"\draw ({_n(x0)},0) -- ({_n(x1)},0); \draw ({_n(x0)},0) -- ({_n(x0)},{top});")
    step = _ticks(len(xs))
    out += [rf"\node[below, font=\tiny] at ({x},0) {{{x}}};" for x in xs if x % step == 0]
    ystep = max(1, _ticks(top + 1) // 2) if top > 8 else 1
    out += [rf"\node[left, font=\tiny] at ({_n(x0)},{y}) {{{y}}};" for y in range(0, top + 1, ystep)]
    out += [rf"\node[below=8pt, font=\small] at ({_n((x0 + x1) / 2)},0) {{{latex_escape(xname)}}};",
            rf"\node[above, font=\small, text width=12cm, align=center] at ({_n((x0 + x1) / 2)},{top}) "
            f"{{{latex_escape(title)}}};", r"\end{tikzpicture}"]
    return "\n".join(out)


# ------------------------------------------------------------------------------- positions
Drawn = tuple[list[str], str]          # TikZ commands and the caption


def _graph(position: dict, width: float, small: bool, before: dict | None, layout: Pos | None = None) -> Drawn:
    """TikZ commands drawing a graph position ``width`` cm wide, and its caption. ``before``:
    the position a move came from (what it changed is red); ``layout``: where an earlier drawing
    put the vertices (a line of play keeps the start's)."""
    g, vweight, eweight = graph_of(position)
    pos, name = layout_of(g)
    if layout is not None and all(v in layout for v in pos):
        pos = {v: layout[v] for v in pos}
    ref = layout if layout is not None and set(pos) <= set(layout) else pos     # the frame: the start's
    if not pos:
        return [rf"\draw[dashed, black!50] (0,0) rectangle ({_n(width)},{_n(width / 3)});",
                rf"\node[font=\small, black!60, align=center] at ({_n(width / 2)},{_n(width / 6)}) "
                r"{empty graph\\(no vertices, no moves)};"], "the empty graph"
    changed: set = set()
    if before is not None:
        _, _, ew0 = graph_of(before)
        changed = {e for e, w in eweight.items() if ew0.get(e, ew0.get(e[::-1])) != w}
    r = vertex_radius(ref)
    u_ = width / (span_of(ref) + 4 * r)
    font = r"\tiny" if small else r"\footnotesize"
    token, active = position.get("token"), position.get("active")
    hot = {tuple(active), tuple(active[::-1])} if active else set()
    out = [rf"\begin{{scope}}[x={_n(u_)}cm, y={_n(u_)}cm]"]
    arrow = ", -stealth" if g.is_directed() else ""
    labels = []
    for e in edge_routes(g, pos, r, set() if small and len(pos) > 12 else set(eweight)):
        a, b = pos[e.u], pos[e.v]
        w = eweight.get((e.u, e.v), eweight.get((e.v, e.u)))
        red = (e.u, e.v) in hot or (e.u, e.v) in changed or (e.v, e.u) in changed
        style = f"line width={'1.6' if red else '0.5'}pt" + (f", color={RED}" if red else "") + \
            (", dotted" if w == 0 else "") + arrow

        def toward(p, q, d=r):
            L = math.hypot(q[0] - p[0], q[1] - p[1]) or 1.0
            return (p[0] + d * (q[0] - p[0]) / L, p[1] + d * (q[1] - p[1]) / L)
        a2, b2 = toward(a, e.ctrl), toward(b, e.ctrl)
        if e.rad == 0.0:
            out.append(rf"\draw[{style}] {_pt(a2)} -- {_pt(b2)};")
        else:
            c1 = (a2[0] + 2 / 3 * (e.ctrl[0] - a2[0]), a2[1] + 2 / 3 * (e.ctrl[1] - a2[1]))
            c2 = (b2[0] + 2 / 3 * (e.ctrl[0] - b2[0]), b2[1] + 2 / 3 * (e.ctrl[1] - b2[1]))
            out.append(rf"\draw[{style}] {_pt(a2)} .. controls {_pt(c1)} and {_pt(c2)} .. {_pt(b2)};")
        if w is not None and e.label is not None:
            labels.append(rf"\node[draw=black!40, fill=white, rounded corners=1pt, inner sep=1pt, font={font}"
                          + (f", text={RED}" if red else "") + f"] at {_pt(e.label)} {{{latex_escape(w)}}};")
    cx = sum(p[0] for p in ref.values()) / len(ref)
    cy = sum(p[1] for p in ref.values()) / len(ref)
    flat = len({round(p[1], 6) for p in ref.values()}) == 1
    for v in position.get("loops", []):
        if v in pos:
            x, y = pos[v]
            d = math.hypot(x - cx, y - cy)
            dx, dy = ((x - cx) / d, (y - cy) / d) if d > 1e-9 and not flat else (0.0, -1.0)
            out.append(rf"\draw[line width=0.5pt] {_pt((x + 1.6 * r * dx, y + 1.6 * r * dy))} circle ({_n(0.9 * r)});")
    out += labels
    for v, (x, y) in pos.items():
        out.append(rf"\draw[fill={ORANGE if v == token else BLUE}, line width=0.5pt] {_pt((x, y))} circle ({_n(r)});")
        out.append(rf"\node[font={font}] at {_pt((x, y))} {{{latex_escape(v)}}};")
        if v in vweight:
            d = math.hypot(x - cx, y - cy)
            dx, dy = ((x - cx) / d, (y - cy) / d) if d > 1e-9 and not flat else (0.0, 1.0)
            out.append(rf"\node[draw=black!40, fill=yellow!20, rounded corners=1pt, inner sep=1pt, font={font}] "
                       f"at {_pt((x + 1.9 * r * dx, y + 1.9 * r * dy))} {{{latex_escape(vweight[v])}}};")
    out.append(r"\end{scope}")
    bits = [name] + ([f"token on {token}"] if token is not None else []) + \
        ([f"active edge {active[0]}–{active[1]}"] if active else []) + (["boxed: vertex weights"] if vweight else [])
    return out, ", ".join(bits)


def _bars(hs: list[int], width: float, small: bool, top: int | None = None) -> Drawn:
    top = max([top or 0, 1] + hs)
    s = 0.6 * width / top
    font = r"\tiny" if small else r"\footnotesize"
    out = []
    for i, h in enumerate(hs):
        y = -0.5 * i
        out.append(rf"\fill[fill={BLUE}, draw=black, line width=0.4pt] (0,{_n(y)}) rectangle ({_n(h * s)},{_n(y + 0.35)});"
                   if h else rf"\draw[line width=0.4pt] (0,{_n(y)}) -- (0,{_n(y + 0.35)});")
        out.append(rf"\node[left, font={font}] at (0,{_n(y + 0.175)}) {{heap {i + 1}}};")
        out.append(rf"\node[right, font={font}] at ({_n(h * s)},{_n(y + 0.175)}) {{\textbf{{{h}}}}};")
    return out, "heaps " + ", ".join(map(str, hs))


def _grid(position: dict, width: float) -> Drawn | None:
    try:
        found = two_heap_ppositions(position)
    except Exception:                      # a position the solver cannot answer: plain bars
        return None
    if found is None:
        return None
    n, ps = found
    a, b = position["heaps"]
    s = width / (n + 1)
    out = [rf"\begin{{scope}}[x={_n(s)}cm, y={_n(s)}cm]",
           rf"\draw[black!15, line width=0.2pt] (-0.5,-0.5) grid ({_n(n + 0.5)},{_n(n + 0.5)});"]
    out += [rf"\fill[color={NAVY}] ({i - 0.3},{j - 0.3}) rectangle +(0.6,0.6);" for i, j in ps]
    out.append(rf"\draw[color={RED}, line width=1.2pt] ({a},{b}) circle (0.55);")
    step = 2 if n > 12 else 1
    out += [rf"\node[below, font=\tiny] at ({k},-0.5) {{{k}}};" for k in range(0, n + 1, step)]
    out += [rf"\node[left, font=\tiny] at (-0.5,{k}) {{{k}}};" for k in range(0, n + 1, step)]
    out += [rf"\node[below=6pt, font=\scriptsize] at ({_n(n / 2)},-0.5) {{heap 1}};",
            rf"\node[left=8pt, rotate=90, anchor=south, font=\scriptsize] at (-0.5,{_n(n / 2)}) {{heap 2}};",
            r"\end{scope}"]
    conv = " (misère)" if position.get("convention") == "misere" else ""
    return out, f"P-positions{conv} (squares); counterexample ({a}, {b}) ringed"


def _body(position: dict, width: float, small: bool, grid: bool, before: dict | None = None,
          top: int | None = None, layout: Pos | None = None) -> Drawn:
    kind, data = picture_of(position)
    hs = position.get("heaps")
    if grid and kind == "bars" and isinstance(hs, list) and len(hs) == 2:
        got = _grid(position, width)
        if got is not None:
            return got
    if kind == "bars":
        return _bars(list(data), width, small, top)
    if kind == "graph":
        return _graph(data, width, small, before, layout)
    text = latex_escape(json.dumps({k: v for k, v in position.items() if k != "game"}))
    return [rf"\node[font=\scriptsize, text width={_n(width)}cm] at (0,0) {{{text}}};"], \
        f"no drawing for a {kind!r} picture"


def position_tikz(position: dict, title: str | None = None, grid: bool = True, width: float = 6.0) -> str:
    """A ``tikzpicture`` of one position, about ``width`` cm wide, captioned below (titled
    above with ``title``); a two-heap position (with ``grid``) as the P-positions around it."""
    body, caption = _body(position, width, False, grid)
    out = [f"% {latex_escape(title or caption)}", NEEDS, r"\begin{tikzpicture}"]
    out += body
    out.append(rf"\node[below, font=\footnotesize, text width={_n(width)}cm, align=center] at "
               f"(current bounding box.south) {{{latex_escape(caption)}}};")
    if title:
        out.append(rf"\node[above, font=\small, text width={_n(width)}cm, align=center] at "
                   f"(current bounding box.north) {{{latex_escape(title)}}};")
    out.append(r"\end{tikzpicture}")
    return "\n".join(out)


def line_tikz(position: dict, line: list[dict], first_mover_wins: bool | None, most: int = 12) -> str:
    """A line of play as small pictures, four to a row (each a ``tikzpicture`` in a
    ``minipage``): the start, then the position after each move, the mover named."""
    shown = line[: most - 1]
    layout = None
    if picture_of(position)[0] == "graph" and position.get("nodes"):     # every panel keeps the start's layout
            layout = layout_of(graph_of(position)[0])[0]
    top = max([h for p in [position] + [m["to"] for m in shown] for h in p.get("heaps", [])] or [1])
    head = line_heading(first_mover_wins, len(shown), len(line))
    out = [f"% {latex_escape(head)}", NEEDS, r"\begin{center}", rf"\textbf{{{latex_escape(head)}}}\par",
           r"\smallskip"]
    panels: list[tuple[str, dict, dict | None]] = [("start: Player 1 to move", position, None)]
    for i, m in enumerate(shown):
        panels.append((f"{i + 1}. {'Player 1' if i % 2 == 0 else 'Player 2'}: {m['move']}", m["to"],
                       panels[-1][1]))
    for k, (label, pos, before) in enumerate(panels):
        body, _ = _body(pos, 3.2, True, False, before, top, layout)
        out += [r"\begin{minipage}[t]{0.24\linewidth}\centering",
                rf"{{\scriptsize {latex_escape(label)}}}\par\smallskip", r"\begin{tikzpicture}"] + body + \
            [r"\end{tikzpicture}", r"\end{minipage}" + ("\\par\\medskip" if k % 4 == 3 else "\\hspace{0.5mm}")]
    out.append(r"\end{center}")
    return "\n".join(out)
