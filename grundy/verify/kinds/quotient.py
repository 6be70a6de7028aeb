"""Kind ``quotient``: the misère quotient of a one-heap game has the claimed order and P-portion.

``Claim("misere/0.75", game="octal", params={"code": "0.75"}, quotient={"order": 8, "p_portion": 2})``
computes the quotient heap by heap (:mod:`grundy.solvers.misere`; ``bounds={"heap": N}``: up to
heap N, default 200), each step checked exactly on every sum of the heaps computed (its
automaton). Then:

- ``proved``: the figures are the quotient's and its pretending function's period is proved
  (the quotient of every sum of heaps, whatever their sizes);
- ``verified``: the figures are those of the quotient of the sums of heaps up to the last one
  computed (no period proved);
- ``refuted``: more elements (or P-elements) than claimed, shown by sums pairwise told apart,
  each pair by a sum whose outcomes misère search (a second, plain search) finds different;
- ``unknown``: a claim of more elements than the quotient has (no finite sum can show that),
  or a quotient not finished within the time limit.

>>> from grundy.verify import Claim
>>> from grundy.verify.check import check_claim
>>> c = Claim("demo/q", game="octal", params={"code": "0.75"}, quotient={"order": 8, "p_portion": 2},
...           expect="proved")
>>> v = check_claim(c)
>>> v.verdict, v.scope.split(":")[0]
('proved', 'the misère quotient of octal 0.75, every heap (period proved)')
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterator

from ...errors import ClaimError
from ..families import heaps
from ..methods import Smt
from ..verdict import PROVED, REFUTED, UNKNOWN, VERIFIED, Counterexample, Verdict
from .base import Add, ClaimKind, RulesDigest, register_kind
from .fields import OptionalField
from .period import no_statement, one_heap_key, params_fact

if TYPE_CHECKING:
    from ..claims import Claim

__all__ = ["MisereQuotient", "check_quotient"]

FIGURES = ("order", "p_portion")
SEARCHED = 24          # refutations: sums of total up to this, replayed by misère search
DEFAULT_TOP = 200      # heaps computed when the claim gives no bounds


def check_quotient(claim: Claim, v: Verdict, profile: str, tick: Callable[[], None], recheck: str) -> None:
    """The quotient computed and compared with the claimed figures (see the module)."""
    from ...solvers.misere import Quotient
    from ...solvers.misere.check import check_order_claim
    claimed = claim.quotient or {}
    top = int(claim.bounds_for(profile).get("heap", DEFAULT_TOP))
    q = Quotient(claim.game, max_heap=top, time_limit=claim.limit(None) / 2, **claim.params)
    what = f"the misère quotient of {q.label}"
    if q.q.computed < top and not q.proved:       # stopped (time) before the heaps asked
        v.verdict, v.detail = UNKNOWN, f"{what}: stopped at heap {q.q.computed} ({q.q.why})"
        v.scope = f"{what}: heaps up to {q.q.computed} of {top}"
        return
    got = check_order_claim(q.q, claimed.get("order"), claimed.get("p_portion"), SEARCHED, q.options)
    figures = f"order {q.size}, P-portion {len(q.p_portion)}"
    v.coverage.update(positions=q.q.computed + 1, structures=1)
    if got.verdict == "refuted":
        sums = [list(s) for s in got.counterexample]
        v.verdict = REFUTED
        v.counterexample = Counterexample({"game": claim.game, **claim.params, "sums": sums},
                                          _said(claimed), figures, structure="sums of heaps",
                                          how=got.why + ", replayed by misère search",
                                          state={"sums": sums})    # the whole witness: the sums
        v.scope = f"{what}: {got.why}; the quotient has {figures}"
    elif got.verdict == "proved":
        every = q.proved
        v.obligations += [{"structure": "one heap", "obligation": "every sum of heaps up to "
                           f"{q.q.computed} (the quotient's automaton)", "status": "holds", "seconds": 0.0}]
        if every:
            v.obligations.append({"structure": "one heap", "obligation": f"the pretending function's period "
                                  f"{q.q.period} (misère periodicity)", "status": "holds", "seconds": 0.0})
        v.verdict = PROVED if every else VERIFIED
        if every:
            v.coverage["smt"] = "all sizes"
        where = "every heap (period proved)" if every else f"every sum of heaps up to {q.q.computed}"
        v.scope = f"{what}, {where}: {figures}, as claimed (checked exactly by its automaton)"
    else:
        v.verdict, v.detail = UNKNOWN, got.why
        v.scope = f"{what}: {figures}"


def _said(claimed: dict[str, Any]) -> str:
    return ", ".join(f"{k.replace('_', '-')} {claimed[k]}" for k in FIGURES if k in claimed)


@register_kind
class MisereQuotient(ClaimKind):
    """Misère quotients: ``quotient={"order": q, "p_portion": p}`` on a one-heap game."""

    name = "quotient"
    says = "the misère quotient of a one-heap game has the claimed order and P-portion (quotient=)"
    statement = "none"
    fields = {"quotient": OptionalField("quotient", lambda c: c.quotient is not None,
                                        "quotient= is the claim of kind {kinds_q}, not {kind!r}")}
    takes = frozenset({"params"})
    needs = frozenset({"quotient"})
    implied_by = "quotient"
    serves_as = None
    gives_values = False
    claims_strategy = False
    special_check = staticmethod(check_quotient)

    def prepare(self, where: str, given: dict[str, Any]) -> dict[str, Any]:
        """The figures read; one heap, misère play, no statement."""
        q = given.get("quotient")
        if not isinstance(q, dict) or not q or set(q) - set(FIGURES) or not all(
                isinstance(x, int) and not isinstance(x, bool) and x >= 1 for x in q.values()):
            raise ClaimError(f"{where}: quotient: a dict of {' and/or '.join(FIGURES)}, each a positive "
                             f"integer, got {q!r}")
        if "family" in given or "statement" in given:
            raise ClaimError(f"{where}: a quotient claim is about the game's heaps (no family=, no statement=)")
        if given.get("convention", "misere") != "misere":
            raise ClaimError(f"{where}: a misère quotient is about misère play (convention='misere')")
        return {**given, "family": heaps(1), "statement": no_statement, "convention": "misere"}

    def problems(self, claim: Claim) -> Iterator[str]:
        if any(isinstance(m, Smt) for m in claim.methods) or claim.game == "sum":
            yield "a quotient claim is checked by computing the quotient (no smt method, no sums)"

    def statement_problem(self, expr: Any) -> str | None:
        return None

    def obligations(self, claim: Claim, by_value: bool) -> tuple[str, ...]:
        return ()

    def cache_key(self, claim: Claim, profile: str, add: Add, rules_digest: RulesDigest) -> bool:
        """The figures, the parameters, the heaps asked and the game's one-heap rules: the whole key."""
        add(["quotient", sorted((claim.quotient or {}).items())])
        return one_heap_key(claim, profile, add, rules_digest)

    def facts(self, claim: Claim) -> list[tuple[str, str]]:
        return [("quotient", _said(claim.quotient or {}))] + params_fact(claim)
