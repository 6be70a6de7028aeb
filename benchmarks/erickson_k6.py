"""Benchmark: erickson/conj4.8 on K_6, every weight assignment in {1, 2}, every start.

Conjecture 4.8 (Erickson): edge-nim on K_n with positive weights is a first-player win. The
claim of theorems/erickson.py is checked on K_6 with weights in {1, 2}: 2^15 assignments x 6
tokens = 196,608 positions (K_6's 720 automorphisms exceed the symmetry cap of the sweep, so
every start is checked); its verdict must be "verified". Timed through ``check_claim``
with the solver ``grundy verify`` uses (``Solver()``: Python first, the C kernel once a table
holds 20,000 positions) and with the kernel from the first position (``native="always"``).
The kernels are built into a fresh cache directory: the first runs (C compiler included) are
printed apart as "cold"; the medians are over the runs after them. Target (issue 5): under 2 min.

Baselines in the same run: the pure-Python path (``Solver(native=False)``), with and without
symmetry, against the kernel on K_5 (same bounds, every start: 5,120 positions), the ratio at
K_5; and the Python path on K_6 itself, once, if it finishes within --baseline-timeout s.

    python benchmarks/erickson_k6.py [--repeat 3] [--baseline-timeout 300]
"""
from __future__ import annotations

import argparse
import copy
import os
import resource
import statistics
import tempfile
import time
from pathlib import Path

from _harness import in_child, rss

from grundy import Solver
from grundy.verify.check import check_claim
from grundy.verify.claims import Claim
from grundy.verify.families import complete
from grundy.verify.loading import load

TARGET = 120.0
THEOREMS = Path(__file__).resolve().parent.parent / "theorems"


def claim_on(n: int) -> Claim:
    """conj4.8 as written in theorems/erickson.py, on K_n alone, weights in {1, 2}."""
    [c] = load([str(THEOREMS / "erickson.py")], only=["erickson/conj4.8"])
    c = copy.copy(c)
    c.family, c.bounds = complete(n), {"weight": (1, 2)}
    return c


def run(claim: Claim, solver: Solver, timeout: float, expect: int) -> tuple[float, str, int]:
    """Seconds, verdict and positions stored; stops on a verdict other than verified."""
    t = time.perf_counter()
    v = check_claim(claim, timeout=timeout, solver=solver)
    seconds = time.perf_counter() - t
    if v.verdict == "unknown" and "timed out" in v.detail:
        return seconds, "timeout", solver.stored
    if v.verdict != "verified":
        raise SystemExit(f"UNEXPECTED: {claim.id} {v.verdict}: {v.scope} {v.detail}")
    if f": {expect:,} positions" not in v.scope:
        raise SystemExit(f"UNEXPECTED scope (expected {expect:,} positions): {v.scope}")
    return seconds, v.verdict, solver.stored


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--baseline-timeout", type=float, default=300.0,
                    help="seconds allowed to the pure-Python path on K_6 (0: skip it)")
    args = ap.parse_args()
    os.environ["GRUNDY_CACHE"] = tempfile.mkdtemp(prefix="grundy-bench-")  # a cold compiler cache
    k6, k5 = claim_on(6), claim_on(5)
    n6, n5 = 2 ** 15 * 6, 2 ** 10 * 5
    print(f"erickson/conj4.8, weights in {{1, 2}}: K_6 {n6:,} positions, K_5 {n5:,} (every start)")

    seconds, _, stored = run(k6, Solver(), 3 * TARGET, n6)
    print(f"K_6 default cold (builds the kernel with the C compiler): {seconds:.2f} s, "
          f"{stored:,} positions stored")
    seconds, _, stored = run(k5, Solver(native="always"), 3 * TARGET, n5)
    print(f"K_5 native cold (builds K_5's kernel): {seconds:.2f} s")
    variants = (("K_6 default", k6, n6, dict()),
                ("K_6 native", k6, n6, dict(native="always")),
                ("K_5 native", k5, n5, dict(native="always")),
                ("K_5 python", k5, n5, dict(native=False)),
                ("K_5 python-nosym", k5, n5, dict(native=False, symmetry=False)))
    times: dict[str, list[float]] = {name: [] for name, *_ in variants}
    stored_by: dict[str, int] = {}
    for _ in range(args.repeat):
        for name, claim, n, kw in variants:
            seconds, _, stored_by[name] = run(claim, Solver(**kw), 3 * TARGET, n)
            times[name].append(seconds)
    med = {name: statistics.median(ts) for name, ts in times.items()}
    for name, _, _n, _ in variants:
        print(f"{name:17s} median {med[name]:8.3f} s over {args.repeat} runs; verified; "
              f"{stored_by[name]:>10,} positions stored")
    print(f"K_6 (target < {TARGET:.0f} s): default {med['K_6 default']:.2f} s: "
          f"{'met' if med['K_6 default'] < TARGET else 'NOT met'}")
    print(f"ratio at K_5: python / native {med['K_5 python'] / med['K_5 native']:.2f}x, "
          f"python-nosym / native {med['K_5 python-nosym'] / med['K_5 native']:.2f}x")
    print(f"peak RSS: {rss():.0f} MiB (this process: every run above)")

    if args.baseline_timeout > 0:
        got = in_child(lambda: run(k6, Solver(native=False), args.baseline_timeout + 60, n6), args.baseline_timeout)
        if got is None or got[1] == "timeout":
            print(f"K_6 python (one run): did not finish in {args.baseline_timeout:g} s")
        else:
            seconds, _, stored = got
            print(f"K_6 python (one run, own process): {seconds:.1f} s, verified, {stored:,} positions "
                  f"stored; python / default {seconds / med['K_6 default']:.1f}x; "
                  f"its peak RSS {rss(resource.RUSAGE_CHILDREN):.0f} MiB")


if __name__ == "__main__":
    main()
