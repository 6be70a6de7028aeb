"""Benchmark: grim on paths = octal 0.6, Grundy values G(0..10^6) by the sparse-space method.

(a) 0.6 up to n = 10^6 by the sparse method (C kernel when a compiler is here): median time
    over --repeat runs against the target of 30 s;
(b) the plain O(n^2) method (same C kernel, every split of every heap) against the sparse
    method at a size the plain one finishes in a few seconds (--plain-n, default 100,000),
    both in this run: values compared, and the ratio of their times;
and what the values look like: the largest value, the mask, the number of rare heaps, the
number of zeros (P-positions; even ones are grim/5-even-paths), the splits looked at.

    python benchmarks/octal_sparse.py [--repeat 3] [--n 1000000] [--plain-n 100000] [--python]

``--python`` runs the pure-Python fallback instead (much slower: use small --n).
"""
from __future__ import annotations

import argparse
import resource
import statistics
import time

from grundy.solvers.heaps import HeapRun, period, takebreak_run
from grundy.solvers.native import build
from grundy.spec.heaprule import parse_octal

CODE = "0.6"
TARGET_S = 30.0


def timed(n: int, method: str, native: bool, repeat: int) -> tuple[float, HeapRun]:
    times, run = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        r = takebreak_run(parse_octal(CODE), n, method=method, native=native)
        times.append(time.perf_counter() - t)
        if run is not None and r.values != run.values:
            raise SystemExit("MISMATCH: two runs of the same method disagree")
        run = r
    assert run is not None
    return statistics.median(times), run


def describe(run: HeapRun) -> str:
    v = run.values
    n = len(v) - 1
    zeros = [h for h in range(n + 1) if v[h] == 0]
    return (f"largest value {max(v)} (at n = {v.index(max(v))}); mask {run.mask} = 0b{run.mask:b}; "
            f"{run.rares:,} rare heaps of {n:,} ({run.mask_changes} mask changes); "
            f"{len(zeros):,} zeros (P-positions), {sum(1 for h in zeros if h % 2 == 0):,} even, "
            f"the last at n = {zeros[-1]:,}; splits looked at: {run.rare_pairs:,} through rares, "
            f"{run.full_pairs:,} by full scans")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--plain-n", type=int, default=100_000)
    ap.add_argument("--python", action="store_true", help="the pure-Python fallback, not the C kernel")
    args = ap.parse_args()
    native = build.available() and not args.python
    print(f"octal {CODE} (grim on paths), {'C kernel' if native else 'pure Python'}; "
          f"median of {args.repeat} runs")

    # warm-up: builds (or loads) the kernel outside the timings
    takebreak_run(parse_octal(CODE), 10, native=native)

    # (b) plain against sparse at a size the plain method finishes
    t_plain, plain = timed(args.plain_n, "plain", native, args.repeat)
    t_small, small = timed(args.plain_n, "sparse", native, args.repeat)
    if plain.values != small.values:
        raise SystemExit(f"MISMATCH: plain and sparse disagree up to n = {args.plain_n}")
    print(f"(b) n = {args.plain_n:,}: plain {t_plain:.3f} s ({plain.full_pairs:,} splits), "
          f"sparse {t_small:.3f} s; values agree; speed-up {t_plain / t_small:.1f}x")

    # (a) the target workload
    t_big, big = timed(args.n, "sparse", native, args.repeat)
    if big.values[: args.plain_n + 1] != plain.values:
        raise SystemExit("MISMATCH: the large run disagrees with the plain method on its prefix")
    met = ("met" if t_big < TARGET_S else "NOT met") if args.n == 1_000_000 else "not this workload"
    print(f"(a) n = {args.n:,}: sparse {t_big:.3f} s (target < {TARGET_S:.0f} s for n = 10^6: {met})")
    print(f"    {describe(big)}")
    found = period(parse_octal(CODE), big.values)
    found = found if found is not None and found.proved else None
    print(f"    period: {'none proved' if found is None else f'{found.period} from n = {found.preperiod}'} "
          f"by G(0..{args.n:,})")
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak RSS: {own:.0f} MiB (this process; children {kids:.0f} MiB: the compiler, if it ran)")


if __name__ == "__main__":
    main()
