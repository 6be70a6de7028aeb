"""Shared by the soundness files: the seed theorem files' statements (imported from
``theorems/``, not copied) and small helpers. Not a theorem file (its name starts with "_")."""
from __future__ import annotations

import itertools
import sys
from pathlib import Path

_THEOREMS = Path(__file__).resolve().parents[2] / "theorems"
if str(_THEOREMS) not in sys.path:
    sys.path.insert(0, str(_THEOREMS))

from grundy.spec import all_of, any_of  # noqa: E402


def xor(p, q):
    """p xor q, for boolean IR expressions."""
    return (p & ~q) | (~p & q)


def listed(s, positions):
    """True exactly at the listed heap tuples (a statement true within a sweep's bounds)."""
    return any_of(all_of(s.heap[i] == v for i, v in enumerate(t)) for t in positions)


def nim_p(count: int, hi: int) -> list[tuple[int, ...]]:
    """The P-positions of nim on ``count`` heaps up to ``hi`` (XOR 0), in every order."""
    out = []
    for t in itertools.product(range(hi + 1), repeat=count):
        x = 0
        for v in t:
            x ^= v
        if x == 0:
            out.append(t)
    return out


def wythoff_p(hi: int) -> list[tuple[int, int]]:
    """Wythoff's P-positions up to ``hi`` (both orders), by the mex construction."""
    a, out, used = 0, [], set()
    k = 0
    while True:
        while a in used:
            a += 1
        b = a + k
        if a > hi:
            break
        used.update((a, b))
        out += [(a, b), (b, a)]
        k += 1
    return sorted({t for t in out if max(t) <= hi})
