"""Checking one claim: the explicit sweep, the Z3 proof, counterexamples and their replay.

Everything here speaks of claims, positions and verdicts only; the game's rules come
from its file and are read through the explicit solver and the SMT backend.

>>> from grundy.verify.claims import Claim
>>> from grundy.verify.families import heaps
>>> c = Claim("demo/nim-2", game="nim", kind="char", family=heaps(2), bounds={"heap": 5},
...           statement=lambda g, s: s.heap[0] == s.heap[1])
>>> v = check_claim(c)
>>> v.verdict, v.scope
('verified', '2 heaps, heap <= 5: 36 positions (each one evaluated); cross-checked by the reference engine at 36 positions; values from Python search')
>>> bad = Claim("demo/nim-bad", game="nim", kind="char", family=heaps(2), bounds={"heap": 5},
...             statement=lambda g, s: s.heap[0] <= s.heap[1], expect="refuted")
>>> v = check_claim(bad)
>>> v.verdict, v.counterexample.witness, v.counterexample.claimed, v.counterexample.actual
('refuted', {'game': 'nim', 'heaps': [0, 1]}, 'P', 'N')
"""
from __future__ import annotations

import itertools
import json
import time
import traceback
from typing import Any, Callable

from ..solvers.explicit import CycleError, Solver, SolverLimit, compile_expr
from ..solvers.explicit.solver import NATIVE_AFTER, SourceLog
from ..solvers.gamecheck import _smt_violation
from ..solvers.heaps import rule_options
from ..solvers.native.follow import StrategyTable
from ..solvers.native.kernel import GRUNDY, Box, Kernel, KernelError
from ..solvers.symmetric import Plan
from ..spec.expr import BOOL, INT, Expr, all_of, evaluate, ite, lift, show
from ..spec.games import GAMES
from ..spec.ops import UnsupportedOperator
from ..errors import GrundyError, RuleError
from ..spec.position import Position, SumPosition, read_position
from ..spec.strategy import plays
from ..spec.structure import Structure
from .claims import Claim, ClaimError, Explicit, Smt
from .families import Positions, TableStatement, count_states, size_key, states, values_of
from .recheck import CrossCheck, Disagreement
from .verdict import ERROR, PROVED, REFUTED, UNKNOWN, VERIFIED, Counterexample, Verdict

State = tuple[int, ...]
Progress = Callable[[str], None]


class TimedOut(Exception):
    """The claim's time limit passed (cooperative check)."""


FOLLOWED = "the strategy wins (C follower)"   # a truth from :meth:`Instance.prefetch`, judged as such


class Deadline:
    """A point in time; ``check()`` raises :class:`TimedOut` past it."""

    def __init__(self, seconds: float | None):
        self.start = time.monotonic()
        self.end = float("inf") if not seconds else self.start + seconds

    def left(self) -> float:
        return self.end - time.monotonic()

    def check(self) -> None:
        if time.monotonic() > self.end:
            raise TimedOut()


def _nothing(_: str) -> None:
    pass


class _Ticker:
    """A sweep's periodic duties: the time limit, and progress at most twice a second."""

    def __init__(self, deadline: Deadline, progress: Progress):
        self.deadline, self.progress, self.last = deadline, progress, time.monotonic()

    def tick(self, message: Callable[[], str]) -> None:
        self.deadline.check()
        now = time.monotonic()
        if now - self.last > 0.5:
            self.progress(message())
            self.last = now


