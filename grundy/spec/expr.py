"""The expression IR: one tree, read by every backend.

Expressions are built with Python operators and the helpers below; the explicit
solver compiles them to Python code and the SMT backend translates them to Z3.

>>> from grundy.spec.expr import Var, ite, minimum
>>> x, y = Var.int("x"), Var.int("y")
>>> e = ite(x < y, y - x, minimum(x, 3))
>>> evaluate(e, {"x": 5, "y": 2})
3
>>> if x < y: pass
Traceback (most recent call last):
...
TypeError: a grundy expression has no truth value: write `a & b`, `a | b`, `~a`, ite(c, x, y), all_of(...) or any_of(...) instead of `and`, `or`, `not`, `if`, or Python's min/max/all/any
"""
from __future__ import annotations

from typing import Any, Callable, Container, Iterable, Union

Value = Union[int, bool]
INT, BOOL = "int", "bool"

_NO_BOOL = ("a grundy expression has no truth value: write `a & b`, `a | b`, `~a`, "
            "ite(c, x, y), all_of(...) or any_of(...) instead of `and`, `or`, `not`, "
            "`if`, or Python's min/max/all/any")


class Expr:
    """A node of the IR: an operator name, its arguments and a sort (int or bool)."""

    __slots__ = ("op", "args", "sort")

    def __init__(self, op: str, args: tuple, sort: str):
        self.op, self.args, self.sort = op, args, sort

    def __bool__(self):
        raise TypeError(_NO_BOOL)

    __hash__ = object.__hash__

    def __repr__(self) -> str:
        return show(self)

    # arithmetic
    def __add__(self, o): return _arith("add", self, o)
    def __radd__(self, o): return _arith("add", o, self)
    def __sub__(self, o): return _arith("sub", self, o)
    def __rsub__(self, o): return _arith("sub", o, self)
    def __mul__(self, o): return _arith("mul", self, o)
    def __rmul__(self, o): return _arith("mul", o, self)
    def __neg__(self): return _arith("sub", 0, self)
    def __floordiv__(self, k): return _by_constant("div", self, k)
    def __mod__(self, k): return _by_constant("mod", self, k)

    # comparisons
    def __lt__(self, o): return _cmp("lt", self, o)
    def __le__(self, o): return _cmp("le", self, o)
    def __gt__(self, o): return _cmp("lt", o, self)
    def __ge__(self, o): return _cmp("le", o, self)
    def __eq__(self, o): return _cmp("eq", self, o)  # type: ignore[override]
    def __ne__(self, o): return ~_cmp("eq", self, o)  # type: ignore[override]

    # boolean connectives
    def __and__(self, o): return all_of([self, o])
    def __rand__(self, o): return all_of([o, self])
    def __or__(self, o): return any_of([self, o])
    def __ror__(self, o): return any_of([o, self])
    def __invert__(self): return not_(self)

    def __index__(self):
        raise TypeError("a grundy expression cannot be used as a Python index or range bound: "
                        "index fields by structure elements and give numeric choices as choose=...")


class Var(Expr):
    """A named variable: a state slot (``slot:3``) or a numeric choice (``k``)."""

    __slots__ = ()

    @staticmethod
    def int(name: str) -> "Var":
        return Var("var", (name,), INT)

    @staticmethod
    def bool(name: str) -> "Var":
        return Var("var", (name,), BOOL)

    @property
    def name(self) -> str:
        return self.args[0]


Term = Union[Expr, int, bool]


def lift(x: Term) -> Expr:
    """Turn a Python int or bool into a constant expression."""
    if isinstance(x, Expr):
        return x
    if isinstance(x, bool):
        return Expr("const", (x,), BOOL)
    if isinstance(x, int):
        return Expr("const", (x,), INT)
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


