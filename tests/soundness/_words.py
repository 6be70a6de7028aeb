"""Brute forces written from the rules in words, for the soundness files on heap rules and
conventions (not grundy's spec, solver or Z3: plain recursions over multisets of heaps). Not
a theorem file (its name starts with "_")."""
from __future__ import annotations

from functools import lru_cache


def lasker_options(h: int) -> list[tuple[int, ...]]:
    """Lasker's Nim: remove any number k >= 1 from the heap (0 left: no heap), or split it
    into two non-empty heaps a + b."""
    out = [(h - k,) if k < h else () for k in range(1, h + 1)]
    return out + [(a, h - a) for a in range(1, h // 2 + 1)]


def grundys_options(h: int) -> list[tuple[int, ...]]:
    """Grundy's game: split the heap into two non-empty heaps of different sizes."""
    return [(a, h - a) for a in range(1, (h + 1) // 2) if a != h - a]


def dawson_options(h: int) -> list[tuple[int, ...]]:
    """Dawson's Kayles as the octal code 0.07: remove exactly 2 tokens, leaving no heap, one
    heap or two non-empty heaps."""
    if h < 2:
        return []
    r = h - 2
    return [()] if r == 0 else [(r,)] + [(a, r - a) for a in range(1, r // 2 + 1)]


def nim_options(h: int) -> list[tuple[int, ...]]:
    """Nim: remove any number k >= 1 from the heap."""
    return [(h - k,) if k < h else () for k in range(1, h + 1)]


def s123_options(h: int) -> list[tuple[int, ...]]:
    """The subtraction game S(1, 2, 3): remove 1, 2 or 3 tokens."""
    return [(h - k,) if k < h else () for k in (1, 2, 3) if k <= h]


RULES = {"s123": s123_options, "lasker": lasker_options, "grundys": grundys_options, "dawson": dawson_options, "nim": nim_options}


@lru_cache(maxsize=None)
def value(rule: str, heaps: tuple[int, ...], misere: bool = False) -> int:
    """The Grundy value of the multiset ``heaps`` (a move plays one option in one heap), by
    the definition: the mex of the options' values; in misère play the misère Grundy value
    (1 at a terminal position, else the mex of the options' misère values)."""
    key = tuple(sorted(h for h in heaps if h))
    if key != heaps:
        return value(rule, key, misere)
    opts = set()
    for i, h in enumerate(key):
        rest = key[:i] + key[i + 1:]
        for parts in RULES[rule](h):
            opts.add(value(rule, tuple(sorted(rest + tuple(p for p in parts if p))), misere))
    if misere and not opts:
        return 1
    m = 0
    while m in opts:
        m += 1
    return m


def outcome(rule: str, heaps: tuple[int, ...], misere: bool = False) -> str:
    """P or N (the value 0 or not: in misère play too, by the definition of the misère value)."""
    return "P" if value(rule, tuple(heaps), misere) == 0 else "N"
