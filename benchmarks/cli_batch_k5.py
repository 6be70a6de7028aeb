"""Benchmark: ``grundy solve FILE --json`` on the 1,024 edge-nim K_5 positions (weights in
{1, 2}, token on vertex 0: the workload of ``edge_nim_k5.py``), against the memoized-recursion
baseline of that benchmark, in the same run.

Each CLI run is a fresh ``python`` process that imports ``grundy.cli``, runs
``main(["solve", EMPTY, "--json"])`` on an empty list (start-up: imports, the argument
parser), then times ``main(["solve", FILE, "--json"])`` (stdout to a file): everything the
command does on the batch is in: reading the JSON, compiling the rules,
listing the symmetries, loading the kernel, solving, writing the answers. The kernel's
library comes from the compiler cache (a fresh one, filled by one untimed run first; the
cold run is printed apart). The wall time of the whole process and of one on an empty file
(start-up alone) are printed too, and the CPU times of the baseline and inside main (on a
loaded machine, wall times are stretched unevenly: the CPU ratio is the steadier). Checks the answers against the baseline and against
``--native off`` (the Python path). Target (issue 12): >= 50x the baseline.

    python benchmarks/cli_batch_k5.py [--repeat 3]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from edge_nim_k5 import baseline, workload

from grundy.spec import make_position

TIMED = """
import sys, time
from grundy.cli import main
sys.stdout = open(sys.argv[2], "w")
main(["solve", sys.argv[3], "--json"])   # start-up: what a run on an empty input does
sys.stdout.seek(0)
t, c = time.perf_counter(), time.process_time()
status = main(["solve", sys.argv[1], "--json", *sys.argv[4:]])
sys.stdout.close()
print(time.perf_counter() - t, time.process_time() - c, status, file=sys.stderr)
"""
EMPTY = ""   # an empty input file (set in main)


def cli(path: str, out: str, *extra: str) -> tuple[float, float, list[dict], float]:
    """(time inside main, wall time of the process, the answers, CPU time inside main)."""
    t = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", TIMED, path, out, EMPTY, *extra], capture_output=True, text=True)
    wall = time.perf_counter() - t
    inside, cpu, status = r.stderr.split()[-3:]
    if status != "0":
        raise SystemExit(f"grundy solve failed: {r.stderr}")
    with open(out) as f:
        return float(inside), wall, [json.loads(line) for line in f], float(cpu)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="grundy-bench-")
    os.environ["GRUNDY_CACHE"] = os.path.join(tmp, "cache")   # a fresh compiler cache
    g, work = workload()
    path, empty, out = (os.path.join(tmp, f) for f in ("k5.json", "empty.json", "out.jsonl"))
    with open(path, "w") as f:
        json.dump([make_position("edge-nim", g, {"weight": w, "token": 0}).to_json() for w in work], f)
    with open(empty, "w") as f:
        f.write("[]")
    global EMPTY
    EMPTY = empty
    cold, _, _, _ = cli(path, out)
    print(f"cold run (builds the kernel with the C compiler): {cold:.3f} s inside main")
    _, _, python_path, _ = cli(path, out, "--native", "off")
    rows: dict[str, list[float]] = {"baseline": [], "cli": [], "cli wall": [], "start-up": [],
                                    "baseline cpu": [], "cli cpu": []}
    for _ in range(args.repeat):
        t, c = time.perf_counter(), time.process_time()
        expected, _ = baseline(g, work)
        rows["baseline"].append(time.perf_counter() - t)
        rows["baseline cpu"].append(time.process_time() - c)
        inside, wall, answers, cpu = cli(path, out)
        rows["cli"].append(inside)
        rows["cli cpu"].append(cpu)
        rows["cli wall"].append(wall)
        rows["start-up"].append(cli(empty, out)[1])
        if [a["grundy"] for a in answers] != expected:
            raise SystemExit("MISMATCH: grundy solve and the baseline disagree")
        if answers != python_path:
            raise SystemExit("MISMATCH: grundy solve and its Python path (--native off) disagree")
    med = {k: statistics.median(v) for k, v in rows.items()}
    for k, v in rows.items():
        print(f"{k:12s} median {med[k]:7.3f} s over {args.repeat} runs  ({', '.join(f'{x:.3f}' for x in v)})")
    ratio = med["baseline"] / med["cli"]
    print(f"speed-up of grundy solve (start-up excluded) over the baseline: {ratio:.1f}x "
          f"(target >= 50x: {'met' if ratio >= 50 else 'NOT met'})")
    net = med["cli wall"] - med["start-up"]
    print("  by wall time minus an empty run's: " + (f"{med['baseline'] / net:.1f}x" if net > 0 else
          "n/a (an empty run took longer than the batch: a loaded machine)"))
    print(f"  by CPU time (less sensitive to a loaded machine): {med['baseline cpu'] / med['cli cpu']:.1f}x")
    print(f"command: python benchmarks/cli_batch_k5.py --repeat {args.repeat}")


if __name__ == "__main__":
    main()
