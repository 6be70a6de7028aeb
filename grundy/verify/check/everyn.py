"""Claims on an open family (``complete(n=at_least(1))``): checked explicitly on the first
members, then for every size by counting (:mod:`grundy.solvers.counting`; from option sets,
:mod:`grundy.solvers.counting_options`; on a family ``under`` an invariant, on the game it
projects to, :mod:`grundy.solvers.invariant`), by locality on paths and cycles, or by the hub's
step on wheels (:mod:`grundy.solvers.wheels`).

The verdict:

- the explicit sweep of the first members refutes: ``refuted``, its counterexample (the first
  members are swept smallest first, so it is on the smallest member that fails);
- the family does not reduce: the sweep's verdict, its scope ending "(not reducible: why)";
- it reduces, the counting rule agrees with the rule on every first member, and Z3 proves the
  statement on the quotient game over unbounded integers: ``proved``, "for every ...";
- Z3 finds an obligation violated on the quotient: the member with those counts is swept
  explicitly, and its counterexample refutes the claim; Z3 undecided: ``unknown``.
"""
from __future__ import annotations

import copy
from typing import Any, Callable

from ...solvers.counting import Counted, Refused, agrees, template_sizes
from ...solvers.counting_options import reduce_any
from ...spec.expr import INT, lift
from ...spec.games import GAMES
from ...spec.structure import Structure
from ..claims import Claim
from ..families import Family
from ..families.open import ArcsOf, Counts, OpenCycles, OpenFamily, OpenPaths, OpenWheels, PathOutcome, RunsOf
from ..verdict import PROVED, REFUTED, UNKNOWN, VERIFIED, Verdict

__all__ = ["check_open", "check_paths", "check_wheels", "bounded_claim", "key_claim"]

KINDS = ("char", "grundy", "outcome", "conj")     # a statement on the counts (no strategy, no table)
THEORY = "Z3, linear integer arithmetic over unbounded counts"
# the one premise no finite check can prove: the game's code is one rule for every size (it is read,
# and compared with the reduced rule, on the members named in the scope)
UNIFORM = "premise: the game's code is one rule for every size, as on the members read"


def _present(claim: Claim) -> Callable[[Structure, Any], Callable[[int], Any]]:
    """Whether a vertex is present: the game's one bool field over vertices (what the counting
    rule counts), else the game's ``present`` where it decomposes over vertices; a game with
    neither has no counts (a ClaimError)."""
    game = GAMES[claim.game]
    inv = getattr(claim.family, "invariant", None)
    if inv is not None and len(inv.vertex) == 1:        # present: the vertex holds the present value
        (field, (_, b)), = inv.vertex.items()
        return lambda g, s: lambda v: getattr(s, field)[v] == b
    fields = game.fields(claim.family.items()[0][1]) if claim.family.items() else []
    if len(fields) == 1 and fields[0].kind == "bool" and fields[0].over == "vertices":
        name = fields[0].name
        return lambda g, s: lambda v: getattr(s, name)[v]
    if game.decompose_over == "vertices":
        return lambda g, s: lambda v: game.present(g, s, v)
    raise claim.fail(f"an open family's statement reads the present vertices per part: {game.name} has "
                     "neither one bool field per vertex nor a present() over vertices")


def _on_counts(fam: OpenFamily, fn: Callable, present: Callable) -> Callable:
    return lambda g, s: fn(g, fam.counts(g, present(g, s)))


def bounded_claim(claim: Claim, fam: OpenFamily, members: Family) -> Claim:
    """The claim on the given members, its statement (and ``assume``) reading the counts of the
    game's one field."""
    present = _present(claim)
    c = copy.copy(claim)
    c.family, c.full_family = members, None
    c.statement = _on_counts(fam, claim.statement, present)
    if claim.assume is not None:
        c.assume = _on_counts(fam, claim.assume, present)
    c.uses = []
    return c


def key_claim(claim: Claim, profile: str) -> Claim:
    """What a cached verdict of a claim on an open family depends on, as a claim on structures:
    its statement on the first members the profile checks and on the template the counting
    rule is read on (the rules of each go into the key)."""
    fam = claim.family
    if isinstance(fam, OpenPaths):                 # the first members and the template of the radius
        from ...solvers.locality import MAX_RADIUS, path
        members = fam.for_profile(profile)
        c = copy.copy(claim)
        t = 4 * MAX_RADIUS + 7
        c.family, c.full_family = Family(members.items() + [(f"P_{t}", path(t))], members.scope), None
        return c
    assert isinstance(fam, OpenFamily)
    members = fam.for_profile(profile)
    sizes = template_sizes(fam.shape)
    g = fam.shape.build(sizes)
    fam.sizes[g] = sizes
    items = members.items() + ([] if any(h == g for _, h in members.items()) else [(fam.shape.label(sizes), g)])
    return bounded_claim(claim, fam, Family(items, members.scope))


