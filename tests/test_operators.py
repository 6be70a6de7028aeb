"""The operator catalogue and its backends: every backend implements or refuses every
operator, and on random expressions the concrete meaning, the compiled Python, the C
kernel's syntax and Z3 (bit-vectors at the width the interval argument picks; unbounded
integers where the operator has an encoding) all agree."""
import ctypes
import types

import pytest
import z3
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from grundy.solvers.explicit.compile import PythonSyntax, shared_nodes
from grundy.solvers.native import build
from grundy.solvers.native.csyntax import CSyntax
from grundy.solvers.native.vmcode import ByteSyntax
from grundy.solvers.premises.identity import Canonical
from grundy.solvers.reference.tape import Tape
from grundy.solvers.smt.encode import (
    NO_INT_XOR,
    Intervals,
    _Normalize,
    _Translator,
    signed_bits,
)
from grundy.spec.bits import bit_and, bit_or, nim_product, popcount
from grundy.spec.expr import (
    BOOL,
    INT,
    Evaluate,
    Expr,
    Show,
    Var,
    all_of,
    any_of,
    evaluate,
    ite,
    lift,
    maximum,
    minimum,
    nodes,
    not_,
    product,
    show,
)
from grundy.spec.ops import OPS, MissingOperator, UnsupportedOperator, Walker
from grundy.spec.rebuild import Rebuild

BACKENDS = [Evaluate, Show, Rebuild, PythonSyntax, CSyntax, ByteSyntax, Intervals, _Normalize, _Translator, Canonical]
OPERATORS = [op for op, spec in OPS.items() if spec.operands != "leaf"]
NAMES = ("x", "y", "z")
VARS = {n: Var.int(n) for n in NAMES}
VALUES = st.integers(-40, 40)


def _all_walkers(cls=Walker):
    for sub in cls.__subclasses__():
        yield sub
        yield from _all_walkers(sub)


# ----------------------------------------------------------------------------- the catalogue
def test_the_list_of_backends_is_every_concrete_walker():
    concrete = {c for c in _all_walkers() if "_table" in vars(c)} - {Walker}
    assert concrete >= set(BACKENDS)
    missing = {c.__name__ for c in concrete - set(BACKENDS) if c.__module__.startswith("grundy")}
    assert not missing, f"walkers not listed in BACKENDS: {missing}"


def test_a_backend_without_an_operator_fails_when_built():
    # the catalogue is enforced when a walker class is created: for every operator, a backend
    # that drops it (neither implements nor refuses it) is refused at its class statement
    for op in OPS:
        with pytest.raises(MissingOperator, match=f"walk_{op}\\b"):
            type(f"No_{op}", (Rebuild,), {f"walk_{op}": None})


def test_a_refused_operator_says_why():
    class Refusing(Rebuild):
        refuses = {"xor": "no nim-sum here: use a bit width"}
        walk_xor = None
    x, y = VARS["x"], VARS["y"]
    with pytest.raises(UnsupportedOperator, match="no nim-sum here"):
        Refusing({}).walk(x ^ y)


def test_z3_on_unbounded_integers_refuses_the_nim_sum_with_a_bit_width_hint():
    tr = _Translator(_fake_encoding(None), None)
    with pytest.raises(UnsupportedOperator) as e:
        tr(VARS["x"] ^ VARS["y"])
    assert "bitvec(32)" in str(e.value) and "\n" not in str(e.value) and str(e.value) == NO_INT_XOR


def test_nim_sum_needs_integers():
    with pytest.raises(TypeError, match="nim-sum"):
        (VARS["x"] < 1) ^ (VARS["y"] < 1)


# ----------------------------------------------------------------------------- random expressions
def _leaf(draw, sort):
    if sort == BOOL:
        return VARS[draw(st.sampled_from(NAMES))] < draw(st.integers(-5, 5))
    if draw(st.integers(0, 3)) == 0:
        return lift(draw(st.integers(-9, 9)))
    return VARS[draw(st.sampled_from(NAMES))]


