"""Benchmark: the explicit sweep of large structures in C beside the kernel
(grundy/verify/check/csweep.py) against the Python path (``csweep.ENABLED = False``), both in
this run.

Fixed workloads (explicit sweep with the cross-check's sample, as ``grundy verify`` runs it):

- ``conj56``: selfref/conj5.6 (minnie, 2..5 heaps, the region of the conjecture as its
  assumption), every heap <= 24: 6,765,201 positions met;
- ``cor12``: vnim/cor12-corrected-n5 (vertex-nim with every loop, the corrected Corollary 12),
  the 40 structures 100..139 of its family (5 vertices), its full bounds (weights 0..5).

Each run is a fresh child process with a fresh ``$GRUNDY_CACHE`` (the kernels compiled in it:
"CPU" is the process's own seconds, "cc" the C compiler's, both in the wall-clock seconds;
the ratio is of the process's own CPU seconds), the two paths interleaved so that both see the same load, ``--repeat`` times.
Prints per workload the medians of CPU and wall-clock seconds of each path, the ratios, and
whether the counts, counterexample and cross-check sample are identical (they must be); the
load average before and after.

    python benchmarks/c_sweep.py [--repeat 3] [--only conj56 cor12]
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
WORKLOADS = {"conj56": ("selfref/conj5.6", 0, 4, {"heap": 24}),
             "cor12": ("vnim/cor12-corrected-n5", 100, 140, None)}
ONE = r"""
import json, os, sys, time
from grundy.solvers.solver import Solver
from grundy.verify.check import csweep
from grundy.verify.check.deadline import Deadline
from grundy.verify.check.sweep import sweep
from grundy.verify.claims import Explicit
from grundy.verify.families import Family
from grundy.verify.loading import load
from grundy.verify.recheck import CrossCheck
cid, lo, hi, bounds, path = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), json.loads(sys.argv[4]), sys.argv[5]
claim = {c.id: c for c in load(["theorems/"])}[cid]
claim.family = Family(claim.family.items()[lo:hi], claim.family.scope)
csweep.ENABLED = path == "c"
cross = CrossCheck(claim)
t, w, cc = time.process_time(), time.perf_counter(), os.times().children_user + os.times().children_system
r = sweep(claim, Explicit(), bounds or claim.full, Solver(), Deadline(None), cross=cross)
cpu, wall = time.process_time() - t, time.perf_counter() - w
cc = os.times().children_user + os.times().children_system - cc
cex = r.cex and [r.cex.witness, repr(r.cex.claimed), repr(r.cex.actual)]
print(json.dumps({"cpu": cpu, "cc": cc, "wall": wall, "same": [r.checked, r.met, r.structures, r.text, cex,
                  [[repr(e[0]), e[1], repr(e[3])] for e in cross.sample.entries()]]}))
"""


def run(work: str, path: str) -> dict:
    cid, lo, hi, bounds = WORKLOADS[work]
    env = {**os.environ, "GRUNDY_CACHE": tempfile.mkdtemp(prefix="grundy-c-sweep-")}
    r = subprocess.run([sys.executable, "-c", ONE, cid, str(lo), str(hi), json.dumps(bounds), path], cwd=ROOT,
                       env=env, capture_output=True, text=True, check=True)
    return json.loads(r.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", nargs="+", default=list(WORKLOADS), choices=list(WORKLOADS))
    args = ap.parse_args()
    print(f"load average before: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for work in args.only:
        rows: dict[str, list[dict]] = {"python": [], "c": []}
        for _ in range(args.repeat):
            for path in rows:
                rows[path].append(run(work, path))
        med = {(p, k): statistics.median(r[k] for r in rs) for p, rs in rows.items() for k in ("cpu", "cc", "wall")}
        same = all(r["same"] == rows["python"][0]["same"] for rs in rows.values() for r in rs)
        print(f"{work:8} Python {med['python', 'cpu']:7.2f} s CPU (+{med['python', 'cc']:5.2f} cc) "
              f"{med['python', 'wall']:7.2f} s wall   C {med['c', 'cpu']:7.2f} s CPU (+{med['c', 'cc']:5.2f} cc) "
              f"{med['c', 'wall']:7.2f} s wall   "
              f"ratio {med['python', 'cpu'] / med['c', 'cpu']:5.2f}x CPU {med['python', 'wall'] / med['c', 'wall']:5.2f}x wall   "
              f"{rows['c'][0]['same'][0]:,} checked   {'identical' if same else 'DIFFERENT'}", flush=True)
    print(f"(medians of {args.repeat})")
    print(f"load average after: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
