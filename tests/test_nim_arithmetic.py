"""Nim arithmetic and bit operations (issue 20, item 2): the nim product against values from
the literature and the field laws, every backend on the new operators (Python, C, Z3 on
bit-vectors), refusals on unbounded integers, and deep expressions that compile."""
import ctypes

import pytest
import z3

from grundy.solvers.explicit.compile import PythonSyntax, compile_expr, shared_nodes
from grundy.solvers.native import build
from grundy.solvers.native.csyntax import CSyntax
from grundy.solvers.smt.encode import NO_NEGATIVE_NIM, Intervals, _Translator, encoding, signed_bits
from grundy.spec import Structure, ite
from grundy.spec.bits import bit_and, bit_or, nim_product, popcount, shift_left, shift_right
from grundy.spec.expr import Var, evaluate, lift
from grundy.spec.games import get_game
from grundy.spec.nimber import nim_multiply
from grundy.spec.ops import UnsupportedOperator

A, B = Var.int("a"), Var.int("b")

# Conway, On Numbers and Games, ch. 6 (and Berlekamp-Conway-Guy, Winning Ways, ch. 14): the nim
# multiplication table below 16, rows 2, 3, 8 and the squares of the Fermat 2-powers
ROW2 = [0, 2, 3, 1, 8, 10, 11, 9, 12, 14, 15, 13, 4, 6, 7, 5]
ROW3 = [0, 3, 1, 2, 12, 15, 13, 14, 4, 7, 5, 6, 8, 11, 9, 10]
ROW8 = [0, 8, 12, 4, 11, 3, 7, 15, 13, 5, 1, 9, 6, 14, 10, 2]


def test_nim_product_against_the_literature():
    assert [nim_multiply(2, b) for b in range(16)] == ROW2
    assert [nim_multiply(3, b) for b in range(16)] == ROW3
    assert [nim_multiply(8, b) for b in range(16)] == ROW8
    assert [nim_multiply(f, f) for f in (2, 4, 16, 256, 65536)] == [3, 6, 24, 384, 98304]   # F⊗F = 3F/2


def test_nim_product_is_a_field_below_fermat_powers():
    for L in (2, 4, 8):
        n = 1 << L
        for a in range(1, n):
            row = {nim_multiply(a, b) for b in range(n)}
            assert row == set(range(n)), (L, a)                   # no zero divisors: a bijection
    import random
    rnd = random.Random(7)
    for _ in range(300):
        a, b, c = (rnd.randrange(1 << 40) for _ in range(3))
        assert nim_multiply(nim_multiply(a, b), c) == nim_multiply(a, nim_multiply(b, c))
        assert nim_multiply(a, b ^ c) == nim_multiply(a, b) ^ nim_multiply(a, c)
        assert nim_multiply(a, b) == nim_multiply(b, a)


def test_negative_operands_are_an_error_not_a_value():
    with pytest.raises(ValueError, match="negative"):
        evaluate(nim_product(A, B), {"a": -1, "b": 3})


def test_the_smart_constructors():
    assert evaluate(popcount(A), {"a": -13}) == 3
    assert evaluate(bit_and(A, B), {"a": -6, "b": 13}) == -6 & 13
    assert evaluate(bit_or(A, B), {"a": -6, "b": 13}) == -6 | 13
    for v in (-9, -1, 0, 5, 77):
        assert evaluate(shift_left(A, 3), {"a": v}) == v << 3
        assert evaluate(shift_right(A, 2), {"a": v}) == v >> 2
    with pytest.raises(TypeError, match="shift"):
        shift_left(A, B)
    with pytest.raises(TypeError, match="popcount"):
        popcount(A < 1)


def _z3_at(e, env, var_iv):
    memo = Intervals(var_iv)
    memo.walk(e)
    w = max([4] + [signed_bits(lo, hi) for x, (lo, hi) in memo.memo.values() if x.sort == "int"])
    import types
    tr = _Translator(types.SimpleNamespace(names=[], state_vars=[], kinds=[], signed=[], width=w), w)
    term = tr(e)
    subs = [(tr.var(n, "int"), z3.BitVecVal(v, w)) for n, v in env.items()]
    return z3.simplify(z3.substitute(term, *subs)).as_signed_long()


