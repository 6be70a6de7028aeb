"""The reference engine's interpreter: a move's guard, choices and updates evaluated from the
IR on a tape (no compilation), counting every step as work."""
from __future__ import annotations

import operator
from functools import cached_property
from typing import Any, Callable, Iterable

from ...errors import RuleError
from ...spec.expr import lift
from ...spec.game import Move
from ...spec.ops import OPS, dag_nodes_of

__all__ = ["Tape", "MoveTape", "State"]

State = tuple


Runnable = tuple[int, Callable[..., Any], int, int, "tuple[int, ...] | None"]   # (value index, operator,
                                                          # first operand, second or -1 or -2, the operands if -2)
Choice = tuple[tuple[int, ...], list[Any]]                # (choice values, the update's values)
Found = tuple[list[Choice], int]                          # (the choices found, the work done)
NEVER = -(1 << 62)          # a run's ``need`` when it checks no budget: it fits in any


def _step(k: int, fn: Callable[..., Any], args: tuple[int, ...] | list[int]) -> Runnable:
    """A node's step as :func:`evaluate` runs it: one or two operands by index (-1: no second),
    more as a tuple (-2)."""
    if len(args) == 1:
        return (k, fn, args[0], -1, None)
    if len(args) == 2:
        return (k, fn, args[0], args[1], None)
    return (k, fn, 0, -2, tuple(args))


def operands(step: Runnable) -> tuple[int, ...]:
    """The operand indices of a step (as :func:`_step` was given them).

    >>> import operator
    >>> [operands(_step(5, operator.add, a)) for a in ([1], [1, 2], [1, 2, 3], [])]
    [(1,), (1, 2), (1, 2, 3), ()]
    """
    _, _, a, b, more = step
    return (a, b) if b >= 0 else (a,) if b == -1 else more or ()


def evaluate(vals: list[Any], steps: list[Runnable]) -> None:
    """Set ``vals[k]`` for each step in order, the operator applied to the values of its operands
    (``b``: the second operand's index, -1 for one operand, -2 for the operands in ``more``)."""
    for k, fn, a, b, more in steps:
        if b >= 0:
            vals[k] = fn(vals[a], vals[b])
        elif b == -1:
            vals[k] = fn(vals[a])
        else:
            vals[k] = fn(*map(vals.__getitem__, more or ()))


def _nothing(values: tuple) -> tuple:
    return ()


