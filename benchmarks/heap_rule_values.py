"""Benchmark: one-heap values of a heap rule written as options (Lasker's Nim), in C (the
moves generated from the rule's IR, grundy.solvers.heaps.rulevalues) against the Python
method (grundy.solvers.heaps.rules.rule_values), in the same run.

C: G(0..--n) (default 20,000; target: under 5 s), medians of --repeat runs (3), CPU seconds
in a child process, the kernel built (or loaded from the cache) before the timing. Python:
the same n, stopped after --limit seconds (default 60): then the largest n it finishes in the
limit, found by doubling from 1,000, is timed instead and the ratio given at that n. Values
checked against each other and against the literature (G(4k+1) = 4k+1, G(4k+2) = 4k+2,
G(4k+3) = 4k+4, G(4k+4) = 4k+3).

    python benchmarks/heap_rule_values.py [--n 20000] [--repeat 3] [--limit 60]
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parent))
from _harness import in_child  # noqa: E402

from grundy.solvers.heaps.rules import rule_values  # noqa: E402
from grundy.solvers.heaps.rulevalues import native_rule_values  # noqa: E402
from grundy.spec.games import get_game  # noqa: E402
from grundy.spec.heaprule import rule_heaps  # noqa: E402

TARGET_S = 5.0


def lasker(n: int) -> int:
    return {0: n - 1, 1: n, 2: n, 3: n + 1}[n % 4] if n else 0


def timed(fn, n: int, limit: float) -> tuple[float, list[int]] | None:
    def work() -> tuple[float, list[int]]:
        t = time.process_time()
        values = fn(n)
        return time.process_time() - t, values
    return in_child(work, limit)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=20_000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--limit", type=float, default=60.0)
    args = ap.parse_args()
    rule = get_game("lasker-nim").heap_rule(rule_heaps(1))
    if native_rule_values(rule, args.n) is None:                   # builds the kernel, untimed
        raise SystemExit("no C compiler, or the rule cannot run in C")

    def c(n: int) -> list[int]:
        got = native_rule_values(rule, n)
        assert got is not None
        return got

    def py(n: int) -> list[int]:
        return rule_values(rule, n)

    load = os.getloadavg()
    print(f"Lasker's Nim, one heap, G(0..{args.n:,}); medians of {args.repeat}; CPU seconds; "
          f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    c_runs, py_runs = [], []
    for _ in range(args.repeat):
        out = timed(c, args.n, args.limit)
        if out is None:
            raise SystemExit(f"C did not finish in {args.limit} s")
        c_runs.append(out)
        if not py_runs or py_runs[-1] is not None:
            py_runs.append(timed(py, args.n, args.limit))
    t_c = statistics.median(t for t, _ in c_runs)
    values = c_runs[0][1]
    if values != [lasker(h) for h in range(args.n + 1)]:
        raise SystemExit("MISMATCH: C values differ from the literature's")
    print(f"C      n = {args.n:,}: {t_c:.3f} s (target < {TARGET_S:.0f} s: {'met' if t_c < TARGET_S else 'NOT met'}); "
          f"values = the literature's")
    if all(r is not None for r in py_runs):
        t_py = statistics.median(r[0] for r in py_runs if r is not None)
        same = py_runs[0] is not None and py_runs[0][1] == values
        print(f"Python n = {args.n:,}: {t_py:.3f} s; values {'agree' if same else 'DIFFER'}; C is {t_py / t_c:.0f}x faster")
        return
    n = 1_000
    best = None
    while n < args.n:
        out = timed(py, n, args.limit)
        if out is None:
            break
        best = (n, out)
        n *= 2
    if best is None:
        print(f"Python: not even n = 1,000 in {args.limit:.0f} s")
        return
    n, (t_py, vals) = best
    c_small = statistics.median(timed(c, n, args.limit)[0] for _ in range(args.repeat))   # type: ignore[index]
    print(f"Python n = {args.n:,}: over {args.limit:.0f} s; at n = {n:,}: {t_py:.3f} s against C's {c_small:.4f} s "
          f"({t_py / max(c_small, 1e-9):.0f}x); values {'agree' if vals == values[: n + 1] else 'DIFFER'}")


if __name__ == "__main__":
    main()
