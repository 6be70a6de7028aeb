"""The validators of a claim's common fields (per field, one line each; attrs-style): what
:meth:`grundy.verify.Claim._validate` checks before the rules of the claim's kind.

>>> from types import SimpleNamespace as Fake
>>> _expect(Fake(expect="maybe"))
"unknown expected verdict 'maybe' (one of: proved, verified, refuted, unknown, error)"
"""
from __future__ import annotations

from typing import Any

from .families import Family, Positions
from .families.bounds import bounds_problem
from .kinds.fields import Validator, function_of, one_of, positive_number, string
from .methods import Explicit, Levelled, Smt
from .verdict import VERDICTS

__all__ = ["COMMON"]


def _eager(fam: Family) -> bool:
    """True for a family whose structures are already built (its size costs nothing)."""
    from .families import Geng, Lazy
    return not isinstance(fam, (Lazy, Geng))


def _id(c: Any) -> str | None:
    return None if isinstance(c.id, str) and c.id else "the id must be a non-empty string"


def _game(c: Any) -> str | None:
    return None if isinstance(c.game, str) else f"game must be a game's name or a Game object, got {c.game!r}"


def _expect(c: Any) -> str | None:
    return (None if c.expect in VERDICTS else
            f"unknown expected verdict {c.expect!r} (one of: {', '.join(VERDICTS)})")


def _family(c: Any) -> str | None:
    if not isinstance(c.family, Family) or not isinstance(c.full_family, (Family, type(None))):
        return "family must be a Family (see grundy.verify.families)"
    for name, fam in (("family", c.family), ("full_family", c.full_family)):
        if fam is not None and _eager(fam) and len(fam) == 0:
            return f"{name} is empty (no structure): the claim would cover nothing"
    return None


def _methods(c: Any) -> str | None:
    if not c.methods:
        return "no method"
    if c.game != "sum" and any(isinstance(m, Explicit) and m.sums != "xor" for m in c.methods):
        return "the method 'search' values sums by search: it serves claims on sums (game='sum')"
    for m in c.methods:
        if isinstance(m, Explicit) and m.sample_bounds:
            why = next((f"sample_bounds[{k!r}]: {w}" for k, b in m.sample_bounds.items()
                        if (w := bounds_problem(k, b)) is not None), None)
            if why:
                return why
        if isinstance(m, Smt) and m.bits is not None and (not isinstance(m.bits, int) or m.bits < 1):
            return f"bitvec({m.bits!r}): the width must be a positive integer"
    return None


def _positions(c: Any) -> str | None:
    """A family of listed positions: explicit only, no bounds; a claim on sums needs one."""
    if isinstance(c.family, Positions):
        if any(isinstance(m, (Smt, Levelled)) for m in c.methods):
            return "a family of listed positions is checked by the explicit method only"
        if c.bounds or c.full:
            return "a family of listed positions takes no bounds (it lists the positions)"
    elif c.game == "sum":
        return "a claim on sums needs a family of positions (families.positions, sums)"
    return None


def _bounds(c: Any) -> str | None:
    for label, bs in (("bounds", c.bounds), ("full", c.full)):
        for k, b in bs.items():
            why = bounds_problem(k, b)
            if why is not None:
                return f"{label}[{k!r}]: {why}"
    return None


COMMON: tuple[Validator, ...] = (
    _id, _game, _expect, _family,
    function_of("statement", 2, "statement must be a function (g, s) -> expression"),
    function_of("assume", 2, "assume must be a function (g, s) -> boolean expression"),
    one_of("convention_given", (None, "normal", "misere"), "convention must be 'normal' or 'misere'"),
    _methods, _positions, positive_number("timeout"), _bounds,
    string("text"), string("reading"), string("note"),
)
"""The common fields' validators, in the order they are checked."""
