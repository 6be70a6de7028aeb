"""Benchmark: erickson/conj4.8 on K_7 (weights in {1, 2}) and on K_6 (weights in {1, 2, 3}).

Conjecture 4.8 (Erickson): edge-nim on K_n with positive weights is a first-player win; the
thesis says it was checked by hand for n <= 7. The claim of theorems/erickson.py is checked by
machine, every weight assignment and every start, each start's statement evaluated:

- K_7, weights in {1, 2}: 2^21 x 7 = 14,680,064 starts; reachable positions up to 3^21 x 7
  (7.3e10), about 1.5e7 up to isomorphism. Target (issue 12): under 30 min on 2 cores.
- K_6, weights in {1, 2, 3} (``--k6-w3``): 3^15 x 6 = 86,093,442 starts, conj4.8; the complete
  graph strategy claim (``--strategy``: the strategy played against every reply from every start,
  in C where the native path serves: grundy/solvers/native/follow.py).

K_6 and K_7 have 720 and 5,040 automorphisms, more than the solver lists (256): before the
symmetric-group canonical form (grundy/solvers/symmetric.py) they got no symmetry reduction at
all. The baseline in the same run: K_6 {1, 2} with the reduction switched off
(``symmetric.ENABLED = False``, as before it existed) and on, medians of --repeat runs; K_7
without it for --baseline-timeout seconds (the starts it got through, and its rate).
Each run is in its own process (its peak RSS its own); the solver is the one ``grundy verify``
uses on a kernel from the first position (``Solver(native="always")``). Progress lines (every
--every s) give the rate, so that a run stopped by its time limit still gives a projection.
``--strategy-baseline S``: the strategy claim on the Python path for S seconds first (its rate;
the C follower's run follows in the same invocation).

    python benchmarks/erickson_k7.py [--repeat 3] [--k7-runs 1] [--baseline-timeout 120]
                                     [--timeout 3600] [--k6-w3] [--k6-w3-runs 3]
                                     [--strategy] [--strategy-runs 3] [--strategy-baseline 120]
                                     [--skip-k7]
"""
from __future__ import annotations

import argparse
import copy
import os
import resource
import statistics
import sys
import time
from pathlib import Path

from _harness import in_child

from grundy import Solver
from grundy.solvers import symmetric
from grundy.verify.check import check_claim
from grundy.verify.claims import Claim
from grundy.verify.families import complete
from grundy.verify.loading import load

TARGET = 30 * 60.0
THEOREMS = Path(__file__).resolve().parent.parent / "theorems"


def claim_on(cid: str, n: int, top: int) -> Claim:
    """The claim as written in theorems/erickson.py, on K_n alone, weights in {1..top}."""
    [c] = load([str(THEOREMS / "erickson.py")], only=[cid])
    c = copy.copy(c)
    c.family, c.bounds, c.symmetric = complete(n), {"weight": (1, top)}, False
    return c


def run(cid: str, n: int, top: int, reduce: bool, timeout: float, every: float, native: bool = True) -> dict:
    """One check in this process: seconds, verdict, scope, positions stored, peak RSS (MiB)."""
    symmetric.ENABLED = reduce
    claim = claim_on(cid, n, top)
    solver = Solver(native="always" if native else False)
    t0 = last = time.perf_counter()
    c0 = time.process_time()

    def progress(msg: str) -> None:
        nonlocal last
        now = time.perf_counter()
        if now - last >= every:
            last = now
            print(f"  [{now - t0:7.0f} s wall, {time.process_time() - c0:7.0f} s CPU] {msg}; "
                  f"{solver.stored:,} stored", file=sys.stderr, flush=True)

    v = check_claim(claim, timeout=timeout, solver=solver, progress=progress)
    return dict(seconds=time.perf_counter() - t0, cpu=time.process_time() - c0, verdict=v.verdict, scope=v.scope, detail=v.detail,
                stored=solver.stored, rss=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024)


def child(cid: str, n: int, top: int, reduce: bool, timeout: float, every: float, native: bool = True) -> dict:
    got = in_child(lambda: run(cid, n, top, reduce, timeout, every, native), timeout + 120)
    if got is None:
        return dict(seconds=timeout + 120, cpu=0.0, verdict="killed", scope="", detail="", stored=0, rss=0.0)
    return got


