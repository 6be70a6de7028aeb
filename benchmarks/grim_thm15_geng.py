"""Benchmark: grim/thm15 and grim/cor16 over every graph on <= 9 vertices (nauty's geng).

Theorem 15 (Adams et al.): a graph with an involution that fixes no vertex and never maps a
vertex to a neighbour is a P-position of Grim; Corollary 16: with no isolated vertex and such an
involution fixing exactly one vertex, an N-position. Both claims are checked at the starting
position of every graph on 1..9 vertices (288,266 graphs) that meets the hypothesis (the
hypotheses of theorems/grim.py), through ``grundy verify``'s chunked path on two worker
processes (``local:2``) and, for the ratio, on one (``local:1``), in the same run.

    python benchmarks/grim_thm15_geng.py [--repeat 3] [--max-n 9]

Target (issue 5): under 15 minutes with both cores. Needs nauty (apt-get install nauty).
"""
from __future__ import annotations

import argparse
import re
import resource
import statistics
import sys
import tempfile
import textwrap
import time
from pathlib import Path

from grundy.verify.families import GENG_HINT, geng, geng_program
from grundy.verify.loading import load
from grundy.verify.schedule.pool import run

TARGET = 15 * 60.0
THEOREMS = Path(__file__).resolve().parent.parent / "theorems"

CLAIMS = textwrap.dedent('''
    import sys
    sys.path.insert(0, {theorems!r})
    from grim import hyp15, hyp16                      # the hypotheses exactly as theorems/grim.py has them
    from grundy.verify import Claim, Source
    from grundy.verify.families import geng

    def start(g, v):
        """the starting position"""
        return [int(g.degree(v) > 0)]

    CLAIMS = [
        Claim("grim/thm15", source=Source("grim", "Theorem 15"), game="grim", kind="char",
              family=geng({n}, where=hyp15), statement=lambda g, s: True, bounds={{"alive": start}},
              timeout=3600),
        Claim("grim/cor16", source=Source("grim", "Corollary 16"), game="grim", kind="char",
              family=geng({n}, where=hyp16), statement=lambda g, s: False, bounds={{"alive": start}},
              timeout=3600),
    ]
''')


def once(path: Path, workers: int) -> tuple[float, list]:
    claims = load([str(path)])
    t = time.perf_counter()
    verdicts = list(run(claims, executor=f"local:{workers}"))
    return time.perf_counter() - t, verdicts


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--max-n", type=int, default=9)
    args = ap.parse_args()
    if geng_program() is None:
        raise SystemExit(GENG_HINT)
    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "grim_geng.py"
        path.write_text(CLAIMS.format(theorems=str(THEOREMS), n=args.max_n))
        graphs = geng(args.max_n).span()
        times: dict[int, list[float]] = {2: [], 1: []}
        meets: dict[str, int] = {}
        for _ in range(args.repeat):
            for workers in (2, 1):
                seconds, verdicts = once(path, workers)
                times[workers].append(seconds)
                for v in verdicts:
                    if v.verdict != "verified":
                        raise SystemExit(f"UNEXPECTED: {v.id} {v.verdict}: {v.scope} {v.detail}")
                    m = re.search(r": ([\d,]+) positions", v.scope)
                    meets[v.id] = int(m.group(1).replace(",", "")) if m else -1
    print(f"graphs on 1..{args.max_n} vertices (geng): {graphs:,}")
    for cid, n in meets.items():
        print(f"{cid}: {n:,} graphs meet the hypothesis; verified at each starting position")
    two, one = statistics.median(times[2]), statistics.median(times[1])
    print(f"local:2 median {two:7.1f} s over {args.repeat} runs   (target < {TARGET:.0f} s: "
          f"{'met' if two < TARGET else 'NOT met'})")
    print(f"local:1 median {one:7.1f} s over {args.repeat} runs")
    print(f"speed-up of two cores over one: {one / two:.2f}x")
    me = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    kids = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"peak RSS: this process {me:.0f} MiB, largest worker {kids:.0f} MiB")
    sys.stdout.flush()


if __name__ == "__main__":
    main()
