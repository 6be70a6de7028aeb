"""Families of named graphs and rows of heaps: paths, cycles, complete (multipartite) graphs,
wheels, stars, hypercubes, the Petersen graph, products and unions, the graph atlas, G(n, p).

>>> cycles(4, 6).names()
['C_4', 'C_6']
>>> [name for name, g in (paths(3) + stars(3)).items()]
['P_3', 'S_3']
>>> len(all_graphs(4, min_n=4)), len(all_graphs(4, min_n=4, connected=True))
(11, 6)
"""
from __future__ import annotations

import random
from functools import lru_cache
from typing import Any, Iterator, Sequence

import networkx as nx

from ...spec.structure import Structure
from .base import Family, Item, Lazy


def _sizes(ns: Sequence[Any]) -> list[Any]:
    out: list[Any] = []
    for n in ns:
        out.extend(n if isinstance(n, range) else [n])
    return out


def _graph(name: str, g: nx.Graph, relabel: bool = True) -> Item:
    """``(name, structure)``; with ``relabel``, the vertices numbered 0..n-1 in sorted order (in
    the graph's order when they do not sort): the structure of networkx's
    ``convert_node_labels_to_integers`` (``ordering="sorted"`` or ``"default"``), made without
    copying the graph.

    >>> import networkx as nx
    >>> g = nx.Graph([("b", "a"), ("c", "b")])
    >>> _graph("P", g)[1] == Structure.from_networkx(nx.convert_node_labels_to_integers(g, ordering="sorted"))
    True
    """
    if not relabel:
        return name, Structure.from_networkx(g)
    nodes = _order(g)
    index = {v: i for i, v in enumerate(nodes)}
    return name, Structure.graph(range(len(nodes)), [(index[u], index[v]) for u, v in g.edges()],
                                 directed=g.is_directed())


def _order(g: nx.Graph) -> list[Any]:
    """The graph's vertices sorted, or in the graph's order when they do not sort."""
    try:
        return sorted(g.nodes)
    except TypeError:
        return list(g.nodes)


def graphs(*named: Any, scope: str | None = None) -> Family:
    """A family of given networkx graphs, keeping the vertex names they have (names other than
    ints and strings become strings): ``graphs(("K_4", nx.complete_graph(4)), ...)``, or one
    list or dict of them (``graphs({"K_4": g, ...})``, ``graphs([("K_4", g), ...])``); a graph
    given without a name is named ``G1``, ``G2``, ... by its place.

    >>> import networkx as nx
    >>> fam = graphs([("hub", nx.star_graph(["c", "x", "y"])), nx.path_graph(2)])
    >>> fam.names(), fam.items()[1][1].names
    (['G2', 'hub'], ['c', 'x', 'y'])
    """
    if len(named) == 1 and isinstance(named[0], (list, tuple, dict)) and not _is_pair(named[0]):
        items = list(named[0].items()) if isinstance(named[0], dict) else list(named[0])
    else:
        items = list(named)
    out = []
    for k, item in enumerate(items, 1):
        name, g = item if _is_pair(item) else (f"G{k}", item)
        if not isinstance(g, nx.Graph):
            raise TypeError(f"graphs(): item {k} is not a networkx graph (or a (name, graph) pair)")
        if not all(isinstance(v, (int, str)) and not isinstance(v, bool) for v in g.nodes):
            g = nx.relabel_nodes(g, {v: v if isinstance(v, (int, str)) else str(v) for v in g.nodes})
        out.append(_graph(str(name), g, relabel=False))
    return Family(out, scope)


def _is_pair(x: Any) -> bool:
    return isinstance(x, tuple) and len(x) == 2 and isinstance(x[0], str) and isinstance(x[1], nx.Graph)


def graph6_file(path: Any, scope: str | None = None) -> Family:
    """The graphs of a graph6 (or sparse6) file, one per line, named ``<file stem>#<line>``."""
    from pathlib import Path
    p = Path(path)
    out = []
    for k, line in enumerate(p.read_bytes().splitlines(), 1):
        line = line.strip()
        if not line or line.startswith(b"#"):
            continue
        data = line[len(b">>graph6<<"):] if line.startswith(b">>graph6<<") else line
        out.append(_graph(f"{p.stem}#{k}", from6(data)))
    return Family(out, scope, noun=f"graphs of {p.name}")


def from6(data: bytes) -> nx.Graph:
    """A graph from one graph6 or sparse6 line (``:`` first)."""
    nxa: Any = nx                  # networkx's stubs type these readers on str; they read bytes
    return nxa.from_sparse6_bytes(data) if data.startswith(b":") else nxa.from_graph6_bytes(data)


