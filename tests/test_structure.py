"""Structure: automorphisms found by the backtracking search against networkx's matcher."""
from __future__ import annotations

import random

import networkx as nx
import pytest

from grundy.spec.structure import Structure


def _networkx_automorphisms(s: Structure) -> list[tuple[int, ...]]:
    g = s.to_networkx()
    for v in g.nodes:
        g.nodes[v]["loop"] = v in s.loops
    cls = nx.algorithms.isomorphism.DiGraphMatcher if s.directed else nx.algorithms.isomorphism.GraphMatcher
    m = cls(g, g, node_match=lambda a, b: a["loop"] == b["loop"])
    return sorted(tuple(x[i] for i in range(s.n)) for x in m.isomorphisms_iter())


@pytest.mark.parametrize("seed", range(60))
def test_automorphisms_match_networkx(seed: int) -> None:
    rng = random.Random(seed)
    n = rng.randint(1, 7)
    directed = seed % 3 == 0
    p = rng.choice((0.2, 0.5, 0.8, 1.0))
    pairs = [(u, v) for u in range(n) for v in range(n) if u != v and (directed or u < v) and rng.random() < p]
    loops = [v for v in range(n) if rng.random() < 0.2]
    s = Structure.graph(range(n), pairs, loops, directed=directed)
    assert s.automorphisms == _networkx_automorphisms(s)


def test_named_groups() -> None:
    petersen = Structure.from_networkx(nx.petersen_graph())
    assert len(petersen.automorphisms) == 120
    cube = Structure.from_networkx(nx.convert_node_labels_to_integers(nx.hypercube_graph(3)))
    assert len(cube.automorphisms) == 48
    k5 = Structure.from_networkx(nx.complete_graph(5))
    assert len(k5.automorphisms) == 120
    assert Structure.from_networkx(nx.complete_graph(9)).automorphisms_at_most(256) is None
    cycle = Structure.graph(range(6), [(i, (i + 1) % 6) for i in range(6)], directed=True)
    assert len(cycle.automorphisms) == 6
