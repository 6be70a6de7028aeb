"""Benchmark: what the reference engine's cross-check adds to the main job.

Runs ``grundy verify theorems/ --no-cache`` (quick profile) with ``--recheck none`` and with the
default (``--recheck sample``), interleaved (none, sample, none, sample, ...) so that both see the
same load, each in a fresh ``$GRUNDY_CACHE`` (cold: no verdicts, no C kernels, no claim times).
Prints each pass, then per mode the median wall time and the median CPU time of the processes
(user + system: less sensitive to other work on the machine than the wall time), and the
ratios default / none. Every pass must exit with status 0 (every verdict as expected); one that
does not is shown with the claims concerned. The load average is printed before and after.

    python benchmarks/recheck_overhead.py [--repeat 3] [--jobs 2] [--only ID ...] [PATH ...]
"""
from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MODES = ("none", "sample")
WRAP = ("import resource, subprocess, sys\n"
        "r = subprocess.run(sys.argv[2:], stdout=open(sys.argv[1], 'w'))\n"
        "u = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
        "print(u.ru_utime + u.ru_stime, file=sys.stderr)\n"
        "sys.exit(r.returncode)\n")


def one_pass(mode: str, args: argparse.Namespace) -> tuple[float, float, bool, dict[str, float]]:
    """Wall and CPU seconds of one cold run, whether every verdict was as expected, and each
    claim's seconds."""
    cache = Path(tempfile.mkdtemp(prefix="grundy-recheck-"))
    env = {**os.environ, "GRUNDY_CACHE": str(cache)}
    cmd = [sys.executable, "-m", "grundy.cli", "verify", *args.paths, "--no-cache", "--jobs", str(args.jobs),
           "--json", "--recheck", mode]
    if args.only:
        cmd += ["--only", *args.only]
    out = cache / "verify.jsonl"
    t = time.monotonic()
    r = subprocess.run([sys.executable, "-c", WRAP, str(out), *cmd], env=env, cwd=ROOT, stderr=subprocess.PIPE,
                       text=True)
    wall = time.monotonic() - t
    rows = [json.loads(ln) for ln in out.read_text().splitlines() if ln.startswith("{")]
    if r.returncode != 0:
        bad = [f"{o['id']}: {o['verdict']} (expected {o['expected']}) {o.get('detail', '')}"
               for o in rows if "verdict" in o and o["verdict"] != o["expected"]]
        print(f"  {mode}: exit status {r.returncode}: " + ("; ".join(bad) or r.stderr[-2000:]), flush=True)
    cpu = float(r.stderr.strip().splitlines()[-1])
    shutil.rmtree(cache, ignore_errors=True)
    return wall, cpu, r.returncode == 0, {o["id"]: o["seconds"] for o in rows if "verdict" in o}


def load() -> str:
    return " ".join(open("/proc/loadavg").read().split()[:3])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", nargs="+", metavar="ID")
    ap.add_argument("--claims", action="store_true", help="also print the claims whose time grew most")
    ap.add_argument("paths", nargs="*", default=["theorems/"])
    args = ap.parse_args()
    walls: dict[str, list[float]] = {m: [] for m in MODES}
    cpus: dict[str, list[float]] = {m: [] for m in MODES}
    claims: dict[str, list[dict[str, float]]] = {m: [] for m in MODES}
    failed = {m: 0 for m in MODES}
    print(f"load average before: {load()}", flush=True)
    for k in range(args.repeat):
        for m in MODES:
            wall, cpu, ok, secs = one_pass(m, args)
            walls[m].append(wall)
            cpus[m].append(cpu)
            claims[m].append(secs)
            failed[m] += not ok
            print(f"pass {k + 1} --recheck {m:6s}: {wall:6.1f} s wall, {cpu:6.1f} s CPU (load {load()})", flush=True)
    print(f"load average after: {load()}")
    cmd = " ".join(["python benchmarks/recheck_overhead.py", f"--repeat {args.repeat}", f"--jobs {args.jobs}"]
                   + ([f"--only {' '.join(args.only)}"] if args.only else []) + args.paths)
    print(f"\n{cmd}")
    for m in MODES:
        print(f"--recheck {m:6s}: median {statistics.median(walls[m]):6.1f} s wall, "
              f"{statistics.median(cpus[m]):6.1f} s CPU over {args.repeat}"
              + (f"; {failed[m]} pass(es) with a verdict not as expected" if failed[m] else ""))
    wall_ratio = statistics.median(walls["sample"]) / statistics.median(walls["none"])
    cpu_ratio = statistics.median(cpus["sample"]) / statistics.median(cpus["none"])
    print(f"ratio sample / none: {wall_ratio:.3f} wall, {cpu_ratio:.3f} CPU")
    if args.claims:
        med = {m: {c: statistics.median(r[c] for r in claims[m] if c in r) for c in claims[m][0]} for m in MODES}
        grown = sorted(med["none"], key=lambda c: med["none"][c] - med["sample"].get(c, 0))[:15]
        for c in grown:
            print(f"  {c:45s} {med['none'][c]:6.2f} s -> {med['sample'].get(c, 0):6.2f} s")


if __name__ == "__main__":
    main()
