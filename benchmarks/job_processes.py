"""Benchmark: the main job's CPU seconds by process. One cold pass of ``grundy verify theorems/
--no-cache --jobs 2`` (a fresh ``$GRUNDY_CACHE``), as ``benchmarks/main_job.py`` runs it, with
each process's own CPU seconds noted from inside it:

- the main process: before the workers are forked (imports, the theorem files loaded) and in all;
- each worker: its own CPU seconds, those of the claims it checked (each verdict's CPU time:
  the claim's thread and the processes it waited for) and the rest (its overhead);
- every run of the C compiler: its CPU seconds, the claim that asked for it, the source's size
  and flags, and the sources compiled more than once;
- Python's compile() of modules from source in each process (none where byte code is found).

The pass's total (every process, as the parent's ``RUSAGE_CHILDREN`` counts it) against the
sum of the claims' CPU times is the CPU spent outside the claims.

    python benchmarks/job_processes.py [--jobs 2] [--json FILE]
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# the C compiler behind a wrapper that notes each run: the source's digest and size, the flags,
# the claim its worker was checking, and bash's ``times`` (the compiler's own CPU seconds)
WRAPPER = """#!/bin/bash
"$JOB_PROCESSES_CC" "$@"
rc=$?
src="${@: -1}"
{ echo "$(sha256sum "$src" | cut -c1-12) $(stat -c %s "$src") ${JOB_PROCESSES_CLAIM:-?} $*"; times; } \\
  > "$JOB_PROCESSES_LOG/cc-$$"
exit $rc
"""

# run as the main process of the pass: notes every process's CPU seconds in $JOB_PROCESSES_LOG
DRIVER = r'''
import importlib._bootstrap_external as BE
import json, os, sys, time

LOG = os.environ["JOB_PROCESSES_LOG"]
COMPILED = [0.0, 0]                          # compile() of modules from source: seconds, modules
_to_code = BE.SourceLoader.source_to_code


def source_to_code(self, data, path, *, _optimize=-1):
    c = time.process_time()
    try:
        return _to_code(self, data, path, _optimize=_optimize)
    finally:
        COMPILED[0] += time.process_time() - c
        COMPILED[1] += 1


BE.SourceLoader.source_to_code = source_to_code


def note(kind, **kw):
    t = os.times()
    with open(os.path.join(LOG, f"{kind}-{os.getpid()}.json"), "w") as f:
        json.dump({"kind": kind, "pid": os.getpid(), "cpu": t.user + t.system,
                   "children": t.children_user + t.children_system, "compile": COMPILED[0],
                   "modules": COMPILED[1], **kw}, f)


from grundy.verify.schedule import pool  # noqa: E402


class Pipe:
    """A worker's end of its pipe: notes the claim it checks, and its CPU after each claim."""

    def __init__(self, conn):
        self.conn, self.cpu, self.claims = conn, [], []

    def poll(self, *a):
        return self.conn.poll(*a)

    def recv(self):
        msg = self.conn.recv()
        if msg is not None:
            os.environ["JOB_PROCESSES_CLAIM"] = pool._CLAIMS[msg[0]].id
        return msg

    def send(self, msg):
        if msg[0] == "done":
            self.claims.append(pool._CLAIMS[msg[1]].id)
            self.cpu.append(msg[2].get("cpu_seconds", 0.0))
            note("worker", claims=self.claims, claims_cpu=sum(self.cpu))
        return self.conn.send(msg)


serve, run_shared = pool._serve, pool._run_shared


def _serve(conn, *a, **k):
    COMPILED[:] = [0.0, 0]                   # a forked worker: its own count
    serve(Pipe(conn), *a, **k)


pool._serve = _serve


def _run_shared(*a, **k):
    note("main-before-fork")
    yield from run_shared(*a, **k)


