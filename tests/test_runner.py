"""The runner: long-lived workers sharing one solver per group of claims, longest first.

Sharing a solver must never change a verdict: every test compares against the same claims
checked apart (a fresh solver each, as the old one-process-per-claim runner did).
"""
from __future__ import annotations

import os
import time

import networkx as nx
import pytest

from grundy.solvers.solver import Solver
from grundy.verify import Claim, graphs, heaps
from grundy.verify.check import check_claim, csweep
from grundy.verify.schedule import pool as runner
from grundy.verify.schedule.pool import group_key, run, schedule


def _k4():
    return graphs(("K4", nx.complete_graph(4)))


def _same(v) -> dict:
    """A verdict without its timings and without the record of which value sources served
    (everything a user reads as the result: a shared worker may have proved a table's
    reductions for an earlier claim, so the same values come from another source)."""
    d = v.to_json()
    d.pop("seconds", None)
    d.pop("cpu_seconds", None)
    for o in d.get("obligations", []):
        o.pop("seconds", None)
    d["coverage"] = {k: x for k, x in d["coverage"].items() if k != "sources"}
    d["scope"] = d["scope"].split("; values from ")[0]
    return d


WYTHOFF_P = [(0, 0), (1, 2), (3, 5), (4, 7), (6, 10)]         # Wythoff's P-positions, heaps <= 10


def _wythoff_p(g, s):
    out = None
    for a, b in WYTHOFF_P:
        for x, y in {(a, b), (b, a)}:
            t = (s.heap[0] == x) & (s.heap[1] == y)
            out = t if out is None else out | t
    return out


def _edge_nim_claims() -> list[Claim]:
    """Three claims on edge-nim on K_4 (one group), one nim claim between them, and three on
    Wythoff's game (one group: two verified, one refuted)."""
    wy = dict(game="wythoff", family=heaps(2), bounds={"heap": 10})
    return [
        Claim("t/wythoff-p", kind="char", statement=_wythoff_p, **wy),
        Claim("t/k4-never-p", game="edge-nim", kind="char", family=_k4(), bounds={"weight": (0, 2)},
              statement=lambda g, s: False, expect="refuted"),
        Claim("t/nim", game="nim", kind="char", family=heaps(2), bounds={"heap": 5},
              statement=lambda g, s: s.heap[0] == s.heap[1]),
        Claim("t/k4-always-n", game="edge-nim", kind="char", family=_k4(), bounds={"weight": (0, 2)},
              statement=lambda g, s: False, assume=lambda g, s: s.token == 0, expect="refuted"),
        Claim("t/k4-grundy", game="edge-nim", kind="grundy", family=_k4(), bounds={"weight": (0, 2)},
              statement=lambda g, s: 0, expect="refuted"),
        Claim("t/wythoff-misere-equal", kind="char", convention="misere", expect="refuted",
              statement=lambda g, s: s.heap[0] == s.heap[1], **wy),
        Claim("t/wythoff-p-small", kind="char", statement=_wythoff_p, **{**wy, "bounds": {"heap": 7}}),
    ]


def test_claims_on_the_same_structures_share_a_group():
    cs = _edge_nim_claims()
    assert group_key(cs[1]) == group_key(cs[3]) == group_key(cs[4]) != group_key(cs[2])
    assert group_key(cs[0]) == group_key(cs[5]) == group_key(cs[6]) != group_key(cs[1])
    assert schedule(cs) == [[0, 5, 6], [1, 3, 4], [2]]


def test_a_shared_worker_gives_the_verdicts_of_claims_run_apart(monkeypatch):
    cs = _edge_nim_claims()
    apart = [_same(check_claim(c, solver=Solver())) for c in cs]
    assert [d["verdict"] for d in apart] == ["verified", "refuted", "verified", "refuted", "refuted",
                                             "refuted", "verified"]
    shared = [_same(v) for v in run(cs, jobs=1)]
    assert shared == apart
    two = [_same(v) for v in run(cs, jobs=2, seconds={"t/nim": 9.0})]
    assert two == apart


def test_one_solver_in_one_process_gives_the_same_verdicts_and_reuses_the_table(monkeypatch):
    """What a worker does, in this process: the later claims of a group solve (almost) nothing."""
    monkeypatch.setattr(csweep, "VM", False)    # the solver's own table (the interpreter keeps its own)
    cs = [c for c in _edge_nim_claims() if c.game == "wythoff"]      # normal, misère, normal
    s = Solver()
    got, stored = [], []
    for c in cs:
        got.append(_same(check_claim(c, solver=s)))
        stored.append(s.stored)
    assert got == [_same(check_claim(c, solver=Solver())) for c in cs]
    assert 0 < stored[0] < stored[1] == stored[2]     # the last claim's positions were all known


