"""Misère quotients of every octal code 0.d1d2d3 (digits 0..7; a code with trailing zeros is the
shorter code, so those are dropped: 7 + 56 + 448 = 511 codes; ``--prefixes 0,4`` adds 4.d1d2d3), each
in its own process under a CPU limit (the quotient stops between heaps at 60% of it, with what it
has, then 24-total sums are searched; a process killed by the limit "ran out"); the codes solved (period proved, or heaps computed), checked
against misère search on every sum of total size <= 24, and those that ran out.

    python benchmarks/misere_octal.py --cpu 60 [--digits 3] [--only 0.] [--out results.jsonl]
    python benchmarks/misere_octal.py --table results.jsonl [--docs docs/misere.md]

An ``--out`` file already holding a code's line is resumed (that code is not run again).
``--table`` writes the table of a results file into the docs, between the markers
``<!-- octal-sweep -->`` and ``<!-- /octal-sweep -->``.

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
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run([sys.executable, "-c", CHILD, code, str(max_heap), str(cpu * 0.6)], capture_output=True, text=True,
                       preexec_fn=limit)
    if p.returncode == 0 and p.stdout.strip():
        res = json.loads(p.stdout.strip().splitlines()[-1])
    else:
        res = {"game": f"octal {code}", "ran_out": True, "returncode": p.returncode}
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    res["code"], res["wall_s"] = code, round(time.time() - t, 2)
    res["cpu_s"] = round(after.ru_utime + after.ru_stime - used.ru_utime - used.ru_stime, 2)
    return res


def _solved(r: dict) -> bool:
    """A quotient with a period (proved or apparent); else the code ran out (killed by the CPU
    limit, or stopped with the quotient of the first heaps only)."""
    return not r.get("ran_out") and r.get("order") is not None and r.get("period") is not None


def _row(r: dict) -> str:
    if r.get("ran_out") or r.get("order") is None:
        return f"| {r['code']} | ran out (killed at the CPU limit) | | | | | {r.get('cpu_s', '')} |"
    if not _solved(r):
        mm = "-" if r.get("mismatches_24") is None else r["mismatches_24"]
        return (f"| {r['code']} | ran out: {r['order']} for heaps <= {r['heaps_computed']} | {r['p_portion']} | - | "
                f"{r['heaps_computed']} | {mm} | {r.get('cpu_s', '')} |")
    per = "-" if r.get("period") is None else f"{r['period']} from {r['preperiod']}"
    how = "proved" if r.get("period_proved") else ("apparent" if r.get("period") is not None else "none yet")
    mm = "-" if r.get("mismatches_24") is None else r["mismatches_24"]
    tame = " (tame)" if r.get("tame") else ""
    return (f"| {r['code']} | {r['order']}{tame} | {r['p_portion']} | {per} ({how}) | {r['heaps_computed']} | "
            f"{mm} | {r.get('cpu_s', '')} |")


def write_table(results: str, docs: str, total: int, command: str) -> None:
    """The sweep's table (one row per code of ``results``) into ``docs`` between its markers."""
    rows = {}
    with open(results) as f:
        for line in f:
            if line.strip():
                r = json.loads(line)
                rows[r["code"]] = r
    rs = [rows[c] for c in sorted(rows, key=lambda c: (len(c), c))]
    solved = [r for r in rs if _solved(r)]
    proved = [r for r in solved if r.get("period_proved")]
    checked = [r for r in solved if r.get("mismatches_24") is not None]
    bad = sum(r["mismatches_24"] or 0 for r in checked)
    odd = [r["code"] for r in rs if r.get("order") is not None and r["order"] % 2]
    head = [f"Run of {time.strftime('%Y-%m-%d', time.gmtime())}: `python benchmarks/misere_octal.py "
            f"{command} --out sweep.jsonl`, then `python benchmarks/misere_octal.py --table sweep.jsonl`. "
            f"{len(rs)} of the {total} codes run: {len(solved)} solved (a quotient with a period, "
            f"{len(proved)} of them proved), {len(rs) - len(solved)} ran out of the CPU limit; of the solved, "
            f"{len(checked)} checked against misère search on every sum of total size <= 24: {bad} mismatches; "
            f"quotients of odd order: {', '.join(odd) if odd else 'none'}.",
            "", "| code | \|Q\| | \|P\| | period (from heap) | heaps computed | mismatches (<= 24) | CPU s |",
            "|---|---|---|---|---|---|---|"]
    table = "\n".join(head + [_row(r) for r in rs])
    text = open(docs).read()
    start, end = "<!-- octal-sweep -->", "<!-- /octal-sweep -->"
    if start in text:
        a, rest = text.split(start, 1)
        text = a + start + "\n" + table + "\n" + end + rest.split(end, 1)[1]
    else:
        text = text.rstrip("\n") + "\n\n" + start + "\n" + table + "\n" + end + "\n"
    with open(docs, "w") as f:
        f.write(text)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--cpu", type=int, default=60)
    ap.add_argument("--digits", type=int, default=3)
    ap.add_argument("--max-heap", type=int, default=400)
    ap.add_argument("--only", default=None, help="codes starting so, e.g. 0.7 (several: 0.6,0.7)")
    ap.add_argument("--prefixes", default="0", help="the digits before the point, e.g. 0,4")
    ap.add_argument("--out", default=None)
    ap.add_argument("--table", default=None, help="write the table of this results file into --docs")
    ap.add_argument("--docs", default="docs/misere.md")
    a = ap.parse_args()
    todo = [c for c in codes(a.digits, tuple(a.prefixes.split(","))) if a.only is None or c.startswith(tuple(a.only.split(",")))]
    if a.table:
        write_table(a.table, a.docs, len(todo), f"--cpu {a.cpu} --max-heap {a.max_heap}")
        return
    done = set()
    if a.out:
        try:
            with open(a.out) as f:
                done = {json.loads(line)["code"] for line in f if line.strip()}
        except FileNotFoundError:
            pass
    print(f"{len(todo)} codes, {len(done)} already in {a.out}", file=sys.stderr, flush=True)
    sink = open(a.out, "a") if a.out else None
    for c in todo:
        if c in done:
            continue
        r = run(c, a.cpu, a.max_heap)
        line = json.dumps(r)
        print(line, flush=True)
        if sink:
            sink.write(line + "\n")
            sink.flush()


if __name__ == "__main__":
    main()
