"""A claim on one structure cut into parts, with a checkpoint (grundy/verify/schedule/checkpoint.py):
an interrupted run resumes and ends with the verdict of an uninterrupted one; a changed claim
reuses nothing; a line cut short is ignored."""
from __future__ import annotations

import copy
import json
import multiprocessing as mp
import os
import signal
import time
from pathlib import Path

import pytest

from grundy import Solver
from grundy.verify.check import check_claim
from grundy.verify.claims import Claim
from grundy.verify.families import complete
from grundy.verify.loading import load
from grundy.verify.schedule.checkpoint import Checkpoint, parts, run_parts
from grundy.verify.schedule.chunks import executor

THEOREMS = Path(__file__).resolve().parent.parent / "theorems"


def conj(n: int, top: int = 2, cid: str = "erickson/conj4.8") -> Claim:
    [c] = load([str(THEOREMS / "erickson.py")], only=[cid])
    c = copy.copy(c)
    c.family, c.bounds, c.full = complete(n), {"weight": (1, top)}, {"weight": (1, top)}
    return c


def lines(path: Path) -> list[dict]:
    return [json.loads(x) for x in path.read_text().splitlines()]


def test_parts_cover_every_start_once():
    c = conj(4)
    ps = parts(c, "weight", 3)
    assert len(ps) == 8 and len(set(ps)) == 8
    assert all([k for k, _ in p] == [0, 1, 2] and all(v in (1, 2) for _, v in p) for p in ps)
    with pytest.raises(ValueError, match="has 6"):
        parts(c, "weight", 7)


def test_interrupted_k5_resumes_to_the_uninterrupted_verdict(tmp_path):
    c = conj(5)
    whole = check_claim(c, solver=Solver(native="always"))
    assert whole.verdict == "verified" and whole.swept == 2 ** 10 * 5
    with executor("local:2") as ex:
        straight = run_parts(c, ex, field="weight", k=4, path=tmp_path / "straight.jsonl")
        first = run_parts(c, ex, field="weight", k=4, path=tmp_path / "cut.jsonl", stop_after=5)
        assert first.verdict.verdict == "unknown" and first.done == 5 and first.total == 16
        assert "5 of 16 parts done" in first.verdict.detail
        assert len(lines(tmp_path / "cut.jsonl")) == 5
        second = run_parts(c, ex, field="weight", k=4, path=tmp_path / "cut.jsonl", stop_after=4)
        assert second.verdict.verdict == "unknown" and (second.reused, second.checked, second.done) == (5, 4, 9)
        last = run_parts(c, ex, field="weight", k=4, path=tmp_path / "cut.jsonl")
    assert (last.reused, last.checked) == (9, 7)
    for r in (straight, last):
        assert r.verdict.verdict == whole.verdict == "verified"
        assert r.verdict.swept == whole.swept
        assert r.verdict.scope.split(":")[0] == whole.scope.split(":")[0]
    assert sorted(x["key"] for x in lines(tmp_path / "cut.jsonl")) == \
        sorted(x["key"] for x in lines(tmp_path / "straight.jsonl"))


def test_changed_claim_reuses_nothing_and_a_cut_line_is_ignored(tmp_path):
    path = tmp_path / "k4.jsonl"
    with executor("local:2") as ex:
        a = run_parts(conj(4), ex, field="weight", k=2, path=path)
        assert a.verdict.verdict == "verified" and a.checked == 4
        b = run_parts(conj(4, top=3), ex, field="weight", k=2, path=path)   # other bounds: other keys
        assert (b.reused, b.stale, b.checked) == (0, 4, 9)
        with open(path, "a") as f:
            f.write('{"key": "' + lines(path)[0]["key"][:20])              # killed while writing
        assert len(Checkpoint(path).done) == 13
        again = run_parts(conj(4, top=3), ex, field="weight", k=2, path=path)
    assert (again.reused, again.checked, again.verdict.verdict) == (9, 0, "verified")
    assert again.verdict.swept == b.verdict.swept == 3 ** 6 * 4


def test_a_refuted_part_refutes_with_a_real_counterexample(tmp_path):
    c = conj(4)
    c.statement = lambda g, s: (s.token != 0) | (s.weight[0] != 2)    # claims P there: false at some
    c.expect = "refuted"
    with executor("local:2") as ex:
        r = run_parts(c, ex, field="weight", k=2, path=tmp_path / "bad.jsonl")
    v = r.verdict
    assert v.verdict == "refuted" and v.counterexample is not None
    assert v.counterexample.claimed != v.counterexample.actual
    assert [x["result"]["verdict"]["verdict"] for x in lines(tmp_path / "bad.jsonl")].count("refuted") >= 1


def _run_k6(path: str) -> None:
    os.setpgrp()                               # its own group: killed with its worker
    with executor("local:1") as ex:
        run_parts(conj(6), ex, field="weight", k=6, path=path)


@pytest.mark.slow
def test_killed_k6_run_resumes_to_the_uninterrupted_verdict(tmp_path):
    path = tmp_path / "k6.jsonl"
    p = mp.get_context("fork").Process(target=_run_k6, args=(str(path),))
    p.start()
    t0 = time.monotonic()
    while time.monotonic() - t0 < 300 and (not path.exists() or len(path.read_text().splitlines()) < 3):
        time.sleep(0.05)
    os.killpg(p.pid, signal.SIGKILL)           # interrupted for real, mid-run (and its worker)
    p.join()
    done = len(Checkpoint(path).done)
    assert 3 <= done < 64
    c = conj(6)
    with executor("local:2") as ex:
        resumed = run_parts(c, ex, field="weight", k=6, path=path)
        straight = run_parts(c, ex, field="weight", k=6, path=tmp_path / "straight.jsonl")
    whole = check_claim(c, solver=Solver(native="always"))
    assert resumed.reused == done and resumed.checked == 64 - done
    assert resumed.verdict.verdict == straight.verdict.verdict == whole.verdict == "verified"
    assert resumed.verdict.swept == straight.verdict.swept == whole.swept == 2 ** 15 * 6
