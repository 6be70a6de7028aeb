"""What a value source is handed instead of the solver: a :class:`SourceContext`.

A source (:mod:`grundy.solvers.sources`) needs the table of a game on a structure (its memo
tables, its kernels, the premises of its reductions), the solver's settings and its limit on
the positions stored, a way to note which engine answered (the open :class:`SourceLog`) and a
way to ask for the premises of a table's reductions. The context holds exactly these; a source
never sees a :class:`~grundy.solvers.solver.Solver` (the solver owns its context and reads its
settings there; the context keeps only a weak reference to the solver's method that makes the
limit's error, which a subclass may override).

>>> from grundy.spec import read_position
>>> ctx = SourceContext(symmetry=True, decompose=True, native=False, reduce_after=0)
>>> p = read_position({"game": "nim", "heaps": [3, 5, 6]})
>>> t = ctx.table(p.game, p.structure)          # reduce_after=0: its premises asked at once
>>> sorted(t.premises), t.symmetric, t.decomposed
(['decomposition', 'symmetry'], True, True)
"""
from __future__ import annotations

import weakref
from typing import Callable

from ..errors import SolverLimit
from ..spec.game import Game
from ..spec.structure import Structure
from .heaps import HeapTables
from .premises import VIOLATED, prove_decomposition, prove_symmetry
from .source_log import SourceLog
from .table import Stores, Table

__all__ = ["SourceContext", "MAX_TABLES", "limit_error"]

MAX_TABLES = 256        # structures whose memo tables a solver keeps (the last used): a sweep over
                        # many structures keeps flat memory; positions stored still count to the limit


def limit_error(max_positions: int) -> SolverLimit:
    """The error of the limit on the positions stored."""
    return SolverLimit(f"stopped after storing {max_positions:,} positions "
                       f"(the limit; raise it with --max-positions)")


class SourceContext:
    """The tables of one solver, its settings and its limit, as its value sources see them.

    ``symmetry``, ``decompose``: the reductions allowed (used once their premises are proved);
    ``native``: a C kernel may serve (``native_first``: from a table's first position);
    ``reduce_after``: positions a table stores before the Python search asks for its premises;
    ``max_positions``: the limit on the positions stored (:meth:`count`); ``limit``: makes the
    error raised there (a weak reference is kept: the solver's own method, which a subclass may
    override, without a cycle through the solver). ``log``: the open source log, or None."""

    def __init__(self, *, symmetry: bool = True, decompose: bool = True, native: bool = False,
                 native_first: bool = False, reduce_after: int = 2_000, max_positions: int = 20_000_000,
                 heaps: HeapTables | None = None, limit: Callable[[], Exception] | None = None):
        self.symmetry, self.decompose = symmetry, decompose
        self.native, self.native_first = native, native_first
        self.reduce_after, self.max_positions = reduce_after, max_positions
        self.max_tables = MAX_TABLES
        self.tables: dict[tuple[int, Structure], Table] = {}   # by the game object (kept by its Rules)
        self.stores: Stores | None = Stores(MAX_TABLES)   # memo tables shared by structures with one move relation (None: none)
        self.heaps = HeapTables() if heaps is None else heaps
        self.stored = 0                                   # positions stored outside the kernels
        self.log: SourceLog | None = None
        self.violations: list[str] = []                   # declarations found violated (one line each)
        self._limit = None if limit is None else weakref.WeakMethod(limit)  # type: ignore[arg-type]

    # the tables ------------------------------------------------------------------
    def table(self, game: Game, structure: Structure) -> Table:
        """The table of ``game`` on ``structure`` (made on first use; the least recently used
        of more than ``max_tables`` is dropped)."""
        key = (id(game), structure)     # the table's Rules hold the game: no other object gets its id
        t = self.tables.pop(key, None)   # popped and put back: the dict's order is the order of use
        if t is None:
            # S_n's canonical form costs the Python path some 100 µs a position: with a kernel
            # (which has it in C) the Python path keeps to the small groups it lists
            t = Table(game.rules(structure), self.symmetry, self.decompose, in_use=self.native_first,
                      full_group=not self.native, asked=not (self.symmetry or self.decompose),
                      stores=self.stores)
            if self.reduce_after <= 0:
                self.establish(t)
            while len(self.tables) >= self.max_tables:      # a sweep over many structures:
                del self.tables[next(iter(self.tables))]    # the least recently used goes
        self.tables[key] = t
        return t

    def establish(self, t: Table, python: bool = False, only: str | None = None) -> None:
        """Ask (once per table) for the premises of the reductions allowed: those proved are
        used from now on (the values stored so far are true values: they stay). A declaration
        the author made and Z3 found violated is recorded (one line naming the game, the move
        and the position) in :attr:`violations`. ``python``: asked by the Python search, which
        asks only for the premises of the reductions it would use (:meth:`Table.reach`); the
        others are asked once it has stored 4 times as many positions, or when a kernel is
        built. ``only``: that premise alone (the interpreter's, which reduces by decomposition
        alone). Which premises are asked changes the time only, never a value."""
        if t.asked:
            return
        rules = t.rules
        allowed = [k for k, ok in (("symmetry", t.symmetry and rules.game.symmetric),
                                   ("decomposition", t.decompose and rules.present is not None))
                   if ok and k not in t.premises]
        ask = allowed if only is None else [k for k in allowed if k == only]
        if python and allowed:
            ask = t.reach(allowed)
            if len(ask) < len(allowed):
                t.ask_after = 4 * t.py_stored
        t.asked = ask == allowed
        for kind in ask:
            t.premises[kind] = p = prove_symmetry(rules) if kind == "symmetry" else prove_decomposition(rules)
            if p.status == VIOLATED and p.declared and p.violation not in self.violations:
                self.violations.append(p.violation)
        if ask:
            t.__dict__.pop("code", None)           # compiled again with the reductions proved
            t.noted.clear()

    # what answered -----------------------------------------------------------------
    def note(self, game: Game, structure: Structure, phrase: str) -> None:
        """Note in the open log that ``phrase`` (an engine, a theorem) answered there."""
        if self.log is not None:
            self.log.note(game, structure, phrase)

    def served(self, t: Table, game: Game, structure: Structure, engine: str) -> None:
        """Note that ``engine`` answered on table ``t`` (once per log, engine and state of its
        premises), and the declarations violated there (whoever asked first: every caller that
        uses the table hears of them)."""
        log = self.log
        if log is None or (log.serial, engine) in t.noted:
            return
        t.noted.add((log.serial, engine))
        log.note(game, structure, engine, t.premises)
        for p in t.premises.values():
            if p.status == VIOLATED and p.declared and p.violation not in log.violations:
                log.violations.append(p.violation)

    # the limit -----------------------------------------------------------------------
    def count(self) -> None:
        """Count one position stored; the limit's error past ``max_positions``."""
        self.stored += 1
        if self.stored > self.max_positions:
            raise self.limit()

    def limit(self) -> Exception:
        """The error of the limit on the positions stored (the solver's, while it lives)."""
        make = None if self._limit is None else self._limit()
        return limit_error(self.max_positions) if make is None else make()

    def clear(self) -> None:
        """Forget every table and the count of positions stored."""
        self.tables.clear()
        self.stored = 0
