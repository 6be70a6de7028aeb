"""Kind ``strategy``: the P-positions, and ``strategy=``, a move to play from each N-position
(a certificate: the explicit check plays it against every reply; the SMT check proves its
move legal and landing in the claimed P-positions). ``exact=`` also claims that its moves are
*all* the winning moves (one more SMT obligation: ``uniqueness``).

>>> from grundy.verify import Claim, heaps
>>> Claim("demo/s", game="nim", kind="strategy", family=heaps(2), statement=lambda g, s: True)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
grundy.errors.ClaimError: ...: claim 'demo/s': a strategy claim needs strategy=...
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .base import register_kind
from .statement import StatementKind

if TYPE_CHECKING:
    from ..claims import Claim

__all__ = ["Strategy"]


@register_kind
class Strategy(StatementKind):
    """A winning strategy: its moves are part of the claim."""

    name = "strategy"
    says = "the P-positions, and a winning move from each N-position (strategy=)"
    statement = "bool"
    takes = frozenset({"strategy", "exact"})
    needs = frozenset({"strategy"})
    serves_as = None
    gives_values = False
    claims_strategy = True

    def obligations(self, claim: Claim, by_value: bool) -> tuple[str, ...]:
        """The partition theorem (the strategy is the witness of (NP)), and with ``exact=`` the
        uniqueness of its moves."""
        return super().obligations(claim, by_value) + (("uniqueness",) if claim.exact is not None else ())

    def facts(self, claim: Claim) -> list[tuple[str, str]]:
        """Whether the strategy's moves are claimed to be all the winning moves."""
        if claim.exact is None:
            return super().facts(claim)
        where = "" if claim.exact_given is True else " where exact= holds"
        return super().facts(claim) + [("exact", f"the strategy's moves are all the winning moves{where}")]
