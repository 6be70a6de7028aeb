"""Ranges of the IR's integer nodes, given ranges of the variables: the widths a bit-vector
encoding needs so that nothing wraps around."""
from __future__ import annotations

from typing import Iterable, Union

from ...spec.expr import BOOL, Expr, lift
from ...spec.nimber import fermat_bits
from ...spec.ops import Walker

__all__ = ["Interval", "intervals", "Intervals", "signed_bits"]

Interval = tuple[Union[int, None], Union[int, None]]   # None: unbounded on that side


def _add(a: int | None, b: int | None) -> int | None:
    return None if a is None or b is None else a + b


def _floor_div(a: int | None, k: int) -> int | None:
    return None if a is None else a // k


def intervals(roots: Iterable[Expr], var_iv: dict[str, Interval],
              memo: dict[int, tuple[Expr, Interval]] | None = None) -> dict[int, tuple[Expr, Interval]]:
    """A range for every integer node under ``roots``, given ranges of the variables
    (memo: node id -> (node, interval); bool nodes map to ``(None, None)``).

    >>> from grundy.spec.expr import Var
    >>> x = Var.int("x")
    >>> e = (x - 3) // 2
    >>> intervals([e], {"x": (0, 10)})[id(e)][1]
    (-2, 3)
    """
    walker = Intervals(var_iv, memo)
    for root in roots:
        walker.walk(lift(root))
    return walker.memo


def _corners(a: Interval, b: Interval) -> Interval:
    """The range of ``x * y`` for x in ``a``, y in ``b``."""
    (l1, h1), (l2, h2) = a, b
    if l1 is None or h1 is None or l2 is None or h2 is None:
        if l1 is not None and l2 is not None and l1 >= 0 and l2 >= 0:
            return (l1 * l2, None if h1 is None or h2 is None else h1 * h2)
        return (None, None)
    ps = [l1 * l2, l1 * h2, h1 * l2, h1 * h2]
    return (min(ps), max(ps))


