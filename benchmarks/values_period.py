"""Benchmark: ``grundy values --period`` against the plain ``grundy values`` run to the same N.

For each code, in child processes, the CPU seconds of ``main()`` (after a small warm-up run of
it: imports and kernels not timed; the output sent to /dev/null) for

- plain:  ``grundy values octal --code CODE N`` (N = --max-n, default 65,536);
- period: ``grundy values octal --code CODE 1000 --period --max-n N`` (N doubles from 1,000
  until a periodicity theorem proves a period or N reaches --max-n);

and their ratio (period / plain). Where no period is proved in range the period run computes
G(0..N) as the plain run does, and checks for a period at every doubling. With ``--before
PATH`` (another grundy source tree, say an earlier commit's from ``git archive``) the same two
runs of that tree, in the same run of this script. Medians of ``--repeat`` runs (3), interleaved.

    python benchmarks/values_period.py [--codes 0.106 0.16 0.6 0.137 0.77] [--max-n 65536]
        [--repeat 3] [--before PATH]
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile

CHILD = """
import contextlib, os, sys, time
from grundy.cli import main
with open(os.devnull, "w") as out, contextlib.redirect_stdout(out):
    main(["values", "octal", "--code", "0.6", "300", "--period"])    # imports and kernels: not timed
    t = time.process_time()
    code = main(sys.argv[1:])
    t = time.process_time() - t
print("seconds", t, "exit", code)
"""


def timed(tree: str | None, cache: str, argv: list[str]) -> float:
    env = {**os.environ, "GRUNDY_CACHE": cache}
    if tree:
        env["PYTHONPATH"] = tree
    p = subprocess.run([sys.executable, "-c", CHILD, *argv], capture_output=True, text=True, env=env,
                       cwd=tree or None, check=True, timeout=3600)
    words = p.stdout.split()
    if words[-1] != "0":
        raise SystemExit(f"{argv}: exit {words[-1]}\n{p.stderr}")
    return float(words[words.index("seconds") + 1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--codes", nargs="+", default=["0.106", "0.16", "0.6", "0.137", "0.77"])
    ap.add_argument("--max-n", type=int, default=65_536)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--before", help="another grundy source tree, timed the same way")
    args = ap.parse_args()
    trees = [("grundy", None)] + ([("before", os.path.abspath(args.before))] if args.before else [])
    tmp = tempfile.mkdtemp(prefix="values-period-")
    caches = {name: os.path.join(tmp, name) for name, _ in trees}
    for name, tree in trees:                          # kernels built before any timing
        timed(tree, caches[name], ["values", "octal", "--code", "0.6", "2000", "--period"])
    print(f"grundy values --period vs the plain run to N = {args.max_n:,}; CPU seconds, medians of {args.repeat}; "
          f"load average at the start {os.getloadavg()[0]:.2f}")
    for code in args.codes:
        runs: dict[tuple[str, str], list[float]] = {}
        for _ in range(args.repeat):
            for name, tree in trees:
                plain = ["values", "octal", "--code", code, str(args.max_n)]
                period = ["values", "octal", "--code", code, "1000", "--period", "--max-n", str(args.max_n)]
                runs.setdefault((name, "plain"), []).append(timed(tree, caches[name], plain))
                runs.setdefault((name, "period"), []).append(timed(tree, caches[name], period))
        row = f"{code:>6}"
        for name, _ in trees:
            plain_s = statistics.median(runs[(name, "plain")])
            period_s = statistics.median(runs[(name, "period")])
            row += f" | {name}: plain {plain_s:7.3f} s, --period {period_s:7.3f} s ({period_s / plain_s:5.2f}x plain)"
        print(row, flush=True)


if __name__ == "__main__":
    main()
