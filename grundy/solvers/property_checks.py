"""The checks of :func:`grundy.solvers.gamecheck.check_game`, one property at a time, on the
positions it chose: rank and domains (exhaustively and by Z3), symmetry (the options of an
image are the images of the options), decomposition (a value is the XOR of its components')."""
from __future__ import annotations

from typing import Callable, Protocol

from ..spec.expr import all_of
from ..spec.game import Rules
from ..spec.position import Position
from . import premises
from .limits import SolverLimit

__all__ = ["OK", "VIOLATED", "UNKNOWN", "NOT_DECLARED", "MovesSolver", "MakeSolver"]

State = tuple[int, ...]

OK, VIOLATED, UNKNOWN, NOT_DECLARED = "ok", "violated", "unknown", "not declared"


class MovesSolver(Protocol):
    """What the decomposition check asks of a solver: Grundy values (normal play); it raises
    :class:`~grundy.solvers.limits.SolverLimit` past ``max_positions``."""

    def grundy(self, pos: Position) -> int: ...


MakeSolver = Callable[..., MovesSolver]
"""A solver factory, called with ``max_positions``, ``symmetry``, ``decompose`` and ``native``
(the decomposition check asks for the values from the moves alone: no reduction, no kernel)."""


def _merge(explicit: str | None, z: tuple[str | None, str], cover: str, what: str) -> tuple[str, str]:
    """Status and detail from the exhaustive check (a violation or None) and Z3's (status, text)."""
    if explicit is not None:
        return VIOLATED, explicit
    zstatus, ztext = z
    if zstatus == "violated":
        return VIOLATED, ztext
    extra = {"holds": f"; Z3: {ztext}", "unknown": f"; Z3: unknown ({_first(ztext)})"}.get(zstatus or "", "")
    return OK, f"{what}: checked on {cover}{extra}"


def _first(text: str) -> str:
    """The first clause of Z3's reason (it lists every undecided query)."""
    head, sep, _ = text.partition("; ")
    return head + (", ..." if sep else "")


def _smt(rules: Rules, timeout: float, lone: Rules | None = None) -> dict[str, tuple[str, str]]:
    """Z3 on the rank and domain obligations, unbounded integers: {obligation: (status, text)}.
    ``lone``: the game's one-heap rule (a game whose positions are sums of heaps), whose domain
    obligation is asked on a lone heap (slot 0; the other slots empty, for its parts) instead of
    on every row of slots: a row of full slots leaves no room for a split by design, and a
    position read is laid out with room for every part it reaches."""
    try:
        from .smt import obligations
        results = [(rules, r) for r in obligations.check_rank(rules, timeout=timeout, minimize=False)]
        if lone is not None:
            st = lone.state
            alone = all_of(st.heap[i] == 0 for i in range(1, lone.structure.n))
            results = [x for x in results if x[1].obligation != "domain"] + [
                (lone, r) for r in obligations.check_rank(lone, alone, timeout=timeout, minimize=False)
                if r.obligation == "domain"]
    except Exception as e:   # an expression Z3 cannot take: the exhaustive check stands alone
        return {"rank": ("unknown", f"{type(e).__name__}: {e}"), "domain": ("unknown", f"{type(e).__name__}: {e}")}
    out: dict[str, tuple[str, str]] = {}
    for used, r in results:
        prev = out.get(r.obligation)
        if prev is not None and prev[0] == "violated":
            continue
        if r.status == "violated":
            text = _smt_violation(used, r)
        elif r.status == "holds":
            text = f"proved for {r.scope or 'all sizes'}"
            if lone is not None and r.obligation == "domain":
                text += " (the one-heap rule, on a lone heap: every part finds an empty slot)"
        else:
            text = r.detail
        if prev is None or r.status != "holds":
            out[r.obligation] = (r.status, text)
    return out


def _smt_violation(rules: Rules, r) -> str:
    state = tuple(r.state) if r.state is not None else None
    ch = dict(r.choices or {})
    mi = ch.pop("move", None)
    where = rules.describe(state) if state is not None else "some position"
    if mi is None:
        return f"{rules.game.name}: {r.detail} at {where} (found by Z3)"
    m = rules.moves[mi]
    cv = tuple(ch.get(c.name, 0) for c in m.choices)
    if r.obligation == "domain" and state is not None:
        return str(rules.domain_error(mi, cv, state)) + " (found by Z3)"
    return f"{rules.game.name}: move {rules.move_text(mi, cv)!r} does not lower the rank at {where} (found by Z3)"


