"""The edge-delete game of Gallant, Gunther, Hartnell and Rall (selfref thesis, Section 4.3).

"In the edge-delete game, players take turns removing edges from a graph without
creating isolated vertices. The winner is the last player to make a legal move."

So an edge uv may be removed when both u and v keep another edge. Vertices that
were isolated from the start play no part.

>>> from grundy import solve
>>> solve({"game": "edge-delete", "edges": [[0, 1], [1, 2], [2, 3]]})   # P_4: remove the middle edge
{'grundy': 1, 'outcome': 'N'}
"""
from grundy.spec import Field, Game, any_of, count, move, read_graph, write_graph


class EdgeDelete(Game):
    name = "edge-delete"
    summary = ("Edge-delete (Gallant et al.): remove an edge whose removal leaves no isolated vertex. "
               "Last mover wins.")
    structure = "graph"
    decompose_over = "edges"

    def fields(self, g):
        return [Field("alive", over="edges", kind="bool")]

    def moves(self, g, s):
        def keeps_an_edge(x, e):                          # vertex x has an edge besides e
            return any_of(s.alive[f] for f in g.incident(x) if f != e)

        for e, (u, v) in enumerate(g.edges):              # remove e "without creating isolated vertices"
            yield move(f"remove {g.names[u]}-{g.names[v]}",
                       guard=s.alive[e] & keeps_an_edge(u, e) & keeps_an_edge(v, e),
                       update=s.set(alive={e: False}))

    def rank(self, g, s):
        return count(s.alive[e] for e in range(len(g.edges)))

    def present(self, g, s, e):
        return s.alive[e]

    def read(self, obj):
        gi = read_graph(obj, nodes_required=False)
        return gi.structure, {"alive": [True] * len(gi.structure.edges)}

    def write(self, g, values):
        return write_graph(g, edges=[uv for e, uv in enumerate(g.edges) if values["alive"][e]])


GAME = EdgeDelete()
