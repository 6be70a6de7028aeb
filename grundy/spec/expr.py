"""The expression IR: one tree, read by every backend.

Expressions are built with Python operators and the helpers below; the explicit
solver compiles them to Python code, the native kernel to C and the SMT backend
translates them to Z3. What each operator means (its sorts, its value, how it prints) is
declared once, in the catalogue :data:`grundy.spec.ops.OPS`; every backend walks the DAG
with a :class:`grundy.spec.ops.Walker`.

>>> from grundy.spec.expr import Var, ite, minimum
>>> x, y = Var.int("x"), Var.int("y")
>>> e = ite(x < y, y - x, minimum(x, 3))
>>> evaluate(e, {"x": 5, "y": 2})
3
>>> evaluate(x ^ y ^ 6, {"x": 5, "y": 2})   # the nim-sum
1
>>> if x < y: pass
Traceback (most recent call last):
...
TypeError: a grundy expression has no truth value: write `a & b`, `a | b`, `~a`, ite(c, x, y), all_of(...) or any_of(...) instead of `and`, `or`, `not`, `if`, or Python's min/max/all/any
"""
from __future__ import annotations

from typing import Any, Callable, Container, Iterable, Sequence, Union

from .nodetable import _INTERN, stored
from .nodetable import interned as _interned
from .ops import BOOL as BOOL  # the sorts, re-exported: importers read them from here too
from .ops import INT as INT
from .ops import OPS, Walker, dag_nodes

Value = Union[int, bool]

_NO_BOOL = ("a grundy expression has no truth value: write `a & b`, `a | b`, `~a`, "
            "ite(c, x, y), all_of(...) or any_of(...) instead of `and`, `or`, `not`, "
            "`if`, or Python's min/max/all/any")


class Expr:
    """A node of the IR: an operator name, its arguments and a sort (int or bool)."""

    __slots__ = ("op", "args", "sort")

    def __init__(self, op: str, args: tuple[Any, ...], sort: str) -> None:
        self.op, self.args, self.sort = op, args, sort

    def __bool__(self) -> bool:
        raise TypeError(_NO_BOOL)

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return show(self)

    # arithmetic
    def __add__(self, o: Term) -> Expr: return _arith("add", self, o)
    def __radd__(self, o: Term) -> Expr: return _arith("add", o, self)
    def __sub__(self, o: Term) -> Expr: return _arith("sub", self, o)
    def __rsub__(self, o: Term) -> Expr: return _arith("sub", o, self)
    def __mul__(self, o: Term) -> Expr: return _arith("mul", self, o)
    def __rmul__(self, o: Term) -> Expr: return _arith("mul", o, self)
    def __neg__(self) -> Expr: return _arith("sub", 0, self)
    def __floordiv__(self, k: Term) -> Expr: return _by_constant("div", self, k)
    def __mod__(self, k: Term) -> Expr: return _by_constant("mod", self, k)
    def __xor__(self, o: Term) -> Expr: return nim_sum(self, o)
    def __rxor__(self, o: Term) -> Expr: return nim_sum(o, self)

    # comparisons
    def __lt__(self, o: Term) -> Expr: return _cmp("lt", self, o)
    def __le__(self, o: Term) -> Expr: return _cmp("le", self, o)
    def __gt__(self, o: Term) -> Expr: return _cmp("lt", o, self)
    def __ge__(self, o: Term) -> Expr: return _cmp("le", o, self)
    def __eq__(self, o: Term) -> Expr: return _cmp("eq", self, o)  # type: ignore[override]
    def __ne__(self, o: Term) -> Expr: return ~_cmp("eq", self, o)  # type: ignore[override]

    # boolean connectives
    def __and__(self, o: Term) -> Expr: return _pair("and", True, self, o)
    def __rand__(self, o: Term) -> Expr: return _pair("and", True, o, self)
    def __or__(self, o: Term) -> Expr: return _pair("or", False, self, o)
    def __ror__(self, o: Term) -> Expr: return _pair("or", False, o, self)
    def __invert__(self) -> Expr: return not_(self)

    def __index__(self) -> int:
        raise TypeError("a grundy expression cannot be used as a Python index or range bound: "
                        "index fields by structure elements and give numeric choices as choose=...")


class Var(Expr):
    """A named variable: a state slot (``slot:3``) or a numeric choice (``k``)."""

    __slots__ = ()

    @staticmethod
    def int(name: str) -> "Var":
        return variable(name, INT)

    @staticmethod
    def bool(name: str) -> "Var":
        return variable(name, BOOL)

    @property
    def name(self) -> str:
        name: str = self.args[0]
        return name


