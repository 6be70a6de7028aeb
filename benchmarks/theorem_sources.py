"""Benchmark: proved theorems as value sources (``grundy solve --theorems``) against the plain solve.

Fixed workload, both in this run, each as the user runs it (the ``grundy`` command in a child process):

- ``grundy solve nim 1000000 5 --theorems theorems/classics.py`` (classics/nim-sum, proved by
  Z3 on 32-bit vectors) and ``grundy solve lasker-nim 20000 --theorems theorems/classics.py``
  (classics/lasker-nim): a first run establishes the verdicts (checked, then stored in the
  verdict cache: "cold"), then --repeat runs read them from the cache ("warm"; median);
- the same positions without --theorems (the plain solve), once, killed after --limit seconds.

It reports the median wall and CPU times (the command's own, children included), the ratio to
the plain solve (a lower bound when the plain solve hit the limit), the theorem named on
stderr, the value against the formula, and the load average (a loaded machine slows both).

    python benchmarks/theorem_sources.py [--repeat 3] [--limit 60]
"""
from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = [("nim", ["1000000", "5"], 1000000 ^ 5, "classics/nim-sum"),
         ("lasker-nim", ["20000"], 19999, "classics/lasker-nim")]     # G(4k+4) = 4k+3


def run(args: list[str], env: dict[str, str], limit: float) -> tuple[float, float, str, str] | None:
    """(wall s, CPU s, stdout, stderr) of ``grundy ARGS``, or None past ``limit`` seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    try:
        p = subprocess.run([sys.executable, "-m", "grundy.cli", *args], env=env, capture_output=True, text=True,
                           timeout=limit, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return None
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if p.returncode != 0:
        raise SystemExit(f"grundy {' '.join(args)} failed:\n{p.stderr}")
    return wall, cpu, p.stdout, p.stderr


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--limit", type=float, default=60.0, help="seconds the plain solve may take")
    a = ap.parse_args()
    env = {**os.environ, "GRUNDY_CACHE": tempfile.mkdtemp(prefix="grundy-bench-")}
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for game, heaps, want, theorem in CASES:
        args = ["solve", game, *heaps, "--theorems", str(ROOT / "theorems" / "classics.py")]
        cold = run(args, env, 600)
        assert cold is not None
        warm = [run(args, env, 600) for _ in range(a.repeat)]
        walls = [w[0] for w in warm if w]
        cpus = [w[1] for w in warm if w]
        out, err = warm[-1][2], warm[-1][3]      # type: ignore[index]
        ok = str(want) in out and f"by theorem {theorem}, proved" in err
        plain = run(["solve", game, *heaps], env, a.limit)
        print(f"\n{game} {' '.join(heaps)}: value {want} {'found, theorem named' if ok else 'NOT FOUND'}")
        print(f"  --theorems, cold (verdicts established): {cold[0]:.2f} s wall, {cold[1]:.2f} s CPU")
        print(f"  --theorems, warm (median of {a.repeat}): {statistics.median(walls):.2f} s wall, "
              f"{statistics.median(cpus):.2f} s CPU")
        if plain is None:
            print(f"  plain solve: did not finish in {a.limit:g} s: at least "
                  f"{a.limit / statistics.median(walls):.0f}x slower (wall)")
        else:
            print(f"  plain solve: {plain[0]:.2f} s wall, {plain[1]:.2f} s CPU: "
                  f"{plain[0] / statistics.median(walls):.1f}x the warm --theorems time (wall)")
        if not ok:
            raise SystemExit(f"{game}: the value or the theorem's name is missing:\n{out}\n{err}")
    print(f"\nload average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
