"""Benchmark: the value-source path of the explicit solver, without a kernel (CPU seconds).

Three small fixed workloads, each timed by ``time.process_time`` (the machine's load changes
wall time far more than CPU time), the best of ``--repeat`` runs:

- ``search``: the Python search on fresh tables (Grundy values of Wythoff (40, 50) and of mine
  (6, 7, 8), the misère outcome of Wythoff (40, 50), the outcome of edge-nim on K_4);
- ``per call``: 900 Wythoff positions asked again once stored (the chain's cost per question);
- ``answers``: ``Solver.answers`` on the 1,600 Wythoff states of heaps below 40, fresh solver.

With ``--against DIR`` (another checkout, e.g. the main branch) the same script runs in turns
under both checkouts, in fresh processes, and prints the ratio of the medians (this one over
the other). The answers are compared too: they must be the same.

    python benchmarks/value_sources.py [--repeat 5] [--against /path/to/other/checkout] [--turns 5]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path


def measure(repeat: int) -> dict:
    from grundy.solvers.solver import Solver
    from grundy.spec import Structure, read_position
    from grundy.spec.games import get_game

    edges = [[u, v, 2] for u in range(4) for v in range(u)]
    cases = [("grundy", {"game": "wythoff", "heaps": [40, 50]}), ("grundy", {"game": "mine", "heaps": [6, 7, 8]}),
             ("wins", {"game": "wythoff", "heaps": [40, 50], "convention": "misere"}),
             ("wins", {"game": "edge-nim", "nodes": list(range(4)), "edges": edges, "token": 0})]
    answers: list = []
    search = 0.0
    for question, obj in cases:
        p, best = read_position(obj), float("inf")
        for _ in range(repeat):
            s = Solver(native=False, reduce_after=10**9)
            assert s.table(p.game, p.structure).code is not None     # compiled outside the timing
            t = time.process_time()
            got = s.grundy(p) if question == "grundy" else s.mover_wins(p)
            best = min(best, time.process_time() - t)
        search += best
        answers.append(got)
    s = Solver(native=False, reduce_after=10**9)
    ps = [read_position({"game": "wythoff", "heaps": [a, b]}) for a in range(30) for b in range(30)]
    answers.append(sum(s.grundy(p) for p in ps))
    per_call = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        for p in ps:
            s.grundy(p)
        per_call = min(per_call, time.process_time() - t)
    game, g = get_game("wythoff"), Structure.heaps(2)
    states = [(a, b) for a in range(40) for b in range(40)]
    chunk = float("inf")
    for _ in range(repeat):
        s = Solver(native=False, reduce_after=10**9)
        t = time.process_time()
        vals = s.answers(game, g, states, "normal", "grundy")
        chunk = min(chunk, time.process_time() - t)
    answers.append(sum(vals))
    return {"search": search, "per call": per_call, "answers": chunk, "check": answers}


def run_in(checkout: str, repeat: int) -> dict:
    env = {**os.environ, "PYTHONPATH": checkout}
    out = subprocess.run([sys.executable, __file__, "--repeat", str(repeat), "--json"], env=env,
                         capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--against", default=None)
    ap.add_argument("--turns", type=int, default=5)
    ap.add_argument("--json", action="store_true")
    a = ap.parse_args()
    if a.json:
        print(json.dumps(measure(a.repeat)))
        return
    if a.against is None:
        r = measure(a.repeat)
        print("  ".join(f"{k} {v * 1000:.1f} ms" for k, v in r.items() if k != "check"))
        return
    here = str(Path(__file__).resolve().parent.parent)
    runs: dict[str, list[dict]] = {here: [], a.against: []}
    for _ in range(a.turns):
        for checkout in (a.against, here):
            runs[checkout].append(run_in(checkout, a.repeat))
    assert len({json.dumps(r["check"]) for rs in runs.values() for r in rs}) == 1, "the answers differ"
    for key in ("search", "per call", "answers"):
        mine, other = (statistics.median(r[key] for r in runs[c]) for c in (here, a.against))
        print(f"{key:9s} {other * 1000:8.1f} ms -> {mine * 1000:8.1f} ms   ratio {mine / other:.2f}")


if __name__ == "__main__":
    main()
