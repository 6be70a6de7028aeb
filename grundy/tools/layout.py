"""Where a graph's vertices go in a picture, recognised from the graph's structure (never from a
game's or claim's name): the Petersen graph in its standard drawing, complete multipartite
graphs one column per part, paths on a line, cycles and complete graphs on a circle, wheels
with their hub in the middle, hypercubes as projected cubes, grids on their grid, prisms as two
rings, disconnected graphs side by side; anything else by a force layout.

>>> import networkx as nx
>>> layout_of(nx.petersen_graph())[1], layout_of(nx.complete_multipartite_graph(1, 2, 3, 4))[1]
('Petersen graph', 'complete multipartite K_{1,2,3,4}')
>>> layout_of(nx.grid_2d_graph(3, 4))[1], layout_of(nx.hypercube_graph(3))[1], layout_of(nx.path_graph(5))[1]
('grid 3 x 4', 'hypercube Q_3', 'path P_5')
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, NamedTuple

import networkx as nx

__all__ = ["layout_of", "Pos", "Route", "edge_routes", "vertex_radius", "seg_dist", "bezier", "span_of", "graph_of", "line_heading"]

Pos = dict[Any, tuple[float, float]]


def _circle(vs: list, r: float = 1.0, start: float = 90.0, centre=(0.0, 0.0)) -> Pos:
    n = max(1, len(vs))
    return {v: (centre[0] + r * math.cos(math.radians(start - 360.0 * i / n)),
                centre[1] + r * math.sin(math.radians(start - 360.0 * i / n))) for i, v in enumerate(vs)}


def _transport(model: nx.Graph, g: nx.Graph, pos: Pos) -> Pos | None:
    """``pos`` (a layout of ``model``) moved onto ``g`` by an isomorphism, or None."""
    m = nx.algorithms.isomorphism.GraphMatcher(model, g)
    if not m.is_isomorphic():
        return None
    return {m.mapping[v]: p for v, p in pos.items()}


def _parts(g: nx.Graph) -> list[list] | None:
    """The parts of a complete multipartite graph (at least two parts, not all of size 1)."""
    comp = nx.complement(g)
    parts = [sorted(c, key=str) for c in nx.connected_components(comp)]
    if len(parts) < 2 or all(len(p) == 1 for p in parts):
        return None
    for p in parts:                                   # each part independent in g
        if any(g.has_edge(u, v) for i, u in enumerate(p) for v in p[i + 1:]):
            return None
    n = g.number_of_nodes()
    if g.number_of_edges() != (n * n - sum(len(p) ** 2 for p in parts)) // 2:
        return None
    return sorted(parts, key=len)


def _columns(parts: list[list]) -> Pos:
    pos: Pos = {}
    for i, p in enumerate(parts):
        for j, v in enumerate(p):
            pos[v] = (2.2 * i, (j - (len(p) - 1) / 2) * 1.1)
    return pos


def _hypercube(d: int) -> Pos:
    dirs = [(math.cos(math.pi * (0.5 + i) / d), math.sin(math.pi * (0.5 + i) / d) * 0.85) for i in range(d)]
    dirs = [(1.0, 0.0), (0.45, 0.7), (0.0, 1.25), (1.1, 0.25), (0.3, 1.55)][:d] if d <= 5 else dirs
    out: Pos = {}
    for bits in range(2 ** d):
        t = tuple((bits >> i) & 1 for i in range(d))
        out[t] = (sum(b * dx for b, (dx, _) in zip(t, dirs, strict=False)), sum(b * dy for b, (_, dy) in zip(t, dirs, strict=False)))
    return out


def layout_of(g: nx.Graph) -> tuple[Pos, str]:
    """A drawing of ``g`` recognised from its structure: (positions, name of the layout).

    >>> layout_of(nx.wheel_graph(6))[1], layout_of(nx.cycle_graph(5))[1], layout_of(nx.Graph())[1]
    ('wheel W_6', 'cycle C_5', 'empty')
    """
    n, m = g.number_of_nodes(), g.number_of_edges()
    und = nx.Graph(g) if g.is_directed() else g
    und = nx.Graph(und)
    und.remove_edges_from(nx.selfloop_edges(und))
    vs = sorted(und.nodes, key=lambda v: (str(type(v)), v) if not isinstance(v, tuple) else ("t", str(v)))
    if n == 0:
        return {}, "empty"
    if m == 0:
        return {v: (float(i), 0.0) for i, v in enumerate(vs)}, f"{n} isolated vertices"
    shape = _Shape(und, vs, n, m, sorted(d for _, d in und.degree()), nx.is_connected(und))
    if not shape.connected and not _parts(und):
        return _side_by_side(und)
    for recognise in _RECOGNISERS:          # the first that fits, in this order
        got = recognise(shape)
        if got is not None:
            return got
    return {v: (float(x), float(y)) for v, (x, y) in nx.spring_layout(und, seed=1).items()}, f"{n} vertices"


class _Shape(NamedTuple):
    und: nx.Graph
    vs: list
    n: int
    m: int
    deg: list[int]
    connected: bool


def _petersen(s: _Shape) -> tuple[Pos, str] | None:
    if not (s.connected and s.n == 10 and s.m == 15 and s.deg == [3] * 10):
        return None
    outer = _circle(list(range(5)), 1.0)
    inner = _circle(list(range(5, 10)), 0.6)          # room for the pentagram's labels
    pos = _transport(nx.petersen_graph(), s.und, {**outer, **inner})
    return (pos, "Petersen graph") if pos else None


def _cycle_or_path(s: _Shape) -> tuple[Pos, str] | None:
    if not (s.connected and s.deg[-1] <= 2):
        return None
    if s.deg[0] == 2:
        return _circle(list(nx.cycle_basis(s.und)[0])), f"cycle C_{s.n}"
    ends = [v for v in s.vs if s.und.degree(v) == 1]
    order = nx.shortest_path(s.und, ends[0], ends[1])
    return {v: (float(i), 0.0) for i, v in enumerate(order)}, f"path P_{s.n}"


def _complete(s: _Shape) -> tuple[Pos, str] | None:
    return (_circle(s.vs), f"complete K_{s.n}") if s.m == s.n * (s.n - 1) // 2 else None


def _wheel(s: _Shape) -> tuple[Pos, str] | None:
    n = s.n
    if not (s.connected and n >= 4 and s.deg[-1] == n - 1 and s.m == 2 * (n - 1)):
        return None
    hub = next(v for v in s.vs if s.und.degree(v) == n - 1)
    rim = s.und.subgraph([v for v in s.vs if v != hub])
    if all(d == 2 for _, d in rim.degree()) and nx.is_connected(rim):
        return {hub: (0.0, 0.0), **_circle(list(nx.cycle_basis(rim)[0]))}, f"wheel W_{n}"
    return None


def _multipartite(s: _Shape) -> tuple[Pos, str] | None:
    parts = _parts(s.und)
    if not parts:
        return None
    sizes = ",".join(str(len(p)) for p in parts)
    name = "complete bipartite" if len(parts) == 2 else "complete multipartite"
    return _columns(parts), f"{name} K_{{{sizes}}}"


def _hypercube_shape(s: _Shape) -> tuple[Pos, str] | None:
    n = s.n
    if not (s.connected and n & (n - 1) == 0 and n <= 64):
        return None
    d = n.bit_length() - 1
    if s.deg == [d] * n and s.m == d * n // 2:
        pos = _transport(nx.hypercube_graph(d), s.und, _hypercube(d))
        if pos:
            return pos, f"hypercube Q_{d}"
    return None


def _grid_or_prism(s: _Shape) -> tuple[Pos, str] | None:
    n, m = s.n, s.m
    if not (s.connected and s.deg[-1] <= 4 and n <= 100):
        return None
    for a in range(2, int(math.isqrt(n)) + 1):
        if n % a == 0 and m == a * (n // a - 1) + (n // a) * (a - 1):
            b = n // a
            pos = _transport(nx.grid_2d_graph(a, b), s.und,
                             {(i, j): (float(j), float(-i)) for i in range(a) for j in range(b)})
            if pos:
                return pos, f"grid {a} x {b}"
    if n % 2 == 0 and s.deg == [3] * n and n >= 6:
        k = n // 2
        model = nx.circular_ladder_graph(k)
        pos = _transport(model, s.und, {**_circle(list(range(k)), 1.0), **_circle(list(range(k, n)), 0.55)})
        if pos:
            return pos, f"prism C_{k} x K_2"
    return None


_RECOGNISERS = [_petersen, _cycle_or_path, _complete, _wheel, _multipartite, _hypercube_shape, _grid_or_prism]


def graph_of(position: dict) -> tuple[nx.Graph, dict, dict]:
    """The graph of a JSON position (a DiGraph for ``arcs``), its vertex weights and its edge weights."""
    directed = "arcs" in position
    g: nx.Graph = nx.DiGraph() if directed else nx.Graph()
    vweight: dict = {}
    for item in position.get("nodes", []):
        v = item[0] if isinstance(item, list) else item
        g.add_node(v)
        if isinstance(item, list) and len(item) >= 2:
            vweight[v] = item[1]
    eweight: dict = {}
    for e in position.get("arcs" if directed else "edges", []):
        g.add_edge(e[0], e[1])
        if len(e) >= 3:
            eweight[(e[0], e[1])] = e[2]
    return g, vweight, eweight


def _side_by_side(g: nx.Graph) -> tuple[Pos, str]:
    """Each component drawn by its own layout, scaled to the same height, left to right."""
    out: Pos = {}
    names = []
    x0 = 0.0
    comps = sorted(nx.connected_components(g), key=lambda c: (-len(c), sorted(map(str, c))))
    for c in comps:
        sub = g.subgraph(c)
        if len(c) == 1:
            pos, name = {next(iter(c)): (0.0, 0.0)}, "K_1"
        else:
            pos, name = layout_of(nx.Graph(sub))
        xs, ys = [p[0] for p in pos.values()], [p[1] for p in pos.values()]
        scale = 2.0 / max(max(xs) - min(xs), max(ys) - min(ys), 1e-9) if len(c) > 1 else 1.0
        scale = min(scale, 1.6)
        for v, (x, y) in pos.items():
            out[v] = (x0 + (x - min(xs)) * scale, (y - (max(ys) + min(ys)) / 2) * scale)
        x0 += (max(xs) - min(xs)) * scale + 1.2
        names.append(name.split(" ")[-1] if " " in name else name)
    return out, " + ".join(names)


# ------------------------------------------------------------------ edges and their labels
# One geometry for every drawing of a graph (matplotlib's and TikZ's): the vertices' radius,
# which edges bend round a vertex they would cross, where each edge's label goes.

def vertex_radius(ref: Pos) -> float:
    """The radius of a vertex's disc in a drawing of the layout ``ref`` (a share of its span,
    and at most 0.3 of the closest two vertices' distance)."""
    span = span_of(ref)
    pts = list(ref.values())
    closest = min((math.hypot(p[0] - q[0], p[1] - q[1]) for i, p in enumerate(pts) for q in pts[i + 1:]),
                  default=span)
    return min(0.07 * span if len(ref) <= 12 else 0.05 * span, 0.24 * closest)


