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
grundy.solvers.reference.ReferenceLimit: the reference engine spent its budget of 50 work units
"""
from __future__ import annotations

from typing import Any, Callable, Iterable

from ..errors import GrundyError, RuleError
from ..spec.expr import Expr, lift
from ..spec.game import Game, Move, Rules
from ..spec.heaprule import HeapRule
from ..spec.ops import OPS, dag_nodes
from ..spec.position import Position, SumPosition
from ..spec.structure import Structure

__all__ = ["Reference", "ReferenceLimit", "ReferenceCycle", "Tape", "MoveTape"]

State = tuple


class ReferenceLimit(GrundyError, RuntimeError):
    """The reference engine spent its budget of work units."""


class ReferenceCycle(GrundyError, RuntimeError):
    """A move leads back to a position on the current line: the game's rank does not decrease."""


class _Over(Exception):
    """A move's enumeration went past the work left (turned into :class:`ReferenceLimit`)."""


# ----------------------------------------------------------------------------- the interpreter
class Tape:
    """Expressions evaluated by walking their DAG once, children first, each operator by its
    ``concrete`` meaning in the catalogue (no code generated). ``inputs`` maps a variable's
    name to its place in the tuple of input values.

    >>> from grundy.spec import Var, ite
    >>> x, y = Var.int("x"), Var.int("y")
    >>> t = Tape([ite(x < y, x ^ y, y // 2), x + 1 == y], {"x": 0, "y": 1})
    >>> t.run((3, 4)), t.run((9, 4))
    ([7, True], [2, False])
    """

    def __init__(self, roots: Iterable[Any], inputs: dict[str, int]):
        self.roots = [lift(r) for r in roots]
        self.index: dict[int, int] = {}
        self.template: list[Any] = []
        self.loads: list[tuple[int, int]] = []           # (value index, input index)
        self.steps: list[tuple[int, Callable[..., Any], tuple[int, ...]]] = []
        seen: set[int] = set()
        for root in self.roots:
            for x in dag_nodes(root, seen):
                self._add(x, inputs)
        self.out = [self.index[id(r)] for r in self.roots]

    def _add(self, x: Expr, inputs: dict[str, int]) -> None:
        k = self.index[id(x)] = len(self.template)
        self.template.append(x.args[0] if x.op == "const" else None)
        if x.op == "var":
            name = x.args[0]
            if name not in inputs:
                raise RuleError(f"the reference engine has no value for the variable {name!r}")
            self.loads.append((k, inputs[name]))
        elif x.op != "const":
            self.steps.append((k, OPS[x.op].concrete, tuple(self.index[id(a)] for a in x.args)))

    def run(self, values: tuple) -> list[Any]:
        """The roots' values, the variables bound to ``values`` (by ``inputs``)."""
        vals = self.template[:]
        for k, i in self.loads:
            vals[k] = values[i]
        for k, fn, args in self.steps:
            vals[k] = fn(*[vals[a] for a in args])
        return [vals[k] for k in self.out]


