"""The translator's direct C-API terms (+, -, <, <=, ==, not, ite) are the terms z3's Python
operators make: the same term (numerals on either side included: Python asks a numeral's
reflected operator first), of the same Python class, in Int and bit-vector mode."""
from __future__ import annotations

import random

import z3

from grundy.solvers.smt.encode import encoding
from grundy.solvers.smt.translate import _Translator
from grundy.spec import Structure
from grundy.spec.expr import Expr, ite, lift, not_
from grundy.spec.games import get_game


class _Operators(_Translator):
    """The translation by z3's Python operators (as it was written before)."""

    def walk_add(self, x: Expr, a, b):
        return a + b

    def walk_sub(self, x: Expr, a, b):
        return a - b

    def walk_lt(self, x: Expr, a, b):
        return a < b

    def walk_le(self, x: Expr, a, b):
        return a <= b

    def walk_eq(self, x: Expr, a, b):
        return a == b

    def walk_not(self, x: Expr, a):
        return z3.Not(a)

    def walk_ite(self, x: Expr, c, a, b):
        return z3.If(c, a, b)


def _int(rng: random.Random, h: list, depth: int) -> Expr:
    if depth == 0 or rng.random() < 0.25:
        return lift(rng.randrange(0, 6)) if rng.random() < 0.4 else rng.choice(h)
    a, b = _int(rng, h, depth - 1), _int(rng, h, depth - 1)
    pick = rng.randrange(3)
    if pick == 0:
        return a + b
    if pick == 1:
        return a - b
    return ite(_bool(rng, h, depth - 1), a, b)


def _bool(rng: random.Random, h: list, depth: int) -> Expr:
    a, b = _int(rng, h, max(depth - 1, 0)), _int(rng, h, max(depth - 1, 0))
    pick = rng.randrange(5)
    if pick == 0:
        return a < b
    if pick == 1:
        return a <= b
    if pick == 2:
        return a == b
    if pick == 3 and depth > 0:
        return not_(_bool(rng, h, depth - 1))
    if depth > 0:
        return ite(_bool(rng, h, depth - 1), _bool(rng, h, depth - 1), a < b) == (b <= a)
    return a == b


def test_direct_terms_are_the_operators_terms() -> None:
    rules = get_game("nim").rules(Structure.heaps(3))
    h = [rules.state.heap[i] for i in range(3)]
    rng = random.Random(5)
    for width, w in ((None, None), (16, 16), (16, 18)):
        enc = encoding(rules, width)
        new, old = _Translator(enc, w), _Operators(enc, w)
        for _ in range(300):
            e = _bool(rng, h, 3) if rng.random() < 0.7 else _int(rng, h, 3)
            a, b = new(e), old(e)
            assert a.eq(b), (e, a, b)
            assert type(a) is type(b)
            assert a.get_id() == b.get_id()


def test_a_numeral_on_the_right_is_reflected() -> None:
    rules = get_game("nim").rules(Structure.heaps(2))
    x = rules.state.heap[0]
    for width in (None, 16):
        enc = encoding(rules, width)
        t = _Translator(enc, width)(x < 3)
        assert t.decl().kind() in (z3.Z3_OP_GT, z3.Z3_OP_SGT)   # 3 > x, as `a < IntVal(3)` makes it
        assert t.eq(_Operators(enc, width)(x < 3))