def span_of(pos: Pos) -> float:
    xs, ys = [p[0] for p in pos.values()], [p[1] for p in pos.values()]
    return max(max(xs) - min(xs), max(ys) - min(ys), 1.0)


def seg_dist(p, a, b) -> float:
    """The distance from the point ``p`` to the segment ``a``–``b``."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    L = dx * dx + dy * dy
    t = 0.0 if L == 0 else max(0.0, min(1.0, ((p[0] - a[0]) * dx + (p[1] - a[1]) * dy) / L))
    return math.hypot(p[0] - a[0] - t * dx, p[1] - a[1] - t * dy)


def bezier(p0, c, p2, t: float) -> tuple[float, float]:
    """The point at ``t`` of the quadratic Bézier curve from ``p0`` to ``p2`` with control ``c``."""
    return ((1 - t) ** 2 * p0[0] + 2 * t * (1 - t) * c[0] + t * t * p2[0],
            (1 - t) ** 2 * p0[1] + 2 * t * (1 - t) * c[1] + t * t * p2[1])


@dataclass
class Route:
    """How one edge is drawn: from ``u`` to ``v``, bent by ``rad`` (matplotlib's arc3: the
    quadratic curve's control point is ``ctrl``), its label (if any) at ``label``."""

    u: Any
    v: Any
    rad: float
    ctrl: tuple[float, float]
    label: tuple[float, float] | None = None


_SPOTS = (0.5, 0.38, 0.62, 0.3, 0.7, 0.24, 0.76, 0.18, 0.82)


def edge_routes(g: nx.Graph, pos: Pos, r: float, labelled: set | frozenset = frozenset()) -> list[Route]:
    """The routes of ``g``'s edges (loops left out) in the drawing ``pos`` with vertices of
    radius ``r``. An edge that would pass through another vertex bends; a directed pair of
    opposite arcs bends apart. Each edge of ``labelled`` gets the first spot along it that is
    clear of the vertices, of the labels placed before it and of the other edges (the centre of a
    pentagram is left to its crossings), else the clearest spot."""
    routes = []
    directed = g.is_directed()
    for u, v in g.edges():
        if u == v:
            continue
        a, b = pos[u], pos[v]
        through = any(seg_dist(pos[w], a, b) < 1.2 * r for w in pos if w not in (u, v))
        rad = 0.12 if directed and g.has_edge(v, u) else 0.18 if through else 0.0
        mid = ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)
        routes.append(Route(u, v, rad, (mid[0] + rad * (b[1] - a[1]), mid[1] - rad * (b[0] - a[0]))))
    placed: list[tuple[float, float]] = []
    for e in routes:
        if (e.u, e.v) not in labelled and (e.v, e.u) not in labelled:
            continue
        a, b = pos[e.u], pos[e.v]
        others = [(pos[o.u], pos[o.v]) for o in routes if o is not e and o.rad == 0.0]
        best: tuple[float, tuple[float, float]] | None = None
        for t in _SPOTS:
            p = bezier(a, e.ctrl, b, t)
            clear = min([math.hypot(p[0] - q[0], p[1] - q[1]) for q in placed] + [9.9])
            near = min(math.hypot(p[0] - q[0], p[1] - q[1]) for q in pos.values())
            off = min([seg_dist(p, x, y) for x, y in others] + [9.9])
            score = min(clear / (1.6 * r), near / (1.7 * r), off / (0.75 * r))
            if best is None or score > best[0] + 1e-9:
                best = (score, p)
            if score >= 1.0:
                break
        assert best is not None                   # the loop above ran
        e.label = best[1]
        placed.append(best[1])
    return routes


def line_heading(first_mover_wins: bool | None, shown: int, moves: int) -> str:
    """The heading of a line of play drawn as pictures (``shown`` of its ``moves`` drawn).

    >>> line_heading(True, 3, 5)
    'Winning line: Player 1 wins whatever Player 2 replies (first 3 of 5 moves)'
    """
    if first_mover_wins is True:
        head = "Winning line: Player 1 wins whatever Player 2 replies"
    elif first_mover_wins is False:
        head = "A losing line: every move of Player 1 is answered, Player 2 wins"
    else:
        head = "A line of play"
    return head + (f" (first {shown} of {moves} moves)" if moves > shown else "")
