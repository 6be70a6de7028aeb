"""The cross-check: a second, plain engine behind every verdict.

The explicit solver is fast because it takes shortcuts (symmetry, components, one-heap tables,
compiled code, a C kernel). A shortcut that does not hold for a game gives wrong values, and a
sweep then passes a false claim or refutes a true one. So before a verdict is given out, the
reference engine (:mod:`grundy.solvers.reference`: the moves evaluated straight from the IR,
no shortcut, no cache) re-solves what the verdict rests on:

- a **pass** (``verified``, ``proved``) with an explicit sweep: a sample of the swept positions,
  the :data:`SMALLEST` smallest in the sweep's size order and :data:`DRAWN` drawn at random
  (seeded: the same sample every run), smallest first, within a budget of :data:`BUDGET` work
  units (one position may spend at most a :data:`SHARE`-th of it). The claim's statement is
  evaluated there by the engine's own interpreter and compared with the engine's value (a
  passing sweep means the solver agreed with the statement at every swept position);
- a **refutation**: the counterexample itself (its value, its strategy line, its winning moves),
  or, for a partition certificate, the certificate on the rule with the engine's moves.

A disagreement is ``error`` with one line ("the solvers disagree at P: 5 by the reference
engine, 0 by the solver"): never a pass, never a refutation. Positions beyond the budget are
not cross-checked, and the scope says how many were. ``mode``: ``"sample"`` (the default),
``"all"`` (every swept position, no budget) or ``"none"``.

>>> from grundy.verify.claims import Claim
>>> from grundy.verify.families import heaps
>>> from grundy.verify.check import check_claim
>>> c = Claim("demo/nim-2", game="nim", kind="char", family=heaps(2), bounds={"heap": 5},
...           statement=lambda g, s: s.heap[0] == s.heap[1])
>>> check_claim(c).scope.split("; values from")[0]     # (the solver that served: with a C compiler or not)
'2 heaps, heap <= 5: 36 positions (each one evaluated); cross-checked by the reference engine at 36 positions'
"""
from __future__ import annotations

import json
import operator
import zlib
from typing import Any, Callable, Sequence

from ..errors import Disagreement, RuleError
from ..solvers.reference import (
    HeapArena,
    Reference,
    ReferenceCycle,
    ReferenceLimit,
    RulesArena,
    Tape,
    collector_paused,
)
from ..spec.position import SumPosition
from ..spec.strategy import plays
from .families import size_key
from .sample import Sample

MODES = ("sample", "all", "none")
SMALLEST = 200          # the smallest swept positions re-solved (in the sweep's size order)
DRAWN = 200             # ... and positions drawn at random from the sweep (seeded)
BUDGET = 60_000         # work units the reference engine may spend on one claim's sample
SHARE = 4               # one sampled position may spend at most BUDGET // SHARE
COUNTEREXAMPLE_BUDGET = 8_000_000   # work units to re-check one counterexample or certificate (a
                                    # certificate enumerating 600,000 moves takes about 6 million)
SEED = 18


def _json(pos: Any) -> str:
    return json.dumps(pos.to_json())


