"""The node table behind :mod:`grundy.spec.expr` (hash-consing).

Every node is built once: a node with the same operator on the same operands (the same
objects), a constant of the same type and value, a variable of the same name and sort, is the
node built before. Nodes are immutable, so sharing them changes no meaning; it makes equal
subterms one node (walks see them once) and lets compiled code be cached by the node's
identity (the statement of a claim on two graphs with the same vertices is one DAG). A key
holds the ids of the operands, which the node (held by the table) keeps alive, so an id is
never reused while its key is in the table. The table starts again past ``_INTERN_LIMIT``
entries (memory stays flat over long sweeps; only sharing with older nodes is lost), and
counts it: equal terms are one node only within one run of the table, so a check that compares
nodes by identity reads :func:`node_table_restarts` before and after.

>>> n = node_table_restarts(); _restart(); node_table_restarts() - n
1
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable

from ..caches import register

if TYPE_CHECKING:
    from .expr import Expr

_INTERN: dict[tuple[Any, ...], Expr] = {}
_INTERN_LIMIT = 50_000
_RESTARTS = [0]          # how many times the table started again in this process


def _restart() -> None:
    _INTERN.clear()
    _RESTARTS[0] += 1


register("intern", lambda: len(_INTERN), _restart)


def node_table_restarts() -> int:
    """How many times the node table has started again in this process."""
    return _RESTARTS[0]


def stored(key: tuple[Any, ...], x: Expr) -> Expr:
    """``x`` kept under ``key`` (the table started again first if it is full)."""
    if len(_INTERN) >= _INTERN_LIMIT:
        _restart()
    _INTERN[key] = x
    return x


def interned(key: tuple[Any, ...], make: Callable[[], Expr]) -> Expr:
    """The node kept under ``key``, else ``make()``'s, kept."""
    x = _INTERN.get(key)
    return x if x is not None else stored(key, make())
