"""Nim arithmetic on non-negative integers: the nim product (the field multiplication of the
nimbers), the meaning of the IR's ``nim_product`` operator.

The nim product is GF(2)-bilinear: ``a ⊗ b`` is the nim-sum (XOR), over the set bits ``i`` of
``a`` and ``j`` of ``b``, of ``2**i ⊗ 2**j`` (:func:`power_product`). Products of Fermat 2-powers
``F = 2**(2**k)`` follow ``F ⊗ F = F ⊕ F/2`` and ``x ⊗ F = x·F`` for ``x < F``; splitting each
operand into halves below and above ``F`` gives the recursion of :func:`nim_multiply`.

>>> [nim_multiply(2, b) for b in range(4)], nim_multiply(2, 2), nim_multiply(4, 4), nim_multiply(16, 16)
([0, 2, 3, 1], 3, 6, 24)
>>> all(nim_multiply(a, b) == _bilinear(a, b) for a in range(40) for b in range(40))
True
"""
from __future__ import annotations

from functools import lru_cache

__all__ = ["nim_multiply", "power_product", "fermat_bits"]


def nim_multiply(a: int, b: int) -> int:
    """The nim product ``a ⊗ b`` of two non-negative integers (ValueError for a negative one)."""
    if a < 0 or b < 0:
        raise ValueError(f"nim_product of a negative number ({a}, {b}): nimbers are non-negative")
    if a < 2 or b < 2:
        return a * b
    return _product(a, b, fermat_bits(max(a, b)))


def fermat_bits(v: int) -> int:
    """The least power of two ``L`` with ``v < 2**L`` (``L >= 1``): the nimbers below ``2**L``
    form a field, so a product of two of them stays below ``2**L``.

    >>> fermat_bits(1), fermat_bits(3), fermat_bits(4), fermat_bits(255), fermat_bits(256)
    (1, 2, 4, 8, 16)
    """
    n, L = max(v, 1).bit_length(), 1
    while L < n:
        L *= 2
    return L


@lru_cache(maxsize=1 << 16)
def _product(a: int, b: int, L: int) -> int:
    """``a ⊗ b`` for ``a, b < 2**L`` (``L`` a power of two)."""
    if a < 2 or b < 2:
        return a * b
    h = L // 2
    mask = (1 << h) - 1
    a1, a0, b1, b0 = a >> h, a & mask, b >> h, b & mask
    hi = _product(a1, b1, h)
    mid = _product(a1 ^ a0, b1 ^ b0, h) ^ _product(a0, b0, h)      # (a1 b0) ⊕ (a0 b1) ⊕ (a1 b1)
    return (mid << h) ^ _product(a0, b0, h) ^ _product(hi, 1 << (h - 1), h)


def power_product(i: int, j: int) -> int:
    """``2**i ⊗ 2**j``: the constants of the bilinear form (the Z3 encoding's table)."""
    return nim_multiply(1 << i, 1 << j)


def _bilinear(a: int, b: int) -> int:
    out = 0
    for i in range(a.bit_length()):
        if a >> i & 1:
            for j in range(b.bit_length()):
                if b >> j & 1:
                    out ^= power_product(i, j)
    return out
