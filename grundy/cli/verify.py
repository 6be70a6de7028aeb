"""``grundy verify PATH…``: check the claims of theorem files and print their verdicts.

Exit status 0 iff every verdict equals its claim's expectation; 1 otherwise; 2 for a
theorem file that cannot be loaded (one line naming the file and claim, no traceback).
Interrupted (SIGINT, Ctrl-C, or SIGTERM), it still prints and writes ``--report``, ``--junit``
and ``--json`` for the claims finished, with a line "interrupted: k of n claims done" and the
unfinished claims, and exits with 130 (SIGINT) or 143 (SIGTERM).
"""
from __future__ import annotations

import argparse
import json
import signal
import sys
from pathlib import Path
from typing import Callable, Iterator

from ..errors import LoadError
from ..tools.progress import Progress as _Progress


def add_verify_command(subparsers) -> None:
    """Register ``verify`` on the ``grundy`` command's subparsers."""
    v = subparsers.add_parser("verify", help="check the claims in theorem files",
                              description="Check the claims of theorem files (Python modules defining "
                                          "CLAIMS) and print a verdict for each.")
    v.add_argument("paths", nargs="+", metavar="PATH", help="theorem files or directories of them")
    v.add_argument("--only", nargs="+", action="extend", metavar="ID",
                   help="only these claims (ids or patterns like 'selfref/*'; repeatable)")
    v.add_argument("--json", action="store_true", help="print one JSON object per claim instead of the table")
    v.add_argument("--junit", metavar="FILE", help="also write JUnit XML to FILE")
    v.add_argument("--report", metavar="FILE", help="also write a report with pictures: FILE.md, FILE.html, or "
                                                    "FILE.tex (LaTeX, pictures in TikZ)")
    v.add_argument("--jobs", type=int, default=None, metavar="N",
                   help="run claims in N processes (default: the machine's cores, at most 8)")
    v.add_argument("--timeout", type=float, default=None, metavar="S",
                   help="time limit per claim in CPU seconds (default: each claim's own, else 120)")
    v.add_argument("--profile", choices=("quick", "full"), default="quick",
                   help="bounds of the explicit sweeps (default quick)")
    v.add_argument("--executor", metavar="SPEC", default=None,
                   help="cut each claim's family into chunks and run them on local:N (N processes here) "
                        "or dask://HOST:PORT (a Dask cluster); default: each claim whole, --jobs processes")
    v.add_argument("--progress", action="store_true", help="show progress on stderr even when it is not a terminal")
    v.add_argument("--recheck", choices=("sample", "all", "none"), default="sample",
                   help="what the reference engine re-solves before a verdict is given out: a sample of each "
                        "passing sweep and every counterexample (sample, the default), every swept position "
                        "(all), or nothing (none: for measurement)")
    v.add_argument("--no-cache", action="store_true",
                   help="check every claim again: neither read nor write the verdict cache "
                        "($GRUNDY_CACHE/verdicts, default ~/.cache/grundy/verdicts)")
    v.add_argument("--certificates", metavar="DIR", default=None,
                   help="write each claim's certificate bundle under DIR (its SMT queries as SMT-LIB 2 files, "
                        "a manifest; see `grundy recheck`); every claim is checked anew (the cache is not read)")
    v.add_argument("--second-solver", action="store_true",
                   help="after each claim, re-solve its SMT queries with cvc5/Bitwuzla (pip install "
                        "'grundy[certify]'): a disagreement makes the verdict error")
    v.set_defaults(run=cmd_verify)


def cmd_verify(args: argparse.Namespace) -> int:
    """``grundy verify``: its exit status (a closed pipe, as in ``| head``, is :func:`grundy.cli.main`'s
    to handle: 141 and no traceback, as for every command)."""
    return _verify(args)


