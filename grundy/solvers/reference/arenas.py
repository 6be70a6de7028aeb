"""What the reference engine searches over: the positions of one game's rules, of a heap rule
(one heap at a time), or of a sum of positions."""
from __future__ import annotations

import math
from functools import cached_property
from typing import Any, Callable

from ...errors import RuleError
from ...spec.game import Rules
from ...spec.heaprule import HeapRule
from ...spec.structure import Structure
from .tape import MoveTape, State


class _Arena:
    """The positions of one game on one structure, as the reference engine plays them; each
    arena keeps its own memo tables (Grundy values and outcomes, per convention)."""

    name: str                   # set by each subclass: the game's name, or "sum"

    def __init__(self) -> None:
        self.values: dict[bool, dict[State, int]] = {False: {}, True: {}}   # misère? -> values
        self.wins: dict[bool, dict[State, bool]] = {False: {}, True: {}}

    def options(self, state: State, budget: int) -> tuple[list[tuple[Any, tuple, State]], int] | None:
        """Every move at ``state`` (move, choice values, next state) and the work done; None
        past ``budget``."""
        raise NotImplementedError

    def kids(self, state: State, budget: int) -> tuple[list[State], int] | None:
        """The next states of :meth:`options`, in its order, with the same work (None past
        ``budget``): what the searches read."""
        got = self.options(state, budget)
        return None if got is None else ([nxt for _, _, nxt in got[0]], got[1])

    def label(self, move: Any, cv: tuple) -> str:
        raise NotImplementedError

    def apply(self, state: State, move: Any, cv: tuple) -> State | None:
        raise NotImplementedError

    def same(self, a: State, b: State) -> bool:
        return a == b

    def describe(self, state: State) -> str:
        return str(state)


