"""Benchmark: where the theorem library's Z3 seconds go. Every claim of ``theorems/`` (quick
profile) is checked serially in this process, the claims of one group (same game and family)
on one solver as the workers of ``grundy verify`` do, with Z3 instrumented: per claim its CPU
seconds, those inside ``Solver.check``, and the queries of the SMT proofs (each query's CPU
seconds in check, whether it has quantifiers, bit-width or unbounded integers, and whether the
same query, by the SHA-256 of its SMT-LIB text, was asked before in the run: a duplicate).

    python benchmarks/z3_profile.py [--top 15] [--queries FILE.jsonl] [--only PREFIX,...]

With ``--baseline REF`` (a git commit), the same profile of the tree at REF (this script copied
into it) and of this tree are run alternately ``--repeat`` times (3 by default), each in a
fresh process, and the medians of both are shown side by side: per claim (the claims with the
most CPU seconds in Z3 at REF), and in all, with Z3's share:

    python benchmarks/z3_profile.py --baseline 9f41ba2 [--repeat 3] [--only PREFIX,...]

Nothing here changes a verdict; it only counts. The figures depend on the load (printed).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import z3  # noqa: E402

CURRENT = {"claim": ""}
IN_CHECK: dict[str, float] = defaultdict(float)
QUERIES: list[dict] = []
DUMP = {"dir": "", "quantified": os.environ.get("Z3Q_DUMP_QUANT", "")}
OVERHEAD: dict[str, float] = defaultdict(float)   # the profile's own time (hashing), left out


def _instrument() -> None:
    """Wrap ``z3.Solver.check`` (every query, wherever asked) and the SMT runner's queries."""
    from grundy.solvers.smt import runner

    plain_check = z3.Solver.check

    def check(self, *a):
        t = time.process_time()
        try:
            return plain_check(self, *a)
        finally:
            IN_CHECK[CURRENT["claim"]] += time.process_time() - t
    z3.Solver.check = check  # type: ignore[method-assign]

    plain_run = runner._Runner.run
    seen: set[str] = set()

    def run(self, q, seconds):
        t = time.process_time()
        before = IN_CHECK[CURRENT["claim"]]
        out = plain_run(self, q, seconds)
        t1 = time.process_time()
        items = [self.item(it) for it in q.items]
        text = "\n".join(x.sexpr() for x in items)
        key = hashlib.sha256(text.encode()).hexdigest()
        quant = "(forall" in text or "(exists" in text
        QUERIES.append({"claim": CURRENT["claim"], "what": q.full[:80], "width": self.w, "quantified": quant,
                        "status": out[0], "check": IN_CHECK[CURRENT["claim"]] - before,
                        "cpu": t1 - t, "dup": key in seen, "chars": len(text)})
        seen.add(key)
        if DUMP["dir"] and (QUERIES[-1]["check"] >= 0.05 or (DUMP["quantified"] and quant)):      # the slow ones, as SMT-LIB files
            sv = z3.Solver()
            sv.add(*items)
            name = f"{len(QUERIES):05d}-{CURRENT['claim'].replace('/', '_')}-w{self.w}.smt2"
            try:       # the profile's own failure never becomes the claim's verdict
                Path(DUMP["dir"], name).write_text(sv.to_smt2())
            except OSError as e:
                print(f"z3_profile: query not dumped ({e})", file=sys.stderr)
        OVERHEAD[CURRENT["claim"]] += time.process_time() - t1
        return out
    runner._Runner.run = run  # type: ignore[method-assign]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--queries", help="write each query's row to this JSON-lines file")
    ap.add_argument("--only", default="", help="claims whose id starts with one of these (comma-separated)")
    ap.add_argument("--json", help="write the per-claim figures to this file")
    ap.add_argument("--baseline", help="a git commit to compare with (see above)")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--dump", default="", help="write the queries over 0.05 s as SMT-LIB files here")
    args = ap.parse_args()
    if args.baseline:
        return compare(args)
    DUMP["dir"] = args.dump
    if args.dump:      # made here: a missing folder made every dump raise inside the check (the
        Path(args.dump).mkdir(parents=True, exist_ok=True)   # claims with slow queries: "error")
    _instrument()
    from grundy.solvers.solver import Solver
    from grundy.verify.check import check_claim
    from grundy.verify.loading import load
    from grundy.verify.schedule.pool import group_key

    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    claims = [c for c in load([str(ROOT / "theorems")]) if c.id.startswith(tuple(args.only.split(",")))]
    groups: dict[tuple, list] = {}
    for c in claims:
        groups.setdefault(group_key(c), []).append(c)
    rows, bad = [], []
    t_all = time.process_time()
    for cs in groups.values():
        solver = Solver()
        for c in cs:
            CURRENT["claim"] = c.id
            t = time.process_time()
            v = check_claim(c, timeout=c.limit(), solver=solver)
            rows.append((c.id, time.process_time() - t - OVERHEAD[c.id], IN_CHECK[c.id], v.verdict))
            if not v.passed:
                bad.append((c.id, v.verdict, (v.detail or "")[:300]))   # why, not just which
    total = time.process_time() - t_all - sum(OVERHEAD.values())
    z = sum(IN_CHECK.values())
    print(f"{len(claims)} claims: {total:.1f} CPU s, {z:.1f} s in z3 Solver.check ({100 * z / total:.0f}%)")
    nq = len(QUERIES)
    dup = [q for q in QUERIES if q["dup"]]
    print(f"SMT-runner queries: {nq}, {sum(q['check'] for q in QUERIES):.1f} s in check; "
          f"duplicates {len(dup)} ({sum(q['check'] for q in dup):.1f} s in check)")
    for label, pick in (("quantified", lambda q: q["quantified"]), ("quantifier-free", lambda q: not q["quantified"])):
        for kind, w in (("bit-vector", lambda q: q["width"] is not None), ("integer", lambda q: q["width"] is None)):
            qs = [q for q in QUERIES if pick(q) and w(q)]
            if qs:
                print(f"  {label} {kind}: {len(qs)} queries, {sum(q['check'] for q in qs):.2f} s in check, "
                      f"{sum(q['cpu'] for q in qs):.2f} s in all")
    print(f"\n{'claim':48} {'CPU s':>7} {'check s':>8} {'queries':>7} {'dups':>5}  verdict")
    per = defaultdict(lambda: [0, 0])
    for q in QUERIES:
        per[q["claim"]][0] += 1
        per[q["claim"]][1] += q["dup"]
    for cid, cpu, chk, verdict in sorted(rows, key=lambda r: -r[2])[:args.top]:
        print(f"{cid:48} {cpu:7.2f} {chk:8.2f} {per[cid][0]:7d} {per[cid][1]:5d}  {verdict}")
    if bad:
        print("NOT AS EXPECTED:", bad)
    if args.json:
        Path(args.json).write_text(json.dumps({"claims": {r[0]: [r[1], r[2]] for r in rows}, "total": total,
                                               "check": z, "bad": bad}))
    if args.queries:
        with open(args.queries, "w") as f:
            for q in QUERIES:
                f.write(json.dumps(q) + "\n")