def test_verdicts_come_in_claim_order_whatever_the_schedule():
    cs = [Claim(f"t/nim-{n}", game="nim", kind="char", family=heaps(n), bounds={"heap": 3},
                statement=lambda g, s: s.heap[0] == s.heap[0]) for n in (1, 2, 3, 4)]
    times = {"t/nim-1": 0.0, "t/nim-2": 0.1, "t/nim-3": 0.2, "t/nim-4": 5.0}   # last one first
    assert schedule(cs, seconds=times)[0] == [3]
    for jobs in (1, 2):
        got = [v.id for v in run(cs, jobs=jobs, seconds=times)]
        assert got == [c.id for c in cs]


STUCK_SECONDS = 60


def _stuck(g, s):
    time.sleep(STUCK_SECONDS)                 # never returns in time: the worker must be killed
    return s.heap[0] == s.heap[1]


def _dies(g, s):
    os._exit(3)


def _group_with(middle, why: str) -> list[Claim]:
    same = dict(game="nim", kind="char", family=heaps(2), bounds={"heap": 3})
    return [Claim("t/before", statement=lambda g, s: s.heap[0] == s.heap[1], **same),
            Claim(f"t/{why}", statement=middle, timeout=1, expect="verified", **same),
            Claim("t/after", statement=lambda g, s: s.heap[0] == s.heap[1], **same),
            Claim("t/after-refuted", statement=lambda g, s: s.heap[0] <= s.heap[1], expect="refuted", **same)]


@pytest.mark.slow
@pytest.mark.parametrize("jobs", [1, 2])
def test_a_timeout_in_the_middle_of_a_group_loses_nothing_after_it(jobs):
    cs = _group_with(_stuck, "stuck")
    assert len(schedule(cs)) == 1                      # one group: one worker, in turn
    t = time.monotonic()
    vs = list(run(cs, jobs=jobs))
    assert time.monotonic() - t < STUCK_SECONDS / 2
    assert [v.id for v in vs] == [c.id for c in cs]
    assert [v.verdict for v in vs] == ["verified", "unknown", "verified", "refuted"]
    assert "timed out after 1 s" in vs[1].detail
    assert [_same(v) for v in (vs[0], vs[2], vs[3])] == [_same(check_claim(c)) for c in (cs[0], cs[2], cs[3])]


def test_a_worker_that_dies_makes_its_claim_an_error_and_the_rest_go_on():
    cs = _group_with(_dies, "dies")
    vs = list(run(cs, jobs=1))
    assert [v.verdict for v in vs] == ["verified", "error", "verified", "refuted"]
    assert "the worker died (exit code 3)" in vs[1].detail


def test_a_position_limit_reached_on_a_shared_solver_is_checked_again_alone(monkeypatch):
    """Claim B alone fits within the limit; after claim A (same group, other positions) the
    shared solver does not: B is checked again on a fresh solver, with B's own verdict."""
    same = dict(game="wythoff", family=heaps(2), bounds={"heap": 6})
    a = Claim("t/normal", kind="char", statement=lambda g, s: s.heap[0] == s.heap[1], expect="refuted", **same)
    b = Claim("t/misere", kind="char", convention="misere", statement=lambda g, s: s.heap[0] == s.heap[1],
              expect="refuted", **same)
    assert group_key(a) == group_key(b)
    sizes = []
    for c in (a, b):
        s = Solver(native=False)
        check_claim(c, solver=s)
        sizes.append(s.stored)
    limit = max(sizes) + 1
    assert limit < sum(sizes)                  # the two together do not fit
    s = Solver(native=False, max_positions=limit)
    check_claim(a, solver=s)
    assert check_claim(b, solver=s).verdict == "error"      # what a shared solver alone would say
    alone = [_same(check_claim(c, solver=Solver(native=False, max_positions=limit))) for c in (a, b)]
    assert [d["verdict"] for d in alone] == ["refuted", "refuted"]

    class Small(runner._Shared):
        def __init__(self):
            super().__init__(native=False, max_positions=limit)
    monkeypatch.setattr(runner, "_Shared", Small)
    assert [_same(v) for v in run([a, b], jobs=1)] == alone
