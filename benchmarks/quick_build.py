"""Benchmark: kernels compiled without optimization (``build.QUICK_FLAGS``, -O0: the default on
boxes of at most ``kernel.QUICK_BOX`` positions), with ``build.LIGHT_FLAGS`` (-O1: a claim's
sweep of 2^17 to 2M starts) and with ``build.FLAGS`` (-O2: the default on larger boxes), all in
this run: the compiler's seconds and the seconds of one sweep of the kernel's box.

Fixed workloads (each kernel's text is generated once; each build is a fresh compile in a
fresh cache directory, the two flag sets interleaved, ``--repeat`` times):

- ``nim3``: nim on 3 heaps, the box of heaps 0..31 (32,768 positions, a quick box);
- ``vnimg5``: vertex-nimg on the path of 5 vertices, weights 0..6 (84,035 positions, a quick
  box: cor12-corrected-n5's structures);
- ``vnim4``: vertexnim on the path of 4 vertices, weights 0..1, every adjacency (65,536
  positions: the adjacency is in the state, a longer text);
- ``nim3-big``: nim on 3 heaps, heaps 0..127 (2,097,152 positions: above QUICK_BOX, where the
  optimized build pays for itself).

Prints per workload the medians of the compile and sweep seconds of each build, and the ratios
(-O1 and -O2 / -O0 for the compile, -O0 / -O1 and -O2 / -O1 for the sweep), with the load average.

    python benchmarks/quick_build.py [--repeat 3]
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

from grundy.solvers.native import build
from grundy.solvers.native.kernel import QUICK_BOX, Box, Kernel, _library
from grundy.spec.games import get_game
from grundy.spec.structure import Structure


def _workloads() -> dict:
    path5 = Structure.graph(range(5), [(0, 1), (1, 2), (2, 3), (3, 4)])
    out = {}
    nim3 = get_game("nim").rules(Structure.heaps(3))
    out["nim3"] = (nim3, Box.around(nim3, [(0, 0, 0), (31, 31, 31)]))
    g = get_game("vertex-nimg").rules(path5)
    lo = tuple(0 for _ in g.schema.slots)
    hi = tuple(6 if name == "weight" else 4 for name, _ in g.schema.slots)
    out["vnimg5"] = (g, Box.around(g, [lo, hi]))
    v = get_game("vertexnim").rules(Structure.graph(range(4), [(0, 1), (1, 2), (2, 3)]))
    lo = tuple(0 for _ in v.schema.slots)
    hi = tuple(3 if name == "token" else 1 for name, _ in v.schema.slots)
    out["vnim4"] = (v, Box.around(v, [lo, hi]))
    out["nim3-big"] = (nim3, Box.around(nim3, [(0, 0, 0), (127, 127, 127)]))
    return out


LEVELS = ("-O0", "-O1", "-O2")


def _one(rules, box, level: str) -> tuple[float, float]:
    """Compile seconds (wall: the compiler is a child process) and sweep seconds of one build
    at ``level`` (-O0: quick; -O1: light; -O2: optimized)."""
    with tempfile.TemporaryDirectory() as cache:
        os.environ["GRUNDY_CACHE"] = cache
        _library.cache_clear()
        build._loaded.clear()
        t = time.perf_counter()
        k = Kernel(rules, box, quick=level == "-O0", light=level == "-O1")
        compiled = time.perf_counter() - t
        t = time.perf_counter()
        k.sweep()
        swept = time.perf_counter() - t
        del k
    return compiled, swept


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    if not build.available():
        raise SystemExit("no C compiler here")
    print(f"load before: {os.getloadavg()[0]:.2f}; QUICK_BOX = {QUICK_BOX:,}")
    print(f"{'workload':10s} {'positions':>10s} | {'compile -O0':>11s} {'-O1':>7s} {'-O2':>7s} | "
          f"{'sweep -O0':>9s} {'-O1':>7s} {'-O2':>7s} | {'-O2/-O1':>7s} {'-O1/-O2':>7s} | default")
    for name, (rules, box) in _workloads().items():
        runs: dict[str, list[tuple[float, float]]] = {lv: [] for lv in LEVELS}
        for _ in range(args.repeat):
            for lv in LEVELS:
                runs[lv].append(_one(rules, box, lv))
        c = {lv: statistics.median(x for x, _ in r) for lv, r in runs.items()}
        w = {lv: statistics.median(y for _, y in r) for lv, r in runs.items()}
        default = "-O0" if box.size <= QUICK_BOX else "-O2"
        print(f"{name:10s} {box.size:>10,} | {c['-O0']:11.3f} {c['-O1']:7.3f} {c['-O2']:7.3f} | "
              f"{w['-O0']:9.3f} {w['-O1']:7.3f} {w['-O2']:7.3f} | {c['-O2'] / c['-O1']:6.2f}x "
              f"{w['-O1'] / w['-O2']:6.2f}x | {default}")
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
