"""Kind ``conj``: a conjecture or an open question, checked as ``char`` (a ``verified`` verdict
is evidence within the bounds, not a proof).

>>> from grundy.verify import Claim, heaps
>>> Claim("demo/q", game="nim", kind="conj", family=heaps(3), statement=lambda g, s: s.heap[0] == 0).kind
'conj'
"""
from __future__ import annotations

from .base import register_kind
from .statement import StatementKind

__all__ = ["Conj"]


@register_kind
class Conj(StatementKind):
    """A conjecture: a boolean statement (P-positions) or an integer one (Grundy values)."""

    name = "conj"
    says = "a conjecture or open question (P-positions, or Grundy values)"
    statement = "either"
    takes = frozenset({"strategy", "table"})
    serves_as = None
    gives_values = False
    claims_strategy = False
