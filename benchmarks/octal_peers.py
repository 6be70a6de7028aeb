"""Benchmark: octal games' one-heap values, grundy against a plain mex loop in C and the peers.

For each code (default 4.07 0.6 0.77 0.137 0.007 0.56 0.644) and n (default 10^5 and 10^6),
G(0..n) by

- grundy's sparse-space method (``takebreak_run``, its C kernel), in a child process;
- grundy "to a period" (``run_to_period``): the same, but only until a periodicity theorem
  proves a period (m = 1023, 2047, 4095, ...), the rest extended by it: what tczajka's program does;
  its values compared with grundy's full computation;
- the baseline: the plain mex loop in C of ``benchmarks/plain_mex.c``, compiled by this
  script (``cc -O2``) into a temporary folder;
- ``--ogs PATH``: a build of beling/impartial-games' ``ogsolve`` (or a program with its
  command line: ``PATH CODE -m rc2 -n N -p``, printing `` nimbers: ...`` and
  `` calculation time: ...``), its RC2 method; every value compared with grundy's;
- ``--before PATH``: another grundy source tree (say an earlier commit's, from ``git archive``),
  its ``takebreak_run`` timed as grundy's is (CPU seconds of the computation, in a child
  process with PATH first on ``sys.path`` and a cache of its own): a before/after ratio
  measured in the same run; its values compared with grundy's by a checksum;
- ``--tczajka PATH``: a build of tczajka/octal-games' ``analyze`` (``old/``: ``PATH CODE``):
  it takes no n but reports at every power of two n = 2^k (values G(0..2^k - 1)) and stops
  once it proves a period; timed until its report for the first 2^k > n, or its period
  (then "stopped at a period": it computes no further), its largest value checked against
  grundy's.

Every time is the median of ``--repeat`` runs (3), contenders interleaved, all in this run;
each contender is stopped after ``--limit`` CPU seconds (then "> limit", not repeated). Times
are CPU seconds: grundy's of the computation in its child, the baseline's of its loop, the
peers' of their whole process (ogs: a run that does not print its values; tczajka: until its
line). The table gives each time and its
ratio to grundy's (above 1: grundy is faster).

    python benchmarks/octal_peers.py [--n 100000 1000000] [--codes ...] [--repeat 3]
        [--limit 120] [--ogs PATH] [--tczajka PATH] [--before PATH]
"""
from __future__ import annotations

import argparse
import math
import multiprocessing
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

from grundy.solvers.heaps import run_to_period, takebreak_run  # noqa: E402
from grundy.solvers.native import build  # noqa: E402
from grundy.spec.heaprule import parse_octal  # noqa: E402

CODES = ["4.07", "0.6", "0.77", "0.137", "0.007", "0.56", "0.644"]
Outcome = tuple[float, str] | None        # (seconds, what it says about the values), None: over the limit


def checksum(values: list[int]) -> int:
    return sum((h + 1) * v for h, v in enumerate(values)) % 2**64


def cpu_limit(limit: float) -> None:
    """In a child process: killed (SIGXCPU) once it has used ``limit`` CPU seconds."""
    secs = math.ceil(limit)
    resource.setrlimit(resource.RLIMIT_CPU, (secs, secs + 1))


def wall(limit: float) -> float:
    """A wall-clock guard far above a CPU limit (the limit itself is counted in CPU time, so
    that a loaded machine stretches no contender past it)."""
    return 50 * limit + 60


def grundy_run(code: str, n: int, limit: float, to_period: bool = False) -> tuple[Outcome, list[int] | None]:
    """``to_period``: by ``run_to_period`` (computed until a theorem proves a period, then extended)."""
    ctx = multiprocessing.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)

    def work() -> None:
        cpu_limit(limit)
        t = time.process_time()
        run = (run_to_period if to_period else takebreak_run)(parse_octal(code), n, native=True)
        send.send((time.process_time() - t, run.table, run.computed, run.period))
    child = ctx.Process(target=work)
    child.start()
    send.close()
    out = None
    try:
        if recv.poll(wall(limit)):
            out = recv.recv()
    except EOFError:                   # killed at its CPU limit
        out = None
    child.kill()
    child.join()
    if out is None:
        return None, None
    note = "" if out[3] is None else f"period {out[3][1]} from {out[3][0]}, proved by G(0..{out[2]:,})"
    return (out[0], note), out[1].tolist()


