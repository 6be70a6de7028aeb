"""The ``grundy`` command line: ``solve``, ``games``, ``octal``, ``check``, ``verify``; the
workbench's ``table``, ``plot`` and ``play`` live in :mod:`grundy.tools.cli`.

Every subcommand takes ``--games PATH`` (repeatable; a game file or a folder of them):
the games defined there are registered before the command runs (see
:mod:`grundy.spec.registry`; ``GRUNDY_GAMES`` names such paths too).
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
import traceback
import warnings
from contextlib import contextmanager
from functools import lru_cache
from typing import Any, Callable, Iterator

from .api import solve
from .errors import DeclarationWarning, RuleError
from .tools import cli as tools_cli
from .tools.progress import Progress
from .solvers.explicit import CycleError, Solver, SolverLimit
from .errors import GrundyError
from .spec.position import InputError, Position, read_position
from .spec.reader import malformed_json
from .spec.registry import ENV_VAR, GAMES, load_games


def _convention(obj: Any) -> str:
    """The play convention a position asks for (its game's by default), before reading it."""
    if not isinstance(obj, dict):
        return "normal"
    game = GAMES.get(obj.get("game")) if isinstance(obj.get("game"), str) else None
    return obj.get("convention", game.convention if game is not None else "normal")


BATCH = 16   # positions on one structure that go to its kernel in one call (fewer: one by one)


def _batch_values(solver: Solver, positions: list[Position | None]) -> dict[int, int]:
    """Normal-play Grundy values of the positions that share a structure with at least
    ``BATCH - 1`` others, by index: each such family in one call to the solver's ``grundy_states`` (the C
    kernel, when it serves the table). Empty when the batch stops on an error: the positions
    are then solved one by one, each reporting its own error."""
    groups: dict[tuple, list[int]] = {}
    for n, p in enumerate(positions):       # (by identity: positions read share their graphs)
        if isinstance(p, Position) and p.convention == "normal":      # sums of games: one by one
            groups.setdefault((id(p.game), id(p.structure)), []).append(n)
    out: dict[int, int] = {}
    try:
        for idx in groups.values():
            if len(idx) >= BATCH:
                p0 = positions[idx[0]]
                out.update(zip(idx, solver.grundy_states(p0.game, p0.structure,  # type: ignore[union-attr]
                                                         [positions[n].state for n in idx])))  # type: ignore[union-attr]
    except Exception:           # any error: the positions one by one, each reporting its own
        solver.clear()
        return {}
    return out


@contextmanager
def _batch_gc() -> Iterator[Callable[[], None]]:
    """Reading a batch makes many small objects and no cycles: Python's cycle collector, which
    would walk them over and over while they are made, waits until the batch is read (call
    the function given when it is). The objects read are then set aside (``gc.freeze``) for
    the rest of the command: they live until it ends and the collector need not walk them."""
    was, froze = gc.isenabled(), False
    gc.disable()

    def read() -> None:
        nonlocal froze
        if not froze and gc.get_freeze_count() == 0:      # nobody else's frozen objects to undo
            gc.freeze()
            froze = True
        if was:
            gc.enable()

    try:
        yield read
    finally:
        if froze:
            gc.unfreeze()
        if was:
            gc.enable()


def _parse(inputs: list[tuple[int, Any, str | None]]) -> list[tuple[int, Any, Position | None, str | None]]:
    """(index, JSON object, position or None, error or None) for each input."""
    parsed: list[tuple[int, Any, Position | None, str | None]] = []
    for i, obj, err in inputs:
        pos = None
        if err is None:
            try:
                pos = read_position(obj)
            except GrundyError as e:
                err = f"position {i + 1}: {e}"
            except Exception as e:            # a bug in a game's reader (a user's file): one line
                tb = traceback.extract_tb(e.__traceback__)[-1]
                err = f"position {i + 1}: {type(e).__name__}: {e} (at {tb.filename}:{tb.lineno})"
        parsed.append((i, obj, pos, err))
    return parsed


def cmd_solve(args: argparse.Namespace) -> int:
    with _batch_gc() as read:
        return _solve(args, read)


def _solve(args: argparse.Namespace, read: Callable[[], None]) -> int:
    started = time.monotonic()
    try:
        inputs = list(tools_cli.read_positions(args.file, args))
    except OSError as e:
        print(f"grundy: cannot read {args.file[0]}: {e.strerror}", file=sys.stderr)
        return 2
    except InputError as e:
        print(f"grundy: {e}", file=sys.stderr)
        return 2
    parsed = _parse(inputs)
    read()
    native = {"auto": None, "always": "always", "off": False}[args.native]
    solver = Solver(max_positions=args.max_positions, symmetry=not args.no_symmetry, native=native)
    status = 0
    conv = [] if args.json else [_convention(obj) for _, obj, _ in inputs]   # for the table's head
    all_misere = bool(conv) and all(c == "misere" for c in conv)
    mixed = not all_misere and "misere" in conv
    head = "grundy (misère)" if all_misere else "grundy"
    width = max(6, len(head), 15 if mixed else 0)
    if not args.json:
        print(f"{'#':>3}  {'game':<14} {'position':<60} {head:>{width}}  outcome")
    tty = sys.stderr.isatty()
    bar = Progress(tty) if (tty or args.progress) and len(parsed) > 1 else None
    shown = started if tty else 0.0       # a terminal: nothing drawn for a command of < 0.5 s
    if bar is not None and not tty:
        bar(f"grundy solve: {len(parsed):,} positions read, solving")
    known = {} if args.outcome_only else _batch_values(solver, [p for _, _, p, _ in parsed])
    plain = not (args.winning_moves or args.line)
    pending: list[str] = []       # JSON lines of answers from the batch, written together
    for n, (i, obj, pos, err) in enumerate(parsed):
        g = known.get(n)
        if g is not None and args.json and plain and pos.convention == "normal":  # type: ignore[union-attr]
            # json.dumps({"index": i, "grundy": g, "outcome": ...}), as below, written faster
            pending.append(f'{{"index": {i}, "grundy": {g}, "outcome": "{"N" if g else "P"}"}}\n')
            if len(pending) >= 256:       # in pieces: a reader that stops (| head) stops us too
                sys.stdout.write("".join(pending))
                pending.clear()
            continue
        if pending:               # before anything else is written, or a long solve starts
            sys.stdout.write("".join(pending))
            pending.clear()
        if bar is not None and time.monotonic() - shown >= 0.5:     # twice a second at most
            shown = time.monotonic()
            bar(f"grundy solve: position {n + 1:,} of {len(parsed):,}")
        result: dict[str, Any] | None = None
        flush = True              # answers found one by one are shown as they come
        if pos is not None:
            if g is not None and pos.convention == "normal" and plain:
                result = {"grundy": g, "outcome": "N" if g else "P"}   # what solve() gives
                flush = False
            else:
                try:
                    with warnings.catch_warnings():    # a declaration found false: said once, below
                        warnings.simplefilter("ignore", DeclarationWarning)
                        result = solve(pos, winning_moves=args.winning_moves, outcome_only=args.outcome_only,
                                       line=args.line, solver=solver)
                except (SolverLimit, CycleError, RuleError) as e:
                    err = f"position {i + 1}: {e}"
                    solver.clear()
                except GrundyError as e:
                    err = f"position {i + 1}: {e}"
                except Exception as e:            # a bug in a game's rules (a user's file): one line
                    tb = traceback.extract_tb(e.__traceback__)[-1]
                    err = f"position {i + 1}: {type(e).__name__}: {e} (at {tb.filename}:{tb.lineno})"
        if bar is not None and bar.tty and bar.last:    # the terminal's line is the progress line's
            bar.clear()
            bar.last = ""
        if err is not None:
            status = 2
            print(f"grundy: {err}", file=sys.stderr)
            if args.json:
                print(json.dumps({"index": i, "error": err}), flush=True)
            continue
        assert result is not None
        if args.json:
            print(json.dumps({"index": i, **result}), flush=flush)
        else:
            value = str(result.get("grundy", result.get("misere_grundy", "-")))
            if mixed and "misere_grundy" in result:
                value += " (misère)"
            print(tools_cli.solve_row(i, obj, value, result["outcome"], width), flush=flush)
            for m in result.get("winning_moves", []):
                print(f"{'':>5}winning: {m['move']}")
            for m in result.get("line", []):
                print(f"{'':>5}line: {m['move']}")
    sys.stdout.write("".join(pending))
    if bar is not None:
        bar.clear()
    for line in solver.violations:       # a declaration the solver did not use: said, one line each
        print(f"grundy: warning: a declared property does not hold, so it was not used (the values "
              f"come from the moves): {line}", file=sys.stderr)
    return status


def cmd_games(args: argparse.Namespace) -> int:
    if args.game:
        return tools_cli.show_game(args.game)
    for name in sorted(GAMES):
        g = GAMES[name]
        where = GAMES.origin(name)
        print(f"{name}  [{g.structure}; {g.convention} play{'' if where == 'built-in' else '; ' + where}]"
              f"\n    {g.summary}")
        if args.rules:
            print("    " + g.source().replace("\n", "\n    "))
    for problem in GAMES.problems:
        print(f"grundy: {problem}", file=sys.stderr)
    return 2 if GAMES.problems else 0


def add_games_option(parser: argparse.ArgumentParser) -> None:
    """``--games PATH`` (repeatable), on every subcommand (once: a subcommand may declare it)."""
    if "--games" in parser._option_string_actions:
        return
    parser.add_argument("--games", action="append", default=[], metavar="PATH",
                        help="register the games defined in a Python file, or in every file of a "
                             f"folder (repeatable; also ${ENV_VAR}, separated by '{os.pathsep}')")


def use_games(paths: list[str]) -> str | None:
    """Register the games of ``--games`` paths; the error line, or None. The paths are also
    put in front of ``GRUNDY_GAMES`` so that processes started from here see the same games."""
    for path in paths:
        try:
            load_games(path)
        except GrundyError as e:
            return str(e)
    if paths:
        old = os.environ.get(ENV_VAR, "")
        os.environ[ENV_VAR] = os.pathsep.join([os.path.abspath(p) for p in paths] + ([old] if old else []))
    return None


def cmd_values(args: argparse.Namespace) -> int:
    from .errors import GrundyError
    from .solvers.heaps import heap_values, period, sum_of_heaps
    obj: dict[str, Any] = {"game": args.game, "heaps": []}
    if args.code is not None:
        obj["code"] = args.code
    if args.set is not None:
        obj["set"] = args.set
    for kv in args.param or []:
        key, eq, val = kv.partition("=")
        try:
            obj[key] = json.loads(val) if eq else None
        except json.JSONDecodeError:
            obj[key] = val
        if not eq:
            print(f"grundy: --param {kv!r}: write KEY=VALUE", file=sys.stderr)
            return 2
    from .spec.game import Game
    game = GAMES.get(args.game)
    if game is not None and type(game).heap_rule is Game.heap_rule:
        print(f"grundy: game: {args.game!r} is not a one-heap game (its positions are not sums of "
              f"heaps under one rule)", file=sys.stderr)
        return 2
    try:
        pos = read_position(obj)
        rule = sum_of_heaps(pos.game, pos.structure)     # sums of heaps by construction only
        if rule is None:
            print(f"grundy: game: {args.game!r} is not a one-heap game (its positions are not sums of "
                  f"heaps under one rule)", file=sys.stderr)
            return 2
        values = heap_values(rule, args.n)
    except (GrundyError, MemoryError) as e:
        print(f"grundy: {e}", file=sys.stderr)
        return 2
    if not args.period:
        print(" ".join(map(str, values)))
        return 0
    params = " ".join(str(obj[k]) for k in obj if k not in ("game", "heaps"))
    name = args.label or (f"{args.game} {params}" if params else args.game)
    found = period(rule.code, values)
    print(f"{name}: no period proved or apparent in G(0..{args.n})" if found is None else
          found.describe(name, args.n))
    return 0


def cmd_octal(args: argparse.Namespace) -> int:
    args.game, args.set, args.param, args.label = "octal", None, None, args.code
    status = cmd_values(args)
    if status == 0:                         # errors stay one line
        print("grundy: note: 'grundy octal CODE N' is deprecated; use 'grundy values octal N --code CODE'",
              file=sys.stderr)
    return status


def cmd_check(args: argparse.Namespace) -> int:
    from .errors import GrundyError
    from .solvers.gamecheck import check_game, parse_structure
    try:
        game = GAMES.get(args.game)
        if game is None:
            raise InputError("game", f"unknown game {args.game!r} (one of: {', '.join(sorted(GAMES))})")
        structures = [parse_structure(s) for s in args.structures] or None
        positions = [json.loads(p) for p in args.position or []] or None
        if positions is not None and structures is None:
            structures = []
        report = check_game(game, structures, positions=positions, bound=args.bound,
                            max_states=args.max_states, smt=not args.no_smt, timeout=args.timeout)
    except json.JSONDecodeError as e:
        print(f"grundy: --position: {malformed_json(e)}", file=sys.stderr)
        return 2
    except GrundyError as e:
        print(f"grundy: {e}", file=sys.stderr)
        return 2
    for line in report.lines():
        print(line)
    bad = report.violations
    unknown = [c for c in report.checks if c.status == "unknown"]
    print(f"{game.name}: {len(bad)} violated, {len(unknown)} unknown, "
          f"{sum(c.status == 'ok' for c in report.checks)} ok")
    return 0 if report.ok else 1


def main(argv: list[str] | None = None) -> int:
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
    from ._version import __version__
    p = argparse.ArgumentParser(prog="grundy", description="Impartial games: solve positions, check claims.")
    p.add_argument("--version", action="version", version=f"grundy {__version__}")
    sub = p.add_subparsers(dest="command", required=True)
    s = sub.add_parser("solve", help="solve positions: nim 3 5 6, grim petersen, JSON, a file, or - for stdin")
    s.add_argument("file", nargs="+", metavar="POSITION", help=tools_cli.POSITION_HELP)
    tools_cli.add_position_options(s)
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
    o = sub.add_parser("octal", help="deprecated: grundy values octal N --code CODE")
    o.add_argument("code", help='octal code, e.g. 0.6 or 4.07')
    o.add_argument("n", type=int, help="the largest heap")
    o.add_argument("--period", action="store_true", help="print the period the values prove, not the values")
    o.set_defaults(run=cmd_octal)
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
    c.add_argument("--timeout", type=float, default=5.0, metavar="S", help="seconds per Z3 obligation (default 5)")
    c.set_defaults(run=cmd_check)
    try:
        from .verify.cli import add_verify_command
    except ImportError:
        pass
    else:
        add_verify_command(sub)
    tools_cli.add_commands(sub)
    for command in sub.choices.values():
        add_games_option(command)
    return p


if __name__ == "__main__":
    sys.exit(main())
