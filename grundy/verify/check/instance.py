"""One claim on one structure: the compiled statement, assumption and strategy, the solver's
truth at a state, the judgement (claimed versus true), the strategy followed against every
reply, and the counterexample at a state.
"""
from __future__ import annotations

from functools import cached_property
from typing import Any, Callable

from ...caches import register
from ...settings import current as settings
from ...solvers.explicit import compile_expr
from ...solvers.explicit.strategy import compile_strategy
from ...solvers.native.follow import StrategyTable
from ...solvers.native.vm import statement_at
from ...solvers.solver import Solver
from ...spec.expr import INT, Expr, lift
from ...spec.game import Rules
from ...spec.games import GAMES
from ...spec.position import Position
from ...spec.strategy import Play, plays
from ...spec.structure import Structure
from ..claims import Claim
from ..families import TableStatement
from ..kinds import kind_of
from ..verdict import Counterexample
from .deadline import State

FOLLOWED = "the strategy wins (C follower)"   # a truth from :meth:`Instance.prefetch`, judged as such
CLAIMED_N = "claimed N (to be followed)"      # from :meth:`Instance.prefetch`: the statement read there
AGREED = "claimed P, and P"                   # from :meth:`Instance.prefetch`: the claim holds there


_FOLLOWED: dict[tuple, tuple[tuple, set[State], list[StrategyTable | None]]] = {}
_FOLLOWED_MAX = 8         # strategies on structures kept (the least recently used goes)
register("followed", lambda: len(_FOLLOWED), _FOLLOWED.clear)


def _followed(rules: Rules, cases: list[Play], misere: bool) -> tuple[set[State], list[StrategyTable | None]]:
    """The positions from which a strategy is known to win against every reply (the Python
    follower's) and a slot for its C follower: shared by the instances of one strategy on the
    same rules in one convention (the claims of a group: one strategy, several statements or
    assumptions), by identity (the rules and the cases' nodes kept with the entry)."""
    key = (id(rules), misere, tuple((id(p.when), p.move, tuple((k, id(v)) for k, v in p.choice.items()))
                                    for p in cases))
    hit = _FOLLOWED.pop(key, None)
    if hit is None:
        hit = ((rules, tuple(cases)), set(), [None])
        while len(_FOLLOWED) >= _FOLLOWED_MAX:
            del _FOLLOWED[next(iter(_FOLLOWED))]
    _FOLLOWED[key] = hit
    return hit[1], hit[2]


