"""Benchmark: how long a long solve takes to stop after SIGINT (issue 12: under a second).

Four workloads, each in a fresh ``python`` process that prints "ready" and starts a long call;
SIGINT is sent 1 s later and the time until the process has exited is measured:

- ``kernel sweep``: the C kernel sweeping the box of nim on 4 heaps up to 90 (the kernel
  returns to Python every 65,536 steps to let it notice a signal);
- ``kernel solve``: the C kernel solving the single position (90, 90, 90, 90) by search;
- ``python search``: the Python path (no kernel, no symmetry) on minnie with 5 heaps of 40;
- ``grundy verify``: the command line on a theorem file whose claim runs past the signal
  (the report and JUnit of the claims done are written before it exits 130).

The baseline, in the same run: a process blocked in ``time.sleep`` (Python's own reaction to
SIGINT, process exit included). Every workload must still be running when the signal is sent,
else the run stops with an error (the workload would be too small to measure anything).

    python benchmarks/interrupt_latency.py [--repeat 3]
"""
from __future__ import annotations

import argparse
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time

TARGET = 1.0

SCRIPTS = {
    "baseline (sleep)": """
        import time
        print("ready", flush=True)
        time.sleep(600)
    """,
    "kernel sweep": """
        from grundy.spec import Structure
        from grundy.spec.games import get_game
        from grundy.solvers.native.kernel import Box, Kernel
        rules = get_game("nim").rules(Structure.heaps(4))
        k = Kernel(rules, Box.around(rules, [(90, 90, 90, 90)]))
        print("ready", flush=True)
        k.sweep()
    """,
    "kernel solve": """
        from grundy.spec import Structure
        from grundy.spec.games import get_game
        from grundy.solvers.native.kernel import Box, Kernel
        rules = get_game("nim").rules(Structure.heaps(4))
        k = Kernel(rules, Box.around(rules, [(90, 90, 90, 90)]))
        print("ready", flush=True)
        k.values([(90, 90, 90, 90)])
    """,
    "python search": """
        import grundy
        s = grundy.Solver(native=False, symmetry=False)
        print("ready", flush=True)
        s.grundy(grundy.spec.read_position({"game": "minnie", "heaps": [40, 40, 40, 40, 40]}))
    """,
}

THEOREMS = """
from grundy.verify import Claim, heaps
CLAIMS = [
    Claim(id="bench/slow", game="nim", kind="char", family=heaps(6), bounds={"heap": 40}, timeout=600,
          statement=lambda g, s: s.heap[0] + s.heap[1] >= 0),
]
"""


def time_to_stop(argv: list[str], env: dict) -> float:
    """Seconds from SIGINT to the exit of the process started by ``argv`` (which prints "ready")."""
    p = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env,
                         preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))  # as a terminal gives it
    if p.stdout.readline().strip() != "ready":
        raise SystemExit(f"the workload did not start: {p.communicate()[1][-500:]}")
    time.sleep(1.0)
    if p.poll() is not None:
        raise SystemExit(f"{argv[-1][:60]!r} ended before the signal: the workload is too small")
    sent = time.monotonic()
    p.send_signal(signal.SIGINT)
    try:
        p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        return float("inf")
    return time.monotonic() - sent


def verify_argv(tmp: str) -> list[str]:
    """``grundy verify`` behind a wrapper that prints "ready" once the command has started."""
    path = os.path.join(tmp, "bench.py")
    with open(path, "w") as f:
        f.write(THEOREMS)
    wrapper = textwrap.dedent(f"""
        import sys
        from grundy.cli import main
        print("ready", flush=True)
        sys.exit(main(["verify", {path!r}, "--jobs", "1", "--no-cache",
                       "--report", {os.path.join(tmp, "r.md")!r}]))
    """)
    return [sys.executable, "-c", wrapper]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="grundy-bench-")
    env = {**os.environ, "GRUNDY_CACHE": os.path.join(tmp, "cache")}
    subprocess.run([sys.executable, "-c", textwrap.dedent(SCRIPTS["kernel sweep"]).replace("k.sweep()", "")],
                   env=env, check=True, capture_output=True)        # build the kernel once, untimed
    runs = {name: [sys.executable, "-c", textwrap.dedent(src)] for name, src in SCRIPTS.items()}
    runs["grundy verify"] = verify_argv(tmp)
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(args.repeat):
        for name, argv in runs.items():
            times[name].append(time_to_stop(argv, env))
    if "r.md" not in os.listdir(tmp):
        raise SystemExit("grundy verify did not write its report on SIGINT")
    base = statistics.median(times["baseline (sleep)"])
    for name, ts in times.items():
        med = statistics.median(ts)
        verdict = "" if name.startswith("baseline") else \
            f"  {med / base:5.1f}x the baseline; target < {TARGET:g} s: {'met' if med < TARGET else 'NOT met'}"
        print(f"{name:17s} median {med:6.3f} s over {args.repeat} runs "
              f"({', '.join(f'{t:.3f}' for t in ts)}){verdict}")


if __name__ == "__main__":
    main()