def grids(*shape: int | range) -> Family:
    """Grid graphs P_m x P_n, named ``PmxPn`` (vertex i*n + j is row i, column j): ``grids(3, 5)``
    is one grid; ``grids(range(2, 5), range(2, 5))`` every m x n with m <= n in those ranges.

    >>> grids(3, 5).names(), len(grids(3, 5).items()[0][1].edges)
    (['P3xP5'], 22)
    >>> grids(range(2, 4), range(2, 4)).names()
    ['P2xP2', 'P2xP3', 'P3xP3']
    """
    if len(shape) != 2:
        raise TypeError("grids(m, n): two sizes (ints or ranges)")
    ms, ns = (_sizes([x]) for x in shape)
    pairs = [(m, n) for m in ms for n in ns if m <= n or len(ms) == 1 and len(ns) == 1]
    out = []
    for m, n in pairs:
        g = nx.grid_2d_graph(m, n)
        g = nx.relabel_nodes(g, {(i, j): i * n + j for i, j in g.nodes})
        out.append(_graph(f"P{m}xP{n}", g))
    return Family(out, noun="grids")


def heaps(*counts: int | range) -> Family:
    """Rows of heaps: ``heaps(2)`` is two heaps, ``heaps(2, 3)`` two and three."""
    ns = _sizes(counts)
    items = [(f"{n} heap{'s' * (n != 1)}", Structure.heaps(n)) for n in ns]
    if len(ns) > 4:
        return Family(items, f"{ns[0]} … {ns[-1]} heaps ({len(ns)} rows)")
    return Family(items, " and ".join(str(n) for n in ns) + (" heaps" if ns != [1] else " heap"))


def paths(*ns: int | range, n: Any = None, first: int = 12, first_full: int = 16) -> Family:
    """Paths P_n on n vertices; ``paths(n=at_least(1))``: every path (open: its claims state the
    values of a take-and-break code on the runs, ``runs_of(code)``; families/open.py)."""
    if n is not None:
        return _open("paths_open", ns, n, first=first, first_full=first_full)
    return Family([_graph(f"P_{n}", nx.path_graph(n)) for n in _sizes(ns)], noun="paths")


def cycles(*ns: int | range, n: Any = None, first: int = 12, first_full: int = 16) -> Family:
    """Cycles C_n (vertex i adjacent to i ± 1 mod n); ``cycles(n=at_least(3))``: every cycle
    (open: its claims state the values of a code on the arcs, ``arcs_of(code)``)."""
    if n is not None:
        return _open("cycles_open", ns, n, first=first, first_full=first_full)
    return Family([_graph(f"C_{n}", nx.cycle_graph(n)) for n in _sizes(ns)], noun="cycles")


def complete(*ns: int | range, n: Any = None, first: int = 10, first_full: int = 14) -> Family:
    """Complete graphs K_n; ``complete(n=at_least(1))`` is the open family of every K_n, n >= 1
    (its first members, at most ``first`` vertices, are checked explicitly: families/open.py)."""
    if n is not None:
        return _open("complete_open", ns, n, first=first, first_full=first_full)
    return Family([_graph(f"K_{n}", nx.complete_graph(n)) for n in _sizes(ns)], noun="complete graphs")


def complete_bipartite(*mn: tuple[int, int], m: Any = None, n: Any = None, first: int = 10,
                       first_full: int = 14) -> Family:
    """K_{m,n}: vertices 0..m-1 form the first part; ``complete_bipartite(m=at_least(1),
    n=at_least(1))``: every K_{m,n} (open)."""
    if m is not None or n is not None:
        return _open("bipartite_open", mn, m, n, first=first, first_full=first_full)
    return Family([_graph(f"K_{{{m},{n}}}", nx.complete_bipartite_graph(m, n)) for m, n in mn],
                  noun="complete bipartite graphs")


def complete_multipartite(*parts: Sequence[int], k: int | None = None, size: Any = None,
                          centre: bool = False, first: int = 10, first_full: int = 14) -> Family:
    """Complete multipartite graphs with the given part sizes; ``complete_multipartite(k=3,
    size=at_least(2))``: every one with k parts of sizes >= 2 (open; ``centre=True`` adds a
    part of one vertex first: K_{1,m,n} for k = 2)."""
    if k is not None or size is not None:
        return _open("multipartite_open", parts, k, size, centre=centre, first=first, first_full=first_full)
    return Family([_graph("K_{" + ",".join(map(str, p)) + "}", nx.complete_multipartite_graph(*p))
                   for p in parts])


def _open(name: str, given: Sequence[Any], *args: Any, **kw: Any) -> Family:
    """An open family (families/open.py), refusing sizes given beside it."""
    from . import open as opened
    if given:
        raise TypeError(f"an open family takes no listed sizes besides its open ones ({given!r})")
    if any(a is None for a in args):
        raise TypeError("every size of an open family is given: e.g. m=at_least(1), n=at_least(1)")
    return getattr(opened, name)(*args, **kw)


