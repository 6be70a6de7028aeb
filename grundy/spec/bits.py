"""Nim arithmetic and bit operations on integer expressions: the smart constructors of the
catalogue's ``nim_product``, ``popcount``, ``bit_and`` and ``bit_or``, and shifts by constants
(written with ``*`` and ``//``, so every backend has them). See docs/operators.md.

>>> from grundy.spec.expr import Var, evaluate
>>> a, b = Var.int("a"), Var.int("b")
>>> evaluate(nim_product(a, b) ^ popcount(a), {"a": 3, "b": 4})
14
"""
from __future__ import annotations

from .expr import INT, Expr, Term, _arith, _by_constant, _need, _node, const_value, lift

__all__ = ["nim_product", "popcount", "bit_and", "bit_or", "shift_left", "shift_right"]


def _ints(what: str, *items: Term) -> list[Expr]:
    return [_need(lift(a), INT, what) for a in items]


def nim_product(a: Term, b: Term) -> Expr:
    """The nim product ``a ⊗ b`` of two non-negative integer expressions (the multiplication of
    the nimbers: ``2 ⊗ 2 == 3``; a negative operand is an error). The SMT backend encodes it on
    bit-vectors, as the XOR of ``2**i ⊗ 2**j`` over the set bits ``i`` of ``a`` and ``j`` of ``b``.

    >>> from grundy.spec.expr import Var, evaluate, show
    >>> a, b = Var.int("a"), Var.int("b")
    >>> evaluate(nim_product(a, b), {"a": 2, "b": 3}), show(nim_product(a, 1)), show(nim_product(4, 4))
    (1, 'a', '6')
    """
    a, b = _ints("nim_product", a, b)
    if const_value(a) == 0 or const_value(b) == 0:
        return lift(0)
    if const_value(b) == 1:
        return a
    if const_value(a) == 1:
        return b
    return _node("nim_product", (a, b))


def popcount(a: Term) -> Expr:
    """The number of 1 bits of ``|a|`` (odious numbers: ``popcount(n) % 2 == 1``).

    >>> from grundy.spec.expr import Var, evaluate, show
    >>> evaluate(popcount(Var.int("n")), {"n": 13}), show(popcount(7))
    (3, '3')
    """
    (a,) = _ints("popcount", a)
    return _node("popcount", (a,))


def bit_and(a: Term, b: Term) -> Expr:
    """Bitwise and of two integer expressions (``&`` on expressions is the logical and).

    >>> from grundy.spec.expr import Var, evaluate, show
    >>> evaluate(bit_and(Var.int("x"), 6), {"x": 13})
    4
    """
    a, b = _ints("bit_and", a, b)
    if const_value(a) == 0 or const_value(b) == 0:
        return lift(0)
    return _node("bit_and", (a, b))


def bit_or(a: Term, b: Term) -> Expr:
    """Bitwise or of two integer expressions (``|`` on expressions is the logical or).

    >>> from grundy.spec.expr import Var, evaluate, show
    >>> evaluate(bit_or(Var.int("x"), 6), {"x": 9})
    15
    """
    a, b = _ints("bit_or", a, b)
    if const_value(b) == 0:
        return a
    if const_value(a) == 0:
        return b
    return _node("bit_or", (a, b))


def _shift(k: Term) -> int:
    kv = const_value(lift(k))
    if not isinstance(kv, int) or isinstance(kv, bool) or kv < 0:
        raise TypeError("a shift needs a non-negative integer constant as its amount")
    return kv


def shift_left(a: Term, k: Term) -> Expr:
    """``a << k`` for a constant ``k >= 0``: written as ``a * 2**k`` (linear, in every backend).

    >>> from grundy.spec.expr import Var, evaluate, show
    >>> show(shift_left(Var.int("x"), 3))
    '(x * 8)'
    """
    return _arith("mul", _need(lift(a), INT, "shift_left"), 1 << _shift(k))


def shift_right(a: Term, k: Term) -> Expr:
    """``a >> k`` for a constant ``k >= 0``: written as ``a // 2**k`` (floor division, as Python's ``>>``).

    >>> from grundy.spec.expr import Var, evaluate, show
    >>> evaluate(shift_right(Var.int("x"), 2), {"x": -9}), -9 >> 2
    (-3, -3)
    """
    a, kv = _need(lift(a), INT, "shift_right"), _shift(k)
    return a if kv == 0 else _by_constant("div", a, 1 << kv)