class RulesArena(_Arena):
    """A game's :class:`~grundy.spec.game.Rules` on one structure: the state is the slot tuple."""

    def __init__(self, rules: Rules):
        super().__init__()
        self.rules = rules
        inputs = dict(rules.schema.slot_by_var)
        self.tapes = [MoveTape(m, inputs) for m in rules.moves]
        self.domains = rules.slot_domains
        self.name = rules.game.name
        self.slot, self.by_value, self.always = _dispatch(self.tapes, inputs)
        self._todo: dict[int, list[int]] = {}       # a dispatch value -> the moves tried there
        for mi, mt in enumerate(self.tapes):
            mt.finish = self._writes(mi)

    def _writes(self, mi: int) -> Callable[[list[Any]], tuple[int, ...] | None]:
        """How move ``mi``'s update values are read (once per tape answer, see
        :attr:`MoveTape.finish`): each as an int, in the order of the slots it updates, or None
        if one is outside its field's domain (a RuleError where the move is met, :meth:`options`)."""
        _, los, his = self._limits[mi]

        def writes(vals: list[Any]) -> tuple[int, ...] | None:
            out = tuple(map(int, vals))
            for lo, hi, v in zip(los, his, out, strict=True):
                if v < lo or v > hi:
                    return None
            return out
        return writes

    def _todo_at(self, state: State) -> list[int]:
        """The moves tried at ``state`` (:func:`_dispatch`), in order."""
        if self.slot is None:
            return self.always
        hit = self._todo.get(state[self.slot])
        if hit is None:
            hit = self._todo[state[self.slot]] = sorted(self.always + self.by_value.get(state[self.slot], []))
        return hit

    def kids(self, state: State, budget: int) -> tuple[list[State], int] | None:
        """:meth:`options`' next states, in its order, with the same work and the same errors
        (a move's one updated slot written straight, no move or choice kept)."""
        out: list[State] = []
        work = 1
        tapes, limits = self.tapes, self._limits
        for mi in self._todo_at(state):
            got = tapes[mi].run(state, budget - work)
            if got is None:
                return None
            found, n = got
            work += n + len(found)                      # a unit per next state built
            if not found:
                continue
            slots = limits[mi][0]
            one = slots[0] if len(slots) == 1 else -1
            for cv, writes in found:                    # (the tape's finish: :meth:`_writes`)
                if writes is None:
                    raise self.rules.domain_error(mi, cv, state)
                nxt = list(state)
                if one >= 0:
                    nxt[one] = writes[0]
                else:
                    for slot, v in zip(slots, writes):
                        nxt[slot] = v
                out.append(tuple(nxt))
        return out, work

    def options(self, state: State, budget: int) -> tuple[list[tuple[Any, tuple, State]], int] | None:
        out = []
        work = 1
        todo = self._todo_at(state)
        tapes, limits = self.tapes, self._limits
        for mi in todo:
            got = tapes[mi].run(state, budget - work)
            if got is None:
                return None
            found, n = got
            work += n + len(found)                      # a unit per next state built
            slots = limits[mi][0]
            for cv, writes in found:                    # (the tape's finish: :meth:`_writes`)
                if writes is None:
                    raise self.rules.domain_error(mi, cv, state)
                nxt = list(state)
                for slot, v in zip(slots, writes):
                    nxt[slot] = v
                out.append((mi, cv, tuple(nxt)))
        return out, work

    def _next(self, state: State, mi: int, cv: tuple, vals: list[Any]) -> State:
        nxt = list(state)
        for slot, lo, hi, v in zip(*self._limits[mi], vals, strict=True):
            v = int(v)
            if v < lo or v > hi:
                raise self.rules.domain_error(mi, cv, state)
            nxt[slot] = v
        return tuple(nxt)

    @cached_property
    def _limits(self) -> list[tuple[list[int], list[float], list[float]]]:
        """Per move: the slots it updates, and each one's domain as (lowest, highest) values
        (a bool field: 0 and 1; no upper bound: infinity), read from ``rules.slot_domains``."""
        out = []
        for mt in self.tapes:
            los: list[float] = []
            his: list[float] = []
            for slot in mt.slots:
                d = self.domains[slot]
                lo, hi = (0, 1) if d is None else (d[0], math.inf if d[1] is None else d[1])
                los.append(lo)
                his.append(hi)
            out.append((list(mt.slots), los, his))
        return out

    def apply(self, state: State, move: Any, cv: tuple) -> State | None:
        """The state after ``move`` (a move's number) with choices ``cv``; None if not legal."""
        vals = self.tapes[move].at(state, cv)
        return None if vals is None else self._next(state, move, cv, vals)

    def same(self, a: State, b: State) -> bool:
        """Whether two states of this arena are one position."""
        return tuple(a) == tuple(b)

    def label(self, move: Any, cv: tuple) -> str:
        return self.rules.move_text(move, cv)

    def describe(self, state: State) -> str:
        return self.rules.describe(state)


def _dispatch(tapes: list[MoveTape], inputs: dict[str, int]) -> tuple[int | None, dict[int, list[int]], list[int]]:
    """Moves whose guard requires a slot to hold a constant (``token == 3``) are tried only at
    states where it does: (the slot most moves name so, value -> those moves, the other moves).
    A conjunct that fails makes the guard fail: this only saves evaluating it."""
    need: list[dict[int, int]] = []
    for mt in tapes:
        eq: dict[int, int] = {}
        for c in mt.conjuncts:
            if c.op == "eq":
                a, b = c.args
                if a.op == "const":
                    a, b = b, a
                if a.op == "var" and b.op == "const" and a.args[0] in inputs:
                    eq.setdefault(inputs[a.args[0]], int(b.args[0]))
        need.append(eq)
    counts: dict[int, int] = {}
    for eq in need:
        for slot in eq:
            counts[slot] = counts.get(slot, 0) + 1
    if not counts:
        return None, {}, list(range(len(tapes)))
    slot = max(sorted(counts), key=counts.__getitem__)
    by_value: dict[int, list[int]] = {}
    always = []
    for mi, eq in enumerate(need):
        if slot in eq:
            by_value.setdefault(eq[slot], []).append(mi)
        else:
            always.append(mi)
    return slot, by_value, always


