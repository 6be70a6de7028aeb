"""The ``period=`` field of a claim of kind ``"period"``: read and checked (G(n + p) = G(n) + s
for every n >= n0).

>>> read_period("c", "period", (71, 12), False)
(71, 12, 0)
"""
from __future__ import annotations

from typing import Any

from ..errors import ClaimError

__all__ = ["read_period", "no_statement"]


def no_statement(g: Any, s: Any) -> Any:
    """A period claim's statement: none (the claim is its ``period=``)."""
    from ..spec.expr import lift
    return lift(True)


def read_period(where: str, kind: Any, period: Any, has_statement: bool) -> tuple[int, int, int]:
    """``period=(n0, p)`` or ``(n0, p, s)`` checked: integers, n0 >= 0, p >= 1, s >= 0."""
    if kind != "period":
        raise ClaimError(f"{where}: period= is the claim of kind 'period', not {kind!r}")
    if has_statement:
        raise ClaimError(f"{where}: a period claim has no statement (its claim is period=(n0, p))")
    ok = (isinstance(period, (tuple, list)) and len(period) in (2, 3)
          and all(isinstance(x, int) and not isinstance(x, bool) for x in period))
    if not ok:
        raise ClaimError(f"{where}: period must be (n0, p) or (n0, p, s) (integers: G(n + p) = G(n) + s "
                         f"for every n >= n0), got {period!r}")
    n0, p, *rest = period
    s = rest[0] if rest else 0
    if n0 < 0 or p < 1 or s < 0:
        raise ClaimError(f"{where}: period: the preperiod n0 >= 0, the period p >= 1 and the saltus s >= 0, "
                         f"got {tuple(period)!r}")
    return (n0, p, s)
