"""``grundy recheck DIR``: re-solve the SMT queries of certificate bundles with a second solver.

Exit status 0 when no query disagrees (each bundle agreed, or incomplete: a query not decided
within the limit, or a part not checked, is said, with the time); 1 when one disagrees or a
bundle is damaged; 2 when DIR holds no bundle.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

__all__ = ["add_recheck_command", "cmd_recheck", "lines"]


def add_recheck_command(subparsers) -> None:
    """Register ``recheck`` on the ``grundy`` command's subparsers."""
    r = subparsers.add_parser("recheck", help="re-solve certificate bundles' SMT queries with cvc5/Bitwuzla",
                              description="Re-solve every SMT-LIB query of the certificate bundles that "
                                          "`grundy verify --certificates DIR` wrote, with a solver other than Z3 "
                                          "(Bitwuzla for bit-vectors, cvc5 otherwise; pip install 'grundy[certify]'), "
                                          "each in a fresh process, and report per claim.")
    r.add_argument("dir", metavar="DIR", help="a directory of bundles, or one bundle")
    r.add_argument("--timeout", type=float, default=None, metavar="S",
                   help="CPU seconds per query for the second solver (default 60)")
    r.add_argument("--jobs", type=int, default=1, metavar="N", help="queries solved at once (default 1)")
    r.add_argument("--json", action="store_true", help="one JSON object per bundle, then the totals")
    r.set_defaults(run=cmd_recheck)


def lines(res, verbose: bool = True) -> list[str]:
    """What ``grundy recheck`` prints of one bundle."""
    from ..verify.certificates.recheck import ratios
    r = ratios([res])
    counts = ", ".join(f"{n} {k}" for k, n in sorted(r["counts"].items()))
    solvers = ", ".join(f"{k} {n}" for k, n in sorted(r["solvers"].items()))
    out = [f"{res.claim}: {res.status} ({res.verdict}; {r['queries']} SMT queries: {counts or 'none'}"
           + (f"; by {solvers}" if solvers else "") + ")"]
    for o in res.outcomes:
        if o.status != "agreed" and (verbose or o.status in ("disagreed", "error")):
            out.append(f"  {o.file} [{o.obligation}]: {o.status}: {o.detail}")
    out += [f"  {p}" for p in res.problems + res.notes]
    if res.checker:
        out.append(f"  stand-alone checker: {res.checker.get('status')}: {res.checker.get('detail', '')}")
    return out


def cmd_recheck(args: argparse.Namespace) -> int:
    from ..verify.certificates.recheck import SECONDS, ratios, recheck_bundle
    root = Path(args.dir)
    if (root / "manifest.json").exists():
        bundles = [root]
    elif root.is_dir():
        bundles = sorted(d for d in root.iterdir() if (d / "manifest.json").exists())
    else:
        bundles = []
    if not bundles:
        print(f"grundy recheck: no certificate bundle in {args.dir}", file=sys.stderr)
        return 2
    if args.timeout is not None and args.timeout <= 0:
        print("grundy recheck: --timeout must be positive", file=sys.stderr)
        return 2
    results = []
    for b in bundles:
        res = recheck_bundle(b, args.timeout or SECONDS, max(1, args.jobs))
        results.append(res)
        if args.json:
            print(json.dumps(res.to_json()), flush=True)
        else:
            print("\n".join(lines(res)), flush=True)
    total = ratios(results)
    if args.json:
        print(json.dumps({"totals": total}))
    else:
        print()
        print(summary(results, total))
    return 1 if any(r.status == "disagreed" for r in results) else 0


def summary(results: list, total: dict) -> str:
    """The closing lines: bundles by status, queries by status, the time ratio to Z3."""
    by: dict[str, int] = {}
    for r in results:
        by[r.status] = by.get(r.status, 0) + 1
    q = ", ".join(f"{n} {k}" for k, n in sorted(total["counts"].items()))
    text = (f"{len(results)} bundles: " + ", ".join(f"{n} {k}" for k, n in sorted(by.items()))
            + f"\n{total['queries']} SMT queries: {q or 'none'}")
    if total["total_ratio"] is not None:
        text += (f"\nsecond solver / Z3 time on the {total['timed']} queries both answered: total "
                 f"{total['second_seconds']:.2f} s / {total['z3_seconds']:.2f} s = {total['total_ratio']:.2f}x, "
                 f"median {total['median_ratio']:.2f}x")
    return text