class Instance:
    """A claim on one structure: the compiled statement, assumption and strategy, and the solver."""

    def __init__(self, claim: Claim, label: str, g: Structure, solver: Solver):
        self.claim, self.label, self.structure, self.solver = claim, label, g, solver
        self.game = GAMES[claim.game]
        self.rules = rules = self.game.rules(g)
        s = rules.state
        self.table = claim.statement if isinstance(claim.statement, TableStatement) else None
        # a statement built once per order with the structure's facts as data (grundy.spec.facts):
        # that IR and the facts' values here, for the interpreter; the statement's IR on this
        # structure (``expr``) is then built when something else reads it
        facts = getattr(claim.statement, "facts", None) if self.table is None else None
        self.by_facts: tuple[Expr, dict[str, int]] | None = None if facts is None else facts(g, s)
        self._expr: Expr | None = None
        if self.by_facts is None:
            self._expr = lift(0 if self.table is not None else claim.statement(g, s))
        head = self._expr if self._expr is not None else self.by_facts[0]      # type: ignore[index]
        self.kind = kind = kind_of(claim)
        problem = kind.statement_problem(head)
        if problem:
            raise TypeError(problem)
        self.by_value = head.sort == INT and self.table is None   # a table's: decided per position
        self.assume_expr: Expr = lift(claim.assume(g, s)) if claim.assume else lift(True)
        self._table = solver.table(self.game, g)
        self.misere = claim.convention == "misere"
        self.cases: list[Play] = []            # the strategy's (compiled when first followed: chosen)
        self.won: set[State] = set()           # the starts from which the strategy is known to win
        self.native_strategy: StrategyTable | None = None   # the strategy followed in C
        if claim.strategy is not None and kind.claims_strategy:
            self.cases = plays(claim.strategy, rules)
            self.won, shared = _followed(rules, self.cases, self.misere)
            if solver.native:
                if shared[0] is None:
                    shared[0] = StrategyTable(rules, self.cases, self.misere)
                self.native_strategy = shared[0]
        self.exact = (compile_expr(rules, lift(claim.exact(g, s))) if claim.exact and self.cases
                      else None)
        self._truth: dict[State, Any] = {}     # canonical state -> the solver's value or outcome
        self.batched = False                   # a sweep large enough for batches (``prefetch``)
        self.swept_by: Any = None              # the interpreter's statement that judged every position
                                               # of the sweep here (csweep.sweep_vm), or None: ``stmt``

    @property
    def expr(self) -> Expr:
        """The statement's IR on the structure (the claim's, built when first read where the
        interpreter has its build by facts: of the same sort, checked)."""
        if self._expr is None:
            claim, g, s = self.claim, self.structure, self.rules.state
            self._expr = lift(claim.statement(g, s))
            assert self.by_facts is not None and self._expr.sort == self.by_facts[0].sort
            # the assumption made again with it (the same IR; its nodes shared with the
            # statement's as on a structure built whole: the reference engine's tape the same)
            self.assume_expr = lift(claim.assume(g, s)) if claim.assume else lift(True)
        return self._expr

    def as_judged(self, state: State) -> Any:
        """The statement at ``state`` by the evaluator the sweep judged it with: the
        interpreter's program (:attr:`swept_by`; None where its assumption fails) or the
        statement compiled to Python (:attr:`stmt`)."""
        if self.swept_by is not None:
            return statement_at(self.swept_by, state)
        return self.stmt(state)

    # compiled to Python when first used (a structure the interpreter sweeps never needs them)
    @cached_property
    def stmt(self) -> Callable:
        """The statement as a Python function of the state (a table's: its claimed value)."""
        return self.table.claimed if self.table is not None else compile_expr(self.rules, self.expr)

    @cached_property
    def assume(self) -> Callable:
        return compile_expr(self.rules, self.assume_expr)

    @property
    def assumes_nothing(self) -> bool:
        """Whether the assumption is the constant True (no position to test against it)."""
        e = self.assume_expr
        return e.op == "const" and e.args[0] is True

    @cached_property
    def chosen(self) -> Callable:
        """The strategy's move at a state (the first case's that applies; None: none does)."""
        return compile_strategy(self.rules, self.cases)

    @cached_property
    def every_chosen(self) -> Callable:
        """The moves of every case of the strategy that applies at a state."""
        return compile_strategy(self.rules, self.cases, every=True)

    @cached_property
    def code(self) -> Any:
        """The rules compiled to Python (a reduction proved later changes no move)."""
        return self._table.code

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
        """The truth at many states, asked of the solver in one call, for :meth:`judge` to use;
        None (each judged on its own) unless the judgement needs the truth at every state (no
        table of values, no strategy). A large sweep on the native path asks the kernel (which
        canonicalizes them); others ask :meth:`Solver.answers` (each state served as it would be
        alone: :meth:`_answers`). A strategy claim's batch: :meth:`_strategy_truths`."""
        if self.cases and batch and self.table is None and not self.by_value:
            return self._strategy_truths(batch)
        if not batch or self.cases or self.table is not None:
            return None
        if not (self.batched and self.solver.native):
            return self._answers(batch)
        if self.by_value:
            return self.solver.grundy_many([self.solvable(s) for s in batch])
        if any(self.game.sized(self.structure, st)[0] is not self.structure for st in batch):
            return None                      # solved on larger slots, one by one
        wins = self.solver.mover_wins_states(self.game, self.structure, batch, self.claim.convention)
        return None if wins is None else ["N" if w else "P" for w in wins]

    def _answers(self, batch: list[State]) -> list[Any]:
        """What :meth:`truth` gives at each state (None at a state solved on larger slots: judged
        on its own), the canonical states not yet known asked of the solver in one call, in the
        order :meth:`truth` would ask them."""
        canon, known = self._table.code.canonical, self._truth
        cs = [canon(st) for st in batch]
        ask = [c for c in dict.fromkeys(cs) if c not in known
               and self.game.sized(self.structure, c)[0] is self.structure]
        if ask:
            got = self.solver.answers(self.game, self.structure, ask, self.claim.convention,
                                      "grundy" if self.by_value else "wins")
            for c, v in zip(ask, got, strict=True):
                known[c] = v if self.by_value else "N" if v else "P"
        return [known.get(c) for c in cs]

    def _strategy_truths(self, batch: list[State]) -> list[Any]:
        """A strategy claim's batch, the statement read once at each start: at the starts
        claimed P, :data:`AGREED` where the truth is P, else the truth (:meth:`_answers`: the
        solver asked in one call); at those claimed N, :data:`FOLLOWED` where the C follower
        (once it serves, :meth:`_in_c`, or in a batched sweep) shows the strategy winning
        against every reply, else :data:`CLAIMED_N` (judged as before: followed in Python, a
        failing start for the line that shows it)."""
        out: list[Any] = [CLAIMED_N] * len(batch)
        claimed_p = [i for i, st in enumerate(batch) if self.stmt(st)]
        if claimed_p:
            for i, a in zip(claimed_p, self._answers([batch[i] for i in claimed_p]), strict=True):
                out[i] = AGREED if a == "P" else a
        if self.native_strategy is not None and (self.batched or self._in_c()):
            starts = [i for i, t in enumerate(out) if t is CLAIMED_N]
            got = self.native_strategy.follow_many([batch[i] for i in starts])
            for i, r in zip(starts, got or (), strict=False):
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
        return m.label.format(**{c.name: v for c, v in zip(m.choices, cv, strict=False)})

    # claimed versus true -----------------------------------------------------
    def judge(self, state: State, truth: Any = None) -> tuple[Any, Any, list[dict] | None] | None:
        """None where the claim holds at ``state``, else (claimed, actual, line or None).
        ``truth``: the solver's value or outcome there, if already known (:meth:`prefetch`; for a
        strategy claim also :data:`FOLLOWED`, :data:`AGREED` or :data:`CLAIMED_N`)."""
        if truth is FOLLOWED:        # claimed N, and the strategy wins from here (the C follower)
            return self.exactly(state) if self.exact and self.exact(state) else None
        if truth is AGREED:          # claimed P (a strategy claim's batch), and P
            return None
        claimed, truth = (False, None) if truth is CLAIMED_N else (self.stmt(state), truth)
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
    def _node(self, x: State, options: Callable):
        """At a state where the strategy's player moves: ("win",), ("fail", reason, steps) or
        ("go", (move, choices), y, replies); a step: ((move, choices), state); the replies: the
        moves at y, (move, choices, state). The strategy's move: the first case's that applies
        (:attr:`chosen`), legal where it is one of the moves at ``x`` (``options``)."""
        opts = options(x)
        if not opts:
            return ("win",) if self.misere else ("fail", "the strategy's player has no move", [])
        mv = self.chosen(x)
        if mv is None:
            return ("fail", "no case of the strategy applies", [])
        mi, cv = mv
        y = next((nxt for mj, cw, nxt in opts if mj == mi and cw == cv), None)
        if y is None:
            return ("fail", f"the strategy's move {self.label_of(*mv)!r} is not legal", [])
        replies = options(y)
        if not replies:
            return (("fail", "the strategy's move leaves the opponent without a move (a loss in misère play)",
                     [(mv, y)]) if self.misere else ("win",))
        return ("go", mv, y, replies)

    def follow(self, start: State) -> tuple[str, str, list[dict]] | None:
        """Play the strategy from ``start`` against every reply; None if it always wins, else
        ("the strategy wins", what goes wrong, the line that shows it). In C once the native
        path serves the structure (or the Python follower has met enough positions to pay for
        a build); where the C follower finds a failure, the Python one replays the start."""
        won = self.won
        if start in won:
            return None
        ns = self.native_strategy
        if ns is not None and self._in_c():
            got = ns.follow_many([start])
            if got is not None and got[0] == 1:
                return None
        options, node = self.code.options, self._node
        # a frame: [state, the strategy's move, the state after it, its replies left, the reply taken]
        frames: list[list[Any]] = []
        x, res = start, node(start, options)
        while True:
            if res[0] == "win":
                won.add(x)
            elif res[0] == "fail":
                steps: list[tuple[tuple[int, tuple], State]] = []
                for fr in frames:
                    mi, cv, z = fr[4]
                    steps += [(fr[1], fr[2]), ((mi, cv), z)]
                steps += res[2]
                line = [{"move": self.label_of(*mv), "to": self.position(st).to_json()} for mv, st in steps]
                return "the strategy wins", f"it fails: {res[1]}", line
            else:
                frames.append([x, res[1], res[2], iter(res[3]), None])
            while frames:
                fr = frames[-1]
                for reply in fr[3]:                 # the next reply not known won against
                    if reply[2] not in won:
                        fr[4] = reply
                        break
                else:
                    won.add(fr[0])
                    frames.pop()
                    continue
                x = reply[2]
                res = node(x, options)
                break
            else:
                return None

    def _in_c(self) -> bool:
        """Whether :meth:`follow` asks the C follower first: once the native path serves the
        structure, or the Python follower has met enough positions to pay for a build (then a
        batch of starts is asked of it in one call, :meth:`prefetch`)."""
        return self.native_strategy is not None and (len(self.won) > settings().native_after
                                                     or self.solver.table(self.game, self.structure).in_use)

    def exactly(self, state: State) -> tuple[Any, Any, list[dict] | None] | None:
        """The strategy's moves (every case that applies) are exactly the winning moves."""
        opts = self.code.options(state)
        mine = set(self.every_chosen(state))
        wins = {(mi, cv) for (mi, cv, _), o in zip(opts, self._outcomes([nxt for *_, nxt in opts]), strict=True)
                if o == "P"}
        if mine == wins:
            return None
        show_ = lambda ms: sorted(self.label_of(mi, cv) for mi, cv in ms)  # noqa: E731
        return (f"winning moves exactly {show_(mine)}", f"winning moves {show_(wins)}", None)

    def _outcomes(self, states: list[State]) -> list[str]:
        """The outcome at each state: as :meth:`truth` reads it (the canonical states not yet
        known asked of the solver in one call, :meth:`_answers`; kept for the next starts,
        whose options are often the same positions) where the truth is an outcome, else
        :meth:`outcome` (a claim judged by value)."""
        if self.by_value:
            return [self.outcome(st) for st in states]
        return [self.truth(st) if a is None else a for st, a in zip(states, self._answers(states), strict=True)]

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
