"""Benchmark: the C kernels at each optimization level grundy uses or could use, all in this
run: the compiler's seconds and the seconds of one sweep of the kernel's box. ``-Og`` is
``build.QUICK_FLAGS`` (the default on boxes of at most ``grundy.settings.Settings.quick_box`` positions and for a
claim's sweep of fewer than 2^19 starts); ``-O1`` is ``build.LIGHT_FLAGS`` (a claim's sweep of
2^19 to 2M starts); ``-O2`` is ``build.FLAGS`` (the default on larger boxes); ``-O0`` is the
quick level until 0.2.0.

Fixed workloads (each kernel's text is generated once; each build is a fresh compile in a
fresh cache directory, the levels interleaved, ``--repeat`` times):

- ``nim3``: nim on 3 heaps, the box of heaps 0..31 (32,768 positions, a quick box);
- ``vnimg5``: vertex-nimg on the path of 5 vertices, weights 0..6 (84,035 positions, a quick
  box: cor12-corrected-n5's structures);
- ``vnim4``: vertexnim on the path of 4 vertices, weights 0..1, every adjacency (65,536
  positions: the adjacency is in the state, a longer text);
- ``nim3-big``: nim on 3 heaps, heaps 0..127 (2,097,152 positions: above quick_box, where the
  optimized build pays for itself).

Prints per workload the medians of the compile and sweep seconds at each level, and the ratios
to -Og (compile: the level's over -Og's; sweep: the level's over -Og's), with the load average.

    python benchmarks/quick_build.py [--repeat 3]
"""
from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

from grundy.settings import current as settings
from grundy.solvers.native import build
from grundy.solvers.native.kernel import Box, Kernel, _library
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


LEVELS = ("-O0", "-Og", "-O1", "-O2")
COMMON = ["-std=gnu99", "-shared", "-fPIC", "-fno-strict-aliasing"]


def _one(rules, box, level: str) -> tuple[float, float]:
    """Compile seconds (wall: the compiler is a child process) and sweep seconds of one build
    at ``level`` (-O2: ``build.FLAGS``; the others as ``build.QUICK_FLAGS`` for this build)."""
    quick = build.QUICK_FLAGS
    with tempfile.TemporaryDirectory() as cache:
        os.environ["GRUNDY_CACHE"] = cache
        _library.cache_clear()
        build._loaded.clear()
        build.QUICK_FLAGS = [level, *COMMON]
        try:
            t = time.perf_counter()
            k = Kernel(rules, box, quick=level != "-O2", light=False)
            compiled = time.perf_counter() - t
        finally:
            build.QUICK_FLAGS = quick
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
    print(f"load before: {os.getloadavg()[0]:.2f}; quick_box = {settings().quick_box:,}; quick and light builds: "
          f"{build.QUICK_FLAGS[0]}, {build.LIGHT_FLAGS[0]}")
    print(f"{'workload':10s} {'positions':>10s} | compile " + " ".join(f"{lv:>6s}" for lv in LEVELS) +
          " | sweep " + " ".join(f"{lv:>6s}" for lv in LEVELS) + " | compile / -Og" + " " * 14 +
          " | sweep / -Og")
    for name, (rules, box) in _workloads().items():
        runs: dict[str, list[tuple[float, float]]] = {lv: [] for lv in LEVELS}
        for _ in range(args.repeat):
            for lv in LEVELS:
                runs[lv].append(_one(rules, box, lv))
        c = {lv: statistics.median(x for x, _ in r) for lv, r in runs.items()}
        w = {lv: statistics.median(y for _, y in r) for lv, r in runs.items()}
        print(f"{name:10s} {box.size:>10,} | compile " + " ".join(f"{c[lv]:6.3f}" for lv in LEVELS) +
              " | sweep " + " ".join(f"{w[lv]:6.3f}" for lv in LEVELS) + " | " +
              " ".join(f"{c[lv] / c['-Og']:5.2f}x" for lv in LEVELS) + " | " +
              " ".join(f"{w[lv] / w['-Og']:5.2f}x" for lv in LEVELS))
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