def _rank_violation(rules: Rules, code, states: list[State]) -> str | None:
    rank, name = code.rank, rules.game.name
    for s in states:
        r = rank(s)
        if r < 0:
            return f"{name}: the rank is {r} < 0 at {rules.describe(s)}"
        for mi, cv, t in code.options(s):
            if rank(t) >= r:
                return (f"{name}: move {rules.move_text(mi, cv)!r} does not lower the rank "
                        f"({r} -> {rank(t)}) at {rules.describe(s)}")
    return None


def _symmetries(rules: Rules) -> tuple[list[tuple[str, Callable[[State], State]]], Callable[[State], State]] | None:
    """The generators of the group the solver would reduce by (:func:`premises.symmetry_group`),
    as (name, map on states), and the canonical form of that group."""
    from .explicit.compile import compile_rules
    from .symmetric import Plan
    group = premises.symmetry_group(rules)
    if group is None:
        return None
    plan = Plan.of(rules, force=True)
    canon = (plan.canonical if plan is not None and not rules.heap_sorting
             else compile_rules(rules, symmetry=True, decompose=False).canonical)
    return [(g.what, g.image) for g in group.generators], canon


def _symmetry(rules: Rules, code, states: list[State], cover: str) -> tuple[str, str]:
    if not rules.game.symmetric:
        return NOT_DECLARED, "the game declares no symmetry (symmetric = False)"
    found = _symmetries(rules)
    if found is None:
        return NOT_DECLARED, "no symmetry used on this structure"
    maps, canon = found
    if not maps:
        return NOT_DECLARED, "no symmetry on this structure"
    name = rules.game.name
    for s in states:
        opts = code.options(s)
        mine = {canon(t) for _, _, t in opts}
        for what, sigma in maps:
            img = sigma(s)
            if img == s:
                continue
            theirs = {canon(t) for t in code.successors(img)}
            if mine == theirs:
                continue
            for mi, cv, t in opts:
                if canon(t) not in theirs:
                    return VIOLATED, (f"{name}: the rule does not commute with {what}: at "
                                      f"{rules.describe(s)} move {rules.move_text(mi, cv)!r} reaches "
                                      f"{rules.describe(t)}, but no move from {rules.describe(img)} "
                                      f"reaches its image (up to symmetry)")
            for t in code.successors(img):
                if canon(t) not in mine:
                    return VIOLATED, (f"{name}: the rule does not commute with {what}: from "
                                      f"{rules.describe(img)} a move reaches {rules.describe(t)}, but no "
                                      f"move from {rules.describe(s)} reaches its image (up to symmetry)")
    return OK, (f"{len(maps)} symmetr{'y commutes' if len(maps) == 1 else 'ies commute'} with the rule "
                f"on {cover}")


def _decomposition(rules: Rules, code, states: list[State], cover: str,
                   make_solver: MakeSolver) -> tuple[str, str]:
    if rules.present is None:
        return NOT_DECLARED, "the game declares no decomposition"
    from .explicit.compile import compile_rules
    split = compile_rules(rules, symmetry=False, decompose=True).components
    whole = make_solver(max_positions=200_000, symmetry=False, decompose=False, native=False)
    game, g = rules.game, rules.structure
    n = 0
    for s in states:
        comps = split(s)
        if comps is None:
            continue
        n += 1
        try:         # the value from the moves, against the XOR of the components' (each from its moves)
            a = whole.grundy(Position(game, g, s))
            b = 0
            for c in comps:
                b ^= whole.grundy(Position(game, g, c))
        except SolverLimit:
            return UNKNOWN, f"compared at {n - 1:,} splitting positions, then a position too large to solve"
        if a != b:
            why = _diagnose(rules, code, s, comps)
            return VIOLATED, (f"{rules.game.name}: {rules.describe(s)} splits into {len(comps)} "
                              f"components but its Grundy value is {a}, not {b} (the XOR of theirs)"
                              + (f": {why}" if why else ""))
    if n == 0:
        return OK, f"no position checked splits ({cover}): nothing to compare"
    return OK, f"value = XOR of the components' values at {n:,} splitting positions of {cover}"


def _diagnose(rules: Rules, code, s: State, comps: list[State]) -> str:
    """A move of the whole position that is no move of a single component, or the reverse."""
    from .premises.decomposition import component_moves_differ  # the one replay of a split (Z3's premise too)
    owned = {sl for slots in rules.element_slots for sl in slots}
    return component_moves_differ(rules, code, s, [(p, {sl for sl in owned if p[sl] == s[sl]})
                                                              for p in comps])
