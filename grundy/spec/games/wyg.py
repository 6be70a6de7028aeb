"""wyg, wynnie on graphs (selfref thesis, Section 4.3).

"Player 1 chooses an edge of G and then beginning with Player 1, the players
alternate moves on the endpoints of that edge until the edge is deleted (i.e. until
one of the endpoints has nim stack size 0). A move for a player is to remove up to k
chips from one or both endpoints of the edge, where k is the smallest [...] nim stack
of the two endpoints. Once a vertex has nim stack size 0, it cannot be used and so is
effectively deleted from the graph. If a player's move results in a vertex being
deleted [...], then the other player now chooses the next edge to play upon and
moves first."

State: ``chips`` per vertex (0 = deleted) and the ``active`` edge (-1: none, the
mover chooses). "From both" takes the same k from each end, as in wynnie (the
thesis's Figure 4.1 plays 17 21 -> 6 10). A player with no move loses.

Not a disjunctive sum, even with no active edge: a move that leaves an edge active
forces the reply onto that edge. Two single edges with chips 1, 2 each have Grundy
value 2, yet their union is N (take 1 from a 2: the reply must end that edge, and the
other edge is left to us), so this game does not decompose.

>>> from grundy import solve
>>> solve({"game": "wyg", "nodes": [[1, 1], [2, 1], [3, 1]], "edges": [[1, 2], [2, 3]]})["outcome"]
'N'
>>> solve({"game": "wyg", "nodes": [[1, 1], [2, 2], [3, 1]], "edges": [[1, 2], [2, 3]]})["outcome"]
'P'
"""
from typing import Any, Iterator

from grundy.spec import Field, Game, InputError, Structure, ite, minimum, move, read_graph, total, write_graph
from grundy.spec.expr import Expr, Term
from grundy.spec.game import Move
from grundy.spec.schema import SymState


class Wyg(Game):
    name = "wyg"
    summary = ("wyg, wynnie on graphs (selfref 4.3): with no active edge pick an edge uv with chips on "
               "both ends; on it take k, 1 <= k <= min(c(u), c(v)), from u, from v or from both. If "
               "both ends keep chips the edge stays active: the opponent must play on it. No move: "
               "you lose.")
    structure = "graph"

    def one_end(self, s: SymState, x: int, y: int) -> Expr:
        """How many chips a move on the edge xy may take from x alone: "up to k", k the smaller stack."""
        return minimum(s.chips[x], s.chips[y])

    def fields(self, g: Structure) -> list[Field]:
        return [Field("chips", over="vertices"), Field("active", kind="edge")]

    def moves(self, g: Structure, s: SymState) -> Iterator[Move]:
        c, name = s.chips, g.names
        for e, (u, v) in enumerate(g.edges):
            # the edge in play, or, with none, one the mover chooses: both ends still have chips
            on_e = (c[u] > 0) & (c[v] > 0) & ((s.active == e) | (s.active == -1))
            for x, y in ((u, v), (v, u)):                 # from one end
                yield move(f"on {name[u]}-{name[v]} take {{k}} from {name[x]}", guard=on_e,
                           choose=[("k", 1, self.one_end(s, x, y))],
                           update=lambda k: s.set(chips={x: c[x] - k},
                                                  active=ite(c[x] - k > 0, e, -1)))
            m = minimum(c[u], c[v])                       # from both ends
            yield move(f"on {name[u]}-{name[v]} take {{k}} from both", guard=on_e,
                       choose=[("k", 1, m)],
                       update=lambda k: s.set(chips={u: c[u] - k, v: c[v] - k},
                                              active=ite(k < m, e, -1)))

    def rank(self, g: Structure, s: SymState) -> Term:
        return total(s.chips[v] for v in g.vertices)

    def read(self, obj: dict[str, Any]) -> tuple[Structure, dict[str, Any]]:
        gi = read_graph(obj, node_weights=True)
        g, chips = gi.structure, gi.node_weight
        active = -1
        if "active" in obj:
            a = obj["active"]
            if not (isinstance(a, list) and len(a) == 2) or any(
                    isinstance(x, bool) or not isinstance(x, (int, str)) or x not in gi.index for x in a):
                raise InputError("active", f"must be [u, v], two vertices of the graph, got {a!r}")
            u, v = gi.index[a[0]], gi.index[a[1]]
            if not g.adjacent(u, v):
                raise InputError("active", f"{a[0]!r}-{a[1]!r} is not an edge of the graph")
            if chips[u] == 0 or chips[v] == 0:
                raise InputError("active", f"an active edge needs chips on both ends, "
                                           f"{a[0]!r}-{a[1]!r} has {chips[u]} and {chips[v]}")
            active = g.edge_id(u, v)
        return g, {"chips": chips, "active": active}

    def write(self, g: Structure, values: dict[str, Any]) -> dict[str, Any]:
        out = write_graph(g, node_weight=values["chips"])
        if values["active"] >= 0:
            u, v = g.edges[values["active"]]
            out["active"] = [g.names[u], g.names[v]]
        return out


GAME = Wyg()