pool._run_shared = _run_shared
import atexit  # noqa: E402
atexit.register(note, "main")
from grundy.cli import main  # noqa: E402
sys.exit(main(sys.argv[1:]))
'''


def _seconds(t: str) -> float:
    m, s = t.rstrip("s").split("m")
    return 60 * float(m) + float(s)


def _cpu_children() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def compiler_runs(log: Path) -> list[dict]:
    out = []
    for f in log.glob("cc-*"):
        lines = f.read_text().splitlines()
        digest, size, claim, *args = lines[0].split()
        a, b = lines[2].split()                    # the second line of times: the compiler's
        out.append({"digest": digest, "bytes": int(size), "claim": claim, "cpu": _seconds(a) + _seconds(b),
                    "flags": [x for x in args if x.startswith("-O")]})
    return out


def one_pass(jobs: int) -> dict:
    cache = Path(tempfile.mkdtemp(prefix="grundy-job-processes-"))
    log = cache / "log"
    log.mkdir()
    env = {**os.environ, "GRUNDY_CACHE": str(cache), "JOB_PROCESSES_LOG": str(log),
           "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    from grundy.solvers.native import build
    cc = build.compiler()
    if cc is not None:
        wrapper = cache / "cc.sh"
        wrapper.write_text(WRAPPER)
        wrapper.chmod(0o755)
        env.update({"CC": str(wrapper), "JOB_PROCESSES_CC": cc})
    driver = cache / "driver.py"
    driver.write_text(DRIVER)
    cmd = [sys.executable, str(driver), "verify", "theorems/", "--no-cache", "--json", "--jobs", str(jobs)]
    c0, t = _cpu_children(), time.perf_counter()
    r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - t, _cpu_children() - c0
    rows = [json.loads(ln) for ln in r.stdout.splitlines() if ln.startswith("{")]
    procs = [json.loads(p.read_text()) for p in log.glob("*.json")]
    runs = compiler_runs(log)
    shutil.rmtree(cache, ignore_errors=True)
    return {"wall": wall, "cpu": cpu, "exit": r.returncode, "procs": procs, "cc": runs,
            "claims_cpu": sum(v.get("cpu_seconds", 0.0) for v in rows),
            "verdicts": {v["id"]: v["verdict"] for v in rows}, "load": os.getloadavg()}


def report(res: dict) -> None:
    print(f"one pass: {res['wall']:.1f} s wall, {res['cpu']:.1f} CPU s (every process), exit {res['exit']}, "
          f"{len(res['verdicts'])} verdicts; load average {res['load'][0]:.1f}")
    print(f"the claims' CPU times add up to {res['claims_cpu']:.1f} s; outside them: "
          f"{res['cpu'] - res['claims_cpu']:.1f} s")
    by = {p["kind"]: p for p in res["procs"] if p["kind"].startswith("main")}
    if "main" in by and "main-before-fork" in by:
        m, f = by["main"], by["main-before-fork"]
        print(f"  main process: {m['cpu']:.2f} s ({f['cpu']:.2f} before the first fork: imports, theorem "
              f"files; {m['cpu'] - f['cpu']:.2f} watching the workers, the report); compile() of "
              f"{m['modules']} modules from source {m['compile']:.2f} s")
    for w in sorted((p for p in res["procs"] if p["kind"] == "worker"), key=lambda p: p["pid"]):
        own = w["cpu"] + w["children"]
        print(f"  worker {w['pid']}: {own:.2f} s with its children ({w['children']:.2f}), "
              f"{len(w['claims'])} claims {w['claims_cpu']:.2f} s, the rest {own - w['claims_cpu']:.2f} s; "
              f"compile() of {w['modules']} modules {w['compile']:.2f} s")
    runs = res["cc"]
    twice = Counter(r["digest"] for r in runs)
    print(f"  the C compiler: {len(runs)} runs, {sum(r['cpu'] for r in runs):.2f} s, "
          f"{len(twice)} distinct sources")
    for r in sorted(runs, key=lambda r: -r["cpu"]):
        print(f"    {r['cpu']:5.2f} s  {r['bytes']:6d} B  {' '.join(r['flags']):4s}  {r['claim']}"
              f"{'  (compiled more than once)' if twice[r['digest']] > 1 else ''}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", help="write the figures to this file")
    args = ap.parse_args()
    res = one_pass(args.jobs)
    report(res)
    if args.json:
        Path(args.json).write_text(json.dumps(res))


if __name__ == "__main__":
    main()