class _Signals:
    """While active, SIGTERM raises KeyboardInterrupt like SIGINT does; remembers which came."""

    def __init__(self) -> None:
        self.name = ""
        self._old: dict[int, object] = {}

    def _raise(self, signum: int, frame) -> None:
        self.name = signal.Signals(signum).name
        raise KeyboardInterrupt

    def __enter__(self) -> "_Signals":
        for s in (signal.SIGINT, signal.SIGTERM):
            try:
                self._old[s] = signal.signal(s, self._raise)
            except ValueError:                      # not the main thread: leave signals alone
                pass
        return self

    def __exit__(self, *exc) -> None:
        for s, h in self._old.items():
            signal.signal(s, h)                     # type: ignore[arg-type]

    def ignore(self) -> None:
        """Ignore both signals until the end of the block (while the files are written)."""
        for s in self._old:
            signal.signal(s, signal.SIG_IGN)

    @property
    def status(self) -> int:
        return 128 + (signal.SIGTERM if self.name == "SIGTERM" else signal.SIGINT)


def _consume(verdicts: Iterator, take: Callable) -> bool:
    """Pass every verdict to ``take``; True if a KeyboardInterrupt stopped the run. The verdicts
    the runner had finished but not yet given out are still taken then."""
    try:
        for v in verdicts:
            take(v)
        return False
    except KeyboardInterrupt:
        pass
    try:                                            # the interrupt may have come while taking
        v = verdicts.throw(KeyboardInterrupt())     # type: ignore[attr-defined]
        while True:
            take(v)
            v = next(verdicts)
    except (KeyboardInterrupt, StopIteration):
        pass
    return True


def _verify(args: argparse.Namespace) -> int:
    from ..tools.report import Interruption, header, row
    from ..verify.schedule.pool import default_jobs, run
    claims, why = _claims(args)
    if why:
        print(f"grundy verify: {why}", file=sys.stderr)
        return 2
    certs = _certificates_dir(args)
    if certs == "":
        return 2
    tty = sys.stderr.isatty()
    bar = _Progress(tty) if (tty or args.progress) else None
    jobs = args.jobs or min(default_jobs(), len(claims))
    width = max(len(c.id) for c in claims)
    if not args.json:
        print(header(width))
    verdicts = []

    def take(v) -> None:
        _after_claim(args, v, certs)
        verdicts.append(v)
        if bar:
            bar.clear()
            bar.last = ""
        if args.json:
            print(json.dumps(v.to_json()), flush=True)
        else:
            print(row(v, width), flush=True)

    from ..verify.cache import VerdictCache, cache_note, read_times, record_times
    options = {"profile": args.profile, "timeout": args.timeout, "executor": args.executor,
               "recheck": args.recheck}
    cache = None if args.no_cache else VerdictCache(options)
    # each claim's time last run orders the work (costliest first): a hint, never a verdict
    verdicts_in = run(claims, jobs=jobs, timeout=args.timeout, profile=args.profile, progress=bar,
                      executor=args.executor, seconds=read_times(args.profile),
                      record=lambda took: record_times(args.profile, took), cache=cache,
                      recheck=args.recheck, certificates=certs)
    with _Signals() as signals:
        stopped = _consume(verdicts_in, take)
        args.cache_note = cache_note(verdicts, len(claims))    # printed under the summary
        if args.json:                                          # (stdout holds JSON only)
            for text in args.cache_note:
                print(f"grundy verify: {text}", file=sys.stderr)
        if bar:
            bar.clear()
        # the files are written with the signals still caught: a second Ctrl-C is ignored here
        signals.ignore()
        cut = None
        if stopped:
            got = {v.id for v in verdicts}
            cut = Interruption(len(verdicts), len(claims), [c.id for c in claims if c.id not in got],
                               signals.name or "SIGINT")
        status = _write(args, verdicts, cut)
    _drop_temporary(args, certs)
    if status:
        return status
    if cut is not None:
        return signals.status
    return 0 if all(v.passed for v in verdicts) else 1


