"""How a claim is checked: :class:`Explicit` (solve every position within bounds, optionally
with a random search), :class:`Levelled` (the same sweep, its values from the levelled solver)
or :class:`Smt` (prove with Z3, on integers or bit-vectors).

>>> str(Explicit(samples=50)), str(bitvec(8)), str(Levelled())
('explicit + 50 random samples', 'smt (8-bit vectors)', 'levelled (engine auto)')
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Explicit", "Levelled", "Smt", "bitvec"]


@dataclass(frozen=True)
class Explicit:
    """Solve every position of the family within the claim's bounds (``full``: the bounds of
    ``--profile full``); ``samples`` > 0 adds a random search (with shrinking) within
    ``sample_bounds``, for families too large to sweep. ``sums="search"`` (the method
    ``"search"``): on a family of sums, each sum's value is found by a search over the whole sum
    (a move is a move in one part), never as the XOR of its parts' values, so that a claim "the
    sum's value is the XOR" checks the Sprague-Grundy theorem instead of using it."""

    samples: int = 0
    sample_bounds: dict[str, Any] | None = None
    sums: str = "xor"        # "search": a sum's value by a search over the whole sum, not the XOR

    def __str__(self) -> str:
        return ("explicit" + (f" + {self.samples} random samples" if self.samples else "")
                + (" (sums by search)" if self.sums == "search" else ""))


@dataclass(frozen=True)
class Levelled(Explicit):
    """The explicit sweep (every position within the bounds, the statement evaluated at each),
    its values taken from the levelled solver (:func:`grundy.solvers.levelled.solve_levelled`)
    over the box of the bounds instead of the memo solver: for games whose moves lower a proved
    rank, in normal play, claims judged by a position's value or outcome alone. ``engine``:
    "auto", "numpy" or "dask" (a client given by ``grundy verify --executor dask://...``, else
    a LocalCluster); ``partitions``: Dask's partitions per level."""

    engine: str = "auto"
    partitions: int | None = None

    def __str__(self) -> str:
        return f"levelled (engine {self.engine})"


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
