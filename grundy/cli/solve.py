"""``grundy solve`` (positions, one by one or by batches on the C kernel) and ``grundy values``
(one heap's Grundy values, with their period)."""
from __future__ import annotations

import argparse
import gc
import json
import os
import sys
import time
import traceback
import warnings
from collections.abc import Sequence
from contextlib import contextmanager
from typing import Any, Callable, Iterator, cast

from ..api import solve
from ..errors import DeclarationWarning, GrundyError, RuleError, user_line
from ..solvers.solver import CycleError, Solver, SolverLimit
from ..spec.position import InputError, Position, SumPosition, read_position
from ..spec.registry import GAMES
from ..tools.progress import Progress
from . import workbench
from .foresight import Watch, estimate, foresight
from .params import game_params


def _convention(obj: Any) -> str:
    """The play convention a position asks for (its game's by default), before reading it."""
    if not isinstance(obj, dict):
        return "normal"
    name = obj.get("game")
    game = GAMES.get(name) if isinstance(name, str) else None
    return obj.get("convention", game.convention if game is not None else "normal")


def _debug(e: BaseException) -> None:
    """With ``--debug``: the whole traceback of an error met in a user's file, on stderr."""
    if os.environ.get("GRUNDY_DEBUG"):
        traceback.print_exception(e)


MOST_MOVES = 20   # winning moves listed per position in the table (--json: all of them)
BATCH = 16   # positions on one structure that go to its kernel in one call (fewer: one by one)


def _batch_values(solver: Solver, positions: list[Position | SumPosition | None]) -> dict[int, int]:
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
                                                         [positions[n].state for n in idx]), strict=False))  # type: ignore[union-attr]
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


def _parse(inputs: list[tuple[int, Any, str | None]]) -> list[tuple[int, Any, Position | SumPosition | None, str | None]]:
    """(index, JSON object, position or None, error or None) for each input."""
    parsed: list[tuple[int, Any, Position | SumPosition | None, str | None]] = []
    for i, obj, err in inputs:
        pos: Position | SumPosition | None = None
        if err is None:
            try:
                pos = read_position(obj)
            except GrundyError as e:
                err = f"position {i + 1}: {e}"
            except Exception as e:            # a bug in a game's reader (a user's file): one line
                err = f"position {i + 1}: {type(e).__name__}: {e}{user_line(e)}"
                _debug(e)
        parsed.append((i, obj, pos, err))
    return parsed


def _foresee(watch: Watch, pos: Position | SumPosition, obj: Any, i: int, prefix: str, foresee: bool) -> None:
    """Before one solve: the estimate and the faster route when it is large (``foresee``: for a
    few positions only, each said), and the progress line's watch begun."""
    work = ("explicit", 0)
    if foresee:
        work = estimate(pos)
        for line in foresight(pos, obj):
            print(f"grundy solve: position {i + 1}: {line}", file=sys.stderr)
    watch.begin(work, pos.game.name if isinstance(pos, Position) else "sum", prefix)


def _about(claims: list, parsed: list) -> tuple[list, int]:
    """The claims that serve positions of the games being solved, and how many serve others
    (those are not established: a proof about another game is time spent for nothing)."""
    names: set[str] = set()
    for _, _, pos, _ in parsed:
        for p in (pos.parts if isinstance(pos, SumPosition) else [pos] if pos is not None else []):
            names.add(p.game.name)
    mine = [c for c in claims if c.game in names]
    return mine, sum(1 for c in claims if c.serves and c.game not in names)


def cmd_solve(args: argparse.Namespace) -> int:
    with _batch_gc() as read:
        return _solve(args, read)


