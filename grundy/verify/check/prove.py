"""The Z3 proof of a claim: its obligations on every structure of the family (the one-heap
form for a grundy claim on one heap of a sum of heaps; uniqueness of a strategy's moves); a
violation is replayed (:mod:`.replay`).
"""
from __future__ import annotations

from typing import Any, Callable, cast

from ...solvers.solver import Solver
from ...spec.expr import all_of, ite, lift
from ...spec.strategy import plays
from ..claims import Claim, ClaimError, Smt
from ..verdict import ERROR, PROVED, UNKNOWN
from .deadline import Deadline, Progress, TimedOut, _nothing
from .instance import Instance
from .replay import _replay
from .results import ProofResult
from .scope import _fn_text


def prove(claim: Claim, method: Smt, solver: Solver, deadline: Deadline,
          progress: Progress = _nothing) -> ProofResult:
    """Run the SMT obligations on every structure of the family; replay any violation. A
    structure where no position satisfies ``assume`` (asked of Z3 first) is skipped and not
    counted; if that leaves none, the proof covers nothing: ``error``."""
    try:
        from ...solvers import smt
        from ...solvers.smt.capture import at as capture_at
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
        capture_at(claim.id, label)        # certificates: the queries below are this structure's
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
        one = _one_heap_form(inst, smt)
        calls = _one_heap_calls(smt, claim, one, kw) if one is not None else _calls(smt, claim, inst, kw)
        for name, call in calls:
            left = deadline.left()
            if left <= 0:
                raise TimedOut()
            progress(f"smt: {label}, {name}")
            results = call(min(left, 600.0))
            while results:
                r = results.pop(0)
                obligations.append({"structure": label, "obligation": r.obligation, "status": r.status,
                                    "seconds": round(r.seconds, 3), "detail": r.detail})
                if r.status == "violated":
                    if one is not None and r.state is not None:    # the heap, in the claim's slots
                        r.state = tuple(r.state[:len(inst.rules.schema)])
                    res = _replay(inst, r, obligations, deadline)
                    if (res.status == UNKNOWN and r.obligation.startswith("strategy")
                            and not inst.kind.claims_strategy):
                        results = _np_alone(smt, inst, kw, deadline)   # only (NP)'s witness failed:
                        continue                                       # (NP) itself, asked without it
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
    one = make(inst.structure)          # the structure carries the game's parameters (a subtraction set)
    head = inst.rules.schema.var_name(0)
    slots = one.schema.variables
    value = smt.substitute(inst.expr, {head: slots[0]})
    for v in slots[1:]:
        value = value ^ ite(v == 0, 0, smt.substitute(inst.expr, {head: v}))
    return one, value, all_of(v == 0 for v in slots[1:])


def _calls(smt: Any, claim: Claim, inst: Instance, kw: dict) -> list[tuple[str, Callable[[float], list]]]:
    """The obligations on one structure that the claim's kind names (``obligations``), each a
    function of the seconds left: the rank, then the formula (by value) or the partition, and
    the strategy's uniqueness if it is exact."""
    rules = inst.rules
    known: dict[str, Callable[[float], list]] = {
        "rank": lambda t: smt.check_rank(rules, inst.assume_expr, timeout=t, **kw),
        "grundy": lambda t: smt.check_grundy_formula(rules, inst.expr, inst.assume_expr, convention=claim.convention,
                                                     witnesses=claim.witnesses, timeout=t,
                                                     first_violation=True, **kw),
        "partition": lambda t: smt.check_partition(rules, inst.expr, inst.assume_expr, strategy=claim.strategy,
                                                   convention=claim.convention, timeout=t,
                                                   first_violation=True, **kw),
        "uniqueness": lambda t: _uniqueness(smt, inst, t, kw),
    }
    names = inst.kind.obligations(claim, inst.by_value)
    unknown = [n for n in names if n not in known]
    if not names:                       # nothing to prove is no proof
        raise ClaimError(f"claim {claim.id!r}: its kind {claim.kind!r} has no SMT obligation (no smt method)")
    if unknown:
        raise ClaimError(f"claim {claim.id!r}: its kind {claim.kind!r} names no obligation {unknown[0]!r} "
                         f"(obligations: {', '.join(known)})")
    return [(n, known[n]) for n in names]


def _np_alone(smt: Any, inst: Instance, kw: dict, deadline: Deadline) -> list:
    """(NP) without the strategy, after its witness failed where no certificate refutes the claim
    (the obligations before it held: Z3 answers them again from its table of proved queries)."""
    left = deadline.left()
    if left <= 0:
        raise TimedOut()
    claim = inst.claim
    return [r for r in smt.check_partition(inst.rules, inst.expr, inst.assume_expr, convention=claim.convention,
                                           timeout=min(left, 600.0), first_violation=True, **kw)
            if r.obligation == "NP"]


def _one_heap_calls(smt, claim: Claim, one: tuple, kw: dict) -> list:
    rules, value, at = one
    return [("rank", lambda t: smt.check_rank(rules, at, timeout=t, **kw)),
            ("parts", lambda t: smt.check_parts_smaller(rules, at, timeout=t, **kw)),
            ("grundy", lambda t: smt.check_grundy_formula(rules, value, at, witnesses=claim.witnesses,
                                                          closed=False, convention="normal", timeout=t,
                                                          first_violation=True, **kw))]


def _uniqueness(smt, inst: Instance, timeout: float, kw: dict) -> list:
    """The strategy's moves are all the winning moves where ``exact`` holds: no other move from a
    state there outside P lands in P. Asked as the (PN) obligation of the predicate True on the
    game restricted to exactly those other moves: it holds iff none of them is ever legal."""
    import copy

    from ...solvers.smt import substitute
    from ...spec.expr import Var, all_of, any_of
    from ...spec.game import Move
    rules, claim = inst.rules, inst.claim
    g, s = rules.structure, rules.state
    sch = rules.schema
    exact, strategy = cast(Callable, claim.exact), cast(Callable, claim.strategy)   # both set here
    where = lift(exact(g, s)) & ~inst.expr
    cases = plays(strategy, rules)
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
