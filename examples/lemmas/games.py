"""Node Kayles, as in the guide (docs/writing-games.md, section 1)."""
from grundy.spec import GraphGame, move


class NodeKayles(GraphGame):
    name = "node-kayles"
    summary = "Node Kayles: delete a vertex and its neighbours. Last mover wins."

    def moves(self, g, s):
        for v in g.vertices:
            yield move(f"take {g.names[v]}", guard=s.alive[v],
                       update=s.set(alive={v: False, **{u: False for u in g.neighbours(v)}}))


NODE_KAYLES = NodeKayles()