Term = Union[Expr, int, bool]


def variable(name: str, sort: str) -> "Var":
    """The variable ``name`` of ``sort`` (``"int"`` or ``"bool"``): one node per name and sort.

    >>> variable("x", INT) is Var.int("x"), show(variable("b", BOOL))
    (True, 'b')
    """
    x = _INTERN.get(("var", name, sort))
    if x is None:
        x = _interned(("var", name, sort), lambda: Var("var", (name,), sort))
    return x  # type: ignore[return-value]


def lift(x: Term) -> Expr:
    """Turn a Python int or bool into a constant expression (one node per type and value).

    >>> lift(3) is lift(3), lift(True) is lift(1), lift(True).sort
    (True, False, 'bool')
    """
    if isinstance(x, Expr):
        return x
    if isinstance(x, int):     # bool included
        key = ("const", type(x), x)
        e = _INTERN.get(key)
        if e is None:
            e = _interned(key, lambda: Expr("const", (x,), BOOL if isinstance(x, bool) else INT))
        return e
    raise TypeError(f"cannot use {type(x).__name__} {x!r} in a grundy expression")


def is_const(e: Expr) -> bool:
    return e.op == "const"


def const_value(e: Term) -> Value | None:
    """The Python value of a constant expression, else None."""
    if isinstance(e, (bool, int)):
        return e
    return e.args[0] if e.op == "const" else None


def _need(e: Expr, sort: str, what: str) -> Expr:
    if e.sort != sort:
        raise TypeError(f"{what} needs {sort} operands, got a {e.sort}: {show(e)}")
    return e


def _node(op: str, args: Sequence[Expr]) -> Expr:
    """A node of ``op`` (its sort by the catalogue's rule), folded when every operand is a
    constant; the node built before for the same operator and operands, if any."""
    key = (op, *map(id, args))
    x = _INTERN.get(key)
    if x is not None:
        return x
    spec = OPS[op]
    sort = spec.result([a.sort for a in args])
    for a in args:
        if a.op != "const":
            break
    else:
        return lift(spec.concrete(*(a.args[0] for a in args)))
    return stored(key, Expr(op, tuple(args), sort))


def _arith(op: str, a: Term, b: Term) -> Expr:
    a, b = _need(lift(a), INT, op), _need(lift(b), INT, op)
    if is_const(a) and is_const(b):
        return _node(op, (a, b))
    if op == "add" and const_value(b) == 0:
        return a
    if op == "add" and const_value(a) == 0:
        return b
    if op == "sub" and const_value(b) == 0:
        return a
    if op == "mul" and (const_value(a) == 0 or const_value(b) == 0):
        return lift(0)
    if op == "mul" and const_value(b) == 1:
        return a
    if op == "mul" and const_value(a) == 1:
        return b
    if op == "mul" and not (is_const(a) or is_const(b)):
        raise TypeError("multiplication needs a constant on one side (the SMT encoding stays linear)")
    return _node(op, (a, b))


def nim_sum(a: Term, b: Term) -> Expr:
    """The nim-sum ``a ^ b`` (bitwise exclusive or) of two integer expressions; also written
    ``a ^ b``. The SMT backend encodes it on bit-vectors only (``methods=[bitvec(32)]``).

    >>> x = Var.int("x")
    >>> show(x ^ 0), evaluate(x ^ 3 ^ x, {"x": 9}), show(5 ^ lift(3))
    ('x', 3, '6')
    """
    a, b = _need(lift(a), INT, "nim-sum `^`"), _need(lift(b), INT, "nim-sum `^`")
    if const_value(b) == 0:
        return a
    if const_value(a) == 0:
        return b
    return _node("xor", (a, b))


def product(a: Term, b: Term) -> Expr:
    """``a * b`` with no constant factor needed: a non-linear term, stated explicitly
    (``*`` keeps refusing it) as its own operator ``nmul``, so that a backend that only
    knows linear ``mul`` rejects it rather than misreading it. Use it only where a rule
    needs it (euclid's k·b).

    >>> evaluate(product(Var.int("k"), Var.int("b")), {"k": 3, "b": 4})
    12
    """
    a, b = _need(lift(a), INT, "mul"), _need(lift(b), INT, "mul")
    if is_const(a) or is_const(b):
        return _arith("mul", a, b)
    return _node("nmul", (a, b))


