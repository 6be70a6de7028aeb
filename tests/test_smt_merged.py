"""A strategy's case asked as one query ("plays its move legally and lands in P") answers as the
two queries it replaces: the same results and details where the strategy holds, and the separate
queries' violation (state, move, obligation) where it fails; the integer tactic is made once."""
from __future__ import annotations

import z3
from test_smt import NIM2, mirror, off_by_one

from grundy.solvers.smt import capture, obligations, runner
from grundy.solvers.smt.obligations import check_partition, check_strategy
from grundy.spec import Play


def illegal(g, s, rules):
    return [Play(True, 0, {"k": s.heap[0] + 1})]


def _both(monkeypatch, strategy, **kw):
    """(merged, separate): the strategy's results, each without the seconds."""
    out = []
    for merge in (True, False):
        monkeypatch.setattr(obligations, "MERGE_CASES", merge)
        runner.HOLDS.clear()
        p = NIM2.state.heap[0] == NIM2.state.heap[1]
        res = check_strategy(NIM2, p, strategy, **kw)
        out.append([(r.obligation, r.status, r.state, r.choices, r.detail, r.scope) for r in res])
    return out


def test_a_holding_strategy_reads_the_same_merged(monkeypatch):
    for kw in ({}, {"width": 12}):
        merged, separate = _both(monkeypatch, mirror, **kw)
        assert merged == separate
        assert [x[:2] for x in merged] == [("strategy-legal", "holds"), ("strategy-lands-in-P", "holds")]
        assert "(and 2 more)" in merged[0][4] and "case 0 lands in P (and 1 more)" in merged[1][4]


def test_a_failing_strategy_gives_the_separate_queries_violation(monkeypatch):
    """The separate queries are asked after a merged one fails: the same obligation and case are
    violated. Z3's model may differ (a model follows the terms the process made before, as any
    earlier query changes it), so the state is checked to be a real violation of that case."""
    for strategy, bad in ((off_by_one, "strategy-lands-in-P"), (illegal, "strategy-legal")):
        for kw in ({}, {"width": 12}):
            merged, separate = _both(monkeypatch, strategy, **kw)
            assert [(x[0], x[1], x[4]) for x in merged] == [(x[0], x[1], x[4]) for x in separate]
            assert [x[0] for x in merged if x[1] == "violated"] == [bad]
            for _, _, (h0, h1), choices, _, _ in (x for x in merged if x[1] == "violated"):
                assert h0 != h1 and choices["move"] in (0, 1)
                k, left = choices["k"], (h0, h1)[choices["move"]]
                if bad == "strategy-legal":
                    assert not 1 <= k <= left                   # the move is illegal there
                else:
                    after = (h0 - k, h1) if choices["move"] == 0 else (h0, h1 - k)
                    assert 1 <= k <= left and after[0] != after[1]   # legal, and misses P


def test_the_merged_queries_are_what_a_certificate_records():
    runner.HOLDS.clear()
    p = NIM2.state.heap[0] == NIM2.state.heap[1]
    with capture.capturing("test/merged") as cap:
        res = check_partition(NIM2, p, strategy=mirror, width=12)
    assert [r.status for r in res] == ["holds"] * len(res)
    whats = [q.what for q in cap.queries if q.obligation == "strategy"]
    assert whats == ["some case of the strategy applies", "case 0 plays move 0 legally and lands in P",
                     "case 1 plays move 1 legally and lands in P"]
    assert all(q.result == "unsat" for q in cap.queries if q.obligation == "strategy")


def test_the_integer_tactic_is_made_once_and_answers():
    a, b = runner.solver_for(False, False), runner.solver_for(False, False)
    assert a is not b and runner._int_tactic() is runner._int_tactic()
    x = z3.Int("x")
    a.add(x > 2, x < 3)
    b.add(x > 2, x < 4)
    assert a.check() == z3.unsat and b.check() == z3.sat and b.model()[x].as_long() == 3
