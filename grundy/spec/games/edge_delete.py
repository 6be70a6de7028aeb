"""The edge-delete game of Gallant, Gunther, Hartnell and Rall (selfref thesis, Section 4.3).

"In the edge-delete game, players take turns removing edges from a graph without
creating isolated vertices. The winner is the last player to make a legal move."

So an edge uv may be removed when both u and v keep another edge. Vertices that
were isolated from the start play no part.

>>> from grundy import solve
>>> solve({"game": "edge-delete", "edges": [[0, 1], [1, 2], [2, 3]]})   # P_4: remove the middle edge
{'grundy': 1, 'outcome': 'N'}
"""
from typing import Any, Iterator, cast

from grundy.spec import Expr, Field, Game, Move, Structure, SymState, any_of, count, move, read_graph, write_graph
from grundy.spec.expr import Term


class EdgeDelete(Game):
    name = "edge-delete"
    summary = ("Edge-delete (Gallant et al.): remove an edge whose removal leaves no isolated vertex. "
               "Last mover wins.")
    structure = "graph"
    decompose_over = "edges"

    def fields(self, g: Structure) -> list[Field]:
        return [Field("alive", over="edges", kind="bool")]

    def moves(self, g: Structure, s: SymState) -> Iterator[Move]:
        def keeps_an_edge(x: int, e: int) -> Expr:        # vertex x has an edge besides e
            return any_of(s.alive[f] for f in g.incident(x) if f != e)

        for e, (u, v) in enumerate(g.edges):              # remove e "without creating isolated vertices"
            yield move(f"remove {g.names[u]}-{g.names[v]}",
                       guard=s.alive[e] & keeps_an_edge(u, e) & keeps_an_edge(v, e),
                       update=s.set(alive={e: False}))

    def rank(self, g: Structure, s: SymState) -> Term:
        return count(s.alive[e] for e in range(len(g.edges)))

    def present(self, g: Structure, s: SymState, e: int) -> Term:
        return cast(Expr, s.alive[e])             # s.alive is Any to a type checker (SymState.__getattr__)

    def read(self, obj: dict[str, Any]) -> tuple[Structure, dict[str, Any]]:
        gi = read_graph(obj, nodes_required=False)
        return gi.structure, {"alive": [True] * len(gi.structure.edges)}

    def write(self, g: Structure, values: dict[str, Any]) -> dict[str, Any]:
        return write_graph(g, edges=[uv for e, uv in enumerate(g.edges) if values["alive"][e]])


GAME = EdgeDelete()
