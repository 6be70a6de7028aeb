"""Benchmark: erickson/conj4.8 on K_8 (weights in {1, 2}, every start), in parts, with a checkpoint.

RETIRED in favour of ``benchmarks/erickson_k8_levelled.py`` (the levelled solver,
docs/levelled.md). In this design every worker's solver fills nearly the whole table (K_6 with 2
workers: 65,265 and 65,076 of the 65,292 positions each), so more machines divide the parts but
never the memory (55+ GiB on every machine for K_8). Its projection used to divide the parts
left by the mean cost of the parts measured, which are the first parts of each worker, the ones
that fill its table: about 60x too high (issue 41). It now projects from the later half of the
parts in finishing order (a worker's table mostly filled), and says so; still an estimate from
the parts measured, not a measurement of the whole.

Conjecture 4.8 (Erickson): edge-nim on K_n with positive weights is a first-player win; the
thesis checked n <= 7 by hand. K_8 with weights in {1, 2}: 2^28 weight assignments x 8 token
vertices = 2,147,483,648 starts, each start's statement evaluated (the claim of
theorems/erickson.py, on K_8 alone). The solver is the one ``grundy verify`` uses: the C
kernel, outcomes only (a position's search stops at its first winning move), positions reduced
to a canonical form under S_8 (the kernel's symmetric-group plan, its premise proved by Z3 on
K_8 before use).

The starts are cut into ``--chunks`` parts (a power of two, 2^k: the weights of the first k
edges pinned, :mod:`grundy.verify.schedule.checkpoint`), run on a Dask ``LocalCluster`` of
``--workers`` single-threaded workers (or ``--executor local:N`` / ``dask://HOST:PORT``). Each
worker keeps one solver from part to part (up to ``--max-positions`` stored; then a fresh one).
Each settled part is appended to the checkpoint (``--checkpoint``), keyed by the claim's content
and the part's pins; ``--resume`` skips the parts it holds (a changed rule, claim or grundy
reuses none). ``--budget`` seconds of wall time: the parts still running then are abandoned.

It prints the parts done, the starts they cover, the CPU seconds they took (measured in the
workers), the rate (starts and parts per CPU-second), the positions stored and the peak RSS of
each worker, the verdict (``unknown`` until every part is done), and a projection of the full
run: the CPU seconds of the parts still to do, taken as the mean of the parts measured, divided
among N machines of ``--cores`` cores.

    python benchmarks/erickson_k8.py [--n 8] [--chunks 65536] [--budget 900]
                                     [--checkpoint k8.jsonl] [--resume] [--workers 2]
                                     [--max-positions 40000000] [--executor SPEC]
"""
from __future__ import annotations

import argparse
import copy
import functools
import math
import os
import statistics
import sys
import time
from pathlib import Path

from grundy.verify.claims import Claim
from grundy.verify.families import complete
from grundy.verify.loading import load
from grundy.verify.schedule.checkpoint import PartsResult, run_parts, sample
from grundy.verify.schedule.chunks import executor

THEOREMS = Path(__file__).resolve().parent.parent / "theorems"


def claim_on(n: int, top: int) -> Claim:
    """erickson/conj4.8 as written in theorems/erickson.py, on K_n alone, weights in {1..top}."""
    [c] = load([str(THEOREMS / "erickson.py")], only=["erickson/conj4.8"])
    c = copy.copy(c)
    c.family, c.bounds, c.full = complete(n), {"weight": (1, top)}, {"weight": (1, top)}
    return c


def cluster(workers: int):
    """A LocalCluster of single-threaded workers, Dask's statistical profiler off (docs/all-graphs.md)."""
    import dask
    from distributed import LocalCluster
    dask.config.set({"distributed.worker.profile.enabled": False})
    return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                        memory_limit=0)


