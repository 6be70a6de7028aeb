"""Moves built once per order (``Game.moves_per_order``, grundy/spec/order.py): the same moves,
node for node, as the game builds on the structure itself, shared by the structures of one
order; a game that reads more than the order fails (never a silent share)."""
import networkx as nx
import pytest

from grundy.spec import Field, Game, Structure, move, order
from grundy.spec.expr import _INTERN
from grundy.spec.games import get_game


def _graphs(directed: bool):
    out = []
    for n in range(1, 5):
        for i, h in enumerate(nx.graph_atlas_g()):
            if h.number_of_nodes() == n and nx.is_connected(h) and i % 3 == 0:
                edges = list(h.edges())
                if directed:
                    edges = [(a, b) for a, b in edges] + [(b, a) for a, b in edges[::2]]
                out.append(Structure.graph(range(n), edges, loops=range(0, n, 2), directed=directed))
    return out


def _same_move(a, b):
    return (a.label == b.label and a.guard is b.guard and a.fits is b.fits
            and [(c.name, c.lo, c.hi) for c in a.choices] == [(c.name, c.lo, c.hi) for c in b.choices]
            and all(x.lo is y.lo and x.hi is y.hi for x, y in zip(a.choices, b.choices, strict=True))
            and sorted(a.update) == sorted(b.update) and all(a.update[k] is b.update[k] for k in a.update))


@pytest.mark.parametrize("name,directed", [("vertexnim", False), ("directed-vertexnim", True),
                                           ("adjacent-nim", True)])
def test_moves_per_order_are_the_structures_own(name, directed):
    game = get_game(name)
    assert game.moves_per_order
    _INTERN.clear()                 # (identity is compared: no restart of the table mid-test)
    keys: dict[int, tuple] = {}
    for g in _graphs(directed):
        rules = type(game)().rules(g)                 # a fresh game object: nothing cached before
        direct = list(game.moves(g, rules.state))   # built on the structure itself
        assert len(rules.moves) == len(direct) > 0
        assert all(_same_move(a, b) for a, b in zip(rules.moves, direct, strict=True)), g
        key = rules.moves_key[0]
        assert key[1] == order.moves_part(direct)[0]
        assert keys.setdefault(g.n, key) == key      # one order, one move relation


class _ReadsEdges(Game):
    name = "reads-edges"
    structure = "graph"
    moves_per_order = True            # declared, but its moves read the edges

    def fields(self, g):
        return [Field("weight", over="vertices")]

    def moves(self, g, s):
        for u, v in g.edges:
            yield move(f"{u}-{v}", guard=s.weight[u] > 0, update=s.set(weight={u: 0}))

    def rank(self, g, s):
        return s.weight[0]


def test_a_game_reading_more_than_the_order_fails():
    rules = _ReadsEdges().rules(Structure.graph(range(2), [(0, 1)]))
    with pytest.raises(AttributeError, match="edges"):
        print(rules.moves)
