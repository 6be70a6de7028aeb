"""Kind ``char``: a characterization, true exactly at the P-positions.

>>> from grundy.verify import Claim, heaps
>>> Claim("demo/c", game="nim", kind="char", family=heaps(2), statement=lambda g, s: s.heap[0] == s.heap[1]).kind
'char'
"""
from __future__ import annotations

from .base import register_kind
from .statement import StatementKind

__all__ = ["Char"]


@register_kind
class Char(StatementKind):
    """A characterization of the P-positions; once proved it can answer outcomes (``serves=True``)."""

    name = "char"
    says = "a characterization: true exactly at the P-positions"
    statement = "bool"
    takes = frozenset({"strategy", "serves"})
    serves_as = "P"
    gives_values = False
    claims_strategy = False
