"""Benchmark: the main job, ``grundy verify theorems/ --no-cache`` (quick profile), wall time.

Each pass runs the command in a fresh ``$GRUNDY_CACHE`` (cold: no verdicts, no compiled C
kernels, no claim times), once per scheduling, interleaved so that both see the same load:

- ``old``: the baseline, one fresh process (and solver) per claim, in file order: this script
  runs ``grundy verify --only ID --jobs 1`` for each claim, ``--jobs`` of them at a time;
- ``new``: long-lived workers, the claims of one game and family in one worker on one solver;
  with a cold cache there are no claim times, so groups go in file order;
- ``new+times`` (unless ``--no-times``): the same, cold again, but with the claim times that
  the ``new`` pass just recorded copied into the fresh cache: costliest groups first, as on
  every run after the first one.

Every pass should exit with status 0 (every verdict as its claim expects); one that does not
(a claim past its time limit on a loaded machine) is shown with the claims concerned and
counted in the summary. Prints, per scheduling, the median wall time of ``--repeat`` passes (3 by
default), the peak resident memory of the largest process, and the ratio to ``old``.

    python benchmarks/quick_profile.py [--repeat 3] [--jobs 2] [--only ID ...]

``--only 'erickson/prop5*'`` measures the Petersen group alone (what sharing one solver gives).
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
# the old scheduling, from outside: one ``grundy verify --only ID`` process per claim, in file order,
# ``jobs`` at a time; their JSON lines in file order; exit status 0 iff every one exited 0
PER_CLAIM = (
    "import subprocess, sys\n"
    "from grundy.verify.loading import load\n"
    "out, jobs, paths, only, base = sys.argv[1], int(sys.argv[2]), sys.argv[3].split(','), sys.argv[4], sys.argv[5:]\n"
    "ids = [c.id for c in load(paths, only.split(',') if only else None)]\n"
    "running, done, bad = [], {}, 0\n"
    "for i, cid in enumerate(ids + [None] * jobs):\n"
    "    if cid is not None:\n"
    "        running.append((i, subprocess.Popen(base + ['--only', cid], stdout=subprocess.PIPE, text=True)))\n"
    "    while running and (len(running) >= jobs or cid is None):\n"
    "        j, p = running.pop(0)\n"
    "        done[j] = p.communicate()[0]\n"
    "        bad += p.returncode != 0\n"
    "open(out, 'w').write(''.join(done[j] for j in sorted(done)))\n"
    "sys.exit(1 if bad else 0)\n")
WRAP = ("import resource, subprocess, sys\n"
        "r = subprocess.run(sys.argv[2:], stdout=open(sys.argv[1], 'w'))\n"
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr)\n"
        "sys.exit(r.returncode)\n")


def one_pass(mode: str, args: argparse.Namespace, times: Path | None) -> tuple[float, float, Path, bool]:
    """Wall seconds and peak RSS (MiB, largest process) of one cold run, its cache folder, and
    whether every verdict was as expected."""
    cache = Path(tempfile.mkdtemp(prefix="grundy-bench-"))
    if times is not None:
        shutil.copy(times, cache / "times.json")
    env = {**os.environ, "GRUNDY_CACHE": str(cache)}
    out = cache / "verify.jsonl"
    if mode == "old":
        base = [sys.executable, "-m", "grundy.cli", "verify", *args.paths, "--no-cache", "--jobs", "1", "--json"]
        cmd = [sys.executable, "-c", PER_CLAIM, str(out), str(args.jobs), ",".join(args.paths),
               ",".join(args.only or []), *base]
    else:
        cmd = [sys.executable, "-m", "grundy.cli", "verify", *args.paths, "--no-cache", "--jobs", str(args.jobs),
               "--json", *(["--only", *args.only] if args.only else [])]
    t = time.monotonic()
    r = subprocess.run([sys.executable, "-c", WRAP, "/dev/stdout" if mode == "old" else str(out), *cmd],
                       env=env, cwd=ROOT, stderr=subprocess.PIPE, text=True, stdout=subprocess.DEVNULL)
    wall = time.monotonic() - t
    if r.returncode != 0:      # shown, and the pass marked: a time limit may pass under load
        rows = [json.loads(ln) for ln in out.read_text().splitlines() if ln.startswith("{")]
        bad = [f"{o['id']}: {o['verdict']} (expected {o['expected']}) {o.get('detail', '')}"
               for o in rows if "verdict" in o and o["verdict"] != o["expected"]]
        print(f"  {mode}: exit status {r.returncode}: " + ("; ".join(bad) or r.stderr[-2000:]), flush=True)
    return wall, int(r.stderr.strip().splitlines()[-1]) / 1024, cache, r.returncode == 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", nargs="+", metavar="ID")
    ap.add_argument("--no-times", action="store_true", help="skip the new+times passes")
    ap.add_argument("paths", nargs="*", default=["theorems/"])
    args = ap.parse_args()
    modes = ["old", "new"] + ([] if args.no_times else ["new+times"])
    walls: dict[str, list[float]] = {m: [] for m in modes}
    peaks: dict[str, list[float]] = {m: [] for m in modes}
    failed = {m: 0 for m in modes}
    print("load before:", open("/proc/loadavg").read().split()[:3], flush=True)
    for k in range(args.repeat):
        recorded = None
        for m in modes:
            wall, peak, cache, ok = one_pass(m, args, recorded if m == "new+times" else None)
            failed[m] += not ok
            if m == "new":
                recorded = cache / "times.json"
            walls[m].append(wall)
            peaks[m].append(peak)
            print(f"pass {k + 1} {m:9s}: {wall:6.1f} s wall, peak RSS {peak:5.0f} MiB", flush=True)
            if m != "new":
                shutil.rmtree(cache, ignore_errors=True)
        shutil.rmtree(Path(recorded).parent, ignore_errors=True) if recorded else None
    print("load after:", open("/proc/loadavg").read().split()[:3])
    cmd = " ".join(["python benchmarks/quick_profile.py", f"--repeat {args.repeat}", f"--jobs {args.jobs}"]
                   + ([f"--only {' '.join(args.only)}"] if args.only else []) + args.paths)
    print(f"\n{cmd}")
    base = statistics.median(walls["old"])
    for m in modes:
        med = statistics.median(walls[m])
        print(f"{m:9s}: median {med:6.1f} s wall over {args.repeat} (peak RSS {max(peaks[m]):.0f} MiB), "
              f"{base / med:.2f}x the old scheduling"
              + (f"; {failed[m]} pass(es) with a verdict not as expected" if failed[m] else ""))


if __name__ == "__main__":
    main()
