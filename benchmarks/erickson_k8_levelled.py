"""Benchmark: Erickson's conjecture 4.8 on K_N, weights in {1, 2}, by the levelled solver.

Every weight assignment in {1, 2} and every token (2^(N(N-1)/2) x N starts) is a start; the
levelled solver (grundy/solvers/levelled) solves every position reachable from them by canonical
form under S_N, level by level of total weight: forward (the positions), backward (the Grundy
values, or with --mode outcome the outcomes). The conjecture holds on K_N with these weights
iff every start has a value other than 0; that is printed as the engine's finding (the claim in
theorems/erickson.py is not touched; a claim gets this engine with methods=["levelled"]).

Printed: the engine chosen and why; the starts' cost; per level: positions, children (rows),
seconds, CPU, peak memory (the process, or each Dask worker), rows and bytes shuffled (Dask);
totals and rates (children per CPU second in each pass); for N <= 6 (or --memo) a line saying
whether every position's value agrees with the memo solver's (``Solver().grundy_states``).
With --budget the run stops after the level that passes it; the store keeps every finished
level, and a later run with the same arguments resumes there. A run that did not finish
prints a projection of the whole from the measured rates: the positions of each level not yet
done estimated as the weight assignments of that total weight times N over N! (orbit counting;
a lower bound), scaled by the ratio measured/estimated over the levels done (largest levels),
times the CPU per position measured on the largest levels done (not the first).

    python benchmarks/erickson_k8_levelled.py --n 6 [--engine dask|numpy|auto] [--workers 2]
        [--partitions P] [--budget SECONDS] [--root DIR] [--mode grundy|outcome] [--memo]
    python benchmarks/erickson_k8_levelled.py --n 7 --report STORE_DIR [--project 8] [--memo-sample 100]
        [--compare all]

``--report``: a store's levels (a run under way, or stopped) and the projections, nothing solved;
``--project M``: K_M projected from the measured rates (see ``project_up`` for what is measured
and what is extrapolated); ``--compare all``: every position of the store (a finished run, or
the run just made) compared with the memo solver's value, in a process of its own
(``benchmarks/levelled_compare.py``: how the positions are mapped, and its CPU and memory).
"""
from __future__ import annotations

import argparse
import json
import math
import os
import resource
import sys
import time
from pathlib import Path

from grundy import Solver
from grundy.solvers.levelled import Grid, solve_levelled
from grundy.spec.games import get_game
from grundy.spec.structure import Structure


def kn(n: int) -> Structure:
    return Structure.graph(range(n), [(u, v) for u in range(n) for v in range(u + 1, n)])


def raw_by_rank(m: int, n: int) -> list[int]:
    """Weight vectors in {0, 1, 2}^m by their sum, times n tokens (the coefficients of (1+x+x^2)^m)."""
    c = [1]
    for _ in range(m):
        c = [sum(c[j] for j in (i, i - 1, i - 2) if 0 <= j < len(c)) for i in range(len(c) + 2)]
    return [x * n for x in c]


def memo_check(store, g) -> str:
    box = store.kernel.box
    states, values = [], []
    for _, keys, vals in store.levels():
        states += [box.state(int(k)) for k in keys]
        values += vals.tolist()
    t = time.process_time()
    memo = Solver().grundy_states(get_game("edge-nim"), g, states)
    bad = sum(a != b for a, b in zip(values, memo))
    word = "AGREES" if not bad else f"DISAGREES at {bad:,} positions"
    return (f"memo solver: levelled values {word} with the memo solver's (Solver().grundy_states) at every one of "
            f"{len(states):,} positions ({time.process_time() - t:.1f} CPU s for the memo solver)")