def test_z3_nim_product_on_bit_vectors_is_the_table():
    e = nim_product(A, B)
    for a in range(16):
        for b in range(16):
            assert _z3_at(e, {"a": a, "b": b}, {"a": (0, 15), "b": (0, 15)}) == nim_multiply(a, b)
    for a, b in [(300, 1000), (65535, 2), (40000, 40000)]:
        assert _z3_at(e, {"a": a, "b": b}, {"a": (0, 65535), "b": (0, 65535)}) == nim_multiply(a, b)


def test_z3_popcount_on_bit_vectors_takes_the_absolute_value():
    e = popcount(A)
    for v in (-128, -127, -1, 0, 1, 127, 100):
        assert _z3_at(e, {"a": v}, {"a": (-128, 127)}) == bin(abs(v)).count("1")


@pytest.mark.parametrize("make,name", [(lambda: nim_product(A, B), "nim_product"), (lambda: popcount(A), "popcount"),
                                       (lambda: bit_and(A, B), "bit_and"), (lambda: bit_or(A, B), "bit_or")])
def test_unbounded_integers_refuse_with_the_operator_named(make, name):
    import types
    tr = _Translator(types.SimpleNamespace(names=[], state_vars=[], kinds=[], signed=[], width=None), None)
    with pytest.raises(UnsupportedOperator) as e:
        tr(make())
    assert str(e.value).startswith(name) and "bitvec(32)" in str(e.value)


def test_bit_vectors_refuse_a_nim_product_of_a_possibly_negative_value():
    rules = get_game("nim").rules(Structure.heaps(2))
    enc = encoding(rules, width=8)
    h = rules.state.heap
    with pytest.raises(UnsupportedOperator) as e:
        enc.width_for([nim_product(h[0] - 3, h[1]) == 1])
    assert str(e.value) == NO_NEGATIVE_NIM
    assert enc.width_for([nim_product(h[0], h[1]) == 1]) >= 9


@pytest.mark.skipif(not build.available(), reason="no C compiler")
def test_c_agrees_on_nim_product_and_popcount_and_flags_a_negative_operand():
    exprs = [nim_product(A, B), popcount(A), bit_and(A, B), bit_or(A, B)]
    parts = [build.fixed_c("grundy.solvers.native", "c/runtime.c")]
    for i, e in enumerate(exprs):
        em = CSyntax({"a": "v[0]", "b": "v[1]"}, shared_nodes([e]))
        src = em.expr(e)
        lets = "".join(f"    {ln}\n" for ln in em.take_lines())
        parts.append(f"I f{i}(const I *v, int *ovf) {{\n    mul_overflow = 0;\n{lets}"
                     f"    I r = (I)({src});\n    *ovf = mul_overflow;\n    return r;\n}}\n")
    lib = build.load("\n".join(parts))
    fs = []
    for i in range(len(exprs)):
        f = getattr(lib, f"f{i}")
        f.restype = ctypes.c_int64
        f.argtypes = [ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int)]
        fs.append(f)
    pairs = [(a, b) for a in range(20) for b in range(20)] + [(2 ** 32, 2 ** 32), (123456789, 987654321),
                                                              (2 ** 62 + 5, 3), (-5, 7)]
    for a, b in pairs:
        v = (ctypes.c_int64 * 2)(a, b)
        for e, f in zip(exprs, fs):
            ovf = ctypes.c_int(0)
            got = f(v, ctypes.byref(ovf))
            try:
                want = evaluate(e, {"a": a, "b": b})
            except ValueError:
                assert ovf.value == 1, (a, b)
                continue
            if want >= 2 ** 63:
                assert ovf.value == 1, (a, b)
            else:
                assert (got, ovf.value) == (want, 0), (e, a, b)


def test_deep_expressions_compile():
    """A 400-case ite chain used to fail with "too many nested parentheses" in Python."""
    rules = get_game("nim").rules(Structure.heaps(1))
    h = rules.state.heap[0]
    e = lift(0)
    for k in range(400):
        e = ite(h == k, (k * 7) % 11, e)
    f = compile_expr(rules, e)
    assert [f((n,)) for n in (0, 5, 399, 400)] == [0, 35 % 11, (399 * 7) % 11, 0]
    em = PythonSyntax({"x": "x"}, set())
    x = Var.int("x")
    chain = x
    for k in range(300):
        chain = chain + popcount(chain) - k
    src = em.expr(chain)
    body = "".join(f"    {ln}\n" for ln in em.take_lines())
    env = dict(PythonSyntax.RUNTIME)
    exec(f"def g(x):\n{body}    return {src}\n", env)
    assert env["g"](12345) == evaluate(chain, {"x": 12345})
