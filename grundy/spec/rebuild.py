"""Rebuilding a DAG through the smart constructors of :mod:`grundy.spec.expr`: one node again
(:func:`rebuild`: constants fold, units drop), or a whole DAG with variables replaced
(:class:`Rebuild`, the substitution the SMT backend and the fingerprints use).
"""
from __future__ import annotations

from functools import partial
from typing import Callable, Sequence

from .expr import Expr, _node, all_of, any_of, ite, maximum, minimum, nim_sum, not_, product
from .ops import OPS, Walker, dag_nodes

__all__ = ["rebuild", "Rebuild"]

_BUILD: dict[str, Callable[[list[Expr]], Expr]] = {
    "add": lambda a: a[0] + a[1], "sub": lambda a: a[0] - a[1], "mul": lambda a: a[0] * a[1],
    "nmul": lambda a: product(a[0], a[1]), "div": lambda a: a[0] // a[1], "mod": lambda a: a[0] % a[1],
    "xor": lambda a: nim_sum(a[0], a[1]), "min": lambda a: minimum(a), "max": lambda a: maximum(a),
    "lt": lambda a: a[0] < a[1], "le": lambda a: a[0] <= a[1], "eq": lambda a: a[0] == a[1],
    "not": lambda a: not_(a[0]), "and": lambda a: all_of(a), "or": lambda a: any_of(a),
    "ite": lambda a: ite(a[0], a[1], a[2]),
    # nim arithmetic and bits (constructors in grundy.spec.bits): rebuilt as they are, constants folded
    **{op: partial(_node, op) for op in ("bit_and", "bit_or", "popcount", "nim_product")},
}
_missing = [op for op, spec in OPS.items() if spec.operands != "leaf" and op not in _BUILD]
if _missing:   # pragma: no cover - a catalogue operator without a smart constructor
    raise ImportError(f"grundy.spec.rebuild: no constructor for operator {_missing[0]!r} of the catalogue")


def rebuild(op: str, args: Sequence[Expr]) -> Expr:
    """The node ``op(args)`` built again by its smart constructor (constants fold, units drop).

    >>> from grundy.spec.expr import Var, lift, show
    >>> x = Var.int("x")
    >>> show(rebuild("add", [x, lift(0)])), show(rebuild("xor", [lift(6), lift(3)]))
    ('x', '5')
    """
    return _BUILD[op](list(args))


class Rebuild(Walker):
    """The walker that rebuilds a DAG with some variables replaced (``mapping``): untouched
    parts are shared, constants fold again. Every operator goes through :func:`rebuild`."""

    def __init__(self, mapping: dict[str, Expr]):
        super().__init__()
        self.mapping = mapping

    def walk_const(self, x: Expr) -> Expr:
        return x

    def walk_var(self, x: Expr) -> Expr:
        return self.mapping.get(x.args[0], x)

    def walk(self, e: Expr) -> Expr:
        """:meth:`Walker.walk`: the same nodes visited in the same order, the same results,
        with :meth:`_same` (most operators' visit) inline: a substitution visits every node of
        the DAG, and the generic dispatch cost as much as the rebuilding. A subclass's own
        ``walk_<op>`` methods are called as :meth:`Walker.visit` calls them."""
        if type(self).visit is not Walker.visit or not hasattr(e, "op"):
            return super().walk(e)
        memo = self.memo
        hit = memo.get(id(e))
        if hit is not None:
            return hit[1]
        table, same = self._table, Rebuild._same
        for x in dag_nodes(e, skip=memo):
            op = x.op
            if op == "const" or op == "var":
                memo[id(x)] = (x, table[op](self, x))
                continue
            args = x.args
            new = [memo[id(a)][1] for a in args]
            fn = table[op]
            if fn is not same:
                r = fn(self, x, *new)
            else:
                r = x
                for a, b in zip(new, args, strict=False):
                    if a is not b:
                        r = _BUILD[op](new)
                        break
            memo[id(x)] = (x, r)
        return memo[id(e)][1]

    __call__ = walk

    def _same(self, x: Expr, *args: Expr) -> Expr:
        return x if all(a is b for a, b in zip(args, x.args, strict=False)) else rebuild(x.op, args)

    walk_add = walk_sub = walk_mul = walk_nmul = walk_div = walk_mod = walk_xor = _same
    walk_bit_and = walk_bit_or = walk_popcount = walk_nim_product = _same
    walk_min = walk_max = walk_lt = walk_le = walk_eq = _same
    walk_not = walk_and = walk_or = walk_ite = _same
