"""The explicit solver: Grundy values, outcomes, winning moves and lines of play.

Iterative depth-first search (no recursion limit) over states compiled from the
rules; one memo table per (game, structure), shared by every position on it;
positions reduced by symmetry and split into independent components.

>>> from grundy.spec import read_position
>>> solver = Solver()
>>> p = read_position({"game": "nim", "heaps": [3, 5, 6]})
>>> solver.grundy(p), solver.outcome(p)
(0, 'P')
"""
from __future__ import annotations

import warnings
from typing import Any, Generic, TypeVar, overload

from ..settings import current as settings
from ..spec.game import Game
from ..spec.position import Position, SumPosition
from ..spec.structure import Structure
from .context import MAX_TABLES, SourceContext, limit_error
from .explicit.compile import State, compile_expr
from .explicit.sums import MisereSums
from .heaps import HeapTables
from .limits import CycleError, SolverLimit
from .limits import cycle_error as _cycle
from .native import build
from .native.kernel import Box, Kernel
from .source_log import HEAP_TABLES, KERNEL, PYTHON, SourceLog, sources_text
from .sources import (
    HeapTablesSource,
    KernelSource,
    Partial,
    PythonSource,
    Query,
    ValueSource,
    outcome_alone,
)
from .table import Stores, Table

__all__ = ["Solver", "DEFAULT", "SolverLimit", "CycleError", "SourceLog", "sources_text", "Table", "MAX_TABLES", "PYTHON", "KERNEL", "HEAP_TABLES"]


T = TypeVar("T")


