"""Benchmark: start-up of the command line, against ``python -c pass`` in the same run.

Three commands, each a fresh process, timed whole (wall seconds, and the CPU seconds of the
process), medians of ``--repeat`` runs (3), the commands interleaved:

- ``grundy --version`` (target 0.15 s),
- ``grundy solve nim 3 5 6`` (target 0.3 s),
- ``grundy solve K5.json --json``: the 1,024 edge-nim K_5 positions of
  ``benchmarks/cli_batch_k5.py`` (target 0.35 s; the kernel comes from a fresh compiler
  cache filled by one untimed run first),

and ``python -c pass`` (the interpreter's own start-up) as the baseline: each command's time
is printed with its ratio to it. The answers of the batch are checked against the
memoized-recursion baseline of ``edge_nim_k5.py``. ``-X importtime`` of ``grundy --version``
is summarised (the slowest top-level imports) with ``--imports``.

    python benchmarks/startup.py [--repeat 3] [--imports]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from edge_nim_k5 import baseline, workload  # noqa: E402

from grundy.spec import make_position  # noqa: E402

TARGETS = {"grundy --version": 0.15, "grundy solve nim 3 5 6": 0.3, "grundy solve K5 batch (1,024)": 0.35}


def child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd: list[str]) -> tuple[float, float, str]:
    """(wall, CPU, stdout) of one run of ``cmd``."""
    c, t = child_cpu(), time.perf_counter()
    p = subprocess.run(cmd, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - t, child_cpu() - c
    if p.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({p.returncode}): {p.stderr.strip()}")
    return wall, cpu, p.stdout


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--imports", action="store_true", help="summarise -X importtime of grundy --version")
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="grundy-startup-")
    os.environ["GRUNDY_CACHE"] = os.path.join(tmp, "cache")        # a fresh compiler cache
    exe = str(Path(sys.executable).with_name("grundy"))
    g, work = workload()
    batch = os.path.join(tmp, "k5.json")
    with open(batch, "w") as f:
        json.dump([make_position("edge-nim", g, {"weight": w, "token": 0}).to_json() for w in work], f)
    commands = {
        "python -c pass": [sys.executable, "-c", "pass"],
        "grundy --version": [exe, "--version"],
        "grundy solve nim 3 5 6": [exe, "solve", "nim", "3", "5", "6"],
        "grundy solve K5 batch (1,024)": [exe, "solve", batch, "--json"],
    }
    _, _, out = timed(commands["grundy solve K5 batch (1,024)"])      # fills the compiler cache
    expected, _ = baseline(g, work)
    got = [json.loads(line) for line in out.splitlines()]
    if [r["grundy"] for r in got] != list(expected):
        raise SystemExit("MISMATCH: the batch's values differ from the baseline's")
    rows: dict[str, list[tuple[float, float]]] = {name: [] for name in commands}
    for _ in range(args.repeat):
        for name, cmd in commands.items():
            wall, cpu, _ = timed(cmd)
            rows[name].append((wall, cpu))
    load = os.getloadavg()
    print(f"start-up, medians of {args.repeat} (wall and CPU seconds of the whole process); "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    base = statistics.median(w for w, _ in rows["python -c pass"])
    for name, runs in rows.items():
        wall = statistics.median(w for w, _ in runs)
        cpu = statistics.median(c for _, c in runs)
        target = TARGETS.get(name)
        verdict = "" if target is None else (f"  target {target:.2f} s: wall {'met' if wall <= target else 'NOT met'}"
                                             f", cpu {'met' if cpu <= target else 'NOT met'}")
        print(f"{name:32} wall {wall:6.3f} s  cpu {cpu:6.3f} s  ({wall / base:5.1f}x python -c pass){verdict}")
    if args.imports:
        p = subprocess.run([sys.executable, "-X", "importtime", "-c", "from grundy.cli import main"],
                           capture_output=True, text=True)
        rows_i = []
        for line in p.stderr.splitlines()[1:]:
            parts = line.split("|")
            if len(parts) == 3 and parts[2].startswith(" ") and not parts[2].startswith("  "):
                rows_i.append((int(parts[1]), parts[2].strip()))
        print("slowest top-level imports of grundy.cli (cumulative microseconds):")
        for us, name in sorted(rows_i, reverse=True)[:12]:
            print(f"  {us:>9,}  {name}")


if __name__ == "__main__":
    main()
