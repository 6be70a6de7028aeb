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
        n = self._numbers([e])[0]
        self.h.update(f"@{n}\n".encode())
        return n

    def exprs(self, es: Iterable[Any]) -> "Digest":
        """Add expressions, in order (see :meth:`expr`)."""
        self.h.update(("[" + " ".join(map(str, self._numbers(list(es)))) + "]\n").encode())
        return self

    def _numbers(self, es: list[Any]) -> list[int]:
        """Number the expressions' stand-ins (:meth:`_canonical`), writing each new node once,
        operands first. One walk numbers the stand-ins as it meets them; where a node had to be
        built again (a subterm built twice), what that walk did is taken back and the stand-ins
        are numbered from the roots (a folded-away operand must not be written)."""
        mark = len(self._keys)
        lines: list[bytes] = []
        added: list[int] = []
        entered: list[int] = []
        roots, folded = self._canonical([lift(e) for e in es], lines, added, entered)
        if folded:
            for i in added:
                del self._ids[i]
            for key in [k for k, n in self._keys.items() if n >= mark]:
                del self._keys[key]
            for i in entered:                      # every node stood for has its stand-in numbered
                del self._canon[i]
            lines = []
            for r in roots:
                self._number_dag(r, lines)
        self.h.update(b"".join(lines))
        return [self._ids[id(r)] for r in roots]

    def _number_dag(self, root: Expr, lines: list[bytes]) -> None:
        """Number every node below ``root`` not numbered yet, operands first."""
        ids = self._ids
        stack: list[tuple[Expr, bool]] = [(root, False)]
        while stack:
            x, ready = stack.pop()
            if id(x) in ids:
                continue
            if not ready and x.op not in ("const", "var"):
                stack.append((x, True))
                stack.extend((a, False) for a in reversed(x.args) if id(a) not in ids)
                continue
            lines.append(self._number(x))

    def _number(self, x: Expr) -> bytes:
        """Number a node whose operands are numbered; the line to write if it is new."""
        if x.op in ("const", "var"):
            key: tuple = (x.op, x.sort, type(x.args[0]).__name__, x.args[0])
        else:
            key = (x.op, x.sort, *[self._ids[id(a)] for a in x.args])
        k = self._keys.get(key)
        line = b""
        if k is None:
            k = self._keys[key] = len(self._keys)
            line = repr(key).encode() + b"\n"
        self._ids[id(x)] = k
        return line

    def _canonical(self, es: list[Expr], lines: list[bytes], added: list[int],
                   entered: list[int]) -> tuple[list[Expr], bool]:
        """The nodes standing for ``es`` in a DAG where equal subterms are one node: each node on
        its operands' stand-ins, built again by its smart constructor where an operand changed
        (a node that rebuilding makes is read as it is: its operands' stand-ins, no second fold).
        Each new stand-in is numbered when met (its line in ``lines``, its id in ``added``; the
        ids of the nodes stood for in ``entered``); True with the stand-ins if some node was
        built again."""
        canon, table, keep, ids = self._canon, self._table, self._keep, self._ids
        folded = False
        stack: list[tuple[Expr, bool, bool, Expr | None]] = [
            (e, False, False, None) for e in reversed(es) if id(e) not in canon]
        while stack:
            x, ready, made, alias = stack.pop()
            if alias is not None:                  # ``alias`` was built again as ``x``
                canon[id(alias)] = canon[id(x)]
                entered.append(id(alias))
                keep.append(alias)
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
                args = tuple([canon[id(a)] for a in x.args])
                key = (x.op, *map(id, args))
                node = x
                if key[1:] != tuple(map(id, x.args)):  # an operand stood for by another node
                    if not made:                   # fold again on the shared operands
                        folded = True
                        y = rebuild(x.op, args)
                        keep.append(y)
                        stack.append((y, False, True, x))
                        stack.append((y, False, True, None))
                        continue
                    node = Expr(x.op, args, x.sort)
            got = table.get(key)
            if got is None:
                got = table[key] = node
            canon[id(x)] = got
            entered.append(id(x))
            keep.append(x)
            if id(got) not in ids:
                lines.append(self._number(got))
                added.append(id(got))
        return [canon[id(e)] for e in es], folded

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
        moves = rules.moves
        self.h.update(_moves_text(moves))
        self.exprs(x for m in moves
                   for x in (m.guard, *(b for c in m.choices for b in (c.lo, c.hi)),
                             *(m.update[k] for k in sorted(m.update))))
        self.value("rank").expr(rules.rank)
        if rules.present is not None:
            self.value("components").exprs([rules.decomposable, *rules.present])
        rule = game.heap_rule(rules.structure)
        if rule is not None:
            code = rule.code
            self.value(["sum of heaps", None if code is None else (code.digits, code.tail, code.unequal)])
        return self


def _moves_text(moves: list[Any]) -> bytes:
    """Each move's label, choice names and updated slots (what its expressions are read with)."""
    rows = [(m.label, [c.name for c in m.choices], sorted(m.update)) for m in moves]
    if all(type(label) is str and all(type(n) is str for n in names) and all(type(k) is int for k in slots)
           for label, names, slots in rows):
        return b"moves " + repr(rows).encode() + b"\n"       # str and int only: repr is exact
    return b"moves " + _plain(rows).encode() + b"\n"


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
