"""Benchmark: where the main job's CPU goes, by phase. Every claim of ``theorems/`` (quick
profile) is checked serially in this process, the claims of one group (same game and family)
on one solver as the workers of ``grundy verify`` do; a handful of functions are wrapped with
CPU-time counters, and each CPU second is given to the innermost wrapped function running
(exclusive time: the phases add up to the total; the rest is "claim other"). No profiler: the
figures are CPU seconds as the job spends them (cProfile doubles Python-heavy parts). The C
compiler's seconds are its own processes' (``resource.RUSAGE_CHILDREN``), apart from the total.

Prints the total, each phase's CPU seconds and share, and per phase the claims that spent most
in it. ``--json FILE``: every figure, and each claim's verdict as JSON (without its times), for
comparing two trees (``--compare A.json B.json``: the verdicts that differ, if any).

    python benchmarks/job_phases.py [--only PREFIX,...] [--top 4] [--json FILE]
    python benchmarks/job_phases.py --compare A.json B.json

Nothing here changes a verdict; it only counts. The figures depend on the load (printed).
"""
from __future__ import annotations

import argparse
import functools
import gc
import importlib
import json
import os
import re
import resource
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# (module, function or Class.method, phase); the innermost one running gets the time
PHASES = [
    ("grundy.verify.check.prove", "prove", "the claims' Z3 proofs (prove)"),
    ("grundy.verify.check.everyn", "check_open", "every-n claims (counting, locality)"),
    ("grundy.solvers.premises.base", "_cached", "premise proofs (Z3, per structure)"),
    ("grundy.verify.recheck", "CrossCheck.confirm_pass", "cross-check: the sample"),
    ("grundy.verify.recheck", "CrossCheck.confirm_counterexample", "cross-check: counterexamples"),
    ("grundy.verify.recheck", "CrossCheck.offer", "cross-check: offering positions"),
    ("grundy.solvers.native.build", "load", "C compiler: waiting for it"),
    ("grundy.verify.check.instance", "Instance.__init__", "Instance: the statement's IR per structure"),
    ("grundy.verify.check.instance", "Instance.judge", "Instance.judge (Python path)"),
    ("grundy.verify.check.instance", "Instance.follow", "Instance.follow (strategies)"),
    ("grundy.verify.check.instance", "Instance.prefetch", "search: Python, or the C kernel's"),
    ("grundy.verify.check.csweep", "sweep_vm", "sweep in the C interpreter (programs made)"),
    ("grundy.verify.check.csweep", "sweep_c", "sweep in a compiled kernel"),
    ("grundy.solvers.explicit.compile", "compile_rules", "rules compiled to Python"),
    ("grundy.verify.families.base", "Family.items", "families' structures"),
    ("grundy.verify.check.sweep", "sweep", "sweep: the rest"),
    ("grundy.verify.check.claim", "check_claim", "claim other"),
]
# imported before wrapping: the modules that bind a wrapped function by name (``from .prove
# import prove``) get the wrapper too (every loaded module of grundy's is looked at)
IMPORTERS = ["grundy.verify.check.claim", "grundy.verify.check.sweep", "grundy.verify.check.everyn",
             "grundy.solvers.premises", "grundy.solvers.premises.coin_turning", "grundy.solvers.table",
             "grundy.solvers.counting", "grundy.verify.schedule.pool"]


