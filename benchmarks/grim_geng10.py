"""Benchmark: grim/thm15 and grim/cor16 over every graph on <= 10 vertices, on a Dask LocalCluster.

Theorem 15 (Adams et al.): a graph with an involution that fixes no vertex and never maps a
vertex to a neighbour is a P-position of Grim; Corollary 16: with no isolated vertex and such an
involution fixing exactly one vertex, an N-position. Both are checked at the starting position of
every graph on 1..10 vertices that meets the hypothesis (12,005,168 graphs read from nauty's geng),
through ``grundy verify``'s chunked path on a ``LocalCluster(n_workers=2, threads_per_worker=1)``
reached as ``--executor dask://HOST:PORT``.

nauty's pickg drops first the graphs whose automorphism group cannot hold the involution
(Theorem 15: a vertex fixed by every automorphism; Corollary 16: a trivial group, or two such
vertices): ``geng(n, where=hyp15, max_fixed=0)``, ``geng(n, where=hyp16, symmetric=True,
max_fixed=1)``. The hypotheses then decide in Python, as without the filter. The baseline, in the
same run and on the same cluster, is the sweep without the filter (every graph through Python:
the long sweep whose memory must stay flat), on <= 9 and on <= 10 vertices.

Printed: graphs read, graphs meeting each hypothesis, the verdicts, the wall time (median of
--repeat runs), and each worker's resident memory (RSS, sampled every 2 s): at the start of
every sweep, at each tenth of its samples, at the end, its peak (ru_maxrss), and whether it is
flat: the largest RSS sampled in the second half of the sweep is at most ``FLAT`` (5%) above
the largest in the first half (the caches fill early, then stay within their bounds).

Dask's own statistical profiler is off on the cluster (``distributed.worker.profile.enabled``):
each worker keeps its last 1,000 one-second profiles of the stacks it ran (two trees per second),
which grow for the first ~17 minutes of a worker's life (tens of MiB; Dask's memory, not
grundy's); ``--dask-profile`` keeps it on.

    python benchmarks/grim_geng10.py [--repeat 3] [--sizes 9 10] [--baseline-max 10] [--workers 2] [--dask-profile]

Target (issue 12): the 10-vertex sweep under 30 minutes on 2 cores. Needs nauty (apt-get install
nauty) and dask.distributed (pip install -e '.[dask]').
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path

from grundy.verify.families import GENG_HINT, geng, geng_program, pickg_program
from grundy.verify.loading import load
from grundy.verify.schedule.pool import run

TARGET = 30 * 60.0
FLAT = 0.05           # flat: the second half's largest RSS at most 5% above the first half's
THEOREMS = Path(__file__).resolve().parent.parent / "theorems"

CLAIMS = textwrap.dedent('''
    import sys
    sys.path.insert(0, {theorems!r})
    from grim import GENG15, GENG16, hyp15, hyp16     # the hypotheses and filters of theorems/grim.py
    from grundy.verify import Claim, Source
    from grundy.verify.families import geng

    def start(g, v):
        """the starting position"""
        return [int(g.degree(v) > 0)]

    F15, F16 = (GENG15, GENG16) if {filtered!r} else ({{}}, {{}})
    CLAIMS = [
        Claim("grim/thm15", source=Source("grim", "Theorem 15"), game="grim", kind="char",
              family=geng({n}, where=hyp15, **F15), statement=lambda g, s: True,
              bounds={{"alive": start}}, timeout=7200),
        Claim("grim/cor16", source=Source("grim", "Corollary 16"), game="grim", kind="char",
              family=geng({n}, where=hyp16, **F16), statement=lambda g, s: False,
              bounds={{"alive": start}}, timeout=7200),
    ]
''')


def memory() -> tuple[int, int]:
    """(resident memory now, peak resident memory) of this process, in KiB (Linux)."""
    import os
    import resource
    with open("/proc/self/statm") as f:
        now = int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") // 1024
    return now, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


class Sampler:
    """Each worker's resident memory every ``every`` seconds while a sweep runs."""

    def __init__(self, client, every: float = 2.0):
        self.client, self.every = client, every
        self.samples: dict[str, list[int]] = {}
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._loop, daemon=True)

    def _loop(self) -> None:
        while not self._stop.wait(self.every):
            try:
                for w, (now, _) in self.client.run(memory).items():
                    self.samples.setdefault(w, []).append(now)
            except Exception:                      # noqa: BLE001  (a busy worker: skip this sample)
                pass

    def __enter__(self) -> "Sampler":
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._thread.join()


def sweep(client, address: str, path: Path) -> tuple[float, list, dict, dict, dict]:
    """One run of the two claims: seconds, verdicts, and per worker (memory before, after, sampled)."""
    before = client.run(memory)
    with Sampler(client) as sampler:
        t = time.perf_counter()
        verdicts = list(run(load([str(path)]), executor=f"dask://{address}"))
        seconds = time.perf_counter() - t
    after = client.run(memory)
    return seconds, verdicts, before, after, sampler.samples


def mib(kib: int) -> str:
    return f"{kib / 1024:.0f} MiB"


