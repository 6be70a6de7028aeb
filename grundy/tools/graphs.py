"""Graphs by name, as people write them: ``petersen``, ``K5``, ``C6``, ``P4``, ``Q3``, ``K3,3``,
``S4`` (a star with 4 leaves), ``W5`` (a wheel: a hub and a 5-cycle), or a graph6 string.

Vertices are numbered 0, 1, ... (a hypercube's vertex is the number its coordinates spell in
binary). ``P_n`` and ``C_n`` have n vertices, as in the papers (Adams et al. write P_n for
the path on n vertices).

>>> g = named_graph("K3,3"); g.n, len(g.edges)
(6, 9)
>>> [named_graph(x).n for x in ("petersen", "K5", "C6", "P4", "Q3", "S4", "W5")]
[10, 5, 6, 4, 8, 5, 6]
>>> named_graph("Bw").edges      # graph6 for the triangle
[(0, 1), (0, 2), (1, 2)]
>>> named_graph("X9")
Traceback (most recent call last):
...
grundy.errors.InputError: graph: 'X9' is not a graph name (petersen, Kn, Cn, Pn, Qd, Km,n, Sn, Wn, products such as P3xP5) nor a graph6 string
"""
from __future__ import annotations

import re
from typing import TYPE_CHECKING, Callable

from ..spec.position import InputError
from ..spec.structure import Structure

if TYPE_CHECKING:
    import networkx as nx

__all__ = ["named_graph", "family_graph", "FAMILIES", "GRAPH_NAMES"]

GRAPH_NAMES = "petersen, Kn, Cn, Pn, Qd, Km,n, Sn, Wn, products such as P3xP5"
MAX_VERTICES = 64


def _path(n: int) -> nx.Graph:
    import networkx as nx
    return nx.path_graph(n)


def _hypercube(d: int) -> nx.Graph:
    import networkx as nx
    h = nx.hypercube_graph(d)
    return nx.relabel_nodes(h, {v: int("".join(map(str, v)) or "0", 2) for v in h.nodes})


def _star(n: int) -> nx.Graph:
    import networkx as nx
    return nx.star_graph(n)


def _cycle(n: int) -> nx.Graph:
    import networkx as nx
    return nx.cycle_graph(n)


def _complete(n: int) -> nx.Graph:
    import networkx as nx
    return nx.complete_graph(n)


def _wheel(n: int) -> nx.Graph:
    import networkx as nx
    return nx.wheel_graph(n + 1)


FAMILIES: dict[str, tuple[str, Callable[[int], nx.Graph], int]] = {
    # family name: (letter of the short name, graph on parameter n, least n)
    "paths": ("P", _path, 1),
    "cycles": ("C", _cycle, 3),
    "complete": ("K", _complete, 1),
    "stars": ("S", _star, 1),
    "wheels": ("W", _wheel, 3),
    "hypercubes": ("Q", _hypercube, 0),
}


def _structure(g: nx.Graph) -> Structure:
    if g.number_of_nodes() > MAX_VERTICES:
        raise InputError("graph", f"{g.number_of_nodes()} vertices: at most {MAX_VERTICES} here")
    nodes = sorted(g.nodes)
    return Structure.graph(nodes, g.edges)


def family_graph(family: str, n: int) -> Structure:
    """The member with parameter ``n`` of a family (``paths``, ``cycles``, ``complete``,
    ``stars``, ``wheels``, ``hypercubes``).

    >>> family_graph("cycles", 4).edges
    [(0, 1), (0, 3), (1, 2), (2, 3)]
    """
    if family not in FAMILIES:
        raise InputError("family", f"unknown graph family {family!r} (one of: {', '.join(FAMILIES)})")
    letter, make, least = FAMILIES[family]
    if n < least:
        raise InputError("n", f"{family} start at n = {least}, got {n}")
    return _structure(make(n))


_SHORT = re.compile(r"([KCPQSW])_?(\d+)(?:,(\d+))?")


def _networkx(g: Structure) -> nx.Graph:
    import networkx as nx
    h: nx.Graph = nx.Graph()
    h.add_nodes_from(range(g.n))
    h.add_edges_from(g.edges)
    return h


def named_graph(text: str) -> Structure:
    """The graph a name or a graph6 string stands for (InputError naming "graph" otherwise); a
    Cartesian product of names in short form, ``P3xP5`` or ``C4xK2``, too.

    >>> g = named_graph("P3xP5"); (g.n, len(g.edges))
    (15, 22)
    >>> g = named_graph("C4xK2"); (g.n, len(g.edges))
    (8, 12)
    """
    import networkx as nx
    t = text.strip()
    if t.lower() == "petersen":
        return _structure(nx.petersen_graph())
    parts = t.split("x")
    if len(parts) > 1 and all(_SHORT.fullmatch(x) or x.lower() == "petersen" for x in parts):
        g = _networkx(named_graph(parts[0]))        # a Cartesian product in short form: P3xP5, C4xK2
        for x in parts[1:]:
            g = nx.cartesian_product(g, _networkx(named_graph(x)))
        return _structure(nx.convert_node_labels_to_integers(g, ordering="sorted"))
    m = _SHORT.fullmatch(t)
    if m:
        letter, a, b = m.group(1), int(m.group(2)), m.group(3)
        if b is not None:
            if letter != "K":
                raise InputError("graph", f"{t!r}: only K takes two sizes (K3,3)")
            return _structure(nx.complete_bipartite_graph(a, int(b)))
        family = next(f for f, (x, _, _) in FAMILIES.items() if x == letter)
        return family_graph(family, a)
    data = t[len(">>graph6<<"):] if t.startswith(">>graph6<<") else t
    if data and all(63 <= ord(c) <= 126 for c in data):
        try:
            return _structure(nx.from_graph6_bytes(data.encode("ascii")))
        except (nx.NetworkXError, ValueError, IndexError):
            pass
    raise InputError("graph", f"{t!r} is not a graph name ({GRAPH_NAMES}) nor a graph6 string")
