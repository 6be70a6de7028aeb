"""Sums of positions of different games: normal play by Grundy values, misère play by search.

A move in a sum is a move in exactly one part. In normal play the sum's Grundy value is
the XOR of the parts' values (Sprague-Grundy), so each part is solved on its own table. In
misère play no such rule holds in general, so the outcome is found by a depth-first search
over tuples of part states, each part's moves taken from its own compiled rules: a part
with no move is dropped (it can never be played), parts that split into independent
components are split (a component is itself a summand), and the summands are kept as a
sorted multiset (a sum does not depend on the order of its parts).

>>> from grundy.spec import read_position
>>> from grundy.solvers.solver import Solver
>>> s = Solver()
>>> p = read_position({"game": "sum", "parts": [{"game": "nim", "heaps": [1]}, {"game": "nim", "heaps": [1]}]})
>>> s.grundy(p), s.outcome(p)
(0, 'P')
>>> q = read_position({**p.to_json(), "convention": "misere"})     # two heaps of 1: N in misère
>>> s.outcome(q), s.grundy(q)                                      # (misère Grundy value)
('N', 1)
"""
from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any, Callable, Protocol, cast

from ...spec.position import Position, SumPosition
from .compile import Compiled

if TYPE_CHECKING:
    from ...spec.game import Game, Rules
    from ...spec.structure import Structure

__all__ = ["MisereSums", "SumSolver"]

Key = tuple[tuple[int, tuple[int, ...]], ...]      # sorted (table id, canonical state) summands


class Table(Protocol):
    """A part's table, as the sums see it: its rules and its compiled code."""

    @property
    def rules(self) -> "Rules": ...

    @property
    def code(self) -> Compiled: ...


class SumSolver(Protocol):
    """What the sums ask of the solver they belong to."""

    decompose: bool
    reduce_after: int

    def grundy(self, pos: Position) -> int: ...

    def options(self, pos: Position) -> list[tuple[str, Any]]: ...

    def table(self, game: "Game", structure: "Structure") -> Table: ...

    def count_stored(self) -> None: ...

    def establish(self, t: Any) -> None: ...