def wheels(*ns: int | range, n: Any = None, first: int = 10, first_full: int = 14) -> Family:
    """Wheels W_n on n vertices: hub 0 plus the rim C_{n-1}; ``wheels(n=at_least(4))``: every
    wheel (open: its claims state the start's outcome by the path, ``path_outcome(game)``)."""
    if n is not None:
        return _open("wheels_open", ns, n, first=first, first_full=first_full)
    return Family([_graph(f"W_{n}", nx.wheel_graph(n)) for n in _sizes(ns)], noun="wheels")


def stars(*ns: int | range, n: Any = None, first: int = 10, first_full: int = 14) -> Family:
    """Stars S_n: centre 0 and n leaves; ``stars(n=at_least(1))``: every star (open)."""
    if n is not None:
        return _open("stars_open", ns, n, first=first, first_full=first_full)
    return Family([_graph(f"S_{n}", nx.star_graph(n)) for n in _sizes(ns)], noun="stars")


def two_stars(m: int, n: int, length: int) -> Family:
    """Stars with m and n leaves whose centres are joined by a path of ``length`` edges.
    Vertices: centre 0, its leaves, the path, centre, its leaves."""
    g: nx.Graph = nx.Graph()
    a, b = 0, m + length
    g.add_edges_from((a, 1 + i) for i in range(m))
    path = [a] + list(range(m + 1, m + length)) + [b]
    g.add_edges_from(zip(path, path[1:], strict=False))
    g.add_edges_from((b, b + 1 + i) for i in range(n))
    return Family([_graph(f"S_{m}-{length}-S_{n}", g)])


def ssb(*js: int | range) -> Family:
    """SSB_j: K_{2,j} plus the edge v1v2 (v1, v2 = vertices 0 and 1, the part of size 2)."""
    out = []
    for j in _sizes(js):
        g = nx.complete_bipartite_graph(2, j)
        g.add_edge(0, 1)
        out.append(_graph(f"SSB_{j}", g))
    return Family(out)


def _bits(t: Any) -> tuple:
    """A hypercube vertex's bits (networkx names Q_1's vertices 0, 1, not (0,), (1,))."""
    return t if isinstance(t, tuple) else (t,)


def hypercubes(*ds: int | range) -> Family:
    """Hypercubes Q_d; vertex i is the bit string of i."""
    out = []
    for d in _sizes(ds):
        g = nx.relabel_nodes(nx.hypercube_graph(d), lambda t: int("".join(map(str, _bits(t))) or "0", 2))
        out.append(_graph(f"Q_{d}", g))
    return Family(out)


def petersen() -> Family:
    """The Petersen graph."""
    return Family([_graph("Petersen", nx.petersen_graph())])


def disjoint_union(a: Family, b: Family) -> Family:
    """G + H for every G in a and H in b."""
    return Family([_graph(f"{na}+{nb}", nx.disjoint_union(ga.to_networkx(), gb.to_networkx()))
                   for na, ga in a.items() for nb, gb in b.items()])


def cartesian(a: Family, b: Family) -> Family:
    """The Cartesian products G □ H for every G in a and H in b."""
    return Family([_graph(f"{na}x{nb}", nx.cartesian_product(ga.to_networkx(), gb.to_networkx()))
                   for na, ga in a.items() for nb, gb in b.items()])


@lru_cache(maxsize=1)
def _atlas() -> tuple[nx.Graph, ...]:
    """The networkx graph atlas (every graph on 0..7 vertices, by number of vertices), read once
    per process (each family copies what it takes: the graphs are never changed)."""
    from networkx.generators.atlas import graph_atlas_g
    return tuple(graph_atlas_g())


def atlas() -> tuple[nx.Graph, ...]:
    """The networkx graph atlas: graph ``i`` of its numbering at index ``i`` (0..1252: every
    graph on 0..7 vertices), read once per process and shared (never to be changed: copy a
    graph before changing it)."""
    return _atlas()


def all_graphs(max_n: int, *, min_n: int = 1, connected: bool = False) -> Family:
    """Every graph on min_n..max_n vertices up to isomorphism (the networkx atlas: n <= 7),
    read when the family is first used (:class:`Lazy`: loading a theorem file stays fast)."""
    if max_n > 7:
        raise ValueError("the graph atlas stops at 7 vertices")

    def make() -> Iterator[Item]:
        counter: dict[int, int] = {}
        for g in _atlas():
            n = g.number_of_nodes()
            if n > max_n:
                break                   # the atlas lists graphs by number of vertices
            if n < min_n or (connected and not nx.is_connected(g)):
                continue
            counter[n] = counter.get(n, 0) + 1
            yield _graph(f"G{n}.{counter[n]}", g)
    return Lazy(make, f"all {'connected ' if connected else ''}graphs on {min_n}..{max_n} vertices")


def gnp(n: int, p: float, count: int, seed: int = 0) -> Family:
    """``count`` samples of G(n, p), seeded."""
    rng = random.Random(seed)
    out = [_graph(f"G({n},{p})#{i}", nx.gnp_random_graph(n, p, seed=rng.randrange(2**31)))
           for i in range(count)]
    return Family(out, f"{count} samples of G({n}, {p}), seed {seed}")
