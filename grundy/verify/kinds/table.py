"""Kind ``table``: data from the paper (values computed there), usually given as ``table=``
(the kind a claim with ``table=`` and no ``kind=`` has).

>>> from grundy.verify import Claim
>>> Claim("demo/t", game="nim", table=[0, 1, 2, 3]).kind
'table'
"""
from __future__ import annotations

from .base import register_kind
from .statement import StatementKind

__all__ = ["Table"]


@register_kind
class Table(StatementKind):
    """Values from the paper, compared position by position (a lemma of Grundy values)."""

    name = "table"
    says = "data from the paper: the values at its positions (Grundy values or P/N)"
    statement = "either"
    takes = frozenset({"table"})
    implied_by = "table"
    serves_as = None
    gives_values = True
    claims_strategy = False
