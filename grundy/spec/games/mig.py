"""mig, minnie on graphs (selfref thesis, Chapter 6, Question 6.3).

"The best way to define minnie on graphs may be as a game in which each turn the
active player chooses a vertex and removes up to the minimum stack size in that
vertex's closed neighbourhood from that vertex."

As in minnie, "once a stack is reduced to 0 chips, it ceases to exist": the
minimum is over the non-empty stacks of the closed neighbourhood, and the chosen
vertex must have chips. A player with no move loses. A move reads and changes only
chips in one component of the graph of non-empty vertices, so components are a
disjunctive sum. On K_n this is minnie; with one chip everywhere, parity decides.

>>> from grundy import solve
>>> solve({"game": "mig", "nodes": [[0, 3], [1, 8]], "edges": [[0, 1]]})["outcome"]   # minnie [3, 8]
'P'
"""
from typing import Any, Iterator, cast

from grundy.spec import Field, Game, InputError, Structure, ite, minimum, move, read_graph, total, write_graph
from grundy.spec.expr import Expr, Term
from grundy.spec.game import Move
from grundy.spec.schema import SymState


class Mig(Game):
    name = "mig"
    summary = ("mig, minnie on graphs (selfref Q6.3): at a vertex v take k, 1 <= k <= the smallest "
               "non-zero chip count in v's closed neighbourhood. No move: you lose.")
    structure = "graph"
    decompose_over = "vertices"

    def fields(self, g: Structure) -> list[Field]:
        return [Field("chips", over="vertices")]

    def moves(self, g: Structure, s: SymState) -> Iterator[Move]:
        c = s.chips
        for v in g.vertices:
            # the smallest non-empty stack in N[v]: an empty neighbour stands in as c[v], which never lowers it
            smallest = minimum(c[v], *[ite(c[w] > 0, c[w], c[v]) for w in g.neighbours(v)])
            yield move(f"take {{k}} from {g.names[v]}", guard=c[v] > 0,
                       choose=[("k", 1, smallest)],
                       update=lambda k: s.set(chips={v: c[v] - k}))

    def rank(self, g: Structure, s: SymState) -> Term:
        return total(s.chips[v] for v in g.vertices)

    def present(self, g: Structure, s: SymState, v: int) -> Term:
        return cast(Expr, s.chips[v] > 0)         # s.chips is Any to a type checker (SymState.__getattr__)

    def read(self, obj: dict[str, Any]) -> tuple[Structure, dict[str, Any]]:
        if "active" in obj:
            raise InputError("active", "mig has no active edge")
        gi = read_graph(obj, node_weights=True)
        return gi.structure, {"chips": gi.node_weight}

    def write(self, g: Structure, values: dict[str, Any]) -> dict[str, Any]:
        return write_graph(g, node_weight=values["chips"])


GAME = Mig()