class HeapArena(_Arena):
    """A :class:`~grundy.spec.heaprule.HeapRule` game played from its one-heap text: a state is
    a tuple of heaps of any length (0: no heap); a move plays one option in one heap ``i``: the
    option's first part stays at ``i`` (0 if it leaves none), its other non-empty parts are
    appended. A part below 0, or parts totalling more than the heap, is a RuleError."""

    def __init__(self, game: HeapRule, g: Structure):
        super().__init__()
        self.game, self.name = game, game.name
        n, opts = game.one_heap(g)
        self.opts = opts
        self.tapes = [MoveTape(o, {n.name: 0}) for o in opts]

    def options(self, state: State, budget: int) -> tuple[list[tuple[Any, tuple, State]], int] | None:
        out = []
        work = 0
        for i, h in enumerate(state):
            if h < 1:
                continue
            for oi, mt in enumerate(self.tapes):
                got = mt.run((h,), budget - work)
                if got is None:
                    return None
                found, n = got
                work += n + 2 * len(found)              # a row of heaps built: two units
                for cv, parts in found:
                    out.append(((i, oi), cv, self._next(state, (i, oi), cv, parts)))
        return out, work

    def _next(self, state: State, move: tuple[int, int], cv: tuple, parts: list[Any]) -> State:
        i = move[0]
        h = state[i]
        parts = [int(p) for p in parts]
        if min(parts, default=0) < 0 or sum(parts) > h:
            raise RuleError(f"{self.name}: option {self.label(move, cv)!r} of a heap of {h} "
                            f"leaves the parts {parts} (each >= 0, together at most {h})")
        head = parts[0] if parts else 0
        return state[:i] + (head,) + state[i + 1:] + tuple(p for p in parts[1:] if p)

    def apply(self, state: State, move: Any, cv: tuple) -> State | None:
        """The state after option ``move = (heap, option)`` with choices ``cv``; None if not legal."""
        i, oi = move
        if not 0 <= i < len(state) or state[i] < 1:
            return None
        parts = self.tapes[oi].at((state[i],), cv)
        return None if parts is None else self._next(state, move, cv, parts)

    def same(self, a: State, b: State) -> bool:
        """Whether two rows of heaps are one position (the same multiset of non-empty heaps)."""
        return sorted(h for h in a if h) == sorted(h for h in b if h)

    def label(self, move: Any, cv: tuple) -> str:
        i, oi = move
        o = self.opts[oi]
        text = o.label.replace("{heap}", str(i + 1))
        try:
            return text.format(**{c.name: v for c, v in zip(o.choices, cv, strict=False)})
        except (KeyError, IndexError, ValueError):
            return text

    def describe(self, state: State) -> str:
        return "{\"heaps\": " + str([h for h in state if h]) + "}"


class SumArena(_Arena):
    """A sum of positions searched as one game: the state is the tuple of the parts' states; a
    move is a move in one part (no XOR, no component dropped)."""

    def __init__(self, parts: tuple[_Arena, ...]):
        super().__init__()
        self.parts = parts
        self.name = "sum"

    def options(self, state: State, budget: int) -> tuple[list[tuple[Any, tuple, State]], int] | None:
        out = []
        work = 0
        for i, (arena, s) in enumerate(zip(self.parts, state, strict=True)):
            got = arena.options(s, budget - work)
            if got is None:
                return None
            found, n = got
            work += n
            for mv, cv, nxt in found:
                out.append(((i, mv), cv, state[:i] + (nxt,) + state[i + 1:]))
        return out, work

    def label(self, move: Any, cv: tuple) -> str:
        i, mv = move
        return f"part {i}: {self.parts[i].label(mv, cv)}"

    def apply(self, state: State, move: Any, cv: tuple) -> State | None:
        i, mv = move
        nxt = self.parts[i].apply(state[i], mv, cv)
        return None if nxt is None else state[:i] + (nxt,) + state[i + 1:]

    def same(self, a: State, b: State) -> bool:
        return len(a) == len(b) and all(p.same(x, y) for p, x, y in zip(self.parts, a, b, strict=True))

    def describe(self, state: State) -> str:
        return "{\"parts\": [" + ", ".join(a.describe(s) for a, s in zip(self.parts, state, strict=True)) + "]}"