class _OnContext(Generic[T]):
    """A solver's attribute kept on its :class:`SourceContext` (read and set there): the
    context is what the value sources see."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> "_OnContext[T]": ...

    @overload
    def __get__(self, obj: "Solver", owner: type | None = None) -> T: ...

    def __get__(self, obj: "Solver | None", owner: type | None = None) -> Any:
        return self if obj is None else getattr(obj.ctx, self.name)

    def __set__(self, obj: "Solver", value: T) -> None:
        setattr(obj.ctx, self.name, value)


class Solver:
    """Solve positions; memo tables persist across calls.

    ``max_positions`` bounds the number of positions stored (over all tables);
    exceeding it raises :class:`SolverLimit`. ``symmetry`` and ``decompose`` allow the
    reductions (they never change a value). ``native``: solve with the C kernel generated
    from the same rules (None: whenever a C compiler is here), over packed positions with
    the same reductions, once the Python path has stored ``settings.native_after`` positions on a
    table (``native="always"``: from the first position).
    Anything the kernel cannot hold (a position beyond 64 bits, a Grundy value above 253)
    goes to the Python path. Every question goes to :meth:`_values`, which asks the value
    sources of :mod:`grundy.solvers.sources` in order (:attr:`sources`: proved theorems, misère
    quotients of heap games (:mod:`grundy.solvers.misere.source`), one-heap tables, coin-turning
    games (:mod:`grundy.solvers.coins`), the kernel, the Python search); a batch is grouped by game
    object, equal structure and convention. The sources are handed the solver's
    :class:`SourceContext` (:attr:`ctx`: its tables, settings and limit, its log), never the solver.

    Every reduction is a value source with a premise (:mod:`grundy.solvers.premises`): symmetry
    (sorted heaps, automorphisms, the S_n plan, in Python and in the kernel) needs the rule to
    commute with the group, decomposition needs the components to be independent; each is
    proved by Z3 on the structure before it is used, once a table has stored ``reduce_after``
    positions (small tables are solved from the moves alone; the Python search asks only for
    the premises of the reductions it would use there) or before a kernel is built. A
    premise not proved (violated, or Z3 unknown within its resource limit): the reduction is not
    used on that structure; a violated declaration the author made is reported
    (:attr:`violations`, and ``log``). One-heap tables serve only games whose moves are
    :class:`~grundy.spec.HeapRule`'s own derivation (sums of heaps by construction).
    ``vet`` is accepted and ignored (deprecated: nothing is taken on trust any more).

    Parameters
    ----------
    max_positions : int
        The positions stored at most, over all tables (:class:`SolverLimit` past it).
    symmetry, decompose : bool
        Allow the reductions by symmetry and by independent components (each used only where
        its premise is proved; neither changes a value).
    native : bool, "always" or None
        The C kernel: None whenever a compiler is here, False never, ``"always"`` from the
        first position.
    reduce_after : int, optional
        Positions a table stores before the premises of its reductions are asked (default:
        :attr:`grundy.settings.Settings.reduce_after`).

    Raises
    ------
    SolverLimit
        (from its methods) more positions to store than ``max_positions``.
    CycleError
        (from its methods) a move back to a position on the current line.

    Examples
    --------
    >>> from grundy.spec import read_position
    >>> s = Solver(max_positions=10_000)
    >>> s.grundy(read_position({"game": "nim", "heaps": [1, 2, 3]})), s.outcome(read_position({"game": "nim", "heaps": [1, 2]}))
    (0, 'N')
    """

    def __init__(self, max_positions: int = 20_000_000, symmetry: bool = True, decompose: bool = True,
                 native: bool | str | None = None, vet: bool | None = None, reduce_after: int | None = None):
        if vet is not None:
            warnings.warn("Solver(vet=...) is deprecated and ignored: the solver proves the premises of "
                          "its reductions on every structure it uses them on", DeprecationWarning, stacklevel=2)
        self.ctx = SourceContext(          # what the value sources see (the limit's error: _limit)
            symmetry=symmetry, decompose=decompose,
            native=build.available() if native is None else (bool(native) and build.available()),
            native_first=native == "always", reduce_after=settings().reduce_after if reduce_after is None else reduce_after,
            max_positions=max_positions, limit=self._limit)
        self.sums = MisereSums(self)                # sums of positions, with their misère memos
        from .coins import CoinTurningSource
        from .misere.source import MisereQuotientSource
        from .theorems import TheoremSource
        self.theorems = TheoremSource()        # proved formulas (none until the verify layer adds them)
        self.sources: tuple[ValueSource, ...] = (self.theorems, MisereQuotientSource(), HeapTablesSource(),
                                                 CoinTurningSource(),
                                                 KernelSource(), PythonSource())

    # the settings, the tables and the log: on the context --------------------------
    max_positions = _OnContext[int]()
    symmetry = _OnContext[bool]()
    decompose = _OnContext[bool]()
    reduce_after = _OnContext[int]()
    native = _OnContext[bool]()
    native_first = _OnContext[bool]()
    max_tables = _OnContext[int]()
    stores = _OnContext[Stores | None]()      # memo tables shared by structures with one move relation (None: none)
    tables = _OnContext[dict[tuple[int, Structure], Table]]()   # by the game object (kept by its Rules)
    heaps = _OnContext[HeapTables]()
    log = _OnContext[SourceLog | None]()      # what served, while a caller keeps a log open
    violations = _OnContext[list[str]]()        # declarations found violated (one line each)

    @property
    def stored(self) -> int:
        """Positions stored, by the Python path and the native kernels."""
        return self.ctx.stored + sum(k.stored for t in self.tables.values() for k in t.kernels.values())

    # tables -------------------------------------------------------------------
    def table(self, game: Game, structure: Structure) -> Table:
        """The memo tables of ``game`` on ``structure`` (:meth:`SourceContext.table`)."""
        return self.ctx.table(game, structure)

    def establish(self, t: Table, python: bool = False) -> None:
        """Ask (once per table) for the premises of the reductions the solver allows
        (:meth:`SourceContext.establish`): a declaration found violated is recorded in
        :attr:`violations`. Which premises are asked changes the time only, never a value."""
        self.ctx.establish(t, python)

    def count_stored(self) -> None:
        """Count one position stored outside the tables (a misère sum); SolverLimit past the limit."""
        self.ctx.count()

    def _limit(self) -> SolverLimit:
        return limit_error(self.max_positions)

    def clear(self) -> None:
        self.ctx.clear()
        self.sums.clear()

    # the value sources ----------------------------------------------------------
    def _values(self, game: Game, structure: Structure, states: list[State], convention: str,
                question: str, sweep: bool = False, engines: tuple[str, ...] | None = None,
                chunk: bool = False) -> list | None:
        """The answers to ``question`` (``"grundy"`` or ``"wins"``) at ``states`` of ``game`` on
        ``structure``: the sources (:attr:`sources`, or those named in ``engines``) are asked in
        order, the first that answers serves; a source answering only the first states (the
        Python search handing its table over) is followed by the sources again, from the first,
        for the rest. None: no source answers. ``sweep``: a batch (see :class:`Query`).
        ``chunk``: each state answered as it would be alone (:meth:`answers`): once a source
        that could answer declined, the next one answers the first state only."""
        ctx = self.ctx
        q = Query(game, structure, convention, question, sweep, chunk)
        sources = self.sources if engines is None else [s for s in self.sources if s.name in engines]
        out: list = []
        while True:                     # at least once: an empty batch is noted as before
            got = None
            declined = False
            for src in sources:
                if src.can_answer(ctx, q):
                    rest = states[len(out):len(out) + 1] if declined else states[len(out):]
                    got = src.values(ctx, q, rest)
                    if got is not None:
                        break
                    declined = chunk
            if got is None:
                return None
            out.extend(got.values if isinstance(got, Partial) else got)
            if len(out) >= len(states):
                return out

    def _batches(self, positions: list, skip: Any = None) -> dict[tuple, list[int]]:
        """Indices of positions answered in one batch: one game object, equal structures, one
        convention (the positions keep their games alive: no other object gets their ids)."""
        groups: dict[tuple, list[int]] = {}
        for i, p in enumerate(positions):
            if skip is None or not skip(p):
                groups.setdefault((id(p.game), p.structure, p.convention), []).append(i)
        return groups

    def grundy(self, pos: Position | SumPosition) -> int:
        """The Grundy value in the position's convention: normal play, the mex of the options'
        values; misère play, the misère Grundy value (the mex of the options' misère values, 1 at
        a terminal position; 0 exactly at the misère P-positions). Misère values of a sum are
        not the XOR of its parts': a misère position is never split.

        >>> from grundy.spec import read_position
        >>> s = Solver(native=False)
        >>> [s.grundy(read_position({"game": "nim", "heaps": [n], "convention": "misere"})) for n in range(5)]
        [1, 0, 2, 3, 4]
        """
        if isinstance(pos, SumPosition):       # a sum of positions of any games
            return self.sums.grundy(pos, _cycle)
        return self._values(pos.game, pos.structure, [pos.state], pos.convention, "grundy")[0]  # type: ignore[index]

    def grundy_many(self, positions: list[Position]) -> list[int]:
        """Grundy values of many positions; those on one structure go to its kernel in one
        call (a family sweep), when the native path serves their table."""
        out: list[int | None] = [None] * len(positions)
        for idx in self._batches(positions).values():
            p0 = positions[idx[0]]
            vals = self.grundy_states(p0.game, p0.structure, [positions[i].state for i in idx], p0.convention)
            for i, v in zip(idx, vals, strict=False):
                out[i] = v
        return out  # type: ignore[return-value]

    def grundy_states(self, game: Game, structure: Structure, states: list[State],
                      convention: str = "normal") -> list[int]:
        """Grundy values (in ``convention``) at many packed states of ``game`` on ``structure``:
        in one call to its kernel where the native path serves, else one by one.

        >>> from grundy.spec import Structure
        >>> from grundy.spec.games import get_game
        >>> k3 = Structure.graph(range(3), [(0, 1), (0, 2), (1, 2)])
        >>> Solver().grundy_states(get_game("edge-nim"), k3, [(1, 1, 1, 0), (0, 0, 0, 0), (2, 0, 0, 0)])
        [1, 0, 2]
        """
        return self._values(game, structure, states, convention, "grundy", sweep=True)  # type: ignore[return-value]

    def answers(self, game: Game, structure: Structure, states: list[State], convention: str = "normal",
                question: str = "wins") -> list:
        """The answers to ``question`` (``"wins"``: as :meth:`mover_wins`; ``"grundy"``: as
        :meth:`grundy`) at many packed states of ``game`` on ``structure``, in one call: each
        state is answered by the source that would answer it alone, in the same order (no
        kernel is built for the batch: the kernel serves a table already in use), without the
        cost of a call per position (a sweep's chunk on structures too small for a kernel).

        >>> from grundy.spec import Structure
        >>> from grundy.spec.games import get_game
        >>> k3 = Structure.graph(range(3), [(0, 1), (0, 2), (1, 2)])
        >>> Solver(native=False).answers(get_game("edge-nim"), k3, [(1, 1, 1, 0), (0, 0, 0, 0)])
        [True, False]
        """
        return self._values(game, structure, states, convention, question, chunk=True)  # type: ignore[return-value]

    def sweep_kernel(self, game: Game, structure: Structure, convention: str, question: str,
                     box: Box, extra: str, quick: bool | None = None, light: bool = False) -> Kernel | None:
        """The C kernel a sweep of ``game`` on ``structure`` over ``box`` asks, compiled with
        ``extra`` (``quick``, ``light``: as :class:`Kernel`'s): the first source that may answer
        the sweep's question gives it (its ``sweep``, :meth:`KernelSource.sweep`); None where that
        source has no kernel to give (one-heap tables, a theorem, the Python search)."""
        q = Query(game, structure, convention, question, sweep=True)
        for src in self.sources:
            if src.can_answer(self.ctx, q):
                sweep = getattr(src, "sweep", None)     # a capability of the source, not its type
                return None if sweep is None else sweep(self.ctx, q, box, extra, quick, light)
        return None

    def sweep_vm(self, game: Game, structure: Structure, convention: str, question: str,
                 box: Box) -> Any:
        """The interpreter's table (:class:`~grundy.solvers.native.vm.VMKernel`) a sweep of
        ``game`` on ``structure`` over ``box`` may ask in place of a kernel compiled for it,
        where the first source that may answer the sweep's question is the one that would give
        it a kernel (``sweep_vm``); else None (ask the solver as without it)."""
        q = Query(game, structure, convention, question, sweep=True)
        for src in self.sources:
            if src.can_answer(self.ctx, q):
                make = getattr(src, "sweep_vm", None)
                return None if make is None else make(self.ctx, q, box)
        return None

    def vm_swept(self, game: Game, structure: Structure, stored: int, split_share: float | None = None) -> None:
        """The interpreter swept ``game`` on ``structure``, storing ``stored`` positions: the
        premises the Python search would have asked there (:meth:`KernelSource.vm_swept`;
        ``split_share``: by a program with components, the share of positions that split)."""
        KernelSource.vm_swept(self.ctx, Query(game, structure, "normal", "wins", sweep=True), stored, split_share)

    def vm_limited(self, game: Game, structure: Structure) -> None:
        """The interpreter met its limit on ``game`` on ``structure``: the table's later
        questions go to its C kernel (:meth:`KernelSource.vm_limited`)."""
        KernelSource.vm_limited(self.ctx, Query(game, structure, "normal", "wins", sweep=True))

    # outcomes -----------------------------------------------------------------
    def grundy_by_search(self, pos: Position | SumPosition) -> int:
        """As :meth:`grundy`, but a sum's value by a search over the whole sum (a move is a move
        in one part), in normal play too: never the XOR of its parts' values."""
        if isinstance(pos, SumPosition):
            return self.sums.searched(pos, _cycle)
        return self.grundy(pos)

    def mover_wins(self, pos: Position | SumPosition) -> bool:
        """True iff the player to move wins (in the position's convention)."""
        if isinstance(pos, SumPosition):
            return self.sums.mover_wins(pos, _cycle)
        return self._values(pos.game, pos.structure, [pos.state], pos.convention, "wins")[0]  # type: ignore[index]

    def mover_wins_many(self, positions: list[Position]) -> list[bool]:
        """:meth:`mover_wins` of many positions; those on one structure are asked of the sources
        in one batch (to its kernel in one call, a family sweep, when the native path serves
        their table).

        >>> from grundy.spec import read_position
        >>> ps = [read_position({"game": "nim", "heaps": h}) for h in ([1, 2, 3], [1, 2])]
        >>> Solver().mover_wins_many(ps)
        [False, True]
        """
        out: list[bool | None] = [None] * len(positions)
        for idx in self._batches(positions, skip=lambda p: not isinstance(p, Position)).values():
            p0 = positions[idx[0]]
            wins = self._values(p0.game, p0.structure, [positions[i].state for i in idx], p0.convention,
                                "wins", sweep=True)
            for i, w in zip(idx, wins or (), strict=False):
                out[i] = w
        return [self.mover_wins(p) if w is None else w for p, w in zip(positions, out, strict=False)]

    def mover_wins_states(self, game: Game, structure: Structure, states: list[State],
                          convention: str = "normal") -> list[bool] | None:
        """Whether the mover wins at each of ``states`` (packed states of ``game`` on
        ``structure``), solved by its kernel in one call; None where no kernel serves (ask
        :meth:`mover_wins` position by position). A sweep's batch, without building positions.

        >>> from grundy.spec import Structure
        >>> from grundy.spec.games import get_game
        >>> k3 = Structure.graph(range(3), [(0, 1), (0, 2), (1, 2)])
        >>> wins = Solver().mover_wins_states(get_game("edge-nim"), k3, [(1, 1, 1, 0), (0, 0, 0, 0)])
        >>> wins is None or wins == [True, False]
        True
        """
        return self._values(game, structure, states, convention, "wins", sweep=True, engines=(KERNEL,))

    def outcome(self, pos: Position | SumPosition) -> str:
        """``"N"`` or ``"P"`` in the position's convention, stopping at the first winning move."""
        return "N" if self.mover_wins(pos) else "P"

    def outcome_alone(self, pos: Position | SumPosition, budget: int) -> tuple[str, str] | None:
        """(outcome, why its value is not given) when a source that answers outcomes only
        answers ``pos`` and a search for its value would store more than ``budget`` positions
        (:func:`~grundy.solvers.sources.outcome_alone`); None otherwise: ask for both.

        >>> from grundy.spec import read_position
        >>> p = read_position({"game": "octal", "code": "0.75", "heaps": [10**4] * 3, "convention": "misere"})
        >>> Solver(native=False).outcome_alone(p, 10**6)[0], Solver(native=False).outcome_alone(p, 10**40)
        ('N', None)
        """
        if not isinstance(pos, Position):
            return None
        q = Query(pos.game, pos.structure, pos.convention, "wins")
        got = outcome_alone(self.ctx, self.sources, q, pos.state, budget)
        return None if got is None else ("N" if got[0] else "P", got[1])

    # moves and lines ----------------------------------------------------------
    def options(self, pos: Position | SumPosition) -> list[tuple[str, Any]]:
        """Every move: (description, resulting position)."""
        if isinstance(pos, SumPosition):
            return self.sums.options(pos)
        heap_moves = self.heaps.options(pos)     # a sum of heaps: one option in one heap
        if heap_moves is not None:
            return heap_moves
        t = self.table(pos.game, pos.structure)
        moves = pos.rules.moves  # same moves as the table's, labelled with this structure's names
        out = []
        for mi, cv, nxt in t.code.options(pos.state):
            m = moves[mi]
            label = m.label.format(**{c.name: v for c, v in zip(m.choices, cv, strict=False)})
            out.append((label, pos.with_state(nxt)))
        return out

    def winning_moves(self, pos: Position | SumPosition) -> list[tuple[str, Any]]:
        """The moves to a position the opponent loses."""
        if self.decompose and not isinstance(pos, SumPosition):
            fast = self.heaps.winning_moves(pos)  # a sum of heaps: from the one-heap values
            if fast is not None:
                return fast
        return [(lab, q) for lab, q in self.options(pos) if not self.mover_wins(q)]

    def rank(self, pos: Position | SumPosition) -> int:
        """The position's rank (of a sum: the total of its parts' ranks)."""
        if isinstance(pos, SumPosition):
            return sum(self.rank(p) for p in pos.parts)
        ranks = self.__dict__.setdefault("_ranks", {})
        key = (id(pos.game), pos.structure)      # the entry keeps the game alive: its id is not reused
        if key not in ranks:                     # the rank alone: no need to compile the moves
            ranks[key] = (pos.game, compile_expr(pos.rules, pos.rules.rank))
        return ranks[key][1](pos.state)

    def winning_line(self, pos: Position | SumPosition, max_length: int = 1000) -> list[tuple[str, Position]]:
        """A line of play from ``pos`` to the end where the winner always plays a winning move
        and the loser the move that lasts longest by rank (the first line listed for ties).
        Returns (move, position after it) pairs."""
        line: list[tuple[str, Any]] = []
        cur = pos
        while len(line) < max_length:
            opts = self.options(cur)
            if not opts:
                break
            wins = [(lab, q) for lab, q in opts if not self.mover_wins(q)]
            if wins:
                lab, q = wins[0]
            else:
                lab, q = max(opts, key=lambda o: self.rank(o[1]))
            line.append((lab, q))
            cur = q
        return line


DEFAULT = Solver()