def _solve(args: argparse.Namespace, read: Callable[[], None]) -> int:
    started = time.monotonic()
    try:
        inputs = list(workbench.read_positions(args.file, args))
    except OSError as e:
        print(f"grundy: cannot read {args.file[0]}: {e.strerror}", file=sys.stderr)
        return 2
    except InputError as e:
        print(f"grundy: {e}", file=sys.stderr)
        return 2
    parsed = _parse(inputs)
    read()
    solver = _solver(args, parsed)
    out = _Printer(args, [obj for _, obj, _ in inputs])
    out.head(parsed)
    tty = sys.stderr.isatty()
    bar = Progress(tty) if tty or args.progress else None
    watch = Watch(bar, solver) if bar is not None else None
    many = len(parsed) > 1
    shown = started if tty else 0.0       # a terminal: nothing drawn for a command of < 0.5 s
    if bar is not None and not tty and many:
        bar(f"grundy solve: {len(parsed):,} positions read, solving")
    known = {} if args.outcome_only else _batch_values(solver, [p for _, _, p, _ in parsed])
    status = 0
    for n, (i, obj, pos, err) in enumerate(parsed):
        g = known.get(n)
        if g is not None and out.fast(i, g, pos):
            continue
        if bar is not None and many and time.monotonic() - shown >= 0.5:     # twice a second at most
            shown = time.monotonic()
            bar(f"grundy solve: position {n + 1:,} of {len(parsed):,}")
        result, flush = None, True        # answers found one by one are shown as they come
        if pos is not None and err is None:
            if g is not None and pos.convention == "normal" and out.plain:
                result, flush = {"grundy": g, "outcome": "N" if g else "P"}, False   # what solve() gives
            else:
                out.flush()               # the batch's answers before a long solve starts
                prefix = f"position {n + 1:,} of {len(parsed):,}: " if many else ""
                result, err = _answer(args, solver, watch, pos, obj, i, prefix, len(parsed) <= BATCH)
        if bar is not None and bar.tty and bar.last:    # the terminal's line is the progress line's
            bar.clear()
            bar.last = ""
        if err is not None:
            status = 2
            out.error(i, err)
        elif result is not None:
            out.answer(i, obj, result, flush)
    out.flush()
    if watch is not None:
        watch.close()
    if bar is not None:
        bar.clear()
    _notes(solver)
    return 2 if getattr(args, "theorems_failed", False) or getattr(args, "store_failed", False) else status


def _solver(args: argparse.Namespace, parsed: list) -> Solver:
    """The solver of a run, with the theorems of ``--theorems`` about the games being solved
    established (a theorem file that cannot be read is said in one line: the positions are then
    solved without it, and the exit status is 2)."""
    native = {"auto": None, "always": "always", "off": False}[args.native]
    solver = Solver(max_positions=args.max_positions, symmetry=not args.no_symmetry, native=native)
    if getattr(args, "store", None):
        _stores(args, solver)
    if not getattr(args, "theorems", None):
        return solver
    from ..verify.loading import load
    from ..verify.serve import serve
    try:
        claims, others = _about(load(args.theorems), parsed)
        for line in serve(solver, claims):
            print(f"grundy: theorem {line}", file=sys.stderr)
        if others:
            print(f"grundy: --theorems: {others} claim{'s' * (others != 1)} about other games not established",
                  file=sys.stderr)
    except GrundyError as e:             # the answers need no theorem: solved without them, exit 2
        print(f"grundy: --theorems: {e}; the positions are solved without these theorems", file=sys.stderr)
        args.theorems_failed = True
    return solver


def _stores(args: argparse.Namespace, solver: Solver) -> None:
    """The level stores of ``--store``, asked first (each checked, per structure, to be about the
    rules being solved: :mod:`grundy.solvers.levelled.source`). A store that cannot be used at all
    is said in one line: the positions are then solved without it, and the exit status is 2."""
    from ..solvers.levelled.source import LevelStoreSource, open_stores
    for where in args.store:
        try:
            found = [LevelStoreSource(st) for st in open_stores(where)]
        except (LookupError, OSError) as e:
            print(f"grundy: --store: {e}; the positions are solved without it", file=sys.stderr)
            args.store_failed = True
            continue
        for src in found:
            if src.problem is not None:
                print(f"grundy: --store: the level store {src.store.path}: {src.problem}; not used", file=sys.stderr)
                args.store_failed = True
            else:
                solver.sources = (src, *solver.sources)


