"""Rewrites of the IR for Z3: substitution, and comparisons in a linear normal form."""
from __future__ import annotations

from typing import Callable

from ...spec.expr import INT, Expr, lift, nodes
from ...spec.rebuild import Rebuild

__all__ = ["walk", "substitute", "substituter", "uses", "normalize"]


def walk(e: Expr, done: dict[int, object]) -> list[Expr]:
    """The nodes under ``e`` not yet in ``done`` (keyed by id), children before parents."""
    return nodes(e, skip=done)


def substitute(e: Expr, mapping: dict[str, Expr]) -> Expr:
    """``e`` with the named variables replaced (constants fold again; untouched parts are shared).

    >>> from grundy.spec.expr import Var, show
    >>> x, y = Var.int("x"), Var.int("y")
    >>> show(substitute((x + y < 3) & (y == 1), {"y": lift(1)}))
    '((x + 1) < 3)'
    """
    if not mapping:
        return e
    return Rebuild(mapping).walk(lift(e))


def substituter(mapping: dict[str, Expr]) -> Callable[[Expr], Expr]:
    """:func:`substitute` with ``mapping`` for many expressions, one memo shared among them (a
    subterm common to several is rebuilt once: the same nodes as one call each).

    >>> from grundy.spec.expr import Var, show
    >>> x, y = Var.int("x"), Var.int("y")
    >>> sub = substituter({"y": lift(1)})
    >>> [show(sub(e)) for e in (x + y < 3, y == 1, x)]
    ['((x + 1) < 3)', 'True', 'x']
    """
    if not mapping:
        return lambda e: e
    walker = Rebuild(mapping)
    return lambda e: walker.walk(lift(e))


def uses(e: Expr, names: set[str]) -> bool:
    """Whether ``e`` mentions any of the named variables."""
    return any(x.op == "var" and x.args[0] in names for x in nodes(e))


def normalize(e: Expr, memo: dict[int, tuple[Expr, Expr]] | None = None) -> Expr:
    """``e`` with every integer comparison put in a linear normal form: both sides as sums of
    atoms (variables and non-linear subterms) with positive coefficients, common terms
    cancelled (``a + b + w < a + b + c`` becomes ``w < c``). An identity over the integers; it
    spares the bit-vector solver from proving that adders cancel.

    >>> from grundy.spec.expr import Var, show, minimum
    >>> x, y, z = Var.int("x"), Var.int("y"), Var.int("z")
    >>> show(normalize(x + y - 1 < z + y))
    '(x < (z + 1))'
    >>> show(normalize(2 * x == minimum(y, z) + x))
    '(x == minimum(y, z))'
    """
    return _Normalize(memo).walk(lift(e))


class _Normalize(Rebuild):
    """The walker behind :func:`normalize`: integer comparisons in linear normal form, every
    other operator rebuilt as it is."""

    def __init__(self, memo: dict[int, tuple[Expr, Expr]] | None):
        super().__init__({})
        if memo is not None:
            self.memo = memo
        self.lin: dict[int, tuple[dict, int]] = {}

    def _compare(self, x: Expr, *ab: Expr) -> Expr:    # Rebuild's walk_<op> signature; a comparison has two
        a, b = ab
        if a.sort != INT:
            return self._same(x, a, b)
        return _normal_cmp(x.op, _linear(a, self.lin), _linear(b, self.lin))

    walk_lt = walk_le = walk_eq = _compare


def _linear(x: Expr, lin: dict[int, tuple[dict, int]]) -> tuple[dict, int]:
    """``x`` as ({atom key: (atom, coefficient)}, constant)."""
    hit = lin.get(id(x))
    if hit is not None:
        return hit
    op = x.op
    if op == "const":
        out: tuple[dict, int] = ({}, x.args[0])
    elif op == "var":
        out = ({("var", x.args[0]): (x, 1)}, 0)
    elif op in ("add", "sub"):
        (ta, ca), (tb, cb) = _linear(x.args[0], lin), _linear(x.args[1], lin)
        sign = 1 if op == "add" else -1
        terms = dict(ta)
        for k, (atom, c) in tb.items():
            terms[k] = (atom, terms.get(k, (atom, 0))[1] + sign * c)
        out = ({k: v for k, v in terms.items() if v[1] != 0}, ca + sign * cb)
    elif op == "mul":
        a, b = x.args
        c, y = (a.args[0], b) if a.op == "const" else (b.args[0], a)
        ty, cy = _linear(y, lin)
        out = ({k: (atom, c * v) for k, (atom, v) in ty.items()}, c * cy)
    else:
        out = ({("node", id(x)): (x, 1)}, 0)
    lin[id(x)] = out
    return out


def _normal_cmp(op: str, a: tuple[dict, int], b: tuple[dict, int]) -> Expr:
    terms = dict(a[0])
    for k, (atom, c) in b[0].items():
        terms[k] = (atom, terms.get(k, (atom, 0))[1] - c)
    const = a[1] - b[1]
    left = [(atom, c) for atom, c in terms.values() if c > 0]
    right = [(atom, -c) for atom, c in terms.values() if c < 0]
    lhs = _sum(left, max(const, 0))
    rhs = _sum(right, max(-const, 0))
    return lhs < rhs if op == "lt" else lhs <= rhs if op == "le" else lhs == rhs


def _sum(terms: list[tuple[Expr, int]], const: int) -> Expr:
    out: Expr = lift(0)
    for atom, c in terms:
        out = out + (atom if c == 1 else c * atom)
    return out + const
