"""Structure: automorphisms found by the backtracking search against networkx's matcher."""
from __future__ import annotations

import itertools
import random

import networkx as nx
import pytest

from grundy.spec.structure import Structure


def _networkx_automorphisms(s: Structure) -> list[tuple[int, ...]]:
    return sorted(_networkx_iter(s))


def _random_graph(rng: random.Random, n: int, directed: bool, p: float, loop_p: float) -> Structure:
    """A graph (or digraph) on 0..n-1: each pair (each arc) with probability ``p``, each loop
    with ``loop_p``."""
    pairs = [(u, v) for u in range(n) for v in range(n) if u != v and (directed or u < v) and rng.random() < p]
    loops = [v for v in range(n) if rng.random() < loop_p]
    return Structure.graph(range(n), pairs, loops, directed=directed)


@pytest.mark.parametrize("seed", range(60))
def test_automorphisms_match_networkx(seed: int) -> None:
    rng = random.Random(seed)
    s = _random_graph(rng, rng.randint(1, 7), seed % 3 == 0, rng.choice((0.2, 0.5, 0.8, 1.0)), 0.2)
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


@pytest.mark.parametrize("seed", range(24))
def test_automorphisms_of_larger_graphs_match_networkx(seed: int) -> None:
    """Beyond 12 vertices too (the backtracking search serves every size): random sparse and
    dense graphs and digraphs with loops, 13 to 22 vertices."""
    rng = random.Random(1000 + seed)
    n = rng.randint(13, 22)
    directed = seed % 4 == 0
    s = _random_graph(rng, n, directed, rng.choice((0.1, 0.15, 0.9)) if not directed else 0.1, 0.1)
    found = s.automorphisms_at_most(256)
    want = _networkx_automorphisms(s) if found is not None else None
    assert found == want or (found is None and len(list(itertools.islice(_networkx_iter(s), 257))) > 256)


def _networkx_iter(s: Structure):
    """networkx's VF2 matcher; on a dense undirected graph, on its complement (the same
    automorphisms: VF2 takes a minute on a 20-vertex graph of density 0.9)."""
    g = s.to_networkx()
    if not s.directed and 2 * len(s.edges) > s.n * (s.n - 1) // 2:
        g = nx.complement(g)
    for v in g.nodes:
        g.nodes[v]["loop"] = v in s.loops
    cls = nx.algorithms.isomorphism.DiGraphMatcher if s.directed else nx.algorithms.isomorphism.GraphMatcher
    m = cls(g, g, node_match=lambda a, b: a["loop"] == b["loop"])
    return (tuple(x[i] for i in range(s.n)) for x in m.isomorphisms_iter())


@pytest.mark.parametrize("make, order", [
    (lambda: nx.cycle_graph(32), 64),                                   # dihedral D_32
    (lambda: nx.path_graph(45), 2),
    (lambda: nx.hypercube_graph(4), 384),                               # above the limit: None
    (lambda: nx.dodecahedral_graph(), 120),
    (lambda: nx.desargues_graph(), 240),
    (lambda: nx.random_regular_graph(3, 40, seed=5), None),             # rigid (checked below)
    (lambda: nx.wheel_graph(22), 42),
])
def test_automorphism_groups_of_known_large_graphs(make, order) -> None:
    s = Structure.from_networkx(nx.convert_node_labels_to_integers(make()))
    want = _networkx_automorphisms(s) if order != 384 else None
    found = s.automorphisms_at_most(256)
    if order == 384:
        assert found is None
        return
    assert found == want
    if order is not None:
        assert len(found) == order


def _search_order(s: Structure) -> list[int]:
    """The backtracking search's order of the vertices, written again: breadth-first from each
    vertex not yet reached, the roots by decreasing degree (out and in), neighbours in order."""
    nbrs = [sorted(set(s.neighbours(v)) | set(s.in_neighbours(v))) for v in range(s.n)]
    order: list[int] = []
    seen: set[int] = set()
    for r in sorted(range(s.n), key=lambda v: (-len(s.neighbours(v)) - len(s.in_neighbours(v)), v)):
        if r in seen:
            continue
        seen.add(r)
        order.append(r)
        k = len(order) - 1
        while k < len(order):
            for w in nbrs[order[k]]:
                if w not in seen:
                    seen.add(w)
                    order.append(w)
            k += 1
    return order


@pytest.mark.parametrize("seed", range(40))
def test_pointwise_stabilisers_match_networkx(seed: int) -> None:
    """The search fixing the first k vertices of its order (``stabiliser_at_most``'s subgroups)
    lists exactly the automorphisms (networkx's) that fix those vertices, for every k, on
    random graphs and digraphs with loops: the arcs between a new vertex and the placed ones
    are checked from their neighbours alone."""
    rng = random.Random(5000 + seed)
    s = _random_graph(rng, rng.randint(2, 8), seed % 3 == 0, rng.choice((0.2, 0.4, 0.6, 0.9)), 0.25)
    group = _networkx_automorphisms(s)
    order = _search_order(s)
    for k in range(s.n + 1):
        want = [a for a in group if all(a[v] == v for v in order[:k])]
        assert sorted(s._backtrack(k)) == want
