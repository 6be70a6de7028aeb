"""``grundy verify PATH…``: check the claims of theorem files and print their verdicts.

Exit status 0 iff every verdict equals its claim's expectation; 1 otherwise; 2 for a
theorem file that cannot be loaded (one line naming the file and claim, no traceback).
"""
from __future__ import annotations

import argparse
import json
import shutil
import sys
import time

from .runner import LoadError, default_jobs, load, run


def add_verify_command(subparsers) -> None:
    """Register ``verify`` on the ``grundy`` command's subparsers."""
    v = subparsers.add_parser("verify", help="check the claims in theorem files",
                              description="Check the claims of theorem files (Python modules defining "
                                          "CLAIMS) and print a verdict for each.")
    v.add_argument("paths", nargs="+", metavar="PATH", help="theorem files or directories of them")
    v.add_argument("--only", nargs="+", metavar="ID", help="only these claims (ids or patterns like 'selfref/*')")
    v.add_argument("--json", action="store_true", help="print one JSON object per claim instead of the table")
    v.add_argument("--junit", metavar="FILE", help="also write JUnit XML to FILE")
    v.add_argument("--report", metavar="FILE", help="also write a report (FILE.md or FILE.html) with pictures")
    v.add_argument("--jobs", type=int, default=None, metavar="N",
                   help=f"run claims in N processes (default {default_jobs()})")
    v.add_argument("--timeout", type=float, default=None, metavar="S",
                   help="time limit per claim in seconds (default: each claim's own, else 120)")
    v.add_argument("--profile", choices=("quick", "full"), default="quick",
                   help="bounds of the explicit sweeps (default quick)")
    v.add_argument("--executor", metavar="SPEC", default=None,
                   help="cut each claim's family into chunks and run them on local:N (N processes here) "
                        "or dask://HOST:PORT (a Dask cluster); default: each claim whole, --jobs processes")
    v.add_argument("--progress", action="store_true", help="show progress on stderr even when it is not a terminal")
    v.set_defaults(run=cmd_verify)


class _Progress:
    def __init__(self, tty: bool):
        self.tty, self.last, self.when = tty, "", 0.0
        self.width = shutil.get_terminal_size((100, 20)).columns - 1

    def __call__(self, text: str) -> None:
        if text == self.last:
            return
        now = time.monotonic()
        if not self.tty and now - self.when < 5:      # a log, not an animation: every 5 s at most
            return
        self.last, self.when = text, now
        if self.tty:
            sys.stderr.write("\r" + text[: self.width].ljust(self.width))
        else:
            sys.stderr.write(text + "\n")
        sys.stderr.flush()

    def clear(self) -> None:
        if self.tty and self.last:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()


def cmd_verify(args: argparse.Namespace) -> int:
    try:
        return _verify(args)
    except BrokenPipeError:                       # e.g. piped into head
        try:
            sys.stdout = None                     # type: ignore[assignment]
        finally:
            return 1


def _verify(args: argparse.Namespace) -> int:
    from .report import details, header, junit, row, summary, write_report
    try:
        claims = load(args.paths, args.only)
    except LoadError as e:
        print(f"grundy verify: {e}", file=sys.stderr)
        return 2
    if args.jobs is not None and args.jobs < 1:
        print("grundy verify: --jobs must be at least 1", file=sys.stderr)
        return 2
    if args.timeout is not None and args.timeout <= 0:
        print("grundy verify: --timeout must be positive", file=sys.stderr)
        return 2
    if not claims:
        print("grundy verify: no claims found", file=sys.stderr)
        return 2
    if args.executor is not None:
        from .executor import ExecutorError, executor
        try:
            executor(args.executor).close()          # a bad spec or an unreachable cluster: one line
        except ExecutorError as e:
            print(f"grundy verify: {e}", file=sys.stderr)
            return 2
    tty = sys.stderr.isatty()
    bar = _Progress(tty) if (tty or args.progress) else None
    jobs = args.jobs or min(default_jobs(), len(claims))
    width = max(len(c.id) for c in claims)
    if not args.json:
        print(header(width))
    verdicts = []
    for v in run(claims, jobs=jobs, timeout=args.timeout, profile=args.profile, progress=bar,
                 executor=args.executor):
        verdicts.append(v)
        if bar:
            bar.clear()
            bar.last = ""
        if args.json:
            print(json.dumps(v.to_json()), flush=True)
        else:
            print(row(v, width), flush=True)
    if bar:
        bar.clear()
    if not args.json:
        extra = [ln for v in verdicts for ln in details(v)]
        if extra:
            print()
            print("\n".join(extra))
        print()
        print(summary(verdicts))
    if args.junit:
        try:
            with open(args.junit, "w", encoding="utf-8") as f:
                f.write(junit(verdicts) + "\n")
        except OSError as e:
            print(f"grundy verify: cannot write {args.junit}: {e.strerror}", file=sys.stderr)
            return 2
    if args.report:
        try:
            for note in write_report(verdicts, args.report):
                print(f"grundy verify: {note}", file=sys.stderr)
        except OSError as e:
            print(f"grundy verify: cannot write {args.report}: {e.strerror}", file=sys.stderr)
            return 2
    return 0 if all(v.passed for v in verdicts) else 1
