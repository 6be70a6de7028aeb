"""Wheels: a vertex game on the wheel W_n (hub 0 joined to every vertex of the rim C_{n-1}) whose
start has the outcome of the full path P_{n-2}, by one special vertex and the first moves.

For a game with one bool field per vertex (present/removed) and one move per vertex, the step
(:func:`wheel_step`) is checked on a wheel W_m:

1. the hub's move from the full wheel is legal and leaves H, the hub removed and the rim full;
2. from H some move is legal, and every legal one removes exactly one rim vertex v and nothing
   else, leaving R_v (hub and v removed);
3. from the full wheel every other legal move leads to a position with a move to some R_v;
4. for every rim vertex v, with the hub and v held removed, the rule on W_m *is* the rule on the
   path P_{m-2} of the other rim vertices in rim order (Z3 on the IR: every move's guard and
   updates equal, the moves at removed vertices never legal): R_v is the full P_{m-2}.

Then the full W_m is N iff P_{m-2} is N: if P_{m-2} is N, H (whose options are all R_v's) is P
and the hub's move wins; if P_{m-2} is P, H is N and so is every other option (3.), so W_m is P.

>>> from grundy.spec.games import get_game
>>> wheel_step(get_game("grim"), 7) is None
True
"""
from __future__ import annotations

from typing import Any

from ..spec.expr import Expr, lift
from ..spec.game import Game, Rules
from ..spec.structure import Structure
from .counting import _check_form

__all__ = ["wheel", "wheel_step", "same_rule"]


def wheel(n: int) -> Structure:
    """W_n: hub 0 joined to the rim 1..n-1, a cycle in that order (n >= 4)."""
    rim = list(range(1, n))
    edges = [(0, v) for v in rim] + [(min(v, w), max(v, w)) for v, w in zip(rim, rim[1:] + rim[:1], strict=True)]
    return Structure.graph(range(n), sorted(set(edges)))


def _apply(rules: Rules, state: tuple[int, ...], i: int) -> tuple[int, ...] | None:
    from ..spec.expr import evaluate
    env: dict[str, Any] = {rules.schema.var_name(k): bool(x) for k, x in enumerate(state)}
    m = rules.moves[i]
    if not evaluate(m.guard, env):
        return None
    out = list(state)
    for slot, e in m.update.items():
        out[slot] = int(bool(evaluate(e, env)))
    return tuple(out)


def _options(rules: Rules, state: tuple[int, ...]) -> list[tuple[int, ...]]:
    return [t for i in range(len(rules.moves)) if (t := _apply(rules, state, i)) is not None]


def same_rule(big: Rules, removed: set[int], order: list[int], small: Rules) -> str | None:
    """None when Z3 proves that, with the vertices ``removed`` of ``big`` held removed, the rule on
    ``big`` is the rule on ``small`` whose vertex j is ``order[j]``: the move at order[j] has the
    guard and updates of small's move at j, a move at a removed vertex is never legal and never
    brings a vertex back; else why not (all obligations in one query, then the first that fails)."""
    import z3

    from .smt.encode import encoding
    from .smt.runner import check_within
    enc = encoding(small)             # (cached: every rim vertex of a wheel reads the same path)
    duties = _duties(big, removed, order, small)
    s = z3.Solver()                   # (CPU seconds: the same answer on a busy machine)
    s.add(z3.Not(_conjunction([enc.to_z3(e) for _, e in duties])))
    if check_within(s, 60.0)[0] == z3.unsat:
        return None
    for why, e in duties:
        s = z3.Solver()
        s.add(z3.Not(enc.to_z3(e)))
        if check_within(s, 20.0)[0] != z3.unsat:
            return why
    return "Z3 could not decide"


def _conjunction(terms: list) -> Any:
    """``z3.And(terms)`` of Boolean terms (the same term, made without z3's coercion of each)."""
    import z3

    from .smt.translate import _connective
    return _connective(z3.Z3_mk_and, tuple(terms)) if terms else z3.BoolVal(True)


def _duties(big: Rules, removed: set[int], order: list[int], small: Rules) -> list[tuple[str, Expr]]:
    """What :func:`same_rule` proves, as (what fails, a formula over small's state that must be valid)."""
    from .smt.rewrite import substituter
    sub: dict[str, Expr] = {big.schema.var_name(v): lift(False) for v in removed}
    sub.update({big.schema.var_name(v): small.schema.variables[j] for j, v in enumerate(order)})
    at = substituter(sub)                    # one memo for every term (the same nodes as one call each)
    out: list[tuple[str, Expr]] = []
    for v in sorted(removed):
        out.append((f"the move at removed vertex {v} of {big.structure.n} can be legal", ~at(big.moves[v].guard)))
    for j, v in enumerate(order):
        mb, ms = big.moves[v], small.moves[j]
        gb = at(mb.guard)
        out.append((f"the guard of the move at {v} differs from P_{small.structure.n}'s at {j}",
                    (gb & ms.guard) | (~gb & ~ms.guard)))
        for slot in sorted(set(mb.update) | {order[k] for k in ms.update}):
            if slot in removed:
                out.append((f"the move at {v} brings removed vertex {slot} back",
                            ~ms.guard | ~at(mb.update[slot])))
                continue
            k = order.index(slot)
            after_b = at(mb.update.get(slot, big.schema.variables[slot]))
            after_s = ms.update.get(k, small.schema.variables[k])
            out.append((f"the move at {v} updates {slot} unlike P_{small.structure.n}'s at {j}",
                        ~ms.guard | ((after_b & after_s) | (~after_b & ~after_s))))
    return out


def wheel_step(game: Game, m: int) -> str | None:
    """None when the step of the module's text holds on W_m, else where it fails."""
    from .locality import path
    rules = _check_form(game, wheel(m))
    full = tuple([1] * m)
    hub = _apply(rules, full, 0)
    if hub != tuple([0] + [1] * (m - 1)):
        return f"on W_{m} the hub's move from the full wheel does not leave the full rim ({hub})"
    after = _options(rules, hub)
    rests = {t for t in after if t[0] == 0 and sum(t) == m - 2}
    if not after or len(rests) != len(after):
        return f"on W_{m} a move from the full rim does not remove exactly one rim vertex"
    for t in _options(rules, full):
        if t != hub and not any(u in rests for u in _options(rules, t)):
            return f"on W_{m} the first move to {t} has no move to the rim less one vertex"
    small = _check_form(game, path(m - 2))
    for t in rests:
        v = t.index(0, 1)
        order = [1 + (v - 1 + k) % (m - 1) for k in range(1, m - 1)]
        bad = same_rule(rules, {0, v}, order, small)
        if bad is not None:
            return f"on W_{m} with the hub and {v} removed: {bad}"
    return None