def _candidate(vals: list[Any], level: tuple, v: int) -> tuple[bool, int]:
    """One candidate value ``v`` of a choice, on its level as :attr:`MoveTape._levels` gives it:
    (the conjuncts decided there all hold, the work: the nodes evaluated and one unit)."""
    loads, pre, checks, post, fail_n, pass_n = level
    for k in loads:
        vals[k] = v
    if pre:
        evaluate(vals, pre)
    for c in checks:
        if not vals[c]:
            return False, fail_n
    if post:
        evaluate(vals, post)
    return True, pass_n


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
        self.steps: list[Runnable] = []                  # one per operator node, as :func:`evaluate` runs it
        index, template, loads, steps = self.index, self.template, self.loads, self.steps
        for x in dag_nodes_of(self.roots):        # each node once, children first (its value index: its place)
            k = index[id(x)] = len(template)
            op = x.op
            if op == "const":
                template.append(x.args[0])
                continue
            template.append(None)
            if op == "var":
                name = x.args[0]
                if name not in inputs:
                    raise RuleError(f"the reference engine has no value for the variable {name!r}")
                loads.append((k, inputs[name]))
            else:
                steps.append(_step(k, OPS[op].concrete, [index[id(a)] for a in x.args]))
        self.out = [index[id(r)] for r in self.roots]

    def run(self, values: tuple) -> list[Any]:
        """The roots' values, the variables bound to ``values`` (by ``inputs``)."""
        vals = self.template[:]
        for k, i in self.loads:
            vals[k] = values[i]
        evaluate(vals, self.steps)
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
    >>> mt.run((50,), 10) is None                    # past the budget: said by a value
    True
    """

    MEMO = 1 << 14              # answers of :meth:`run` kept per tape (by the values of the slots read)
    PROBE = 16                  # ... nor past a power of 2 from here, unless as many runs were answered
                                # (16, not 64: a tape whose answers recur shows it by then, and
                                # grim's tapes, whose answers do not, keep a quarter as many)

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
        for st in t.steps:
            k = st[0]
            deps[k] = args = operands(st)
            level[k] = max((level[a] for a in args), default=-1)
        out = t.out
        self.bounds = [(out[2 * j], out[2 * j + 1]) for j in range(nc)]
        conj_at = [[out[2 * nc + i] for i, _ in enumerate(conj) if level[out[2 * nc + i]] == j]
                   for j in range(-1, nc)]
        self.checks = conj_at                             # per level: the conjuncts decided there
        self.updates = out[2 * nc + len(conj):]
        step_of = {st[0]: st for st in t.steps}        # (the steps are in the order of their index)
        done: set[int] = set()

        def program(roots_: list[int], at: int | None) -> list[Runnable]:
            need: set[int] = set()
            stack = list(roots_)
            while stack:                                  # the nodes under roots_ not yet done
                k = stack.pop()
                if k in need or k in done or k not in step_of:
                    continue
                need.add(k)
                stack.extend(deps[k])
            picked = sorted(need if at is None else [k for k in need if level[k] == at])
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
        self.reads = sorted({i for _, i in t.loads if i < len(inputs)})   # the state's slots read
        del t.steps, t.index            # (read above only: the tape runs its own programs, and keeps
                                        # no step tuples for the collector to walk; its run refused)
        self._key: Callable[[tuple], Any] = operator.itemgetter(*self.reads) if self.reads else _nothing
        self._memo: dict[Any, tuple[Found, int]] = {}
        self.memo_cap = self.MEMO
        self.hits = 0                                     # runs answered from the memo
        # applied to each choice's update values before run returns and keeps them (an arena's
        # reading of them, e.g. checked against the fields' domains); None: the values as they are
        self.finish: Callable[[list[Any]], Any] | None = None

    def _level(self, vals: list[Any], j: int) -> tuple[bool, int]:
        """Evaluate level ``j`` (-1: the state) once its inputs are set: (the guard's conjuncts
        decided there all hold, nodes evaluated)."""
        evaluate(vals, self.pre[j + 1])
        for c in self.checks[j + 1]:
            if not vals[c]:
                return False, len(self.pre[j + 1])
        evaluate(vals, self.post[j + 1])
        return True, len(self.pre[j + 1]) + len(self.post[j + 1])

    def _payload(self, vals: list[Any]) -> list[Any]:
        evaluate(vals, self.payload)
        return [vals[u] for u in self.updates]

    def run(self, values: tuple, budget: int) -> Found | None:
        """Every choice tuple where the guard holds, with the update's values (in slot order
        ``self.slots``), and the work done; None past ``budget`` (the engine's limit).

        Remembered by content: what a run finds and counts depends only on the state's slots
        the tape reads (:attr:`reads`), so a run at the same values of those slots returns the
        answer found before (the same choices, updates and work; None exactly where the first
        run would have stopped: ``budget`` below its :meth:`_run`'s ``need``). The work is
        counted as if evaluated again: budgets and the cross-check's counts do not change.
        At most :attr:`MEMO` answers are kept per tape, and no more once, with :attr:`PROBE`
        or twice, four times... as many kept, fewer runs than that were answered from them
        (answers kept cost memory and the garbage collector's time). With :attr:`finish`, each choice's
        update values are given (and kept) as ``finish`` reads them."""
        key = self._key(values)
        hit = self._memo.get(key)
        if hit is not None:
            self.hits += 1
            return hit[0] if budget >= hit[1] else None
        got = self._run(values, budget)
        if got is None:
            return None
        if self.finish is not None:
            (found, n), need = got
            fin = self.finish
            got = ([(cv, fin(u)) for cv, u in found], n), need
        memo = self._memo
        if len(memo) < self.memo_cap:
            memo[key] = got
            n = len(memo)
            if n >= self.PROBE and not n & (n - 1) and self.hits < n:
                self.memo_cap = n                    # (its answers recur too rarely: kept no further)
        return got[0]

    def _run(self, values: tuple, budget: int) -> tuple[Found, int] | None:
        """:meth:`run` evaluated: (its answer, ``need``: the least budget it fits in, every
        budget check being "past it if X > budget"), or None past ``budget``.

        The same evaluation as :meth:`_level` level by level (each level's steps, then its
        conjuncts; the next level's bounds where they hold), each level's programs and counts
        read once per call (:attr:`_levels`), not once per candidate; one choice (the common
        case) enumerated by a plain loop (:meth:`_one`). Nothing is skipped: the same nodes are
        evaluated and the same work counted as level by level. ``need``: a run that ends at
        the state's level (a conjunct false there, or no choice) checks no budget
        (:data:`NEVER`); else the budget checks are the first choice's range (the work so far
        and its size) and one per candidate, with the work counted so far, which grows by at
        least a unit per candidate, so the last candidate's check is the largest (or the
        range's, with no candidate)."""
        vals = self.tape.template[:]
        loads, pre, checks, post, fail_n, pass_n = self._state_level
        for k, i in loads:
            vals[k] = values[i]
        if pre:
            evaluate(vals, pre)
        for c in checks:
            if not vals[c]:
                return ([], fail_n), NEVER
        if post:
            evaluate(vals, post)
        work = pass_n - 1
        if not self.bounds:
            return ([((), self._payload(vals))], work + 1 + len(self.payload)), NEVER
        lo, hi = vals[self.bounds[0][0]], vals[self.bounds[0][1]]
        first = work + hi - lo + 1
        if first > budget:
            return None
        got = self._one(vals, lo, hi, work, budget) if len(self.bounds) == 1 else \
            self._many(vals, lo, hi, work, budget)
        if got is None:
            return None
        out, work, last = got
        return (out, work), max(first, last)

    def _one(self, vals: list[Any], lo: int, hi: int, work: int,
             budget: int) -> tuple[list[Choice], int, int] | None:
        """:meth:`run`'s enumeration of a move's one choice from ``lo`` to ``hi``: :func:`_candidate`
        written inline (a call per candidate costs about a fifth of erickson/prop5.6's and
        prop5.7's checks), held to the level-by-level enumeration by tests/test_reference_tape.py.
        (choices found, work, the last budget check's work: the last candidate's, before its
        update's nodes if it passed; :data:`NEVER` without a candidate)."""
        loads, pre, checks, post, fail_n, pass_n = self._levels[0]
        payload, updates = self.payload, self.updates
        npay = len(payload)
        out: list[tuple[tuple[int, ...], list[Any]]] = []
        for v in range(lo, hi + 1):
            for k in loads:
                vals[k] = v
            if pre:
                evaluate(vals, pre)
            for c in checks:
                if not vals[c]:
                    work += fail_n
                    break
            else:
                if post:
                    evaluate(vals, post)
                work += pass_n
                if work > budget:
                    return None
                if payload:
                    evaluate(vals, payload)
                out.append(((v,), [vals[u] for u in updates]))
                work += npay
                continue
            if work > budget:
                return None
        if hi < lo:
            return out, work, NEVER
        return out, work, (work - npay if out and out[-1][0][0] == hi else work)

    def _many(self, vals: list[Any], lo: int, hi: int, work: int,
              budget: int) -> tuple[list[Choice], int, int] | None:
        """:meth:`run`'s enumeration of two or more choices, the first from ``lo`` to ``hi``
        (depth first, a range per choice set so far); as :meth:`_one`, with the last budget
        check's work (a later choice's range checked before its candidates is below the
        last of them: each adds a unit)."""
        nc, levels, bounds = len(self.bounds), self._levels, self.bounds
        out: list[tuple[tuple[int, ...], list[Any]]] = []
        chosen = [0] * nc
        ranges: list[Any] = [None] * nc
        ranges[0] = iter(range(lo, hi + 1))
        j = 0
        last = NEVER
        while j >= 0:
            v = next(ranges[j], None)
            if v is None:
                j -= 1
                continue
            chosen[j] = v
            ok, n = _candidate(vals, levels[j], v)
            work += n
            last = work
            if work > budget:
                return None
            if not ok:
                continue
            if j + 1 < nc:
                j += 1
                lo, hi = vals[bounds[j][0]], vals[bounds[j][1]]
                if hi - lo + 1 > budget - work:
                    return None
                ranges[j] = iter(range(lo, hi + 1))
                continue
            out.append((tuple(chosen), self._payload(vals)))
            work += len(self.payload)
        return out, work, last

    @cached_property
    def _state_level(self) -> tuple[list[tuple[int, int]], list[Runnable], list[int], list[Runnable], int, int]:
        """The state's level as :meth:`run` reads it: the loads (value index, input index), the
        steps of its conjuncts, the conjuncts, the steps later levels need, and the work if a
        conjunct fails there (its steps and one unit) or none does (both programs and one unit)."""
        pre, post = self.pre[0], self.post[0]
        return self.loads[0], pre, self.checks[0], post, len(pre) + 1, len(pre) + len(post) + 1

    @cached_property
    def _levels(self) -> list[tuple[list[int], list[Runnable], list[int], list[Runnable], int, int]]:
        """Per choice j (its value set): the value indices it loads, the steps of its conjuncts,
        the conjuncts, the steps later levels need, and the work of a candidate there (one unit
        and the nodes evaluated: the conjuncts' steps if one fails, else both programs)."""
        return [([k for k, _ in self.loads[j + 1]], self.pre[j + 1], self.checks[j + 1], self.post[j + 1],
                 len(self.pre[j + 1]) + 1, len(self.pre[j + 1]) + len(self.post[j + 1]) + 1)
                for j in range(len(self.bounds))]

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