def _by_constant(op: str, a: Term, k: Term) -> Expr:
    a = _need(lift(a), INT, op)
    kv = const_value(lift(k))
    if not isinstance(kv, int) or isinstance(kv, bool) or kv <= 0:
        raise TypeError(f"`{'//' if op == 'div' else '%'}` needs a positive integer constant on the right")
    return _node(op, (a, lift(kv)))


def _cmp(op: str, a: Term, b: Term) -> Expr:
    if not isinstance(a, Expr):
        a = lift(a)
    if not isinstance(b, Expr):
        b = lift(b)
    if op != "eq":
        if a.sort != INT or b.sort != INT:
            _need(a, INT, op), _need(b, INT, op)
    elif a.sort != b.sort:
        raise TypeError(f"cannot compare a {a.sort} with a {b.sort}: {show(a)} == {show(b)}")
    if op == "eq" and a is b:
        return lift(True)
    return _node(op, (a, b))


def not_(a: Term) -> Expr:
    """Logical negation (also written ``~a``)."""
    if not isinstance(a, Expr):
        a = lift(a)
    if a.sort != BOOL:
        _need(a, BOOL, "not")
    if a.op == "not":
        inner: Expr = a.args[0]
        return inner
    return _node("not", (a,))


def _connective(op: str, unit: bool, items: Iterable[Term]) -> Expr:
    args: list[Expr] = []
    append, extend = args.append, args.extend
    for x in items:
        if not isinstance(x, Expr):
            x = lift(x)
        if x.sort != BOOL:
            _need(x, BOOL, op)
        xop = x.op
        if xop == op:
            extend(x.args)
        elif xop == "const":
            if x.args[0] != unit:
                return lift(not unit)
        else:
            append(x)
    if not args:
        return lift(unit)
    if len(args) == 1:
        return args[0]
    return _junction(op, args)


def _pair(op: str, unit: bool, a: Term, b: Term) -> Expr:
    """``_connective(op, unit, (a, b))`` (the same node, the same errors) without its loop:
    ``a & b`` and ``a | b`` are most of the nodes a statement builds."""
    if not isinstance(a, Expr):
        a = lift(a)
    if a.sort != BOOL:
        _need(a, BOOL, op)
    aop = a.op
    if aop == "const" and a.args[0] != unit:
        return lift(not unit)
    if not isinstance(b, Expr):
        b = lift(b)
    if b.sort != BOOL:
        _need(b, BOOL, op)
    bop = b.op
    if bop == "const":
        if b.args[0] != unit:
            return lift(not unit)
        return a if aop != "const" else lift(unit)
    if aop == "const":
        return b
    if aop == op:
        return _junction(op, [*a.args, *b.args] if bop == op else [*a.args, b])
    return _junction(op, [a, *b.args] if bop == op else [a, b])


def _junction(op: str, args: list[Expr]) -> Expr:
    """The ``and``/``or`` node of ``args`` (two or more, none a constant, all boolean): what
    :func:`_node` builds, without its sort rule and constant folding."""
    key = (op, *map(id, args))
    x = _INTERN.get(key)
    return x if x is not None else stored(key, Expr(op, tuple(args), BOOL))


def all_of(items: Iterable[Term], pred: Callable[[Any], Term] | None = None) -> Expr:
    """Conjunction; ``all_of(xs, p)`` is the bounded quantifier ∀x∈xs. p(x)."""
    return _connective("and", True, (pred(x) for x in items) if pred else items)


def any_of(items: Iterable[Term], pred: Callable[[Any], Term] | None = None) -> Expr:
    """Disjunction; ``any_of(xs, p)`` is the bounded quantifier ∃x∈xs. p(x)."""
    return _connective("or", False, (pred(x) for x in items) if pred else items)


def implies(a: Term, b: Term) -> Expr:
    return any_of([not_(a), b])


def ite(c: Term, a: Term, b: Term) -> Expr:
    """If-then-else: ``a`` where ``c`` holds, else ``b``."""
    c, a, b = _need(lift(c), BOOL, "ite"), lift(a), lift(b)
    if a.sort != b.sort:
        raise TypeError(f"ite branches differ in sort: {show(a)} / {show(b)}")
    if is_const(c):
        return a if c.args[0] else b
    if a is b:
        return a
    return _node("ite", (c, a, b))


def _extremum(op: str, items: Iterable[Any]) -> Expr:   # terms (minimum(*items) or one iterable)
    args = [_need(lift(x), INT, op) for x in items]
    if not args:
        raise ValueError(f"{op} of nothing")
    consts = [x.args[0] for x in args if is_const(x)]
    rest = [x for x in args if not is_const(x)]
    if consts:
        rest.append(lift(min(consts) if op == "min" else max(consts)))
    if len(rest) == 1:
        return rest[0]
    return _node(op, rest)


