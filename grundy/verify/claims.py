"""Claims: a published result, stated in the IR, with how to check it and what to expect.

A theorem file is a Python module defining ``CLAIMS``, a list of :class:`Claim`; it
should read like the paper's list of results.

>>> from grundy.verify.families import heaps
>>> c = Claim("demo/nim-2", source=Source("demo", "Theorem 1"), game="nim", kind="char",
...           family=heaps(2), bounds={"heap": 6},
...           statement=lambda g, s: s.heap[0] == s.heap[1],   # P iff the heaps are equal
...           methods=["explicit", "smt"], expect="proved")
>>> c.paper, [str(m) for m in c.methods]
('demo', ['explicit', 'smt (unbounded integers)'])
>>> Claim("demo/x", game="nim", kind="char", family=heaps(1), statement=lambda g, s: True,
...       colour="red")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
grundy.verify.claims.ClaimError: claim 'demo/x': unknown field 'colour' (fields: ...)
"""
from __future__ import annotations

from ..errors import GrundyError
import copy

from dataclasses import dataclass
from typing import Any, Callable, Iterable

from .families import Family

KINDS = ("outcome", "char", "grundy", "strategy", "conj", "table")
VERDICTS = ("proved", "verified", "refuted", "unknown", "error")


class ClaimError(GrundyError, ValueError):
    """A claim that is written wrongly (an unknown field, kind, verdict, method...)."""


@dataclass(frozen=True)
class Source:
    """Where a claim comes from: the seed's short id, the result's number, its section."""

    paper: str
    number: str = ""
    section: str = ""

    def __str__(self) -> str:
        return ", ".join(x for x in (self.paper, self.number, self.section) if x)


@dataclass(frozen=True)
class Explicit:
    """Solve every position of the family within the claim's bounds (``full``: the bounds of
    ``--profile full``); ``samples`` > 0 adds a random search (with shrinking) within
    ``sample_bounds``, for families too large to sweep."""

    samples: int = 0
    sample_bounds: dict[str, Any] | None = None

    def __str__(self) -> str:
        return "explicit" + (f" + {self.samples} random samples" if self.samples else "")


@dataclass(frozen=True)
class Smt:
    """Prove with Z3: ``bits=None`` numeric fields are unbounded integers (all sizes);
    ``bits=k`` they are bit-vectors and every numeric field is below 2**k."""

    bits: int | None = None

    def __str__(self) -> str:
        return "smt (unbounded integers)" if self.bits is None else f"smt ({self.bits}-bit vectors)"


def bitvec(bits: int) -> Smt:
    """The SMT method on bit-vectors: every numeric field below ``2**bits``."""
    return Smt(bits)


def _method(m: Any) -> Explicit | Smt:
    if isinstance(m, (Explicit, Smt)):
        return m
    if m == "explicit":
        return Explicit()
    if m == "smt":
        return Smt()
    raise ClaimError(f"unknown method {m!r} (use 'explicit', 'smt', bitvec(k), Explicit(...), Smt(...))")


Statement = Callable[..., Any]   # (g, s) -> Expr; a strategy: (g, s, rules) -> list[Play]

_FIELDS = ("source", "game", "kind", "family", "statement", "strategy", "exact", "assume",
           "bounds", "full", "full_family", "methods", "timeout", "expect", "convention", "symmetric", "note")


