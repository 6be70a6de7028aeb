"""Content fingerprints: a digest of what a rule, a structure or an expression *says*.

Caches that outlive a call (the verdict cache, the C kernel's sources, proofs of a game's
symmetries) are keyed by these digests, never by where the code came from (a file, a class,
a game's name): two rules with the same digest are the same guarded commands on the same
structure, whatever module, data file, environment variable or parameter produced them, and
any change of what a backend reads changes the digest.

An expression's digest is that of its DAG written out with every distinct subterm once
(numbered in a fixed order, operands before the nodes using them), so it depends on the
terms only, not on how they were shared in memory.

>>> from grundy.spec.expr import Var
>>> x, y = Var.int("x"), Var.int("y")
>>> expr_digest(x + y) == expr_digest(x + y) != expr_digest(y + x)
True
>>> from grundy.spec.games import get_game
>>> from grundy.spec.structure import Structure
>>> nim = get_game("nim")
>>> rules_digest(nim.rules(Structure.heaps(2))) == rules_digest(nim.rules(Structure.heaps(2)))
True
>>> rules_digest(nim.rules(Structure.heaps(2))) != rules_digest(nim.rules(Structure.heaps(3)))
True
"""
from __future__ import annotations

import dataclasses
import hashlib
from typing import Any, Iterable

from .expr import Expr, lift, rebuild

__all__ = ["Digest", "expr_digest", "rules_digest", "structure_digest"]


