"""Counting for any vertex game with one bool per vertex: the quotient read from option sets.

:func:`grundy.solvers.counting.reduce_game` reads a game with one move per vertex move by move;
a game whose moves are on edges, or have choices (wyg under its W1 invariant:
:mod:`grundy.solvers.invariant`), is read here instead, from whole option sets
(:func:`reduce_any` picks the reading):

1. **Symmetry**, proved by Z3 on the template member as for counting (a swap and a cycle within
   each part). Then every position with the same counts is the image of the representative
   (the first c[i] vertices of part i present) under a permutation within the parts, so the
   options of a count vector are the counts of the representative's options.
2. **The option sets**, read on the template at every count vector c. Each option c' is written
   per part: below the threshold C (or for a fixed part) its exact count; at or above it, either
   "to 0" or "minus d" (c'_i = c_i - d). For the smallest C <= ``cap`` at which every count
   vector with the same image min(c, C) has the same written option set, the quotient game
   has one move per written option, legal on the images where it is in the set.

>>> from grundy.spec.games import get_game
>>> from grundy.solvers.counting import Shape
>>> from grundy.solvers.invariant import invariant, project
>>> w1 = project(get_game("wyg"), invariant(chips=(0, 1), active=-1))
>>> q = reduce_any(w1, Shape.complete())
>>> q.cap, sorted(q.options((5,))), sorted(q.options((2,)))
(3, [(3,), (4,)], [(0,), (1,)])
"""
from __future__ import annotations

from typing import Any, Iterator, Sequence

from ..spec.expr import Expr, all_of, any_of, lift, total
from ..spec.game import Game, Move, move
from ..spec.schema import Field, SymState
from ..spec.structure import Structure
from .counting import Counted, Refused, Shape, _boxes, _check_form, _symmetric, agrees, counts_of, representative

__all__ = ["reduce_by_options", "reduce_any"]

Part = tuple[str, int]          # ("=", e) exact; ("to", 0); ("minus", d)


def _write(c: Sequence[int], o: Sequence[int], fixed: Sequence[int | None], cap: int) -> tuple[Part, ...]:
    out: list[Part] = []
    for x, y, f in zip(c, o, fixed, strict=True):
        if f is not None or x < cap:
            out.append(("=", y))
        else:
            out.append(("to", 0) if y == 0 else ("minus", x - y))
    return tuple(out)


def _fit(table: dict[tuple[int, ...], set[tuple[int, ...]]], fixed: Sequence[int | None],
         cap: int) -> dict[tuple[int, ...], frozenset] | None:
    out: dict[tuple[int, ...], frozenset] = {}
    for c, opts in table.items():
        key = tuple(x if f is not None else min(x, cap) for x, f in zip(c, fixed, strict=True))
        written = frozenset(_write(c, o, fixed, cap) for o in opts)
        if out.setdefault(key, written) != written:
            return None
    return out


class _Options(Game):
    """The game on counts: heap i holds the number of present vertices of part i; one move per
    written option."""

    structure = "heaps"
    symmetric = False

    def __init__(self, name: str, k: int, table: dict[tuple[int, ...], frozenset], fixed: Sequence[int | None],
                 cap: int):
        self.name, self.summary = name, f"{name}: the counts of present vertices per part"
        self.k, self.table, self.fixed, self.cap = k, table, tuple(fixed), cap

    def fields(self, g: Structure) -> list[Field]:
        return [Field("count", over="heaps")]

    def _cell(self, c: Sequence[Expr], key: tuple[int, ...]) -> Expr:
        return all_of((x >= self.cap) if (f is None and a == self.cap) else (x == a)
                      for x, a, f in zip(c, key, self.fixed, strict=True))

    def moves(self, g: Structure, s: SymState) -> Iterator[Move]:
        c = [s.count[i] for i in range(self.k)]
        written = sorted({w for opts in self.table.values() for w in opts})
        for w in written:
            where = any_of(self._cell(c, key) for key, opts in sorted(self.table.items()) if w in opts)
            update = {i: (lift(a) if how in ("=", "to") else c[i] - a) for i, (how, a) in enumerate(w)}
            yield move("to " + ", ".join(f"{h} {a}" for h, a in w), guard=where, update=s.set(count=update))

    def rank(self, g: Structure, s: SymState) -> Expr:
        return total(s.count[i] for i in range(self.k))


def reduce_by_options(game: Game, shape: Shape, cap: int = 4) -> Counted:
    """The counting reduction of a game with one bool field per vertex and any moves, read from
    its option sets (see the module's text), or :class:`Refused` with the reason."""
    from .counting import template_sizes
    from .explicit.compile import compile_rules
    sizes = template_sizes(shape, cap)
    rules = _check_form(game, shape.build(sizes), per_vertex=False)
    how = _symmetric(rules, sizes)
    successors = compile_rules(rules, symmetry=False, decompose=False).successors
    table: dict[tuple[int, ...], set[tuple[int, ...]]] = {}
    for c in _boxes(sizes):
        table[tuple(c)] = {counts_of(sizes, t) for t in successors(tuple(representative(sizes, c)))}
    for threshold in range(1, cap + 1):
        fitted = _fit(table, shape.fixed, threshold)
        if fitted is None:
            continue
        q: Any = _Options(f"counted {game.name} on {shape.name}", shape.k, fitted, shape.fixed, threshold)
        red = Counted(shape, game, q, threshold, sizes, how)
        bad = agrees(red, sizes)
        if bad is not None:
            raise Refused(f"the option sets are not one rule for every count: {bad}")
        return red
    raise Refused(f"the option sets need a threshold above {cap} (read on {shape.label(sizes)})")


def reduce_any(game: Game, shape: Shape, cap: int = 4) -> Counted:
    """The counting reduction: move by move (:func:`~grundy.solvers.counting.reduce_game`) for a
    game with one move per vertex without choices, else from option sets; or :class:`Refused`."""
    from .counting import reduce_game, template_sizes
    g = shape.build(template_sizes(shape, cap))
    _check_form(game, g, per_vertex=False)
    try:
        _check_form(game, g)
    except Refused:
        return reduce_by_options(game, shape, cap)
    return reduce_game(game, shape, cap)