# ------------------------------------------------------------------------------- one structure
class Instance:
    """A claim on one structure: the compiled statement, assumption and strategy, and the solver."""

    def __init__(self, claim: Claim, label: str, g: Structure, solver: Solver):
        self.claim, self.label, self.structure, self.solver = claim, label, g, solver
        self.game = GAMES[claim.game]
        self.rules = rules = self.game.rules(g)
        s = rules.state
        self.table = claim.statement if isinstance(claim.statement, TableStatement) else None
        self.expr: Expr = lift(0 if self.table is not None else claim.statement(g, s))
        if claim.kind == "grundy" and self.expr.sort != INT:
            raise TypeError(f"the statement of a grundy claim must be an int expression, got {show(self.expr)}")
        if claim.kind in ("char", "strategy") and self.expr.sort != BOOL:
            raise TypeError("the statement must be a boolean expression (true at the P-positions)")
        self.by_value = self.expr.sort == INT
        self.stmt = compile_expr(rules, self.expr)
        if self.table is not None:
            self.by_value = False                                  # decided per position
            self.stmt = self.table.claimed
        self.assume_expr: Expr = lift(claim.assume(g, s)) if claim.assume else lift(True)
        self.assume = compile_expr(rules, self.assume_expr)
        self._table = solver.table(self.game, g)
        self.code = self._table.code            # moves (a reduction proved later changes no move)
        self.misere = claim.convention == "misere"
        self.cases: list[tuple[Callable, int, list[Callable]]] = []
        self.native_strategy: StrategyTable | None = None   # the strategy followed in C
        if claim.strategy is not None and claim.kind == "strategy":
            cases = plays(claim.strategy, rules)
            if solver.native:
                self.native_strategy = StrategyTable(rules, cases, self.misere)
            for p in cases:
                m = rules.moves[p.move]
                self.cases.append((compile_expr(rules, p.when), p.move,
                                   [compile_expr(rules, p.choice[c.name]) for c in m.choices]))
        self.exact = (compile_expr(rules, lift(claim.exact(g, s))) if claim.exact and self.cases
                      else None)
        self.won: set[State] = set()
        self._truth: dict[State, Any] = {}     # canonical state -> the solver's value or outcome
        self.batched = False                   # a sweep large enough for batches (``prefetch``)

    def position(self, state: State) -> Position:
        """The position at ``state`` on the claim's structure (as shown)."""
        return Position(self.game, self.structure, tuple(state), self.claim.convention)

    def solvable(self, state: State) -> Position:
        """The position at ``state`` as the solver plays it: on a structure with room for every
        move from it (a heap rule on too few slots: the slots its JSON would be read into)."""
        g, st = self.game.sized(self.structure, tuple(state))
        return Position(self.game, g, st, self.claim.convention)

    def outcome(self, state: State) -> str:
        return self.solver.outcome(self.solvable(state))

    def prefetch(self, batch: list[State]) -> list[Any] | None:
        """The truth at many states, asked of the solver in one call (its kernel canonicalizes
        them), for :meth:`judge` to use; None (each judged on its own) unless the sweep is large,
        the native path serves, and the judgement needs the truth at every state (no table of
        values). A strategy claim's batch goes to the C follower instead (:meth:`_followed`)."""
        if self.cases and batch and self.batched and self.table is None:
            return self._followed(batch)
        if not (batch and self.batched) or self.cases or self.table is not None or not self.solver.native:
            return None
        if self.by_value:
            return self.solver.grundy_many([self.solvable(s) for s in batch])
        if any(self.game.sized(self.structure, st)[0] is not self.structure for st in batch):
            return None                      # solved on larger slots, one by one
        wins = self.solver.mover_wins_states(self.game, self.structure, batch, self.claim.convention)
        return None if wins is None else ["N" if w else "P" for w in wins]

    def _followed(self, batch: list[State]) -> list[Any] | None:
        """:data:`FOLLOWED` at the starts claimed N from which the C follower shows the strategy
        winning against every reply, None at the others (judged as before: a failing start is
        followed again in Python for the line that shows it)."""
        if self.native_strategy is None:
            return None
        starts = [i for i, st in enumerate(batch) if not self.stmt(st)]
        got = self.native_strategy.follow_many([batch[i] for i in starts])
        if got is None:
            return None
        out: list[Any] = [None] * len(batch)
        for i, r in zip(starts, got):
            if r == 1:
                out[i] = FOLLOWED
        return out

    def truth(self, state: State) -> Any:
        """The solver's Grundy value (in the claim's convention) or outcome at ``state``, read
        from its canonical representative: the solver's symmetry (once its premise is proved on
        this structure: the table's code then reduces), never the statement's."""
        c = self._table.code.canonical(state)
        v = self._truth.get(c)
        if v is None:
            v = (self.solver.grundy(self.solvable(c)) if self.by_value else self.outcome(c))
            self._truth[c] = v
        return v

    def label_of(self, mi: int, cv: tuple) -> str:
        m = self.rules.moves[mi]
        return m.label.format(**{c.name: v for c, v in zip(m.choices, cv)})

    # claimed versus true -----------------------------------------------------
    def judge(self, state: State, truth: Any = None) -> tuple[Any, Any, list[dict] | None] | None:
        """None where the claim holds at ``state``, else (claimed, actual, line or None).
        ``truth``: the solver's value or outcome there, if already known (:meth:`prefetch`)."""
        claimed = self.stmt(state)
        if truth is FOLLOWED:        # claimed N, and the strategy wins from here (the C follower)
            return self.exactly(state) if self.exact and self.exact(state) else None
        if truth is not None:
            c = claimed if self.by_value else "P" if claimed else "N"
            return None if c == truth else (c, truth, None)
        if self.table is not None and not isinstance(claimed, str):   # a Grundy value as data
            actual = self.solver.grundy(self.solvable(state))
            return None if actual == claimed else (claimed, actual, None)
        if self.by_value:
            actual = self.truth(state)
            return None if actual == claimed else (claimed, actual, None)
        c = claimed if self.table is not None else "P" if claimed else "N"
        if self.cases and c == "N" and self.code.options(state):
            # the strategy is a certificate: if it wins against every reply, the position is N
            # and nothing needs solving (this is what makes Q_7 checkable)
            failed = self.follow(state)
            if failed is None:
                return self.exactly(state) if self.exact and self.exact(state) else None
            a = self.truth(state)
            return (c, a, None) if c != a else failed
        a = self.truth(state)
        return None if c == a else (c, a, None)

    # strategies ---------------------------------------------------------------
    def strategy_move(self, state: State, opts) -> tuple[str, Any, Any]:
        for when, mi, fs in self.cases:
            if when(state):
                cv = tuple(f(state) for f in fs)
                for mj, cw, nxt in opts:
                    if mj == mi and cw == cv:
                        return "ok", self.label_of(mi, cv), nxt
                return "illegal", self.label_of(mi, cv), None
        return "none", None, None

    def _node(self, x: State):
        """At a state where the strategy's player moves: ("win",), ("fail", reason, steps) or
        ("go", label, y, replies)."""
        opts = self.code.options(x)
        if not opts:
            return ("win",) if self.misere else ("fail", "the strategy's player has no move", [])
        how, label, y = self.strategy_move(x, opts)
        if how == "none":
            return ("fail", "no case of the strategy applies", [])
        if how == "illegal":
            return ("fail", f"the strategy's move {label!r} is not legal", [])
        replies = [(self.label_of(mi, cv), z) for mi, cv, z in self.code.options(y)]
        if not replies:
            return (("fail", "the strategy's move leaves the opponent without a move (a loss in misère play)",
                     [(label, y)]) if self.misere else ("win",))
        return ("go", label, y, replies)

    def follow(self, start: State) -> tuple[str, str, list[dict]] | None:
        """Play the strategy from ``start`` against every reply; None if it always wins, else
        ("the strategy wins", what goes wrong, the line that shows it). In C once the native
        path serves the structure (or the Python follower has met enough positions to pay for
        a build); where the C follower finds a failure, the Python one replays the start."""
        if start in self.won:
            return None
        ns = self.native_strategy
        if ns is not None and (len(self.won) > NATIVE_AFTER
                               or self.solver.table(self.game, self.structure).in_use):
            got = ns.follow_many([start])
            if got is not None and got[0] == 1:
                return None
        first = self._node(start)
        frames: list[list[Any]] = []
        res = first
        x = start
        while True:
            if res[0] == "win":
                self.won.add(x)
            elif res[0] == "fail":
                steps: list[tuple[str, State]] = []
                for fr in frames:
                    steps += [(fr[1], fr[2]), fr[3][fr[4] - 1]]
                steps += res[2]
                line = [{"move": lab, "to": self.position(st).to_json()} for lab, st in steps]
                return "the strategy wins", f"it fails: {res[1]}", line
            else:
                frames.append([x, res[1], res[2], res[3], 0])
            while frames:
                fr = frames[-1]
                if fr[4] == len(fr[3]):
                    self.won.add(fr[0])
                    frames.pop()
                    continue
                z = fr[3][fr[4]][1]
                fr[4] += 1
                if z not in self.won:
                    x, res = z, self._node(z)
                    break
            else:
                return None

    def exactly(self, state: State) -> tuple[Any, Any, list[dict]] | None:
        """The strategy's moves (every case that applies) are exactly the winning moves."""
        opts = self.code.options(state)
        mine = set()
        for when, mi, fs in self.cases:
            if when(state):
                mine.add((mi, tuple(f(state) for f in fs)))
        wins = {(mi, cv) for mi, cv, nxt in opts if self.outcome(nxt) == "P"}
        if mine == wins:
            return None
        show_ = lambda ms: sorted(self.label_of(mi, cv) for mi, cv in ms)  # noqa: E731
        return (f"winning moves exactly {show_(mine)}", f"winning moves {show_(wins)}", None)

    # counterexamples ------------------------------------------------------------
    def counterexample(self, state: State, found: tuple, how: str) -> Counterexample:
        claimed, actual, line = found
        pos = self.position(state)
        if line is None:
            line = [{"move": lab, "to": q.to_json()} for lab, q in self.solver.winning_line(self.solvable(state))]
        return Counterexample(pos.to_json(), claimed, actual, line, self.label, how, self.full_state(state),
                              origin=("state", self, state))

    def full_state(self, state: State) -> dict[str, Any]:
        """Every field's value at ``state`` (what the claim was evaluated on; ``write()`` may
        leave some out, e.g. an edge of weight 0)."""
        vals = self.rules.schema.unpack(state)
        return {k: ({str(key): int(x) for key, x in v.items()} if isinstance(v, dict) else
                    v if isinstance(v, bool) else int(v)) for k, v in vals.items()}

    def shrink(self, state: State, deadline: Deadline) -> State:
        """Lower the numeric fields one at a time (and all together) while the claim stays false."""
        sch = self.rules.schema
        nums = [i for i, (f, _) in enumerate(sch.slots) if sch.fields[f].kind == "int"]
        lower = {i: sch.fields[sch.slots[i][0]].lower for i in nums}

        def bad(t: State) -> bool:
            return bool(self.assume(t)) and self.judge(t) is not None

        stop = time.monotonic() + min(10.0, max(0.0, deadline.left()))
        better = True
        while better and time.monotonic() < stop:
            better = False
            for i in nums:
                v = state[i]
                for c in sorted({lower[i], (lower[i] + v) // 2, v - 1}):
                    if not lower[i] <= c < v:
                        continue
                    t = state[:i] + (c,) + state[i + 1:]
                    if bad(t):
                        state, better = t, True
                        break
            step = min((state[i] - lower[i] for i in nums), default=0)
            for d in sorted({1, step}):
                if not 1 <= d <= step:
                    continue
                t = tuple(v - d if i in lower else v for i, v in enumerate(state))
                if bad(t):
                    state, better = t, True
                    break
        return state


# ------------------------------------------------------------------------------- explicit check
def _bounds_text(bounds: dict[str, Any]) -> str:
    parts = []
    for k, b in bounds.items():
        if callable(b):
            parts.append(f"{k}: {(b.__doc__ or b.__name__).strip().splitlines()[0]}")
        elif isinstance(b, int):
            parts.append(f"{k} <= {b}")
        elif isinstance(b, tuple):
            parts.append(f"{b[0]} <= {k} <= {b[1]}")
        else:
            parts.append(f"{k} in {list(values_of(b))}")
    return ", ".join(parts)


BATCH = 8192          # starts read from a sweep at a time (their truths asked of the kernel in one call)
BATCH_FROM = 20_000   # ... on structures with at least this many starts (smaller ones: the Python path)
ORDER = "fewest vertices, then edges, then the least sum and the least largest of the numeric fields"


def _fn_text(f: Callable) -> str:
    """A short description of a claim's function: its docstring's first line, its name, or the
    lambda's body as written."""
    name = getattr(f, "__name__", "")
    doc = (getattr(f, "__doc__", None) or "").strip()
    if name != "<lambda>":
        if not doc:
            return name or "a condition"
        first = doc.splitlines()[0].rstrip(".")
        return first[0].lower() + first[1:] if first[1:2].islower() else first
    import linecache
    code = f.__code__
    spans = [p for p in code.co_positions() if None not in p and p[0] >= code.co_firstlineno
             and (p[2], p[3]) != (0, 0)]
    if not spans:
        return "a condition"
    (l0, c0), (l1, c1) = min((p[0], p[2]) for p in spans), max((p[1], p[3]) for p in spans)
    lines = [linecache.getline(code.co_filename, n) for n in range(l0, l1 + 1)]
    if not all(lines):
        return "a condition"
    lines[-1] = lines[-1][:c1]
    lines[0] = lines[0][c0:]
    text = " ".join(" ".join(lines).split())
    return text if len(text) <= 70 else text[:67] + "..."


def _play(convention: str) -> str:
    return "misère play" if convention == "misere" else "normal play"


def _conditions(claim: Claim) -> str:
    """What the scope must say besides the family and bounds: the assume and the convention
    (misère play; normal play too on a game declared misère)."""
    out = ""
    if claim.assume is not None:
        out += f", assuming {_fn_text(claim.assume)}"
    declared = GAMES[claim.game].convention if claim.game in GAMES else "normal"
    if claim.convention == "misere" or declared != claim.convention:
        out += f", {_play(claim.convention)}"
    return out


class SweepResult:
    """The result of the explicit sweep: positions checked (where ``assume`` holds), positions
    met within the bounds, structures with at least one position checked, structures in the family."""

    def __init__(self, checked: int, cex: Counterexample | None, complete: bool, text: str,
                 met: int = 0, structures: int = 0, family: int = 0):
        self.checked, self.cex, self.complete, self.text = checked, cex, complete, text
        self.met, self.structures, self.family = met, structures, family

    def empty_reason(self, claim: Claim, bounds: dict[str, Any]) -> str:
        """Why the sweep covered nothing (one line)."""
        if self.family == 0:
            return f"the family ({claim.family.scope}) has no structure: the check covers nothing"
        if self.met == 0:
            return (f"the bounds ({_bounds_text(bounds)}) allow no position on {claim.family.scope}: "
                    f"the check covers nothing")
        return (f"assume ({_fn_text(claim.assume) if claim.assume else 'none'}) holds at none of the "
                f"{self.met:,} positions within the bounds: the check covers nothing")


def sweep(claim: Claim, method: Explicit, bounds: dict[str, Any], solver: Solver, deadline: Deadline,
          progress: Progress = _nothing, cross: CrossCheck | None = None) -> SweepResult:
    """Evaluate the statement and the assumption at every position of the family within bounds
    (the solver's values come from canonical representatives: symmetry serves solving only),
    smallest structures first; stop after the first structure with a counterexample and report
    the smallest one it has (in the order of :data:`ORDER`). ``cross`` is offered every position
    where the claim held (the reference engine's sample)."""
    checked = met = structures = family = 0
    if isinstance(claim.family, Positions):
        return sweep_listed(claim, solver, deadline, progress, cross)
    ticker = _Ticker(deadline, progress)
    for label, g in claim.family.items():
        family += 1
        rules = GAMES[claim.game].rules(g)
        claim.check_fields(list(rules.schema.fields))
        n_states = count_states(rules, bounds)
        if n_states == 0:
            continue                       # the bounds allow no position here (e.g. a size limit)
        inst = Instance(claim, label, g, solver)
        # batches pay where the kernel reduces by every vertex permutation (K_n). Elsewhere the
        # kernel's box grows batch by batch and the kernel restarts each time (a 5-heap sweep up
        # to 40 took twice as long), so those sweeps keep one start at a time. (Known limitation:
        # sizing the box to the bounds before the first batch would let every sweep batch.)
        inst.batched = n_states >= BATCH_FROM and solver.symmetry and Plan.of(rules) is not None
        best: tuple | None = None
        here = 0
        try:
            it = states(inst.rules, bounds, None)
            while True:
                chunk = list(itertools.islice(it, BATCH))
                if not chunk:
                    break
                met += len(chunk)
                chunk = [st for st in chunk if inst.assume(st)]
                truths = inst.prefetch(chunk) or [None] * len(chunk)   # the solver's side in one call
                wrong = set()
                for st, truth in zip(chunk, truths):                   # ... each start judged here
                    checked += 1
                    here += 1
                    if checked & 255 == 0:
                        ticker.tick(lambda: f"explicit: {label}, {checked:,} positions")
                    found = inst.judge(st, truth)
                    if found is not None:
                        wrong.add(st)
                        key = size_key(inst.rules, st)
                        if best is None or key < best[0]:
                            best = (key, st, found)
                if cross is not None:         # where the solver agreed with the claim
                    cross.offer(inst, [st for st in chunk if st not in wrong] if wrong else chunk)
        except TimedOut:
            return SweepResult(checked, None, False, f"{claim.family.scope}, {_bounds_text(bounds)}"
                                                   f"{_conditions(claim)}: timed out after {checked:,} "
                                                   f"positions (up to {label})", met, structures, family)
        structures += here > 0
        if best is not None:
            within = f", {_bounds_text(bounds)}" if bounds else ""
            cex = inst.counterexample(best[1], best[2], f"the smallest in the sweep of {label}{within} "
                                                        f"(order: {ORDER})")
            return SweepResult(checked, cex, True, "", met, structures, family)
    text = (f"{claim.family.scope}, {_bounds_text(bounds)}{_conditions(claim)}: {checked:,} positions"
            f" (each one evaluated)")
    if method.samples and checked:
        cex, n = _random_search(claim, method, solver, deadline)
        if cex is not None:
            return SweepResult(checked + n, cex, True, "", met, structures, family)
        text += f" + {n:,} random positions with {_bounds_text(method.sample_bounds or bounds)}"
    return SweepResult(checked, None, True, text, met, structures, family)


class SumInstance:
    """A claim at sums of positions: ``statement(g, s)`` gets the parts' structures and their
    concrete states (``s[i].heap[0]`` is an int) and returns the claimed value (a bool: true at
    the P-positions; an int: the Grundy value)."""

    def __init__(self, claim: Claim, solver: Solver):
        self.claim, self.solver = claim, solver

    def claimed(self, pos: SumPosition) -> Any:
        """What the statement states at ``pos``: a Grundy value, or "P"/"N"."""
        g = tuple(p.structure for p in pos.parts)
        s = tuple(_Concrete(p.values()) for p in pos.parts)
        claimed = self.claim.statement(g, s)
        if isinstance(claimed, Expr):
            claimed = evaluate(claimed, {})
        if isinstance(claimed, int) and not isinstance(claimed, bool):
            return claimed
        return "P" if claimed else "N"

    def judge(self, pos: SumPosition) -> tuple[Any, Any, None] | None:
        c = self.claimed(pos)
        a = self.solver.grundy(pos) if isinstance(c, int) else self.solver.outcome(pos)
        return None if a == c else (c, a, None)

    def counterexample(self, pos: SumPosition, found: tuple, label: str, how: str) -> Counterexample:
        line = [{"move": lab, "to": q.to_json()} for lab, q in self.solver.winning_line(pos)]
        return Counterexample(pos.to_json(), found[0], found[1], line, label, how, origin=("sum", self, pos))


class _Concrete:
    """A part's concrete state, read as a rule reads its symbolic one (``s.heap[0]``)."""

    def __init__(self, values: dict[str, Any]):
        self.__dict__["_values"] = values

    def __getattr__(self, name: str) -> Any:
        try:
            return self.__dict__["_values"][name]
        except KeyError:
            raise AttributeError(f"the state has no field {name!r}") from None


def _listed_position(claim: Claim, item: Any) -> "Position | SumPosition":
    """One item of a :class:`Positions` family as a position of the claim (in its convention)."""
    if isinstance(item, tuple):
        g, state = item
        game = GAMES[claim.game]
        sch = game.rules(g).schema
        if len(state) != len(sch):
            raise ValueError(f"state {tuple(state)} does not fit {g.kind} on {g.n} "
                             f"({len(sch)} slot{'s' * (len(sch) != 1)}: {', '.join(sch.var_name(i) for i in range(len(sch)))})")
        _check_state(sch, g, tuple(state))
        return Position(game, g, tuple(int(x) for x in state), claim.convention)
    pos = read_position(item) if isinstance(item, dict) else item
    name = "sum" if isinstance(pos, SumPosition) else pos.game.name
    if name != claim.game:
        raise ValueError(f"the family lists a position of {name!r}, not of the claim's game {claim.game!r}")
    if pos.convention != claim.convention:      # never switched: a position carries its convention
        raise claim.fail(f"the family lists a position in {_play(pos.convention)} ({json.dumps(pos.to_json())}) "
                         f"for a claim in {_play(claim.convention)}: a position is never switched (give the "
                         f"claim convention={pos.convention!r}, or list positions in {_play(claim.convention)})")
    return pos


def _check_state(sch: Any, g: Structure, state: tuple) -> None:
    """ValueError unless every slot of ``state`` is in its field's domain."""
    for i, ((name, _), v) in enumerate(zip(sch.slots, state)):
        f = sch.fields[name]
        lo, hi = {"int": (f.lower, None), "bool": (0, 1), "vertex": (0, g.n - 1),
                  "edge": (-1, len(g.edges) - 1)}[f.kind]
        if isinstance(v, bool) and f.kind != "bool" or not isinstance(v, int) or v < lo or (hi is not None and v > hi):
            raise ValueError(f"state {state}: {sch.var_name(i)} = {v!r} is outside the field's domain")


def sweep_listed(claim: Claim, solver: Solver, deadline: Deadline, progress: Progress = _nothing,
                 cross: CrossCheck | None = None) -> SweepResult:
    """Check the claim at every position a :class:`Positions` family lists, in order; report the
    first counterexample (the family chooses the order)."""
    fam = claim.family
    assert isinstance(fam, Positions)
    insts: dict[Structure, Instance] = {}
    sums_: SumInstance | None = None
    checked = met = 0
    seen: set = set()                      # structures (and sums) with a position checked
    listed = fam.listed()
    ticker = _Ticker(deadline, progress)
    try:
        for label, item in listed:
            pos = _listed_position(claim, item)
            checked += 1
            met += 1
            if checked & 63 == 0:
                ticker.tick(lambda: f"explicit: {checked:,} positions")
            seen.add(tuple(p.structure for p in pos.parts) if isinstance(pos, SumPosition) else pos.structure)
            if isinstance(pos, SumPosition):
                sums_ = sums_ or SumInstance(claim, solver)
                found = sums_.judge(pos)
                if found is None and cross is not None:
                    cross.offer_listed(sums_, pos)
                if found is not None:
                    cex = sums_.counterexample(pos, found, label or "sum", "first in the family's order")
                    return SweepResult(checked, cex, True, "", met, len(seen), len(listed))
                continue
            inst = insts.get(pos.structure)
            if inst is None:
                inst = insts[pos.structure] = Instance(claim, label or f"{pos.structure.kind} on {pos.structure.n}",
                                                       pos.structure, solver)
            if not inst.assume(pos.state):
                checked -= 1
                continue
            found = inst.judge(pos.state)
            if found is None and cross is not None:
                cross.offer_listed(inst, pos.state)
            if found is not None:
                return SweepResult(checked, inst.counterexample(pos.state, found, "first in the family's order"),
                                   True, "", met, len(seen), len(listed))
    except TimedOut:
        return SweepResult(checked, None, False, f"{fam.scope}{_conditions(claim)}: timed out after {checked:,} positions",
                           met, len(seen), len(listed))
    return SweepResult(checked, None, True, f"{fam.scope}{_conditions(claim)}: {checked:,} positions", met, len(seen), len(listed))


def _random_search(claim: Claim, method: Explicit, solver: Solver, deadline: Deadline):
    """Hypothesis-driven random search within ``sample_bounds``, shrinking what it finds."""
    from hypothesis import HealthCheck, find, settings, strategies as st
    from hypothesis.errors import NoSuchExample
    from .families import slot_values

    bounds = method.sample_bounds or claim.bounds
    insts = [Instance(claim, label, g, solver) for label, g in claim.family.items()]
    ranges = [slot_values(i.rules, bounds) for i in insts]

    @st.composite
    def position(draw):
        k = draw(st.integers(0, len(insts) - 1))
        return k, tuple(draw(st.sampled_from(v)) if len(v) < 8 or v != list(range(v[0], v[-1] + 1))
                        else draw(st.integers(v[0], v[-1])) for v in ranges[k])

    tried = [0]

    def wrong(kp) -> bool:
        k, state = kp
        if deadline.left() <= 0:
            return False
        inst = insts[k]
        if not inst.assume(state):
            return False
        tried[0] += 1
        return inst.judge(state) is not None

    try:
        k, state = find(position(), wrong, settings=settings(
            max_examples=method.samples, database=None, derandomize=True, deadline=None,
            suppress_health_check=list(HealthCheck)))
    except NoSuchExample:
        return None, tried[0]
    inst = insts[k]
    state = inst.shrink(state, deadline)
    return inst.counterexample(state, inst.judge(state), "a counterexample found by random search "
                               "(hypothesis), shrunk (not known to be the smallest)"), tried[0]


# ------------------------------------------------------------------------------- SMT check
def _smt_scope(claim: Claim, method: Smt) -> str:
    game = GAMES[claim.game]
    fam = claim.family.items()
    names: list[str] = []
    if fam:
        sch = game.rules(fam[0][1]).schema
        names = [n for n, f in sch.fields.items() if f.kind == "int"]
    what = ", ".join(n + ("s" if not n.endswith("s") else "") for n in names) or "positions"
    if method.bits is None:
        return f"all {what} (all sizes), {claim.family.scope}{_conditions(claim)}"
    return (f"all {what} < 2^{method.bits} ({method.bits}-bit vectors), {claim.family.scope}"
            f"{_conditions(claim)}")


class ProofResult:
    """The result of the SMT obligations (with a replayed counterexample when refuted)."""

    def __init__(self, status: str, obligations: list[dict], cex: Counterexample | None = None,
                 detail: str = "", structures: int = 0):
        self.status, self.obligations, self.cex, self.detail = status, obligations, cex, detail
        self.structures = structures          # structures where assume is satisfiable


def prove(claim: Claim, method: Smt, solver: Solver, deadline: Deadline,
          progress: Progress = _nothing) -> ProofResult:
    """Run the SMT obligations on every structure of the family; replay any violation. A
    structure where no position satisfies ``assume`` (asked of Z3 first) is skipped and not
    counted; if that leaves none, the proof covers nothing: ``error``."""
    try:
        from ..solvers import smt
    except ImportError as e:  # pragma: no cover - the backend ships with grundy
        return ProofResult(UNKNOWN, [], detail=f"SMT backend not available ({e})")
    obligations: list[dict] = []
    unknown: list[str] = []
    width = None if method.bits is None else method.bits
    bound = None if method.bits is None else (1 << method.bits) - 1
    covered = total = 0
    for label, g in claim.family.items():
        total += 1
        inst = Instance(claim, label, g, solver)
        rules = inst.rules
        kw = dict(width=width, bound=bound)
        left = deadline.left()
        if left <= 0:
            raise TimedOut()
        progress(f"smt: {label}, nonempty")
        ne = smt.check_nonempty(rules, inst.assume_expr, timeout=min(left, 60.0), **kw)
        obligations.append({"structure": label, "obligation": ne.obligation, "status": ne.status,
                            "seconds": round(ne.seconds, 3), "detail": ne.detail})
        if ne.status == "violated":
            continue                       # nothing to prove here, and nothing proved
        if ne.status == "unknown":
            unknown.append(f"{label}: nonempty ({ne.detail})")
        covered += ne.status == "holds"
        calls: list[tuple[str, Callable[[float], list]]] = [
            ("rank", lambda t: smt.check_rank(rules, inst.assume_expr, timeout=t, **kw))]
        one = _one_heap_form(inst, smt)
        if one is not None:
            calls = _one_heap_calls(smt, claim, one, kw)
        elif inst.by_value:
            calls.append(("grundy", lambda t: smt.check_grundy_formula(
                rules, inst.expr, inst.assume_expr, convention=claim.convention,
                witnesses=claim.witnesses, timeout=t, **kw)))
        else:
            calls.append(("partition", lambda t: smt.check_partition(
                rules, inst.expr, inst.assume_expr, strategy=claim.strategy, convention=claim.convention,
                timeout=t, **kw)))
        if claim.exact is not None and claim.kind == "strategy":
            calls.append(("uniqueness", lambda t: _uniqueness(smt, inst, t, kw)))
        for name, call in calls:
            left = deadline.left()
            if left <= 0:
                raise TimedOut()
            progress(f"smt: {label}, {name}")
            for r in call(min(left, 600.0)):
                obligations.append({"structure": label, "obligation": r.obligation, "status": r.status,
                                    "seconds": round(r.seconds, 3), "detail": r.detail})
                if r.status == "violated":
                    if one is not None and r.state is not None:    # the heap, in the claim's slots
                        r.state = tuple(r.state[:len(inst.rules.schema)])
                    res = _replay(inst, r, obligations, deadline)
                    if res.status == UNKNOWN and r.obligation.startswith("strategy") and claim.kind != "strategy":
                        continue       # only (NP)'s witness failed: (NP) itself follows, asked without it
                    res.structures = covered
                    return res
                if r.status == "unknown":
                    unknown.append(f"{label}: {r.obligation} ({r.detail})")
    if unknown:
        return ProofResult(UNKNOWN, obligations, detail="; ".join(unknown), structures=covered)
    if covered == 0:
        why = (f"the family ({claim.family.scope}) has no structure" if total == 0 else
               f"Z3: no position satisfies assume ({_fn_text(claim.assume) if claim.assume else 'none'}) "
               f"on any of the {total} structure(s)")
        return ProofResult(ERROR, obligations, detail=f"{why}: the proof covers nothing", structures=0)
    return ProofResult(PROVED, obligations, structures=covered)


def _one_heap_form(inst: Instance, smt) -> tuple | None:
    """For a grundy claim without ``assume`` on one heap of a game whose positions are sums of
    heaps (it has ``one_heap_rules``): (the one-heap rules, the value of a position of parts,
    the positions checked). The value of parts is the XOR of the statement at each non-empty
    part (the sum theorem: how the solver computes them), so the mex condition at every single
    heap, with every part of every option a smaller heap, proves the statement by induction
    on the heap. None for any other claim (checked as usual)."""
    make = getattr(inst.game, "one_heap_rules", None)
    if (make is None or not inst.by_value or inst.claim.assume is not None or len(inst.rules.schema) != 1
            or inst.claim.convention != "normal"):     # misère values are not XORs of parts
        return None
    one = make()
    head = inst.rules.schema.var_name(0)
    slots = one.schema.variables
    value = smt.substitute(inst.expr, {head: slots[0]})
    for v in slots[1:]:
        value = value ^ ite(v == 0, 0, smt.substitute(inst.expr, {head: v}))
    return one, value, all_of(v == 0 for v in slots[1:])


def _one_heap_calls(smt, claim: Claim, one: tuple, kw: dict) -> list:
    rules, value, at = one
    return [("rank", lambda t: smt.check_rank(rules, at, timeout=t, **kw)),
            ("parts", lambda t: smt.check_parts_smaller(rules, at, timeout=t, **kw)),
            ("grundy", lambda t: smt.check_grundy_formula(rules, value, at, witnesses=claim.witnesses,
                                                          closed=False, convention="normal", timeout=t, **kw))]


def _uniqueness(smt, inst: Instance, timeout: float, kw: dict) -> list:
    """The strategy's moves are all the winning moves where ``exact`` holds: no other move from a
    state there outside P lands in P. Asked as the (PN) obligation of the predicate True on the
    game restricted to exactly those other moves: it holds iff none of them is ever legal."""
    import copy
    from ..spec.expr import Var, all_of, any_of
    from ..spec.game import Move
    from ..solvers.smt import substitute
    rules, claim = inst.rules, inst.claim
    g, s = rules.structure, rules.state
    sch = rules.schema
    where = lift(claim.exact(g, s)) & ~inst.expr
    cases = plays(claim.strategy, rules)
    moves = []
    for mi, m in enumerate(rules.moves):
        nxt = substitute(inst.expr, {sch.var_name(i): e for i, e in m.update.items()})
        mine = any_of(c.when & all_of(Var.int(ch.name) == c.choice[ch.name] for ch in m.choices)
                      for c in cases if c.move == mi)
        moves.append(Move(m.label, m.guard & where & nxt & ~mine, m.update, m.choices))
    other = copy.copy(rules)
    other.moves = moves
    out = []
    for r in smt.check_partition(other, lift(True), inst.assume_expr, timeout=timeout, **kw):
        if r.obligation == "PN":
            r.obligation = "unique"
            r.detail = r.detail.replace("leads from P to N", "is a winning move outside the strategy")
            out.append(r)
    return out


REPLAY_LIMIT = 2_000_000   # positions below the witness beyond which the replay does not solve


def _box(inst: Instance, state: State) -> int:
    """A rough count of the positions below ``state``: the product of its numeric values + 1."""
    sch = inst.rules.schema
    n = 1
    for (f, _), v in zip(sch.slots, state):
        if sch.fields[f].kind == "int":
            n *= max(1, v - sch.fields[f].lower + 1)
    return n


def _options_of(inst: Instance, state: State, cap: int = 100_000) -> list | None:
    """The options of ``state`` (move, choices, next state), or None if there are more than ``cap``."""
    n = 0
    for _ in inst.code.successors_lazy(state):      # count first: options() builds a whole list
        n += 1
        if n > cap:
            return None
    return list(inst.code.options(state))


def _part_heaps(inst: Instance, state: State, cap: int) -> list | None:
    """For a heap rule's claim on one heap, whose options do not fit its one slot: every heap
    an option of ``state`` leaves, as a state of that slot (the positions a one-heap proof's
    induction rests on), as (None, None, state) triples; None past ``cap`` or for another claim."""
    rule = inst.game.heap_rule(inst.structure)
    if rule is None or len(state) != 1 or state[0] > cap:
        return None
    parts = sorted({p for _, ps in rule_options(rule, state[0]) for p in ps})
    return [(None, None, (p,)) for p in parts] if len(parts) <= cap else None


CERTIFICATE_MOVES = 4_000_000   # the most moves a certificate enumerates at one position


def _all_options(inst: Instance, state: State) -> list | None:
    """Every option of ``state`` for a certificate (None beyond :data:`CERTIFICATE_MOVES`): the
    next states generated by the C kernel where it serves (a box around ``state`` holds them),
    else the options of the compiled rules in Python."""
    if inst.solver.native:
        try:
            k = Kernel(inst.rules, Box.around(inst.rules, [state]), GRUNDY)
            nxt = k.all_successors(state, CERTIFICATE_MOVES)
            return None if nxt is None else [(None, (), s) for s in nxt]
        except (KernelError, ValueError, OSError):      # a move out of the box, no compiler...
            pass
    return _options_of(inst, state, CERTIFICATE_MOVES)


def _apply(inst: Instance, mi: int, cv: tuple, state: State) -> State | None:
    """The state after move ``mi`` with choice values ``cv``, evaluated on the rule's text (no
    enumeration of the other choices); None if the move is not legal there."""
    from ..spec.expr import evaluate
    rules = inst.rules
    m = rules.moves[mi]
    sch = rules.schema
    env: dict[str, Any] = {sch.var_name(i): v for i, v in enumerate(state)}
    env.update({c.name: v for c, v in zip(m.choices, cv)})
    for c, v in zip(m.choices, cv):
        if not evaluate(c.lo, env) <= v <= evaluate(c.hi, env):
            return None
    if not evaluate(m.guard, env):
        return None
    nxt = list(state)
    for slot, e in m.update.items():
        nxt[slot] = int(evaluate(e, env))
        dom = rules.slot_domains[slot]
        if dom is not None and (nxt[slot] < dom[0] or (dom[1] is not None and nxt[slot] > dom[1])):
            return None          # the result does not fit the structure (a split without room): no step
    return tuple(nxt)


def _certificate(inst: Instance, r, state: State) -> Counterexample | None:
    """A violated obligation of the partition theorem or the mex rule, checked on the rule alone
    (no solving): a legal move between two claimed P-positions, a terminal position outside the
    claimed set, a non-terminal one outside whose moves all stay outside; for a value: a move
    between two positions of equal claimed value, a terminal position of the wrong value, a
    value below the claimed one that no option has. None if the state does not show one."""
    if not inst.assume(state):
        return None
    conv = inst.claim.convention
    full = inst.position(state).to_json()
    claimed = inst.stmt(state)
    why = ""
    moved: tuple = (None, None)          # the certificate's move ((move, choices), next state)
    if r.obligation in ("PN", "mex-equal") and r.choices:
        mi = r.choices.get("move")
        m = inst.rules.moves[mi] if isinstance(mi, int) and 0 <= mi < len(inst.rules.moves) else None
        cv = tuple(r.choices.get(c.name) for c in m.choices) if m is not None else ()
        nxt = _apply(inst, mi, cv, state) if m is not None and None not in cv else None
        if nxt is not None and inst.assume(nxt):
            other, step = inst.stmt(nxt), f"the move {inst.label_of(mi, cv)!r} leads to {inst.position(nxt).to_json()}"
            if inst.by_value and other == claimed:
                why = f"{step}, whose claimed value is also {claimed}: no option has a position's own value"
            elif not inst.by_value and claimed and other:
                why = f"{step}, also claimed P: no move joins two P-positions"
            moved = ((mi, cv), nxt)
    try:
        opts = _all_options(inst, state) if not why else []
    except GrundyError:          # a move that does not fit the claim's structure: no certificate here
        return None
    if opts is None:
        return None
    if r.obligation == "T" and not opts:
        if inst.by_value:
            want = 1 if conv == "misere" else 0
            if claimed != want:
                why = f"a terminal position has {'misère ' if conv == 'misere' else ''}value {want}"
        elif bool(claimed) != (conv == "normal"):
            why = (f"a terminal position is {'P' if conv == 'normal' else 'N'} in "
                   f"{'normal' if conv == 'normal' else 'misère'} play")
    elif r.obligation == "NP" and opts and not inst.by_value and not claimed:
        if all(inst.assume(nxt) and not inst.stmt(nxt) for _, _, nxt in opts):
            why = (f"claimed N, but each of its {len(opts)} moves leads outside the claimed P-positions "
                   f"(an N-position has a move to a P-position)")
    elif r.obligation == "mex-below" and inst.by_value and opts and r.choices and "value" in r.choices:
        v = r.choices["value"]
        if 0 <= v < claimed and all(inst.assume(nxt) for _, _, nxt in opts) \
                and all(inst.stmt(nxt) != v for _, _, nxt in opts):
            why = f"no option has the claimed value {v} (below the claimed {claimed}): the mex is not {claimed}"
    if not why:
        return None
    shown = ("P" if claimed else "N") if not inst.by_value else claimed
    if r.obligation == "T":                     # a terminal position's value is known: the claim is wrong here
        actual = (1 if conv == "misere" else 0) if inst.by_value else ("P" if conv == "normal" else "N")
    else:                                       # wrong here or at a position it names: which, unsolved
        actual = "unsolved (too large); the claim contradicts itself here, see the certificate"
    move = moved[0] if r.obligation in ("PN", "mex-equal") else (r.choices or {}).get("value")
    return Counterexample(full, shown, actual, [], inst.label,
                          f"a partition certificate from Z3 ({r.obligation}), checked on the rule without "
                          f"solving: {why}", inst.full_state(state),
                          origin=("certificate", inst, state, r.obligation, move, moved[1], opts))


def _replay(inst: Instance, r, obligations: list[dict], deadline: Deadline) -> ProofResult:
    """Confirm a violation reported by Z3: by the explicit solver when the position is small
    enough, else (or if solving fails) by a certificate checked on the rule alone."""
    state = tuple(int(v) for v in r.state)
    where = f"Z3: {r.obligation} violated at {inst.position(state).to_json()}"
    if r.choices:
        where += f" (move {r.choices})"
    if r.obligation in ("closed", "rank", "domain", "parts"):
        what = {"closed": "the claim's assume is not closed under moves",
                "rank": "the game's rank does not decrease", "domain": "a move leaves the field domains",
                "parts": "an option of one heap leaves a part not smaller than the heap"}
        detail = f"{what[r.obligation]}: {where}"
        if r.obligation == "domain" and r.choices and "move" in r.choices:
            detail = _smt_violation(inst.rules, r)
            if inst.rules.moves[r.choices["move"]].fits is not None:
                detail += (f"; Z3 proves a claim on {inst.game.name}'s heap slots only where every move "
                           f"fits them (a grundy claim on one heap without assume is proved on the "
                           f"one-heap rules instead): check this claim with the explicit method")
        return ProofResult(ERROR, obligations, detail=detail)
    try:
        opts = _options_of(inst, state, 10_000)
    except GrundyError:                  # a move that does not fit the claim's slots (a split on one)
        opts = _part_heaps(inst, state, 10_000)
    small = opts is not None and _box(inst, state) <= REPLAY_LIMIT
    if small:
        cands = [state] + [nxt for _, _, nxt in opts]
        try:
            for t in cands:
                if not inst.assume(t):
                    continue
                found = inst.judge(t)
                if found is not None:
                    shrunk = inst.shrink(t, deadline)
                    found = inst.judge(shrunk) or found
                    cex = inst.counterexample(shrunk if inst.judge(shrunk) else t, found,
                                              f"a counterexample found by Z3 ({r.obligation}), replayed by "
                                              f"the explicit solver" + (", shrunk" if shrunk != t else "")
                                              + " (not known to be the smallest)")
                    return ProofResult(REFUTED, obligations, cex)
        except (SolverLimit, CycleError):
            small = False
    cert = _certificate(inst, r, state)
    if cert is not None:
        return ProofResult(REFUTED, obligations, cert)
    if not small:
        return ProofResult(UNKNOWN, obligations, detail=f"{where}: too large to replay with the solver, "
                                                  f"and no certificate checks on the rule alone")
    cands = [state] + [nxt for _, _, nxt in opts or []]

    def value(t: State) -> str:
        if inst.by_value:
            return f"claimed {inst.stmt(t)}, solver {inst.truth(t)}"
        return f"claimed {'P' if inst.stmt(t) else 'N'}, solver {inst.truth(t)}"
    truth = "; ".join(f"{inst.position(t).to_json()}: {value(t)}" for t in cands[:6])
    if r.obligation.startswith("strategy") and inst.claim.kind != "strategy":
        return ProofResult(UNKNOWN, obligations, detail=f"the proof's strategy witness fails ({where}); the "
                                                  f"statement itself is right there")
    return ProofResult(ERROR, obligations, detail=f"{where}, but the explicit solver finds the statement "
                                           f"right at that position and its options ({truth}): "
                                           f"a disagreement between the backends")


# ------------------------------------------------------------------------------- a claim
def check_claim(claim: Claim, *, profile: str = "quick", timeout: float | None = None,
                progress: Progress = _nothing, solver: Solver | None = None,
                allow_empty: bool = False, recheck: str = "sample") -> Verdict:
    """Check one claim with its methods, within ``timeout`` seconds (default: the claim's).
    A check that covers nothing (no structure, no position within the bounds, an ``assume``
    nothing satisfies) is ``error``; ``allow_empty`` (one chunk of a parallel sweep) lets an
    empty explicit sweep stand as ``verified`` with 0 positions (the merge decides).
    ``recheck``: what the reference engine re-solves before a verdict is given out
    (:mod:`grundy.verify.recheck`: ``"sample"``, ``"all"`` or ``"none"``); where it disagrees,
    the verdict is ``error``."""
    claim = claim.at(profile)
    deadline = Deadline(timeout if timeout is not None else claim.timeout)
    solver = solver or Solver()
    v = Verdict(claim.id, claim.kind, UNKNOWN, claim.expect, paper=claim.paper, **claim.describe())
    log, before = SourceLog(), solver.log       # which value sources serve this claim
    solver.log = log
    try:
        _run(claim, profile, solver, deadline, progress, v, allow_empty,
             CrossCheck(claim, recheck, tick=deadline.check))
    except Disagreement as e:             # the reference engine: never a pass, never a refutation
        v.verdict, v.detail, v.counterexample = ERROR, str(e), None
    except TimedOut:
        v.verdict = UNKNOWN
        v.detail = (v.detail + "; " if v.detail else "") + f"timed out after {deadline.end - deadline.start:g} s"
    except (SolverLimit, CycleError) as e:
        v.verdict, v.detail = ERROR, f"explicit solver: {e}"
    except (ClaimError, RuleError) as e:      # a wrong claim; a rule breaking its own contract (a move
        v.verdict, v.detail = ERROR, str(e)   # that does not fit, a field out of its domain): one line
    except UnsupportedOperator as e:      # a backend refusing an operator: its message says what to do
        v.verdict, v.detail = ERROR, f"claim {claim.id!r}: {e}"
    except Exception as e:  # a bug in a statement, a strategy or a backend: shown, not raised
        tb = traceback.extract_tb(e.__traceback__)[-1]
        v.verdict, v.detail = ERROR, f"{type(e).__name__}: {e} (at {tb.filename}:{tb.lineno})"
    finally:
        solver.log = before
    served(v, log)
    v.seconds = time.monotonic() - deadline.start
    v.coverage["obligations"] = sum(o["status"] == "holds" for o in v.obligations)
    return v


def served(v: Verdict, log: SourceLog) -> None:
    """Put in the verdict which value sources answered (``coverage["sources"]``: what served ->
    on how many structures; a short phrase in the scope of a pass that used solved values) and
    the declarations of the game found violated where a source would have relied on them
    (``coverage["violated"]``: one line each; those sources were not used, the values are the
    moves' own)."""
    sources = log.summary()
    if sources:
        v.coverage["sources"] = sources
        if v.verdict in (VERIFIED, PROVED) and v.swept:
            v.scope += f"; {log.text()}"
    if log.violations:
        v.coverage["violated"] = list(log.violations)


def check_part(claim: Claim, start: int, stop: int, **kw: Any) -> tuple[Verdict, int]:
    """:func:`check_claim` on the structures ``start..stop-1`` of the claim's family only (one
    chunk of a parallel sweep, see :mod:`grundy.verify.schedule.chunks`): the verdict and the number
    of positions its explicit sweep checked (a chunk may check none: the merge decides).

    >>> from grundy.verify.claims import Claim
    >>> from grundy.verify.families import heaps
    >>> c = Claim("demo/nim", game="nim", kind="char", family=heaps(1, 2), bounds={"heap": 3},
    ...           statement=lambda g, s: s.heap[0] == s.heap[g.n - 1], expect="refuted")
    >>> check_claim(c).verdict                # false on one heap
    'refuted'
    >>> v, n = check_part(c, 1, 2)            # two heaps only: 16 positions, each evaluated
    >>> v.verdict, n
    ('verified', 16)
    """
    import copy
    from .families import Family
    claim = claim.at(kw.get("profile", "quick"))
    part = copy.copy(claim)
    fam = claim.family
    part.family = (fam.part(start, stop) if hasattr(fam, "part")
                   else Family(fam.items()[start:stop], fam.scope))
    v = check_claim(part, allow_empty=True, **kw)
    return v, v.swept


def _refuted_scope(claim: Claim, c: Counterexample) -> str:
    import json
    pos = json.dumps({k: x for k, x in c.witness.items() if k != "game"})
    pos = pos if len(pos) <= 90 else pos[:87] + "..."
    what = "certificate" if c.how.startswith("a partition certificate") else "counterexample"
    return (f"{claim.family.scope}{_conditions(claim)}: {what} on {c.structure} {pos}: claimed {c.claimed}, "
            f"actually {c.actual}")


def _refute(claim: Claim, v: Verdict, cex: Counterexample, cross: CrossCheck) -> None:
    """``refuted`` with ``cex``, once the reference engine has re-checked it (a Disagreement
    otherwise: the verdict is then ``error``)."""
    note = cross.confirm_counterexample(cex)
    v.verdict, v.counterexample = REFUTED, cex
    v.scope = _refuted_scope(claim, cex) + note
    v.coverage.update(cross.coverage())


def _run(claim: Claim, profile: str, solver: Solver, deadline: Deadline, progress: Progress,
         v: Verdict, allow_empty: bool = False, cross: CrossCheck | None = None) -> None:
    if claim.game != "sum" and claim.game not in GAMES:
        raise KeyError(f"unknown game {claim.game!r}")
    cross = cross or CrossCheck(claim, tick=deadline.check)
    scopes: list[str] = []                 # what the explicit sweeps covered
    proofs: list[str] = []                 # what the Z3 proofs covered
    verdict = None
    cov = v.coverage
    for m in claim.methods:
        if isinstance(m, Explicit):
            bounds = claim.bounds_for(profile)
            ex = sweep(claim, m, bounds, solver, deadline, progress, cross)
            cov["positions"] = cov.get("positions", 0) + ex.checked
            cov["structures"] = max(cov.get("structures", 0), ex.structures)
            if ex.cex is not None:
                _refute(claim, v, ex.cex, cross)
                return
            if not ex.complete:
                v.verdict, v.scope, v.detail = UNKNOWN, ex.text, "explicit sweep timed out"
                return
            if ex.checked == 0 and not allow_empty:
                v.verdict, v.detail = ERROR, ex.empty_reason(claim, bounds)
                v.scope = f"{claim.family.scope}, {_bounds_text(bounds)}{_conditions(claim)}: 0 positions"
                return
            scopes.append(ex.text)
            verdict = verdict or VERIFIED
        else:
            res = prove(claim, m, solver, deadline, progress)
            v.obligations += res.obligations
            cov["structures"] = max(cov.get("structures", 0), res.structures)
            if res.status == REFUTED:
                _refute(claim, v, res.cex, cross)
                return
            if res.status != PROVED:
                v.verdict, v.detail = res.status, res.detail
                v.scope = "; ".join(proofs + [f"{_smt_scope(claim, m)}: Z3 "
                                              + ("inconclusive" if res.status == UNKNOWN else "covers nothing")]
                                    + [f"explicit: {s}" for s in scopes])
                return
            if m.bits is None or cov.get("smt") != "all sizes":
                cov["smt"] = "all sizes" if m.bits is None else f"below 2^{m.bits}"
            proofs.append(_smt_scope(claim, m))
            verdict = PROVED
    v.verdict = verdict or UNKNOWN
    v.scope = "; ".join(proofs + [f"explicit: {s}" if proofs else s for s in scopes])
    if scopes:                             # a pass with a sweep: the reference engine re-solves a sample
        progress("reference engine: cross-check")
        cross.confirm_pass()
        v.scope += cross.pass_text()
        cov.update(cross.coverage())
