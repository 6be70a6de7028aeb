"""The Python search (its loop with the child's frame made in place, grundy/solvers/search.py)
against a naive recursion over the moves the reference interpreter reads from the IR, on random
graphs: the same Grundy values, with and without the reductions."""
from __future__ import annotations

import itertools
from functools import lru_cache

from hypothesis import given, settings
from hypothesis import strategies as st
from test_compile_states import reference_options

from grundy.solvers.solver import Solver
from grundy.spec import Structure, make_position
from grundy.spec.game import Rules
from grundy.spec.games import get_game


@st.composite
def graphs(draw, max_n: int = 7) -> tuple[int, list[tuple[int, int]]]:
    n = draw(st.integers(2, max_n))
    pairs = list(itertools.combinations(range(n), 2))
    return n, [p for p in pairs if draw(st.integers(0, 9)) < 3]


@settings(max_examples=15, deadline=None)
@given(graphs())
def test_grim_values_are_the_naive_recursions(g):
    n, edges = g
    structure = Structure.graph(range(n), edges)
    rules = Rules(get_game("grim"), structure)

    @lru_cache(maxsize=None)
    def naive(s: tuple) -> int:
        values = {naive(t) for _, _, t in reference_options(rules, s)}
        return next(m for m in itertools.count() if m not in values)

    reduced, plain = Solver(native=False, reduce_after=0), Solver(native=False, symmetry=False, decompose=False)
    for alive in itertools.product((True, False), repeat=n):       # the whole graph first
        p = make_position("grim", structure, {"alive": list(alive)})
        want = naive(tuple(alive))
        assert reduced.grundy(p) == want and plain.grundy(p) == want, (n, edges, alive)
