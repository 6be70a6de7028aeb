"""Every explicit verdict of theorems/ re-checked by the stand-alone checker.

Each claim is checked (quick profile), its explicit bundle written (``explicit.json``) and the
checker run on it in a fresh process; prints one line per claim (verdict, bundle status,
positions listed, time to write, wall and CPU time of the checker) and the totals: how many
bundles were agreed with, disagreed with, skipped (and why), and the time spent. The checker's
limit (``--timeout``) is CPU time (on a busy machine wall-clock time says little).

    python benchmarks/checker_theorems.py [--only ID_PREFIX,...] [--timeout S]
"""
from __future__ import annotations

import argparse
import collections
import json
import pathlib
import resource
import sys
import tempfile
import time

from grundy.verify.certificates import run_checker, write_explicit
from grundy.verify.check import check_claim
from grundy.verify.loading import load

ROOT = pathlib.Path(__file__).resolve().parents[1]


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", default="", help="claim id prefixes, comma-separated")
    ap.add_argument("--timeout", type=float, default=300.0, help="CPU seconds the checker gets per bundle")
    args = ap.parse_args()
    claims = [c for c in load([str(ROOT / "theorems")]) if c.id.startswith(tuple(args.only.split(",")))]
    counts: collections.Counter[str] = collections.Counter()
    reasons: collections.Counter[str] = collections.Counter()
    t_write = t_check = t_cpu = 0.0
    with tempfile.TemporaryDirectory() as tmp:
        for c in claims:
            v = check_claim(c)
            d = pathlib.Path(tmp) / c.id.replace("/", "_")
            t0 = time.perf_counter()
            files = write_explicit(d, c, v)
            t1 = time.perf_counter()
            if not files:
                counts["no explicit certificate"] += 1
                print(f"{c.id:45s} {v.verdict:9s} -", flush=True)
                continue
            cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime
            r = run_checker(d, timeout=args.timeout)
            t2 = time.perf_counter()
            cpu = resource.getrusage(resource.RUSAGE_CHILDREN).ru_utime - cpu0
            t_cpu += cpu
            t_write, t_check = t_write + t1 - t0, t_check + t2 - t1
            counts[r["status"]] += 1
            data = json.loads((d / "explicit.json").read_text())
            listed = sum(len(i["positions"]) for i in data.get("instances", []))
            if r["status"] != "agreed":
                reasons[r["detail"].splitlines()[-1][:100]] += 1
            print(f"{c.id:45s} {v.verdict:9s} {r['status']:9s} {listed:7d} pos  write {t1 - t0:6.2f} s  "
                  f"check {t2 - t1:6.2f} s (CPU {cpu:6.2f} s)", flush=True)
    print(f"\n{len(claims)} claims: " + ", ".join(f"{n} {k}" for k, n in counts.most_common()))
    print(f"time writing bundles {t_write:.1f} s, checker {t_check:.1f} s (CPU {t_cpu:.1f} s)")
    for why, n in reasons.most_common():
        print(f"  {n} x {why}")
    return 1 if counts["disagreed"] else 0


if __name__ == "__main__":
    sys.exit(main())
