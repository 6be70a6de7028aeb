"""Kind ``period``: G(n + p) = G(n) + s for every heap n >= n0, on one heap of a one-heap game.
A period claim has no statement: its claim is ``period=(n0, p)`` or ``(n0, p, s)``, with the
game's parameters in ``params=``; it is checked by its own check (:func:`check_period`), not by
a sweep and a proof.

The periodicity theorem is chosen from the rule's options (:mod:`grundy.solvers.heaps.bounds`):
a finite take-and-break code, or a hand-written rule whose options equal such a code's on every
heap (compared on the heaps the check reads, and proved by Z3 for all heaps:
:mod:`grundy.solvers.heaps.codeproof`). It says how far the values must be checked: G(n + p) = G(n) for
n0 <= n < end proves the period for every n >= n0, and the verdict is ``proved``. Where no
theorem applies (an infinite code, unequal splits, a saltus s > 0, a rule with options no
code has), the period is checked on the values the bounds allow (``bounds={"heap": N}``; by
default n0 + 3p + 100) and the verdict is ``verified`` up to that heap, saying that no theorem
applies. A heap where the period fails is a counterexample: G(n + p) differs from G(n) + s.

>>> from grundy.verify.claims import Claim
>>> from grundy.verify.check import check_claim
>>> kayles = dict(game="octal", params={"code": "0.77"}, kind="period")
>>> v = check_claim(Claim("demo/kayles", period=(71, 12), expect="proved", **kayles))
>>> v.verdict
'proved'
>>> v = check_claim(Claim("demo/kayles-70", period=(70, 12), expect="refuted", **kayles))
>>> v.verdict, v.counterexample.how
('refuted', 'G(82) = 2, but G(70) = 6: the period fails at n = 70')
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from ...errors import ClaimError, GrundyError, InputError
from ...solvers.heaps import heap_values, sum_of_heaps
from ...solvers.heaps.bounds import code_of_rule, options_match, theorem_for
from ...solvers.reference import Reference, ReferenceLimit
from ...spec.position import Position, read_position
from ..families import Positions, heaps
from ..methods import Smt
from ..recheck import Disagreement
from ..verdict import ERROR, PROVED, REFUTED, VERIFIED, Counterexample, Verdict
from .base import Add, ClaimKind, RulesDigest, register_kind

if TYPE_CHECKING:
    from ..claims import Claim

__all__ = ["Period", "check_period", "read_period", "no_statement"]

EXTRA = 100             # heaps checked beyond n0 + 3p when no theorem applies and no bound is given
RECHECK_HEAPS = 24      # the smallest heaps the reference engine re-solves behind a pass
RECHECK_BUDGET = 400_000     # work units (the reference engine solves whole positions: a heap of 80 is beyond)


def _position(claim: Claim, h: int) -> Position:
    try:
        pos = read_position({"game": claim.game, "heaps": [h], **claim.params})
    except InputError as e:
        raise claim.fail(f"params: {e}") from None
    if not isinstance(pos, Position):
        raise claim.fail("a period claim is on one heap of a one-heap game")
    return pos


def _witness(claim: Claim, h: int) -> dict[str, Any]:
    return {"game": claim.game, **claim.params, "heaps": [h]}


def _reference(claim: Claim, values: list[int], heaps: list[int], tick: Any) -> tuple[int, int]:
    """Re-solve ``heaps`` by the reference engine (within its budget): (re-solved, beyond the
    budget); a Disagreement where it finds another value."""
    ref = Reference(max_work=RECHECK_BUDGET, tick=tick)
    done = beyond = 0
    for h in heaps:
        try:
            got = ref.grundy(_position(claim, h))
        except ReferenceLimit:
            beyond += 1
            continue
        if got != values[h]:
            raise Disagreement(f"the solvers disagree at heap {h}: {got} by the reference engine, "
                               f"{values[h]} by the solver")
        done += 1
    return done, beyond


def check_period(claim: Claim, v: Verdict, profile: str, tick: Any, recheck: str) -> None:
    """Check ``claim`` (kind period) and fill in ``v``."""
    assert claim.period is not None
    n0, p, s = claim.period
    try:
        pos = _position(claim, 0)
    except GrundyError as e:
        raise ClaimError(str(e)) from None
    rule = sum_of_heaps(pos.game, pos.structure)
    if rule is None:
        v.verdict, v.detail = ERROR, (f"claim {claim.id!r}: {claim.game} is not a one-heap game (its positions "
                                      f"are not sums of heaps under one rule): a period needs one")
        return
    code = code_of_rule(rule)
    th = theorem_for(code) if s == 0 else None
    why = ("no theorem for arithmetic periodicity (saltus > 0) applies" if s
           else "no periodicity theorem applies to this rule (an infinite code, unequal splits, or options no "
                "finite code has)")
    differs = None
    if th is not None:
        top = th.needed(n0, p)
        assert code is not None
        differs = options_match(rule, code, top)
        if differs is not None:
            why = f"the rule's options differ from code {code.text}'s at heap {differs}: no theorem applies"
            th = None
        elif rule.code != code:                  # a hand-written rule: the same options on every heap?
            from ...solvers.heaps.codeproof import rule_is_code
            same, because = rule_is_code(rule, code)
            if not same:
                why = (f"the rule's options equal code {code.text}'s on heaps 0..{top} but are not proved equal "
                       f"on every heap ({because}): no theorem applies")
                th = None
    if th is None:
        top = int(claim.bounds_for(profile).get("heap", n0 + 3 * p + EXTRA))
        if top < n0 + p:
            v.verdict, v.detail = ERROR, f"bounds: heap <= {top} reads no heap n >= {n0} with n + {p} (covers nothing)"
            return
        end = top - p + 1
    else:
        end = th.end(n0, p)
    values = heap_values(rule, top)
    v.coverage.update(positions=top + 1, structures=1)
    for n in range(n0, end):
        if values[n + p] != values[n] + s:
            plus = f" + {s}" if s else ""
            how = f"G({n + p}) = {values[n + p]}, but G({n}){plus} = {values[n] + s}: the period fails at n = {n}"
            cex = Counterexample(_witness(claim, n + p), values[n] + s, values[n + p], structure="1 heap", how=how,
                                 state={"heap": [n + p]})
            note = ""
            if recheck != "none":
                done, beyond = _reference(claim, values, [n, n + p], tick)
                note = ("; cross-checked by the reference engine at both heaps" if beyond == 0 else
                        f"; the reference engine re-solved {done} of heaps {n} and {n + p} ({beyond} beyond its "
                        f"budget)")
            v.verdict, v.counterexample = REFUTED, cex
            v.scope = f"one heap: counterexample at n = {n}: {how}{note}"
            return
    plus = f" + {s}" if s else ""
    said = f"G(n + {p}) = G(n){plus} for every n >= {n0}"
    if th is not None:
        assert code is not None
        v.verdict = PROVED
        v.scope = (f"{said}: by {th.name} for code {code.text}, from G(n + {p}) = G(n) checked for "
                   f"{n0} <= n < {end} (G(0..{top}))")
        if rule.code != code:
            v.scope += (f"; the hand-written rule's options are code {code.text}'s on every heap (proved by Z3 "
                        f"over unbounded integers; compared on heaps 0..{top})")
        v.coverage["smt"] = "all sizes"
    else:
        v.verdict = VERIFIED
        v.scope = f"G(n + {p}) = G(n){plus} checked for {n0} <= n <= {end - 1} (G(0..{top})); {why}"
    if recheck != "none":
        done, beyond = _reference(claim, values, list(range(min(RECHECK_HEAPS, top) + 1)), tick)
        v.scope += f"; cross-checked by the reference engine at heaps 0..{done - 1}" if done else ""
        v.coverage.update(cross_checked=done, cross_check_beyond=beyond)


# ------------------------------------------------------------------------------- the field
def no_statement(g: Any, s: Any) -> Any:
    """A period claim's statement: none (the claim is its ``period=``)."""
    from ...spec.expr import lift
    return lift(True)


