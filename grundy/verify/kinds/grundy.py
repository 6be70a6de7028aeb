"""Kind ``grundy``: the Grundy value, an integer expression (in misère play the misère Grundy
value). Its Z3 proof is the mex condition, helped by ``witnesses=``; once proved it can answer
Grundy values (``serves=True``), and as a lemma it gives values (``value_of``).

>>> from grundy.verify import Claim, heaps
>>> Claim("demo/g", game="nim", kind="grundy", table=["P"])  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
grundy.errors.ClaimError: ...: claim 'demo/g': a grundy table holds Grundy values (ints), not 'P'/'N'
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ..families import TableStatement
from .base import register_kind
from .statement import StatementKind

if TYPE_CHECKING:
    from ..claims import Claim

__all__ = ["Grundy"]


@register_kind
class Grundy(StatementKind):
    """Grundy values: an integer statement."""

    name = "grundy"
    says = "the Grundy value (an integer expression)"
    statement = "int"
    takes = frozenset({"witnesses", "serves", "table"})
    serves_as = "grundy"
    gives_values = True
    claims_strategy = False

    def problems(self, claim: Claim) -> Iterator[str]:
        """A table of a grundy claim holds ints."""
        st = claim.statement
        if isinstance(st, TableStatement) and any(isinstance(v, str) for v in st.table.values()):
            yield "a grundy table holds Grundy values (ints), not 'P'/'N'"
