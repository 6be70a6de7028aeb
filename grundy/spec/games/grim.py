"""Grim, the vertex deletion game (Adams et al., Int. J. Combinatorics 2016, Definition 4).

"a legal move of Grim on G [is] a player selecting and consequently deleting a
vertex. When this vertex is deleted all edges adjacent to this vertex are also
deleted, together with any other vertices (if any) that have become isolated
because of the move. [...] if G had any isolated vertices these would be deleted
before the first player can move. [...] We refer to the winner of the game [...]
as the player who makes the last legal move."

A vertex is ``alive`` until deleted; reading a position deletes its isolated
vertices. An alive vertex without alive neighbours (a state that reading never
produces) counts as already deleted: it cannot be selected.

>>> from grundy import solve
>>> solve({"game": "grim", "edges": [[1, 2], [2, 3]]})          # P_3: take the centre
{'grundy': 2, 'outcome': 'N'}
>>> solve({"game": "grim", "edges": [[1, 2], [2, 3], [3, 4], [4, 1]]})["outcome"]   # C_4
'P'
"""
from typing import Any, Iterator, cast

from grundy.spec import Expr, Field, Game, Move, Structure, SymState, any_of, count, move, read_graph, write_graph
from grundy.spec.expr import Term


class Grim(Game):
    name = "grim"
    summary = ("Grim (Adams et al.): delete a vertex and its edges, then every vertex left isolated "
               "(isolated vertices are deleted before play). Last mover wins.")
    structure = "graph"
    decompose_over = "vertices"

    def fields(self, g: Structure) -> list[Field]:
        return [Field("alive", over="vertices", kind="bool")]

    def moves(self, g: Structure, s: SymState) -> Iterator[Move]:
        def keeps_a_neighbour(u: int, v: int) -> Expr:    # u has an alive neighbour besides v
            return any_of(s.alive[w] for w in g.neighbours(u) if w != v)

        for v in g.vertices:                              # "selecting and consequently deleting a vertex"
            yield move(f"delete {g.names[v]}",
                       guard=s.alive[v] & any_of(s.alive[u] for u in g.neighbours(v)),
                       update=s.set(alive={v: False,      # ... and the vertices that have become isolated
                                           **{u: s.alive[u] & keeps_a_neighbour(u, v)
                                              for u in g.neighbours(v)}}))

    def rank(self, g: Structure, s: SymState) -> Term:
        return count(s.alive[v] for v in g.vertices)

    def present(self, g: Structure, s: SymState, v: int) -> Term:
        return cast(Expr, s.alive[v])             # s.alive is Any to a type checker (SymState.__getattr__)

    def read(self, obj: dict[str, Any]) -> tuple[Structure, dict[str, Any]]:
        gi = read_graph(obj, nodes_required=False)
        g = gi.structure
        return g, {"alive": [g.degree(v) > 0 for v in g.vertices]}

    def write(self, g: Structure, values: dict[str, Any]) -> dict[str, Any]:
        alive = values["alive"]
        return write_graph(g, keep_node=lambda v: alive[v],
                           edges=[(u, v) for u, v in g.edges if alive[u] and alive[v]])


GAME = Grim()
