"""Structures whose automorphism group is too large to list are reduced by a subgroup (the
automorphisms fixing a few vertices: Structure.stabiliser_at_most): a group, of automorphisms,
the premise proved for its generators, and the values those of the search without symmetry."""
from __future__ import annotations

import itertools
import random

from grundy.solvers.solver import Solver
from grundy.spec import Structure, make_position
from grundy.spec.game import MAX_SYMMETRIES
from grundy.spec.games import GAMES

K44 = Structure.graph(range(8), [(u, v) for u in range(4) for v in range(4, 8)])     # 1,152 automorphisms


def _compose(a, b):
    return tuple(a[b[v]] for v in range(len(b)))


def test_a_large_group_gives_a_subgroup_of_automorphisms():
    assert K44.automorphisms_at_most(MAX_SYMMETRIES) is None
    sub = GAMES["edge-nim"].rules(K44).automorphisms
    assert 1 < len(sub) <= MAX_SYMMETRIES and sub[0] == tuple(range(8))
    edges = set(K44.edges)
    for s in sub:                                            # each an automorphism
        assert {tuple(sorted((s[u], s[v]))) for u, v in edges} == edges
    listed = set(sub)
    assert all(_compose(a, b) in listed for a, b in itertools.product(sub, repeat=2))    # closed: a group


def test_every_permutation_keeps_the_plan():
    k9 = Structure.graph(range(9), [(u, v) for u in range(9) for v in range(u)])
    assert k9.every_permutation and GAMES["edge-nim"].rules(k9).automorphisms == []


def test_values_with_the_subgroup_are_the_values_without():
    """edge-nim on K_{4,4}, weights in {0, 1, 2} (half of them 0), the token anywhere: the search reducing by the
    subgroup (its premise proved at once) against the search with no symmetry."""
    rng = random.Random(7)
    reduced, plain = Solver(native=False, reduce_after=0), Solver(native=False, symmetry=False, decompose=False)
    for _ in range(16):
        weight = [rng.choice((0, 1, 2, 0)) for _ in K44.edges]
        p = make_position("edge-nim", K44, {"weight": weight, "token": rng.randrange(8)})
        assert reduced.grundy(p) == plain.grundy(p)
    assert reduced.table(GAMES["edge-nim"], K44).symmetric          # the subgroup was in use


def test_a_directed_cycle_is_not_every_permutation():
    """A directed 3-cycle has as many arcs as K_3 has edges, but only its rotations: the S_n plan
    (Plan.of reads this property) must not take it for a complete graph."""
    c3 = Structure.graph(range(3), [(0, 1), (1, 2), (2, 0)], directed=True)
    assert not c3.every_permutation and len(c3.automorphisms) == 3
