"""The misère relearning's membership search, in C and in Python: the quotient of 0.07 (Dawson's
Kayles) is computed to heap 24 (Q_24, 24 elements), heap 25 is added (classes split there), and
three sums with one copy of heap 25 -- rows the second round of the relearning asks for -- are
searched by the relearning's oracle, once with its search in C and once in Python (same answers,
same sums stored).

    python benchmarks/misere_relearn.py [--code 0.07] [--heap 25]
"""
from __future__ import annotations

import argparse
import time

from grundy.solvers.misere import recalibrate
from grundy.solvers.misere.quotient import _Builder, code_options
from grundy.spec.heaprule import parse_octal

SUMS = [(2, 2, 10, 14, 15, 21, 25), (2, 10, 14, 16, 21, 25), (4, 10, 12, 16, 21, 25)]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--code", default="0.07")
    ap.add_argument("--heap", type=int, default=25)
    args = ap.parse_args()
    n = args.heap
    b = _Builder(code_options(parse_octal(args.code)), 2_000_000)
    for h in range(1, n):
        if b.add_heap(h) is not None:
            raise SystemExit(f"heap {h}: the quotient could not be extended")
    b.parts.append(sorted({tuple(sorted(p for p in o if p)) for o in b.options(n)}))
    m, p = b.q.monoid, b.q.p
    cols = [[m.times(x, e) for x in range(m.size)] for e in b.phi]

    def old(pos: tuple[int, ...]) -> bool:
        x = 0
        for h in pos:
            x = cols[h][x]
        return x in p
    sums = [tuple(sorted(h if h <= n else n for h in s)) for s in SUMS]
    print(f"{args.code}: Q_{n - 1} has {m.size} elements; sums {sums}")
    for native in (True, False):
        o = recalibrate._Oracle(b.parts, n, old, None, (cols, p) if native else None)
        if native and o.native is None:
            print("C: no compiler here")
            continue
        t = time.process_time()
        got = [o(s) for s in sums]
        stored = o.native.size if o.native is not None else len(o.memo)
        print(f"{'C' if native else 'Python':>6}: P? {got}  {time.process_time() - t:.2f} CPU s, {stored:,} sums stored")


if __name__ == "__main__":
    main()
