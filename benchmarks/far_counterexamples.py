"""Benchmark: claims false only far beyond any sweep (heaps of 10^5 to 10^6, on unbounded
integers and on 18- to 21-bit vectors: ``tests/soundness/far.py``, issue 37 found 3). Each is
checked by ``grundy verify FILE --only ID --no-cache --jobs 1 --json`` in a fresh process (the
user's path: Z3, the witness's confirmation, the reference engine's cross-check), and the
claim's verdict and CPU seconds (``cpu_seconds``: what its time limit counts) are printed, with
the CPU seconds of the whole process (start-up and loading included).

    python benchmarks/far_counterexamples.py [--timeout 120] [--only ID,...]

With ``--baseline REF`` (a git commit) the tree at REF is checked out with ``git archive`` and
each claim is run on it and on this tree in the same run, alternately, and the ratio of CPU
seconds (before / after) is shown; a claim that ends ``unknown`` at the limit counts its limit:

    python benchmarks/far_counterexamples.py --baseline main [--timeout 120]

The claims are read from this tree's file in both runs (only the code differs). Nothing here
changes a verdict; the figures depend on the load (printed).
"""
from __future__ import annotations

import argparse
import io
import json
import os
import resource
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CLAIMS = ROOT / "tests" / "soundness" / "far.py"
RUN = "import sys; from grundy.cli import main; sys.exit(main(sys.argv[1:]))"

__all__ = ["planted", "run_one", "main"]


def planted() -> list[str]:
    """The ids of the file's planted claims (``expect="refuted"``), in order, read from its text."""
    import re
    text = CLAIMS.read_text()
    out = []
    for m in re.finditer(r'Claim\("([^"]+)"(.*?)expect="(\w+)"', text, re.S):
        if m.group(3) == "refuted":
            out.append(m.group(1))
    return out


def run_one(tree: Path, claim: str, timeout: float) -> dict:
    """One claim checked by ``grundy verify`` on the code of ``tree``, in a fresh process with its
    own cache: its verdict, ``cpu`` (the claim's CPU seconds), ``process`` (the process's)."""
    cache = tempfile.mkdtemp(prefix="far-cex-cache-")
    env = {**os.environ, "GRUNDY_CACHE": cache, "PYTHONPATH": str(tree)}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        p = subprocess.run([sys.executable, "-c", RUN, "verify", str(CLAIMS), "--only", claim, "--no-cache",
                            "--jobs", "1", "--json", "--timeout", str(timeout)],
                           env=env, capture_output=True, text=True, cwd=tree, timeout=30 * timeout + 120)
        out = p.stdout
    except subprocess.TimeoutExpired:
        out = ""
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    shutil.rmtree(cache, ignore_errors=True)
    process = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    try:
        got = json.loads(out)
        got = got[0] if isinstance(got, list) else got
    except ValueError:
        return {"verdict": "no answer", "cpu": process, "process": process}
    return {"verdict": got.get("verdict"), "cpu": got.get("cpu_seconds") or 0.0, "process": process,
            "how": got.get("how") or got.get("scope", "")}


def _baseline(ref: str) -> Path:
    work = Path(tempfile.mkdtemp(prefix="far-cex-base-"))
    tar = subprocess.run(["git", "archive", ref], cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        t.extractall(work, filter="data")
    return work


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--timeout", type=float, default=120.0, help="each claim's limit, CPU seconds")
    ap.add_argument("--only", default="", help="comma-separated claim ids (default: every planted claim)")
    ap.add_argument("--baseline", help="a git commit to compare with, in the same run")
    args = ap.parse_args(argv)
    ids = [c for c in args.only.split(",") if c] or planted()
    trees = [("after", ROOT)]
    if args.baseline:
        trees.insert(0, ("before", _baseline(args.baseline)))
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    rows = []
    for c in ids:
        got = {who: run_one(tree, c, args.timeout) for who, tree in trees}
        rows.append((c, got))
        cells = "  ".join(f"{who}: {g['verdict']} {g['cpu']:.2f} CPU s (process {g['process']:.1f})"
                          for who, g in got.items())
        ratio = ""
        if "before" in got and got["after"]["cpu"] > 0:
            ratio = f"  ratio {got['before']['cpu'] / got['after']['cpu']:.1f}x"
        print(f"{c:34} {cells}{ratio}", flush=True)
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for who, _ in trees:
        total = sum(g[who]["cpu"] for _, g in rows)
        refuted = sum(g[who]["verdict"] == "refuted" for _, g in rows)
        print(f"{who:6}: {refuted}/{len(rows)} refuted, {total:.1f} CPU s in all "
              f"(the longest {max(g[who]['cpu'] for _, g in rows):.2f})")
    if args.baseline:
        shutil.rmtree(trees[0][1], ignore_errors=True)


if __name__ == "__main__":
    main()
