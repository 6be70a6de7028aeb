"""Two vertex games for the every-n example: Node Kayles (as in docs/writing-games.md) and a
variant whose rule names a vertex (vertex 0 must stay until last), which counting refuses."""
from grundy.spec import GraphGame, move


class NodeKayles(GraphGame):
    name = "node-kayles"
    summary = "Node Kayles: delete a vertex and its neighbours. Last mover wins."

    def moves(self, g, s):
        for v in g.vertices:
            yield move(f"take {g.names[v]}", guard=s.alive[v],
                       update=s.set(alive={v: False, **{u: False for u in g.neighbours(v)}}))


class KeepZero(GraphGame):
    name = "node-kayles-keep-0"
    summary = "Node Kayles, but vertex 0 may be taken only when no other vertex is left."

    def moves(self, g, s):
        for v in g.vertices:
            guard = s.alive[v]
            if v == 0:                         # names a vertex: not the same rule at every vertex
                for u in g.vertices:
                    if u != 0:
                        guard = guard & ~s.alive[u]
            yield move(f"take {g.names[v]}", guard=guard,
                       update=s.set(alive={v: False, **{u: False for u in g.neighbours(v)}}))


NODE_KAYLES = NodeKayles()
KEEP_ZERO = KeepZero()