class MoveTape:
    """One guarded command, evaluated on concrete states: its numeric choices enumerated between
    their bounds (a bound may depend on the choices before it), its guard evaluated at each
    choice, its update evaluated where the guard holds.

    Each node is evaluated as early as it can be and no earlier than it is needed: the guard's
    conjuncts that depend on the state only are evaluated first (a move whose guard fails there
    is not enumerated), a conjunct that depends on choice j as soon as choice j is set, and the
    update only where the whole guard holds. ``run`` counts the work: one unit per node
    evaluated and one per candidate choice.

    >>> from grundy.spec import Var, move
    >>> h = Var.int("h")
    >>> m = move("take {k}", choose=[("k", 1, h)], guard=lambda k: k % 2 == 1, update=lambda k: {0: h - k})
    >>> mt = MoveTape(m, {"h": 0})
    >>> found, work = mt.run((5,), 100)
    >>> found
    [((1,), [4]), ((3,), [2]), ((5,), [0])]
    """

    def __init__(self, m: Move, inputs: dict[str, int]):
        self.move = m
        self.slots = sorted(m.update)
        nc = len(m.choices)
        names = dict(inputs)
        for j, c in enumerate(m.choices):
            names[c.name] = len(inputs) + j
        g = lift(m.guard)
        conj = list(g.args) if g.op == "and" else [] if (g.op == "const" and g.args[0]) else [g]
        self.conjuncts = conj
        roots = [e for c in m.choices for e in (c.lo, c.hi)] + conj + [m.update[s] for s in self.slots]
        self.tape = t = Tape(roots, names)
        n = len(t.template)
        level = [-1] * n                                  # the last choice a node depends on
        for k, i in t.loads:
            level[k] = i - len(inputs) if i >= len(inputs) else -1
        deps: list[tuple[int, ...]] = [()] * n
        for k, _, args in t.steps:
            level[k] = max((level[a] for a in args), default=-1)
            deps[k] = args
        out = t.out
        self.bounds = [(out[2 * j], out[2 * j + 1]) for j in range(nc)]
        conj_at = [[out[2 * nc + i] for i, _ in enumerate(conj) if level[out[2 * nc + i]] == j]
                   for j in range(-1, nc)]
        self.checks = conj_at                             # per level: the conjuncts decided there
        self.updates = out[2 * nc + len(conj):]
        step_of = {st[0]: st for st in t.steps}
        order = {st[0]: i for i, st in enumerate(t.steps)}
        done: set[int] = set()

        def program(roots_: list[int], at: int | None) -> list[tuple[int, Any, tuple[int, ...]]]:
            need: set[int] = set()
            stack = list(roots_)
            while stack:                                  # the nodes under roots_ not yet done
                k = stack.pop()
                if k in need or k in done or k not in step_of:
                    continue
                need.add(k)
                stack.extend(deps[k])
            picked = sorted((k for k in need if at is None or level[k] == at), key=order.__getitem__)
            done.update(picked)
            return [step_of[k] for k in picked]

        self.pre: list[list] = []                          # per level: steps of its conjuncts
        self.post: list[list] = []                         # ... then steps later levels need
        for j in range(-1, nc):
            self.pre.append(program(conj_at[j + 1], j))
            later = [b for jj in range(j + 1, nc) for b in self.bounds[jj]] + \
                [c for jj in range(j + 1, nc) for c in conj_at[jj + 1]]
            self.post.append(program(later, j))
        self.payload = program(self.updates, None)
        self.loads = [[(k, i) for k, i in t.loads if level[k] == j] for j in range(-1, nc)]

    def _level(self, vals: list[Any], j: int) -> tuple[bool, int]:
        """Evaluate level ``j`` (-1: the state) once its inputs are set: (the guard's conjuncts
        decided there all hold, nodes evaluated)."""
        for k, fn, args in self.pre[j + 1]:
            vals[k] = fn(*[vals[a] for a in args])
        for c in self.checks[j + 1]:
            if not vals[c]:
                return False, len(self.pre[j + 1])
        for k, fn, args in self.post[j + 1]:
            vals[k] = fn(*[vals[a] for a in args])
        return True, len(self.pre[j + 1]) + len(self.post[j + 1])

    def _payload(self, vals: list[Any]) -> list[Any]:
        for k, fn, args in self.payload:
            vals[k] = fn(*[vals[a] for a in args])
        return [vals[u] for u in self.updates]

    def run(self, values: tuple, budget: int) -> tuple[list[tuple[tuple[int, ...], list[Any]]], int]:
        """Every choice tuple where the guard holds, with the update's values (in slot order
        ``self.slots``), and the work done; :class:`_Over` past ``budget``."""
        vals = self.tape.template[:]
        for k, i in self.loads[0]:
            vals[k] = values[i]
        ok, work = self._level(vals, -1)
        out: list[tuple[tuple[int, ...], list[Any]]] = []
        nc = len(self.bounds)
        if not ok:
            return out, work + 1
        if nc == 0:
            out.append(((), self._payload(vals)))
            return out, work + 1 + len(self.payload)
        chosen = [0] * nc
        ranges: list[Any] = [None] * nc                   # one range per choice set so far
        j = 0
        lo, hi = vals[self.bounds[0][0]], vals[self.bounds[0][1]]
        if hi - lo + 1 > budget - work:
            raise _Over()
        ranges[0] = iter(range(lo, hi + 1))
        while j >= 0:
            v = next(ranges[j], None)
            if v is None:
                j -= 1
                continue
            chosen[j] = v
            for k, _ in self.loads[j + 1]:
                vals[k] = v
            ok, n = self._level(vals, j)
            work += n + 1
            if work > budget:
                raise _Over()
            if not ok:
                continue
            if j + 1 < nc:
                j += 1
                lo, hi = vals[self.bounds[j][0]], vals[self.bounds[j][1]]
                if hi - lo + 1 > budget - work:
                    raise _Over()
                ranges[j] = iter(range(lo, hi + 1))
                continue
            out.append((tuple(chosen), self._payload(vals)))
            work += len(self.payload)
        return out, work

    def at(self, values: tuple, cv: tuple) -> list[Any] | None:
        """The update's values with the choices ``cv`` (None: a choice outside its bounds, or
        the guard false): one candidate evaluated, no enumeration.

        >>> from grundy.spec import Var, move
        >>> h = Var.int("h")
        >>> mt = MoveTape(move("take {k}", choose=[("k", 1, h)], update=lambda k: {0: h - k}), {"h": 0})
        >>> mt.at((5,), (2,)), mt.at((5,), (6,))
        ([3], None)
        """
        if len(cv) != len(self.bounds):
            return None
        vals = self.tape.template[:]
        for k, i in self.loads[0]:
            vals[k] = values[i]
        if not self._level(vals, -1)[0]:
            return None
        for j, v in enumerate(cv):
            if not vals[self.bounds[j][0]] <= v <= vals[self.bounds[j][1]]:
                return None
            for k, _ in self.loads[j + 1]:
                vals[k] = v
            if not self._level(vals, j)[0]:
                return None
        return self._payload(vals)