BEFORE = """
import resource, sys, time
secs = int(sys.argv[3])
resource.setrlimit(resource.RLIMIT_CPU, (secs, secs + 1))
from grundy.solvers.heaps import takebreak_run
from grundy.spec.heaprule import parse_octal
t = time.process_time()
run = takebreak_run(parse_octal(sys.argv[1]), int(sys.argv[2]), native=True)
t = time.process_time() - t
values = getattr(run, "table", run.values)
print("seconds", t, "checksum", sum((h + 1) * v for h, v in enumerate(values)) % 2**64)
"""


def before_run(tree: str, cache: str, code: str, n: int, limit: float, values: list[int] | None) -> Outcome:
    """grundy's sparse run as the source tree ``tree`` has it (CPU seconds of the computation)."""
    env = {**os.environ, "PYTHONPATH": tree, "GRUNDY_CACHE": cache}
    try:
        p = subprocess.run([sys.executable, "-c", BEFORE, code, str(n), str(math.ceil(limit))], capture_output=True,
                           text=True, timeout=wall(limit), check=True, env=env, cwd=tree)
    except (subprocess.TimeoutExpired, subprocess.CalledProcessError):
        return None
    secs = float(re.search(r"seconds (\S+)", p.stdout).group(1))         # type: ignore[union-attr]
    got = int(re.search(r"checksum (\d+)", p.stdout).group(1))          # type: ignore[union-attr]
    return secs, "" if values is None else "values agree" if got == checksum(values) else "VALUES DIFFER"


def grundy_period_run(code: str, n: int, limit: float, values: list[int] | None) -> Outcome:
    out, got = grundy_run(code, n, limit, to_period=True)
    if out is None or values is None:
        return out
    same = "values agree" if got == values else "VALUES DIFFER"
    return out[0], ", ".join(x for x in (out[1], same) if x)


def baseline_run(exe: str, code: str, n: int, limit: float, values: list[int] | None) -> Outcome:
    try:
        p = subprocess.run([exe, code, str(n)], capture_output=True, text=True, timeout=wall(limit), check=True,
                           preexec_fn=lambda: cpu_limit(limit))
    except (subprocess.TimeoutExpired, subprocess.CalledProcessError):
        return None
    secs = float(re.search(r"seconds (\S+)", p.stdout).group(1))         # type: ignore[union-attr]
    got = int(re.search(r"checksum (\d+)", p.stdout).group(1))          # type: ignore[union-attr]
    return secs, "" if values is None else "values agree" if got == checksum(values) else "VALUES DIFFER"


def child_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


_CHECKED: set[tuple[str, int]] = set()


def ogs_run(exe: str, code: str, n: int, limit: float, values: list[int] | None) -> Outcome:
    """Timed without printing its values (CPU seconds of the process); the values compared
    once per code and n, in an extra run that prints them."""
    t = child_cpu()
    try:
        subprocess.run([exe, code, "-m", "rc2", "-n", str(n)], capture_output=True, timeout=wall(limit), check=True,
                       preexec_fn=lambda: cpu_limit(limit))
    except (subprocess.TimeoutExpired, subprocess.CalledProcessError):
        return None
    secs = child_cpu() - t
    same = ""
    if values is not None and (code, n) not in _CHECKED:
        _CHECKED.add((code, n))
        p = subprocess.run([exe, code, "-m", "rc2", "-n", str(n), "-p"], capture_output=True, text=True, check=True)
        nm = re.search(r"nimbers:([\d ]+)", p.stdout)
        if nm is None:
            raise SystemExit(f"ogs: cannot read its output:\n{p.stdout[:500]}")
        same = "values agree" if [int(x) for x in nm.group(1).split()] == values else "VALUES DIFFER"
    return secs, same


def tczajka_run(exe: str, code: str, n: int, limit: float, values: list[int] | None) -> Outcome:
    t, cpu = time.perf_counter(), child_cpu()
    proc = subprocess.Popen([exe, code], stdout=subprocess.PIPE, text=True, preexec_fn=lambda: cpu_limit(limit))
    assert proc.stdout is not None
    note, last, reached = "", None, False
    try:
        for line in proc.stdout:
            if time.perf_counter() - t > wall(limit):
                return None
            if line.startswith("Found period"):
                note, reached = "stopped at a period", True
                break
            m = re.match(r"n=2\^(\d+) largest G\[(\d+)\]=(\d+)", line)
            if m:
                last = (int(m.group(2)), int(m.group(3)))
                if 2 ** int(m.group(1)) > n:
                    reached = True
                    break
    finally:
        proc.kill()
        proc.wait()
    secs = child_cpu() - cpu
    if not reached:                    # killed at its CPU limit (or it ended without reaching n)
        return None
    if values is not None and last is not None and last[0] < len(values):
        agree = values[last[0]] == last[1] and max(values[: last[0] + 1]) == last[1]
        note = ", ".join(x for x in (note, "largest value agrees" if agree else "LARGEST VALUE DIFFERS") if x)
    return secs, note