class Intervals(Walker):
    """The walker behind :func:`intervals`: a range for every integer node (bool nodes: ``(None, None)``)."""

    def __init__(self, var_iv: dict[str, Interval], memo: dict | None = None):
        super().__init__()
        if memo is not None:
            self.memo = memo
        self.var_iv = var_iv

    def walk_const(self, x: Expr) -> Interval:
        return (None, None) if x.sort == BOOL else (x.args[0], x.args[0])

    def walk_var(self, x: Expr) -> Interval:
        if x.sort == BOOL:
            return (None, None)
        try:
            return self.var_iv[x.args[0]]
        except KeyError:
            raise KeyError(f"no range known for variable {x.args[0]!r}") from None

    def walk_add(self, x: Expr, a: Interval, b: Interval) -> Interval:
        return (_add(a[0], b[0]), _add(a[1], b[1]))

    def walk_sub(self, x: Expr, a: Interval, b: Interval) -> Interval:
        return (_add(a[0], None if b[1] is None else -b[1]), _add(a[1], None if b[0] is None else -b[0]))

    def walk_mul(self, x: Expr, a: Interval, b: Interval) -> Interval:
        return _corners(a, b)

    walk_nmul = walk_mul

    def walk_div(self, x: Expr, a: Interval, b: Interval) -> Interval:
        k = b[0]
        assert k is not None        # the IR takes ``//`` by a positive constant only (expr._by_constant)
        return (_floor_div(a[0], k), _floor_div(a[1], k))

    def walk_mod(self, x: Expr, a: Interval, b: Interval) -> Interval:
        k = b[0]
        assert k is not None        # the IR takes ``%`` by a positive constant only (expr._by_constant)
        lo, hi = a
        if lo is not None and lo >= 0 and hi is not None and hi < k:
            return (lo, hi)
        return (0, k - 1)

    def walk_xor(self, x: Expr, a: Interval, b: Interval) -> Interval:
        """Two values that fit in n-bit two's complement have a nim-sum that does too (and
        non-negative values below 2^m one below 2^m)."""
        nonneg = a[0] is not None and a[0] >= 0 and b[0] is not None and b[0] >= 0
        (l1, h1), (l2, h2) = a, b
        if l1 is None or h1 is None or l2 is None or h2 is None:
            return (0, None) if nonneg else (None, None)
        n = max(signed_bits(l1, h1), signed_bits(l2, h2))
        return (0 if nonneg else -(1 << (n - 1)), (1 << (n - 1)) - 1)

    def walk_bit_and(self, x: Expr, a: Interval, b: Interval) -> Interval:
        """A non-negative operand bounds the result (its bits are a subset of that operand's)."""
        his = [p[1] for p in (a, b) if p[0] is not None and p[0] >= 0]
        if his:
            return (0, None if None in his else min(h for h in his if h is not None))
        return _signed_range(a, b)

    def walk_bit_or(self, x: Expr, a: Interval, b: Interval) -> Interval:
        (l1, h1), (l2, h2) = a, b
        if l1 is not None and l1 >= 0 and l2 is not None and l2 >= 0:
            if h1 is None or h2 is None:
                return (max(l1, l2), None)
            return (max(l1, l2), (1 << max(h1.bit_length(), h2.bit_length())) - 1)
        return _signed_range(a, b)

    def walk_popcount(self, x: Expr, a: Interval) -> Interval:
        lo, hi = a
        if lo is None or hi is None:
            return (0, None)
        return (0, max(abs(lo), abs(hi)).bit_length())

    def walk_nim_product(self, x: Expr, a: Interval, b: Interval) -> Interval:
        """Non-negative operands below ``2**L`` (``L`` a power of two) have a nim product below
        ``2**L``: the nimbers below ``2**L`` are a field. (A possibly negative operand: no range.)"""
        (l1, h1), (l2, h2) = a, b
        if l1 is None or l2 is None or l1 < 0 or l2 < 0:
            return (None, None)
        if h1 is None or h2 is None:
            return (0, None)
        return (0, (1 << fermat_bits(max(h1, h2))) - 1)

    def walk_min(self, x: Expr, *a: Interval) -> Interval:
        los, his = [p[0] for p in a if p[0] is not None], [p[1] for p in a if p[1] is not None]
        return (min(los) if len(los) == len(a) else None, min(his) if his else None)

    def walk_max(self, x: Expr, *a: Interval) -> Interval:
        los, his = [p[0] for p in a if p[0] is not None], [p[1] for p in a if p[1] is not None]
        return (max(los) if los else None, max(his) if len(his) == len(a) else None)

    def walk_ite(self, x: Expr, c: Interval, a: Interval, b: Interval) -> Interval:
        if x.sort == BOOL:
            return (None, None)
        (l1, h1), (l2, h2) = a, b
        return (None if l1 is None or l2 is None else min(l1, l2),
                None if h1 is None or h2 is None else max(h1, h2))

    def _bool(self, x: Expr, *a: Interval) -> Interval:
        return (None, None)

    walk_lt = walk_le = walk_eq = walk_not = walk_and = walk_or = _bool


def _signed_range(a: Interval, b: Interval) -> Interval:
    """The n-bit two's-complement range, n the width of both operands: a bitwise operation of
    two values of that range stays in it (bitwise operations commute with sign extension)."""
    (l1, h1), (l2, h2) = a, b
    if l1 is None or h1 is None or l2 is None or h2 is None:
        return (None, None)
    n = max(signed_bits(l1, h1), signed_bits(l2, h2))
    return (-(1 << (n - 1)), (1 << (n - 1)) - 1)


def signed_bits(lo: int, hi: int) -> int:
    """The least two's-complement width holding every integer in [lo, hi].

    >>> signed_bits(0, 255), signed_bits(-1, 0), signed_bits(-129, 5)
    (9, 1, 9)
    """
    w = 1
    while not (-(1 << (w - 1)) <= lo and hi <= (1 << (w - 1)) - 1):
        w += 1
    return w