def check_open(claim: Claim, profile: str, run: Callable[..., None], v: Verdict, deadline: Any) -> None:
    """Check ``claim`` on its open family into ``v``: ``run(claim, v)`` runs the explicit check
    of a claim (the first members)."""
    fam = claim.family
    if isinstance(fam, OpenWheels):
        check_wheels(claim, profile, run, v)
        return
    if isinstance(fam, OpenPaths):
        check_paths(claim, profile, run, v)
        return
    assert isinstance(fam, OpenFamily)
    if claim.kind not in KINDS:
        raise claim.fail(f"a claim on an open family is of kind {', '.join(KINDS)}, not {claim.kind!r}")
    members = fam.for_profile(profile)
    run(bounded_claim(claim, fam, members), v)
    if v.verdict != VERIFIED:
        return
    bounded = v.scope
    try:
        game, under = _under_invariant(claim, fam, members, profile)
        red = reduce_any(game, fam.shape)
        for _, g in members.items():
            bad = agrees(red, fam.sizes[g])
            if bad is not None:
                raise Refused(f"the counting rule read on {fam.shape.label(red.template)} differs {bad}")
    except Refused as e:
        v.scope = f"{bounded} (not reducible: {e})"
        v.detail = f"not reducible: {e}"
        return
    status, results = _prove(claim, red, deadline.left())
    v.obligations += [{"structure": f"counts on {fam.shape.name}", "obligation": r.obligation,
                       "status": r.status, "seconds": round(r.seconds, 3), "detail": r.detail} for r in results]
    if status == PROVED:
        v.verdict = PROVED
        v.coverage["smt"] = "all sizes"
        v.scope = (f"for every {fam.scope.split('every ', 1)[1]} (by counting: {claim.game} on {fam.shape.name} "
                   f"is a game on the counts of present vertices per part, threshold {red.cap}; the rule "
                   f"symmetric within the parts ({red.symmetry} on {fam.shape.label(red.template)}) and equal "
                   f"to the counting rule on every count vector of the first members{under}; the statement proved on "
                   f"the counts, {THEORY}, the total count as the rank; {UNIFORM}); explicit: {bounded}")
        return
    bad = next((r for r in results if r.status == "violated"), None)
    if bad is not None and bad.state is not None:
        _refute_at(claim, fam, tuple(bad.state), run, v)
        if v.verdict == REFUTED:
            return
    v.verdict = UNKNOWN
    v.detail = "; ".join(f"{r.obligation}: {r.status} ({r.detail})" for r in results if r.status != "holds")
    v.scope = f"{bounded}; for every size: Z3 inconclusive on the counts ({THEORY})"


def _under_invariant(claim: Claim, fam: OpenFamily, members: Family, profile: str) -> tuple[Any, str]:
    """The game the counting reads: the claim's own, or, on a family ``under`` an invariant, its
    projection (:mod:`grundy.solvers.invariant`) once the claim's bounds on every first member are
    found within the invariant and Z3 proves it inductive on the template; with the words the
    scope adds."""
    from ...solvers.counting import template_sizes
    from ...solvers.invariant import holds_on_slots, project, prove_inductive
    from ..families import slot_values
    game = GAMES[claim.game]
    inv = fam.invariant
    if inv is None:
        return game, ""
    bounds = claim.bounds_for(profile)
    for label, g in members.items():
        rules = game.rules(g)
        inv.expr(rules)                                  # the invariant names the game's fields
        bad = holds_on_slots(inv, rules, slot_values(rules, bounds))
        if bad is not None:
            raise Refused(f"the claim's positions on {label} are not within the invariant: {bad}")
    sizes = template_sizes(fam.shape)
    template = fam.shape.build(sizes)
    how = ""
    for g in [template] + [g for _, g in members.items() if g != template]:   # the template, then each member
        ok, why = prove_inductive(game.rules(g), inv)
        if not ok:
            raise Refused(f"the invariant {inv} is not inductive: {why}")
        how = how or why
    return project(game, inv), (f", on the positions where {inv} (the claim's positions within it on every "
                                f"first member; {how} on {fam.shape.label(sizes)}, and on every first member)")


