"""The integer queries' tuned tactic (:data:`runner.INT_PARAMS`: Z3's simplex-based arithmetic
solver) changes no answer: planted false claims on unbounded integers are refuted with the same
state and move as without it, true ones still hold, a tuned tactic that gives up is followed by
the untuned one, and a violation's model is the untuned tactic's."""
from __future__ import annotations

import z3

from grundy.solvers.smt import runner
from grundy.solvers.smt.encode import encoding
from grundy.solvers.smt.obligations import check_grundy_formula, check_partition
from grundy.spec import Structure, Var, maximum, minimum
from grundy.spec.games import get_game

MINNIE = get_game("minnie").rules(Structure.heaps(2))


def _minnie_p(s, three_from: int):
    # selfref Theorem 5.2 (P iff [1, 2i+1], [2, 4i+2], [3, 4i] for i >= 2, [4, 4]); planted with
    # [3, 4i] from i >= 1 instead (three_from = 4): refuted at [3, 4]
    a, b = minimum(s.heap[0], s.heap[1]), maximum(s.heap[0], s.heap[1])
    return ((b == 0) | ((a == 1) & (b % 2 == 1)) | ((a == 2) & (b % 4 == 2))
            | ((a == 3) & (b % 4 == 0) & (b >= three_from)) | ((a == 4) & (b == 4)))


def _outcomes(rules, p, **kw):
    runner.HOLDS.clear()
    return [(x.obligation, x.status, x.state, x.choices) for x in check_partition(rules, p, **kw)]


def test_a_planted_false_claim_is_refuted_as_without_the_tuning(monkeypatch):
    planted = _minnie_p(MINNIE.state, 4)
    tuned = _outcomes(MINNIE, planted)
    monkeypatch.setattr(runner, "INT_PARAMS", {})
    plain = _outcomes(MINNIE, planted)
    assert tuned == plain
    assert any(status == "violated" for _, status, _, _ in tuned)


def test_the_true_claim_holds_with_the_tuning():
    assert runner.INT_PARAMS == {"smt.arith.solver": 2}
    out = _outcomes(MINNIE, _minnie_p(MINNIE.state, 8))
    assert [status for _, status, _, _ in out] == ["holds"] * len(out)


def test_a_grundy_formula_violation_is_the_untuned_tactics(monkeypatch):
    nim = get_game("nim").rules(Structure.heaps(1))
    h = nim.state.heap[0]

    def bad():                    # h mod 3 is not nim's value: a move keeps it (mex-equal, no quantifier)
        runner.HOLDS.clear()
        out = check_grundy_formula(nim, h % 3, first_violation=True)
        return [(x.obligation, x.status, x.state, x.choices) for x in out]
    tuned = bad()
    monkeypatch.setattr(runner, "INT_PARAMS", {})
    assert tuned == bad() and tuned[-1][:2] == ("mex-equal", "violated")


def test_the_params_are_set_and_named():
    s = runner.solver_for(False, False)
    assert "smt.arith.solver" in runner._solver_name(False, False)
    assert "smt.arith.solver" not in runner._solver_name(False, False, plain=True)
    x = z3.Int("x")
    s.add(x * x == 2 * x, x > 1)
    assert s.check() == z3.sat and s.model()[x].as_long() == 2


def test_a_tuned_tactic_that_gives_up_is_followed_by_the_untuned_one(monkeypatch):
    made = []
    plain_for = runner.solver_for
    monkeypatch.setattr(runner, "solver_for", lambda q, b, plain=False: made.append(plain) or plain_for(q, b, plain))
    run = runner._Runner(encoding(MINNIE), None, 10.0, minimize=False)
    plain_check = run._check
    answers = iter([(z3.unknown, "gave up")])
    monkeypatch.setattr(run, "_check", lambda s, sec: next(answers, None) or plain_check(s, sec))
    x, y = Var.int("x"), Var.int("y")
    runner.HOLDS.clear()
    status, _, _ = run.run(runner._Query("test", [x + y == 3, x == 1, y == 3]), 10.0)
    assert status == "holds" and made == [False, True]      # tuned gave up; the untuned decided
