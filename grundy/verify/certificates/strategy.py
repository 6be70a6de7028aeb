"""Strategy claims in an explicit certificate: the strategy as data (its cases in the exported
IR) and a refutation of the strategy as the checker re-checks it.

A strategy claim (kind ``strategy``) states that from every position the statement calls N the
strategy wins against every reply (and, with ``exact``, that its moves are exactly the winning
moves where ``exact`` holds). Its refutation is one of:

- **the strategy fails** from a start the claim calls N: the line of play, each step as data
  ``[move index, choice values, state after]`` (the strategy's moves and the opponent's replies
  alternating), ending where the strategy has no move, no case applies, its move is not legal,
  or (misère play) its move leaves the opponent without a move. The checker evaluates the
  strategy's cases itself at every one of its turns and applies every move with its own
  interpreter of the rules;
- **not exactly the winning moves** at a position where ``exact`` holds: the checker evaluates
  every case that applies and solves each option's outcome itself.

>>> from grundy.spec import Structure
>>> from grundy.spec.export import NodeTable
>>> from grundy.spec.games import get_game
>>> from grundy.spec.strategy import Play
>>> from grundy.verify import Claim
>>> from grundy.verify.families import heaps
>>> mirror = lambda g, s, rules: [Play(s.heap[0] > s.heap[1], 0, {"k": s.heap[0] - s.heap[1]})]
>>> c = Claim("demo/s", game="nim", kind="strategy", family=heaps(2), bounds={"heap": 3},
...           statement=lambda g, s: s.heap[0] == s.heap[1], strategy=mirror)
>>> t = NodeTable()
>>> [(case["move"], len(case["choices"])) for case in export_strategy(c, get_game("nim").rules(Structure.heaps(2)), t)]
[(0, 1)]
"""
from __future__ import annotations

from typing import Any, cast

from ...solvers.solver import Solver
from ...spec.export import NodeTable
from ...spec.expr import Expr, lift
from ...spec.game import Rules
from ...spec.strategy import plays
from ..claims import Claim
from ..kinds import kind_of
from ..verdict import Verdict
from .common import Unsupported

__all__ = ["STRATEGY_FAILS", "NOT_EXACT", "export_strategy", "strategy_extra", "strategy_refuted"]

STRATEGY_FAILS = "the strategy wins"          # a counterexample's ``claimed`` when the strategy fails
NOT_EXACT = "winning moves exactly"           # ... when its moves are not exactly the winning moves
State = tuple[int, ...]


def export_strategy(claim: Claim, rules: Rules, t: NodeTable) -> list[dict[str, Any]] | None:
    """The strategy's cases in priority order, as ``{"when", "move", "choices"}`` (node indices
    into ``t``; the choices in the order of the move's choices); None when the claim states no
    strategy."""
    if claim.strategy is None or not kind_of(claim).claims_strategy:
        return None
    out = []
    for p in plays(claim.strategy, rules):
        names = [c.name for c in rules.moves[p.move].choices]
        out.append({"when": t.add(cast(Expr, p.when)), "move": p.move,
                    "choices": [t.add(cast(Expr, p.choice[n])) for n in names]})
    return out


def strategy_extra(claim: Claim, rules: Rules, t: NodeTable) -> dict[str, Any]:
    """The keys a strategy claim's instance adds: ``strategy`` and ``exact`` (a node index, where
    the claim states that the strategy's moves are exactly the winning moves); {} otherwise."""
    cases = export_strategy(claim, rules, t)
    if cases is None:
        return {}
    g, s = rules.structure, rules.state
    return {"strategy": cases, "exact": t.add(lift(claim.exact(g, s))) if claim.exact else None}


def _steps(ci: Any, start: State, line: list[dict[str, Any]]) -> list[list[Any]]:
    """The counterexample's line (moves by label, positions as JSON) as ``[move index, choice
    values, state after]``, replayed on grundy's moves."""
    steps, x = [], start
    for k, step in enumerate(line):
        hit = next(((mi, cv, nxt) for mi, cv, nxt in ci.code.options(x)
                    if ci.label_of(mi, cv) == step["move"] and ci.position(nxt).to_json() == step["to"]), None)
        if hit is None:
            raise Unsupported(f"the strategy's line does not replay at step {k + 1} ({step['move']!r})")
        mi, cv, x = hit
        steps.append([mi, [int(v) for v in cv], [int(v) for v in x]])
    return steps


def strategy_refuted(claim: Claim, verdict: Verdict, solver: Solver, inst: Any, state: State) -> dict[str, Any]:
    """The body of a bundle refuting the claim's strategy: the instance (its rules, statement,
    strategy and the start) and the counterexample with the line as data. ``inst``, ``state``:
    the counterexample's instance (its ``export``) and start."""
    from ..check.instance import Instance
    c = verdict.counterexample
    assert c is not None
    if not inst.claim.strategy or inst.table is not None:
        raise Unsupported("a strategy refutation of a claim without a strategy in the IR")
    ci = Instance(claim, inst.label, inst.structure, solver)
    out = inst.export([state], tree=False, box=None, count=1, sample=None)
    cex: dict[str, Any] = {"instance": 0, "position": 0, "state": list(state), "claimed": c.claimed,
                           "actual": c.actual}
    if c.claimed == STRATEGY_FAILS:
        cex["line"] = _steps(ci, state, c.line)
    elif str(c.claimed).startswith(NOT_EXACT):
        cex["exact"] = True
    else:
        raise Unsupported(f"a refutation of the strategy ({c.claimed}: {c.actual}) this format cannot state")
    return {"instances": [out], "counterexample": cex}