def table(store, kind: str) -> None:
    stats = store.stats(kind)
    for r in sorted(stats, reverse=kind == "fwd"):
        x = stats[r]
        mem = (f"RSS {x['rss_mib']:.0f} MiB" if "rss_mib" in x else
               "workers " + ", ".join(f"{v:.0f}" for v in x.get("worker_peak_mib", {}).values()) + " MiB")
        sh = f", {x['shuffled_rows']:,} rows / {x['shuffled_bytes'] / 2**20:.1f} MiB shuffled" if "shuffled_bytes" in x else ""
        print(f"  {kind} rank {r:3d}: {x['count']:>12,} positions {x['rows']:>13,} children "
              f"{x.get('seconds', 0):8.2f} s {x.get('cpu', float('nan')):8.2f} CPU s; {mem}{sh}", flush=True)


def totals(store, kind: str) -> tuple[float, int, int]:
    s = store.stats(kind).values()
    cpu = sum(x.get("cpu", x.get("seconds", 0)) for x in s)
    return cpu, sum(x["count"] for x in s), sum(x["rows"] for x in s)


def projection(store, n: int, starts_cpu: float, machines: list[int], cores: int) -> None:
    m = n * (n - 1) // 2
    est = [x / math.factorial(n) for x in raw_by_rank(m, n)]
    fwd, val = store.stats("fwd"), store.stats("val")
    big = sorted((r for r in fwd if fwd[r]["count"] > 0), key=lambda r: -fwd[r]["count"])[:5]
    if not big:
        print("projection: no level done", flush=True)
        return
    ratio = sum(fwd[r]["count"] for r in big) / sum(est[r] for r in big)
    per_f = sum(fwd[r].get("cpu", fwd[r]["seconds"]) for r in big) / sum(fwd[r]["count"] for r in big)
    bv = [r for r in sorted(val, key=lambda r: -val[r]["count"]) if val[r]["count"] > 0][:5]
    per_b = (sum(val[r].get("cpu", val[r]["seconds"]) for r in bv) / sum(val[r]["count"] for r in bv)) if bv else per_f
    total = sum(est) * ratio
    left_f = sum(est[r] for r in range(len(est)) if r not in fwd) * ratio
    left_b = sum(est[r] for r in range(len(est)) if r not in val) * ratio
    cpu = left_f * per_f + left_b * per_b
    print(f"projection: about {total:.3g} positions in all (orbit estimate x {ratio:.2f}, the ratio measured on "
          f"the {len(big)} largest levels done); forward {per_f * 1e6:.1f} CPU us per position, backward "
          f"{per_b * 1e6:.1f} (measured on the largest levels done); left: {left_f:.3g} forward, {left_b:.3g} "
          f"backward = {cpu / 3600:,.1f} CPU hours (+ the starts: {starts_cpu:.0f} CPU s measured)", flush=True)
    for k in machines:
        print(f"  on {k} machine(s) of {cores} cores: {cpu / (k * cores) / 3600:,.2f} h wall if the work divides "
              f"evenly (the Dask path: each level's rows divided among the workers)", flush=True)


def _biggest(stats: dict, k: int = 5) -> list[int]:
    return sorted((r for r in stats if stats[r]["count"] > 0), key=lambda r: -stats[r]["count"])[:k]


