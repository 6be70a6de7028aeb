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
import os
import sys
from functools import lru_cache

from ..errors import GrundyError

__all__ = ["main"]


def add_games_option(parser: argparse.ArgumentParser) -> None:
    """``--games PATH`` (repeatable), on every subcommand (once: a subcommand may declare it)."""
    from ..spec.registry import ENV_VAR
    if "--games" in parser._option_string_actions:
        return
    parser.add_argument("--games", action="append", default=[], metavar="PATH",
                        help="register the games defined in a Python file, or in every file of a "
                             f"folder (repeatable; also ${ENV_VAR}, separated by '{os.pathsep}')")


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


def main(argv: list[str] | None = None) -> int:
    """Run the ``grundy`` command on ``argv`` (default: the process's arguments); its exit status."""
    if (sys.argv[1:] if argv is None else argv) == ["--version"]:   # at once: no command's module loaded
        from .._version import __version__
        print(f"grundy {__version__}")
        return 0
    args = _parser().parse_args(argv)
    err = use_games(args.games)
    if err is not None:
        print(f"grundy: {err}", file=sys.stderr)
        return 2
    try:
        status = args.run(args)
        sys.stdout.flush()                        # a closed pipe shows here, not at exit
        return status
    except KeyboardInterrupt:
        print("grundy: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:                       # the reader stopped early (grundy ... | head)
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())      # so that the final flush does not fail again
        return 141


@lru_cache(maxsize=None)
def _parser() -> argparse.ArgumentParser:
    """The argument parser (built once per process: main() may be called many times)."""
    from .._version import __version__
    from . import workbench
    from .check import cmd_check
    from .solve import cmd_solve, cmd_values
    from .workbench import cmd_games
    p = argparse.ArgumentParser(prog="grundy", description="Impartial games: solve positions, check claims.")
    p.add_argument("--version", action="version", version=f"grundy {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("solve", help="solve positions: nim 3 5 6, grim petersen, JSON, a file, or - for stdin")
    s.add_argument("file", nargs="+", metavar="POSITION", help=workbench.POSITION_HELP)
    workbench.add_position_options(s)
    s.add_argument("--json", action="store_true", help="one JSON line per position")
    s.add_argument("--winning-moves", action="store_true", help="list the winning moves")
    s.add_argument("--line", action="store_true", help="show one winning line of play")
    s.add_argument("--outcome-only", action="store_true", help="N/P only, stopping at the first winning move")
    s.add_argument("--max-positions", type=int, default=20_000_000, metavar="N",
                   help="stop with an error after storing N positions (default 20,000,000)")
    s.add_argument("--no-symmetry", action="store_true", help="do not reduce by symmetry")
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
                   help="print the period (proved by a theorem where one applies, else apparent), not the values")
    v.add_argument("--code", help='octal code, e.g. 0.6 or 4.07 (game octal)')
    v.add_argument("--set", type=int, nargs="+", metavar="S", help="subtraction set, e.g. 1 3 4 (game subtraction)")
    v.add_argument("--param", action="append", metavar="KEY=JSON", help="any other parameter of the game")
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
    workbench.add_commands(sub)
    for command in sub.choices.values():
        add_games_option(command)
    return p


