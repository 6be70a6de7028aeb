"""Verdicts do not depend on the machine's load: time limits count the CPU seconds of the check
(grundy.solvers.clock), so a theorem file checked with tight limits gives the same verdicts
under a parallel CPU load (busy processes started here, three per core) as without it."""
from __future__ import annotations

import os
import subprocess
import sys
from contextlib import contextmanager
from pathlib import Path

import pytest

from grundy.verify.loading import load
from grundy.verify.schedule import run

ROOT = Path(__file__).resolve().parent.parent


@contextmanager
def busy(n: int):
    """``n`` processes that compute and never stop, for as long as the block runs."""
    procs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(n)]
    try:
        yield
    finally:
        for p in procs:
            p.kill()
        for p in procs:
            p.wait()


def _rows(vs) -> list[tuple[str, str, str]]:
    return [(v.id, v.verdict, v.scope.split("; values from ")[0]) for v in vs]


@pytest.mark.slow
def test_the_same_verdicts_under_a_parallel_cpu_load(capsys):
    claims = load([str(ROOT / "theorems" / "classics.py")])
    idle = list(run(claims, jobs=2, timeout=120.0))
    assert all(v.passed for v in idle), [(v.id, v.verdict, v.detail) for v in idle]
    # the tightest limit every claim met with room: three times the largest CPU time measured
    # idle. Under the load below each process gets about a quarter of a core, so the largest
    # claim takes about four times its CPU time in wall time: past this limit, had it been
    # counted on the wall clock
    limit = round(3 * max(v.cpu for v in idle), 2)
    tight = list(run(claims, jobs=2, timeout=limit))
    with busy(3 * (os.cpu_count() or 2)):
        loaded = list(run(claims, jobs=2, timeout=limit))
    with capsys.disabled():
        print(f"\nlimit {limit} s of CPU; under load, wall / limit per claim: "
              + ", ".join(f"{v.id} {v.seconds / limit:.2f}" for v in loaded))
    assert _rows(tight) == _rows(idle)
    assert _rows(loaded) == _rows(idle)
