"""Invariants: a game with integer or edge fields played, on the positions an inductive
invariant keeps, as a present/removed vertex game.

An :class:`Invariant` names, for some fields over vertices, the two values a vertex may hold
(removed, present), and for every other field its one constant value: "chips[v] in {0, 1} for
every v, active = -1". It is a premise the reductions of open families use (counting,
:mod:`grundy.solvers.counting`), so it is proved, never assumed:

- :func:`prove_inductive`: Z3 proves, move by move on the rule's IR over the symbolic state, that
  the invariant and the move's legality (guard and choice bounds) imply the invariant after the
  update (linear integer arithmetic, unbounded fields);
- :func:`project`: the game on the positions the invariant allows, one bool per vertex
  (present: the vertex holds the present value). Each move's choices are expanded over the
  values the invariant leaves them (a constant least value, a greatest one Z3 proves), so the
  projection's options are the game's options, position by position, under the bijection
  "present iff the present value".

>>> from grundy.spec.games import get_game
>>> from grundy.spec.structure import Structure
>>> inv = Invariant({"chips": (0, 1)}, {"active": -1})
>>> wyg = get_game("wyg")
>>> k3 = Structure.graph(range(3), [(0, 1), (0, 2), (1, 2)])
>>> prove_inductive(wyg.rules(k3), inv)[0]
True
>>> prove_inductive(wyg.rules(k3), Invariant({"chips": (0, 2)}, {"active": -1}))[0]
False
>>> p = project(wyg, inv)
>>> len(p.rules(k3).moves)                   # per edge: one from each end, one from both
9
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Iterator, Mapping

from ..spec.expr import Expr, all_of, evaluate, free_vars, ite, lift
from ..spec.game import Game, Move, Rules, move
from ..spec.schema import Field, SymState
from ..spec.structure import Structure
from .counting import Refused

__all__ = ["Invariant", "invariant", "prove_inductive", "project", "Projected", "holds_on_slots"]

MAX_CHOICE = 8        # a choice the invariant leaves above this is refused (expanded by value)


@dataclass(frozen=True)
class Invariant:
    """``vertex[f] = (removed, present)``: the two values field f (over vertices) may hold;
    ``fixed[f] = c``: field f always holds c."""

    vertex: Mapping[str, tuple[int, int]]
    fixed: Mapping[str, int]

    def __str__(self) -> str:
        parts = [f"{f}[v] in {{{a}, {b}}}" for f, (a, b) in self.vertex.items()]
        parts += [f"{f} = {c}" for f, c in self.fixed.items()]
        return ", ".join(parts)

    def expr(self, rules: Rules) -> Expr:
        """The invariant on the rule's symbolic state (every field named, no other field)."""
        sch = rules.schema
        names = set(self.vertex) | set(self.fixed)
        if names != set(sch.fields):
            raise Refused(f"the invariant names the fields {sorted(names)}, the game has {sorted(sch.fields)}")
        out = []
        for i, (f, _) in enumerate(sch.slots):
            x = sch.variables[i]
            if f in self.vertex:
                if sch.fields[f].over != "vertices" or sch.fields[f].kind not in ("int", "bool"):
                    raise Refused(f"the invariant gives two values to {f}, not an int or bool field over vertices")
                a, b = self.vertex[f]
                out.append((x == a) | (x == b))
            else:
                out.append(x == self.fixed[f])
        return all_of(out)


def invariant(**fields: Any) -> Invariant:
    """``invariant(chips=(0, 1), active=-1)``: a pair (removed, present) for a field over
    vertices, one value for a field held constant."""
    vertex = {f: (int(v[0]), int(v[1])) for f, v in fields.items() if isinstance(v, tuple)}
    for f, (a, b) in vertex.items():
        if a == b:
            raise ValueError(f"invariant: {f} needs two different values, got ({a}, {b})")
    return Invariant(vertex, {f: int(v) for f, v in fields.items() if not isinstance(v, tuple)})


def prove_inductive(rules: Rules, inv: Invariant, timeout: float = 60.0) -> tuple[bool, str]:
    """(True, how) when Z3 proves that every legal move from a state satisfying ``inv`` leads to
    a state satisfying it (over the symbolic state: unbounded integers); else (False, the first
    move that breaks it, or Z3's answer)."""
    import z3

    from .smt.encode import encoding
    from .smt.runner import check_within
    enc = encoding(rules)
    pre = inv.expr(rules)
    parts = list(pre.args) if pre.op == "and" else [pre]      # one per slot
    reading: dict[str, list[int]] = {}                         # a variable -> the parts that read it
    for k, p in enumerate(parts):
        for name in free_vars(p):
            reading.setdefault(name, []).append(k)

    def after(i: int) -> Expr:
        """The invariant after move ``i``, where ``pre`` holds before it: its parts that read a
        slot the move changes (the others are ``pre``'s own parts, which every query assumes)."""
        at = sorted({k for name in enc.moves[i].update for k in reading.get(name, ())})
        return all_of([enc.next(parts[k], i) for k in at])
    from .smt.translate import _connective

    def both(a: Any, b: Any) -> Any:           # z3.And(a, z3.Not(b)): the same term, without z3's coercions
        return _connective(z3.Z3_mk_and, (a, z3.BoolRef(z3.Z3_mk_not(b.ctx.ref(), b.as_ast()), b.ctx)))
    breaks = [both(enc.to_z3(mv.legal), enc.to_z3(after(i))) for i, mv in enumerate(enc.moves)]

    def ask(*query: Any) -> Any:
        s = z3.Solver()
        s.add(enc.to_z3(enc.domain & pre), *query)
        return check_within(s, timeout)[0]         # CPU seconds: the same answer on a busy machine

    if breaks and ask(_connective(z3.Z3_mk_or, tuple(breaks))) != z3.unsat:      # all moves in one query, then the first that breaks it
        for mv, b in zip(enc.moves, breaks, strict=True):
            r = ask(b)
            if r != z3.unsat:
                why = "breaks it" if r == z3.sat else f"Z3: {r}"
                return False, f"move {mv.label!r} on {rules.structure.n} vertices {why}"
        return False, f"Z3 could not decide on {rules.structure.n} vertices"
    return True, (f"inductive on {rules.structure.n} vertices: every one of the {len(enc.moves)} moves keeps "
                  f"{inv} (Z3, linear integer arithmetic)")


