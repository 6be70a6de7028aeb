"""IR nodes to Z3 terms: the translating walker of :mod:`grundy.solvers.smt.encode` (whose
docstring says why the bit-vector mode is exact), and its refusals."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import z3

from ...spec.expr import BOOL, INT, Expr
from ...spec.nimber import power_product
from ...spec.ops import UnsupportedOperator, Walker

__all__ = ["NO_INT_XOR", "NO_NEGATIVE_NIM", "no_int", "_Translator", "Exists"]


# --------------------------------------------------------------------------- quantified parts
@dataclass(frozen=True)
class Exists:
    """``∃ names. body`` (``negated``: its negation), a part of a query next to plain IR formulas.

    The body carries the choices' range constraints itself."""

    names: tuple[str, ...]
    body: Expr
    negated: bool = False

    def __invert__(self) -> "Exists":
        return Exists(self.names, self.body, not self.negated)


NO_INT_XOR = ("nim-sum `a ^ b` has no encoding on unbounded integers: prove this claim on "
              "bit-vectors with a bit width, methods=[bitvec(32)]")


def no_int(op: str) -> str:
    """The refusal of an operator that has no encoding on unbounded integers."""
    return (f"{op} has no encoding on unbounded integers: prove this claim on bit-vectors with a "
            f"bit width, methods=[bitvec(32)]")


NO_NEGATIVE_NIM = ("nim_product needs operands known to be non-negative (their range, from the fields' "
                   "domains, may include negative values): bound them, e.g. with `% k` or a domain")


def _log2(x: Expr) -> int | None:
    """k when ``x`` is the constant 2**k (k >= 0), else None."""
    if x.op != "const" or isinstance(x.args[0], bool):
        return None
    v = x.args[0]
    return v.bit_length() - 1 if isinstance(v, int) and v > 0 and v & (v - 1) == 0 else None


