"""The reference engine: a second, plain solver behind every verdict.

It knows nothing of the explicit solver's shortcuts. A position's moves are evaluated straight
from the IR: each numeric choice enumerated between its bounds, the guard evaluated, the update
evaluated, by a small interpreter of its own over the operator catalogue (each operator's
meaning is :data:`grundy.spec.ops.OPS`' ``concrete``; no code is generated). The search is a
memoized depth-first search (iterative: no recursion limit) over whole positions: no symmetry,
no decomposition into components, no one-heap tables, no C kernel, no disk cache. A sum of
positions is searched as one game (a move is a move in one part; no XOR). A game written as a
rule on one heap (:class:`~grundy.spec.heaprule.HeapRule`) is played as its text says: a
position is a row of heaps of any length, a move plays one option of the rule in one heap,
the first part stays in that heap's place and the other parts are appended (no fixed slots).

It answers Grundy values and outcomes in normal and misère play (misère Grundy values as the
explicit solver defines them: the mex of the options' values, 1 at a terminal position), finds
cycles (a move back to a position on the current line: the rank does not decrease) and moves
leaving a field's domain (a one-line :class:`~grundy.errors.RuleError` naming the move), and
works under a budget of **work units** (one per IR node evaluated, one per candidate move, one
or two per next state built, one per position expanded), never a clock: past it,
:class:`ReferenceLimit`.

>>> from grundy.spec import read_position
>>> ref = Reference()
>>> p = read_position({"game": "nim", "heaps": [3, 5, 6]})
>>> ref.grundy(p), ref.outcome(p)
(0, 'P')
>>> [ref.grundy(read_position({"game": "nim", "heaps": [n], "convention": "misere"})) for n in range(4)]
[1, 0, 2, 3]
>>> [ref.grundy(read_position({"game": "lasker-nim", "heaps": [n]})) for n in range(6)]
[0, 1, 2, 4, 3, 5]
>>> Reference(max_work=50).grundy(read_position({"game": "nim", "heaps": [9, 9]}))
Traceback (most recent call last):
...
grundy.errors.ReferenceLimit: the reference engine spent its budget of 50 work units
"""
from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator

from ...errors import ReferenceCycle, ReferenceLimit
from ...spec.game import Game, Rules
from ...spec.heaprule import HeapRule
from ...spec.position import Position, SumPosition
from ...spec.structure import Structure
from .arenas import HeapArena, RulesArena, SumArena, _Arena
from .tape import MoveTape, State, Tape

__all__ = ["Reference", "ReferenceLimit", "ReferenceCycle", "Tape", "MoveTape", "collector_paused"]


@contextmanager
def collector_paused() -> Iterator[None]:
    """The reference engine's searches make many small objects (positions, their next states,
    memo entries) that die with the engine by reference counting, and no cycles of note:
    Python's cycle collector, which would walk them over and over while they live, waits
    until the block is over (as before if it was off already). Made for a fresh engine made
    and dropped inside the block (the cross-check's sample, a counterexample).

    >>> import gc
    >>> was = gc.isenabled()
    >>> with collector_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled() == was
    True
    """
    was = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()


# ----------------------------------------------------------------------------- the engine
def _mex(values: Iterable[int]) -> int:
    seen = set(values)
    m = 0
    while m in seen:
        m += 1
    return m


