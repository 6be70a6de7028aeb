"""Fukuyama's Nim on graphs (Erickson's thesis, §1): weighted edges, a token on a vertex.

"A move consists of choosing an edge incident to the token with positive weight,
reducing its weight to a smaller non-negative integer, and moving the token
across it. The player who cannot move loses."

>>> from grundy import solve
>>> solve({"game": "edge-nim", "edges": [[0, 1, 3]], "token": 0})["grundy"]
3
"""
from typing import Any, Iterator

from grundy.spec import Field, Game, Move, Structure, SymState, move, read_graph, total, write_graph
from grundy.spec.expr import Term


class EdgeNim(Game):
    name = "edge-nim"
    summary = ("Nim on graphs (Fukuyama): pick an edge at the token with weight > 0, lower its weight "
               "to any smaller value >= 0, and move the token across it. No move: you lose. "
               "All weights 1 = undirected edge geography.")
    structure = "graph"

    def fields(self, g: Structure) -> list[Field]:
        return [Field("weight", over="edges"), Field("token", kind="vertex")]

    def moves(self, g: Structure, s: SymState) -> Iterator[Move]:
        for u, v in g.arcs:                               # an edge at the token, crossed u -> v
            e = g.edge_id(u, v)
            yield move(f"{g.names[u]}->{g.names[v]}, weight set to {{w}}",
                       guard=(s.token == u) & (s.weight[e] > 0),
                       choose=[("w", 0, s.weight[e] - 1)],  # lower it to a smaller value
                       update=lambda w: s.set(weight={e: w}, token=v))

    def rank(self, g: Structure, s: SymState) -> Term:
        return total(s.weight[e] for e in range(len(g.edges)))

    def read(self, obj: dict[str, Any]) -> tuple[Structure, dict[str, Any]]:
        gi = read_graph(obj, edge_weights=True, nodes_required=False)
        return gi.structure, {"weight": gi.edge_weight, "token": gi.vertex(obj)}

    def write(self, g: Structure, values: dict[str, Any]) -> dict[str, Any]:
        return {**write_graph(g, edge_weight=values["weight"]), "token": g.names[values["token"]]}


GAME = EdgeNim()
