"""What a sweep and a proof return to the claim's check.
"""
from __future__ import annotations

from typing import Any

from ..claims import Claim
from ..verdict import Counterexample
from .scope import _bounds_text, _fn_text


class SweepResult:
    """The result of the explicit sweep: positions checked (where ``assume`` holds), positions
    met within the bounds, structures with at least one position checked, structures in the family."""

    def __init__(self, checked: int, cex: Counterexample | None, complete: bool, text: str,
                 met: int = 0, structures: int = 0, family: int = 0):
        self.checked, self.cex, self.complete, self.text = checked, cex, complete, text
        self.met, self.structures, self.family = met, structures, family

    def empty_reason(self, claim: Claim, bounds: dict[str, Any]) -> str:
        """Why the sweep covered nothing (one line)."""
        if self.family == 0:
            return f"the family ({claim.family.scope}) has no structure: the check covers nothing"
        if self.met == 0:
            return (f"the bounds ({_bounds_text(bounds)}) allow no position on {claim.family.scope}: "
                    f"the check covers nothing")
        return (f"assume ({_fn_text(claim.assume) if claim.assume else 'none'}) holds at none of the "
                f"{self.met:,} positions within the bounds: the check covers nothing")


class ProofResult:
    """The result of the SMT obligations (with a replayed counterexample when refuted)."""

    def __init__(self, status: str, obligations: list[dict], cex: Counterexample | None = None,
                 detail: str = "", structures: int = 0):
        self.status, self.obligations, self.cex, self.detail = status, obligations, cex, detail
        self.structures = structures          # structures where assume is satisfiable
