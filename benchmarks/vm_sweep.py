"""Benchmark: claims whose structures are too small for a compiled kernel, swept by the
interpreter of the IR (grundy/solvers/native/vm.py) against the Python path they took before
(``csweep.VM = False``), in one process, interleaved; CPU seconds per claim (medians of
``--repeat``), each pass on a fresh solver; the verdicts must agree.

    python benchmarks/vm_sweep.py [--repeat 3] [--only vnim/cor12-corrected-n5,vnim/thm10-corrected]
"""
from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

DEFAULT = "vnim/cor12-corrected-n5,vnim/thm10-corrected,vnim/prop9,vnim/thm13-corrected"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--only", default=DEFAULT)
    args = ap.parse_args()
    from grundy.solvers.native import vm
    from grundy.solvers.solver import Solver
    from grundy.verify.check import check_claim, csweep
    from grundy.verify.loading import load
    ids = args.only.split(",")
    claims = [c for c in load([str(ROOT / "theorems")]) if c.id in ids]
    vm.library()                                   # compiled once per machine (not timed)
    times: dict[tuple[str, bool], list[float]] = {}
    verdicts: dict[tuple[str, bool], set[str]] = {}
    for _ in range(args.repeat):
        for on in (True, False):
            csweep.VM = on
            for c in claims:
                t = time.process_time()
                v = check_claim(c, timeout=c.limit(), solver=Solver())
                times.setdefault((c.id, on), []).append(time.process_time() - t)
                verdicts.setdefault((c.id, on), set()).add(f"{v.verdict} {v.passed}")
    print(f"{'claim':32} {'Python path':>12} {'interpreter':>12} {'ratio':>6}  verdicts")
    tot = [0.0, 0.0]
    for c in claims:
        py, it = statistics.median(times[(c.id, False)]), statistics.median(times[(c.id, True)])
        tot[0] += py
        tot[1] += it
        same = verdicts[(c.id, False)] == verdicts[(c.id, True)]
        print(f"{c.id:32} {py:11.2f}s {it:11.2f}s {py / it:5.2f}x  {'same' if same else 'DIFFER'}: "
              f"{', '.join(sorted(verdicts[(c.id, True)]))}")
    print(f"{'in all':32} {tot[0]:11.2f}s {tot[1]:11.2f}s {tot[0] / tot[1]:5.2f}x")


if __name__ == "__main__":
    main()
