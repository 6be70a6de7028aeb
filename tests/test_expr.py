"""The expression IR: operators, folding, evaluation, and the refusal to act as a Python bool."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from grundy.spec.expr import (
    Var,
    all_of,
    any_of,
    count,
    evaluate,
    implies,
    ite,
    lift,
    maximum,
    minimum,
    not_,
    show,
    total,
)

pytestmark = pytest.mark.usefixtures("node_table_kept")  # node identity is asserted

x, y = Var.int("x"), Var.int("y")
ints = st.integers(-50, 50)


@given(ints, ints)
def test_arithmetic_and_comparisons_evaluate_like_python(a, b):
    env = {"x": a, "y": b}
    assert evaluate(x + y * 3 - 2, env) == a + b * 3 - 2
    assert evaluate(-x, env) == -a
    assert evaluate(x // 4 + y % 5, env) == a // 4 + b % 5
    assert evaluate(x < y, env) == (a < b)
    assert evaluate(x <= y, env) == (a <= b)
    assert evaluate(x > y, env) == (a > b)
    assert evaluate(x >= y, env) == (a >= b)
    assert evaluate(x == y, env) == (a == b)
    assert evaluate(x != y, env) == (a != b)
    assert evaluate(minimum(x, y, 7), env) == min(a, b, 7)
    assert evaluate(maximum([x, y, -7]), env) == max(a, b, -7)
    assert evaluate(ite(x < y, x, y), env) == min(a, b)
    assert evaluate((x < y) & (y < 10) | ~(x == 0), env) == ((a < b and b < 10) or a != 0)
    assert evaluate(implies(x > 0, y > 0), env) == (a <= 0 or b > 0)
    assert evaluate(count([x > 0, y > 0, x > y]), env) == (a > 0) + (b > 0) + (a > b)
    assert evaluate(total([x, y, 1]), env) == a + b + 1


@pytest.mark.parametrize("use", [
    lambda: bool(x < y),
    lambda: (x < y) and True,
    lambda: not (x == y),
    lambda: min(x, y),
    lambda: [1, 2][x],
    lambda: range(x),
])
def test_expressions_refuse_python_control_flow(use):
    with pytest.raises(TypeError) as e:
        use()
    assert "grundy expression" in str(e.value)


def test_constants_fold_and_quantifiers_unroll():
    assert show(lift(2) + 3) == "5"
    assert show(all_of([True, x > 0, True])) == "(0 < x)"
    assert show(all_of([x > 0, False])) == "False"
    assert show(any_of(range(3), lambda i: x == i)) == "((x == 0) | (x == 1) | (x == 2))"
    assert show(not_(not_(x < 1))) == "(x < 1)"
    assert show(ite(True, x, y)) == "x"


def test_sorts_are_checked():
    with pytest.raises(TypeError):
        (x < y) + 1
    with pytest.raises(TypeError):
        ite(x, 1, 2)
    with pytest.raises(TypeError):
        x * y  # non-linear: the SMT encoding stays linear
    with pytest.raises(TypeError):
        x // y


def test_nodes_are_hash_consed_and_keep_their_meaning():
    # one node per operator and operands, constant (of one type), variable (of one sort);
    # (not ``Var.int("x") is x``: x was built at import, and a released table forgets it)
    assert Var.int("x") is Var.int("x") and lift(3) is lift(3)
    assert lift(True) is not lift(1) and lift(True).sort == "bool" and lift(1).sort == "int"
    assert Var.bool("x") is not x and Var.bool("x").sort == "bool"
    assert (x + 1) is (x + 1) and ((x < y) & (y < 3)) is ((x < y) & (y < 3))
    assert (x + 1) is not (1 + x) and (x < y) is not (y < x)
    e = ite(x < y, y - x, minimum(x, 3)) + count([x < y, x < y])
    assert evaluate(e, {"x": 1, "y": 5}) == 4 + 2     # a repeated operand still counts twice


def test_the_node_table_starts_again_when_full_without_changing_values(monkeypatch):
    import grundy.spec.nodetable as E
    monkeypatch.setattr(E, "_INTERN_LIMIT", 5)
    es = [total([x * k, y, k]) < k * 7 for k in range(1, 30)]
    assert len(E._INTERN) <= 5
    for k, e in enumerate(es, 1):
        assert evaluate(e, {"x": 2, "y": 3}) == (2 * k + 3 + k < 7 * k)


_p, _q, _r = Var.bool("p"), Var.bool("q"), Var.bool("r")
_bool_terms = st.recursive(
    st.sampled_from([True, False, lift(True), lift(False), _p, _q, _r, x < y, x == 1]),
    lambda inner: st.one_of(st.builds(lambda a, b: all_of([a, b]), inner, inner),
                            st.builds(lambda a, b: any_of([a, b]), inner, inner),
                            st.builds(lambda a: not_(a), inner)),
    max_leaves=8)


@given(_bool_terms, _bool_terms)
def test_a_binary_and_or_builds_the_node_the_general_connective_builds(a, b):
    """``a & b`` and ``a | b`` take a shortcut past ``all_of``/``any_of``: the same node
    (hash-consed: the same object) for every mix of constants, flattened and plain operands."""
    from grundy.spec.expr import _connective, _pair
    for op, unit in (("and", True), ("or", False)):
        if isinstance(a, bool) and isinstance(b, bool):
            continue                       # Python's own & and | (no expression involved)
        assert _pair(op, unit, a, b) is _connective(op, unit, (a, b))
    if not isinstance(a, bool):
        assert (a & b) is all_of([a, b]) and (a | b) is any_of([a, b])
    if not isinstance(b, bool):
        assert (a & b) is all_of([a, b]) and (a | b) is any_of([a, b])


def test_a_binary_and_refuses_a_non_boolean_operand_as_the_general_one_does():
    with pytest.raises(TypeError, match="and needs bool operands"):
        (x < 1) & x
    with pytest.raises(TypeError, match="or needs bool operands"):
        x | (x < 1)


@pytest.mark.parametrize("build", [lambda k: x + k,                                   # an operator's node
                                   lambda k: (x < k) & (y < k),                       # a connective's
                                   lambda k: Var.int(f"v{k}")])                       # a variable
def test_every_restart_of_the_node_table_is_counted(monkeypatch, build):
    """Each way a node is made starts the table again when full, and counts it (a check that
    compares nodes by identity reads the count: grundy.solvers.premises.identity)."""
    import grundy.spec.nodetable as E
    monkeypatch.setattr(E, "_INTERN_LIMIT", 5)
    before = E.node_table_restarts()
    for k in range(1, 40):
        build(k)
    assert E.node_table_restarts() - before >= 5