def _rooted(draw, op, depth, result=None):
    """An expression whose root is ``op`` (unless its smart constructor folds it); ``result``:
    the sort wanted of an ``ite``."""
    def sub(sort):
        return _expr(draw, sort, depth - 1)
    if op in ("add", "sub"):
        return sub(INT) + sub(INT) if op == "add" else sub(INT) - sub(INT)
    if op == "mul":
        return sub(INT) * draw(st.integers(-6, 6).filter(lambda k: k not in (0, 1)))
    if op == "nmul":
        return product(sub(INT), sub(INT))
    if op in ("div", "mod"):
        k = draw(st.integers(1, 9))
        return sub(INT) // k if op == "div" else sub(INT) % k
    if op == "xor":
        return sub(INT) ^ sub(INT)
    if op in ("bit_and", "bit_or"):
        return bit_and(sub(INT), sub(INT)) if op == "bit_and" else bit_or(sub(INT), sub(INT))
    if op == "popcount":
        return popcount(sub(INT))
    if op == "nim_product":       # non-negative operands (the operator's domain), some past 2**8
        return nim_product(sub(INT) % draw(st.integers(2, 300)), sub(INT) % draw(st.integers(2, 300)))
    if op in ("min", "max"):
        items = [sub(INT) for _ in range(draw(st.integers(2, 3)))]
        return minimum(items) if op == "min" else maximum(items)
    if op in ("lt", "le"):
        return sub(INT) < sub(INT) if op == "lt" else sub(INT) <= sub(INT)
    if op == "eq":
        sort = draw(st.sampled_from([INT, BOOL]))
        return sub(sort) == sub(sort)
    if op == "not":
        return not_(sub(BOOL))
    if op in ("and", "or"):
        items = [sub(BOOL) for _ in range(draw(st.integers(2, 3)))]
        return all_of(items) if op == "and" else any_of(items)
    if op == "ite":
        sort = result or draw(st.sampled_from([INT, BOOL]))
        return ite(sub(BOOL), sub(sort), sub(sort))
    raise AssertionError(f"no generator for operator {op!r}: add one")


def _expr(draw, sort, depth):
    if depth <= 0 or draw(st.integers(0, 4)) == 0:
        return _leaf(draw, sort)
    ops = [op for op in OPERATORS if OPS[op].result_sort in (sort, "arg")]
    return _rooted(draw, draw(st.sampled_from(ops)), depth, sort)


@pytest.mark.parametrize("op", OPERATORS)
@settings(max_examples=10, deadline=None, derandomize=True)
@given(data=st.data())
def test_every_operator_has_a_generator(op, data):
    """A new operator must get a generator in _rooted (so the differential tests below cover it)."""
    e = data.draw(_rooted_at(op, 1))
    assert isinstance(e, Expr)


def _rooted_at(op, depth):
    return st.composite(lambda draw: lift(_rooted(draw, op, depth)))()


def _bounded(e: Expr) -> bool:
    w = Intervals({n: (-40, 40) for n in NAMES})
    w.walk(e)
    return all(x.sort == BOOL or (lo is not None and hi is not None and -2 ** 62 < lo and hi < 2 ** 62)
               for x, (lo, hi) in w.memo.values())


# ----------------------------------------------------------------------------- the backends
def _python(e: Expr):
    em = PythonSyntax({n: n for n in NAMES}, shared_nodes([e]))
    src = em.expr(e)
    body = "".join(f"    {ln}\n" for ln in em.take_lines())
    env: dict = dict(PythonSyntax.RUNTIME)
    exec(f"def f({', '.join(NAMES)}):\n{body}    return {src}\n", env)
    return env["f"]


def _fake_encoding(width):
    return types.SimpleNamespace(names=[], state_vars=[], kinds=[], signed=[], width=width)


def _z3_value(e: Expr, env: dict, width):
    """``e`` at ``env`` through Z3: unbounded integers (width None) or bit-vectors at the working
    width the intervals give (variables held to [-40, 40])."""
    if width is not None:
        w = Intervals({n: (-40, 40) for n in NAMES})
        w.walk(e)
        width = max([8] + [signed_bits(lo, hi) for x, (lo, hi) in w.memo.values() if x.sort == INT])
    tr = _Translator(_fake_encoding(width), width)
    term = tr(e)
    subs = [(tr.var(n, INT), z3.IntVal(v) if width is None else z3.BitVecVal(v, width))
            for n, v in env.items()]
    val = z3.simplify(z3.substitute(term, *subs))
    if e.sort == BOOL:
        return z3.is_true(val)
    return val.as_long() if width is None else val.as_signed_long()