def report(r: PartsResult, starts_per_part: int, machines: list[int], cores: int, wall: float) -> None:
    rs = r.results
    print(f"parts: {r.done:,} of {r.total:,} done ({r.reused:,} from the checkpoint, {r.checked:,} now; "
          f"{r.stale:,} stale lines ignored); wall {wall:.0f} s", flush=True)
    if not rs:
        return
    cpu = [x["cpu"] for x in rs]
    total = sum(cpu)
    print(f"checked now: {len(rs):,} parts, {len(rs) * starts_per_part:,} starts, {total:.0f} CPU s in the workers; "
          f"per part: median {statistics.median(cpu):.1f} s, mean {total / len(rs):.1f} s, "
          f"min {min(cpu):.1f} s, max {max(cpu):.1f} s", flush=True)
    half = len(rs) // 2
    if half:
        a, b = rs[:half], rs[half:]
        print(f"  first half of the parts (in finishing order): mean {sum(x['cpu'] for x in a) / len(a):.1f} CPU s; "
              f"second half: {sum(x['cpu'] for x in b) / len(b):.1f} CPU s", flush=True)
    print(f"rate: {len(rs) * starts_per_part / total:,.0f} starts per CPU-second, "
          f"{len(rs) / total:.4f} parts per CPU-second", flush=True)
    workers: dict[int, dict] = {}
    for x in rs:
        workers[x["pid"]] = x                    # each worker's last part
    for pid, x in sorted(workers.items()):
        print(f"  worker {pid}: {x['stored']:,} positions stored (its solver, at its last part); "
              f"peak RSS {x['rss']:.0f} MiB", flush=True)
    left = r.total - r.done
    later = rs[half:] if half else rs          # the first parts of each worker fill its table: not the rate to come
    mean = sum(x["cpu"] for x in later) / len(later)
    print(f"projection: {left:,} parts left x {mean:.1f} CPU s (the mean of the later {len(later):,} parts in "
          f"finishing order; the first parts fill each worker's table) = {left * mean / 3600:,.1f} CPU hours "
          f"(retired design: see benchmarks/erickson_k8_levelled.py)", flush=True)
    for m in machines:
        print(f"  on {m} machine(s) of {cores} cores: {left * mean / (m * cores) / 3600:,.1f} h wall "
              f"(if the parts to come cost what these did)", flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=8, help="K_n (default 8)")
    ap.add_argument("--top", type=int, default=2, help="weights in 1..top (default 2)")
    ap.add_argument("--chunks", type=int, default=65536, help="parts: a power of the number of weights")
    ap.add_argument("--budget", type=float, default=900.0, help="wall seconds (parts running then are abandoned)")
    ap.add_argument("--checkpoint", default="k8.jsonl", help="the checkpoint file (JSON lines)")
    ap.add_argument("--resume", action="store_true", help="skip the parts the checkpoint holds")
    ap.add_argument("--workers", type=int, default=2, help="LocalCluster workers (one thread each)")
    ap.add_argument("--executor", default=None, help="local:N or dask://HOST:PORT instead of a LocalCluster")
    ap.add_argument("--max-positions", type=int, default=40_000_000, help="positions a worker's solver may store")
    ap.add_argument("--limit", type=float, default=None, help="seconds allowed to one part (default: the budget)")
    ap.add_argument("--machines", type=int, nargs="*", default=[1, 10, 100, 1000], help="N for the projection")
    ap.add_argument("--cores", type=int, default=2, help="cores per machine for the projection")
    ap.add_argument("--every", type=float, default=30.0, help="seconds between samples of the workers")
    args = ap.parse_args()
    k = round(math.log(args.chunks, args.top))
    if args.top ** k != args.chunks or k < 0:
        print(f"--chunks {args.chunks}: not a power of {args.top} (the weights each pinned edge takes)", file=sys.stderr)
        sys.exit(2)
    path = Path(args.checkpoint)
    if path.exists() and not args.resume:
        print(f"--checkpoint {path}: exists (give --resume to go on from it, or remove it)", file=sys.stderr)
        sys.exit(2)
    print(f"command: python benchmarks/{Path(__file__).name} {' '.join(sys.argv[1:])}", flush=True)
    print(f"load average at the start: {os.getloadavg()[0]:.2f} ({os.cpu_count()} cores)", flush=True)
    edges = args.n * (args.n - 1) // 2
    starts = args.top ** edges * args.n
    per = starts // args.chunks
    print(f"K_{args.n}, weights in 1..{args.top}: {starts:,} starts in {args.chunks:,} parts of {per:,} "
          f"(the first {k} edges' weights pinned)", flush=True)
    claim = claim_on(args.n, args.top)
    make = functools.partial(claim_on, args.n, args.top)
    t0 = time.monotonic()
    last = [t0]
    samples: list[tuple[float, dict]] = []          # (wall, a worker's sample)
    client = [None]

    def progress(r: PartsResult) -> None:
        now = time.monotonic()
        if now - last[0] < args.every:
            return
        last[0] = now
        got = {}
        if client[0] is not None:                   # each worker's solver, read while it runs
            try:
                got = client[0].run(sample)
            except Exception:                       # noqa: BLE001  (a worker busy or gone: no sample)
                got = {}
        samples.extend((now - t0, x) for x in got.values())
        line = "; ".join(f"pid {x['pid']}: {x['stored']:,} stored, {x['cpu']:.0f} CPU s, RSS {x['rss']:.0f} MiB"
                         for x in got.values())
        print(f"  [{now - t0:5.0f} s] {r.done:,}/{r.total:,} parts done; {line}", file=sys.stderr, flush=True)

    def go(ex) -> PartsResult:
        client[0] = getattr(ex, "client", None)
        return run_parts(claim, ex, field="weight", k=k, path=path, budget=args.budget,
                         limit=args.limit or args.budget, claim_of=make, max_positions=args.max_positions,
                         progress=progress)

    if args.executor:
        with executor(args.executor) as ex:
            r = go(ex)
    else:
        with cluster(args.workers) as lc, executor("dask://" + lc.scheduler_address.split("://")[-1]) as ex:
            r = go(ex)
    wall = time.monotonic() - t0
    v = r.verdict
    print(f"verdict: {v.verdict}; {v.scope or v.detail}", flush=True)
    if v.counterexample is not None:
        print(f"counterexample: {v.counterexample.witness}", flush=True)
    report(r, per, args.machines, args.cores, wall)
    growth(samples)


def growth(samples: list[tuple[float, dict]]) -> None:
    """Each worker's positions stored per CPU-second and MiB per million positions, from its
    first and last samples with positions stored (the parts' progress inside the C kernel)."""
    by: dict[int, list[dict]] = {}
    for _, x in samples:
        by.setdefault(x["pid"], []).append(x)
    for pid, xs in sorted(by.items()):
        xs = [x for x in xs if x["stored"] > 0]
        if len(xs) < 2:
            continue
        a, b = xs[0], xs[-1]
        cpu, grew = b["cpu"] - a["cpu"], b["stored"] - a["stored"]
        per = (b["rss"] - a["rss"]) / grew * 1e6 if grew > 0 else float("nan")
        print(f"worker {pid}: {a['stored']:,} -> {b['stored']:,} positions stored in {cpu:.0f} CPU s "
              f"({grew / cpu if cpu > 0 else 0:,.0f} per CPU-second); RSS {a['rss']:.0f} -> {b['rss']:.0f} MiB "
              f"({per:.0f} MiB per million positions); peak {b['peak']:.0f} MiB", flush=True)


if __name__ == "__main__":
    main()
