"""Claims at listed positions (a :class:`~grundy.verify.families.Positions` family): each
position read in the claim's convention and judged in the family's order; sums of positions.
"""
from __future__ import annotations

import json
from typing import Any

from ...solvers.solver import Solver
from ...spec.expr import Expr, evaluate
from ...spec.games import GAMES
from ...spec.position import Position, SumPosition, read_position
from ...spec.structure import Structure
from ..claims import Claim
from ..families import Positions
from ..recheck import CrossCheck
from ..verdict import Counterexample
from .deadline import Deadline, Progress, TimedOut, _nothing, _Ticker
from .instance import Instance
from .results import SweepResult
from .scope import _conditions, _play


class SumInstance:
    """A claim at sums of positions: ``statement(g, s)`` gets the parts' structures and their
    concrete states (``s[i].heap[0]`` is an int) and returns the claimed value (a bool: true at
    the P-positions; an int: the Grundy value)."""

    def __init__(self, claim: Claim, solver: Solver, search: bool = False):
        self.claim, self.solver, self.search = claim, solver, search

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

    def judge(self, pos: SumPosition) -> tuple[Any, Any, list[dict] | None] | None:
        c = self.claimed(pos)
        if self.search:                  # the whole sum searched: the Sprague-Grundy theorem not used
            v = self.solver.grundy_by_search(pos)
            a: Any = v if isinstance(c, int) else ("N" if v else "P")
        else:
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
    for i, ((name, _), v) in enumerate(zip(sch.slots, state, strict=False)):
        f = sch.fields[name]
        lo, hi = {"int": (f.lower, None), "bool": (0, 1), "vertex": (0, g.n - 1),
                  "edge": (-1, len(g.edges) - 1)}[f.kind]
        if isinstance(v, bool) and f.kind != "bool" or not isinstance(v, int) or v < lo or (hi is not None and v > hi):
            raise ValueError(f"state {state}: {sch.var_name(i)} = {v!r} is outside the field's domain")


def sweep_listed(claim: Claim, solver: Solver, deadline: Deadline, progress: Progress = _nothing,
                 cross: CrossCheck | None = None, search: bool = False) -> SweepResult:
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
                ticker.tick(lambda: f"explicit: {checked:,} positions")  # noqa: B023  (called at once)
            seen.add(tuple(p.structure for p in pos.parts) if isinstance(pos, SumPosition) else pos.structure)
            if isinstance(pos, SumPosition):
                sums_ = sums_ or SumInstance(claim, solver, search)
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
    how = ""
    if sums_ is not None:
        how = ("; each sum's value by a search over the whole sum (Sprague-Grundy not used)" if search else
               "" if claim.convention == "misere" else
               "; a sum's value is the XOR of its parts' values (the Sprague-Grundy theorem, used)")
    return SweepResult(checked, None, True, f"{fam.scope}{_conditions(claim)}: {checked:,} positions{how}", met,
                       len(seen), len(listed))
