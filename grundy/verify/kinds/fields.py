"""Field validators of a claim, small and reusable (attrs-style: one field, one line of error),
and the optional fields whose use depends on the claim's kind (:data:`OPTIONAL`).

A validator takes the claim and returns what is wrong with its field in one line, or None;
:meth:`grundy.verify.Claim.fail` names the claim and its line.

>>> from types import SimpleNamespace as Fake
>>> function_of("assume", 2, "assume must be a function (g, s) -> boolean expression")(Fake(assume=len))
'assume must be a function (g, s) -> boolean expression'
>>> function_of("assume", 2, "...")(Fake(assume=lambda g, s: True)) is None
True
>>> positive_number("timeout")(Fake(timeout=-1))
'timeout must be a positive number of (CPU) seconds, got -1'
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable

from ..families import Positions, TableStatement

if TYPE_CHECKING:
    from ..claims import Claim

__all__ = ["Validator", "OptionalField", "OPTIONAL", "takes", "function_of", "one_of", "string",
           "positive_number"]

Validator = Callable[[Any], "str | None"]     # claim -> its problem in one line, or None


def takes(fn: Callable[..., Any], n: int) -> bool:
    """True iff ``fn`` can be called with ``n`` positional arguments (a builtin without a
    signature is trusted)."""
    import inspect
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return True
    try:
        sig.bind(*range(n))
    except TypeError:
        return False
    return True


def function_of(field: str, n: int, what: str) -> Validator:
    """The field, where set (not None), is a function of ``n`` positional arguments."""
    def check(claim: Any) -> str | None:
        fn = getattr(claim, field)
        return None if fn is None or (callable(fn) and takes(fn, n)) else what
    return check


def one_of(field: str, values: tuple[Any, ...], what: str) -> Validator:
    """The field is one of ``values``."""
    def check(claim: Any) -> str | None:
        return None if getattr(claim, field) in values else what
    return check


def string(field: str) -> Validator:
    """The field is a string."""
    def check(claim: Any) -> str | None:
        return None if isinstance(getattr(claim, field), str) else f"{field} must be a string"
    return check


def positive_number(field: str) -> Validator:
    """The field, where set, is a positive int or float (not a bool)."""
    def check(claim: Any) -> str | None:
        x = getattr(claim, field)
        ok = x is None or (not isinstance(x, bool) and isinstance(x, (int, float)) and x > 0)
        return None if ok else f"{field} must be a positive number of (CPU) seconds, got {x!r}"
    return check


@dataclass(frozen=True)
class OptionalField:
    """A field of :class:`~grundy.verify.Claim` that only some kinds take: whether a claim gives
    it, the line said when the claim's kind does not take it (``{kind}``: the claim's kind;
    ``{kinds}``, ``{kinds_or}``, ``{kinds_q}``: the kinds that take it, as a list, joined by
    "or", quoted), and its own validators."""

    name: str
    given: Callable[[Any], bool]
    refused: str
    validators: tuple[Validator, ...] = ()

    def refusal(self, kind: str, kinds: list[str]) -> str:
        """The line for a claim of ``kind`` giving this field (``kinds``: those that take it)."""
        return self.refused.format(kind=kind, kinds=", ".join(kinds), kinds_or=" or ".join(kinds),
                                   kinds_q=" or ".join(repr(k) for k in kinds))


def _exact(claim: Claim) -> str | None:
    e = claim.exact_given
    return None if not callable(e) or takes(e, 2) else "exact must be True or a function (g, s) -> boolean expression"


def _serves(claim: Claim) -> str | None:
    return ("serves=True registers a claim on a family of structures as a value source (not on listed positions)"
            if isinstance(claim.family, Positions) else None)


_WITNESSES = "witnesses must be a function (g, s, rules, v) -> list of Play, for a {kinds_or} claim"

OPTIONAL: dict[str, OptionalField] = {f.name: f for f in (
    OptionalField("strategy", lambda c: c.strategy is not None,
                  "strategy= is not used by a {kind} claim (only by the kinds {kinds})",
                  (function_of("strategy", 3, "strategy must be a function (g, s, rules) -> list of Play"),)),
    OptionalField("witnesses", lambda c: c.witnesses is not None, _WITNESSES,
                  (function_of("witnesses", 4, "witnesses must be a function (g, s, rules, v) -> list of Play"),)),
    OptionalField("exact", lambda c: c.exact_given is not False,
                  "exact= is checked only for kind {kinds_q}, not {kind!r}: make it a {kinds_or} claim or "
                  "drop exact=", (_exact,)),
    OptionalField("serves", lambda c: bool(c.serves),
                  "serves=True registers a {kinds_or} claim on a family of structures as a value source",
                  (_serves,)),
    OptionalField("params", lambda c: bool(c.params),
                  "params= serves {kinds_or} claims only (the game's parameters, e.g. {{'code': '0.77'}})"),
    OptionalField("period", lambda c: c.period is not None, "period= is the claim of kind {kinds_q}, not {kind!r}"),
    OptionalField("table", lambda c: isinstance(c.statement, TableStatement),
                  "table= serves kinds {kinds}, not {kind}"),
)}
"""The optional fields by name: a kind's ``takes`` names some of them."""
