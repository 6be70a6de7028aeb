"""What a verdict's scope says in words: the bounds, the claim's functions (assume, a
condition), the play convention, the Z3 proof's reach, the refutation.
"""
from __future__ import annotations

from typing import Any, Callable

from ...spec.games import GAMES
from ..claims import Claim, Smt
from ..families import values_of
from ..verdict import Counterexample

ORDER = "fewest vertices, then edges, then the least sum and the least largest of the numeric fields"


def _bounds_text(bounds: dict[str, Any]) -> str:
    parts = []
    for k, b in bounds.items():
        if callable(b):
            parts.append(f"{k}: {(b.__doc__ or b.__name__).strip().splitlines()[0]}")
        elif isinstance(b, int):
            parts.append(f"{k} <= {b}")
        elif isinstance(b, tuple):
            parts.append(f"{b[0]} <= {k} <= {b[1]}")
        else:
            parts.append(f"{k} in {list(values_of(b))}")
    return ", ".join(parts)


def _fn_text(f: Callable) -> str:
    """A claim's function in words: its docstring's first line, its name, or the lambda's body
    as written (whole: a scope is never cut)."""
    name = getattr(f, "__name__", "")
    doc = (getattr(f, "__doc__", None) or "").strip()
    if name != "<lambda>":
        if not doc:
            return name or "a condition"
        first = doc.splitlines()[0].rstrip(".")
        return first[0].lower() + first[1:] if first[1:2].islower() else first
    from ..words import lambda_text
    return lambda_text(f) or "a condition"


def _play(convention: str) -> str:
    return "misère play" if convention == "misere" else "normal play"


def _conditions(claim: Claim) -> str:
    """What the scope must say besides the family and bounds: the assume and the convention
    (misère play; normal play too on a game declared misère)."""
    out = ""
    if claim.assume is not None:
        out += f", assuming {_fn_text(claim.assume)}"
    declared = GAMES[claim.game].convention if claim.game in GAMES else "normal"
    if claim.convention == "misere" or declared != claim.convention:
        out += f", {_play(claim.convention)}"
    return out


def _smt_scope(claim: Claim, method: Smt) -> str:
    game = GAMES[claim.game]
    fam = claim.family.items()
    names: list[str] = []
    if fam:
        sch = game.rules(fam[0][1]).schema
        names = [n for n, f in sch.fields.items() if f.kind == "int"]
    what = ", ".join(n + ("s" if not n.endswith("s") else "") for n in names) or "positions"
    if method.bits is None:
        return f"all {what} (all sizes), {claim.family.scope}{_conditions(claim)}"
    return (f"all {what} < 2^{method.bits} ({method.bits}-bit vectors), {claim.family.scope}"
            f"{_conditions(claim)}")


def _refuted_scope(claim: Claim, c: Counterexample) -> str:
    import json
    pos = json.dumps({k: x for k, x in c.witness.items() if k != "game"})
    what = "certificate" if c.how.startswith("a partition certificate") else "counterexample"
    return (f"{claim.family.scope}{_conditions(claim)}: {what} on {c.structure} {pos}: claimed {c.claimed}, "
            f"actually {c.actual}")