class Digest:
    """An incremental SHA-256 over tagged items: plain values, expressions (DAGs written
    with each distinct subterm once, shared across every expression added to this digest),
    structures and rules."""

    def __init__(self, tag: str = "") -> None:
        self.h = hashlib.sha256(tag.encode() + b"\0")
        self._ids: dict[int, int] = {}        # id(node) -> its number (nodes are kept alive below)
        self._keys: dict[tuple, int] = {}     # (op, sort, operand numbers / constant) -> number
        self._keep: list[Expr] = []           # every node met, alive while its id is a key
        self._canon: dict[int, Expr] = {}     # id(node) -> its stand-in, equal subterms one node
        self._table: dict[tuple, Expr] = {}   # (op, operands' stand-ins) or a leaf's key -> stand-in

    def hexdigest(self) -> str:
        return self.h.hexdigest()

    def value(self, x: Any) -> "Digest":
        """A plain value: None, bool, int, str, bytes, float, or tuples, lists, sets, frozensets
        and dicts of them (TypeError for anything else: it cannot be read back as content)."""
        self.h.update(_plain(x).encode() + b"\0")
        return self

    def expr(self, e: Any) -> int:
        """Add an expression (a Python int or bool is a constant); its number in this digest.

        What is written is the DAG the smart constructors build when every equal subterm is one
        node (:meth:`_canonical`): where the same subterm was built twice (the intern table of
        :mod:`grundy.spec.expr` restarted in between), folds that test operands for identity
        (``ite(c, a, a)``, ``a == a``) may have been missed, and the digest would depend on what
        was built before. Every call writes the number of its expression, even one added before.
        """
        e = self._canonical(lift(e))
        ids = self._ids
        if id(e) not in ids:
            stack: list[tuple[Expr, bool]] = [(e, False)]
            while stack:
                x, ready = stack.pop()
                if id(x) in ids:
                    continue
                if x.op in ("const", "var"):
                    key: tuple = (x.op, x.sort, type(x.args[0]).__name__, x.args[0])
                elif not ready:
                    stack.append((x, True))
                    stack.extend((a, False) for a in reversed(x.args) if id(a) not in ids)
                    continue
                else:
                    key = (x.op, x.sort, *(ids[id(a)] for a in x.args))
                k = self._keys.get(key)
                if k is None:
                    k = self._keys[key] = len(self._keys)
                    self.h.update(repr(key).encode() + b"\n")
                ids[id(x)] = k
        n = ids[id(e)]
        self.h.update(f"@{n}\n".encode())
        return n

    def _canonical(self, e: Expr) -> Expr:
        """The node standing for ``e`` in a DAG where equal subterms are one node: each node on
        its operands' stand-ins, built again by its smart constructor where an operand changed
        (a node that rebuilding makes is read as it is: its operands' stand-ins, no second fold)."""
        canon, table = self._canon, self._table
        stack: list[tuple[Expr, bool, bool, Expr | None]] = [(e, False, False, None)]
        while stack:
            x, ready, made, alias = stack.pop()
            if alias is not None:                  # ``alias`` was built again as ``x``
                canon[id(alias)] = canon[id(x)]
                self._keep.append(alias)
                continue
            if id(x) in canon:
                continue
            if x.op in ("const", "var"):
                key: tuple = (x.op, x.sort, type(x.args[0]).__name__, x.args[0])
                node = x
            elif not ready:
                stack.append((x, True, made, None))
                stack.extend((a, False, made, None) for a in reversed(x.args) if id(a) not in canon)
                continue
            else:
                args = tuple(canon[id(a)] for a in x.args)
                node = x
                if any(c is not a for c, a in zip(args, x.args, strict=True)):
                    if not made:                   # fold again on the shared operands
                        y = rebuild(x.op, args)
                        self._keep.append(y)
                        stack.append((y, False, True, x))
                        stack.append((y, False, True, None))
                        continue
                    node = Expr(x.op, args, x.sort)
                key = (x.op, *map(id, args))
            got = table.get(key)
            if got is None:
                got = table[key] = node
            canon[id(x)] = got
            self._keep.append(x)
        return canon[id(e)]

    def exprs(self, es: Iterable[Any]) -> "Digest":
        self.h.update(b"[")
        for e in es:
            self.expr(e)
        self.h.update(b"]\n")
        return self

    def structure(self, g: Any) -> "Digest":
        """Every field of a structure (its kind, size, edges, loops, vertex names, and what a
        subclass adds, such as a heap rule's parameters)."""
        fields = {f.name: getattr(g, f.name) for f in dataclasses.fields(g)}
        return self.value(["structure", type(g).__name__, fields])

    def rules(self, rules: Any) -> "Digest":
        """Everything a backend reads of a game on one structure: the structure, the fields and
        their slots, every move (label, choices, guard, update), the rank, the components and
        the declarations the solvers consult (name, convention, symmetric, decompose_over,
        heap count, whether the game is a sum of heaps and by which take-and-break code)."""
        game, sch = rules.game, rules.schema
        self.structure(rules.structure)
        self.value(["game", game.name, getattr(game, "convention", "normal"), getattr(game, "symmetric", None),
                    getattr(game, "decompose_over", None), getattr(game, "heap_count", None)])
        self.value(["fields", [(f.name, f.over, f.kind, f.lower, f.empty) for f in sch.fields.values()],
                    [(name, key) for name, key in sch.slots]])
        for m in rules.moves:
            self.value(["move", m.label, [c.name for c in m.choices]])
            self.exprs([m.guard] + [x for c in m.choices for x in (c.lo, c.hi)])
            self.value(sorted(m.update))
            self.exprs(m.update[k] for k in sorted(m.update))
        self.value("rank").expr(rules.rank)
        if rules.present is not None:
            self.value("components").exprs([rules.decomposable, *rules.present])
        rule = game.heap_rule(rules.structure)
        if rule is not None:
            code = rule.code
            self.value(["sum of heaps", None if code is None else (code.digits, code.tail, code.unequal)])
        return self


def _plain(x: Any) -> str:
    if x is None or isinstance(x, (bool, int, float, str, bytes)):
        return f"{type(x).__name__}:{x!r}"
    if isinstance(x, (tuple, list)):
        return f"{type(x).__name__}(" + ",".join(_plain(v) for v in x) + ")"
    if isinstance(x, (set, frozenset)):
        return f"{type(x).__name__}(" + ",".join(sorted(_plain(v) for v in x)) + ")"
    if isinstance(x, dict):
        return "dict(" + ",".join(sorted(f"{_plain(k)}={_plain(v)}" for k, v in x.items())) + ")"
    if dataclasses.is_dataclass(x) and not isinstance(x, type):
        return f"{type(x).__name__}(" + _plain({f.name: getattr(x, f.name) for f in dataclasses.fields(x)}) + ")"
    raise TypeError(f"cannot fingerprint a {type(x).__name__}: {x!r:.60}")


def expr_digest(e: Any) -> str:
    """The digest of one expression."""
    d = Digest("expr")
    d.expr(e)
    return d.hexdigest()


def structure_digest(g: Any) -> str:
    """The digest of one structure (names and parameters included)."""
    return Digest("structure").structure(g).hexdigest()


def rules_digest(rules: Any) -> str:
    """The digest of a game's rules on one structure (see :meth:`Digest.rules`)."""
    return Digest("rules").rules(rules).hexdigest()