def compare(args: argparse.Namespace) -> None:
    """The profile of the tree at ``args.baseline`` against this tree's, alternately (medians)."""
    import shutil
    import statistics
    import subprocess
    import tarfile
    import tempfile
    work = Path(tempfile.mkdtemp(prefix="z3-profile-"))
    base = work / "base"
    base.mkdir()
    tar = subprocess.run(["git", "archive", args.baseline], cwd=ROOT, capture_output=True, check=True).stdout
    with tarfile.open(fileobj=__import__("io").BytesIO(tar)) as t:
        t.extractall(base, filter="data")
    shutil.copy(__file__, base / "benchmarks" / Path(__file__).name)
    runs: dict[str, list[dict]] = {"base": [], "this": []}
    print(f"load average at the start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    for k in range(args.repeat):
        for who, tree in (("base", base), ("this", ROOT)):
            out = work / f"{who}{k}.json"
            env = {**os.environ, "GRUNDY_CACHE": tempfile.mkdtemp(prefix="z3-profile-cache-"),
                   "PYTHONPATH": str(tree)}
            subprocess.run([sys.executable, str(tree / "benchmarks" / Path(__file__).name), "--only", args.only,
                            "--json", str(out)], env=env, check=True, capture_output=True, cwd=tree)
            runs[who].append(json.loads(out.read_text()))
            print(f"  pass {k + 1} {who}: {runs[who][-1]['total']:.1f} CPU s, {runs[who][-1]['check']:.1f} in check"
                  f"{'; NOT AS EXPECTED: ' + str(runs[who][-1]['bad']) if runs[who][-1]['bad'] else ''}")
    print(f"load average at the end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")

    def med(who: str, f) -> float:
        return statistics.median(f(r) for r in runs[who])

    def claim(who: str, c: str) -> list[float]:
        return [statistics.median(r["claims"][c][i] for r in runs[who]) for i in (0, 1)]
    ids = sorted(runs["base"][0]["claims"], key=lambda c: -med("base", lambda r: r["claims"][c][1]))
    print(f"\n{'claim (medians of ' + str(args.repeat) + ')':44} {'CPU s before':>12} {'after':>7} "
          f"{'in Z3 before':>12} {'after':>7}")
    for c in ids[:args.top]:
        b, a = claim("base", c), claim("this", c)
        print(f"{c:44} {b[0]:12.2f} {a[0]:7.2f} {b[1]:12.2f} {a[1]:7.2f}")
    for who in ("base", "this"):
        t, z = med(who, lambda r: r["total"]), med(who, lambda r: r["check"])
        print(f"{'before' if who == 'base' else 'after':6} all claims: {t:.1f} CPU s, {z:.1f} s in Z3 check "
              f"({100 * z / t:.0f}%)")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
