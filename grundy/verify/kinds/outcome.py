"""Kind ``outcome``: which positions are P (often one position: "the Petersen graph is N").

>>> from grundy.verify import Claim, heaps
>>> Claim("demo/o", game="nim", kind="outcome", family=heaps(2), statement=lambda g, s: s.heap[0] == s.heap[1]).kind
'outcome'
"""
from __future__ import annotations

from .base import register_kind
from .statement import StatementKind

__all__ = ["Outcome"]


@register_kind
class Outcome(StatementKind):
    """Outcomes: a boolean statement true at the P-positions, or an integer one (Grundy values)."""

    name = "outcome"
    says = "which positions are P (or, for an integer statement, their Grundy values)"
    statement = "either"
    takes = frozenset({"strategy", "table"})
    serves_as = None
    gives_values = False
    claims_strategy = False