def _claims(args: argparse.Namespace) -> tuple[list, str]:
    """The claims to check and "" (their notes said), or [] and why the run cannot start: a file
    that does not load, a bad option, no claim, an executor that cannot be reached."""
    from ..verify.loading import load  # here, not at the top: start-up of other commands
    notes: list[str] = []
    try:
        claims = load(args.paths, args.only, notes)
    except LoadError as e:
        return [], str(e)
    for note in notes:
        print(f"grundy verify: note: {note}", file=sys.stderr)
    bad = _bad_option(args)
    if bad:
        return [], bad
    if not claims:
        return [], "no claims found"
    if args.executor is not None:
        from ..verify.schedule.chunks import ExecutorError, executor
        try:
            executor(args.executor).close()          # a bad spec or an unreachable cluster: one line
        except ExecutorError as e:
            return [], str(e)
    return claims, ""


def _bad_option(args: argparse.Namespace) -> str:
    """What is wrong with the numeric options ("" when nothing is)."""
    if args.jobs is not None and args.jobs < 1:
        return "--jobs must be at least 1"
    if args.timeout is not None and args.timeout <= 0:
        return "--timeout must be positive"
    return ""


def _certificates_dir(args: argparse.Namespace) -> str | None:
    """Where bundles go: ``--certificates``, a temporary directory for ``--second-solver`` alone,
    or None; "" after an error message (exit 2)."""
    if not args.certificates and not args.second_solver:
        return None
    if args.executor is not None:
        print("grundy verify: --certificates and --second-solver check claims whole: not with --executor",
              file=sys.stderr)
        return ""
    if not args.certificates:
        import tempfile
        return tempfile.mkdtemp(prefix="grundy-certificates-")
    try:
        Path(args.certificates).mkdir(parents=True, exist_ok=True)
    except OSError as e:
        print(f"grundy verify: cannot write {args.certificates}: {e.strerror}", file=sys.stderr)
        return ""
    return str(Path(args.certificates).resolve())


def _drop_temporary(args: argparse.Namespace, certs: str | None) -> None:
    """``--second-solver`` without ``--certificates``: its bundles were temporary."""
    if certs is not None and not args.certificates:
        import shutil
        shutil.rmtree(certs, ignore_errors=True)


def _after_claim(args: argparse.Namespace, v, certs: str | None) -> None:
    """With certificates: a claim's bundle when its check wrote none (it was stopped: said in the
    manifest), and the second solver's re-check of it (``--second-solver``)."""
    if certs is None:
        return
    from ..verify.certificates import write_bundle
    if not v.certificate:
        why = f"the check did not finish in its worker ({v.detail or v.verdict}): no query was captured"
        try:
            v.certificate = str(write_bundle(Path(certs), v, None, gaps=[why]))
        except OSError as e:
            v.detail = (v.detail + "; " if v.detail else "") + f"certificate not written: {e}"
            return
    if args.second_solver:
        from ..verify.certificates.recheck import recheck_bundle, second_opinion
        second_opinion(v, recheck_bundle(Path(v.certificate)))
    if not args.certificates:
        v.certificate = ""                          # a temporary bundle: not shown


def _write(args: argparse.Namespace, verdicts: list, cut) -> int:
    """Print the closing lines and write --junit and --report; 2 if a file cannot be written."""
    from ..tools.report import details, junit, summary, write_report
    if args.json:
        if cut is not None:
            print(json.dumps(cut.to_json()), flush=True)
    else:
        extra = [ln for v in verdicts for ln in details(v)]
        if extra:
            print()
            print("\n".join(extra))
        print()
        print(summary(verdicts))
        for text in getattr(args, "cache_note", []):   # where verdicts came from
            print(text)
        if cut is not None:
            print("\n".join(cut.lines()))
    status = 0
    if args.junit:                            # each file on its own: one that fails spoils no other
        try:
            Path(args.junit).parent.mkdir(parents=True, exist_ok=True)
            with open(args.junit, "w", encoding="utf-8") as f:
                f.write(junit(verdicts, cut) + "\n")
        except OSError as e:
            print(f"grundy verify: cannot write {args.junit}: {e.strerror}", file=sys.stderr)
            status = 2
    if args.report:
        try:
            for note in write_report(verdicts, args.report, cut):
                print(f"grundy verify: {note}", file=sys.stderr)
        except OSError as e:
            print(f"grundy verify: cannot write {args.report}: {e.strerror}", file=sys.stderr)
            status = 2
    return status