def holds_on_slots(inv: Invariant, rules: Rules, values: list[list[int]]) -> str | None:
    """None if every value ``values[slot]`` gives a slot (the values a sweep tries there: a
    claim's bounds) satisfies the invariant, so every position they describe does; else which
    does not."""
    sch = rules.schema
    for i, (f, _) in enumerate(sch.slots):
        allowed = set(inv.vertex[f]) if f in inv.vertex else {inv.fixed[f]}
        got = set(values[i])
        if not got or not got <= allowed:
            return f"{sch.var_name(i)} takes {sorted(got)} on {rules.structure.n} vertices, not within {sorted(allowed)}"
    return None


class Projected(Game):
    """``base`` on the positions ``inv`` allows: one bool per vertex, present when every vertex
    field holds its present value (see the module's text)."""

    def __init__(self, base: Game, inv: Invariant):
        if len(inv.vertex) != 1:
            raise Refused(f"the invariant gives two values to {len(inv.vertex)} fields over vertices, not one")
        self.base, self.inv = base, inv
        self.name = f"{base.name} under {inv}"
        self.summary = f"{base.name} on the positions where {inv}"
        self.structure = base.structure
        self.symmetric = getattr(base, "symmetric", True)

    def fields(self, g: Structure) -> list[Field]:
        return [Field("present", over="vertices", kind="bool")]

    def rank(self, g: Structure, s: SymState) -> Expr:
        from ..spec.expr import count
        return lift(count(s.present[v] for v in g.vertices))

    def moves(self, g: Structure, s: SymState) -> Iterator[Move]:
        rules = self.base.rules(g)
        sch = rules.schema
        (field, (a, b)), = self.inv.vertex.items()
        sub: dict[str, Expr] = {}
        for i, (f, key) in enumerate(sch.slots):
            sub[sch.var_name(i)] = ite(s.present[key], b, a) if f == field else lift(self.inv.fixed[f])
        from .smt.rewrite import substituter
        at = substituter(sub)             # one memo for every move's terms (the same nodes as one call each)
        for m in rules.moves:
            yield from self._expand(m, at, field, b, sch)

    def _expand(self, m: Move, at: Callable[[Expr], Expr], field: str, b: int, sch: Any) -> Iterator[Move]:
        """Move ``m`` read on the invariant's positions (``at``: its terms there), one move per
        value of its choices."""
        from .smt.rewrite import substitute
        combos: list[tuple[dict[str, Expr], list[Expr]]] = [({}, [])]
        for c in m.choices:
            nxt = []
            for vals, conds in combos:
                lo = substitute(at(c.lo), vals)
                hi = substitute(at(c.hi), vals)
                if free_vars(lo):
                    raise Refused(f"move {m.label!r}: the least value of {c.name} depends on the position")
                least = int(evaluate(lo, {}))
                nxt += [({**vals, c.name: lift(k)}, conds + [hi >= k]) for k in range(least, _greatest(hi) + 1)]
            combos = nxt
        for vals, conds in combos:
            guard = all_of([substitute(at(m.guard), vals)] + conds)
            update = {sch.slots[slot][1]: substitute(at(e), vals) == b
                      for slot, e in m.update.items() if sch.slots[slot][0] == field}
            label = m.label
            for name, v in vals.items():
                label = label.replace("{" + name + "}", str(evaluate(v, {})))
            yield move(label, guard=guard, update=update)


def _greatest(hi: Expr) -> int:
    """The greatest value ``hi`` takes, its variables the vertices' bools: every assignment of
    them evaluated (at most 12), the result at most :data:`MAX_CHOICE`."""
    import itertools
    names = sorted(free_vars(hi))
    if len(names) > 12:
        raise Refused(f"a choice's bound reads {len(names)} vertices: not expanded")
    top = max(int(evaluate(hi, dict(zip(names, bits, strict=True))))
              for bits in itertools.product((False, True), repeat=len(names)))
    if top > MAX_CHOICE:
        raise Refused(f"a choice takes values up to {top} under the invariant: not expanded")
    return top


def project(game: Game, inv: Invariant) -> Projected:
    """``game`` on the positions ``inv`` allows, as a present/removed vertex game (its
    inductiveness is proved apart: :func:`prove_inductive`)."""
    return Projected(game, inv)
