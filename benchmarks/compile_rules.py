"""Benchmark: setting up every structure of a sweep (issue 12: the per-structure cost).

Fixed workload: for every structure of the family of a claim, what ``grundy verify`` does before
evaluating a position: the game's rules on the structure, the claim's statement and assumption
built and compiled to Python, and the rules compiled (``compile_rules``: successors, rank,
canonical form). Two families: vnim/thm10-corrected (undirected vertexnim, the connected graphs
on <= 5 vertices with every loop set: 419 structures) and grim/thm8 (grim on the graphs of its
family: 277 structures, whose moves differ from graph to graph).

Each pass runs in a fresh process (nothing cached from a previous pass) and prints its CPU and
wall seconds; medians of ``--repeat`` passes. Baseline in the same run: the same workload on the
source of ``--baseline REV`` (default: the commit before the per-structure caches), extracted with
``git archive`` into a temporary folder. As a check that both do the same work, every pass
evaluates the compiled statement, assumption, rank and successors at the first states of each
structure and prints a digest of the results: the two must agree.

    python benchmarks/compile_rules.py [--repeat 3] [--baseline REV | --no-baseline]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BASELINE = "3ec8601"          # main before the per-structure caches (hash-consing, code caches)
FAMILIES = [("theorems/vnim.py", "vnim/thm10-corrected"), ("theorems/grim.py", "grim/thm8")]

WORKLOAD = r"""
import hashlib, itertools, json, sys, time
sys.path.insert(0, sys.argv[1])
import grundy
assert grundy.__file__.startswith(sys.argv[1]), grundy.__file__
from grundy.verify.loading import load
from grundy.verify.check import Instance
from grundy.verify.families import states
from grundy.solvers.solver import Solver
[claim] = load([sys.argv[2]], only=[sys.argv[3]])
solver = Solver(vet=False)
items = list(claim.family.items())
cpu, wall = time.process_time(), time.perf_counter()
insts = []
for label, g in items:
    inst = Instance(claim, label, g, solver)
    inst.code.successors
    insts.append(inst)
cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
digest = hashlib.sha256()
for inst in insts:
    for st in itertools.islice(states(inst.rules, claim.bounds, None), 3):
        digest.update(repr((st, inst.stmt(st), inst.assume(st), inst.code.rank(st),
                            sorted(inst.code.successors(st)))).encode())
print(json.dumps({"cpu": cpu, "wall": wall, "structures": len(items), "digest": digest.hexdigest()[:16]}))
"""


def one_pass(tree: Path, path: str, claim: str) -> dict:
    out = subprocess.run([sys.executable, "-c", WORKLOAD, str(tree), str(ROOT / path), claim],
                         capture_output=True, text=True, cwd=ROOT, env={**os.environ, "GRUNDY_NATIVE": "0"})
    if out.returncode:
        raise SystemExit(f"the workload failed on {tree}:\n{out.stderr.strip().splitlines()[-1]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def baseline_tree(rev: str, into: Path) -> Path | None:
    """The package's source at ``rev`` (None, with a message, when git cannot give it)."""
    out = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "grundy"], capture_output=True)
    if out.returncode:
        print(f"no baseline: git archive {rev}: {out.stderr.decode().strip()}")
        return None
    archive = into / "base.tar"
    archive.write_bytes(out.stdout)
    with tarfile.open(archive) as t:
        t.extractall(into / "base", filter="data")
    return into / "base"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--baseline", default=BASELINE, help="the git revision measured as the baseline")
    ap.add_argument("--no-baseline", action="store_true")
    a = ap.parse_args()
    print("command: python benchmarks/compile_rules.py " + " ".join(sys.argv[1:]))
    print(f"load before: {os.getloadavg()[0]:.2f}")
    with tempfile.TemporaryDirectory() as tmp:
        trees = [("this tree", ROOT)]
        if not a.no_baseline:
            base = baseline_tree(a.baseline, Path(tmp))
            if base is not None:
                trees.append((f"baseline {a.baseline}", base))
        for path, claim in FAMILIES:
            rows = {}
            for name, tree in trees:
                passes = [one_pass(tree, path, claim) for _ in range(a.repeat)]
                cpu = statistics.median(p["cpu"] for p in passes)
                wall = statistics.median(p["wall"] for p in passes)
                digests = {p["digest"] for p in passes}
                rows[name] = (cpu, wall, digests)
                print(f"{claim:24} {name:18} {passes[0]['structures']} structures: median of {a.repeat}: "
                      f"{cpu:6.2f} s CPU, {wall:6.2f} s wall ({1000 * cpu / passes[0]['structures']:.1f} ms CPU "
                      f"per structure)  digest {','.join(sorted(digests))}")
            if len(rows) == 2:
                (c1, _, d1), (c0, _, d0) = rows.values()
                print(f"{claim:24} speed-up (CPU): {c0 / c1:.1f}x; same results: {'yes' if d0 == d1 else 'NO'}")
    print(f"load after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