class Claim:
    """One published claim.

    - ``id``: e.g. ``"selfref/thm5.2"``; ``source``: a :class:`Source` (default: the id's prefix).
    - ``game``: a registered game's name; ``family``: a :class:`~grundy.verify.families.Family`.
    - ``kind``: outcome | char | grundy | strategy | conj | table.
    - ``statement(g, s)``: an IR expression over the symbolic state ``s`` on structure ``g``:
      for outcome/char/conj/strategy a boolean, true exactly at the **P-positions**; for grundy
      the claimed Grundy value (an int expression).
    - ``strategy(g, s, rules)``: a list of :class:`~grundy.spec.strategy.Play` (kind strategy; for
      a char claim it serves the SMT check as the witness move). ``exact``: the strategy's moves
      (every case whose ``when`` holds) are *all* the winning moves (True, or a function
      (g, s) -> Expr: the positions where they are).
    - ``assume(g, s)``: the positions of the structure the claim is about (closed under moves).
    - ``bounds``: per numeric field, the values the explicit sweep tries: ``{"heap": 30}`` (0..30),
      ``{"weight": (1, 3)}`` or a list of values; ``full``: the same for ``--profile full``;
      ``full_family``: a larger family for ``--profile full`` (default: ``family``).
    - ``methods``: ``"explicit"``, ``"smt"`` (unbounded integers), ``bitvec(k)``.
    - ``timeout`` (seconds), ``expect`` (proved | verified | refuted | unknown),
      ``convention`` (normal | misere), ``symmetric`` (statement and assume are invariant
      under the structure's symmetries: the sweep checks one position per orbit), ``note``.
    """

    def __init__(self, id: str, **fields: Any):
        self.id = id
        for k in fields:
            if k not in _FIELDS:
                raise ClaimError(f"claim {id!r}: unknown field {k!r} (fields: {', '.join(_FIELDS)})")
        for k in ("game", "kind", "family", "statement"):
            if k not in fields:
                raise ClaimError(f"claim {id!r}: field {k!r} is missing")
        f = fields
        self.game: str = f["game"]
        self.kind: str = f["kind"]
        self.family: Family = f["family"]
        self.statement: Statement = f["statement"]
        self.strategy: Statement | None = f.get("strategy")
        ex = f.get("exact", False)
        self.exact: Statement | None = ex if callable(ex) else (lambda g, s: True) if ex else None
        self.assume: Statement | None = f.get("assume")
        self.bounds: dict[str, Any] = dict(f.get("bounds", {}))
        self.full: dict[str, Any] = {**self.bounds, **dict(f.get("full", {}))}
        self.full_family: Family | None = f.get("full_family")
        self.methods: list[Explicit | Smt] = [_method(m) for m in f.get("methods", ["explicit"])]
        self.timeout: float | None = f.get("timeout")
        self.expect: str = f.get("expect", "verified")
        self.convention: str = f.get("convention", "normal")
        self.symmetric: bool = bool(f.get("symmetric", True))
        self.note: str = f.get("note", "")
        self.file: str = ""                      # the theorem file (set when loaded)
        src = f.get("source")
        self.source: Source = src if isinstance(src, Source) else Source(id.split("/")[0], str(src or ""))
        self._validate()

    def _validate(self) -> None:
        where = f"claim {self.id!r}"
        if self.kind not in KINDS:
            raise ClaimError(f"{where}: unknown kind {self.kind!r} (one of: {', '.join(KINDS)})")
        if self.expect not in VERDICTS:
            raise ClaimError(f"{where}: unknown expected verdict {self.expect!r} (one of: {', '.join(VERDICTS)})")
        if not isinstance(self.family, Family) or not isinstance(self.full_family, (Family, type(None))):
            raise ClaimError(f"{where}: family must be a Family (see grundy.verify.families)")
        if not callable(self.statement):
            raise ClaimError(f"{where}: statement must be a function (g, s) -> expression")
        if self.kind == "strategy" and self.strategy is None:
            raise ClaimError(f"{where}: a strategy claim needs strategy=...")
        if self.convention not in ("normal", "misere"):
            raise ClaimError(f"{where}: convention must be 'normal' or 'misere'")
        if self.kind == "grundy" and self.convention != "normal":
            raise ClaimError(f"{where}: Grundy values are normal-play values")
        if not self.methods:
            raise ClaimError(f"{where}: no method")

    @property
    def paper(self) -> str:
        return self.source.paper

    def bounds_for(self, profile: str) -> dict[str, Any]:
        return self.full if profile == "full" else self.bounds

    def at(self, profile: str) -> "Claim":
        """The claim as the profile checks it (the full family under ``--profile full``)."""
        if profile != "full" or self.full_family is None:
            return self
        c = copy.copy(self)
        c.family, c.full_family = self.full_family, None
        return c

    def __repr__(self) -> str:
        return f"Claim({self.id!r}, game={self.game!r}, kind={self.kind!r}, expect={self.expect!r})"


def check_ids(claims: Iterable[Claim]) -> None:
    """ClaimError if two claims share an id."""
    seen: set[str] = set()
    for c in claims:
        if c.id in seen:
            raise ClaimError(f"claim {c.id!r} is defined twice")
        seen.add(c.id)
