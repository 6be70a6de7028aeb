"""Benchmark: the main job (``grundy verify theorems/ --no-cache``, cold cache) against a fixed
calibration workload measured in the same run: memoized edge-nim on K_5, 1,024 starts (the
plain-Python baseline of ``benchmarks/edge_nim_k5.py``). Target (issues 21, 41): the main job at
<= 30 times the calibration in CPU seconds (every process of the pass; the wall ratio is printed
too), both as medians of ``--repeat`` runs (3 by default), interleaved so that both see the same
load. The C compiler runs behind a wrapper that counts its runs and their CPU seconds.

The calibration runs before and after each pass, and the pass's calibration is the mean of the
two (on a machine whose speed drifts, one run beside a 50-second pass can be 25% off the load
the pass saw); each pass's own ratio is printed, and their median and range.

Each main-job pass runs in a fresh ``$GRUNDY_CACHE`` (no verdicts, no compiled C kernels, no
claim times) with ``--jobs`` workers (default 2). Prints per pass the wall and CPU seconds (CPU:
every process of the pass), then the medians, the ratios (wall to wall, and the pass's CPU to
the calibration's CPU), the claims that took the most CPU time in the last pass, and the
largest ratio of a claim's CPU time to its limit (issue 21: each under a tenth). A pass whose
verdicts are not all as expected is shown and counted.

Python's byte code: by default each pass runs with this shell's environment, so where
``PYTHONDONTWRITEBYTECODE=1`` is set (as in the sandbox the figures of docs/performance.md come
from) every module of grundy and every theorem file is compiled from source in each pass (about
200 modules, 0.5-0.6 CPU s in the main process, 0.06 s in each worker: 0.6 % of the pass), which
a ``pip install`` (it byte-compiles the package) does not do. ``--bytecode`` measures a pass as
such an install runs it: grundy and ``theorems/`` byte-compiled before the pass (not counted),
into their ``__pycache__`` folders (ignored by git; the folders made are removed after the pass;
``PYTHONPYCACHEPREFIX`` would not do: it moves the byte code of the standard library and of every
dependency too, all compiled again).

    python benchmarks/main_job.py [--repeat 3] [--jobs 2] [--profile quick] [--top 10] [--bytecode]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(Path(__file__).resolve().parent))

from edge_nim_k5 import baseline, workload  # noqa: E402  (the calibration workload)


def _cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def calibration() -> tuple[float, float]:
    """Wall and CPU seconds of the calibration workload (memoized edge-nim on K_5, 1,024 starts)."""
    g, work = workload()
    t, c = time.perf_counter(), time.process_time()
    baseline(g, work)
    return time.perf_counter() - t, time.process_time() - c


# the C compiler behind a wrapper that notes each run's CPU seconds (bash's ``times``: the
# compiler's user and system time, its own children included)
WRAPPER = """#!/bin/bash
"$GRUNDY_BENCH_CC" "$@"
rc=$?
times > "$GRUNDY_BENCH_CC_LOG/$$"
exit $rc
"""


def _seconds(t: str) -> float:
    m, s = t.rstrip("s").split("m")
    return 60 * float(m) + float(s)


def compiler_runs(log: Path) -> tuple[int, float]:
    """How many times the C compiler ran in a pass, and its CPU seconds (user and system): one
    file per run in ``log``, ``times``'s two lines (the wrapper's shell, then its children)."""
    runs = list(log.glob("*")) if log.is_dir() else []
    cpu = 0.0
    for f in runs:
        lines = f.read_text().splitlines()
        if len(lines) >= 2:
            a, b = lines[1].split()
            cpu += _seconds(a) + _seconds(b)
    return len(runs), cpu


def _wrapped_cc(cache: str) -> dict[str, str]:
    """The environment that runs the C compiler through :data:`WRAPPER` (none without a compiler)."""
    from grundy.solvers.native import build
    cc = build.compiler()
    if cc is None:
        return {}
    wrapper = Path(cache) / "cc-wrapper.sh"
    wrapper.write_text(WRAPPER)
    wrapper.chmod(0o755)
    (Path(cache) / "cc-runs").mkdir()
    return {"CC": str(wrapper), "GRUNDY_BENCH_CC": cc, "GRUNDY_BENCH_CC_LOG": str(Path(cache) / "cc-runs")}


def _byte_compiled(env: dict[str, str]) -> list[Path]:
    """grundy and theorems/ byte-compiled in place, as a pip install leaves a package (``env``
    changed to let the pass read the byte code); the ``__pycache__`` folders made here."""
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("PYTHONPYCACHEPREFIX", None)
    before = {d for top in ("grundy", "theorems") for d in (ROOT / top).rglob("__pycache__")}
    subprocess.run([sys.executable, "-m", "compileall", "-q", "grundy", "theorems"], cwd=ROOT,
                   env=env, check=True, capture_output=True)
    return [d for top in ("grundy", "theorems") for d in (ROOT / top).rglob("__pycache__") if d not in before]


def main_job(args: argparse.Namespace) -> tuple[float, float, list[dict], int]:
    """Wall and CPU seconds of one cold pass, its JSON rows, its exit status."""
    cache = tempfile.mkdtemp(prefix="grundy-main-job-")
    env = {**os.environ, "GRUNDY_CACHE": cache, **_wrapped_cc(cache)}
    made = _byte_compiled(env) if args.bytecode else []
    cmd = [sys.executable, "-m", "grundy.cli", "verify", "theorems/", "--no-cache", "--json",
           "--jobs", str(args.jobs), "--profile", args.profile]
    c0, t = _cpu_children(), time.perf_counter()
    r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - t, _cpu_children() - c0
    for d in made:                          # a later pass without --bytecode would read them
        shutil.rmtree(d, ignore_errors=True)
    rows = [json.loads(ln) for ln in r.stdout.splitlines() if ln.startswith("{")]
    runs, cc = compiler_runs(Path(cache) / "cc-runs")
    print(f"  the C compiler ran {runs} times, {cc:.1f} s CPU (of the pass's CPU)", flush=True)
    return wall, cpu, rows, r.returncode


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--profile", default="quick", choices=("quick", "full"))
    ap.add_argument("--top", type=int, default=10)
    ap.add_argument("--bytecode", action="store_true",
                    help="grundy and theorems/ byte-compiled before each pass (as a pip install leaves them)")
    args = ap.parse_args()
    from grundy.verify.loading import load
    limits = {c.id: c.limit() for c in load([str(ROOT / "theorems")])}
    cal_w, cal_c, job_w, job_c = [], [], [], []
    failed, rows = 0, []
    ratios = []
    for k in range(args.repeat):
        before = calibration()
        w, c, rows, rc = main_job(args)
        after = calibration()                   # the pass's calibration: the mean of the two
        cal_w.append((before[0] + after[0]) / 2)  # runs that bracket it (the load it saw)
        cal_c.append((before[1] + after[1]) / 2)
        ratios.append(w / cal_w[-1])
        job_w.append(w)
        job_c.append(c)
        bad = [r["id"] for r in rows if not r.get("passed")]
        failed += rc != 0
        (Path(tempfile.gettempdir()) / f"main_job_pass{k + 1}.jsonl").write_text(
            "".join(json.dumps(r) + "\n" for r in rows))
        worst = max((r.get("cpu_seconds", 0.0) / limits.get(r["id"], 120.0) for r in rows), default=0.0)
        print(f"pass {k + 1}: largest CPU time / limit {worst:.3f}; calibration {before[0]:.2f} / {after[0]:.2f} s "
              f"wall before / after, {cal_c[-1]:.2f} s CPU; main job {w:.1f} s wall, {c:.1f} s CPU, ratio "
              f"{ratios[-1]:.1f}x, exit {rc}{'; not as expected: ' + ', '.join(bad) if bad else ''}", flush=True)
    mw, mc = statistics.median(job_w), statistics.median(job_c)
    cw, cc = statistics.median(cal_w), statistics.median(cal_c)
    print(f"\nmedians of {args.repeat}: calibration {cw:.2f} s wall ({cc:.2f} s CPU); "
          f"main job {mw:.1f} s wall ({mc:.1f} s CPU)")
    ratio = mw / cw
    cpu_ratio = mc / cc
    print(f"main job / calibration: {cpu_ratio:.1f}x CPU (target <= 30: {'met' if cpu_ratio <= 30 else 'NOT met'}); "
          f"{ratio:.1f}x wall; median of the passes' own wall ratios {statistics.median(ratios):.1f}x "
          f"(from {min(ratios):.1f}x to {max(ratios):.1f}x)")
    print(f"passes with a verdict not as expected: {failed} of {args.repeat}")
    top = sorted(rows, key=lambda r: -r.get("cpu_seconds", 0.0))[:args.top]
    print(f"\nthe {len(top)} claims with the most CPU time (last pass): id, CPU s, wall s, limit s")
    for r in top:
        print(f"  {r['id']:40s} {r.get('cpu_seconds', 0.0):7.1f} {r['seconds']:7.1f} {limits.get(r['id'], 0):6.0f}")
    worst = max(rows, key=lambda r: r.get("cpu_seconds", 0.0) / limits.get(r["id"], 120.0), default=None)
    if worst is not None:
        print(f"largest CPU time / limit: {worst.get('cpu_seconds', 0.0) / limits.get(worst['id'], 120.0):.3f} "
              f"({worst['id']}; target < 0.1)")


if __name__ == "__main__":
    main()