def show(name: str, r: dict) -> str:
    extra = f" ({r['detail']})" if r["detail"] else ""
    return (f"{name}: {r['verdict']} in {r['seconds']:.1f} s ({r['cpu']:.1f} s CPU); {r['stored']:,} positions stored; "
            f"peak RSS {r['rss']:.0f} MiB; {r['scope']}{extra}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3, help="runs of each K_6 {1, 2} variant (median; 0: none)")
    ap.add_argument("--k7-runs", type=int, default=1, help="runs of K_7 {1, 2} (median)")
    ap.add_argument("--baseline-timeout", type=float, default=120.0,
                    help="seconds for K_7 without the reduction (0: skip it)")
    ap.add_argument("--timeout", type=float, default=2 * TARGET, help="seconds allowed to each long run")
    ap.add_argument("--every", type=float, default=60.0, help="seconds between progress lines")
    ap.add_argument("--skip-k7", action="store_true")
    ap.add_argument("--k6-w3", action="store_true", help="also conj4.8 on K_6 with weights in {1, 2, 3}")
    ap.add_argument("--k6-w3-runs", type=int, default=1, help="runs of K_6 {1, 2, 3} conj4.8 (median)")
    ap.add_argument("--strategy", action="store_true",
                    help="also the complete graph strategy claim on K_6 with weights in {1, 2, 3}")
    ap.add_argument("--strategy-runs", type=int, default=1, help="runs of the strategy claim (median)")
    ap.add_argument("--strategy-baseline", type=float, default=0.0,
                    help="with --strategy: seconds of the same claim on the Python path (the strategy "
                         "followed in Python, as before the C follower; its progress lines give the rate)")
    args = ap.parse_args()
    conj = "erickson/conj4.8"
    print(f"command: python benchmarks/{Path(__file__).name} {' '.join(sys.argv[1:])}", flush=True)
    print(f"load average at the start: {os.getloadavg()[0]:.2f} (2 cores; above 2: figures under load)", flush=True)

    k6 = {True: [], False: []}
    for _ in range(args.repeat):
        for reduce in (False, True):
            k6[reduce].append(child(conj, 6, 2, reduce, 600, args.every))
    for reduce, label in ((False, "before (no reduction)"), (True, "after (symmetric-group canonical form)")):
        rs = k6[reduce]
        if not rs:                             # --repeat 0: the long runs only
            continue
        print(f"K_6 {{1,2}} {label}: median {statistics.median(r['seconds'] for r in rs):.2f} s "
              f"({statistics.median(r['cpu'] for r in rs):.2f} s CPU) over "
              f"{len(rs)} runs; " + show("last run", rs[-1]), flush=True)

    if not args.skip_k7:
        if args.baseline_timeout > 0:
            r = child(conj, 7, 2, False, args.baseline_timeout, args.every)
            print(show("K_7 {1,2} before (no reduction)", r), flush=True)
        rs = [child(conj, 7, 2, True, args.timeout, args.every) for _ in range(args.k7_runs)]
        med = statistics.median(r["seconds"] for r in rs)
        each = ", ".join(f"{r['seconds']:.1f}" for r in rs)
        print(f"K_7 {{1,2}} after: median {med:.1f} s over {len(rs)} run(s) ({each} s); " + show("last run", rs[-1]),
              flush=True)
        done = all(r["verdict"] == "verified" for r in rs)
        print(f"K_7 target (< {TARGET / 60:.0f} min): {'met' if done and med < TARGET else 'NOT met'}", flush=True)
    if args.k6_w3:
        rs = [child(conj, 6, 3, True, args.timeout, args.every) for _ in range(args.k6_w3_runs)]
        each = ", ".join(f"{r['seconds']:.0f}" for r in rs)
        print(f"K_6 {{1,2,3}} conj4.8: median {statistics.median(r['seconds'] for r in rs):.1f} s "
              f"({statistics.median(r['cpu'] for r in rs):.1f} s CPU) over {len(rs)} run(s) ({each} s); "
              + show("last run", rs[-1]), flush=True)
    if args.strategy:
        if args.strategy_baseline > 0:
            r = child("erickson/conj4.9-4.11-complete-graph-strategy", 6, 3, True, args.strategy_baseline,
                      min(args.every, args.strategy_baseline / 2), native=False)
            print(show("K_6 {1,2,3} complete graph strategy, Python path (baseline)", r), flush=True)
        rs = [child("erickson/conj4.9-4.11-complete-graph-strategy", 6, 3, True, args.timeout, args.every)
              for _ in range(args.strategy_runs)]
        each = ", ".join(f"{r['seconds']:.0f}" for r in rs)
        print(f"K_6 {{1,2,3}} complete graph strategy: median {statistics.median(r['seconds'] for r in rs):.1f} s "
              f"({statistics.median(r['cpu'] for r in rs):.1f} s CPU) over {len(rs)} run(s) ({each} s); "
              + show("last run", rs[-1]), flush=True)


if __name__ == "__main__":
    main()
