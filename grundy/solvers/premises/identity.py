"""The symmetry premise by construction: a generator whose image of every move is, term for
term, a move of the rule (identical expressions after commutative operands are put in one
order), commutes with the rule without a query to Z3.

For a generator σ and a move m (choices c), the symmetry proof asks that wherever m is legal
at s, some move m' with the same choices is legal at σ(s) and reaches σ(m(s, c))
(:mod:`grundy.solvers.premises`). Write both sides as expressions over the state's variables
and the choices (named alike on both sides): L = m's legality at s, T_k = slot k of σ(m(s, c));
L' = m''s legality at σ(s), U_k = slot k of m''s result from σ(s). If L' is the same
expression as L and every U_k the same expression as T_k, then L' ⇔ L and U_k = T_k at every
assignment, so the implication holds at every state, for every choice values: the query Z3
would be asked (``L ∧ ¬(L' ∧ ⋀ U_k = T_k)``) is unsatisfiable by construction.

"The same expression" is node identity of the hash-consed IR (:func:`grundy.spec.expr._node`:
one node per operator and operand nodes), after :class:`Canonical` rewrites both sides by
identities that hold in every interpretation (``∧``, ``∨``, ``=``, ``+``, ``min``, ``max``
are commutative; ``∧``/``∨`` associative and idempotent): sorting their operands, flattening
nested ``∧``/``∨`` and dropping repeated operands changes no value. One more rewrite reads a
generator's value map backwards: σ maps a vertex- or edge-valued slot x through a table π,
written ``m(x) = ite(x == lo, π(lo), ite(..., π(hi)))``; where π is one-to-one and the family
(the states every premise's query ranges over, Z3's included) asserts ``lo <= x <= hi`` (its
own conjuncts, checked node for node), ``m(x) == c`` holds exactly when ``x == π⁻¹(c)`` (False
when c has no preimage), so a guard ``token == u`` read at σ(s) becomes ``token == π⁻¹(u)``.
The proof then holds at every state of the family, as Z3's does. Anything not shown so
(different terms, however equivalent) goes to Z3 as before: identity is a sufficient
condition only.

>>> from grundy.spec.expr import Var, show
>>> a, b, c = Var.bool("a"), Var.bool("b"), Var.bool("c")
>>> canon = Canonical()
>>> canon((b | a) & c) is canon(c & (a | b | a))
True
>>> canon(a & b) is canon(a | b)
False
"""
from __future__ import annotations

import hashlib
from typing import Any, Callable, Mapping, Sequence

from ...spec.expr import Expr, Var, all_of, any_of, lift, maximum, minimum, variable
from ...spec.nodetable import node_table_restarts
from ...spec.rebuild import Rebuild, rebuild

__all__ = ["Canonical", "commutes_by_identity"]

_JUNCTIONS = {"and": all_of, "or": any_of}
_SORTED = {"min": minimum, "max": maximum}


class Canonical(Rebuild):
    """Rebuild a DAG with the operands of its commutative operators in one order (by a digest
    of their structure, :meth:`key`) and nested ``and``/``or`` flattened without repeats: two
    expressions equal up to those identities become the same node. One memo for every
    expression given to the same instance."""

    def __init__(self) -> None:
        super().__init__({})
        self._keys: dict[int, tuple[Expr, bytes]] = {}
        self._maps: dict[int, tuple[Expr, Expr, dict[Any, int]]] = {}

    def value_map(self, m: Expr, x: Expr, inverse: dict[Any, int]) -> None:
        """Read ``m == c`` (``c`` a constant) as ``x == inverse[c]`` (False when ``c`` has no
        preimage): for a value map ``m`` of ``x`` that is one-to-one on the states read (the
        caller's premise, see :func:`commutes_by_identity`)."""
        m = self(m)
        self._maps[id(m)] = (m, x, inverse)

    def key(self, x: Expr) -> bytes:
        """A digest of ``x``'s structure (operator, sort, constant or name, operands' digests):
        independent of how and when the node was built."""
        hit = self._keys.get(id(x))
        if hit is not None:
            return hit[1]
        h = hashlib.blake2b(digest_size=16)
        h.update(f"{x.op}\x00{x.sort}\x00".encode())
        if x.op in ("const", "var"):
            h.update(repr(x.args[0]).encode())
        else:
            for a in x.args:
                h.update(self.key(a))
        d = h.digest()
        self._keys[id(x)] = (x, d)
        return d

    def _junction(self, x: Expr, *args: Expr) -> Expr:
        flat: dict[int, Expr] = {}
        for a in args:
            for b in (a.args if a.op == x.op else (a,)):
                flat.setdefault(id(b), b)
        items: list[Expr] = sorted(flat.values(), key=self.key)
        return _JUNCTIONS[x.op](items)

    def _pair(self, x: Expr, *args: Expr) -> Expr:
        a, b = sorted(args, key=self.key)
        if x.op == "eq" and self._maps:
            for m, c in ((a, b), (b, a)):
                hit = self._maps.get(id(m))
                if hit is not None and c.op == "const":
                    v = hit[2].get(c.args[0])
                    return lift(False) if v is None else self._pair(x, hit[1], lift(v))
        return rebuild(x.op, [a, b])

    def _many(self, x: Expr, *args: Expr) -> Expr:
        items: list[Expr] = sorted(args, key=self.key)
        return _SORTED[x.op](items)

    # Every node is built again by its constructor (leaves too), so that the nodes compared are
    # all in the intern table of now: an encoding made before the table was cleared (the caches'
    # release) holds nodes a new ``x >= lo`` is not, though they are the same expression.
    def walk_const(self, x: Expr) -> Expr:
        return lift(x.args[0])

    def walk_var(self, x: Expr) -> Expr:
        return variable(x.args[0], x.sort)

    def _fresh(self, x: Expr, *args: Expr) -> Expr:
        return rebuild(x.op, args)

    walk_and = walk_or = _junction
    walk_eq = walk_add = _pair
    walk_min = walk_max = _many
    walk_sub = walk_mul = walk_nmul = walk_div = walk_mod = walk_xor = _fresh
    walk_bit_and = walk_bit_or = walk_popcount = walk_nim_product = _fresh
    walk_lt = walk_le = walk_not = walk_ite = _fresh


