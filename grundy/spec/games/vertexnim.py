"""Undirected vertexnim (Duchêne–Renault, *Vertex Nim played on graphs*, Definition 1).

"Let G = (V,E) be an undirected connected graph, let w : V → N>0 [...]. Let u ∈ V be a
starting current vertex. In this game, two players alternately decrease the value of the
current vertex u and choose an adjacent vertex of u as the new current vertex. When the
value w(v) of a vertex v is set to 0, then v and its incident edges are removed from G,
the subgraph N(v) of G becomes a clique, and a loop is added on each vertex of N(v). The
game ends when G is empty. The player who makes the last move wins the game."

The graph changes during play, so it is part of the state: ``adj`` over vertex pairs
(the diagonal holds the loops); a removed vertex has weight 0 and no pair. The token may
stay on u only through a loop; when u is set to 0 it goes to a former neighbour, and when
u had no other neighbour the graph is now empty and the game is over.

>>> from grundy import solve
>>> solve({"game": "vertexnim", "nodes": [["a", 3]], "loops": ["a"], "token": "a"})["grundy"]
3
>>> solve({"game": "vertexnim", "nodes": [["a", 1], ["b", 1]], "edges": [["a", "b"]], "token": "a"})
{'grundy': 0, 'outcome': 'P'}
"""
from __future__ import annotations

from typing import Any

from grundy.spec import Field, InputError, Structure, read_graph
from grundy.spec.expr import Expr
from grundy.spec.schema import SymState

from .directed_vertexnim import DirectedVertexNim


class VertexNim(DirectedVertexNim):
    name = "vertexnim"
    summary = ("Undirected vertexnim (Duchene-Renault): lower the weight of the token's vertex u to any "
               "smaller value >= 0, then move the token to a neighbour of u (u itself only through a loop). "
               "A vertex at 0 is removed; its neighbours become a clique, each with a loop. Last mover wins.")
    structure = "graph"
    # Symmetry: the rule (the inherited moves) never reads the initial graph, only the state (weights, adj, token),
    # and treats every vertex alike, so it commutes with every vertex permutation acting on the
    # state -- in particular with the automorphisms of the initial graph that the solver uses.

    link = "adj"       # the moves are directed-vertexnim's, read on a symmetric adjacency

    def fields(self, g: Structure) -> list[Field]:
        return [Field("weight", over="vertices"), Field("adj", over="pairs", kind="bool"),
                Field("token", kind="vertex")]

    def removed(self, g: Structure, s: SymState, u: int) -> dict[tuple[int, int], Expr | bool]:
        """The adjacency once u is removed: its edges go, N(u) becomes a clique, each of N(u) gets a loop."""
        out: dict[tuple[int, int], Expr | bool] = {}
        for p in g.vertices:
            for q in range(p, g.n):
                if u in (p, q):
                    out[p, q] = False                                     # u and its incident edges are removed
                elif p == q:
                    out[p, p] = s.adj[p, p] | s.adj[u, p]                # a loop on each vertex of N(u)
                else:
                    out[p, q] = s.adj[p, q] | (s.adj[u, p] & s.adj[u, q])  # N(u) becomes a clique
        return out

    def read(self, obj: dict[str, Any]) -> tuple[Structure, dict[str, Any]]:
        if "arcs" in obj:
            raise InputError("arcs", "vertexnim is played on an undirected graph: give \"edges\" "
                             "(or use directed-vertexnim)")
        gi = read_graph(obj, node_weights=True, loops=True, node_lower=1)
        g = gi.structure
        import networkx as nx
        if g.n and not nx.is_connected(g.to_networkx()):
            raise InputError("edges", "the graph must be connected")
        adj = {(p, q): (p == q and g.has_loop(p)) or g.adjacent(p, q)
               for p in g.vertices for q in range(p, g.n)}
        token = gi.vertex(obj) if g.n or "token" in obj else 0   # no vertex left: the game is over
        return g, {"weight": gi.node_weight, "adj": adj, "token": token}


GAME = VertexNim()