_ARITH = {"add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b}


def _arith(op: str, a: Term, b: Term) -> Expr:
    a, b = _need(lift(a), INT, op), _need(lift(b), INT, op)
    if is_const(a) and is_const(b):
        return lift(_ARITH[op](a.args[0], b.args[0]))
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
    return Expr(op, (a, b), INT)


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
    return Expr("nmul", (a, b), INT)


def _by_constant(op: str, a: Term, k: Term) -> Expr:
    a = _need(lift(a), INT, op)
    kv = const_value(lift(k))
    if not isinstance(kv, int) or isinstance(kv, bool) or kv <= 0:
        raise TypeError(f"`{'//' if op == 'div' else '%'}` needs a positive integer constant on the right")
    if is_const(a):
        return lift(a.args[0] // kv if op == "div" else a.args[0] % kv)
    return Expr(op, (a, lift(kv)), INT)


_CMP = {"lt": lambda a, b: a < b, "le": lambda a, b: a <= b, "eq": lambda a, b: a == b}


def _cmp(op: str, a: Term, b: Term) -> Expr:
    a, b = lift(a), lift(b)
    if op != "eq":
        _need(a, INT, op), _need(b, INT, op)
    elif a.sort != b.sort:
        raise TypeError(f"cannot compare a {a.sort} with a {b.sort}: {show(a)} == {show(b)}")
    if is_const(a) and is_const(b):
        return lift(bool(_CMP[op](a.args[0], b.args[0])))
    if op == "eq" and a is b:
        return lift(True)
    return Expr(op, (a, b), BOOL)


def not_(a: Term) -> Expr:
    """Logical negation (also written ``~a``)."""
    a = _need(lift(a), BOOL, "not")
    if is_const(a):
        return lift(not a.args[0])
    if a.op == "not":
        return a.args[0]
    return Expr("not", (a,), BOOL)


def _connective(op: str, unit: bool, items) -> Expr:
    args: list[Expr] = []
    for x in items:
        x = _need(lift(x), BOOL, op)
        if is_const(x):
            if x.args[0] != unit:
                return lift(not unit)
            continue
        args.extend(x.args if x.op == op else (x,))
    if not args:
        return lift(unit)
    if len(args) == 1:
        return args[0]
    return Expr(op, tuple(args), BOOL)


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
    return Expr("ite", (c, a, b), a.sort)


def _extremum(op: str, items) -> Expr:
    args = [_need(lift(x), INT, op) for x in items]
    if not args:
        raise ValueError(f"{op} of nothing")
    consts = [x.args[0] for x in args if is_const(x)]
    rest = [x for x in args if not is_const(x)]
    if consts:
        rest.append(lift(min(consts) if op == "min" else max(consts)))
    if len(rest) == 1:
        return rest[0]
    return Expr(op, tuple(rest), INT)


def minimum(*items: Term) -> Expr:
    """The least of the arguments (or of one iterable argument)."""
    return _extremum("min", items[0] if len(items) == 1 and not isinstance(items[0], (Expr, int)) else items)


def maximum(*items: Term) -> Expr:
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
    seen = set() if seen is None else seen
    order: list[Expr] = []
    stack: list[tuple[Expr, bool]] = [(e, False)]
    while stack:
        x, done = stack.pop()
        if done:
            order.append(x)
            continue
        if id(x) in seen or id(x) in skip:
            continue
        seen.add(id(x))
        stack.append((x, True))
        if x.op not in ("const", "var"):
            stack.extend((a, False) for a in reversed(x.args))
    return order


def free_vars(e: Expr) -> set[str]:
    return {x.args[0] for x in nodes(e) if x.op == "var"}


_EVAL: dict[str, Callable] = {
    "add": lambda a, b: a + b, "sub": lambda a, b: a - b, "mul": lambda a, b: a * b,
    "nmul": lambda a, b: a * b, "div": lambda a, b: a // b, "mod": lambda a, b: a % b,
    "lt": lambda a, b: a < b, "le": lambda a, b: a <= b, "eq": lambda a, b: a == b,
    "not": lambda a: not a, "and": lambda *a: all(a), "or": lambda *a: any(a),
    "ite": lambda c, a, b: a if c else b, "min": lambda *a: min(a), "max": lambda *a: max(a),
}


def evaluate(e: Term, env: dict[str, Value]) -> Value:
    """Evaluate an expression with variables bound by ``env`` (a slow reference interpreter)."""
    e = lift(e)
    val: dict[int, Value] = {}
    for x in nodes(e):
        if x.op == "const":
            val[id(x)] = x.args[0]
        elif x.op == "var":
            try:
                val[id(x)] = env[x.args[0]]
            except KeyError:
                raise KeyError(f"no value for variable {x.args[0]!r}") from None
        else:
            val[id(x)] = _EVAL[x.op](*(val[id(a)] for a in x.args))
    return val[id(e)]


_INFIX = {"add": "+", "sub": "-", "mul": "*", "nmul": "*", "div": "//", "mod": "%", "lt": "<", "le": "<=", "eq": "=="}


def show(e: Term) -> str:
    """A readable rendering of an expression."""
    e = lift(e)
    if e.op == "const":
        return repr(e.args[0])
    if e.op == "var":
        return str(e.args[0])
    if e.op in _INFIX:
        return f"({show(e.args[0])} {_INFIX[e.op]} {show(e.args[1])})"
    if e.op == "not":
        return f"~{show(e.args[0])}"
    if e.op in ("and", "or"):
        return "(" + (" & " if e.op == "and" else " | ").join(show(a) for a in e.args) + ")"
    return f"{e.op}({', '.join(show(a) for a in e.args)})"