def _bounded(enc, canon: Canonical, x: Expr, lo: int, hi: int) -> bool:
    """Whether the family every premise's query assumes (``enc.family``) holds ``lo <= x <= hi``
    as two of its conjuncts (the same nodes once both are rebuilt by ``canon``: the encoding's
    nodes may predate a clearing of the intern table, after which ``x >= lo`` is a new node)."""
    fam = enc.family
    have = {id(canon(c)) for c in (fam.args if fam.op == "and" else (fam,))}
    return id(canon(x >= lo)) in have and id(canon(x <= hi)) in have


def commutes_by_identity(enc, perm: Sequence[int], slot_image: Callable[[int, Expr], Expr],
                         tables: Mapping[int, tuple[int, Sequence[int]]] | None = None) -> bool:
    """Whether every move of ``enc`` (an :class:`~grundy.solvers.smt.encode.Encoding`) is
    mapped by the generator onto a move of the rule term for term (see the module's docstring):
    σ puts ``slot_image(i, e)`` in slot ``perm[i]`` of the image of a state whose slot ``i`` is
    ``e``. ``tables``: slot ``i`` -> (its least value, the values its value map gives): a map
    one-to-one on the slot's domain, which the family asserts, is read backwards in ``m == c``
    (see the module's docstring). False means "not shown so", never "violated".

    Equal terms are one node only within one run of the node table (it starts again when full):
    a check during which it started again is made once more (whatever it answered: node ids seen
    before the restart may be reused after it), so that the answer never depends on what the
    process built before (a report says "by construction" or "by Z3" alike every time)."""
    for _ in range(2):
        before = node_table_restarts()
        shown = _commutes(enc, perm, slot_image, tables)
        if node_table_restarts() == before:
            return shown
    return False                         # (a check that needs more than the table holds: Z3's path)


def _commutes(enc, perm: Sequence[int], slot_image: Callable[[int, Expr], Expr],
              tables: Mapping[int, tuple[int, Sequence[int]]] | None) -> bool:
    from ..smt.rewrite import substituter
    names, var = enc.names, enc.rules.schema.variables
    slot = {name: k for k, name in enumerate(names)}
    taken = set(names) | {new for mv in enc.moves for _, new, _, _ in mv.choices}
    most = max((len(mv.choices) for mv in enc.moves), default=0)
    ph = [Var.int(f"choice#{k}?") for k in range(most)]     # the choices, named alike on both sides
    if any(p.name in taken for p in ph):
        return False
    canon = Canonical()
    image: list[Expr] = list(var)
    for i, v in enumerate(var):
        image[perm[i]] = slot_image(i, v)
    for i, (lo, table) in (tables or {}).items():
        if len(set(table)) == len(table) and _bounded(enc, canon, var[i], lo, lo + len(table) - 1):
            canon.value_map(image[perm[i]], canon(var[i]), {t: lo + j for j, t in enumerate(table)})
    at_image = substituter(dict(zip(names, image, strict=False)))   # an expression at σ(s)
    unmoved = [id(canon(x)) for x in image]    # slot k of σ(s), and of σ(m(s)) where m leaves it

    def placed(mv) -> tuple[Expr, list[tuple[int, Expr]]]:
        ren = substituter({new: ph[k] for k, (_, new, _, _) in enumerate(mv.choices)})
        return ren(mv.legal), [(slot[name], ren(e)) for name, e in mv.update.items()]

    index: set[tuple] = set()            # the moves read at σ(s) so far: L' and the U_k
    unread = iter(enc.moves)
    for mv in enc.moves:                 # each move's L and T_k
        legal, up = placed(mv)
        row = list(unmoved)
        for i, e in up:
            row[perm[i]] = id(canon(slot_image(i, e)))
        want = (len(mv.choices), id(canon(legal)), *row)
        while want not in index:         # read more moves at σ(s) until one is the same
            mj = next(unread, None)
            if mj is None:
                return False
            legal, up = placed(mj)
            row = list(unmoved)
            for k, e in up:
                row[k] = id(canon(at_image(e)))
            index.add((len(mj.choices), id(canon(at_image(legal))), *row))
    return True
