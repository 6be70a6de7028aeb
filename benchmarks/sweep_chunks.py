"""Benchmark: sweeps on structures too small for the kernel's batches, their truths asked of the
solver a chunk at a time (``Solver.answers``) against start by start (the path before), both in
this run.

Fixed workload: the claims below (quick profile), each checked in a fresh child process (its
own solver and caches, a fresh ``$GRUNDY_CACHE``) once with chunks and once start by start
(``Instance._answers`` turned off: each start judged through ``Solver.mover_wins`` or
``Solver.grundy``), interleaved so that both see the same load, ``--repeat`` times. Prints per
claim the median CPU seconds of each, the ratio, and whether verdict, scope and counterexample
are identical (they must be); then the totals and the load average before and after.

    python benchmarks/sweep_chunks.py [--repeat 3] [--only ID ...]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLAIMS = ["vnim/cor12-corrected-n5", "vnim/thm10-corrected", "grim/cor17", "vnim/prop9", "selfref/thm4.11",
          "vnim/thm3"]
ONE = r"""
import json, sys, time
from grundy.verify.check import check_claim
from grundy.verify.check.instance import Instance
from grundy.verify.loading import load
claim = {c.id: c for c in load(["theorems/"])}[sys.argv[1]]
if sys.argv[2] == "single":
    Instance._answers = lambda self, batch: None
t = time.process_time()
v = check_claim(claim, profile="quick", timeout=10_000)
print(json.dumps({"cpu": time.process_time() - t, "verdict": v.verdict, "scope": v.scope,
                  "counterexample": repr(v.counterexample)}))
"""


def run(claim: str, how: str) -> dict:
    env = {**os.environ, "GRUNDY_CACHE": tempfile.mkdtemp(prefix="grundy-sweep-chunks-")}
    r = subprocess.run([sys.executable, "-c", ONE, claim, how], cwd=ROOT, env=env, capture_output=True,
                       text=True, check=True)
    return json.loads(r.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", nargs="+", default=CLAIMS)
    args = ap.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    total = {"single": 0.0, "chunks": 0.0}
    for claim in args.only:
        rows: dict[str, list[dict]] = {"single": [], "chunks": []}
        for _ in range(args.repeat):
            for how in rows:
                rows[how].append(run(claim, how))
        med = {how: statistics.median(r["cpu"] for r in rs) for how, rs in rows.items()}
        same = all({k: r[k] for k in ("verdict", "scope", "counterexample")} ==
                   {k: rows["single"][0][k] for k in ("verdict", "scope", "counterexample")}
                   for rs in rows.values() for r in rs)
        for how in total:
            total[how] += med[how]
        print(f"{claim:28} start by start {med['single']:7.2f} s   chunks {med['chunks']:7.2f} s   "
              f"ratio {med['single'] / med['chunks']:5.2f}x   {rows['chunks'][0]['verdict']:9} "
              f"{'identical' if same else 'DIFFERENT'}", flush=True)
    print(f"{'total':28} start by start {total['single']:7.2f} s   chunks {total['chunks']:7.2f} s   "
          f"ratio {total['single'] / total['chunks']:5.2f}x   (CPU seconds, medians of {args.repeat})")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
