"""How positions, results, tables, sessions and verdicts show themselves in a notebook
(``_repr_svg_`` / ``_repr_html_``). Plain SVG and HTML text: no dependency.

>>> from grundy.spec import read_position
>>> svg = position_svg(read_position({"game": "nim", "heaps": [2, 1]}))
>>> svg.startswith("<svg") and svg.count("<circle") == 3
True
>>> position_svg(read_position({"game": "grim", "edges": [[0, 1], [1, 2]]})).count("<line")
2
"""
from __future__ import annotations

import math
from html import escape
from typing import TYPE_CHECKING, Any

from .positions import picture_of

if TYPE_CHECKING:
    from ..spec.position import Position, SumPosition
    from .play import Session
    from .table import ValueTable

__all__ = ["position_svg", "position_html", "result_html", "table_html", "play_html", "verdict_html"]

TOKEN, EDGE, NODE, INK = "#c0392b", "#555", "#dde6f0", "#1f2d3d"
MAX_DRAWN = 24          # tokens drawn per heap; a taller heap shows its size only


def _heaps_svg(heaps: list[int]) -> str:
    r, gap = 7, 2
    tall = min(max(heaps, default=0), MAX_DRAWN)
    w = max(1, len(heaps)) * 44 + 10
    h = tall * (2 * r + gap) + 46
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="11">']
    for i, k in enumerate(heaps):
        x = 10 + i * 44 + 17
        for j in range(min(k, MAX_DRAWN)):
            y = h - 24 - r - j * (2 * r + gap)
            parts.append(f'<circle cx="{x}" cy="{y}" r="{r}" fill="{NODE}" stroke="{INK}"/>')
        top = h - 24 - min(k, MAX_DRAWN) * (2 * r + gap) - 4
        parts.append(f'<text x="{x}" y="{top}" text-anchor="middle" fill="{INK}">{k}{"+" if k > MAX_DRAWN else ""}</text>')
        parts.append(f'<text x="{x}" y="{h - 8}" text-anchor="middle" fill="#777">heap {i + 1}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _graph_svg(obj: dict) -> str:
    nodes = obj.get("nodes")
    key = "arcs" if "arcs" in obj else "edges"
    edges = obj.get(key, [])
    names: list[Any] = []
    weight: dict[Any, Any] = {}
    for item in nodes or []:
        v = item[0] if isinstance(item, list) else item
        names.append(v)
        if isinstance(item, list) and len(item) == 2:
            weight[v] = item[1]
    for e in edges:
        for v in e[:2]:
            if v not in names:
                names.append(v)
    n = max(1, len(names))
    size, rad = 260, 95 if n > 1 else 0
    at = {v: (size / 2 + rad * math.sin(2 * math.pi * i / n), size / 2 - rad * math.cos(2 * math.pi * i / n))
          for i, v in enumerate(names)}
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{size}" height="{size}" font-family="sans-serif" font-size="11">',
             f'<defs><marker id="arr" viewBox="0 0 10 10" refX="22" refY="5" markerWidth="6" markerHeight="6" '
             f'orient="auto"><path d="M0,0 L10,5 L0,10 z" fill="{EDGE}"/></marker></defs>']
    for e in edges:
        (x1, y1), (x2, y2) = at[e[0]], at[e[1]]
        mark = ' marker-end="url(#arr)"' if key == "arcs" else ""
        parts.append(f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="{EDGE}"{mark}/>')
        if len(e) == 3:
            mx, my = (x1 + x2) / 2, (y1 + y2) / 2
            parts.append(f'<rect x="{mx - 7:.1f}" y="{my - 7:.1f}" width="14" height="14" fill="white"/>'
                         f'<text x="{mx:.1f}" y="{my + 4:.1f}" text-anchor="middle" fill="{INK}">{escape(str(e[2]))}</text>')
    loops = set(obj.get("loops", []))
    token = obj.get("token")
    for v, (x, y) in at.items():
        if v in loops:
            parts.append(f'<circle cx="{x:.1f}" cy="{y - 14:.1f}" r="8" fill="none" stroke="{EDGE}"/>')
        ring = f' stroke="{TOKEN}" stroke-width="3"' if v == token and "token" in obj else f' stroke="{INK}"'
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="12" fill="{NODE}"{ring}/>')
        label = escape(str(v)) + (f":{escape(str(weight[v]))}" if v in weight else "")
        parts.append(f'<text x="{x:.1f}" y="{y + 4:.1f}" text-anchor="middle" fill="{INK}">{label}</text>')
    parts.append("</svg>")
    return "".join(parts)


def position_svg(pos: "Position | SumPosition") -> str:
    """A picture of the position, of the kind its game asks for (:func:`picture_of`, as in
    reports): bars as stacks of tokens, a graph drawn on a circle with its weights (the token's
    vertex ringed in red)."""
    if not hasattr(pos, "game"):                 # a sum: its parts side by side
        return "".join(position_svg(part) for part in pos.parts)  # type: ignore[union-attr]
    kind, data = picture_of(pos.to_json())       # the game's choice, as in reports
    return _heaps_svg(data) if kind == "bars" else _graph_svg(data)


def position_html(pos: "Position | SumPosition") -> str:
    from .positions import draw
    head = escape(draw(pos).splitlines()[0])
    return f"<div><b>{head}</b><br/>{position_svg(pos)}</div>"


def _rows(rows: list[list[Any]], head: list[str]) -> str:
    th = "".join(f"<th>{escape(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{escape(str(c))}</td>" for c in r) + "</tr>" for r in rows)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