class MisereSums:
    """The sums of one solver (its attribute ``sums``), with the memos of its misère searches
    (emptied by :meth:`clear`, with the solver's tables)."""

    def __init__(self, solver: SumSolver):
        self._solver = weakref.ref(solver)      # weak: the solver owns this; no cycle keeps it alive
        self.clear()

    @property
    def solver(self) -> SumSolver:
        return cast(SumSolver, self._solver())

    def clear(self) -> None:
        self.values: dict[Key, int] = {}        # misère Grundy values of sums
        self.wins: dict[Key, int] = {}          # 1 iff the mover wins (misère)
        self.normal: dict[Key, int] = {}        # normal-play Grundy values of sums found by search
        self.summands = _Summands(self.solver)

    def grundy(self, pos: SumPosition, cycle: Callable[["Rules"], Exception]) -> int:
        """The Grundy value in the sum's convention: normal play, the XOR of the parts' values;
        misère play, the misère Grundy value (mex of the options' values, 1 at the end) by search."""
        if pos.convention == "misere":
            return self._misere_search(pos, cycle, values=True)
        v = 0
        for p in pos.parts:
            v ^= self.solver.grundy(Position(p.game, p.structure, p.state, "normal"))
        return v

    def searched(self, pos: SumPosition, cycle: Callable[["Rules"], Exception]) -> int:
        """The Grundy value in the sum's convention by a search over the whole sum (a move is a
        move in one part; no XOR of the parts' values, in normal play too): what checks the
        Sprague-Grundy theorem rather than using it."""
        return self._misere_search(pos, cycle, values=True, misere=pos.convention == "misere")

    def mover_wins(self, pos: SumPosition, cycle: Callable[["Rules"], Exception]) -> bool:
        """Whether the player to move wins the sum in its convention (``cycle(rules)``: the error
        to raise when a move returns to a sum on the current line)."""
        if pos.convention == "normal":
            return self.grundy(pos, cycle) != 0
        return bool(self._misere_search(pos, cycle, values=False))

    def options(self, pos: SumPosition) -> list[tuple[str, SumPosition]]:
        """Every move of the sum: a move in one part, labelled ``part i: <the part's move>``."""
        return [(f"part {i}: {label}", pos.with_part(i, q))
                for i, p in enumerate(pos.parts) for label, q in self.solver.options(p)]

    def _misere_search(self, pos: SumPosition, cycle: Callable[["Rules"], Exception], values: bool,
                       misere: bool = True) -> int:
        """Depth-first search over the sums reachable from ``pos`` in misère play: with ``values``
        the misère Grundy value (every option is valued), else 1 iff the mover wins (stopping at
        the first winning move). ``misere=False``: the normal-play Grundy value (``values`` only)."""
        assert misere or values
        solver, sm = self.solver, self.summands
        memo = (self.values if values else self.wins) if misere else self.normal
        root = sm.key([x for p in pos.parts for x in sm.split(sm.table_id(p), p.state)])
        if root in memo:
            return memo[root]
        # frame: [key, children, next child]
        stack: list[list[Any]] = [[root, None, 0]]
        on_line = {root}
        while stack:
            fr = stack[-1]
            if fr[1] is None:
                fr[1] = sm.children(fr[0])
            kids: list[Key] = fr[1]
            result = None
            while fr[2] < len(kids):
                w = memo.get(kids[fr[2]])
                if w is None:
                    break
                if not values and w == 0:        # a move to a position the opponent loses
                    result = 1
                    break
                fr[2] += 1
            if result is None and fr[2] < len(kids):
                k = kids[fr[2]]
                if k in on_line:
                    raise cycle(sm.tables[_moved(fr[0], k)].rules)
                stack.append([k, None, 0])
                on_line.add(k)
                continue
            if result is None:
                if not kids:
                    result = 1 if misere else 0  # no move: the mover wins in misère play
                elif values:
                    seen = {memo[k] for k in kids}
                    result = next(m for m in range(len(seen) + 1) if m not in seen)
                else:
                    result = 0
            memo[fr[0]] = result
            solver.count_stored()
            if len(memo) == solver.reduce_after:     # large enough to pay for the reductions' premises
                for t in sm.tables:
                    solver.establish(t)
            stack.pop()
            on_line.discard(fr[0])
        return memo[root]


class _Summands:
    """The tables of the parts met so far (a summand is a table id and a canonical state: the
    table's canonical form, the identity until its symmetry is proved; components likewise)."""

    def __init__(self, solver: SumSolver):
        self._solver = weakref.ref(solver)      # weak, as MisereSums's
        self.ids: dict[tuple[int, Any], int] = {}       # (id of the game, structure): the tables keep the games
        self.tables: list[Table] = []

    @property
    def solver(self) -> SumSolver:
        return cast(SumSolver, self._solver())

    def table_id(self, p: Position) -> int:
        k = (id(p.game), p.structure)
        i = self.ids.get(k)
        if i is None:
            i = self.ids[k] = len(self.tables)
            self.tables.append(self.solver.table(p.game, p.structure))
        return i

    def split(self, tid: int, state: tuple[int, ...]) -> list[tuple[int, tuple[int, ...]]]:
        """The summands of one part state: its components (canonical), none if it has no move."""
        code = self.tables[tid].code
        comps = code.components(state) if self.solver.decompose else None
        out = []
        for c in (comps if comps is not None else [state]):
            c = code.canonical(c)
            if code.successors(c):
                out.append((tid, c))
        return out

    def key(self, summands: list[tuple[int, tuple[int, ...]]]) -> Key:
        return tuple(sorted(summands))

    def children(self, key: Key) -> list[Key]:
        out = []
        for j, (tid, st) in enumerate(key):
            rest = list(key[:j] + key[j + 1:])
            for nxt in self.tables[tid].code.successors(st):
                out.append(self.key(rest + self.split(tid, nxt)))
        return out


def _moved(a: Key, b: Key) -> int:
    """The table of a summand that differs between two sums (the part that moved)."""
    diff = set(a) ^ set(b)
    return min(diff)[0] if diff else a[0][0]
