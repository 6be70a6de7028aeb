"""Published claims grundy refutes, re-checked by plain code written here (no grundy code).

Each witness is the one ``grundy verify`` reports; the outcome the paper claims comes from
the paper's words; the true outcome from a memoized recursion over (weights, token) written
from Fukuyama's rule alone. grundy's solver must agree with the recursion on both paths.
"""
from functools import lru_cache

import networkx as nx
import pytest

from grundy import Solver
from grundy.spec import read_position


def petersen_edges():
    return sorted(tuple(sorted(e)) for e in nx.petersen_graph().edges)


def plain_mover_wins(edges, weights, token):
    """Fukuyama's Nim on graphs: lower an edge at the token to a smaller weight, cross it."""
    at = {}
    for i, (a, b) in enumerate(edges):
        at.setdefault(a, []).append((i, b))
        at.setdefault(b, []).append((i, a))

    @lru_cache(maxsize=None)
    def wins(ws, t):
        return any(not wins(ws[:i] + (w,) + ws[i + 1:], nxt)
                   for i, nxt in at.get(t, []) for w in range(ws[i]))
    return wins(tuple(weights), token)


def erickson_weights():
    """Edge {0, 1} weight 1 (the unique minimum), edge {6, 9} weight 3, the other 13 weight 2."""
    return [1 if e == (0, 1) else 3 if e == (6, 9) else 2 for e in petersen_edges()]


@pytest.mark.parametrize("token, distance, paper_says", [
    (2, 1, "P"),     # Proposition 5.6: minimum edge at distance one from the token: P2 wins
    (7, 2, "N"),     # Proposition 5.7: at distance two: P1 wins
])
def test_erickson_props_5_6_and_5_7_fail_on_the_petersen_graph(token, distance, paper_says):
    edges, weights = petersen_edges(), erickson_weights()
    g = nx.petersen_graph()
    assert min(nx.shortest_path_length(g, token, v) for v in (0, 1)) == distance
    assert sorted(weights).count(1) == 1                         # exactly one edge of minimum weight
    truth = "N" if plain_mover_wins(edges, weights, token) else "P"
    assert truth != paper_says
    pos = read_position({"game": "edge-nim", "edges": [[a, b, w] for (a, b), w in zip(edges, weights)],
                         "token": token})
    assert Solver(native=False).outcome(pos) == truth
    assert Solver(native="always").outcome(pos) == truth


def test_with_the_other_edges_equal_the_propositions_hold_here():
    """The same positions with the 3 lowered to 2 (all others equal): as the paper says."""
    edges = petersen_edges()
    weights = [1 if e == (0, 1) else 2 for e in edges]
    assert plain_mover_wins(edges, weights, 2) is False          # 5.6: P
    assert plain_mover_wins(edges, weights, 7) is True           # 5.7: N