def _prove(claim: Claim, red: Counted, left: float) -> tuple[str, list]:
    from ...solvers import smt
    rules = red.rules()
    counts = Counts([rules.state.count[i] for i in range(red.shape.k)])
    expr = lift(claim.statement(red.shape, counts))
    assume = red.assume(rules)
    if claim.assume is not None:
        assume = assume & lift(claim.assume(red.shape, counts))
    t = max(1.0, min(left, 600.0))
    results = list(smt.check_rank(rules, assume, timeout=t))
    if expr.sort == INT:
        results += smt.check_grundy_formula(rules, expr, assume, convention=claim.convention, timeout=t)
    else:
        results += smt.check_partition(rules, expr, assume, convention=claim.convention, timeout=t)
    ok = all(r.status == "holds" for r in results)
    return (PROVED if ok else UNKNOWN), results


def _refute_at(claim: Claim, fam: OpenFamily, c: tuple[int, ...], run: Callable[..., None], v: Verdict) -> None:
    """Sweep the member whose open parts have the violating counts (at least their least size):
    a counterexample there refutes the claim."""
    sizes = tuple(f if f is not None else max(x, low, 1)
                  for x, f, low in zip(c, fam.shape.fixed, fam.shape.lows, strict=True))
    g = fam.shape.build(sizes)
    fam.sizes[g] = sizes
    one = Family([(fam.shape.label(sizes), g)])
    w = Verdict(v.id, v.kind, UNKNOWN, v.expected, paper=v.paper)
    run(bounded_claim(claim, fam, one), w)
    if w.verdict == REFUTED:
        v.verdict, v.counterexample, v.scope = REFUTED, w.counterexample, w.scope
        v.coverage.update(w.coverage)


def check_paths(claim: Claim, profile: str, run: Callable[..., None], v: Verdict) -> None:
    """A claim on every path: explicitly on the first members, then for every n by locality
    (the heap game of the runs, proved equal to the claimed code on every heap)."""
    fam = claim.family
    assert isinstance(fam, OpenPaths)
    stmt = claim.statement
    on_cycles = isinstance(fam, OpenCycles)
    from ..kinds import kind_of
    formula = kind_of(claim).serves_as == "grundy"        # the claim states a Grundy value
    if on_cycles and (not isinstance(stmt, ArcsOf) or not formula):
        raise claim.fail("a claim on cycles(n=at_least(...)) is of kind grundy with statement=arcs_of(code)")
    if not isinstance(stmt, RunsOf) or not formula:
        raise claim.fail("a claim on paths(n=at_least(...)) is of kind grundy with statement=runs_of(code)")
    members = fam.for_profile(profile)

    def reduce() -> str:
        how = _by_locality(claim, stmt, members)
        if on_cycles:
            assert isinstance(stmt, ArcsOf)
            how += "; " + _cycle_step(claim, stmt, members)
        return how
    _explicit_then_reduced(claim, members, fam.low, reduce, run, v)


def _explicit_then_reduced(claim: Claim, members: Family, low: int, reduce: Callable[[], str],
                           run: Callable[..., None], v: Verdict) -> None:
    """The claim checked explicitly on the family's first members; if verified there, ``reduce()``
    (the reduction's proof: its words for the scope, or Refused) makes it proved for every n >= low,
    else the bounded verdict stands with the reason it does not reduce."""
    c = copy.copy(claim)
    c.family, c.full_family, c.uses = members, None, []
    run(c, v)
    if v.verdict != VERIFIED:
        return
    bounded = v.scope
    try:
        how = reduce()
    except Refused as e:
        v.scope = f"{bounded} (not reducible: {e})"
        v.detail = f"not reducible: {e}"
        return
    v.verdict = PROVED
    v.coverage["smt"] = "all sizes"
    v.scope = f"for every n >= {low} ({how}; {UNIFORM}); explicit: {bounded}"


