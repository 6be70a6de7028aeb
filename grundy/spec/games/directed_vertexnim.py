"""Directed vertexnim (Duchêne–Renault, *Vertex Nim played on graphs*, Definition 2).

"Let G = (V,E) be a strong connected digraph, and let w : V → N>0 [...]. Let u ∈ V be
the starting current vertex. In this game, two players alternately decrease the value of
the current vertex u and choose an adjacent vertex of u as the new current vertex. When
the value of a vertex v is set to 0, then v is removed from G and all the pairs of arcs
(p, v) and (v, s) (with p and s not necessarily distinct) are replaced by an arc (p, s).
The game ends when G is empty. The player who made the last move wins the game."

The arcs change during play, so they are part of the state: ``arc`` over ordered vertex
pairs (the diagonal holds the loops); a removed vertex has weight 0 and no arc. The token
follows an out-arc of u (u itself only through a loop). JSON: ``"arcs"`` (or ``"edges"``),
each [p, s] an arc p -> s.

>>> from grundy import solve
>>> solve({"game": "directed-vertexnim", "nodes": [["a", 2]], "token": "a"})["grundy"]
1
>>> solve({"game": "directed-vertexnim", "nodes": [["a", 2], ["b", 2]],
...        "arcs": [["a", "b"], ["b", "a"]], "token": "a"})
{'grundy': 0, 'outcome': 'P'}
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator, cast

from grundy.spec import Field, Game, InputError, Move, Structure, move, read_graph, total, write_graph
from grundy.spec.expr import Expr, Term, all_of
from grundy.spec.schema import SymState

if TYPE_CHECKING:
    import networkx as nx


class DirectedVertexNim(Game):
    name = "directed-vertexnim"
    summary = ("Directed vertexnim (Duchene-Renault): on a strongly connected digraph, lower the weight of "
               "the token's vertex u to any smaller value >= 0, then move the token along an out-arc of u "
               "(a loop: stay). A vertex v at 0 is removed and each pair of arcs (p,v),(v,s) becomes an arc "
               "(p,s), a loop when p = s. Last mover wins.")
    structure = "digraph"
    # Symmetry: the rule reads only the state (weights, arcs, token) and treats every vertex alike,
    # so it commutes with any vertex permutation of the state, in particular with the automorphisms
    # of the initial digraph that the solver uses.

    link = "arc"                                  # the field holding the current arcs (and loops)
    moves_per_order = True    # the moves read the vertices only (the arcs are state): built once per order

    def fields(self, g: Structure) -> list[Field]:
        return [Field("weight", over="vertices"), Field("arc", over="opairs", kind="bool"),
                Field("token", kind="vertex")]

    def removed(self, g: Structure, s: SymState, u: int) -> dict[tuple[int, int], Expr | bool]:
        """The arcs once u is removed: each pair (p, u), (u, q) becomes an arc (p, q) (p = q: a loop)."""
        return {(p, q): False if u in (p, q) else s.arc[p, q] | (s.arc[p, u] & s.arc[u, q])
                for p in g.vertices for q in g.vertices}

    def moves(self, g: Structure, s: SymState) -> Iterator[Move]:
        nm, link = g.names, getattr(s, self.link)
        for u in g.vertices:
            here = (s.token == u) & (s.weight[u] > 0)
            gone = {self.link: self.removed(g, s, u)}
            for v in g.vertices:                      # decrease w(u) to k >= 1, follow an arc (u, v) (v = u: a loop)
                yield move(f"set w({nm[u]}) to {{k}}, token to {nm[v]}",
                           guard=here & link[u, v],
                           choose=[("k", 1, s.weight[u] - 1)],
                           update=lambda k: s.set(weight={u: k}, token=v))
            for v in g.vertices:                      # set w(u) to 0: u is removed, the token follows an arc (u, v)
                if v != u:
                    yield move(f"set w({nm[u]}) to 0 ({nm[u]} removed), token to {nm[v]}",
                               guard=here & link[u, v],
                               update=s.set(weight={u: 0}, token=v, **gone))
            yield move(f"set w({nm[u]}) to 0 ({nm[u]} removed), the graph is empty",   # u was the last vertex
                       guard=here & all_of((v for v in g.vertices if v != u), lambda v: ~link[u, v]),
                       update=s.set(weight={u: 0}, **gone))

    def rank(self, g: Structure, s: SymState) -> Term:
        return total(s.weight[v] for v in g.vertices)

    def read(self, obj: dict[str, Any]) -> tuple[Structure, dict[str, Any]]:
        if "arcs" in obj and "edges" in obj:
            raise InputError("edges", "give the arcs as \"arcs\" or as \"edges\", not both")
        gi = read_graph(obj, node_weights=True, loops=True, node_lower=1, directed=True)
        g = gi.structure
        import networkx as nx
        if g.n and not nx.is_strongly_connected(cast("nx.DiGraph[Any]", g.to_networkx())):
            raise InputError("arcs" if "arcs" in obj else "edges", "the digraph must be strongly connected")
        token = gi.vertex(obj) if g.n or "token" in obj else 0   # no vertex left: the game is over
        return g, {"weight": gi.node_weight, "arc": arcs_of(g), "token": token}

    def write(self, g: Structure, values: dict[str, Any]) -> dict[str, Any]:
        return write_current(g, values, self.link)


def write_current(g: Structure, values: dict[str, Any], field: str) -> dict[str, Any]:
    """The current graph (vertices of positive weight, the edges or arcs in ``values[field]``) as JSON."""
    w, a = values["weight"], values[field]
    edges = [(p, q) for (p, q), on in sorted(a.items()) if on and p != q]
    loops = [p for (p, q), on in sorted(a.items()) if on and p == q]
    out = write_graph(g, node_weight=w, keep_node=lambda v: w[v] > 0, edges=edges, loops=loops)
    if w.get(values["token"], 0) > 0:
        out["token"] = g.names[values["token"]]
    return out


def arcs_of(g: Structure) -> dict[tuple[int, int], bool]:
    """The ``arc`` field of a digraph's initial position."""
    return {(p, q): g.has_loop(p) if p == q else g.adjacent(p, q) for p in g.vertices for q in g.vertices}


GAME = DirectedVertexNim()
