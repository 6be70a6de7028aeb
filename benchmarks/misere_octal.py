"""Misère quotients of every octal code with at most 3 digits after the point (d0 = 0 or 4), each
in its own process under a CPU limit (the quotient stops between heaps at 60% of it, with what it
has, then 24-total sums are searched; a process killed by the limit "ran out"); the codes solved (period proved, or heaps computed), checked
against misère search on every sum of total size <= 24, and those that ran out.

    python benchmarks/misere_octal.py --cpu 60 [--digits 3] [--only 0.] [--out results.jsonl]

One JSON line per code: order, P-portion, period (proved or apparent), heaps computed, the
mismatches against search (0 expected), or why it stopped.
"""
from __future__ import annotations

import argparse
import itertools
import json
import resource
import subprocess
import sys
import time

CHILD = r"""
import json, sys
from grundy.solvers.misere import Quotient, mismatches
q = Quotient("octal", code=sys.argv[1], max_heap=int(sys.argv[2]), time_limit=float(sys.argv[3]))
out = q.to_json()
out["mismatches_24"] = (len(mismatches(q.q, q.options, 24)) if q.q.proved or q.q.computed >= 24 else None)
print(json.dumps(out))
"""


def codes(digits: int, prefixes: tuple[str, ...]) -> list[str]:
    out = []
    for d0 in prefixes:
        for k in range(1, digits + 1):
            for ds in itertools.product("01234567", repeat=k):
                if ds[-1] != "0":
                    out.append(f"{d0}.{''.join(ds)}")
    return out


def run(code: str, cpu: int, max_heap: int) -> dict:
    def limit() -> None:
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 1))
    t = time.time()
    p = subprocess.run([sys.executable, "-c", CHILD, code, str(max_heap), str(cpu * 0.6)], capture_output=True, text=True,
                       preexec_fn=limit)
    if p.returncode == 0 and p.stdout.strip():
        res = json.loads(p.stdout.strip().splitlines()[-1])
    else:
        res = {"game": f"octal {code}", "ran_out": True, "returncode": p.returncode}
    res["code"], res["wall_s"] = code, round(time.time() - t, 2)
    return res


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cpu", type=int, default=60)
    ap.add_argument("--digits", type=int, default=3)
    ap.add_argument("--max-heap", type=int, default=400)
    ap.add_argument("--only", default=None, help="codes starting so, e.g. 0.7")
    ap.add_argument("--out", default=None)
    a = ap.parse_args()
    todo = [c for c in codes(a.digits, ("0", "4")) if a.only is None or c.startswith(a.only)]
    sink = open(a.out, "a") if a.out else None
    for c in todo:
        r = run(c, a.cpu, a.max_heap)
        line = json.dumps(r)
        print(line, flush=True)
        if sink:
            sink.write(line + "\n")
            sink.flush()


if __name__ == "__main__":
    main()
