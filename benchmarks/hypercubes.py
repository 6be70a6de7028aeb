"""Benchmark: unit hypercubes (edge-nim with every weight 1), token on vertex 0.

(a) the outcome of unit Q_4: P by Erickson's Theorems 6.4, 6.5 (unit Q_n is N iff n is odd);
    target under 10 s;
(b) P1's strategy certificate for Q_5 and Q_7 (Lemma 6.3: P1 wins keeping play within levels
    0, 1, 2, the vertices with at most two ones): the first player wins unit edge-nim on the
    subgraph of Q_n induced by those levels. Since P1 always moves to level 1, and from a
    level-1 vertex every move stays within levels 0..2, "P1 has such a strategy" is exactly
    "the first player wins the restricted game". Printed: the positions the solver stored (the
    size of the certificate it found), and, for Q_5 (--tree adds others), the strategy itself
    extracted as a DAG (one winning P1 move at each P1 position, every P2 reply followed to
    the end) and counted; a closed DAG is a proof of P1's win on its own, whatever the oracle.
    Targets under 60 s each.

Timed with ``Solver()`` (Python first, the C kernel once a table holds 20,000 positions), the
kernel built into a fresh cache directory: the first pass (C compiler included) is printed
apart as "cold", the medians are over the passes after it. Baselines in the same run, for Q_4
and the Q_5 levels: the pure-Python path (``Solver(native=False)``) and a plain memoized
recursion written here (networkx graph, bitmask of used edges).

    python benchmarks/hypercubes.py [--repeat 3] [--tree 5 [7 ...]]

``--tree 7`` is not cheap: about 9 million P1 positions, several minutes.
"""
from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from functools import lru_cache
from typing import Callable

import networkx as nx
from _harness import rss

from grundy import Solver, Structure
from grundy.spec import make_position
from grundy.spec.position import Position

TARGETS = {"Q_4": 10.0, "Q_5 levels 0-2": 60.0, "Q_7 levels 0-2": 60.0}
EXPECT = {"Q_4": "P", "Q_5 levels 0-2": "N", "Q_7 levels 0-2": "N"}


def cube(d: int, max_level: int | None = None) -> nx.Graph:
    """Q_d on the integers 0..2^d - 1 (adjacent: one bit apart), or the subgraph induced by
    the vertices with at most ``max_level`` ones."""
    keep = [v for v in range(2 ** d) if max_level is None or bin(v).count("1") <= max_level]
    return nx.Graph((u, u ^ (1 << i)) for u in keep for i in range(d)
                    if u < u ^ (1 << i) and u ^ (1 << i) in keep)


def unit_position(h: nx.Graph) -> Position:
    g = Structure.from_networkx(h)
    return make_position("edge-nim", g, {"weight": [1] * len(g.edges), "token": g.names.index(0)})


WORK: dict[str, nx.Graph] = {"Q_4": cube(4), "Q_5 levels 0-2": cube(5, 2), "Q_7 levels 0-2": cube(7, 2)}
BASELINE = ["Q_4", "Q_5 levels 0-2"]


def solve(h: nx.Graph, **kw) -> tuple[float, str, int]:
    """Seconds, outcome and positions stored, with a fresh solver."""
    p, solver = unit_position(h), Solver(**kw)
    t = time.perf_counter()
    out = solver.outcome(p)
    return time.perf_counter() - t, out, solver.stored


def plain(h: nx.Graph) -> tuple[float, str, int]:
    """Memoized recursion: mover wins iff some unused edge at the token leads to a loss."""
    at = {v: [(1 << i, w if u == v else u) for i, (u, w) in enumerate(h.edges) if v in (u, w)] for v in h}
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10 * h.number_of_edges() + 100))

    @lru_cache(maxsize=None)
    def wins(used: int, token: int) -> bool:
        return any(not wins(used | bit, nxt) for bit, nxt in at[token] if not used & bit)

    t = time.perf_counter()
    out = "N" if wins(0, 0) else "P"
    return time.perf_counter() - t, out, wins.cache_info().currsize


def strategy_dag(h: nx.Graph) -> tuple[float, int, int]:
    """P1's strategy from the start (the mover must win): at each P1 position the first winning
    move, at each P2 position every reply. Seconds, P1 positions, P2 positions."""
    start, solver = unit_position(h), Solver()
    t = time.perf_counter()
    mine: set = set()
    theirs: set = set()
    todo = [start]
    while todo:
        p = todo.pop()
        if p.state in mine:
            continue
        mine.add(p.state)
        reply = next((q for _, q in solver.options(p) if not solver.mover_wins(q)), None)
        if reply is None:
            raise SystemExit(f"NOT A CERTIFICATE: no winning move for P1 at {p.to_json()}")
        if reply.state not in theirs:
            theirs.add(reply.state)
            todo.extend(q for _, q in solver.options(reply))
    return time.perf_counter() - t, len(mine), len(theirs)


def check(name: str, outcome: str) -> None:
    if outcome != EXPECT[name]:
        raise SystemExit(f"MISMATCH: {name} is {outcome}, expected {EXPECT[name]}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--tree", type=int, nargs="*", default=[5], choices=[5, 7],
                    help="extract P1's strategy DAG on these Q_n levels (default 5; 7 takes minutes)")
    args = ap.parse_args()
    os.environ["GRUNDY_CACHE"] = tempfile.mkdtemp(prefix="grundy-bench-")  # a cold compiler cache
    for name, h in WORK.items():
        print(f"{name}: {h.number_of_nodes()} vertices, {h.number_of_edges()} edges, unit weights, "
              f"token on 0; expected {EXPECT[name]}")
    for name, h in WORK.items():
        seconds, out, _ = solve(h)
        check(name, out)
        print(f"cold {name}: {seconds:.2f} s (kernel built with the C compiler where one is used)")

    variants: list[tuple[str, Callable[[nx.Graph], tuple[float, str, int]], list[str]]] = [
        ("default", solve, list(WORK)),
        ("python", lambda h: solve(h, native=False), BASELINE),
        ("plain", plain, BASELINE)]
    times: dict[tuple[str, str], list[float]] = {}
    stored: dict[tuple[str, str], int] = {}
    for _ in range(args.repeat):
        for vname, fn, names in variants:
            for name in names:
                seconds, out, n = fn(WORK[name])
                check(name, out)
                times.setdefault((vname, name), []).append(seconds)
                stored[vname, name] = n
    med = {k: statistics.median(v) for k, v in times.items()}
    for name in WORK:
        t = med["default", name]
        print(f"{name}: {EXPECT[name]} as expected; default median {t:.3f} s over {args.repeat} runs, "
              f"{stored['default', name]:,} positions stored (target < {TARGETS[name]:.0f} s: "
              f"{'met' if t < TARGETS[name] else 'NOT met'})")
        for vname in ("python", "plain"):
            if (vname, name) in med:
                print(f"    {vname:7s} median {med[vname, name]:.3f} s, {stored[vname, name]:,} positions "
                      f"stored; {vname} / default {med[vname, name] / t:.2f}x")
    for d in args.tree:
        name = f"Q_{d} levels 0-2"
        seconds, mine, theirs = strategy_dag(WORK[name])
        print(f"P1's strategy on {name}: {mine:,} P1 positions (one winning move each, {mine:,} moves), "
              f"{theirs:,} positions after them (every reply followed); closed: a certificate; "
              f"{seconds:.2f} s")
    print(f"peak RSS: {rss():.0f} MiB")


if __name__ == "__main__":
    main()