class _Translator(Walker):
    """IR nodes to Z3 terms at one working width (None: unbounded ``Int``), memoised by node."""

    def __init__(self, enc: Any, w: int | None):
        super().__init__()
        self.enc, self.w = enc, w
        self.vars: dict[str, object] = {}
        for name, v, kind, signed in zip(enc.names, enc.state_vars, enc.kinds, enc.signed, strict=False):
            if kind == "bool" or w is None or w == enc.width:
                self.vars[name] = v
            else:
                ext = z3.SignExt if signed else z3.ZeroExt
                assert enc.width is not None     # w != enc.width and w is not None: bit-vector mode
                self.vars[name] = ext(w - enc.width, v)

    def var(self, name: str, sort: str):
        v = self.vars.get(name)
        if v is None:
            if sort == BOOL:
                v = z3.Bool(name)
            else:
                v = z3.Int(name) if self.w is None else z3.BitVec(name, self.w)
            self.vars[name] = v
        return v

    def part(self, p: Any):
        if isinstance(p, Exists):
            q = z3.Exists([self.var(n, INT) for n in p.names], self(p.body))
            return z3.Not(q) if p.negated else q
        return self(p)

    def walk_const(self, x: Expr):
        v = x.args[0]
        if x.sort == BOOL:
            return z3.BoolVal(v)
        return z3.IntVal(v) if self.w is None else z3.BitVecVal(v, self.w)

    def walk_var(self, x: Expr):
        return self.var(x.args[0], x.sort)

    # The frequent operators below make the very term z3's Python operator makes (the same C
    # call on the same operands, whose sorts the IR's sorts fix: Int, or bit-vectors of the
    # working width, or Bool), without its checks and coercions, which cost more than the
    # term: the same terms, made in the same order (tests/test_smt_translate_direct.py).
    def walk_add(self, x: Expr, a, b):
        if self.w is None:
            return z3.ArithRef(_binary(z3.Z3_mk_add, a, b), a.ctx)
        return z3.BitVecRef(z3.Z3_mk_bvadd(a.ctx.ref(), a.as_ast(), b.as_ast()), a.ctx)

    def walk_sub(self, x: Expr, a, b):
        if self.w is None:
            return z3.ArithRef(_binary(z3.Z3_mk_sub, a, b), a.ctx)
        return z3.BitVecRef(z3.Z3_mk_bvsub(a.ctx.ref(), a.as_ast(), b.as_ast()), a.ctx)

    def walk_mul(self, x: Expr, a, b):
        return a * b

    walk_nmul = walk_mul     # non-linear on Int; exact on bit-vectors at the working width

    def walk_div(self, x: Expr, a, b):
        if self.w is None:           # SMT-LIB div: floor semantics for a positive divisor
            return a / b
        k = _log2(x.args[1])
        if k is not None:            # floor division by 2**k: the arithmetic shift (two's complement)
            return a >> k
        return (a - a % b) / b       # z3's BV % is bvsmod (Python's % for k > 0); the quotient is exact

    def walk_mod(self, x: Expr, a, b):
        k = _log2(x.args[1])
        if self.w is not None and k is not None:
            # Python's a % 2**k is a's low k bits, negative a included (two's complement): a mask
            # costs Z3 far less than bvsmod (3 times on the self-referential Nim queries)
            return a & z3.BitVecVal((1 << k) - 1, self.w)
        return a % b

    def walk_xor(self, x: Expr, a, b):
        if self.w is None:
            raise UnsupportedOperator(NO_INT_XOR)
        return a ^ b                 # bvxor: exact at the working width (see Intervals.walk_xor)

    def walk_bit_and(self, x: Expr, a, b):
        if self.w is None:
            raise UnsupportedOperator(no_int("bit_and"))
        return a & b                 # exact: bitwise operations commute with sign extension

    def walk_bit_or(self, x: Expr, a, b):
        if self.w is None:
            raise UnsupportedOperator(no_int("bit_or"))
        return a | b

    def walk_popcount(self, x: Expr, a):
        """The sum of the bits of ``|a|``: the w-bit pattern of ``-a`` read unsigned is ``|a|``
        even for ``a = -2**(w-1)``."""
        if self.w is None:
            raise UnsupportedOperator(no_int("popcount"))
        m = z3.If(a < 0, -a, a)
        return z3.Sum([z3.ZeroExt(self.w - 1, z3.Extract(i, i, m)) for i in range(self.w)])

    def walk_nim_product(self, x: Expr, a, b):
        """GF(2)-bilinear: the XOR, over bits i of a and j of b, of ``2**i ⊗ 2**j`` when both
        bits are set. Operands are non-negative (checked by :meth:`Encoding.width_for`), so their
        bits below the sign bit are all; products of those bits' nimbers fit the width (the
        interval of :meth:`Intervals.walk_nim_product`) or meet a zero bit."""
        if self.w is None:
            raise UnsupportedOperator(no_int("nim_product"))
        w = self.w
        bits_b = [z3.SignExt(w - 1, z3.Extract(j, j, b)) for j in range(w - 1)]   # all ones if bit j set
        rows = []
        for i in range(w - 1):
            terms = [bits_b[j] & z3.BitVecVal(power_product(i, j) % (1 << w), w) for j in range(w - 1)]
            row = terms[0]
            for t in terms[1:]:
                row = row ^ t
            rows.append(z3.SignExt(w - 1, z3.Extract(i, i, a)) & row)
        out = rows[0]
        for r in rows[1:]:
            out = out ^ r
        return out

    def walk_lt(self, x: Expr, a, b):
        if self.w is None:
            return _compare(z3.Z3_mk_lt, z3.Z3_mk_gt, a, b)
        return _compare(z3.Z3_mk_bvslt, z3.Z3_mk_bvsgt, a, b)

    def walk_le(self, x: Expr, a, b):
        if self.w is None:
            return _compare(z3.Z3_mk_le, z3.Z3_mk_ge, a, b)
        return _compare(z3.Z3_mk_bvsle, z3.Z3_mk_bvsge, a, b)

    # ``=``, ``not`` and ``ite`` by the C API (the same terms as z3's ``==``, ``Not`` and ``If``:
    # the IR gives both sides one sort, so z3's coercions, which cost more than the terms, would
    # change nothing; operands of two sorts are refused by Z3 as before)
    def walk_eq(self, x: Expr, a, b):
        return _compare(z3.Z3_mk_eq, z3.Z3_mk_eq, a, b)

    def walk_not(self, x: Expr, a):
        return z3.BoolRef(z3.Z3_mk_not(a.ctx.ref(), a.as_ast()), a.ctx)

    def walk_and(self, x: Expr, *a):
        return _connective(z3.Z3_mk_and, a)

    def walk_or(self, x: Expr, *a):
        return _connective(z3.Z3_mk_or, a)

    def walk_ite(self, x: Expr, c, a, b):
        ctx = c.ctx
        term = z3.Z3_mk_ite(ctx.ref(), c.as_ast(), a.as_ast(), b.as_ast())
        if x.sort == BOOL:
            return z3.BoolRef(term, ctx)
        return z3.ArithRef(term, ctx) if self.w is None else z3.BitVecRef(term, ctx)

    def walk_min(self, x: Expr, *a):
        out = a[0]
        for y in a[1:]:
            out = z3.If(y < out, y, out)
        return out

    def walk_max(self, x: Expr, *a):
        out = a[0]
        for y in a[1:]:
            out = z3.If(y > out, y, out)
        return out


def _binary(make, a, b):
    """The C API's n-ary ``make`` on two operands (as z3's Python ``+`` and ``-`` call it)."""
    arr = (z3.Ast * 2)(a.as_ast(), b.as_ast())
    return make(a.ctx.ref(), 2, arr)


def _compare(make, reflected, a, b) -> "z3.BoolRef":
    """``a < b`` (``make``; ``reflected``: ``>``) as Python makes it of z3's terms: where ``b``'s
    class is a proper subclass of ``a``'s (a numeral, ``IntNumRef`` of ``ArithRef``), Python asks
    ``b``'s reflected operator first, and z3 makes ``b > a``."""
    if type(b) is not type(a) and isinstance(b, type(a)):
        a, b, make = b, a, reflected
    return z3.BoolRef(make(a.ctx.ref(), a.as_ast(), b.as_ast()), a.ctx)


def _connective(make, args: tuple) -> "z3.BoolRef":
    """``z3.And(*args)`` / ``z3.Or(*args)`` of Boolean terms of one context, made by the C API
    directly (the operands are Boolean by the IR's sorts: z3's coercion of each one, which costs
    more than the term itself on long conjunctions, is not needed)."""
    ctx = args[0].ctx
    arr = (z3.Ast * len(args))(*[t.as_ast() for t in args])
    return z3.BoolRef(make(ctx.ref(), len(args), arr), ctx)