class CrossCheck:
    """One claim's cross-check: the sweep offers the positions it checked (:meth:`offer`,
    :meth:`offer_listed`); :meth:`confirm_pass` and :meth:`confirm_counterexample` re-solve."""

    def __init__(self, claim: Any, mode: str = "sample", budget: int | None = None,
                 counterexample_budget: int | None = None, tick: Callable[[], None] | None = None):
        if mode not in MODES:
            raise ValueError(f"recheck must be one of {', '.join(MODES)}, not {mode!r}")
        self.claim, self.mode = claim, mode
        self.budget = None if mode == "all" else (BUDGET if budget is None else budget)
        self.cex_budget = (None if mode == "all" else
                           COUNTEREXAMPLE_BUDGET if counterexample_budget is None else counterexample_budget)
        seed = zlib.crc32(f"{SEED}:{claim.id}".encode())
        self.sample = Sample(seed, SMALLEST, DRAWN)
        self.tick = tick                 # the claim's time limit, called now and then
        self._all: Reference | None = Reference(tick=tick) if mode == "all" else None
        self.checked = self.beyond = 0
        self.built = 0                   # nodes of the statements read (work, counted when spent)
        self._tapes: dict[int, tuple[Any, Tape]] = {}
        self._keys: dict[int, tuple[Any, Callable, Callable]] = {}   # id(rules) -> (rules, size key, total)

    @property
    def on(self) -> bool:
        return self.mode != "none"

    # what the sweep checked ---------------------------------------------------
    def offer(self, inst: Any, states: Sequence[tuple], totals: Sequence[int] | None = None) -> None:
        """States of one structure the sweep checked (``assume`` held), in sweep order (mode
        ``"all"``: each re-solved at once, none kept); ``totals``: their sums of the numeric
        fields, if known (a sweep in C)."""
        if self._all is not None:
            self._confirm(self._all, [(inst, st) for st in states], None)
        elif self.on and len(states):
            rules = inst.rules
            got = self._keys.get(id(rules))
            if got is None or got[0] is not rules:
                got = self._keys[id(rules)] = (rules, _size_key(rules), _total(rules))
            self.sample.add(inst, states, got[1], got[2], totals)

    def offer_listed(self, owner: Any, where: Any) -> None:
        """One position of a listed family the sweep checked: (Instance, state) or (SumInstance, sum)."""
        if self._all is not None:
            self._confirm(self._all, [(owner, where)], None)
        elif self.on:
            self.sample.add(owner, [where])

    # evaluation -----------------------------------------------------------------
    def _tape(self, inst: Any) -> Tape:
        hit = self._tapes.get(id(inst))
        if hit is None:
            sch = inst.rules.schema
            hit = self._tapes[id(inst)] = (inst, Tape([inst.expr, inst.assume_expr], sch.slot_by_var))
            self.built += len(hit[1].template)
        return hit[1]

    def _eval(self, inst: Any, state: tuple, ref: Reference | None) -> list[Any]:
        """The statement and the assumption at ``state`` by the engine's interpreter (the work,
        reading the statement included, counted by ``ref``)."""
        tape = self._tape(inst)
        cost, self.built = len(tape.steps) + 1 + self.built, 0
        if ref is not None:
            ref.spend(cost)
        return tape.run(state)

    def claimed(self, inst: Any, state: tuple, ref: Reference | None = None) -> Any:
        """What the claim states at ``state`` by the engine's own evaluator (a Grundy value, or
        "P"/"N"), checked against the compiled statement and assumption the sweep used
        (``Instance.as_judged``: the interpreter's program or the Python function; the
        evaluation's work counted by ``ref``)."""
        stmt, assume = self._eval(inst, state, ref)
        if not assume:
            raise Disagreement(f"the evaluators disagree at {_json(inst.position(state))}: assume is false there "
                               f"by the reference engine's evaluator, true as compiled")
        if inst.table is not None:
            return inst.table.claimed(state)
        mine = int(stmt) if inst.by_value else ("P" if stmt else "N")
        fast = inst.as_judged(state)
        if fast is None:            # (the interpreter's program: its assumption fails there)
            raise Disagreement(f"the evaluators disagree at {_json(inst.position(state))}: assume is true there "
                               f"by the reference engine's evaluator, false as compiled")
        fast = int(fast) if inst.by_value else ("P" if fast else "N")
        if mine != fast:
            raise Disagreement(f"the evaluators disagree at {_json(inst.position(state))}: the statement is {mine} "
                               f"by the reference engine's evaluator, {fast} as compiled")
        return mine

    @staticmethod
    def truth(ref: Reference, pos: Any, claimed: Any) -> Any:
        """The engine's Grundy value (if the claim states one) or outcome at ``pos``."""
        if isinstance(claimed, int) and not isinstance(claimed, bool):
            return ref.grundy(pos)
        return ref.outcome(pos)

    def _position(self, owner: Any, where: Any, ref: Reference) -> tuple[Any, Any]:
        """(the position, what the claim states there)."""
        if isinstance(where, SumPosition):
            ref.spend(1)
            return where, owner.claimed(where)
        ref.use_rules(owner.rules)          # the sweep's IR of the rules (not built again)
        return owner.position(where), self.claimed(owner, where, ref)

    # a pass --------------------------------------------------------------------
    def confirm_pass(self) -> None:
        """Re-solve the sample; :class:`Disagreement` at the first position where the engine
        and the claim differ (mode ``"all"``: every position was re-solved as the sweep went)."""
        if self.mode == "sample":
            items = [e[2:] for e in self.sample.entries()]
            with collector_paused():
                self._confirm(Reference(tick=self.tick), items, self.budget)

    def _confirm(self, ref: Reference, items: list[tuple[Any, Any]], budget: int | None) -> None:
        """Re-solve ``(owner, where)`` items within ``budget`` work units (None: no budget)."""
        share = 0 if budget is None else max(1, budget // SHARE)          # (unused without a budget)
        for owner, where in items:
            if budget is not None and ref.work >= budget:
                self.beyond += 1
                continue
            ref.max_work = None if budget is None else ref.work + min(budget - ref.work, share)
            try:
                pos, claimed = self._position(owner, where, ref)
                got = self.truth(ref, pos, claimed)
            except ReferenceLimit:
                self.beyond += 1
                continue
            except (ReferenceCycle, RuleError) as e:
                raise Disagreement(f"the solvers disagree at {_json(pos)}: the reference engine finds "
                                   f"{_first_line(e)}") from None
            if got != claimed:
                raise Disagreement(f"the solvers disagree at {_json(pos)}: {got} by the reference engine, "
                                   f"{claimed} by the solver")
            self.checked += 1

    def pass_text(self) -> str:
        """What the cross-check of a pass covered, for the scope."""
        return pass_text(self.mode, self.checked, self.beyond, self.budget)

    def coverage(self) -> dict[str, int]:
        return {"cross_checked": self.checked, "cross_check_beyond": self.beyond} if self.on else {}

    # a refutation --------------------------------------------------------------
    def confirm_counterexample(self, cex: Any) -> str:
        """Re-check a counterexample before it is given out: :class:`Disagreement` if the engine
        does not find it; else the scope's note (checked, or beyond the budget)."""
        if not self.on:
            return "; not cross-checked (--recheck none)"
        origin = getattr(cex, "origin", None)
        if origin is None:
            return "; the counterexample is not cross-checked (no position to re-solve)"
        what = "certificate" if origin[0] == "certificate" else "counterexample"
        with collector_paused():
            note = self._recheck(cex, origin)
        if note is None:
            self.beyond += 1
            return f"; the {what} is beyond the reference engine's budget: not cross-checked"
        if note:
            return note
        self.checked += 1
        return f"; the {what} cross-checked by the reference engine"

    def _recheck(self, cex: Any, origin: tuple) -> str | None:
        """The re-check of :meth:`confirm_counterexample` by a fresh engine, which ends with
        it: the scope's note ("" when it holds), or None beyond the budget."""
        ref = Reference(max_work=self.cex_budget, tick=self.tick)
        try:
            return _CHECKS[origin[0]](self, ref, cex, *origin[1:])
        except ReferenceLimit:
            return None
        except (ReferenceCycle, RuleError) as e:
            raise Disagreement(f"the solvers disagree at {json.dumps(cex.witness)}: the reference engine "
                               f"finds {_first_line(e)}") from None

    def _value(self, ref: Reference, cex: Any, owner: Any, where: Any) -> str:
        """A value or outcome: the engine's must be the counterexample's ``actual``."""
        if not _is_value(cex.actual):
            if str(cex.claimed).startswith("winning moves exactly"):
                return self._exactly(ref, cex, owner, where)
            if cex.claimed == "the strategy wins":
                return self._strategy(ref, cex, owner, where)
            return "; the counterexample is not cross-checked (nothing to re-solve)"
        pos, claimed = self._position(owner, where, ref)
        if claimed != cex.claimed:
            raise Disagreement(f"the evaluators disagree at {_json(pos)}: the claim states {claimed} by the "
                               f"reference engine's evaluator, {cex.claimed} by the solver's")
        got = self.truth(ref, pos, claimed)
        if got != cex.actual:
            raise Disagreement(f"the solvers disagree at {_json(pos)}: {got} by the reference engine, "
                               f"{cex.actual} by the solver")
        return ""

    # strategies ------------------------------------------------------------------
    def _cases(self, inst: Any) -> list[tuple[Any, int, Tape]]:
        rules = inst.rules
        out = []
        for p in plays(self.claim.strategy, rules):
            names = [c.name for c in rules.moves[p.move].choices]
            out.append((p, p.move, Tape([p.when] + [p.choice[n] for n in names], rules.schema.slot_by_var)))
        return out

    def _applying(self, cases: list, state: tuple, first: bool) -> list[tuple[int, tuple]]:
        out = []
        for _, mi, tape in cases:
            when, *cv = tape.run(state)
            if when:
                out.append((mi, tuple(int(v) for v in cv)))
                if first:
                    break
        return out

    def _exactly(self, ref: Reference, cex: Any, inst: Any, state: tuple) -> str:
        """The strategy's moves are not exactly the winning moves: the engine's winning moves
        must be the counterexample's, and differ from the strategy's."""
        ref.use_rules(inst.rules)
        arena, _ = ref.arena(inst.position(state))
        if not isinstance(arena, RulesArena):
            return "; the counterexample is not cross-checked (a heap rule's strategy)"
        misere = inst.claim.convention == "misere"
        mine = sorted(arena.label(mi, cv) for mi, cv in self._applying(self._cases(inst), state, False))
        wins = sorted(arena.label(mv, cv) for mv, cv, nxt in ref.options(arena, state)
                      if not ref.wins(arena, nxt, misere))
        where = _json(inst.position(state))
        if f"winning moves {wins}" != cex.actual or f"winning moves exactly {mine}" != cex.claimed:
            raise Disagreement(f"the solvers disagree at {where}: winning moves {wins} by the reference engine, "
                               f"{cex.actual[len('winning moves '):]} by the solver")
        if mine == wins:
            raise Disagreement(f"the solvers disagree at {where}: by the reference engine the strategy's moves "
                               f"{mine} are exactly the winning moves")
        return ""

    def _strategy(self, ref: Reference, cex: Any, inst: Any, state: tuple) -> str:
        """The strategy fails along the counterexample's line: replayed with the engine's moves,
        the strategy's moves evaluated by its interpreter, and the failure found at the end."""
        ref.use_rules(inst.rules)
        arena, _ = ref.arena(inst.position(state))
        if not isinstance(arena, RulesArena):
            return "; the counterexample is not cross-checked (a heap rule's strategy)"
        where = _json(inst.position(state))
        if self.claimed(inst, state, ref) != "N":
            raise Disagreement(f"the evaluators disagree at {where}: the strategy is followed from a position "
                               f"the claim states P")
        cases, misere = self._cases(inst), inst.claim.convention == "misere"

        def fail(why: str) -> Disagreement:
            return Disagreement(f"the solvers disagree at {where}: the strategy's line {why} by the reference engine")

        x = state
        for k, step in enumerate(cex.line):
            if k % 2 == 0:                          # the strategy's move
                mine = self._applying(cases, x, True)
                y = ref.apply(arena, x, *mine[0]) if mine else None
                if y is None or arena.label(*mine[0]) != step["move"]:
                    raise fail(f"does not play {step['move']!r} at step {k + 1}")
            else:                                   # a reply: one of the engine's moves
                y = next((nxt for mv, cv, nxt in ref.options(arena, x) if arena.label(mv, cv) == step["move"]
                          and inst.position(nxt).to_json() == step["to"]), None)
                if y is None:
                    raise fail(f"has no reply {step['move']!r} at step {k + 1}")
            if inst.position(y).to_json() != step["to"]:
                raise fail(f"reaches another position at step {k + 1}")
            x = y
        why = str(cex.actual)[len("it fails: "):]
        terminal = not ref.options(arena, x)
        mine = self._applying(cases, x, True)
        if why == "the strategy's player has no move":
            ok = terminal and not misere and len(cex.line) % 2 == 0
        elif why == "no case of the strategy applies":
            ok = not terminal and not mine and len(cex.line) % 2 == 0
        elif why.startswith("the strategy's move") and why.endswith("is not legal"):
            ok = (not terminal and bool(mine) and ref.apply(arena, x, *mine[0]) is None
                  and repr(arena.label(*mine[0])) in why and len(cex.line) % 2 == 0)
        elif why.startswith("the strategy's move leaves the opponent without a move"):
            ok = misere and terminal and len(cex.line) % 2 == 1
        else:
            return "; the counterexample is not cross-checked (an unknown failure)"
        if not ok:
            raise fail(f"does not fail as stated ({why})")
        return ""

    # certificates -----------------------------------------------------------------
    def _certificate(self, ref: Reference, cex: Any, inst: Any, state: tuple, kind: str, move: Any,
                     nxt: tuple | None, opts: list | None) -> str:
        """A partition certificate re-checked on the rule: the engine's moves (one move's
        legality, or the position's every move) and the engine's evaluation of the claim."""
        ref.use_rules(inst.rules)
        arena, _ = ref.arena(inst.position(state))
        where = _json(inst.position(state))
        conv = inst.claim.convention

        def claim_at(st: tuple) -> Any:
            stmt, assume = self._eval(inst, st, ref)
            if not assume:
                raise Disagreement(f"the certificate at {where} leaves the assumed positions by the reference "
                                   f"engine's evaluator (at {_json(inst.position(st))})")
            return int(stmt) if inst.by_value else bool(stmt)

        def wrong(why: str) -> Disagreement:
            return Disagreement(f"the solvers disagree at {where}: the certificate ({kind}) does not hold by the "
                                f"reference engine: {why}")

        here = claim_at(state)
        if kind in ("PN", "mex-equal"):
            assert nxt is not None               # a move's certificate names where it goes
            mi, cv = move
            y = next((y for mv in _moves_like(arena, inst.rules, state, mi, cv)
                      if (y := ref.apply(arena, state, mv, cv)) is not None and arena.same(y, nxt)), None)
            if y is None:
                raise wrong(f"the move {inst.rules.move_text(mi, cv)!r} is not legal there")
            there = claim_at(nxt)
            ok = (here == there) if inst.by_value else (here and there)
            if not ok:
                raise wrong(f"the claim states {here} and {there}")
            return ""
        found = ref.options(arena, state)
        if opts is None or not _same_moves(arena, [n for _, _, n in found], [n for _, _, n in opts]):
            raise wrong(f"{len(found)} moves by the reference engine, {len(opts or [])} by the solver")
        if kind == "T":
            want = (1 if conv == "misere" else 0) if inst.by_value else (conv == "normal")
            if found or here == want:
                raise wrong("the position is not a terminal position of another value")
            return ""
        values = [claim_at(n) for _, _, n in opts]
        if kind == "NP":
            ok = not here and not any(values)
        elif kind == "mex-below":
            v = move
            ok = 0 <= v < here and v not in values
        else:
            return f"; the certificate ({kind}) is not cross-checked"
        if not ok:
            raise wrong("the moves do not show it")
        return ""


def _size_key(rules: Any) -> Callable[[tuple], tuple]:
    """:func:`~grundy.verify.families.size_key` on ``rules``' structure, its fields read once
    (a state of another length than the slots': by ``size_key`` itself).

    >>> from grundy.spec.games import get_game
    >>> from grundy.spec.structure import Structure
    >>> rules = get_game("vertexnim").rules(Structure.graph(range(3), [(0, 1), (1, 2)], directed=True))
    >>> st = tuple(range(len(rules.schema.slots)))
    >>> _size_key(rules)(st) == size_key(rules, st)
    True
    """
    sch, g = rules.schema, rules.structure
    idx = [i for i, (name, _) in enumerate(sch.slots) if sch.fields[name].kind == "int"]
    n, e, width = g.n, len(g.edges), len(sch.slots)

    def key(st: tuple) -> tuple:
        if len(st) != width:
            return size_key(rules, st)
        nums = [st[i] for i in idx]
        return (n, e, sum(nums), max(nums, default=0), st)
    return key


def _total(rules: Any) -> Callable[[tuple], int]:
    """The sum of a state's numeric fields (the third part of :func:`size_key`), fast."""
    sch = rules.schema
    idx = [i for i, (name, _) in enumerate(sch.slots) if sch.fields[name].kind == "int"]
    if len(idx) == len(sch.slots):
        return sum
    if len(idx) == 1:
        return operator.itemgetter(idx[0])
    if not idx:
        return lambda st: 0
    get = operator.itemgetter(*idx)
    return lambda st: sum(get(st))


def pass_text(mode: str, checked: int, beyond: int, budget: int | None, each: str = "") -> str:
    """The scope's words for a pass's cross-check: ``checked`` positions re-solved, ``beyond``
    sampled positions beyond the ``budget`` (``each``: what one budget is for, e.g. " a chunk").

    >>> pass_text("sample", 400, 0, 60000)
    '; cross-checked by the reference engine at 400 positions'
    >>> pass_text("sample", 12, 388, 60000)
    '; cross-checked by the reference engine at 12 of 400 sampled positions (388 beyond its budget of 60,000 work units)'
    >>> pass_text("sample", 0, 9, 60000)
    "; not cross-checked: the 9 sampled positions are beyond the reference engine's budget of 60,000 work units"
    """
    if mode == "none":
        return "; not cross-checked (--recheck none)"
    n = checked + beyond
    if n == 0:
        return ""
    if beyond == 0:
        return f"; cross-checked by the reference engine at {checked:,} position{'s' * (checked != 1)}"
    if checked == 0:
        return (f"; not cross-checked: the {beyond:,} sampled position{'s are' if beyond != 1 else ' is'} beyond "
                f"the reference engine's budget of {budget or 0:,} work units{each}")
    return (f"; cross-checked by the reference engine at {checked:,} of {n:,} sampled positions "
            f"({beyond:,} beyond its budget of {budget or 0:,} work units{each})")


def _moves_like(arena: Any, rules: Any, state: tuple, mi: int, cv: tuple) -> list[Any]:
    """The engine's moves that may be the solver's move ``mi`` (with choices ``cv``): the move
    itself on a game's rules; on a heap rule, every option (in any heap) labelled alike."""
    if isinstance(arena, RulesArena):
        return [mi]
    if isinstance(arena, HeapArena):
        text = rules.move_text(mi, cv)
        return [(i, oi) for i in range(len(state)) for oi in range(len(arena.opts))
                if arena.label((i, oi), cv) == text]
    return []


def _same_moves(arena: Any, a: list[tuple], b: list[tuple]) -> bool:
    """The same positions reached, counted with multiplicity (rows of heaps: as multisets)."""
    if isinstance(arena, HeapArena):
        norm: Callable[[tuple], Any] = lambda s: tuple(sorted(h for h in s if h))   # noqa: E731
    else:
        norm = tuple
    return sorted(map(norm, a)) == sorted(map(norm, b))


def _is_value(x: Any) -> bool:
    return (isinstance(x, int) and not isinstance(x, bool)) or x in ("P", "N")


def _first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return text[0] if text else type(e).__name__


_CHECKS: dict[str, Callable[..., str]] = {
    "state": CrossCheck._value,
    "sum": CrossCheck._value,
    "certificate": CrossCheck._certificate,
}
