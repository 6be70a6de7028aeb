"""The kinds whose claim is a statement: checked by comparing it with solved values (the
explicit sweep) and by the partition theorem or the mex condition (the SMT proof).

:class:`StatementKind` holds what they share; a kind built on it still states its own name,
wording, statement sort, the fields it takes and what it serves.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Iterator

from .base import Add, ClaimKind, RulesDigest

if TYPE_CHECKING:
    from ..claims import Claim

__all__ = ["StatementKind"]


class StatementKind(ClaimKind, abstract=True):
    """A kind whose claim is its statement (see the module). Subclasses set ``name``, ``says``,
    ``statement``, ``takes``, ``serves_as``, ``gives_values`` and ``claims_strategy``."""

    needs: ClassVar[frozenset[str]] = frozenset()
    implied_by: ClassVar[str | None] = None
    special_check = None

    def prepare(self, where: str, given: dict[str, Any]) -> dict[str, Any]:
        """Nothing implied: the fields as given."""
        return given

    def problems(self, claim: Claim) -> Iterator[str]:
        """No rule of its own across fields."""
        return iter(())

    def statement_problem(self, expr: Any) -> str | None:
        """The statement's sort against the kind's (``either``: any)."""
        from ...spec.expr import BOOL, INT, show
        if self.statement == "int" and expr.sort != INT:
            return f"the statement of a {self.name} claim must be an int expression, got {show(expr)}"
        if self.statement == "bool" and expr.sort != BOOL:
            return "the statement must be a boolean expression (true at the P-positions)"
        return None

    def obligations(self, claim: Claim, by_value: bool) -> tuple[str, ...]:
        """The rank, then the mex condition (a statement of Grundy values) or the partition
        theorem (a boolean statement: true exactly at the P-positions)."""
        return ("rank", "grundy") if by_value else ("rank", "partition")

    def cache_key(self, claim: Claim, profile: str, add: Add, rules_digest: RulesDigest) -> bool:
        """Nothing of its own: the family, the statement and the rules make the key."""
        return False

    def facts(self, claim: Claim) -> list[tuple[str, str]]:
        """A claim that serves the solver says so."""
        if claim.serves:
            return [("serves", "the solver answers by it once it is proved by Z3 (grundy solve --theorems)")]
        return []