def _by_locality(claim: Claim, stmt: RunsOf, members: Family) -> str:
    from ...solvers.heaps.codeproof import rule_is_code
    from ...solvers.locality import path, path_agrees, path_heaps
    from ...solvers.premises import PROVED as HOLDS
    from ...solvers.premises import prove_decomposition
    from ...spec.heaprule import parse_octal
    game = GAMES[claim.game]
    heaps = path_heaps(game)
    lengths = sorted({g.n for _, g in members.items()})
    for _, g in members.items():
        bad = path_agrees(heaps, g.n)
        if bad is not None:
            raise Refused(f"the heap rule read on P_{heaps.big} {bad}")
    dec = prove_decomposition(game.rules(path(heaps.big + 2)))
    if dec.status != HOLDS:
        raise Refused(f"the runs are not independent components on P_{heaps.big + 2}: {dec.status}: {dec.how}")
    from ...solvers.locality import inert_sizes, rule_is_code_up_to
    from ...spec.heaprule import rule_heaps
    if claim.convention != "normal":
        raise Refused("the values of a sum are the XOR of its parts' in normal play only")
    one = heaps.heap_rule(rule_heaps(1))
    assert one is not None                       # a heap rule's positions are sums of heaps
    code = parse_octal(stmt.code)
    ok, why = rule_is_code(one, code)
    inert: tuple[int, ...] = ()
    if not ok:
        inert = inert_sizes(heaps, code)
        if inert:
            ok, why = rule_is_code_up_to(one, code, inert)
    if not ok:
        raise Refused(f"the heap game of its runs is not octal {stmt.code}: {why}")
    upto = (f", once the heaps of {', '.join(map(str, inert))} (no move in either: value 0) are dropped"
            if inert else "")
    return (f"by locality: {claim.game} on paths is a heap game on its runs of present vertices, radius "
            f"{heaps.radius}, read on P_1..P_{heaps.big} and equal to the rule on P_{lengths[0]}..P_{lengths[-1]}; the runs "
            f"independent ({dec.how}); its options those of octal {stmt.code} on every heap{upto} (Z3, "
            f"unbounded integers); so the values are octal {stmt.code}'s at the runs' lengths")


def _cycle_step(claim: Claim, stmt: ArcsOf, members: Family) -> str:
    """The first move on a cycle: from the full C_n every move leaves one arc of n - removed (read
    on the first members and on cycles past twice the radius), and the arcs are independent."""
    from ...solvers.locality import _radius, _rules, cycle, cycle_step
    from ...solvers.premises import PROVED as HOLDS
    from ...solvers.premises import prove_decomposition
    game = GAMES[claim.game]
    r = _radius(_rules(game, 13))
    sizes = sorted({g.n for _, g in members.items()} | set(range(2 * r + 3, 4 * r + 8)))
    bad = cycle_step(game, stmt.removed, sizes)
    if bad is not None:
        raise Refused(bad)
    dec = prove_decomposition(game.rules(cycle(2 * r + 5)))
    if dec.status != HOLDS:
        raise Refused(f"the arcs are not independent components on C_{2 * r + 5}: {dec.status}: {dec.how}")
    return (f"on C_n every move from the full cycle leaves one arc of n - {stmt.removed} (read on C_{sizes[0]}.."
            f"C_{sizes[-1]}; a move sees its radius only), the arcs independent ({dec.how}): so the full C_n "
            f"has the value mex{{G(n - {stmt.removed})}}")


def check_wheels(claim: Claim, profile: str, run: Callable[..., None], v: Verdict) -> None:
    """A claim on every wheel: the full W_n is P iff the full P_{n-2} is P. Explicitly on the first
    members, then for every n by the hub's step (:func:`grundy.solvers.wheels.wheel_step`) read on
    the first members and on wheels whose rim path is past the rule's radius."""
    from ...solvers.locality import _radius, _rules
    from ...solvers.wheels import wheel_step
    from ..families import slot_values
    from ..kinds import kind_of
    fam = claim.family
    assert isinstance(fam, OpenWheels)
    stmt = claim.statement
    if kind_of(claim).serves_as != "P" or not isinstance(stmt, PathOutcome) or stmt.game != claim.game:
        raise claim.fail("a claim on wheels(n=at_least(...)) is of kind char with statement=path_outcome(its game)")
    members = fam.for_profile(profile)
    game = GAMES[claim.game]
    for label, g in members.items():
        if slot_values(game.rules(g), claim.bounds_for(profile)) != [[1]] * g.n:
            raise claim.fail(f"a claim on wheels(n=at_least(...)) is about the full wheel: its bounds on {label} "
                             "give other positions")
    def reduce() -> str:
        r = _radius(_rules(game, 13))
        sizes = sorted({g.n for _, g in members.items()} | set(range(2 * r + 5, 2 * r + 9)))
        for m in sizes:
            bad = wheel_step(game, m)
            if bad is not None:
                raise Refused(bad)
        return (f"by the hub: the hub's move leaves the full rim, whose every move removes one rim vertex; every "
                f"other first move has a move to the rim less one vertex; with the hub and a rim vertex removed "
                f"the rule is the rule on P_(n-2) (Z3 on the IR); so W_n is P iff P_(n-2) is; read on "
                f"W_{sizes[0]}..W_{sizes[-1]}, the rim's moves seeing radius {r} on the rim")
    _explicit_then_reduced(claim, members, fam.low, reduce, run, v)
