"""The Z3 runner's speed-up changes no answer: the QF_BV solver runs with :data:`BV_PARAMS`, and a
bit-vector violation's model is the untuned QF_BV solver's (the counterexample it always was)."""
from __future__ import annotations

import z3

from grundy.solvers.smt import runner
from grundy.solvers.smt.obligations import check_partition
from grundy.spec import Structure
from grundy.spec.games import get_game


def test_bv_violation_model_is_the_untuned_solvers(monkeypatch):
    r = get_game("nim").rules(Structure.heaps(2))
    s = r.state
    wrong = s.heap[0] <= s.heap[1]                      # not Nim's P-positions: PN is violated

    def bad():
        runner.HOLDS.clear()
        out = check_partition(r, wrong, width=12, first_violation=True)
        return [(x.obligation, x.status, x.state, x.choices) for x in out]
    tuned = bad()
    monkeypatch.setattr(runner, "BV_PARAMS", {})
    plain = bad()
    assert tuned == plain and tuned[-1][1] == "violated"


def test_bv_params_are_set_on_the_bv_solver():
    s = runner.solver_for(False, True)
    assert "simplify.delay" in runner.BV_PARAMS
    assert "QF_BV" in runner._solver_name(False, True) and "simplify.delay" in runner._solver_name(False, True)
    assert s.check() == z3.sat                           # a solver that works with them
