"""Benchmark: a kernel built in two parts (the fixed search compiled once into an object,
``grundy.solvers.native.codegen.split_source``) against the same text built whole: the CPU
seconds of the kernel's searches (compiler excluded), alternating whole and split in one run.

Workload: grim on the path P_n (``--n``), the Grundy values of the positions whose first m
vertices are alive (n/2 <= m <= n), a fresh kernel on a hash table each run; ``--flags Og|O2``;
``--symmetry``, ``--decompose``: the kernel's reductions. Prints each run and the medians and
minima of ``--repeat`` runs of each build (the values are compared).

    python benchmarks/kernel_split.py [--n 24] [--flags Og] [--symmetry] [--decompose] [--repeat 7]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import networkx as nx  # noqa: E402

from grundy.solvers.native import codegen  # noqa: E402
from grundy.solvers.native import kernel as K  # noqa: E402
from grundy.solvers.native.box import Box  # noqa: E402
from grundy.spec import Structure  # noqa: E402
from grundy.spec.games import get_game  # noqa: E402


def run(split: bool, n: int, quick: bool, symmetry: bool, decompose: bool) -> tuple[float, list[int]]:
    """CPU seconds of one fresh kernel's searches, and the values found."""
    K._library.cache_clear()
    real = codegen.split_source
    if not split:
        codegen.split_source = lambda text: None
    try:
        rules = get_game("grim").rules(Structure.from_networkx(nx.path_graph(n)))
        start = tuple(1 for _ in rules.schema.slots)
        k = K.Kernel(rules, Box.around(rules, [start, tuple(0 for _ in start)]), K.GRUNDY, symmetry=symmetry,
                     decompose=decompose, quick=quick, dense=False)
    finally:
        codegen.split_source = real
    t = time.process_time()
    values = [k.grundy(tuple(1 if i < m else 0 for i in range(n))) for m in range(n // 2, n + 1)]
    return time.process_time() - t, values


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=24)
    ap.add_argument("--flags", choices=["Og", "O2"], default="Og")
    ap.add_argument("--symmetry", action="store_true")
    ap.add_argument("--decompose", action="store_true")
    ap.add_argument("--repeat", type=int, default=7)
    a = ap.parse_args()
    times: dict[bool, list[float]] = {False: [], True: []}
    seen = []
    for _ in range(a.repeat):
        for split in (False, True):
            t, values = run(split, a.n, a.flags == "Og", a.symmetry, a.decompose)
            times[split].append(t)
            seen.append(values)
            print(f"{'split' if split else 'whole'} {t:.3f}", flush=True)
    assert all(v == seen[0] for v in seen), "the builds disagree"
    for split in (False, True):
        ts = times[split]
        print(f"{'split' if split else 'whole'}: median {statistics.median(ts):.3f}, min {min(ts):.3f} CPU s")


if __name__ == "__main__":
    main()