def flat(seen: list[int]) -> str:
    """'yes' if the largest of the second half of the samples is within FLAT of the first half's."""
    if len(seen) < 4:
        return f"unknown (only {len(seen)} samples)"
    first, second = max(seen[:len(seen) // 2]), max(seen[len(seen) // 2:])
    return (f"{'yes' if second <= first * (1 + FLAT) else 'no'} (largest in the second half "
            f"{second / first - 1:+.1%} against the first half's)")


def report(title: str, runs: list, graphs: int, repeat: int, target: float | None) -> float:
    seconds = [r[0] for r in runs]
    med = statistics.median(seconds)
    print(f"\n== {title}")
    print(f"graphs read (geng): {graphs:,}")
    for v in runs[-1][1]:
        if v.verdict != "verified":
            raise SystemExit(f"UNEXPECTED: {v.id} {v.verdict}: {v.scope} {v.detail}")
        print(f"{v.id}: {v.coverage.get('structures', 0):,} graphs meet the hypothesis; {v.verdict} at each "
              f"starting position ({v.coverage.get('positions', 0):,} positions)")
        print(f"    scope: {v.scope}")
    met = "" if target is None else f"   (target < {target:.0f} s: {'met' if med < target else 'NOT met'})"
    print(f"wall: median {med:.1f} s over {repeat} run{'s' * (repeat != 1)} "
          f"[{', '.join(f'{s:.1f}' for s in seconds)}]{met}")
    for i, (_, _, before, after, samples) in enumerate(runs, 1):
        for w in sorted(after):
            seen = samples.get(w, [])
            tenths = [seen[len(seen) * k // 10] for k in range(1, 10)] if seen else []
            print(f"  run {i} worker {w}: RSS start {mib(before[w][0])}, at each 10% of the sweep "
                  f"[{', '.join(f'{x / 1024:.0f}' for x in tenths)}] MiB, end {mib(after[w][0])}, "
                  f"largest sampled {mib(max(seen + [after[w][0]]))} ({len(seen)} samples), peak since "
                  f"the worker started (ru_maxrss) {mib(after[w][1])}; flat: {flat(seen)}")
    if len(runs) > 1:                   # a worker may meet the costliest chunk only in a later run
        tops = [max(x for w in r[3] for x in r[4].get(w, []) + [r[3][w][0]]) for r in runs]
        print(f"  largest RSS of any worker in each run: {', '.join(f'{x / 1024:.0f}' for x in tops)} MiB; "
              f"bounded across runs: {'yes' if max(tops[1:]) <= tops[0] * (1 + FLAT) else 'no'} "
              f"(no later run more than {FLAT:.0%} above the first)")
    return med


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--sizes", type=int, nargs="+", default=[9, 10],
                    help="sweep the graphs on 1..n vertices for each n (default: 9 10)")
    ap.add_argument("--baseline-max", type=int, default=10,
                    help="the sweep without nauty's filter (the baseline) for the sizes up to this (0: none)")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--dask-profile", action="store_true",
                    help="keep Dask's statistical profiler on in the workers (its history grows for ~17 min)")
    args = ap.parse_args()
    if geng_program() is None or pickg_program() is None:
        raise SystemExit(GENG_HINT)
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise SystemExit("dask.distributed is not installed: pip install -e '.[dask]'") from None
    print("command: python benchmarks/grim_geng10.py " + " ".join(sys.argv[1:]))
    import dask
    dask.config.set({"distributed.worker.profile.enabled": args.dask_profile})   # the nannies pass it on
    with tempfile.TemporaryDirectory() as d, \
            LocalCluster(n_workers=args.workers, threads_per_worker=1, processes=True,
                         dashboard_address=None) as cluster, Client(cluster) as client:
        address = cluster.scheduler_address.split("://")[-1]
        print(f"LocalCluster(n_workers={args.workers}, threads_per_worker=1) at dask://{address}")

        def claims(n: int, filtered: bool) -> Path:
            path = Path(d) / f"grim_geng_{n}_{int(filtered)}.py"
            path.write_text(CLAIMS.format(theorems=str(THEOREMS), n=n, filtered=filtered))
            return path
        sweep(client, address, claims(5, False))           # warm-up (imports, compiled kernels): not reported
        medians = {}
        for n in sorted(set(args.sizes)):
            for filtered in ([False] if n <= args.baseline_max else []) + [True]:
                title = (f"graphs on 1..{n} vertices, " + ("nauty's filter first" if filtered
                                                           else "baseline: no nauty filter (every graph through Python)"))
                runs = [sweep(client, address, claims(n, filtered)) for _ in range(args.repeat)]
                target = TARGET if filtered and n == max(args.sizes) else None
                medians[(n, filtered)] = report(title, runs, geng(n).span(), args.repeat, target)
                sys.stdout.flush()
        print()
        for n in sorted(set(args.sizes)):
            if (n, False) in medians:
                print(f"speed-up of nauty's filter on <= {n} vertices: "
                      f"{medians[(n, False)] / medians[(n, True)]:.1f}x")
        for name, kw in (("thm15 (max_fixed=0)", {"max_fixed": 0}),
                         ("cor16 (symmetric, max_fixed=1)", {"symmetric": True, "max_fixed": 1})):
            k = sum(1 for _ in geng(max(args.sizes), **kw).lines())
            print(f"graphs on <= {max(args.sizes)} vertices past nauty's filter for {name}: {k:,}")


if __name__ == "__main__":
    main()