def read_period(where: str, period: Any, has_statement: bool) -> tuple[int, int, int]:
    """``period=(n0, p)`` or ``(n0, p, s)`` checked: integers, n0 >= 0, p >= 1, s >= 0.

    >>> read_period("c", (71, 12), False)
    (71, 12, 0)
    """
    if has_statement:
        raise ClaimError(f"{where}: a period claim has no statement (its claim is period=(n0, p))")
    ok = (isinstance(period, (tuple, list)) and len(period) in (2, 3)
          and all(isinstance(x, int) and not isinstance(x, bool) for x in period))
    if not ok:
        raise ClaimError(f"{where}: period must be (n0, p) or (n0, p, s) (integers: G(n + p) = G(n) + s "
                         f"for every n >= n0), got {period!r}")
    n0, p, *rest = period
    s = rest[0] if rest else 0
    if n0 < 0 or p < 1 or s < 0:
        raise ClaimError(f"{where}: period: the preperiod n0 >= 0, the period p >= 1 and the saltus s >= 0, "
                         f"got {tuple(period)!r}")
    return (n0, p, s)


def _said(period: tuple[int, int, int]) -> str:
    n0, p, s = period
    return f"G(n + {p}) = G(n){f' + {s}' if s else ''} for every n >= {n0}"


