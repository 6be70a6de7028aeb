"""A statement built once per *order* with the structure's adjacency and loops as data: for a
builder that reads of a structure its order (kind, number of vertices, names) and, beyond it,
only ``adjacent(p, q)`` and ``has_loop(v)``, each as a value it never branches on in Python.

:func:`build_facts` gives the builder a :class:`Facts` (an :class:`~grundy.spec.order.Order`
whose ``adjacent`` and ``has_loop`` are boolean IR variables named ``@adjacent(p,q)`` and
``@loop(v)``: no slot's name starts with ``@``) and a state laid out on it, as
:func:`grundy.spec.order.build` does; the result is one IR per order, and per structure the
values of the facts the builder read. The builder's Python only combines these variables
with IR operators (a Python test of one raises TypeError: an expression has no truth value;
reading anything else of the structure raises AttributeError: both give None, no build), so
the IR with each fact replaced by the structure's value is, at every state, worth what the
builder gives on the structure itself (the IR's operators are pure; their folding of
constants keeps values). The interpreter uses it (:mod:`grundy.solvers.native.vmcode`: one
program per order, the facts in its pool of constants); everything else reads the builder's
IR on the structure, as before.

>>> from grundy.spec.games import get_game
>>> from grundy.spec.structure import Structure
>>> from grundy.spec.expr import all_of, show
>>> game = get_game("vertex-nimg")
>>> path = Structure.graph(range(3), [(0, 1), (1, 2)])
>>> def p(g, s):
...     return all_of(~g.adjacent(0, v) | (s.weight[v] >= 1) for v in (1, 2))
>>> e, facts = build_facts(p, path, game.rules(path).state)
>>> show(e)
'((~@adjacent(0,1) | (1 <= weight[1])) & (~@adjacent(0,2) | (1 <= weight[2])))'
>>> facts
{'@adjacent(0,1)': 1, '@adjacent(0,2)': 0}
>>> build_facts(lambda g, s: len(g.neighbours(0)), path, game.rules(path).state) is None
True
"""
from __future__ import annotations

import functools
from typing import Any, Callable

from ..caches import register
from .expr import BOOL, Expr, lift, variable
from .order import Order
from .schema import Schema, SymState
from .structure import Structure

__all__ = ["FACT", "Facts", "build_facts", "with_facts"]

FACT = "@"          # the first character of a fact's variable name (never a slot's)


class Facts(Order):
    """An :class:`Order` whose ``adjacent(p, q)`` and ``has_loop(v)`` are boolean variables
    (an undirected graph's pair named in increasing order); what was read is noted in
    :attr:`read` (name -> the structure's method and arguments)."""

    __slots__ = ("read", "_g")

    def __init__(self, g: Structure, edges: bool = True):
        super().__init__(g)
        self.read: dict[str, tuple[str, tuple[int, ...]]] = {}
        self._g = None if edges else g        # the edges read from g (``adjacent``: a Python bool)

    def _fact(self, name: str, method: str, args: tuple[int, ...]) -> Expr:
        self.read[name] = (method, args)
        return variable(name, BOOL)

    def adjacent(self, p: int, q: int) -> Expr | bool:
        if self._g is not None:
            return self._g.adjacent(p, q)
        if not self.directed and q < p:
            p, q = q, p
        return self._fact(f"{FACT}adjacent({p},{q})", "adjacent", (p, q))

    def has_loop(self, v: int) -> Expr:
        return self._fact(f"{FACT}loop({v})", "has_loop", (v,))


_BUILT: dict[tuple, tuple[Any, Any]] = {}     # (fn, order, fields, variables) -> (variables, (IR, facts read) or None)
_BUILT_LIMIT = 64
register("per-order-facts", lambda: len(_BUILT), _BUILT.clear)


def build_facts(fn: Callable[..., Any], g: Structure, s: SymState, edges: bool = True) -> tuple[Expr, dict[str, int]] | None:
    """``fn`` built once per order of ``g`` and state layout on a :class:`Facts` (the state
    laid out on it: the slots must be ``s``'s), and the values on ``g`` of the facts it read
    (1 or 0); None where ``fn`` reads more of the structure, tests a fact in Python, or the
    layout needs more than the order."""
    sch = s.schema
    if any(name.startswith(FACT) for name in sch.slot_by_var):
        return None
    order = Facts(g, edges)
    try:
        mine = Schema(order, list(sch.fields.values()))         # type: ignore[arg-type]  # read as a structure
    except AttributeError:
        return None
    if mine.slots != sch.slots:
        return None
    variables = sch.variables
    mine.__dict__["variables"] = variables                      # the state's own variable nodes
    key = (fn, order.key(), None if edges else (g.kind, tuple(g.edges)), tuple(sch.fields.values()),
           tuple(map(id, variables)))
    hit = _BUILT.get(key)
    if hit is None:
        try:
            made: Any = (lift(fn(order, mine.symbolic())), dict(order.read))
        except (AttributeError, TypeError):
            made = None
        if len(_BUILT) >= _BUILT_LIMIT:
            _BUILT.clear()
        hit = _BUILT[key] = (variables, made)
    if hit[1] is None:
        return None
    expr, read = hit[1]
    return expr, {name: int(getattr(g, method)(*args)) for name, (method, args) in read.items()}


def with_facts(fn: Callable[..., Any], edges: bool = True) -> Callable[..., Any]:
    """``fn`` as it is (called on a structure: the same IR), with ``.facts(g, s)``: its
    :func:`build_facts` (a claim's statement so marked is built once per order for the
    interpreter's sweep)."""
    @functools.wraps(fn)
    def statement(g: Any, s: SymState, **options: Any) -> Any:
        return fn(g, s, **options)
    statement.facts = functools.partial(build_facts, fn, edges=edges)            # type: ignore[attr-defined]
    return statement
