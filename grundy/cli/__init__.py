"""The ``grundy`` command line: ``solve``, ``games``, ``values``, ``check``, ``verify``
and the workbench's ``table``, ``plot`` and ``play``. This module holds :func:`main` and the
parser; the commands live in :mod:`.solve` (solve, values), :mod:`.check`,
:mod:`.verify` and :mod:`.workbench` (games, table, plot, play).

Every subcommand takes ``--games PATH`` (repeatable; a game file or a folder of them):
the games defined there are registered before the command runs (see
:mod:`grundy.spec.registry`; ``GRUNDY_GAMES`` names such paths too).
"""
from __future__ import annotations

import argparse
import gc
import os
import sys
from functools import lru_cache
from typing import NoReturn

from ..errors import GrundyError, user_line

__all__ = ["main"]


PERIOD_MAX_N = 1 << 16      # grundy values --period: the largest N it doubles to
GC_YOUNG = 50_000           # allocations between collections of the youngest generation (Python's: 700)


def tune_gc() -> None:
    """Collect the youngest generation every :data:`GC_YOUNG` allocations, not every 700. A
    search allocates millions of short-lived tuples and keeps large tables of states: with
    Python's default the cyclic collector walks those tables over and over (about 6% of the
    CPU time of checking every seed claim in one process; about 2% with this threshold, the
    peak memory the same: docs/performance.md). It changes when garbage is collected, never what is computed. Set
    by :func:`main` for the command and the worker processes it forks; a program that imports
    grundy keeps its own setting.

    >>> tune_gc(); gc.get_threshold()[0] == GC_YOUNG
    True
    """
    _, older, oldest = gc.get_threshold()
    gc.set_threshold(GC_YOUNG, older, oldest)


def add_games_option(parser: argparse.ArgumentParser) -> None:
    """``--games PATH`` (repeatable), on every subcommand (once: a subcommand may declare it)."""
    from ..spec.registry import ENV_VAR
    if "--games" in parser._option_string_actions:
        return
    parser.add_argument("--games", action="append", default=[], metavar="PATH",
                        help="register the games defined in a Python file, or in every file of a "
                             f"folder (repeatable; also ${ENV_VAR}, separated by '{os.pathsep}')")


def add_debug_option(parser: argparse.ArgumentParser) -> None:
    """``--debug``, on every subcommand: errors met in a user's file show grundy's own frames too."""
    if "--debug" not in parser._option_string_actions:
        parser.add_argument("--debug", action="store_true",
                            help="show the whole traceback of an error met in your own file (games, "
                                 "theorems, statements), grundy's frames included")


def use_games(paths: list[str]) -> str | None:
    """Register the games of ``--games`` paths; the error line, or None. The paths are also
    put in front of ``GRUNDY_GAMES`` so that processes started from here see the same games."""
    from ..spec.registry import ENV_VAR, load_games
    for path in paths:
        try:
            load_games(path)
        except GrundyError as e:
            return str(e)
    if paths:
        old = os.environ.get(ENV_VAR, "")
        os.environ[ENV_VAR] = os.pathsep.join([os.path.abspath(p) for p in paths] + ([old] if old else []))
    return None