def result_html(result: dict) -> str:
    """A solve result: value and outcome, winning moves and the line of play if present."""
    conv = " (misère)" if result.get("convention") == "misere" else ""
    head = [f"<b>outcome {escape(str(result['outcome']))}{conv}</b>"]
    if "grundy" in result:
        head.append(f"Grundy value <b>{result['grundy']}</b>")
    if "misere_grundy" in result:
        head.append(f"misère Grundy value <b>{result['misere_grundy']}</b>")
    out = ["<div>" + ", ".join(head) + "</div>"]
    for key, title in (("winning_moves", "winning moves"), ("line", "a winning line")):
        if key in result:
            out.append(f"<div>{title}:</div>" + _rows([[m["move"], _brief(m["to"])] for m in result[key]] or
                                                      [["(none)", ""]], ["move", "to"]))
    return "".join(out)


def _brief(obj: dict) -> str:
    import json
    return json.dumps({k: v for k, v in obj.items() if k != "game"})


def table_html(t: "ValueTable") -> str:
    if len(t.axes) == 1:
        name, xs = t.axes[0]
        body = _rows([[x, t.cells[(x,)]] for x in xs], [name, t.kind])
    else:
        (rname, rs), (cname, cs) = t.axes
        body = _rows([[r] + [t.cells[(r, c)] for c in cs] for r in rs], [f"{rname} \\ {cname}"] + [str(c) for c in cs])
    return f"<div><b>{escape(t.title)}</b>{body}</div>"


def play_html(p: "Session") -> str:
    rows = [[i, o.label, "" if o.grundy is None else o.grundy, o.outcome, "wins" if o.wins else ""]
            for i, o in enumerate(p.options())]
    moves = _rows(rows, [".move(i)", "move", "grundy", "outcome", ""]) if rows else ""
    played = f"<div>played: {escape(', '.join(lab for lab, _ in p.history))}</div>" if p.history else ""
    return (f"<div>{position_html(p.position)}<div>{escape(p.verdict())}</div>{played}{moves}</div>")


_COLOURS = {"proved": "#1e7b34", "verified": "#2e86c1", "refuted": "#c0392b", "unknown": "#b9770e",
            "error": "#7d3c98"}


def verdict_html(v: Any) -> str:
    """A verdict: its id, the verdict in colour (with the expectation), scope and any counterexample."""
    colour = _COLOURS.get(v.verdict, "#333")
    mark = "as expected" if v.passed else f"EXPECTED {v.expected}"
    out = [f'<div><b>{escape(v.id)}</b> ({escape(v.kind)}): '
           f'<span style="color:{colour};font-weight:bold">{escape(v.verdict)}</span> — {escape(mark)}</div>']
    if v.scope:
        out.append(f"<div>scope: {escape(v.scope)}</div>")
    if v.detail:
        out.append(f"<div>{escape(v.detail)}</div>")
    c = v.counterexample
    if c is not None:
        out.append(f"<div>counterexample: <code>{escape(_brief(c.witness))}</code>: claimed "
                   f"{escape(str(c.claimed))}, actually {escape(str(c.actual))}</div>")
        if c.line:
            out.append(_rows([[m["move"], _brief(m["to"])] for m in c.line], ["move", "to"]))
    return "".join(out)


