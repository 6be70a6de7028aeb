"""Benchmark: edge-nim on K_5, all 1024 weight assignments in {1, 2}, token on vertex 0.

Runs ``grundy solve``'s code path (one table shared by all 1024 positions): the C kernel
generated from the rules (``Solver(native="always").grundy_many``: the family in one call),
the default solver (Python first,
the kernel once a table holds 20,000 positions), and the pure-Python path with and without
symmetry reduction, against a plain memoized-recursion baseline
written here, in the same process; checks that they agree on every position, and prints
the medians, positions stored per second and the ratios. The kernel is built into a fresh
cache directory: its first run (C compiler included) is printed apart as "cold"; the
median is over the runs after it. Target (issue 5): >= 50x the baseline.

    python benchmarks/edge_nim_k5.py [--repeat 3]
"""
from __future__ import annotations

import argparse
import itertools
import os
import resource
import statistics
import sys
import tempfile
import time
from functools import lru_cache

import networkx as nx

from grundy import Solver, Structure
from grundy.spec import make_position


def workload() -> tuple[Structure, list[list[int]]]:
    g = Structure.from_networkx(nx.complete_graph(5))
    return g, [list(w) for w in itertools.product((1, 2), repeat=len(g.edges))]


def baseline(g: Structure, assignments: list[list[int]]) -> tuple[list[int], int]:
    """Memoized recursion over (weights, token): the textbook solver, no compilation, no symmetry."""
    edges = g.edges
    at = {v: [(i, u if w == v else w) for i, (u, w) in enumerate(edges) if v in (u, w)] for v in range(g.n)}
    sys.setrecursionlimit(10_000)

    @lru_cache(maxsize=None)
    def grundy(weights: tuple[int, ...], token: int) -> int:
        seen = set()
        for i, nxt in at[token]:
            for w in range(weights[i]):
                seen.add(grundy(weights[:i] + (w,) + weights[i + 1:], nxt))
        m = 0
        while m in seen:
            m += 1
        return m

    values = [grundy(tuple(w), 0) for w in assignments]
    return values, grundy.cache_info().currsize


def ours(g: Structure, assignments: list[list[int]], symmetry: bool = True,
         native: bool | str | None = "always") -> tuple[list[int], int]:
    solver = Solver(symmetry=symmetry, native=native)
    positions = [make_position("edge-nim", g, {"weight": w, "token": 0}) for w in assignments]
    values = solver.grundy_many(positions) if native == "always" else [solver.grundy(p) for p in positions]
    return values, solver.stored


def swept(g: Structure, assignments: list[list[int]]) -> tuple[list[int], int]:
    """Retrograde: the kernel solves every position of the box (weights 0..2, every token:
    3^10 x 5 = 295,245) in index order, where every move lowers the index; then reads the 1024."""
    from grundy.solvers.native.kernel import Box, Kernel
    rules = make_position("edge-nim", g, {"weight": assignments[0], "token": 0}).rules
    states = [rules.schema.pack({"weight": w, "token": 0}) for w in assignments]
    k = Kernel(rules, Box.around(rules, states))
    table = k.sweep()
    return [table[k.box.index(s)] - 1 for s in states], k.stored


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    os.environ["GRUNDY_CACHE"] = tempfile.mkdtemp(prefix="grundy-bench-")  # a cold compiler cache
    g, work = workload()
    t = time.perf_counter()
    cold = ours(g, work)
    print(f"native cold (builds the kernel with the C compiler): {time.perf_counter() - t:.3f} s")
    variants = (("baseline", baseline), ("native", ours), ("native-sweep", swept),
                ("default", lambda g, w: ours(g, w, native=None)),
                ("python", lambda g, w: ours(g, w, native=False)),
                ("python-nosym", lambda g, w: ours(g, w, symmetry=False, native=False)))
    rows = {name: [] for name, _ in variants}
    stored = {}
    for _ in range(args.repeat):
        for name, fn in variants:
            t = time.perf_counter()
            values, n = fn(g, work)
            rows[name].append(time.perf_counter() - t)
            stored[name] = n
            if name == "baseline":
                expected = values
                if cold[0] != expected:
                    raise SystemExit("MISMATCH: the cold run and the baseline disagree")
            elif values != expected:
                raise SystemExit("MISMATCH: grundy and the baseline disagree")
    for name in rows:
        med = statistics.median(rows[name])
        print(f"{name:13s} median {med:8.3f} s over {args.repeat} runs; {stored[name]:>9,} positions stored; "
              f"{stored[name] / med:>12,.0f} positions stored/s")
    for name in rows:
        if name != "baseline":
            ratio = statistics.median(rows["baseline"]) / statistics.median(rows[name])
            met = f"  (target >= 50x: {'met' if ratio >= 50 else 'NOT met'})" if name == "native" else ""
            print(f"speed-up of {name} (baseline time / its time): {ratio:.2f}x{met}")
    print(f"peak RSS: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
