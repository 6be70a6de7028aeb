"""Benchmark: the C kernel's search on fixed workloads, against the kernel of grundy 9f41ba2 in the same run.

Workloads (one fresh kernel per run, CPU seconds of the kernel's call alone, compiler excluded):

- ``petersen``: erickson/prop5.5's outcome sweep: edge-nim on the Petersen graph, edge 0 of
  weight 1, the 14 others 2 or 3, the token at either end of edge 0 (32,768 starts, normal
  play, outcomes), reduced by the 120 automorphisms (``canon_auts.c``).
- ``q7``: erickson/lemma6.3-levels' largest structure: unit-weight edge-nim on levels 0..2 of
  Q_7 (29 vertices, 49 edges), one start, outcomes, no symmetry: the table alone.

Kernels compared (the same generated moves; the fixed C differs):

- ``baseline``: canon and search as of 9f41ba2 (read with ``git show 9f41ba2:...``, so this
  script needs a git checkout of grundy; each
  automorphism's key built whole; keys and values in two arrays; successors in the order the
  moves generate them);
- ``canon``: today's canon (digit by digit from the most significant, an image dropped once it
  is larger) with the baseline's search and table;
- ``today``: the kernel as shipped (also: one array of entries, huge pages, the outcome search
  least rank first, the table grown at 3/4).

Each run is a child process (its peak RSS its own). Values are compared between kernels on
every start. Prints the medians of ``--repeat`` runs, the positions stored, the memory the solve
added to the peak RSS and its bytes per stored position, and each kernel's ratio to the baseline.

    python benchmarks/kernel_canon.py [--repeat 3] [--workloads petersen q7]
"""
from __future__ import annotations

import argparse
import itertools
import os
import resource
import statistics
import subprocess
import sys
import tempfile
from functools import partial
from pathlib import Path

import networkx as nx
from _harness import in_child

from grundy import Structure
from grundy.solvers.native import build, codegen
from grundy.solvers.native import kernel as kernel_module
from grundy.solvers.native.kernel import NORMAL, Box, Kernel
from grundy.spec import make_position

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "9f41ba2"                # the commit whose fixed C is the baseline
KERNELS = {"baseline": {"c/canon_auts.c", "c/solver.c"}, "canon": {"c/solver.c"}, "today": set()}


def baseline_c(name: str) -> str:
    """The fixed C file ``name`` (``c/solver.c``) of the kernel at :data:`BASELINE`."""
    r = subprocess.run(["git", "show", f"{BASELINE}:grundy/solvers/native/{name}"], cwd=ROOT,
                       capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"kernel_canon.py: the baseline needs a git checkout with commit {BASELINE} ({r.stderr.strip()})")
    return r.stdout


def workload(name: str):
    """(rules, states, symmetry)."""
    if name == "petersen":
        g = Structure.from_networkx(nx.petersen_graph())
        rules = make_position("edge-nim", g, {"weight": [1] * 15, "token": 0}).rules
        u, v = g.edges[0]
        states = [rules.schema.pack({"weight": [1, *w], "token": t})
                  for t in (u, v) for w in itertools.product((2, 3), repeat=14)]
        return rules, states, True
    q = nx.hypercube_graph(7)
    mask = {x: sum(b << i for i, b in enumerate(x)) for x in q}
    g = Structure.from_networkx(nx.Graph((mask[a], mask[b]) for a, b in q.edges if sum(a) <= 2 and sum(b) <= 2))
    rules = make_position("edge-nim", g, {"weight": [1] * len(g.edges), "token": 0}).rules
    return rules, [rules.schema.pack({"weight": [1] * len(g.edges), "token": g.names.index(0)})], False


def use_kernel(which: str) -> None:
    """Build kernels from the fixed C of ``which`` (in this process)."""
    files = KERNELS[which]
    shipped = build.fixed_c

    def fixed_c(package: str, name: str) -> str:
        return baseline_c(name) if name in files else shipped(package, name)

    def source(rules, box, symmetry=False, decompose=False):
        text = codegen.c_source(rules, box, symmetry, decompose)
        if "c/canon_auts.c" in files and "#define NSYM" in text:   # the baseline reads PERM[h][slot]
            rows = ", ".join("{" + ", ".join(map(str, p)) + "}" for p, _ in rules.symmetries)
            text = text.replace("#define NSYM", f"static const int16_t PERM[][NS] = {{{rows}}};\n#define NSYM", 1)
        return text

    build.fixed_c = fixed_c                        # type: ignore[assignment]
    kernel_module.kernel_source = source           # type: ignore[assignment]


def one_run(which: str, name: str, solve: bool = True) -> tuple[float, int, bytes, float]:
    """In a child: CPU seconds of the solve, positions stored, the values, and the peak RSS
    the solve added (MiB: the table at its largest, during its last growth for a table that
    grows by copying)."""
    use_kernel(which)
    rules, states, symmetry = workload(name)
    k = Kernel(rules, Box.around(rules, states), NORMAL, symmetry=symmetry, dense=False)
    if not solve:
        return 0.0, 0, b"", 0.0
    before = resource.getrusage(resource.RUSAGE_SELF)
    values = k.values(states)
    after = resource.getrusage(resource.RUSAGE_SELF)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return cpu, k.stored, values, (after.ru_maxrss - before.ru_maxrss) / 1024


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--workloads", nargs="*", default=["petersen", "q7"], choices=["petersen", "q7"])
    args = ap.parse_args()
    if not build.available():
        raise SystemExit("no C compiler here")
    os.environ["GRUNDY_CACHE"] = tempfile.mkdtemp(prefix="grundy-bench-")
    print(f"load: {os.getloadavg()[0]:.2f} (1-minute average); CPU seconds, medians of {args.repeat} "
          f"(kernels interleaved; one child process per run)")
    for name in args.workloads:
        for which in KERNELS:                      # each kernel built first (the compiler not timed)
            in_child(partial(one_run, which, name, False), 3600)
        runs: dict[str, list[tuple[float, int, bytes, float]]] = {w: [] for w in KERNELS}
        for _ in range(args.repeat):
            for which in KERNELS:
                got = in_child(partial(one_run, which, name), 3600)
                if got is None:
                    raise SystemExit(f"{name}/{which}: no result")
                runs[which].append(got)
        values = {w: r[0][2] for w, r in runs.items()}
        if len(set(values.values())) != 1:
            raise SystemExit(f"UNEQUAL values on {name}: {', '.join(values)}")
        base = statistics.median(c for c, *_ in runs["baseline"])
        print(f"{name}: {len(values['today']):,} starts, {values['today'].count(2):,} won by the mover")
        for which, r in runs.items():
            cpu = statistics.median(c for c, *_ in r)
            stored, mib = r[0][1], max(m for *_, m in r)
            print(f"  {which:9s} {cpu:7.2f} s  {stored:>11,} stored  memory {mib:6.0f} MiB "
                  f"({mib * 2 ** 20 / stored:5.1f} B/position)  baseline/this {base / cpu:5.2f}x")


if __name__ == "__main__":
    main()
