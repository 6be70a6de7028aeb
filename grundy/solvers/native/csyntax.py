"""The C spelling of the IR: the kernel's expressions, from the same move plans as the
Python solver's (:func:`grundy.solvers.explicit.compile.move_plan`); only the syntax differs.

>>> from grundy.spec.expr import Var
>>> x = Var.int("x")
>>> CSyntax({"x": "s[0]"}, set()).expr((x * 3) // 2)
'fdiv(mulc(s[0], 3LL), 2LL)'
"""
from __future__ import annotations

from ...spec.ops import OPS
from ..explicit.plan import Emitter

__all__ = ["CSyntax", "C"]


class CSyntax(Emitter):
    """Expressions written in C (64-bit signed; overflow of * flagged, floor division and
    Python's modulo sign by helper functions, ``^ & |`` on two's complement as Python's; the
    nim product and popcount by helpers of ``c/runtime.c``, a nim product of a negative number
    or past 63 bits flagged as an overflow)."""

    def const(self, value, sort: str) -> str:
        return f"{int(value)}LL" if sort == "int" else ("1" if value else "0")

    def let(self, name: str, src: str) -> str:
        return f"const I {name} = {src};"

    def _infix(self, x, a: str, b: str) -> str:
        return f"({a} {OPS[x.op].infix} {b})"

    walk_add = walk_sub = walk_xor = walk_lt = walk_le = walk_eq = _infix

    def walk_mul(self, x, a: str, b: str) -> str:
        return f"mulc({a}, {b})"

    walk_nmul = walk_mul

    def walk_div(self, x, a: str, b: str) -> str:
        return f"fdiv({a}, {b})"

    def walk_mod(self, x, a: str, b: str) -> str:
        return f"fmd({a}, {b})"

    def walk_bit_and(self, x, a: str, b: str) -> str:
        return f"({a} & {b})"

    def walk_bit_or(self, x, a: str, b: str) -> str:
        return f"({a} | {b})"

    def walk_popcount(self, x, a: str) -> str:
        return f"popc({a})"

    def walk_nim_product(self, x, a: str, b: str) -> str:
        return f"nimmul({a}, {b})"

    def walk_not(self, x, a: str) -> str:
        return f"(!{a})"

    def walk_and(self, x, *a: str) -> str:
        return "(" + " && ".join(a) + ")"

    def walk_or(self, x, *a: str) -> str:
        return "(" + " || ".join(a) + ")"

    def walk_ite(self, x, c: str, a: str, b: str) -> str:
        return f"({c} ? {a} : {b})"

    def _fold(self, fn: str, a: tuple[str, ...]) -> str:
        out = a[-1]
        for y in reversed(a[:-1]):
            out = f"{fn}({y}, {out})"
        return out

    def walk_min(self, x, *a: str) -> str:
        return self._fold("imin", a)

    def walk_max(self, x, *a: str) -> str:
        return self._fold("imax", a)


C = CSyntax
