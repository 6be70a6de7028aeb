"""Content fingerprints: a digest of what a rule, a structure or an expression *says*.

Caches that outlive a call (the verdict cache, the C kernel's sources, proofs of a game's
symmetries) are keyed by these digests, never by where the code came from (a file, a class,
a game's name): two rules with the same digest are the same guarded commands on the same
structure, whatever module, data file, environment variable or parameter produced them, and
any change of what a backend reads changes the digest.

An expression is read as a Merkle hash: a leaf's hash is that of its kind, sort and value,
a node's that of its operator, sort and its operands' hashes. So it depends on the terms
only, not on how they were shared in memory. Equal subterms built apart (the intern table of
:mod:`grundy.spec.expr` restarts past its limit) may have missed the smart constructors' folds
that compare operands by identity (``ite(c, a, a)`` is ``a``, ``a == a`` is ``True``): a node
is hashed as its constructor builds it on the first node met of each operand's hash (its
stand-in), so the hash is that of the DAG with every equal subterm one node, whatever was
built before. Node hashes are remembered for the process (bounded, registered in
:mod:`grundy.caches`): the same nodes recur across the structures of a family and the claims
on it, and each is hashed once.

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
import threading
from typing import Any, Iterable

from ..caches import register
from .expr import Expr, lift
from .rebuild import rebuild

__all__ = ["Digest", "expr_digest", "node_hash", "rules_digest", "structure_digest"]


class Digest:
    """An incremental SHA-256 over tagged items: plain values, expressions (by their Merkle
    hashes, see the module's docstring), structures and rules."""

    def __init__(self, tag: str = "") -> None:
        self.h = hashlib.sha256(tag.encode() + b"\0")
        self._numbers: dict[bytes, int] = {}   # an expression's hash -> its number in this digest

    def hexdigest(self) -> str:
        return self.h.hexdigest()

    def value(self, x: Any) -> "Digest":
        """A plain value: None, bool, int, str, bytes, float, or tuples, lists, sets, frozensets
        and dicts of them (TypeError for anything else: it cannot be read back as content)."""
        self.h.update(_plain(x).encode() + b"\0")
        return self

    def expr(self, e: Any) -> int:
        """Add an expression (a Python int or bool is a constant); its number in this digest
        (the same for equal expressions)."""
        h = node_hash(lift(e))
        self.h.update(b"@" + h)
        return self._numbers.setdefault(h, len(self._numbers))

    def exprs(self, es: Iterable[Any]) -> "Digest":
        """Add expressions, in order."""
        self.h.update(b"[" + b"".join([node_hash(lift(e)) for e in es]) + b"]")
        return self

    def structure(self, g: Any) -> "Digest":
        """Every field of a structure (its kind, size, edges, loops, vertex names, and what a
        subclass adds, such as a heap rule's parameters)."""
        fields = {f.name: getattr(g, f.name) for f in dataclasses.fields(g)}
        return self.value(["structure", type(g).__name__, fields])

    def rules(self, rules: Any, structure: bool = True) -> "Digest":
        """Everything a backend reads of a game on one structure: the structure, the fields and
        their slots, every move (label, choices, guard, update), the rank, the components and
        the declarations the solvers consult (name, convention, symmetric, decompose_over,
        heap count, whether the game is a sum of heaps and by which take-and-break code).
        ``structure=False``: of the structure only its size and the slots' domains (for what
        reads the structure through the moves' IR alone, such as a proof about the moves)."""
        game, sch = rules.game, rules.schema
        if structure:
            self.structure(rules.structure)
        else:
            g = rules.structure
            self.value(["structure size", type(g).__name__, getattr(g, "kind", None), g.n,
                        list(rules.slot_domains)])
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


# ----------------------------------------------------------------------------- node hashes
_HASH: dict[int, bytes] = {}      # id(node) -> the hash of its term (the node is kept alive below)
_STAND: dict[bytes, Expr] = {}    # a hash -> the first node met with it (the operands' stand-in)
_KEEP: list[Expr] = []            # every node in _HASH, so that an id is never reused while a key
_LIMIT = 200_000                  # nodes remembered; past it the memo starts again (flat memory)
_LOCK = threading.Lock()


def _clear() -> None:
    with _LOCK:
        _HASH.clear()
        _STAND.clear()
        _KEEP.clear()


register("node hashes", lambda: len(_HASH), _clear)


def node_hash(e: Expr) -> bytes:
    """The Merkle hash (32 bytes) of an expression's term, as the smart constructors build it
    when equal subterms are one node (see the module's docstring).

    >>> from grundy.spec.expr import Var, ite
    >>> x = Var.int("x")
    >>> node_hash(ite(x > 3, x + 1, x + 1)) == node_hash(x + 1) != node_hash(1 + x)
    True
    """
    got = _HASH.get(id(e))
    if got is not None:
        return got
    with _LOCK:
        if len(_HASH) > _LIMIT:
            _HASH.clear()
            _STAND.clear()
            _KEEP.clear()
        return _hash(e)


def _hash(e: Expr) -> bytes:
    sha = hashlib.sha256
    # (node, operands hashed, built again here: hashed as it is, the node it stands for)
    stack: list[tuple[Expr, bool, bool, Expr | None]] = [(e, False, False, None)]
    while stack:
        x, ready, made, alias = stack.pop()
        if alias is not None:                      # ``alias`` was built again as ``x``
            _HASH[id(alias)] = _HASH[id(x)]
            _KEEP.append(alias)
            continue
        if id(x) in _HASH:
            continue
        if x.op in ("const", "var"):
            h = sha(repr((x.op, x.sort, type(x.args[0]).__name__, x.args[0])).encode()).digest()
        elif not ready:
            stack.append((x, True, made, None))
            stack.extend((a, False, made, None) for a in reversed(x.args) if id(a) not in _HASH)
            continue
        else:
            hs = [_HASH[id(a)] for a in x.args]
            if not made:
                stand = [_STAND[h] for h in hs]
                if any(c is not a for c, a in zip(stand, x.args, strict=True)):
                    y = rebuild(x.op, stand)       # the constructor's folds on the shared operands
                    _KEEP.append(y)
                    stack.append((y, False, True, x))
                    stack.append((y, False, True, None))
                    continue
            h = sha(f"{x.op} {x.sort} {len(hs)}:".encode() + b"".join(hs)).digest()
        _HASH[id(x)] = h
        _STAND.setdefault(h, x)
        _KEEP.append(x)
    return _HASH[id(e)]


def _moves_text(moves: list[Any]) -> bytes:
    """Each move's label, choice names and updated slots (what its expressions are read with)."""
    rows = [(m.label, [c.name for c in m.choices], sorted(m.update)) for m in moves]
    if all(type(label) is str and all(type(n) is str for n in names) and all(type(k) is int for k in slots)
           for label, names, slots in rows):
        return b"moves " + repr(rows).encode() + b"\n"       # str and int only: repr is exact
    return b"moves " + _plain(rows).encode() + b"\n"


_ATOMS = frozenset([type(None), bool, int, float, str, bytes])


def _plain(x: Any) -> str:
    if x is None or isinstance(x, (bool, int, float, str, bytes)):
        return f"{type(x).__name__}:{x!r}"
    if isinstance(x, (tuple, list)):
        if type(x) in (tuple, list) and all(type(v) in _ATOMS for v in x):
            return "\x01" + repr(x)    # exact for these types (a tag no type name starts with)
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


def rules_digest(rules: Any, structure: bool = True) -> str:
    """The digest of a game's rules on one structure (see :meth:`Digest.rules`)."""
    return Digest("rules").rules(rules, structure).hexdigest()