class Reference:
    """The reference engine (see the module's text). ``max_work``: the budget of work units
    (None: none); ``tick()`` is called every 16,384 work units (e.g. a claim's time limit,
    which then ends the check, never decides a verdict). Memo tables persist across calls:
    ``work`` counts every unit spent so far, ``stored`` the positions solved."""

    TICK = 1 << 14

    def __init__(self, max_work: int | None = None, tick: Callable[[], None] | None = None):
        self.max_work = max_work
        self.tick = tick
        self.work = 0
        self.stored = 0
        self._next_tick = self.TICK
        self._arenas: dict[tuple, _Arena] = {}
        self._rules: dict[tuple, Rules] = {}

    # positions -----------------------------------------------------------------
    def arena(self, pos: Position | SumPosition) -> tuple[_Arena, State]:
        """The arena a position is played in, and its state there."""
        if isinstance(pos, SumPosition):
            parts = [self.arena(p) for p in pos.parts]
            key = ("sum", *(id(a) for a, _ in parts))
            a = self._arenas.get(key)
            if a is None:
                a = self._arenas[key] = SumArena(tuple(a for a, _ in parts))
            return a, tuple(s for _, s in parts)
        return self.game_arena(pos.game, pos.structure), tuple(pos.state)

    def use_rules(self, rules: Rules) -> None:
        """Read ``rules`` (the IR ``rules.game.rules(rules.structure)`` gave, which may since
        have left the game's cache) as the game's rules on that structure, not built again."""
        self._rules.setdefault((id(rules.game), rules.structure), rules)

    def game_arena(self, game: Game, g: Structure) -> _Arena:
        """The arena of ``game`` on ``g`` (built once)."""
        key = (id(game), g)
        a = self._arenas.get(key)
        if a is None:
            if isinstance(game, HeapRule):
                a = HeapArena(game, g)
            else:
                rules = self._rules.get(key)
                a = RulesArena(game.rules(g) if rules is None or rules.structure.names != g.names else rules)
            a.game_ref = game                   # type: ignore[union-attr]  # keeps id(game) valid
            self._arenas[key] = a
            self.spend(sum(len(t.tape.template) for t in a.tapes))   # reading the rules is work too
        return a

    def grundy(self, pos: Position | SumPosition) -> int:
        """The Grundy value in the position's convention (misère: the misère Grundy value)."""
        arena, state = self.arena(pos)
        return self.value(arena, state, pos.convention == "misere")

    def mover_wins(self, pos: Position | SumPosition) -> bool:
        """True iff the player to move wins (in the position's convention)."""
        arena, state = self.arena(pos)
        return self.wins(arena, state, pos.convention == "misere")

    def outcome(self, pos: Position | SumPosition) -> str:
        """``"N"`` or ``"P"`` in the position's convention."""
        return "N" if self.mover_wins(pos) else "P"

    # work ----------------------------------------------------------------------
    def left(self) -> int:
        """Work units left in the budget (a large number without one)."""
        return (1 << 62) if self.max_work is None else self.max_work - self.work

    def _limit(self) -> ReferenceLimit:
        return ReferenceLimit(f"the reference engine spent its budget of {self.max_work:,} work units")

    def spend(self, n: int) -> None:
        """Count ``n`` work units (:class:`ReferenceLimit` past the budget)."""
        self.work += n
        if self.max_work is not None and self.work > self.max_work:
            raise self._limit()
        if self.work >= self._next_tick:
            self._next_tick = self.work + self.TICK
            if self.tick is not None:
                self.tick()

    def options(self, arena: _Arena, state: State) -> list[tuple[Any, tuple, State]]:
        """Every move at ``state``: (move, choice values, next state), work counted."""
        got = arena.options(state, self.left())
        if got is None:                      # a move's enumeration went past the work left
            self.work = self.max_work or self.work
            raise self._limit()
        found, n = got
        self.spend(n + 1)
        return found

    def apply(self, arena: _Arena, state: State, move: Any, cv: tuple) -> State | None:
        """The state after one move with choices ``cv`` (None: not legal there), one work unit."""
        self.spend(1)
        return arena.apply(state, move, cv)

    def _kids(self, arena: _Arena, state: State) -> list[State]:
        """The next states of :meth:`options` (the same work counted, the same errors)."""
        got = arena.kids(state, self.left())
        if got is None:
            self.work = self.max_work or self.work
            raise self._limit()
        self.spend(got[1] + 1)
        return got[0]

    def _cycle(self, arena: _Arena, state: State) -> ReferenceCycle:
        return ReferenceCycle(f"{arena.name}: a move returns to {arena.describe(state)}, a position on "
                              f"the current line: its rank does not decrease")

    # searches ------------------------------------------------------------------
    def value(self, arena: _Arena, root: State, misere: bool) -> int:
        """The (misère) Grundy value at ``root``: every option valued, depth first."""
        memo = arena.values[misere]
        if root in memo:
            return memo[root]
        stack: list[list[Any]] = [[root, self._kids(arena, root), 0]]
        line = {root}
        while stack:
            fr = stack[-1]
            kids, i = fr[1], fr[2]
            while i < len(kids) and kids[i] in memo:
                i += 1
            if i < len(kids):
                fr[2] = i
                k = kids[i]
                if k in line:
                    raise self._cycle(arena, k)
                stack.append([k, self._kids(arena, k), 0])
                line.add(k)
                continue
            s = fr[0]
            memo[s] = _mex(memo[k] for k in kids) if kids else (1 if misere else 0)
            self.stored += 1
            stack.pop()
            line.discard(s)
        return memo[root]

    def wins(self, arena: _Arena, root: State, misere: bool) -> bool:
        """Whether the mover wins at ``root``: depth first, stopping at the first winning move.
        (A position is known if its outcome or its Grundy value is stored: a value is a win
        iff it is not 0.)"""
        memo, values = arena.wins[misere], arena.values[misere]
        w = memo.get(root)
        if w is None and root in values:
            w = values[root] != 0
        if w is not None:
            return w
        stack: list[list[Any]] = [[root, self._kids(arena, root), 0]]
        line = {root}
        while stack:
            fr = stack[-1]
            kids, i = fr[1], fr[2]
            result = None
            while i < len(kids):
                k = kids[i]
                w = memo.get(k)
                if w is None:
                    v = values.get(k)
                    if v is None:
                        break                   # k not known yet
                    w = v != 0
                if not w:                       # a move to a position the opponent loses
                    result = True
                    break
                i += 1
            if result is None and i < len(kids):
                fr[2] = i
                k = kids[i]
                if k in line:
                    raise self._cycle(arena, k)
                stack.append([k, self._kids(arena, k), 0])
                line.add(k)
                continue
            if result is None:
                result = misere if not kids else False   # no move: the mover loses (normal), wins (misère)
            s = fr[0]
            memo[s] = result
            self.stored += 1
            stack.pop()
            line.discard(s)
        return memo[root]