# ----------------------------------------------------------------------------- arenas
class _Arena:
    """The positions of one game on one structure, as the reference engine plays them; each
    arena keeps its own memo tables (Grundy values and outcomes, per convention)."""

    def __init__(self) -> None:
        self.values: dict[bool, dict[State, int]] = {False: {}, True: {}}   # misère? -> values
        self.wins: dict[bool, dict[State, bool]] = {False: {}, True: {}}

    def options(self, state: State, budget: int) -> tuple[list[tuple[Any, tuple, State]], int]:
        raise NotImplementedError

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

    def options(self, state: State, budget: int) -> tuple[list[tuple[Any, tuple, State]], int]:
        out = []
        work = 1
        todo = self.always if self.slot is None else \
            sorted(self.always + self.by_value.get(state[self.slot], []))
        for mi in todo:
            mt = self.tapes[mi]
            found, n = mt.run(state, budget - work)
            work += n + len(found)                      # a unit per next state built
            for cv, vals in found:
                out.append((mi, cv, self._next(state, mi, cv, vals)))
        return out, work

    def _next(self, state: State, mi: int, cv: tuple, vals: list[Any]) -> State:
        nxt = list(state)
        doms = self.domains
        for slot, v in zip(self.tapes[mi].slots, vals, strict=True):
            v = int(v)
            d = doms[slot]
            if (v < 0 or v > 1) if d is None else (v < d[0] or (d[1] is not None and v > d[1])):
                raise self.rules.domain_error(mi, cv, state)
            nxt[slot] = v
        return tuple(nxt)

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

    def options(self, state: State, budget: int) -> tuple[list[tuple[Any, tuple, State]], int]:
        out = []
        work = 0
        for i, h in enumerate(state):
            if h < 1:
                continue
            for oi, mt in enumerate(self.tapes):
                found, n = mt.run((h,), budget - work)
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

    def options(self, state: State, budget: int) -> tuple[list[tuple[Any, tuple, State]], int]:
        out = []
        work = 0
        for i, (arena, s) in enumerate(zip(self.parts, state, strict=True)):
            found, n = arena.options(s, budget - work)
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

    def game_arena(self, game: Game, g: Structure) -> _Arena:
        """The arena of ``game`` on ``g`` (built once)."""
        key = (id(game), g)
        a = self._arenas.get(key)
        if a is None:
            a = HeapArena(game, g) if isinstance(game, HeapRule) else RulesArena(game.rules(g))
            a.game_ref = game                   # type: ignore[attr-defined]   (keeps id(game) valid)
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
        try:
            found, n = arena.options(state, self.left())
        except _Over:
            self.work = self.max_work or self.work
            raise self._limit() from None
        self.spend(n + 1)
        return found

    def apply(self, arena: _Arena, state: State, move: Any, cv: tuple) -> State | None:
        """The state after one move with choices ``cv`` (None: not legal there), one work unit."""
        self.spend(1)
        return arena.apply(state, move, cv)

    def _kids(self, arena: _Arena, state: State) -> list[State]:
        return [nxt for _, _, nxt in self.options(arena, state)]

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
        """Whether the mover wins at ``root``: depth first, stopping at the first winning move."""
        memo, values = arena.wins[misere], arena.values[misere]

        def known(k: State) -> bool | None:
            w = memo.get(k)
            if w is None:
                v = values.get(k)
                return None if v is None else v != 0
            return w

        w = known(root)
        if w is not None:
            return w
        stack: list[list[Any]] = [[root, self._kids(arena, root), 0]]
        line = {root}
        while stack:
            fr = stack[-1]
            kids, i = fr[1], fr[2]
            result = None
            while i < len(kids):
                w = known(kids[i])
                if w is None:
                    break
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
