"""The Python search with its reductions (symmetry by slot permutations, positions split into
components: grundy/solvers/explicit/reductions.py; the search's loop,
grundy/solvers/search.py) against the search with none, on random graphs: the same values."""
from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from grundy.solvers.explicit.compile import compile_rules
from grundy.solvers.explicit.reductions import permuting
from grundy.solvers.solver import Solver
from grundy.spec import Structure, make_position
from grundy.spec.games import GAMES


@st.composite
def graphs(draw, max_n: int = 9) -> tuple[int, list[list[int]]]:
    n = draw(st.integers(2, max_n))
    pairs = list(itertools.combinations(range(n), 2))
    return n, [list(p) for p in pairs if draw(st.integers(0, 9)) < 3]


@settings(max_examples=25, deadline=None)
@given(graphs())
def test_grim_values_with_the_reductions_are_the_values_without(g):
    """reduce_after=0: the premises are asked (Z3) at once and the reductions used from the first
    position; every position of the graph (every set of vertices alive), with and without them."""
    n, edges = g
    structure = Structure.graph(range(n), [tuple(e) for e in edges])
    reduced, plain = Solver(native=False, reduce_after=0), Solver(native=False, symmetry=False, decompose=False)
    # the whole graph first: the reduced search goes deep (its loop), not child by child
    for alive in reversed(list(itertools.product((False, True), repeat=n))):
        p = make_position("grim", structure, {"alive": list(alive)})
        assert reduced.grundy(p) == plain.grundy(p), (n, edges, alive)
    t = reduced.table(GAMES["grim"], structure)
    assert t.decomposed                          # the premises proved: the reductions were in use
    assert t.symmetric or len(t.rules.symmetries) <= 1


def _plain_canonical(perms, s):
    """The least image under the permutations: the image of ``perm`` has s[i] at perm[i]."""
    images = []
    for perm in perms:
        t = [None] * len(s)
        for i, j in enumerate(perm):
            t[j] = s[i]
        images.append(tuple(t))
    return min(images)


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 7).flatmap(lambda n: st.tuples(
    st.lists(st.permutations(range(n)), min_size=1, max_size=5),
    st.lists(st.tuples(*[st.integers(0, 2)] * n), min_size=1, max_size=20))))
def test_permuting_is_the_least_image(drawn):
    perms, states = drawn
    canon = permuting(len(states[0]), [list(range(len(states[0])))] + perms)   # the identity first, as listed
    for s in states:
        assert canon(s) == _plain_canonical([range(len(s))] + perms, s)


def test_grim_canonical_forms_are_the_least_images():
    """On grim's graphs (slot permutations only, so ``permuting``): the least image."""
    rnd = random.Random(7)
    for g in [Structure.graph(range(6), [(i, i + 1) for i in range(5)]),          # P_6: a reflection
              Structure.graph(range(6), [(i, (i + 1) % 6) for i in range(6)]),    # C_6: the dihedral group
              Structure.graph(range(5), [(0, 1), (0, 2), (0, 3), (3, 4)])]:
        rules = GAMES["grim"].rules(g)
        assert len(rules.symmetries) > 1
        canon = compile_rules(rules).canonical
        perms = [perm for perm, _ in rules.symmetries]
        for _ in range(200):
            s = tuple(rnd.randint(0, 1) for _ in range(len(rules.schema)))
            assert canon(s) == _plain_canonical(perms, s)
