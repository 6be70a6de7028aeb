"""The solver as a policy over value sources (grundy.solvers.sources): the order they are asked
in, a source declining (None) or answering, the Python search handing its table to the kernel or
to the premises, and batches grouped by game, equal structure and convention."""
from __future__ import annotations

import pytest

from grundy.solvers.coins import COIN_TURNING_SOURCE
from grundy.solvers.misere.source import QUOTIENT
from grundy.solvers.native.build import available
from grundy.solvers.solver import HEAP_TABLES, KERNEL, PYTHON, Solver
from grundy.solvers.source_log import SourceLog
from grundy.solvers.theorems import THEOREM
from grundy.spec import read_position

native = pytest.mark.skipif(not available(), reason="no C compiler")


def wythoff(a: int, b: int, convention: str = "normal"):
    return read_position({"game": "wythoff", "heaps": [a, b], "convention": convention})


def test_the_sources_are_asked_in_order():
    assert [s.name for s in Solver().sources] == [THEOREM, QUOTIENT, HEAP_TABLES, COIN_TURNING_SOURCE, KERNEL,
                                                PYTHON]   # no theorem until served


class Seven:
    """A source answering every Grundy question with 7, and nothing else."""

    name, premises = "seven", "none"

    def __init__(self):
        self.asked = 0

    def can_answer(self, solver, q):
        return q.question == "grundy"

    def values(self, solver, q, states):
        self.asked += 1
        return [7] * len(states)


class Never(Seven):
    name = "never"

    def can_answer(self, solver, q):
        return True

    def values(self, solver, q, states):
        self.asked += 1
        return None


def test_a_source_declining_passes_the_question_on_and_the_first_answer_serves():
    s = Solver(native=False)
    never, seven = Never(), Seven()
    s.sources = (never, seven, *s.sources)
    assert s.grundy(wythoff(1, 2)) == 7 and s.grundy_states(*_on(wythoff(1, 2)), [(1, 2), (0, 0)]) == [7, 7]
    assert s.mover_wins(wythoff(1, 2)) is False       # (a P-position) not a Grundy question: the solver's own sources
    assert never.asked == 3 and seven.asked == 2


def _on(p):
    return p.game, p.structure


def test_the_premises_are_asked_once_the_python_search_has_stored_reduce_after_positions():
    plain = Solver(native=False, reduce_after=10**9)
    s = Solver(native=False, reduce_after=10)
    p = wythoff(12, 17)
    s.log = SourceLog()
    assert s.grundy(p) == plain.grundy(p)
    t = s.table(p.game, p.structure)
    assert t.asked and t.symmetric and not plain.table(p.game, p.structure).asked
    assert list(s.log.summary()) == ["Python search with symmetry (S_2 on heaps) proved by construction, 1 generator"]


def _k6_edge_nim():
    edges = [[u, v, 1] for u in range(6) for v in range(u)]
    return read_position({"game": "edge-nim", "nodes": list(range(6)), "edges": edges, "token": 0})


@native
def test_the_python_search_does_not_ask_for_a_premise_it_could_not_use():
    # K_6's 720 automorphisms are too many for the Python path's canonical form (a native
    # solver leaves S_n to the kernel): proving the symmetry premise would save nothing
    p = _k6_edge_nim()
    s, plain = Solver(reduce_after=10), Solver(native=False, symmetry=False, decompose=False)
    assert s.mover_wins(p) == plain.mover_wins(p)
    t = s.table(p.game, p.structure)
    assert t.py_stored > 4 * 10 and t.premises == {} and not t.asked
    assert t.ask_after > t.py_stored          # asked again once 4 times as many are stored


def test_the_python_search_asks_for_the_premises_it_would_use():
    p = _k6_edge_nim()                        # without a kernel, the S_n plan reduces in Python
    s = Solver(native=False, reduce_after=10)
    assert s.mover_wins(p) == Solver(native=False, symmetry=False).mover_wins(p)
    assert s.table(p.game, p.structure).symmetric
    path = read_position({"game": "grim", "nodes": list(range(12)), "edges": [[i, i + 1] for i in range(11)]})
    s = Solver(reduce_after=10)               # grim on P_12: positions split into sub-paths
    assert s.grundy(path) == Solver(native=False, symmetry=False, decompose=False).grundy(path)
    t = s.table(path.game, path.structure)
    assert t.asked and t.symmetric and t.decomposed


@native
def test_the_python_search_hands_a_large_table_to_the_kernel(tune):
    tune(native_after=50)
    s, plain = Solver(), Solver(native=False)
    s.log = SourceLog()
    p = wythoff(20, 31)
    assert s.grundy(p) == plain.grundy(p)
    t = s.table(p.game, p.structure)
    assert t.in_use and t.py_stored == 51 and t.kernels
    assert [k.split(" with ")[0] for k in s.log.summary()] == [KERNEL]
    q = wythoff(3, 5, "misere")           # the table is in use: the kernel from the first position
    assert s.mover_wins(q) == plain.mover_wins(q)


@native
def test_a_batch_groups_equal_structures_and_goes_to_the_kernel():
    a, b = wythoff(3, 5), wythoff(4, 7)
    assert a.structure == b.structure and a.structure is not b.structure
    s = Solver()
    s.log = SourceLog()
    assert s.grundy_many([a, b, wythoff(2, 2)]) == [0, 0, 1]
    assert [k.split(" with ")[0] for k in s.log.summary()] == [KERNEL]
    assert s.mover_wins_many([a, b, wythoff(2, 2)]) == [False, False, True]


def test_no_kernel_no_batch_of_outcomes():
    s = Solver(native=False)
    p = wythoff(3, 5)
    assert s.mover_wins_states(p.game, p.structure, [(3, 5), (1, 1)]) is None
    assert s.mover_wins_many([p, wythoff(1, 1)]) == [False, True]
