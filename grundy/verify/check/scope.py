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


def _phrase(text: str) -> str:
    """The first sentence of a docstring, its wrapped lines joined (whole: a scope is never cut).

    >>> _phrase("the positions where the\\n    token is on a leaf. More text.")
    'the positions where the token is on a leaf'
    """
    para = " ".join(text.strip().split("\n\n")[0].split())
    return para.split(". ")[0].rstrip(".")


def where(scope: str, bounds: str = "", conditions: str = "") -> str:
    """The family's scope, the bounds and the conditions (``_conditions``: "" or ", ...") as one
    phrase: no separator next to an empty part.

    >>> where("K_{4,5}", "", ""), where("3 heaps", "heap <= 7", ", misère play")
    ('K_{4,5}', '3 heaps, heap <= 7, misère play')
    """
    return ", ".join(p for p in (scope, bounds) if p) + conditions


def _bounds_text(bounds: dict[str, Any]) -> str:
    parts = []
    for k, b in bounds.items():
        if callable(b):
            parts.append(f"{k}: {_phrase(b.__doc__ or b.__name__)}")
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
        if doc:
            first = _phrase(doc)
            return first[0].lower() + first[1:] if first[1:2].islower() else first
        body = _returned(f)
        if body and (not name or name in _ROLE_NAMES):   # "assuming assume": say what it returns
            return body
        return name or body or "a condition"
    from ..words import lambda_text
    return lambda_text(f) or "a condition"


_ROLE_NAMES = {"assume", "condition", "statement", "predicate", "value", "f", "fn", "func"}


def _returned(f: Callable) -> str:
    """The expression a one-return function returns, as written (empty if not found)."""
    import ast
    import inspect
    import textwrap
    try:
        src = textwrap.dedent(inspect.getsource(f))
        tree = ast.parse(src)
    except (OSError, TypeError, SyntaxError):
        return ""
    rets = [n.value for n in ast.walk(tree) if isinstance(n, ast.Return) and n.value is not None]
    if len(rets) != 1:
        return ""
    return " ".join((ast.get_source_segment(src, rets[0]) or "").split())   # whole: a scope is never cut


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


def _numeric(claim: Claim) -> str:
    """The claim's numeric fields, plural ("heaps", "weights"), or "positions" if none."""
    fam = claim.family.items()
    names: list[str] = []
    if fam:
        sch = GAMES[claim.game].rules(fam[0][1]).schema
        names = [n for n, f in sch.fields.items() if f.kind == "int"]
    return ", ".join(n + ("s" if not n.endswith("s") else "") for n in names) or "positions"


def all_sizes(claim: Claim) -> bool:
    """Whether a proof on unbounded integers covers "all sizes": the family stands for every size
    (``unbounded``), or its structures are rows of heaps (the numeric fields are the sizes). A
    finite family of graphs with numeric fields is "all weights on 14 structures" instead."""
    fam = claim.family
    return bool(getattr(fam, "unbounded", False)) or (
        len(fam) > 0 and all(g.kind == "heaps" for _, g in fam.items()) and _numeric(claim) != "positions")


def reach(claim: Claim, method: Smt) -> str:
    """How far a proof reaches, for the summary: "all sizes", "all weights on 14 structures",
    "below 2^32"."""
    if method.bits is not None:
        return f"below 2^{method.bits}"
    if all_sizes(claim):
        return "all sizes"
    n = len(claim.family)
    return f"all {_numeric(claim)} on {n} structure{'s' * (n != 1)}"


def _smt_scope(claim: Claim, method: Smt) -> str:
    what = _numeric(claim)
    if method.bits is None:
        how = "all sizes" if all_sizes(claim) else "unbounded integers"
        return f"all {what} ({how}), {claim.family.scope}{_conditions(claim)}"
    return (f"all {what} < 2^{method.bits} ({method.bits}-bit vectors), {claim.family.scope}"
            f"{_conditions(claim)}")


def _refuted_scope(claim: Claim, c: Counterexample) -> str:
    import json
    pos = json.dumps({k: x for k, x in c.witness.items() if k != "game"})
    what = "certificate" if c.how.startswith("a partition certificate") else "counterexample"
    return (f"{claim.family.scope}{_conditions(claim)}: {what} on {c.structure} {pos}: claimed {c.claimed}, "
            f"actually {c.actual}")
