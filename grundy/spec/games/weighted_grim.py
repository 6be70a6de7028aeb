"""Grim on vertex-weighted graphs (Adams et al., Int. J. Combinatorics 2016, Section 2).

"When playing Grim on a weighted graph, we only allow a vertex with weight k to be
deleted after it has been selected k times or if it has been completely isolated."

Our reading (the paper gives no more words): any vertex still in the graph may be
selected; selecting it lowers its weight by 1, and at weight 0 it is deleted with
its edges; then, as in Grim, every vertex left isolated is deleted, whatever its
weight. Isolated vertices are deleted before play. Last mover wins. A weight of 0
in the state means deleted. Theorem 8 (same outcome as Grim on the blow-up of G)
holds for this reading.

>>> from grundy import solve
>>> solve({"game": "weighted-grim", "nodes": [[1, 2], [2, 1]], "edges": [[1, 2]]})  # blow-up: P_3
{'grundy': 2, 'outcome': 'N'}
"""
from typing import Any, Iterator, cast

from grundy.spec import Expr, Field, Game, Move, Structure, SymState, any_of, ite, move, read_graph, total, write_graph
from grundy.spec.expr import Term


class WeightedGrim(Game):
    name = "weighted-grim"
    summary = ("Weighted Grim (Adams et al., Section 2): select a vertex, its weight drops by 1; it is "
               "deleted at weight 0, and then every vertex left isolated is deleted. Last mover wins.")
    structure = "graph"
    decompose_over = "vertices"

    def fields(self, g: Structure) -> list[Field]:
        return [Field("weight", over="vertices")]

    def moves(self, g: Structure, s: SymState) -> Iterator[Move]:
        def keeps_a_neighbour(u: int, v: int) -> Expr:    # u has a live neighbour besides v
            return any_of(s.weight[w] > 0 for w in g.neighbours(u) if w != v)

        for v in g.vertices:                              # select v, a vertex of the (live) graph
            stays = s.weight[v] > 1                       # selected fewer than k times so far
            yield move(f"select {g.names[v]}",
                       guard=(s.weight[v] > 0) & any_of(s.weight[u] > 0 for u in g.neighbours(v)),
                       update=s.set(weight={v: s.weight[v] - 1,
                                            **{u: ite(stays | keeps_a_neighbour(u, v), s.weight[u], 0)
                                               for u in g.neighbours(v)}}))

    def rank(self, g: Structure, s: SymState) -> Term:
        return total(s.weight[v] for v in g.vertices)

    def present(self, g: Structure, s: SymState, v: int) -> Term:
        return cast(Expr, s.weight[v] > 0)        # s.weight is Any to a type checker (SymState.__getattr__)

    def read(self, obj: dict[str, Any]) -> tuple[Structure, dict[str, Any]]:
        gi = read_graph(obj, node_weights=True, node_lower=1)
        g = gi.structure
        return g, {"weight": [w if g.degree(v) > 0 else 0 for v, w in enumerate(gi.node_weight)]}

    def write(self, g: Structure, values: dict[str, Any]) -> dict[str, Any]:
        w = values["weight"]
        return write_graph(g, node_weight=w, keep_node=lambda v: w[v] > 0,
                           edges=[(u, v) for u, v in g.edges if w[u] > 0 and w[v] > 0])


GAME = WeightedGrim()