def _answer(args: argparse.Namespace, solver: Solver, watch: Watch | None, pos: Position | SumPosition, obj: Any,
            i: int, prefix: str, foresee: bool) -> tuple[dict[str, Any] | None, str | None]:
    """One position solved: (the result, None), or (None, the error in one line)."""
    try:
        if watch is not None:
            _foresee(watch, pos, obj, i, prefix, foresee)
        with warnings.catch_warnings():    # a declaration found false: said once, at the end
            warnings.simplefilter("ignore", DeclarationWarning)
            result = solve(pos, winning_moves=args.winning_moves, outcome_only=args.outcome_only,
                           line=args.line, solver=solver, value_budget=args.max_positions)
            if result.get("value_not_computed"):     # the outcome alone: said why, on stderr
                print(f"grundy: position {i + 1}: {result['value_not_computed']}", file=sys.stderr)
            return result, None
    except (SolverLimit, CycleError, RuleError) as e:
        solver.clear()
        return None, f"position {i + 1}: {e}"
    except GrundyError as e:
        return None, f"position {i + 1}: {e}"
    except Exception as e:            # a bug in a game's rules (a user's file): one line
        _debug(e)
        return None, f"position {i + 1}: {type(e).__name__}: {e}{user_line(e)}"
    finally:
        if watch is not None:
            watch.end()


def _notes(solver: Solver) -> None:
    """After the answers: the declarations not used, and the theorems that answered."""
    for line in solver.violations:       # a declaration the solver did not use: said, one line each
        print(f"grundy: warning: a declared property does not hold, so it was not used (the values "
              f"come from the moves): {line}", file=sys.stderr)
    for src in solver.sources:           # the theorems, the misère quotients, the stores: what answered, said
        for label, count in getattr(src, "used", {}).items():
            print(f"grundy: {count:,} position{'s' * (count != 1)} answered {label}", file=sys.stderr)
        refusals = list(getattr(src, "refusals", ()))      # a level store about other rules
        for line in refusals[:5]:
            print(f"grundy: {line}", file=sys.stderr)
        if len(refusals) > 5:
            print(f"grundy: ... and on {len(refusals) - 5:,} more structures", file=sys.stderr)


class _Printer:
    """How ``grundy solve`` writes its answers: a table (a row per position, its winning moves
    and line under it) or JSON lines (``--json``), errors on standard error."""

    def __init__(self, args: argparse.Namespace, objs: list[Any]):
        self.json, self.show_edges = args.json, args.show_edges
        self.plain = not (args.winning_moves or args.line)
        conv = [] if args.json else [_convention(obj) for obj in objs]   # for the table's head
        all_misere = bool(conv) and all(c == "misere" for c in conv)
        self.mixed = not all_misere and "misere" in conv
        self.title = "grundy (misère)" if all_misere else "grundy"
        self.width = max(6, len(self.title), 15 if self.mixed else 0)
        self.pending: list[str] = []      # JSON lines of answers from the batch, written together

    def head(self, parsed: list) -> None:
        if self.json:
            return
        if self.show_edges:
            for i, _, pos, _ in parsed:
                if isinstance(pos, Position):
                    print(workbench.weight_list(i, pos))
        print(f"{'#':>3}  {'game':<14} {'position':<60} {self.title:>{self.width}}  outcome")

    def fast(self, i: int, g: int, pos: Any) -> bool:
        """A batch answer written as JSON at once (True), or left to :meth:`answer` (False)."""
        if not (self.json and self.plain and pos.convention == "normal"):
            return False
        # json.dumps({"index": i, "grundy": g, "outcome": ...}), as answer() would, written faster
        self.pending.append(f'{{"index": {i}, "grundy": {g}, "outcome": "{"N" if g else "P"}"}}\n')
        if len(self.pending) >= 256:      # in pieces: a reader that stops (| head) stops us too
            self.flush()
        return True

    def flush(self) -> None:
        if self.pending:
            sys.stdout.write("".join(self.pending))
            self.pending.clear()

    def error(self, i: int, err: str) -> None:
        self.flush()
        print(f"grundy: {err}", file=sys.stderr)
        if self.json:
            print(json.dumps({"index": i, "error": err}), flush=True)

    def answer(self, i: int, obj: Any, result: dict[str, Any], flush: bool) -> None:
        self.flush()
        if self.json:
            print(json.dumps({"index": i, **result}), flush=flush)
            return
        got = result.get("grundy", result.get("misere_grundy"))
        value = "-" if got is None else str(got)
        if self.mixed and "misere_grundy" in result:
            value += " (misère)"
        print(workbench.solve_row(i, obj, value, result["outcome"], self.width), flush=flush)
        wins = result.get("winning_moves", [])
        for m in wins[:MOST_MOVES]:
            print(f"{'':>5}winning: {m['move']}")
        if len(wins) > MOST_MOVES:
            print(f"{'':>5}... and {len(wins) - MOST_MOVES:,} more winning moves ({len(wins):,} in all; "
                  f"--json lists every one)")
        for m in result.get("line", []):
            print(f"{'':>5}line: {m['move']}")