# ------------------------------------------------------------------------------- the kind
@register_kind
class Period(ClaimKind):
    """Periodicity of a one-heap game's Grundy values: ``period=``, checked by :func:`check_period`."""

    name = "period"
    says = "G(n + p) = G(n) (+ s) for every heap n >= n0 of a one-heap game (period=(n0, p) or (n0, p, s))"
    statement = "none"
    takes = frozenset({"period", "params"})
    needs = frozenset({"period"})
    implied_by = "period"
    serves_as = None
    gives_values = False
    claims_strategy = False
    special_check = staticmethod(check_period)

    def prepare(self, where: str, given: dict[str, Any]) -> dict[str, Any]:
        """The period read; one heap, no statement."""
        period = read_period(where, given.get("period"), "statement" in given)
        if "family" in given:
            raise ClaimError(f"{where}: a period claim is on one heap (no family=; the game's parameters: params=)")
        return {**given, "period": period, "family": heaps(1), "statement": no_statement}

    def problems(self, claim: Claim) -> Iterator[str]:
        """One heap of a one-heap game, by its theorem: no Z3 method, no sums, no listed positions."""
        if (any(isinstance(m, Smt) for m in claim.methods) or claim.game == "sum"
                or isinstance(claim.family, Positions)):
            yield ("a period claim is on one heap of a one-heap game, checked by its periodicity "
                   "theorem (no smt method, no listed positions)")

    def statement_problem(self, expr: Any) -> str | None:
        """No statement to check."""
        return None

    def obligations(self, claim: Claim, by_value: bool) -> tuple[str, ...]:
        """None: its own check proves what it proves."""
        return ()

    def cache_key(self, claim: Claim, profile: str, add: Add, rules_digest: RulesDigest) -> bool:
        """The period, the parameters, the bounds and the one-heap rules of the game: the whole key."""
        add(["period", list(claim.period or ())])
        return one_heap_key(claim, profile, add, rules_digest)

    def facts(self, claim: Claim) -> list[tuple[str, str]]:
        """The period claimed, and the game's parameters."""
        return ([("period", _said(claim.period))] if claim.period is not None else []) + params_fact(claim)


def one_heap_key(claim: Claim, profile: str, add: Add, rules_digest: RulesDigest) -> bool:
    """The key of a claim about one heap of a one-heap game: its parameters, the bounds and the
    game's one-heap rules (the whole key: no family, no statement)."""
    from ...spec.games import GAMES
    pos = read_position({"game": claim.game, "heaps": [0], **claim.params})
    add(["one heap of", sorted(claim.params.items()), claim.bounds_for(profile)])
    game: Any = GAMES[claim.game]
    add(["one heap", rules_digest(game.one_heap_rules(getattr(pos, "structure", None)))])
    return True


def params_fact(claim: Claim) -> list[tuple[str, str]]:
    """The game's parameters, as a report fact (none without parameters)."""
    if not claim.params:
        return []
    return [("parameters", ", ".join(f"{k}={v}" for k, v in sorted(claim.params.items())))]
