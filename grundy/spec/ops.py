"""The operator catalogue: every operator of the expression IR, declared once.

An :class:`Op` carries what every backend needs to agree on: its name, its arity, its sort
rule (operand sorts -> result sort), its concrete meaning (a Python function on ints and
bools) and its printable form. Backends are :class:`Walker` subclasses with one
``walk_<op>`` method per operator; a subclass that misses one fails when the class is
created, naming the operator, unless it lists the operator in ``refuses`` (with the message
a user then sees). So a new operator cannot be added here without every backend saying
what it does with it.

>>> OPS["xor"].concrete(5, 3), OPS["xor"].result((INT, INT))
(6, 'int')
>>> class Half(Walker):  # doctest: +ELLIPSIS
...     def walk_const(self, x): return x.args[0]
Traceback (most recent call last):
...
grundy.errors.MissingOperator: walker Half (...) has no walk_var: every operator of the catalogue needs one (or an entry in `refuses`)
"""
from __future__ import annotations

import operator
from dataclasses import dataclass
from typing import Any, Callable, ClassVar, Container, Iterable, Sequence

from ..errors import MissingOperator, UnsupportedOperator
from .nimber import nim_multiply

__all__ = ["INT", "BOOL", "Op", "OPS", "Walker", "MissingOperator", "UnsupportedOperator", "dag_nodes", "dag_nodes_of"]

INT, BOOL = "int", "bool"


@dataclass(frozen=True)
class Op:
    """One operator: ``arity`` (None: one or more operands), operand sorts (``INT``, ``BOOL``,
    or ``"same"``: any sort, equal for all operands; for ``ite`` the branches), result sort
    (a sort, or ``"arg"``: the sort of the operands/branches), the concrete meaning, and the
    printable form (``infix``: the Python operator written between operands, else a prefix
    or function name)."""

    name: str
    arity: int | None
    operands: str
    result_sort: str
    concrete: Callable[..., Any]
    infix: str | None = None
    prefix: str | None = None
    doc: str = ""

    def result(self, sorts: Sequence[str]) -> str:
        """The result sort for operands of ``sorts`` (TypeError naming the operator if they do not fit)."""
        sorts = list(sorts)
        if self.arity is not None and len(sorts) != self.arity:
            raise TypeError(f"{self.name} takes {self.arity} operands, got {len(sorts)}")
        if self.arity is None and not sorts:
            raise TypeError(f"{self.name} of nothing")
        if self.name == "ite":
            if sorts[0] != BOOL:
                raise TypeError(f"ite needs a bool condition, got a {sorts[0]}")
            if sorts[1] != sorts[2]:
                raise TypeError("ite branches differ in sort")
            return sorts[1]
        if self.operands == "same":
            if len(set(sorts)) > 1:
                raise TypeError(f"{self.name} needs operands of one sort, got {' and '.join(sorts)}")
        else:
            for s in sorts:
                if s != self.operands:
                    raise TypeError(f"{self.name} needs {self.operands} operands, got a {s}")
        return sorts[0] if self.result_sort == "arg" else self.result_sort


def _floordiv(a: int, b: int) -> int:
    return a // b


def _popcount(a: int) -> int:
    return abs(a).bit_count()


_CATALOGUE = [
    # leaves: args hold the Python value / the variable's name (walkers see the node itself)
    Op("const", 1, "leaf", "arg", lambda v: v, doc="a constant int or bool"),
    Op("var", 1, "leaf", "arg", lambda v: v, doc="a named variable (state slot, choice, target value)"),
    # integer arithmetic
    Op("add", 2, INT, INT, operator.add, infix="+"),
    Op("sub", 2, INT, INT, operator.sub, infix="-"),
    Op("mul", 2, INT, INT, operator.mul, infix="*", doc="linear: one operand is a constant"),
    Op("nmul", 2, INT, INT, operator.mul, prefix="product",
       doc="a non-linear product, stated explicitly with product(a, b)"),
    Op("div", 2, INT, INT, _floordiv, infix="//", doc="floor division by a positive constant"),
    Op("mod", 2, INT, INT, operator.mod, infix="%", doc="remainder by a positive constant (Python's sign)"),
    Op("xor", 2, INT, INT, operator.xor, infix="^",
       doc="nim-sum: bitwise exclusive or (two's complement on negative values, as Python's ^)"),
    Op("bit_and", 2, INT, INT, operator.and_, prefix="bit_and",
       doc="bitwise and (two's complement on negative values, as Python's &)"),
    Op("bit_or", 2, INT, INT, operator.or_, prefix="bit_or",
       doc="bitwise or (two's complement on negative values, as Python's |)"),
    Op("popcount", 1, INT, INT, _popcount, prefix="popcount",
       doc="the number of 1 bits of |a| (Python's int.bit_count)"),
    Op("nim_product", 2, INT, INT, nim_multiply, prefix="nim_product",
       doc="the nim product a ⊗ b of non-negative integers (an error on a negative operand)"),
    Op("min", None, INT, INT, lambda *a: min(a), prefix="minimum"),
    Op("max", None, INT, INT, lambda *a: max(a), prefix="maximum"),
    # comparisons
    Op("lt", 2, INT, BOOL, operator.lt, infix="<"),
    Op("le", 2, INT, BOOL, operator.le, infix="<="),
    Op("eq", 2, "same", BOOL, operator.eq, infix="=="),
    # connectives
    Op("not", 1, BOOL, BOOL, operator.not_, prefix="~"),
    Op("and", None, BOOL, BOOL, lambda *a: all(a), infix="&"),
    Op("or", None, BOOL, BOOL, lambda *a: any(a), infix="|"),
    Op("ite", 3, "same", "arg", lambda c, a, b: a if c else b, prefix="ite"),
]

