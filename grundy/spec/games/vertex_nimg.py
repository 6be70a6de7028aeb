"""Vertex NimG, Stockman's *remove then move* convention, as Duchêne–Renault describe it.

"The variant Remove then move of Vertex NimG is the one that was considered by Stockman"
(Section 1); "In Fukuyama's or Stockman's definitions, the game ends when the player is
blocked because of a null weight"; "vertices of null weight are never removed, and a
player who must play from a 0 loses" (Remark 5, for digraphs); Corollary 12 allows
"vertices of null weight at the beginning".

A move lowers w(u) (u: the token's vertex) by a positive amount, then moves the token to
a neighbour of u (an out-neighbour in a digraph; u itself through a loop). The graph
never changes. A player who cannot move loses: the token's vertex has weight 0 -- or,
a case the paper never meets on its connected graphs, it has no neighbour and no loop,
so no move can be completed (a single vertex without loop is thus P whatever its weight;
this agrees with Corollary 12's first case, "w(u) = 1 and u has no self loop: P").
The graph need not be connected. JSON: ``"edges"`` for a graph, ``"arcs"`` for a digraph.

>>> from grundy import solve
>>> solve({"game": "vertex-nimg", "nodes": [["a", 5]], "loops": ["a"], "token": "a"})["grundy"]
5
>>> solve({"game": "vertex-nimg", "nodes": [["a", 5]], "token": "a"})["outcome"]
'P'
"""
from __future__ import annotations

from typing import Any, Iterator

from grundy.spec import Field, Game, InputError, Move, Structure, SymState, move, read_graph, total, write_graph
from grundy.spec.expr import Term


class VertexNimG(Game):
    name = "vertex-nimg"
    summary = ("Vertex NimG (Stockman, remove then move): lower the weight of the token's vertex u by a "
               "positive amount, then move the token to a neighbour of u (out-neighbour in a digraph; a "
               "loop: stay). Zero-weight vertices stay. A player on a vertex of weight 0 (or with nowhere "
               "to go) loses. Graph or digraph (given by \"arcs\").")
    structure = "graph"
    # Symmetry: the rule reads the fixed structure only through its arcs and loops, which the
    # structure's automorphisms preserve, so every automorphism maps moves to moves.

    def fields(self, g: Structure) -> list[Field]:
        return [Field("weight", over="vertices"), Field("token", kind="vertex")]

    def moves(self, g: Structure, s: SymState) -> Iterator[Move]:
        nm = g.names
        for u in g.vertices:
            for v in g.neighbours(u) + ([u] if g.has_loop(u) else []):   # a neighbour of u (u: its loop)
                yield move(f"set w({nm[u]}) to {{k}}, token to {nm[v]}",
                           guard=s.token == u,
                           choose=[("k", 0, s.weight[u] - 1)],          # lower w(u) by a positive amount
                           update=lambda k: s.set(weight={u: k}, token=v))

    def rank(self, g: Structure, s: SymState) -> Term:
        return total(s.weight[v] for v in g.vertices)

    def read(self, obj: dict[str, Any]) -> tuple[Structure, dict[str, Any]]:
        if "arcs" in obj and "edges" in obj:
            raise InputError("edges", "give \"edges\" (a graph) or \"arcs\" (a digraph), not both")
        gi = read_graph(obj, node_weights=True, loops=True, directed="arcs" in obj)
        return gi.structure, {"weight": gi.node_weight, "token": gi.vertex(obj)}

    def write(self, g: Structure, values: dict[str, Any]) -> dict[str, Any]:
        return {**write_graph(g, node_weight=values["weight"]), "token": g.names[values["token"]]}


GAME = VertexNimG()