def _c_functions(exprs: list[Expr]):
    """One C function per expression (the kernel's runtime and syntax), compiled together."""
    parts = [build.fixed_c("grundy.solvers.native", "c/runtime.c")]
    for i, e in enumerate(exprs):
        em = CSyntax({n: f"v[{j}]" for j, n in enumerate(NAMES)}, shared_nodes([e]))
        src = em.expr(e)
        lets = "".join(f"    {ln}\n" for ln in em.take_lines())
        parts.append(f"I f{i}(const I *v, int *ovf) {{\n    mul_overflow = 0;\n{lets}"
                     f"    I r = (I)({src});\n    *ovf = mul_overflow;\n    return r;\n}}\n")
    lib = build.load("\n".join(parts))
    out = []
    for i in range(len(exprs)):
        f = getattr(lib, f"f{i}")
        f.restype = ctypes.c_int64
        f.argtypes = [ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_int)]
        out.append(f)
    return out


NO_INT_OPS = ("xor", "bit_and", "bit_or", "popcount", "nim_product")   # bit-vectors only, refused on Int


ENVS = st.lists(st.fixed_dictionaries({n: VALUES for n in NAMES}), min_size=3, max_size=6)


@pytest.mark.parametrize("op", OPERATORS)
@settings(max_examples=40, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(data=st.data(), envs=ENVS)
def test_concrete_python_and_z3_agree(op, data, envs):
    e = data.draw(_rooted_at(op, 3))
    assume(_bounded(e))
    uses_xor = any(x.op in NO_INT_OPS for x in nodes(e))
    py = _python(e)
    tape = Tape([e], {n: i for i, n in enumerate(NAMES)})      # the reference engine's interpreter
    canon = Canonical()(e)                  # the symmetry premise's identities (operands sorted, ...)
    for env in envs:
        want = evaluate(e, env)
        assert py(**env) == want, show(e)
        assert evaluate(canon, env) == want, show(e)
        assert tape.run(tuple(env[n] for n in NAMES)) == [want], show(e)
        assert _z3_value(e, env, "bv") == want, show(e)
        if uses_xor:
            with pytest.raises(UnsupportedOperator):
                _z3_value(e, env, None)
        else:
            assert _z3_value(e, env, None) == want, show(e)


@pytest.mark.skipif(not build.available(), reason="no C compiler")
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck), derandomize=True)
@given(data=st.data(), envs=ENVS)
def test_c_agrees_with_the_concrete_meaning_on_every_operator(data, envs):
    exprs = []
    for op in OPERATORS:                          # every operator at the root of some expression
        for _ in range(2):
            e = data.draw(_rooted_at(op, 3))
            if _bounded(e):
                exprs.append(e)
    fs = _c_functions(exprs)
    for e, f in zip(exprs, fs):
        for env in envs:
            v = (ctypes.c_int64 * 3)(*(env[n] for n in NAMES))
            ovf = ctypes.c_int(0)
            got = f(v, ctypes.byref(ovf))
            assert ovf.value == 0
            want = evaluate(e, env)
            assert got == int(want), show(e)


def test_nim_sum_intervals_are_sound_on_bit_vectors():
    """The interval of a ^ b holds every value; at that width bvxor is Python's ^."""
    x, y = VARS["x"], VARS["y"]
    for lo1, hi1, lo2, hi2 in [(0, 5, 0, 9), (0, 2 ** 31, 0, 7), (-4, 3, 0, 3), (-100, -1, -7, 7)]:
        e = x ^ y
        lo, hi = Intervals({"x": (lo1, hi1), "y": (lo2, hi2), "z": (0, 0)}).walk(e)
        samples = [(a, b) for a in {lo1, hi1, (lo1 + hi1) // 2} for b in {lo2, hi2, (lo2 + hi2) // 2}]
        for a, b in samples:
            assert lo <= a ^ b <= hi
        if lo1 >= 0 and lo2 >= 0 and hi1 < 8 and hi2 < 16:
            assert (lo, hi) == (0, 15)


@pytest.mark.parametrize("width", [None, 16])
def test_the_smt_side_knows_nmul(width):
    """euclid's rule takes k·b (``product``): its rank check used to raise "unknown operator nmul"."""
    from grundy.solvers.smt import check_rank
    from grundy.spec import Structure
    from grundy.spec.games import get_game
    rules = get_game("euclid").rules(Structure.heaps(2))
    assert any(x.op == "nmul" for m in rules.moves for x in nodes(m.guard))
    results = check_rank(rules, width=width, timeout=30)
    assert [r.status for r in results] == ["holds"] * 3
