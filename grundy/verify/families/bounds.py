"""The positions on a structure within bounds: the values each slot takes, every state (or one
per symmetry class), how many, and how small a position is.

>>> list(heap_tuples(2, 2))
[(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)]
"""
from __future__ import annotations

import itertools
from typing import Any, Callable, Iterator, Sequence

from ...spec.structure import Structure


def values_of(bound: Any, lower: int = 0) -> list[int]:
    """The values a bound allows: an int b is lower..b, a pair (lo, hi) lo..hi, a list itself.

    >>> values_of(3), values_of((1, 3)), values_of([2, 5])
    ([0, 1, 2, 3], [1, 2, 3], [2, 5])
    """
    if isinstance(bound, bool):
        raise ValueError(f"bad bound {bound!r}")
    if isinstance(bound, int):
        return list(range(lower, bound + 1))
    if isinstance(bound, tuple) and len(bound) == 2:
        return list(range(max(lower, bound[0]), bound[1] + 1))
    if isinstance(bound, (list, range)):
        return sorted(v for v in bound if v >= lower)
    raise ValueError(f"bad bound {bound!r}: use an int, a pair (lo, hi) or a list")


def heap_tuples(count: int, hi: int, lo: int = 0) -> Iterator[tuple[int, ...]]:
    """All sorted tuples of ``count`` heaps in lo..hi (heaps are a multiset)."""
    return itertools.combinations_with_replacement(range(lo, hi + 1), count)


def weight_assignments(g: Structure, values: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every assignment of the given values to the edges of g."""
    return itertools.product(values, repeat=len(g.edges))


def tokens(g: Structure) -> list[int]:
    """One vertex of each orbit of g's automorphism group (the smallest).

    >>> from grundy.verify.families import stars
    >>> tokens(stars(3).items()[0][1])
    [0, 1]
    """
    seen: set[int] = set()
    out = []
    for v in range(g.n):
        if v not in seen:
            out.append(v)
            seen.update(sigma[v] for sigma in g.automorphisms)
    return out


def slot_values(rules, bounds: dict[str, Any]) -> list[list[int]]:
    """For each state slot, the values the sweep tries. ``bounds`` maps a field name to an int,
    a pair, a list (see :func:`values_of`) or a function ``(structure, key) -> values`` of the
    slot's key; numeric fields need a bound, vertex/edge/bool fields default to every value.

    >>> from grundy.spec.games import get_game
    >>> from grundy.verify.families import paths
    >>> r = get_game("edge-nim").rules(paths(3).items()[0][1])
    >>> slot_values(r, {"weight": (1, 2)})
    [[1, 2], [1, 2], [0, 1, 2]]
    >>> slot_values(r, {"weight": lambda g, e: [e + 1]})
    [[1], [2], [0, 1, 2]]
    """
    sch, g = rules.schema, rules.structure
    out = []
    for name, key in sch.slots:
        f = sch.fields[name]
        b = bounds.get(name)
        if callable(b):
            out.append(sorted(int(v) for v in b(g, key)))
        elif b is not None:
            out.append(values_of(b, f.lower if f.kind == "int" else -1 if f.kind == "edge" else 0))
        elif f.kind == "vertex":
            out.append(list(range(g.n)))
        elif f.kind == "edge":
            out.append(list(range(-1, len(g.edges))))
        elif f.kind == "bool":
            out.append([0, 1])
        else:
            raise KeyError(f"no bound for the numeric field {name!r} (bounds={{{name!r}: ...}})")
    return out


def states(rules, bounds: dict[str, Any], canonical: Callable | None = None) -> Iterator[tuple[int, ...]]:
    """Every state of the rules' structure within bounds; with ``canonical`` only one state
    per symmetry class met by the bounds.

    >>> from grundy.spec.games import get_game
    >>> from grundy.spec import Structure
    >>> r = get_game("nim").rules(Structure.heaps(2))
    >>> list(states(r, {"heap": 1}, canonical=lambda s: tuple(sorted(s))))
    [(0, 0), (0, 1), (1, 1)]
    """
    vals = slot_values(rules, bounds)
    if rules.heap_sorting and canonical is not None and len(set(map(tuple, vals))) == 1:
        yield from itertools.combinations_with_replacement(vals[0], len(vals))
        return
    if canonical is None:
        yield from itertools.product(*vals)
        return
    # one state per symmetry class that meets the bounds: the first met, in sweep order (the
    # bounds need not be closed under the symmetries: a pinned token, a pinned chip pattern)
    seen: set[tuple[int, ...]] = set()
    for s in itertools.product(*vals):
        c = canonical(s)
        if c not in seen:
            seen.add(c)
            yield s


def count_states(rules, bounds: dict[str, Any]) -> int:
    """The number of states in the product of the slot ranges (before symmetry)."""
    n = 1
    for v in slot_values(rules, bounds):
        n *= len(v)
    return n


def size_key(rules, state: tuple[int, ...]) -> tuple:
    """How small a position is, for choosing the smallest counterexample: fewest vertices,
    then edges, then the least total and largest of the numeric fields."""
    g, sch = rules.structure, rules.schema
    nums = [v for (name, _), v in zip(sch.slots, state, strict=False) if sch.fields[name].kind == "int"]
    return (g.n, len(g.edges), sum(nums), max(nums, default=0), state)


def bounds_problem(name: str, b: Any) -> str | None:
    """Why a bound allows no value or is malformed (None when it is fine).

    >>> bounds_problem("heap", 10), bounds_problem("heap", (5, 3)), bounds_problem("heap", -5)
    (None, 'empty range (5, 3): no value', 'empty range -5 (0..-5): no value')
    >>> bounds_problem("heap", []), bounds_problem("heap", "x")
    ('empty list []: no value', "bad bound 'x': use an int, a pair (lo, hi), a list or a function (g, key) -> values")
    """
    if callable(b):
        return None
    if isinstance(b, bool):
        return f"bad bound {b!r}: use an int, a pair (lo, hi), a list or a function (g, key) -> values"
    if isinstance(b, int):
        return None if b >= 0 else f"empty range {b} (0..{b}): no value"
    if isinstance(b, tuple):
        if len(b) != 2 or not all(isinstance(x, int) and not isinstance(x, bool) for x in b):
            return f"bad bound {b!r}: a pair (lo, hi) of integers"
        return None if b[0] <= b[1] else f"empty range {b!r}: no value"
    if isinstance(b, (list, range)):
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in b):
            return f"bad bound {list(b)!r}: a list of integers"
        return None if len(b) else f"empty list {list(b)!r}: no value"
    return f"bad bound {b!r}: use an int, a pair (lo, hi), a list or a function (g, key) -> values"