def project_up(store, n: int, m: int, machines: list[int], cores: int) -> None:
    """K_m {1, 2} projected from this K_n run's measured rates (the largest levels done).

    Measured on K_n: CPU per position in each pass (backward: the forward's where no backward
    level is done), children per position, shuffled bytes per position, the workers' peak, the
    wall time of the smallest levels (the engine's per-level overhead). Extrapolated: K_m's
    positions (orbit counting x the ratio measured/estimated on K_n's largest levels: K_m's ratio
    is nearer 1, so this leans high); the cost per position scaled by the children per position,
    taken as proportional to the token's degree (m - 1 over n - 1); the canonical form's cost per
    child taken as K_n's (S_m's is not measured)."""
    fwd, val = store.stats("fwd"), store.stats("val")
    big = _biggest(fwd)
    if not big:
        print("projection: no level done", flush=True)
        return
    mm = m * (m - 1) // 2
    est_n = [x / math.factorial(n) for x in raw_by_rank(n * (n - 1) // 2, n)]
    est_m = [x / math.factorial(m) for x in raw_by_rank(mm, m)]
    ratio = sum(fwd[r]["count"] for r in big) / sum(est_n[r] for r in big)
    pos = sum(fwd[r]["count"] for r in big)
    per_f = sum(fwd[r].get("cpu", fwd[r]["seconds"]) for r in big) / pos
    bv = _biggest(val)
    per_b = (sum(val[r].get("cpu", val[r]["seconds"]) for r in bv) / sum(val[r]["count"] for r in bv)) if bv else per_f
    kids = sum(fwd[r]["rows"] for r in big) / pos
    sh_f = sum(fwd[r].get("shuffled_bytes", 0) for r in big) / pos
    sh_b = (sum(val[r].get("shuffled_bytes", 0) for r in bv) / sum(val[r]["count"] for r in bv)) if bv else None
    every = [x for kind in (fwd, val) for x in kind.values() if x.get("worker_peak_mib")]
    peak = max((max(x["worker_peak_mib"].values()) for x in every), default=0.0)
    base = min((min(x["worker_peak_mib"].values()) for x in every), default=0.0)
    workers = max((len(x["worker_peak_mib"]) for x in every), default=1)
    heavy = max(every, key=lambda x: x.get("shuffled_rows", 0), default=None)   # the level that set the peak
    row_bytes = ((peak - base) * 2 ** 20 / (heavy["shuffled_rows"] / workers)) if heavy and heavy.get("shuffled_rows") else 0.0
    rows_per_pos = heavy["shuffled_rows"] / heavy["count"] if heavy and heavy.get("count") else 0.0
    small = sorted(fwd[r]["seconds"] for r in fwd if fwd[r]["count"] < 1000)
    over = small[len(small) // 2] if small else 0.0
    scale = (m - 1) / (n - 1)
    total = sum(est_m) * ratio
    cpu = total * (per_f + per_b) * scale
    top = max(est_m) * ratio
    print(f"K_{m} from K_{n} (measured on the {len(big)} largest forward levels done, {pos:,} positions; "
          f"backward {'measured on ' + str(len(bv)) + ' levels' if bv else 'NOT measured: taken as the forward'}): "
          f"forward {per_f * 1e6:.1f} CPU us/position, backward {per_b * 1e6:.1f}, {kids:.2f} children/position, "
          f"{sh_f:.0f} bytes shuffled/position forward" + (f", {sh_b:.0f} backward" if sh_b is not None else "")
          + f"; workers' peak {peak:.0f} MiB; median wall of a level under 1,000 positions {over:.1f} s", flush=True)
    print(f"  K_{m}: about {total:.3g} positions (orbit estimate x {ratio:.2f}), {2 * mm + 1} ranks, the largest "
          f"about {top:.3g}; children x {scale:.2f} per position -> {cpu / 3600:,.0f} CPU hours (both passes); "
          f"shuffled about {total * (sh_f + (sh_b if sh_b is not None else sh_f)) * scale / 1e12:.2f} TB", flush=True)
    print(f"  memory: K_{n}'s peak level shuffled {rows_per_pos:.1f} rows per position, {row_bytes:.0f} bytes a row "
          f"held per worker above a base of {base:.0f} MiB ({workers} workers); K_{m}'s largest level about "
          f"{top * rows_per_pos * scale:.3g} rows", flush=True)
    for k in machines:
        mem = base / 1024 + top * rows_per_pos * scale * row_bytes / (k * cores) / 2 ** 30
        print(f"  on {k} machine(s) of {cores} workers: about {mem:,.1f} GiB peak per worker (rows divided evenly)",
              flush=True)
    for k in machines:
        w = cpu / (k * cores) + 2 * (2 * mm + 1) * over
        print(f"  on {k} machine(s) of {cores} cores: {w / 3600:,.1f} h wall if each level divides evenly (plus "
              f"{2 * (2 * mm + 1)} levels x {over:.0f} s of overhead); the largest level's children per core "
              f"{top * kids * scale / (k * cores):.3g}", flush=True)


def memo_sample(store, n: int, per: int) -> str:
    """A seeded sample of ``per`` positions a level (all of a smaller level) compared with the memo solver."""
    import numpy as np

    from grundy.solvers.levelled.ckernel import LevelKernel
    g = kn(n)
    m = n * (n - 1) // 2
    kern = LevelKernel.make(get_game("edge-nim").rules(g), Grid(tuple([(1, 2)] * m + [tuple(range(n))])).corners(),
                            bool(store.manifest["about"].get("symmetry", True)))
    rng = np.random.default_rng(7)
    states, values = [], []
    for _, keys, vals in store.levels():
        i = rng.choice(len(keys), size=min(per, len(keys)), replace=False)
        got = [kern.box.state(int(k)) for k in keys[i]]
        if not np.array_equal(kern.canon(kern.keys(got)), keys[i]):
            raise SystemExit("the store's keys do not decode on this box (another run's store?)")
        states += got
        values += vals[i].tolist()
    t = time.process_time()
    memo = Solver().grundy_states(get_game("edge-nim"), g, states)
    bad = sum(a != b for a, b in zip(values, memo))
    return (f"memo solver on a seeded sample ({per} positions a level): {len(states):,} positions, "
            f"{'every one AGREES' if not bad else f'{bad:,} DISAGREE'} ({time.process_time() - t:.1f} CPU s)")


def compare_every_position(where: Path, n: int) -> int:
    """``benchmarks/levelled_compare.py`` on the store, in a process of its own (its memory and
    CPU apart from the run's); its exit status (0: every position agrees)."""
    import subprocess
    cmd = [sys.executable, str(Path(__file__).with_name("levelled_compare.py")), str(where), "--n", str(n)]
    c0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    rc = subprocess.run(cmd).returncode
    c1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"comparison process: exit {rc}, {c1.ru_utime - c0.ru_utime + c1.ru_stime - c0.ru_stime:.1f} CPU s, "
          f"peak RSS {c1.ru_maxrss / 1024:.0f} MiB (the largest child's so far)", flush=True)
    return rc


def report(where: str, n: int, machines: list[int], cores: int, up: int | None, sample: int = 0) -> None:
    """Print a store's per-level table, totals and projections (nothing is solved)."""
    from grundy.solvers.levelled.store import LevelStore
    d = Path(where)
    mf = json.loads((d / "manifest.json").read_text())
    store = LevelStore(d.parent, mf["digest"], mf["about"])     # the store's own digest: nothing reset
    print(f"store: {store.path}; forward counts digest {store.counts_digest()}", flush=True)
    table(store, "fwd")
    table(store, "val")
    for kind in ("fwd", "val"):
        c, pos, rows = totals(store, kind)
        print(f"{kind}: {len(store.stats(kind))} levels, {pos:,} positions, {rows:,} children, {c:.1f} CPU s, "
              f"{rows / c if c else 0:,.0f} children per CPU second", flush=True)
    projection(store, n, store.manifest.get("starts_cpu", 0.0), machines, cores)
    if up:
        project_up(store, n, up, machines, cores)
    if sample:
        print(memo_sample(store, n, sample), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=6)
    ap.add_argument("--engine", default="dask", choices=["auto", "numpy", "dask"],
                    help="dask (default: a LocalCluster, the engine for the large instances), numpy, or auto")
    ap.add_argument("--workers", type=int, default=2, help="LocalCluster workers (Dask path)")
    ap.add_argument("--partitions", type=int, default=None)
    ap.add_argument("--shuffle", default=None, choices=["p2p", "tasks"],
                    help="Dask's shuffle (default: p2p where distributed has it; GRUNDY_LEVELLED_SHUFFLE)")
    ap.add_argument("--budget", type=float, default=None, help="wall seconds (stop after the level that passes it)")
    ap.add_argument("--root", default=None, help="the level stores' directory (default $GRUNDY_CACHE/levelled)")
    ap.add_argument("--mode", default="grundy", choices=["grundy", "outcome"])
    ap.add_argument("--memo", action="store_true", help="compare with the memo solver (default: N <= 6)")
    ap.add_argument("--machines", type=int, nargs="*", default=[1, 10, 100])
    ap.add_argument("--cores", type=int, default=2)
    ap.add_argument("--quiet", action="store_true", help="no line per level while running")
    ap.add_argument("--report", metavar="STORE_DIR", default=None,
                    help="print a store's levels and projections (a run under way or stopped); solve nothing")
    ap.add_argument("--project", type=int, default=None, metavar="M",
                    help="with --report: also project K_M {1, 2} from this run's measured rates")
    ap.add_argument("--memo-sample", type=int, default=0, metavar="K",
                    help="with --report: compare K positions a level (seeded) with the memo solver")
    ap.add_argument("--compare", choices=["all"], default=None,
                    help="every position of the store compared with the memo solver (after the run, or "
                         "with --report), in a process of its own: benchmarks/levelled_compare.py")
    args = ap.parse_args()
    if args.report:
        report(args.report, args.n, args.machines, args.cores, args.project, args.memo_sample)
        if args.compare:
            sys.exit(compare_every_position(Path(args.report), args.n))
        return
    print(f"command: python benchmarks/{Path(__file__).name} {' '.join(sys.argv[1:])}", flush=True)
    print(f"load average at the start: {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores)", flush=True)
    n, g = args.n, kn(args.n)
    m = n * (n - 1) // 2
    grid = Grid(tuple([(1, 2)] * m + [tuple(range(n))]))
    print(f"K_{n}, weights in {{1, 2}}: {grid.size:,} starts", flush=True)
    t0, c0 = time.perf_counter(), time.process_time()
    stop_at = None if args.budget is None else t0 + args.budget

    def progress(line: str) -> None:
        if not args.quiet:
            print(f"  [{time.perf_counter() - t0:7.1f} s] {line}", flush=True)

    def until() -> str | None:
        return "by --budget" if stop_at is not None and time.perf_counter() > stop_at else None

    os.environ["GRUNDY_LEVELLED_WORKERS"] = str(args.workers)
    if args.shuffle:
        os.environ["GRUNDY_LEVELLED_SHUFFLE"] = args.shuffle
    store = solve_levelled(get_game("edge-nim"), g, grid, mode=args.mode, engine=args.engine, root=args.root,
                           partitions=args.partitions, progress=progress, until=until)
    finished = store.stopped is None
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    print(f"{store.note}", flush=True)
    print(f"store: {store.path} (digest {store.digest[:16]}); forward counts digest {store.counts_digest()}", flush=True)
    print(f"wall {wall:.1f} s, this process {cpu:.1f} CPU s, peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB; "
          f"starts: {store.manifest.get('starts_cpu', float('nan')):.1f} CPU s", flush=True)
    table(store, "fwd")
    table(store, "val")
    for kind in ("fwd", "val"):
        c, pos, rows = totals(store, kind)
        print(f"{kind}: {len(store.stats(kind))} levels, {pos:,} positions, {rows:,} children, {c:.1f} CPU s "
              f"(Dask: workers' and client's), {rows / c if c else 0:,.0f} children per CPU second", flush=True)
    print("per-level counts: " + json.dumps(store.counts()), flush=True)
    if finished:
        z, c = store.manifest["starts_zero"], store.manifest["starts_canonical"]
        word = "every start is N: conjecture 4.8 holds" if z == 0 else f"{z:,} starts are P: conjecture 4.8 FAILS"
        print(f"finding (the engine's, not a claim's verdict): {c:,} canonical starts, {z:,} of value 0 (P); "
              f"{word} on K_{n} with weights in {{1, 2}}", flush=True)
        if args.compare:
            sys.exit(compare_every_position(store.path, n))
        if args.memo or n <= 6:
            print(memo_check(store, g), flush=True)
    else:
        print(f"{store.stopped.text} after {wall:.0f} s; a run with the same arguments resumes", flush=True)
        projection(store, n, store.manifest.get("starts_cpu", 0.0), args.machines, args.cores)


if __name__ == "__main__":
    main()