def minimum(*items: Term | Iterable[Term]) -> Expr:
    """The least of the arguments (or of one iterable argument)."""
    return _extremum("min", items[0] if len(items) == 1 and not isinstance(items[0], (Expr, int)) else items)


def maximum(*items: Term | Iterable[Term]) -> Expr:
    """The greatest of the arguments (or of one iterable argument)."""
    return _extremum("max", items[0] if len(items) == 1 and not isinstance(items[0], (Expr, int)) else items)


def total(items: Iterable[Term]) -> Expr:
    """Sum of integer expressions (a balanced tree, so long sums stay shallow)."""
    xs = [lift(x) for x in items]
    if not xs:
        return lift(0)
    while len(xs) > 1:
        xs = [xs[i] + xs[i + 1] if i + 1 < len(xs) else xs[i] for i in range(0, len(xs), 2)]
    return xs[0]


def count(items: Iterable[Term]) -> Expr:
    """Number of true boolean expressions."""
    return total(ite(x, 1, 0) for x in items)


def nodes(e: Expr, seen: set[int] | None = None, skip: Container[int] = ()) -> list[Expr]:
    """Every node of the DAG under ``e`` once, children before parents.

    ``seen`` (ids of nodes visited by earlier calls; updated) skips those nodes and
    everything under them, so a walk over many roots sharing subterms stays linear.
    ``skip`` (ids, not updated) also prunes: e.g. the nodes a translation has already done.
    """
    return dag_nodes(e, seen, skip)


def free_vars(e: Expr) -> set[str]:
    return {x.args[0] for x in nodes(e) if x.op == "var"}


# ---------------------------------------------------------------------------- evaluation
class _Concrete(Walker, abstract=True):
    def __init__(self, env: dict[str, Value]):
        super().__init__()
        self.env = env

    def walk_const(self, x: Expr) -> Value:
        value: Value = x.args[0]
        return value

    def walk_var(self, x: Expr) -> Value:
        try:
            return self.env[x.args[0]]
        except KeyError:
            raise KeyError(f"no value for variable {x.args[0]!r}") from None


def _concrete(fn: Callable[..., Value]) -> Callable[..., Value]:
    return lambda self, x, *v: fn(*v)


Evaluate = type("Evaluate", (_Concrete,), {
    "__doc__": "The reference interpreter: each operator's concrete meaning from the catalogue.",
    **{f"walk_{op}": _concrete(spec.concrete) for op, spec in OPS.items() if spec.operands != "leaf"}})


def evaluate(e: Term, env: dict[str, Value]) -> Value:
    """Evaluate an expression with variables bound by ``env`` (a slow reference interpreter)."""
    value: Value = Evaluate(env).walk(lift(e))
    return value


# ---------------------------------------------------------------------------- printing
class Show(Walker):
    """Expressions as text, in each operator's printable form from the catalogue."""

    def walk_const(self, x: Expr) -> str:
        return repr(x.args[0])

    def walk_var(self, x: Expr) -> str:
        return str(x.args[0])

    def _infix(self, x: Expr, *a: str) -> str:
        return "(" + f" {OPS[x.op].infix} ".join(a) + ")"

    def _prefix(self, x: Expr, *a: str) -> str:
        return f"{OPS[x.op].prefix}({', '.join(a)})"

    walk_add = walk_sub = walk_mul = walk_div = walk_mod = walk_xor = _infix
    walk_lt = walk_le = walk_eq = walk_and = walk_or = _infix
    walk_nmul = walk_min = walk_max = walk_ite = _prefix
    walk_bit_and = walk_bit_or = walk_popcount = walk_nim_product = _prefix

    def walk_not(self, x: Expr, a: str) -> str:
        return f"~{a}"


def show(e: Term) -> str:
    """A readable rendering of an expression.

    >>> x, y = Var.int("x"), Var.int("y")
    >>> show(ite(x < y, minimum(x, y) ^ 1, product(x, y)))
    'ite((x < y), (minimum(x, y) ^ 1), product(x, y))'
    """
    text: str = Show().walk(lift(e))
    return text


def __getattr__(name: str) -> Any:
    if name in ("rebuild", "Rebuild"):       # in grundy.spec.rebuild since 0.3
        import importlib
        import warnings
        warnings.warn(f"grundy.spec.expr.{name} is deprecated: import it from grundy.spec.rebuild",
                      DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module("grundy.spec.rebuild"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