def _shown(values: list[int], most: int = 20) -> str:
    """A list of values, the first and last ones only when it is long."""
    if len(values) <= most:
        return " ".join(map(str, values))
    return " ".join(map(str, values[:most // 2])) + f" ... ({len(values) - most:,} more) ... " + \
        " ".join(map(str, values[-(most // 2):]))


def main(argv: list[str] | None = None) -> int:
    """Run the ``grundy`` command on ``argv`` (default: the process's arguments); its exit status.
    The environment variables a command sets for its worker processes (``GRUNDY_GAMES`` from
    ``--games``, ``GRUNDY_DEBUG``) are restored when it returns, so that a caller in the same
    process (a notebook, a test) is left as it was."""
    saved = {k: os.environ.get(k) for k in ("GRUNDY_GAMES", "GRUNDY_DEBUG")}
    try:
        return _main(argv)
    except KeyboardInterrupt as e:                # at any point: while loading, parsing or running
        done = getattr(e, "done", None)           # how far a long computation had come
        if done:
            print(f"grundy: interrupted after G(0..{len(done) - 1}) (the values computed so far: "
                  f"{_shown(done)})", file=sys.stderr)
        else:
            print("grundy: interrupted", file=sys.stderr)
        return 130
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def _main(argv: list[str] | None) -> int:
    if (sys.argv[1:] if argv is None else argv) == ["--version"]:   # at once: no command's module loaded
        from .._version import __version__
        print(f"grundy {__version__}")
        return 0
    if (sys.argv[1:] if argv is None else argv) == ["--cite"]:      # the same: a BibTeX entry, at once
        from .cite import bibtex
        try:
            print(bibtex())
            sys.stdout.flush()
        except BrokenPipeError:                   # grundy --cite | head
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 141
        return 0
    args = _parse(sys.argv[1:] if argv is None else list(argv))
    tune_gc()
    if getattr(args, "debug", False):
        os.environ["GRUNDY_DEBUG"] = "1"          # read by user_line, here and in worker processes
    err = use_games(args.games)
    if err is not None:
        print(f"grundy: {err}", file=sys.stderr)
        return 2
    try:
        status = args.run(args)
        sys.stdout.flush()                        # a closed pipe shows here, not at exit
        return status
    except BrokenPipeError:                       # the reader stopped early (grundy ... | head)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())      # so that the final flush does not fail again
        return 141
    except Exception as e:                        # met in a user's file: one line naming it
        where = user_line(e)
        if getattr(args, "debug", False) or not where:
            raise                                 # grundy's own bug: its traceback
        print(f"grundy: {type(e).__name__}: {e}{where} (--debug shows the traceback)", file=sys.stderr)
        return 2


def _parse(argv: list[str]) -> argparse.Namespace:
    """The command line read: a list option's items gathered (:func:`.params.spread_lists`), and a
    command's options allowed anywhere among its words (``grundy solve octal --code 0.6 5 6``)."""
    from .params import spread_lists
    argv = spread_lists(argv)
    parser = _parser()
    commands = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices
    if argv and argv[0] in commands:
        args = commands[argv[0]].parse_intermixed_args(argv[1:])
        args.command = argv[0]
        return args
    return parser.parse_args(argv)


class _Cite(argparse.Action):
    """``--cite`` anywhere before the command: the BibTeX entry, then exit (as ``--version``)."""

    def __call__(self, parser, namespace, values, option_string=None):  # type: ignore[no-untyped-def]
        from .cite import bibtex
        print(bibtex())
        parser.exit()


class _Parser(argparse.ArgumentParser):
    """argparse, with a usage error in one line that names the nearest spelling of a misspelt
    option or command (not the whole usage block)."""

    def error(self, message: str) -> NoReturn:
        hint = _nearest(message, list(self._option_string_actions) + _commands(self))
        self.exit(2, f"{self.prog}: {message}{hint} (grundy {self.prog.partition(' ')[2] or ''} --help: "
                     f"every option)\n".replace("grundy  --help", "grundy --help"))


def _commands(parser: argparse.ArgumentParser) -> list[str]:
    return [c for a in parser._actions if isinstance(a, argparse._SubParsersAction) for c in a.choices]


def _nearest(message: str, known: list[str]) -> str:
    """"; did you mean --jobs?" for the first unknown word of ``message`` close to a known one."""
    import difflib
    import re
    words = re.findall(r"(--?[\w-]+|'[\w-]+')", message.partition(":")[2] if ":" in message else message)
    for w in words:
        w = w.strip("'").split("=")[0]
        if w in known:
            continue
        close = difflib.get_close_matches(w, known, n=1, cutoff=0.6)
        if close:
            return f"; did you mean {close[0]}?"
    return ""


@lru_cache(maxsize=None)
def _parser() -> argparse.ArgumentParser:
    """The argument parser (built once per process: main() may be called many times)."""
    from .._version import __version__
    from . import workbench
    from .check import cmd_check
    from .params import add_game_options
    from .solve import cmd_solve, cmd_values
    from .workbench import cmd_games
    p = _Parser(prog="grundy", description="Impartial games: solve positions, check claims.")
    p.add_argument("--version", action="version", version=f"grundy {__version__}")
    p.add_argument("--cite", action=_Cite, nargs=0, help="print a BibTeX entry for grundy (as in CITATION.cff) and exit")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("solve", help="solve positions: nim 3 5 6, grim petersen, JSON, a file, or - for stdin")
    s.add_argument("file", nargs="+", metavar="POSITION", help=workbench.POSITION_HELP)
    workbench.add_position_options(s)
    s.add_argument("--json", action="store_true", help="one JSON line per position")
    s.add_argument("--winning-moves", action="store_true", help="list the winning moves")
    s.add_argument("--line", action="store_true", help="show one winning line of play")
    s.add_argument("--outcome-only", action="store_true", help="N/P only, stopping at the first winning move")
    s.add_argument("--show-edges", action="store_true",
                   help="a graph game's short form: list the vertices or edges in the order --weights follows")
    s.add_argument("--max-positions", type=int, default=20_000_000, metavar="N",
                   help="stop with an error after storing N positions (default 20,000,000)")
    s.add_argument("--no-symmetry", action="store_true", help="do not reduce by symmetry")
    s.add_argument("--theorems", action="append", metavar="PATH",
                   help="a theorem file or folder: its claims marked serves=True answer the positions in "
                        "their scope by their formula, once proved (checked now, or read from the verdict cache)")
    s.add_argument("--store", action="append", metavar="DIR",
                   help="a level store (a finished run of the levelled solver, or a folder of them): the positions "
                        "it holds are answered from it, once it is checked to be about the same rules (docs/levelled.md)")
    s.add_argument("--progress", action="store_true",
                   help="show progress on stderr even when it is not a terminal (a log line every 5 s)")
    s.add_argument("--native", choices=("auto", "always", "off"), default="auto",
                   help="the C kernel generated from the rules: auto (once a table is large; the "
                        "default), always, or off (pure Python)")
    s.set_defaults(run=cmd_solve)
    g = sub.add_parser("games", help="list the games and their rules")
    g.add_argument("game", nargs="?", help="show this game's rules, JSON fields and an example")
    g.add_argument("--rules", action="store_true", help="print each game's rule text")
    g.set_defaults(run=cmd_games)
    v = sub.add_parser("values", help="Grundy values G(0..N) of one heap of a heap-rule game "
                                      "(octal, subtraction, lasker-nim, ...)")
    v.add_argument("game", help="a game whose positions are sums of heaps (see grundy games)")
    v.add_argument("n", type=int, help="the largest heap")
    v.add_argument("--period", action="store_true",
                   help="print the period (proved by a theorem where one applies, else apparent), not the values; "
                        "where a theorem applies, N doubles until the period is proved or N reaches --max-n")
    v.add_argument("--max-n", type=int, default=PERIOD_MAX_N, metavar="N",
                   help=f"with --period: the largest heap N may double to (default {PERIOD_MAX_N:,})")
    add_game_options(v)
    v.set_defaults(run=cmd_values, label=None)
    c = sub.add_parser("check", help="check the properties a game declares (symmetry, components, "
                                     "heap count, domains, rank) on small structures",
                       description="Check what a game declares about itself before relying on it. Exit "
                                   "status 0 if every property holds on what was checked, 1 if one is "
                                   "violated or unknown, 2 for bad input.")
    c.add_argument("game", help="a game's name (see grundy games)")
    c.add_argument("structures", nargs="*", metavar="STRUCTURE",
                   help="heaps:N, path:N, cycle:N, complete:N, star:N, dicycle:N or a JSON edge list "
                        "(default: small structures suited to the game)")
    c.add_argument("--position", action="append", metavar="JSON",
                   help="also check from this JSON position (on its structure); may be repeated")
    c.add_argument("--bound", type=int, default=4, metavar="B",
                   help="numeric fields of the checked box go up to B above their least value (default 4)")
    c.add_argument("--max-states", type=int, default=3000, metavar="N",
                   help="positions per structure: the box (sampled beyond N) and what it reaches (default 3000)")
    c.add_argument("--no-smt", action="store_true", help="skip the Z3 checks of domains and rank")
    c.add_argument("--timeout", type=float, default=5.0, metavar="S", help="CPU seconds per Z3 obligation (default 5)")
    c.set_defaults(run=cmd_check)
    from .verify import add_verify_command
    add_verify_command(sub)
    from .recheck import add_recheck_command
    add_recheck_command(sub)
    workbench.add_commands(sub)
    from .explore import add_explore_command
    add_explore_command(sub)
    from .quotient import add_quotient_command
    add_quotient_command(sub)
    for command in sub.choices.values():
        add_games_option(command)
        add_debug_option(command)
    return p


