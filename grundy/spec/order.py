"""IR built once per *order* of a structure (its kind, number of vertices and their names),
for builders that read nothing else of it: a game whose graph lives in the state (vertexnim:
the adjacency is a field), a statement of the current graph. The builder is given an
:class:`Order` instead of the structure (reading anything else, e.g. its edges, is an
AttributeError) and a symbolic state on a schema laid out on that Order (the same slots and
the same variable nodes as the real state's, checked), so what it builds is what it would
build on the structure; structures of one order then share one build.

>>> from grundy.spec.games import get_game
>>> from grundy.spec.structure import Structure
>>> game = get_game("vertexnim")
>>> path, star = Structure.graph(range(3), [(0, 1), (1, 2)]), Structure.graph(range(3), [(0, 1), (0, 2)])
>>> made = []
>>> def f(g, s):
...     made.append(g.n)
...     return s.weight[g.n - 1] >= 1
>>> states = [Schema(g, game.fields(g)).symbolic() for g in (path, star)]      # one layout
>>> [str(build(f, g, s)) for g, s in zip((path, star), states)], made
(['(1 <= weight[2])', '(1 <= weight[2])'], [3])
>>> build(lambda g, s: len(g.edges), path, game.rules(path).state)
Traceback (most recent call last):
...
AttributeError: 'Order' object has no attribute 'edges'
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from ..caches import register
from .schema import Schema, SymState
from .structure import Structure

__all__ = ["Order", "build", "game_moves", "moves_of", "moves_part"]


class Order:
    """What an order-only builder may read of a structure: ``kind``, ``n``, ``names``,
    ``directed`` and ``vertices`` (nothing else)."""

    __slots__ = ("kind", "n", "names", "directed", "vertices")

    def __init__(self, g: Structure | Order):
        self.kind: str = g.kind
        self.n: int = g.n
        self.names: list[Any] = list(g.names)
        self.directed: bool = g.directed
        self.vertices: list[int] = list(g.vertices)

    def key(self) -> tuple:
        return (self.kind, self.n, self.directed, tuple((type(v).__name__, v) for v in self.names))


_BUILT: dict[tuple, tuple[Any, Any]] = {}     # (fn, order, fields, variables, options) -> (variables, IR)
_BUILT_LIMIT = 64
register("per-order", lambda: len(_BUILT), _BUILT.clear)


def build(fn: Callable[..., Any], g: Structure | Order, s: SymState, **options: Any) -> Any:
    """``fn(g, s, **options)``, built once per :class:`Order` of ``g``, state layout and
    options: ``fn`` gets the Order and a state whose schema is laid out on it (the slots must be
    ``s``'s: else, or where the layout needs more than the Order, e.g. a field over the edges,
    ``fn`` is run on ``g`` itself). The entry keeps the variable nodes alive (their ids are in
    the key), so a hit gives the nodes a build on ``g`` would give."""
    order, sch = Order(g), s.schema
    try:
        mine = Schema(order, list(sch.fields.values()))         # type: ignore[arg-type]  # read as a structure
    except AttributeError:
        return fn(g, s, **options)
    if mine.slots != sch.slots:
        return fn(g, s, **options)
    variables = sch.variables
    mine.__dict__["variables"] = variables                      # the state's own variable nodes
    key = (fn, order.key(), tuple(sch.fields.values()), tuple(map(id, variables)), tuple(sorted(options.items())))
    hit = _BUILT.get(key)
    if hit is None:
        if len(_BUILT) >= _BUILT_LIMIT:
            _BUILT.clear()
        hit = _BUILT[key] = (variables, fn(order, mine.symbolic(), **options))
    return hit[1]


def moves_of(g: Any, s: SymState, game: Any) -> tuple[Any, ...]:
    """``game``'s moves on ``g`` (what :func:`build` makes once per order for a game with
    ``moves_per_order``)."""
    return tuple(game.moves(g, s))


def game_moves(game: Any, g: Structure, s: SymState) -> tuple[tuple[Any, ...] | None, list[Any]]:
    """``game``'s moves on ``g`` as a list, and the build they come from where the game has
    ``moves_per_order`` (one per order, shared: :func:`build` of :func:`moves_of`), else None."""
    if not game.moves_per_order:
        return None, list(game.moves(g, s))
    shared: tuple[Any, ...] = build(moves_of, g, s, game=game)
    return shared, list(shared)


_PARTS: dict[int, tuple[tuple[Any, ...], tuple[Any, ...], list[Any]]] = {}   # id of a build -> (it, key, keep)
_PARTS_LIMIT = 64
register("moves-parts", lambda: len(_PARTS), _PARTS.clear)


def moves_part(moves: Sequence[Any], shared: tuple[Any, ...] | None = None) -> tuple[tuple[Any, ...], list[Any]]:
    """The moves by node identity (each one's label, guard, choices and updates: the part of
    :attr:`Rules.moves_key <grundy.spec.game.Rules.moves_key>` they make) and the nodes it
    names; once per shared build ``shared`` (:func:`moves_of`), when ``moves`` are its moves."""
    if shared is not None and len(moves) == len(shared) and all(a is b for a, b in zip(moves, shared)):
        hit = _PARTS.get(id(shared))
        if hit is not None and hit[0] is shared:
            return hit[1], hit[2]
    key, keep = [], []
    for m in moves:
        ups = sorted(m.update.items())
        key.append((m.label, id(m.guard), tuple((id(c.var), id(c.lo), id(c.hi)) for c in m.choices),
                    tuple((i, id(u)) for i, u in ups)))
        keep.append((m.guard, m.choices, ups))
    out = tuple(key)
    if shared is not None and len(moves) == len(shared) and all(a is b for a, b in zip(moves, shared)):
        if len(_PARTS) >= _PARTS_LIMIT:
            _PARTS.clear()
        _PARTS[id(shared)] = (shared, out, keep)
    return out, keep
