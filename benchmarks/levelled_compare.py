"""Benchmark helper: a level store compared with the memo solver at EVERY position it holds.

    python benchmarks/levelled_compare.py STORE_DIR --n 7 [--batch 524288]

STORE_DIR is one run of ``benchmarks/erickson_k8_levelled.py`` (edge-nim on K_n, weights in
{1, 2}, every token: the grid of starts). Nothing is solved by the levelled engine here; the
store's values are read level by level and each position is given to the memo solver
(``Solver(native="always").grundy_states``, the C kernel with its hash table and its own
canonical form), in batches.

How positions are mapped between the two: a level store holds *canonical keys* (the mixed-radix
index of the representative the levelled kernel's ``canon`` picks, on the box around the grid's
corners). Each key is decoded into its state (the slots in the schema's order: the 21 weights
then the token), and that state is what the memo solver is asked: it canonicalises it in its
own way (its table may hold another representative, or the position split into components);
the value of a position does not depend on the representative, so the two values are compared
as they are. Checked besides, at every position:

- the store's keys decode and re-encode to themselves under the levelled kernel's canonical
  form (the store belongs to this box and this symmetry group: else nothing is compared);
- the memo kernel's box is the levelled kernel's box (so the keys are the same numbers), and its
  own canonical form of each state (``k_canon``) is the state itself: the representatives are
  the same (counted; a difference would not change a value, but is said).

Printed: positions compared, value mismatches (with up to 5 examples), representatives that
differ, the memo solver's CPU seconds, positions stored and peak RSS (this process).
"""
from __future__ import annotations

import argparse
import resource
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

from grundy import Solver
from grundy.solvers.levelled import Grid
from grundy.solvers.levelled.ckernel import LevelKernel
from grundy.solvers.levelled.store import LevelStore
from grundy.solvers.native.kernel import GRUNDY
from grundy.spec.games import get_game
from grundy.spec.structure import Structure


def kn(n: int) -> Structure:
    return Structure.graph(range(n), [(u, v) for u in range(n) for v in range(u + 1, n)])


def decode(box: Any, keys: np.ndarray) -> np.ndarray:
    """The states of many keys of ``box`` (rows; the slots in the schema's order), vectorised."""
    idx = keys.astype(np.uint64).copy()
    out = np.zeros((len(keys), len(box.lo)), np.int64)
    for i in box.order:                  # least significant first, as Box.state
        r = np.uint64(box.radix[i])
        out[:, i] = (idx % r).astype(np.int64) + box.lo[i]
        idx //= r
    return out


def open_store(where: str) -> LevelStore:
    return LevelStore.open(where)             # the store's own digest: nothing reset


def compare_all(store: LevelStore, n: int, batch: int = 1 << 19, say: Any = print) -> dict[str, Any]:
    """Every position of ``store`` (K_n {1, 2}) against the memo solver (see the module's docstring)."""
    game, g = get_game("edge-nim"), kn(n)
    rules = game.rules(g)
    m = n * (n - 1) // 2
    grid = Grid(tuple([(1, 2)] * m + [tuple(range(n))]))
    symmetry = bool(store.manifest["about"].get("symmetry", True))
    outcome = store.manifest["about"].get("mode") == "outcome"
    kern = LevelKernel.make(rules, grid.corners(), symmetry)
    solver = Solver(native="always", max_positions=10 ** 10)
    solver.grundy_states(game, g, grid.corners())        # the memo kernel on the same box (Box.around the corners)
    memo = solver.table(game, g).kernels[GRUNDY]
    if memo.box != kern.box:
        raise SystemExit(f"the memo kernel's box {memo.box} is not the levelled kernel's {kern.box}")
    compared = bad = other_rep = 0
    examples: list[str] = []
    memo_cpu = 0.0
    t0 = time.perf_counter()
    for r in store.done("val"):
        ks, vs = store.values(r)
        for a in range(0, len(ks), batch):
            keys, vals = ks[a:a + batch], vs[a:a + batch]
            states = decode(kern.box, keys)
            if not np.array_equal(kern.canon(kern.keys(states.tolist())), keys):
                raise SystemExit(f"rank {r}: the store's keys are not this box's canonical keys (another run's store?)")
            other_rep += sum(1 for k in keys.tolist() if memo.lib.k_canon(k) != k)
            c0 = time.process_time()
            got = np.asarray(solver.grundy_states(game, g, list(map(tuple, states.tolist()))), np.int64)
            memo_cpu += time.process_time() - c0
            mine = vals.astype(np.int64)
            diff = np.flatnonzero((got != 0) != (mine != 0)) if outcome else np.flatnonzero(got != mine)
            for i in diff[:max(0, 5 - len(examples))].tolist():
                examples.append(f"{tuple(states[i].tolist())}: levelled {int(mine[i])}, memo {int(got[i])}")
            bad += len(diff)
            compared += len(keys)
        say(f"  rank {r}: {len(ks):,} positions compared ({compared:,} so far, {bad:,} mismatches), "
            f"{time.perf_counter() - t0:.0f} s")
    return {"compared": compared, "mismatches": bad, "examples": examples, "other_representative": other_rep,
            "memo_cpu": memo_cpu, "memo_stored": solver.stored, "positions": store.positions,
            "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
            "what": "outcomes (P/N)" if outcome else "Grundy values"}


def line(res: dict[str, Any]) -> str:
    word = "AGREES" if res["mismatches"] == 0 and res["compared"] == res["positions"] else "DISAGREES"
    out = (f"memo solver, every position: levelled {res['what']} {word} with the memo solver's: "
           f"{res['compared']:,} positions compared (the store holds {res['positions']:,}), "
           f"{res['mismatches']:,} mismatches; {res['other_representative']:,} stored representatives that are "
           f"not the memo kernel's own; memo solver {res['memo_cpu']:.1f} CPU s in grundy_states, "
           f"{res['memo_stored']:,} positions stored, peak RSS of the comparing process {res['peak_rss_mib']:.0f} MiB")
    if res["examples"]:
        out += "; e.g. " + "; ".join(res["examples"])
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("store", help="the store's directory (a finished run of erickson_k8_levelled.py)")
    ap.add_argument("--n", type=int, required=True)
    ap.add_argument("--batch", type=int, default=1 << 19, help="positions per call to the memo solver")
    args = ap.parse_args()
    print(f"command: python benchmarks/{Path(__file__).name} {' '.join(sys.argv[1:])}", flush=True)
    t0, c0 = time.perf_counter(), time.process_time()
    res = compare_all(open_store(args.store), args.n, args.batch, lambda s: print(s, flush=True))
    print(line(res), flush=True)
    print(f"comparison: {time.perf_counter() - t0:.0f} s wall, {time.process_time() - c0:.1f} CPU s in all "
          f"(decoding, re-encoding and the checks included)", flush=True)
    sys.exit(0 if res["mismatches"] == 0 and res["compared"] == res["positions"] else 1)


if __name__ == "__main__":
    main()
