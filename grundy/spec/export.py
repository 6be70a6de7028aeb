"""A game's rules as data: the IR, the rules on one structure and the structure, in JSON.

The format is documented in docs/certificates.md; ``checker/grundy_check.py`` reads it with an
interpreter of its own. Expressions are a table of nodes, children before parents; a node is a
list ``[op, sort, *operands]``: a constant's operand is its value, a variable's its name, any
other operator's the indices of its operand nodes in the table. The quantifiers of a rule or a
statement (``all_of``/``any_of`` over the structure) are expanded when it is built on a
structure, so the exported IR has none.

>>> from grundy.spec.expr import Var, ite
>>> t = NodeTable()
>>> x = Var.int("x")
>>> t.add(ite(x < 3, x ^ 5, 0))
6
>>> t.nodes
[['var', 'int', 'x'], ['const', 'int', 3], ['lt', 'bool', 0, 1], ['const', 'int', 5], ['xor', 'int', 0, 3], ['const', 'int', 0], ['ite', 'int', 2, 4, 5]]
>>> from grundy.spec.games import get_game
>>> from grundy.spec.structure import Structure
>>> r = export_rules(get_game("nim").rules(Structure.heaps(2)), t)
>>> [s["name"] for s in r["slots"]], [m["label"] for m in r["moves"]]
(['heap[0]', 'heap[1]'], ['take {k} from heap 1', 'take {k} from heap 2'])
"""
from __future__ import annotations

from typing import Any

from .expr import Expr, Term, lift
from .game import Game, Move, Rules
from .heaprule import HeapRule
from .ops import dag_nodes
from .structure import Structure

__all__ = ["FORMAT", "NodeTable", "export_structure", "export_rules", "export_heap_rule", "jsonable"]

FORMAT = "grundy-rules/1"
"""The name and version of the format (docs/certificates.md)."""


class NodeTable:
    """Expression nodes in a list, each once, children before parents (indices are stable)."""

    def __init__(self) -> None:
        self.nodes: list[list[Any]] = []
        self._index: dict[int, int] = {}
        self._keep: list[Expr] = []          # the nodes indexed by id stay alive

    def add(self, e: Term) -> int:
        """The index of ``e``'s root, its sub-expressions added first where new."""
        e = lift(e)
        index = self._index
        if id(e) in index:
            return index[id(e)]
        for x in dag_nodes(e, skip=index):
            if x.op in ("const", "var"):
                row = [x.op, x.sort, x.args[0]]
            else:
                row = [x.op, x.sort, *(index[id(a)] for a in x.args)]
            index[id(x)] = len(self.nodes)
            self.nodes.append(row)
            self._keep.append(x)
        return index[id(e)]


def jsonable(v: Any) -> Any:
    """A parameter value as JSON (tuples and frozensets as lists, other objects as text).

    >>> jsonable((1, (2, 3))), jsonable(frozenset({2, 1})), jsonable(None)
    ([1, [2, 3]], [1, 2], None)
    """
    if v is None or isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (list, tuple)):
        return [jsonable(x) for x in v]
    if isinstance(v, (set, frozenset)):
        return [jsonable(x) for x in sorted(v, key=repr)]
    if isinstance(v, dict):
        return {str(k): jsonable(x) for k, x in v.items()}
    return str(v)


def export_structure(g: Structure) -> dict[str, Any]:
    """The structure: kind, size, edges (vertex numbers), loops, names (as text), parameters.

    >>> export_structure(Structure.graph("abc", [("a", "b")]))
    {'kind': 'graph', 'n': 3, 'edges': [[0, 1]], 'loops': [], 'names': ['a', 'b', 'c'], 'params': []}
    """
    return {"kind": g.kind, "n": g.n, "edges": [list(e) for e in g.edges], "loops": sorted(g.loops),
            "names": [str(x) for x in g.names],
            "params": [[str(k), jsonable(v)] for k, v in getattr(g, "params", ())]}


def _choices(m: Move, t: NodeTable) -> list[dict[str, Any]]:
    return [{"var": c.name, "lo": t.add(c.lo), "hi": t.add(c.hi)} for c in m.choices]


def export_rules(rules: Rules, t: NodeTable) -> dict[str, Any]:
    """The guarded commands of ``rules``: slots (variable, field, kind, domain), moves (label,
    numeric choices, guard, update, where the result fits) and the rank, as indices into ``t``."""
    sch = rules.schema
    slots = []
    for i, (name, key) in enumerate(sch.slots):
        f = sch.fields[name]
        dom = rules.slot_domains[i]
        slots.append({"name": sch.var_name(i), "field": name, "key": jsonable(key), "kind": f.kind,
                      "domain": [0, 1] if dom is None else [dom[0], dom[1]]})
    moves = []
    for m in rules.moves:
        row: dict[str, Any] = {"label": m.label, "choices": _choices(m, t), "guard": t.add(m.guard),
                               "update": [[slot, t.add(e)] for slot, e in sorted(m.update.items())]}
        if m.fits is not None:
            row["fits"] = t.add(m.fits[0])
        moves.append(row)
    return {"slots": slots, "moves": moves, "rank": t.add(rules.rank)}


def export_heap_rule(game: Game, g: Structure, t: NodeTable) -> dict[str, Any] | None:
    """A :class:`~grundy.spec.heaprule.HeapRule`'s text on one heap: the heap's variable and
    each option's choices, guard and parts (None for another game)."""
    if not isinstance(game, HeapRule):
        return None
    n, opts = game.one_heap(g)
    return {"var": n.name,
            "options": [{"label": o.label, "choices": _choices(o, t), "guard": t.add(o.guard),
                         "parts": [t.add(o.update[i]) for i in range(len(o.update))]} for o in opts]}