OPS: dict[str, Op] = {op.name: op for op in _CATALOGUE}
"""Every operator of the IR by name (the order above: leaves, arithmetic, comparisons, logic)."""


class Walker:
    """A memoising walk over an expression DAG: each node once, children first.

    A subclass defines ``walk_const(self, x)``, ``walk_var(self, x)`` and, for every other
    operator ``op`` of :data:`OPS`, ``walk_<op>(self, x, *values)`` (``x`` the node, ``values``
    the children's results). Operators it cannot handle go in ``refuses`` (operator -> the
    user's message). Checked when the class is created: a missing operator is a
    :class:`MissingOperator` naming it. Pass ``abstract=True`` to the class statement for a
    base class that leaves methods to its subclasses.
    """

    refuses: ClassVar[dict[str, str]] = {}
    _table: ClassVar[dict[str, Callable[..., Any]]] = {}

    def __init_subclass__(cls, abstract: bool = False, **kw: Any):
        super().__init_subclass__(**kw)
        if abstract:
            return
        table: dict[str, Callable[..., Any]] = {}
        for name in OPS:
            fn = getattr(cls, f"walk_{name}", None)
            if callable(fn):
                table[name] = fn
            elif name in cls.refuses:
                table[name] = _refusal(cls.refuses[name])
            else:
                raise MissingOperator(f"walker {cls.__qualname__} ({cls.__module__}) has no walk_{name}: "
                                      f"every operator of the catalogue needs one (or an entry in `refuses`)")
        cls._table = table

    def __init__(self) -> None:
        self.memo: dict[int, tuple[Any, Any]] = {}   # node id -> (node, result): the node kept alive

    def walk(self, e: Any) -> Any:
        """The result for ``e`` (an :class:`~grundy.spec.expr.Expr` node: a Python int or bool is
        lifted by the caller, :func:`grundy.spec.expr.lift`), walking only what is not memoised."""
        if not hasattr(e, "op"):
            raise TypeError(f"a walker walks expression nodes, not {type(e).__name__} {e!r} (lift it first)")
        memo = self.memo
        hit = memo.get(id(e))
        if hit is not None:
            return hit[1]
        for a in e.args if e.op != "const" and e.op != "var" else ():
            if id(a) not in memo:
                break
        else:      # a leaf, or every child walked: the one node dag_nodes would give, visited
            r = self.visit(e)
            memo[id(e)] = (e, r)
            return r
        for x in dag_nodes(e, skip=memo):
            memo[id(x)] = (x, self.visit(x))
        return memo[id(e)][1]

    __call__ = walk

    def visit(self, x: Any) -> Any:
        """One node, its children already walked."""
        fn = self._table[x.op]
        if x.op in ("const", "var"):
            return fn(self, x)
        memo = self.memo
        return fn(self, x, *[memo[id(a)][1] for a in x.args])


def dag_nodes(e: Any, seen: set[int] | None = None, skip: Container[int] = ()) -> list[Any]:
    """Every node of the DAG under ``e`` once, children before parents.

    ``seen`` (ids of nodes visited by earlier calls; updated) skips those nodes and
    everything under them, so a walk over many roots sharing subterms stays linear.
    ``skip`` (ids, not updated) also prunes: e.g. the nodes a walker has already done.
    """
    return dag_nodes_of((e,), seen, skip)


def dag_nodes_of(roots: Iterable[Any], seen: set[int] | None = None, skip: Container[int] = ()) -> list[Any]:
    """:func:`dag_nodes` of each root in turn, with one ``seen``, in one walk: every node under
    ``roots`` once, children before parents, the roots in order.

    >>> from grundy.spec import Var, ite
    >>> x, y = Var.int("x"), Var.int("y")
    >>> roots = [ite(x < y, x ^ y, y // 2), x + 1 == y, x ^ y, x]
    >>> seen: set = set()
    >>> dag_nodes_of(roots) == [n for r in roots for n in dag_nodes(r, seen)]
    True
    """
    seen = set() if seen is None else seen
    order: list[Any] = []
    append = order.append
    stack: list[Any] = []       # nodes to enter; _EXIT above a node: its children are done
    pop, push, extend = stack.pop, stack.append, stack.extend
    for root in roots:
        push(root)
        while stack:
            x = pop()
            if x is _EXIT:
                append(pop())
                continue
            i = id(x)
            if i in seen or i in skip:
                continue
            seen.add(i)
            if x.op == "const" or x.op == "var":
                append(x)
                continue
            push(x)
            push(_EXIT)
            extend(x.args[::-1])
    return order


_EXIT = object()


def _refusal(message: str) -> Callable[..., Any]:
    def refuse(self: Walker, x: Any, *args: Any) -> Any:
        raise UnsupportedOperator(message)
    return refuse