class Phases:
    """Exclusive CPU seconds per phase: a stack of the wrapped calls running."""

    def __init__(self) -> None:
        self.seconds: dict[str, float] = defaultdict(float)
        self.calls: dict[str, int] = defaultdict(int)
        self.stack: list[list[Any]] = []

    def wrap(self, module: str, qual: str, phase: str) -> None:
        obj: Any = importlib.import_module(module)
        *outer, name = qual.split(".")
        for p in outer:
            obj = getattr(obj, p)
        f = getattr(obj, name)

        @functools.wraps(f)
        def timed(*a: Any, **k: Any) -> Any:
            t = time.process_time()
            if self.stack:
                self.seconds[self.stack[-1][0]] += t - self.stack[-1][1]
            self.stack.append([phase, t])
            self.calls[phase] += 1
            try:
                return f(*a, **k)
            finally:
                t2 = time.process_time()
                ph, t1 = self.stack.pop()
                self.seconds[ph] += t2 - t1
                if self.stack:
                    self.stack[-1][1] = t2
        setattr(obj, name, timed)
        for m, mod in list(sys.modules.items()):
            if m.startswith("grundy") and getattr(mod, name, None) is f:
                setattr(mod, name, timed)


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run(args: argparse.Namespace) -> None:
    gc.set_threshold(50_000)                       # as the grundy command (grundy.cli.GC_YOUNG)
    for m in IMPORTERS:
        importlib.import_module(m)
    ph = Phases()
    for w in PHASES:
        ph.wrap(*w)
    from grundy.solvers.solver import Solver
    from grundy.verify.check import check_claim
    from grundy.verify.loading import load
    from grundy.verify.schedule.pool import group_key
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    claims = [c for c in load([str(ROOT / "theorems")]) if c.id.startswith(tuple(args.only.split(",")))]
    groups: dict[tuple, list] = {}
    for c in claims:
        groups.setdefault(group_key(c), []).append(c)
    per: dict[str, dict[str, float]] = {}
    verdicts: dict[str, dict] = {}
    bad = []
    t0, cc0 = time.process_time(), _children_cpu()
    for cs in groups.values():
        solver = Solver()
        for c in cs:
            before = dict(ph.seconds)
            v = check_claim(c, timeout=c.limit(), solver=solver)
            per[c.id] = {k: s - before.get(k, 0.0) for k, s in ph.seconds.items()}
            verdicts[c.id] = _untimed(v.to_json())
            if not v.passed:
                bad.append((c.id, v.verdict))
    total, cc = time.process_time() - t0, _children_cpu() - cc0
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print(f"{len(claims)} claims: {total:.1f} CPU s in this process; the C compiler {cc:.1f} CPU s besides")
    for k, s in sorted(ph.seconds.items(), key=lambda x: -x[1]):
        top = sorted(((p.get(k, 0.0), cid) for cid, p in per.items()), reverse=True)[:args.top]
        print(f"  {k:46s} {s:6.2f} s {100 * s / total:5.1f}%  ({ph.calls[k]} calls)  "
              + ", ".join(f"{cid} {x:.2f}" for x, cid in top if x >= 0.005))
    if bad:
        print("NOT AS EXPECTED:", bad)
    if args.json:
        Path(args.json).write_text(json.dumps({"total": total, "compiler": cc, "phases": ph.seconds,
                                               "per": per, "verdicts": verdicts, "bad": bad}))


TIMES = {"seconds", "cpu_seconds", "wall_seconds"}


# Z3's example of a satisfiable assumption ("holds: assume is satisfiable, e.g. at (2, 1, 0)") is
# whichever model Z3 returns, which follows the solver's internal state (what the process asked
# before): not a difference of verdicts.
EXAMPLE = re.compile(r"(assume is satisfiable), e\.g\. at \(.*?\)")


def _untimed(x: Any) -> Any:
    """A verdict's JSON without its times (at any depth: the obligations' too) and without Z3's
    example model of a satisfiable assumption."""
    if isinstance(x, dict):
        return {k: _untimed(v) for k, v in x.items() if k not in TIMES}
    if isinstance(x, list):
        return [_untimed(v) for v in x]
    if isinstance(x, str):
        return EXAMPLE.sub(r"\1, e.g. at (a model)", x)
    return x


def compare(a: str, b: str) -> int:
    """The claims whose verdicts (JSON, times left out) differ between two ``--json`` files."""
    va, vb = (_untimed(json.loads(Path(f).read_text())["verdicts"]) for f in (a, b))
    diff = sorted(c for c in set(va) | set(vb) if va.get(c) != vb.get(c))
    for c in diff:
        print(f"{c}:\n  {json.dumps(va.get(c))}\n  {json.dumps(vb.get(c))}")
    print(f"{len(diff)} of {len(set(va) | set(vb))} verdicts differ")
    return 1 if diff else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", default="", help="claims whose id starts with one of these (comma-separated)")
    ap.add_argument("--top", type=int, default=4)
    ap.add_argument("--json", help="write the figures and the verdicts to this file")
    ap.add_argument("--compare", nargs=2, metavar="JSON", help="compare the verdicts of two --json files")
    args = ap.parse_args()
    if args.compare:
        sys.exit(compare(*args.compare))
    run(args)


if __name__ == "__main__":
    main()
