"""Benchmark: the solver's premises (grundy.solvers.premises) proved cold, one process, as the
main job proves them structure after structure (issue 41: grim's and vertexnim's premises).

Fixed workload: grim's symmetry and decomposition on the paths P_1..P_45 and the cycles
C_3..C_40 (83 structures, grim/thm23's and grim/cor24's families), then vertexnim's symmetry on
the Petersen graph (200 moves, 4 generators). Prints the CPU seconds of each part and a digest
of every premise's status and ``how`` (two trees agree on the statuses if the digests of
``--statuses`` agree). Run each measurement in a fresh process (the proofs' memos are per
process): ``--repeat`` runs this file again that many times and prints the medians.

    python benchmarks/premise_proofs.py [--repeat 3] [--statuses]
"""
from __future__ import annotations

import argparse
import hashlib
import statistics
import subprocess
import sys
import time


def once(statuses: bool) -> dict[str, float]:
    import networkx as nx
    import z3  # noqa: F401  (imported before the clock: the job has it loaded)

    from grundy.solvers import premises
    from grundy.spec import Structure
    from grundy.spec.games import get_game
    grim = get_game("grim")
    graphs = ([Structure.graph(range(n), [(i, i + 1) for i in range(n - 1)]) for n in range(1, 46)]
              + [Structure.graph(range(n), [(i, (i + 1) % n) for i in range(n)]) for n in range(3, 41)])
    rules = [grim.rules(g) for g in graphs]
    petersen = get_game("vertexnim").rules(Structure.graph(range(10), list(nx.petersen_graph().edges())))
    group = premises.symmetry_group(petersen)
    out: list[str] = []
    t0 = time.process_time()
    out += [premises.prove_symmetry(r, cache=False).status for r in rules]
    t1 = time.process_time()
    out += [premises.prove_decomposition(r, cache=False).status for r in rules]
    t2 = time.process_time()
    out.append(premises.prove_symmetry(petersen, group, cache=False).status)
    t3 = time.process_time()
    if statuses:
        print("statuses", hashlib.sha256(repr(out).encode()).hexdigest()[:16], sorted(set(out)))
    return {"grim symmetry": t1 - t0, "grim decomposition": t2 - t1, "vertexnim Petersen symmetry": t3 - t2}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--statuses", action="store_true")
    ap.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        for k, v in once(args.statuses).items():
            print(f"{k}\t{v:.3f}")
        return
    runs: dict[str, list[float]] = {}
    for _ in range(args.repeat):
        cmd = [sys.executable, __file__, "--child"] + (["--statuses"] * args.statuses)
        for line in subprocess.run(cmd, check=True, capture_output=True, text=True).stdout.splitlines():
            if line.startswith("statuses"):
                print(line)
                continue
            k, v = line.split("\t")
            runs.setdefault(k, []).append(float(v))
    for k, vs in runs.items():
        print(f"{k:30s} {statistics.median(vs):6.2f} CPU s (median of {len(vs)})")
    print(f"{'in all':30s} {sum(statistics.median(vs) for vs in runs.values()):6.2f} CPU s")


if __name__ == "__main__":
    main()