def cmd_values(args: argparse.Namespace) -> int:
    from ..solvers.heaps import heap_values, period, sum_of_heaps, takebreak_run
    from ..solvers.heaps.bounds import theorem_for
    try:
        params = game_params(args)
        if args.weights is not None or args.token is not None:
            raise InputError("weights" if args.weights is not None else "token",
                             "grundy values is for one-heap games: no weights or token")
        if args.misere:
            raise InputError("misere", "grundy values gives Grundy values, which are normal play's")
    except GrundyError as e:
        print(f"grundy: {e}", file=sys.stderr)
        return 2
    obj: dict[str, Any] = {"game": args.game, **params, "heaps": []}
    from ..spec.game import Game
    game = GAMES.get(args.game)
    if game is not None and type(game).heap_rule is Game.heap_rule:
        print(f"grundy: game: {args.game!r} is not a one-heap game (its positions are not sums of "
              f"heaps under one rule)", file=sys.stderr)
        return 2
    try:
        pos = cast(Position, read_position(obj))     # heaps: never a sum
        rule = sum_of_heaps(pos.game, pos.structure)     # sums of heaps by construction only
        if rule is None:
            print(f"grundy: game: {args.game!r} is not a one-heap game (its positions are not sums of "
                  f"heaps under one rule)", file=sys.stderr)
            return 2
        run = takebreak_run(rule.code, args.n) if args.period and rule.code is not None else None
        values: Sequence[int] = heap_values(rule, args.n) if run is None else run.table
        if args.period:
            code, values, why = _period_code(rule, values, args.max_n, run)
    except (GrundyError, MemoryError) as e:
        print(f"grundy: {e}", file=sys.stderr)
        return 2
    if not args.period:
        print(" ".join(map(str, values)))
        return 0
    params_text = " ".join(str(v) for v in params.values())
    name = args.label or (f"{args.game} {params_text}" if params_text else args.game)
    n = len(values) - 1
    found = period(code, values)
    note = why
    if found is not None and found.proved and code is not None:
        th = theorem_for(code)
        note = (f"{th.name if th else ''}, code {code.text}"
                + ("" if code == rule.code else ": the rule's options are the code's, proved by Z3"))
    print(f"{name}: no period proved or apparent in G(0..{n})" if found is None else
          found.describe(name, n, note))
    return 0


def _period_code(rule: Any, values: Sequence[int], max_n: int, run: Any = None) -> tuple[Any, Sequence[int], str]:
    """(the code whose periodicity theorem applies to the rule, or None; G(0..N) with N doubled
    until the period is proved or N reaches ``max_n``; why nothing was proved, if it was not).
    A hand-written rule has a code's theorem only when its options are the code's on every heap
    (compared up to N, proved by Z3). ``run``: the code's run that gave ``values`` (a rule with
    a code), extended in place at each doubling."""
    from ..solvers.heaps import heap_values, period, takebreak_run
    from ..solvers.heaps.bounds import code_of_rule, options_match, theorem_for
    code = code_of_rule(rule)
    if code is None or theorem_for(code) is None:
        return None, values, "no periodicity theorem applies to this rule"
    while True:
        if code != rule.code and options_match(rule, code, len(values) - 1) is not None:
            return None, values, "the rule's options are no finite code's"
        found = period(code, values)
        if found is not None and found.proved or len(values) - 1 >= max_n:
            break
        top = min(max_n, 2 * len(values))
        if run is not None:
            run = takebreak_run(rule.code, top, start=run)
            values = run.table
        else:
            values = heap_values(rule, top)
    if code != rule.code:
        from ..solvers.heaps.codeproof import rule_is_code
        same, because = rule_is_code(rule, code)
        if not same:
            return None, values, f"not proved that the rule's options are code {code.text}'s: {because}"
    if found is None or not found.proved:
        return code, values, f"not proved up to N = {len(values) - 1} (--max-n {max_n})"
    return code, values, ""