def median(runs: list[Outcome]) -> Outcome:
    done = [r for r in runs if r is not None]
    if len(done) < len(runs):
        return None
    return statistics.median(r[0] for r in done), next((r[1] for r in done if r[1]), "")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, nargs="+", default=[100_000, 1_000_000])
    ap.add_argument("--codes", nargs="+", default=CODES)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--limit", type=float, default=120.0, help="CPU seconds per run of a contender")
    ap.add_argument("--baseline-n", type=int, default=10**6,
                    help="run the plain baseline only up to this n (it is quadratic: beyond, its time is "
                         "projected from its largest run, x (n / n0)^2)")
    ap.add_argument("--ogs", help="path of a build of impartial-games' ogsolve")
    ap.add_argument("--tczajka", help="path of a build of tczajka/octal-games' old/bin/analyze")
    ap.add_argument("--before", help="another grundy source tree (e.g. an earlier commit's), timed as grundy is")
    args = ap.parse_args()
    args.before = args.before and os.path.abspath(args.before)
    if not build.available():
        raise SystemExit("no C compiler: the benchmark compares C kernels")
    cc = shutil.which(os.environ.get("CC", "cc")) or shutil.which("gcc")
    tmp = tempfile.mkdtemp(prefix="octal-peers-")
    exe = os.path.join(tmp, "plain_mex")
    subprocess.run([cc or "cc", "-O2", "-o", exe, str(Path(__file__).with_name("plain_mex.c"))], check=True)
    takebreak_run(parse_octal("0.6"), 10, native=True)          # builds (or loads) grundy's kernel
    peers: list[tuple[str, Callable[..., Outcome]]] = [("plain C", lambda *a: baseline_run(exe, *a)),
                                                       ("grundy to a period", grundy_period_run)]
    measured: dict[str, tuple[int, float]] = {}          # per code: the baseline's largest run
    if args.ogs:
        peers.append(("ogs rc2", lambda *a: ogs_run(args.ogs, *a)))
    if args.before:
        before_cache = os.path.join(tmp, "before-cache")
        subprocess.run([sys.executable, "-c", BEFORE, "0.6", "10", "60"], check=True, capture_output=True,
                       env={**os.environ, "PYTHONPATH": args.before, "GRUNDY_CACHE": before_cache}, cwd=args.before)
        peers.append(("grundy before", lambda *a: before_run(args.before, before_cache, *a)))
    if args.tczajka:
        peers.append(("tczajka", lambda *a: tczajka_run(args.tczajka, *a)))
    load = os.getloadavg()
    print(f"octal one-heap values; medians of {args.repeat}; limit {args.limit:.0f} s per run; "
          f"load average at the start {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print("time (ratio = contender / grundy: above 1, grundy is faster)")
    for n in args.n:
        for code in args.codes:
            g_runs: list[Outcome] = []
            p_runs: dict[str, list[Outcome]] = {name: [] for name, _ in peers}
            values: list[int] | None = None
            for _ in range(args.repeat):
                if not g_runs or g_runs[-1] is not None:
                    out, vals = grundy_run(code, n, args.limit)
                    g_runs.append(out)
                    values = vals if vals is not None else values
                for name, fn in peers:
                    if name == "plain C" and n > args.baseline_n:
                        continue
                    if not p_runs[name] or p_runs[name][-1] is not None:
                        p_runs[name].append(fn(code, n, args.limit, values))
            g = median(g_runs)
            row = f"{code:>6} n={n:<9,} grundy {'> limit' if g is None else f'{g[0]:9.3f} s'}"
            for name, _ in peers:
                if name == "plain C" and n > args.baseline_n:
                    if code in measured:
                        n0, t0 = measured[code]
                        row += f" | plain C ~{t0 * (n / n0) ** 2:.0f} s (projected from n = {n0:,}; not run)"
                    continue
                r = median(p_runs[name])
                if name == "plain C" and r is not None:
                    measured[code] = (n, r[0])
                if r is None:
                    row += f" | {name} > {args.limit:.0f} s"
                    continue
                ratio = f" ({r[0] / g[0]:.2f}x)" if g is not None and g[0] > 0 else ""
                row += f" | {name} {r[0]:9.3f} s{ratio}" + (f" [{r[1]}]" if r[1] else "")
            print(row, flush=True)
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
