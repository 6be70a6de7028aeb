"""Counting: a vertex game on a structure whose vertices fall into finitely many parts, every
permutation within a part an automorphism (K_n: one part; K_{m,n}: two; complete multipartite
graphs; stars K_{1,n}), played as a game on the *counts* of present vertices per part.

The reduction applies to a game with one bool field per vertex (present or removed) and one
move per vertex, without choices (the move "at" v). It is built in three steps:

1. **Symmetry**, proved by Z3 on a template member (every part of size ``cap + 2``, fixed
   parts at their size): the rule commutes with a swap and a cycle within each part, hence
   with every permutation within the parts. Then a position's value depends on its counts only,
   and a move at v sends the other present vertices of one part all to the same value.
2. **The counting rule**, read on the template: for each part t and count vector c, whether the
   move at a present vertex v of part t is legal, whether v stays present, and whether the other
   present vertices of each part stay. Each of these Boolean functions of c must depend on
   ``min(c, C)`` only, for a threshold C <= ``cap``; the smallest such C is taken. A move at a
   removed vertex must never be legal (nor may a move make a removed vertex present).
3. **The quotient game**: one heap per part (its count), one move per part, guards and updates
   written in linear integer arithmetic over the counts (``c_i == a`` / ``c_i >= C``). Claims on
   it are proved by Z3 over unbounded integers with the partition theorem, the total count as
   the rank.

:func:`agrees` compares the counting rule with the rule on a concrete member at every count
vector (the first members of an open family: docs/claims.md, "Claims for every n"). What no
finite check can reach is a rule whose code does something else on larger structures: the
reduction takes the rule to be the same function of the structure for every size.

>>> from grundy.spec.games import get_game
>>> q = reduce_game(get_game("grim"), Shape.complete())
>>> q.cap, q.quotient.name
(3, 'counted grim on K_n')
>>> from grundy.solvers.smt import check_partition
>>> r = q.rules()
>>> c = r.state.count[0]
>>> [x.status for x in check_partition(r, (c % 2 == 1) | (c == 0))]
['holds', 'holds', 'holds', 'holds']
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable, Iterator, Sequence

from ..spec.expr import Expr, all_of, any_of, free_vars, ite, lift, total
from ..spec.game import Game, Move, Rules, move
from ..spec.schema import Field, SymState
from ..spec.structure import Structure

__all__ = ["Shape", "Counted", "Refused", "reduce_game", "agrees", "counts_of", "representative", "template_sizes"]


@dataclass(frozen=True)
class Shape:
    """Parts of vertices: ``joined[i][j]``, every vertex of part i adjacent to every vertex of part
    j (``joined[i][i]``: a part is a clique); ``fixed[i]``: the part's size when it is fixed (a
    star's centre: 1), else None (open); ``lows[i]``: an open part's least size."""

    name: str
    joined: tuple[tuple[bool, ...], ...]
    fixed: tuple[int | None, ...]
    lows: tuple[int, ...]

    @staticmethod
    def complete(low: int = 1) -> "Shape":
        """K_n, n >= low: one part, a clique."""
        return Shape("K_n", ((True,),), (None,), (low,))

    @staticmethod
    def multipartite(k: int, low: int = 1, centre: bool = False) -> "Shape":
        """Complete multipartite graphs with k open parts of sizes >= low (and a singleton part
        first when ``centre``: K_{1,n} for k = 1, K_{1,m,n} for k = 2)."""
        p = k + centre
        joined = tuple(tuple(i != j for j in range(p)) for i in range(p))
        names = "nmlkji"[:k][::-1]
        name = "K_{" + ("1," if centre else "") + ",".join(f"{x}" for x in names) + "}"
        return Shape(name, joined, ((1,) if centre else ()) + (None,) * k, ((1,) if centre else ()) + (low,) * k)

    @property
    def k(self) -> int:
        return len(self.joined)

    def build(self, sizes: Sequence[int]) -> Structure:
        """The member with these part sizes; vertices numbered part by part."""
        part = [i for i, s in enumerate(sizes) for _ in range(s)]
        n = len(part)
        edges = [(u, v) for u in range(n) for v in range(u + 1, n) if self.joined[part[u]][part[v]]]
        return Structure.graph(range(n), edges)

    def label(self, sizes: Sequence[int]) -> str:
        return f"K_{sizes[0]}" if self.k == 1 else "K_{" + ",".join(map(str, sizes)) + "}"


class Refused(Exception):
    """The reduction does not apply: the message is the one-line reason."""


def representative(sizes: Sequence[int], c: Sequence[int]) -> list[int]:
    """The state with the first c[i] vertices of each part present (1) and the others removed."""
    return [int(j < ci) for s, ci in zip(sizes, c, strict=True) for j in range(s)]


def counts_of(sizes: Sequence[int], state: Sequence[int]) -> tuple[int, ...]:
    """The number of present vertices per part."""
    out, at = [], 0
    for s in sizes:
        out.append(sum(1 for x in state[at:at + s] if x))
        at += s
    return tuple(out)


def _starts(sizes: Sequence[int]) -> list[int]:
    return [sum(sizes[:i]) for i in range(len(sizes))]


@dataclass
class _Obs:
    """What the move at a present vertex of one part does at one count vector."""
    legal: bool
    stays: bool                   # the vertex moved at is still present
    others: tuple[bool | None, ...]   # per part: the other present vertices stay (None: there are none)


def _after(mt: Any, state: list[int], read: Callable[[int], Any] = int) -> list[int] | None:
    """The state after the move on the tape ``mt`` (a :class:`~grundy.solvers.reference.tape.MoveTape`
    without choices), None where its guard is false; ``read``: how the tape sees each slot's value
    (``bool`` for a state of bool fields)."""
    got = mt.at(tuple(map(read, state)), ())
    if got is None:
        return None
    nxt = list(state)
    for slot, x in zip(mt.slots, got, strict=True):
        nxt[slot] = int(x)
    return nxt


class _Reader:
    """The template's moves read on concrete states by the reference engine's interpreter (each
    move's guard and update put on a tape once, run at every count vector)."""

    def __init__(self, rules: Rules):
        self.rules = rules
        self.inputs = rules.schema.slot_by_var
        self._moves: dict[int, Any] = {}
        self._guards: dict[int, Any] = {}

    def move(self, v: int, state: Sequence[int]) -> list[int] | None:
        """The state after the move at v, None where its guard is false."""
        from .reference.tape import MoveTape
        mt = self._moves.get(v)
        if mt is None:
            mt = self._moves[v] = MoveTape(self.rules.moves[v], self.inputs)
        return _after(mt, [int(bool(x)) for x in state], bool)

    def legal(self, v: int, state: Sequence[int]) -> bool:
        """Whether the move at v's guard holds (its update not read)."""
        from .reference.tape import Tape
        tape = self._guards.get(v)
        if tape is None:
            tape = self._guards[v] = Tape([self.rules.moves[v].guard], self.inputs)
        return bool(tape.run(tuple(bool(x) for x in state))[0])


def _observe(read: _Reader, sizes: Sequence[int], c: Sequence[int], t: int) -> _Obs | None:
    """The move at the first vertex of part t (present) at the representative of c; None when no
    move is legal there. Refused if the parts' vertices do not move together, or a removed
    vertex comes back."""
    state = representative(sizes, c)
    starts = _starts(sizes)
    v = starts[t]
    m = read.rules.moves[v]
    nxt = read.move(v, state)
    if nxt is None:
        return _Obs(False, False, (None,) * len(sizes))
    others: list[bool | None] = []
    for s, a in zip(sizes, starts, strict=True):
        if any(nxt[u] and not state[u] for u in range(a, a + s)):
            raise Refused(f"a move makes a removed vertex present ({m.label} on {read.rules.structure.n} vertices)")
        fates = {bool(nxt[u]) for u in range(a, a + s) if state[u] and u != v}
        if len(fates) > 1:
            raise Refused(f"a move treats the vertices of one part differently ({m.label})")
        others.append(fates.pop() if fates else None)
    return _Obs(True, bool(nxt[v]), tuple(others))


def _dead_moves_idle(read: _Reader, sizes: Sequence[int], c: Sequence[int]) -> None:
    """No move at a removed vertex is legal (one removed vertex per part: symmetry does the rest)."""
    state = representative(sizes, c)
    for a, s, ci in zip(_starts(sizes), sizes, c, strict=True):
        if ci < s and read.legal(a + ci, state):
            raise Refused(f"a move at a removed vertex is legal ({read.rules.moves[a + ci].label})")


def _check_form(game: Game, g: Structure, per_vertex: bool = True) -> Rules:
    """The game's rules on g, refused unless one bool field per vertex and (``per_vertex``) one
    move per vertex."""
    if game.structure != "graph":
        raise Refused(f"{game.name} is not played on a graph")
    rules = game.rules(g)
    fields = list(rules.schema.fields.values())
    if len(fields) != 1 or fields[0].over != "vertices" or fields[0].kind != "bool":
        raise Refused("the state is not one bool per vertex (fields: "
                      + ", ".join(f"{f.name} ({f.kind} over {f.over})" for f in fields) + ")")
    if not per_vertex:
        return rules
    moves = rules.moves
    if len(moves) != g.n or any(m.choices for m in moves):
        raise Refused(f"the moves are not one per vertex without choices ({len(moves)} moves on {g.n} vertices)")
    for v, m in enumerate(moves):
        reads = free_vars(m.guard) | {rules.schema.var_name(i) for i in m.update}
        if rules.schema.var_name(v) not in reads:
            raise Refused(f"move {v} ({m.label}) neither reads nor writes vertex {v}: not a move at it")
    return rules


def _symmetric(rules: Rules, sizes: Sequence[int]) -> str:
    """Prove by Z3 that the rule commutes with a swap and a cycle within each part."""
    from .premises import PROVED, Group, prove_symmetry
    from .premises.groups import _generator
    n = rules.structure.n
    gens = []
    for i, (a, s) in enumerate(zip(_starts(sizes), sizes, strict=True)):
        if s < 2:
            continue
        swap, cycle = list(range(n)), list(range(n))
        swap[a], swap[a + 1] = a + 1, a
        for j in range(s):
            cycle[a + j] = a + (j + 1) % s
        gens.append(_generator(rules, f"a swap in part {i}", *rules.slot_action(tuple(swap))))
        if s > 2:
            gens.append(_generator(rules, f"a cycle of part {i}", *rules.slot_action(tuple(cycle))))
    if not gens:
        return "no symmetry to prove"
    p = prove_symmetry(rules, Group("permutations within the parts", tuple(gens)))
    if p.status != PROVED:
        raise Refused(f"the rule is not symmetric within the parts on {n} vertices: {p.status}: {p.how}")
    return p.how


def _boxes(sizes: Sequence[int]) -> Iterator[tuple[int, ...]]:
    return itertools.product(*(range(s + 1) for s in sizes))


def _fit(table: dict[tuple[int, ...], bool | None], caps: Sequence[int | None], cap: int) -> dict | None:
    """The table as a function of min(c, cap) per open part (fixed parts exactly): the values at
    the capped vectors, or None when two vectors with the same capped image disagree."""
    out: dict[tuple[int, ...], bool | None] = {}
    for c, val in table.items():
        key = tuple(x if f is not None else min(x, cap) for x, f in zip(c, caps, strict=True))
        if val is None:
            out.setdefault(key, None)
        elif out.get(key) is None:
            out[key] = val
        elif out[key] != val:
            return None
    return out


def _expr(fitted: dict, counts: Sequence[Expr], caps: Sequence[int | None], cap: int) -> Expr:
    """The fitted function over symbolic counts: the capped vectors where it is true."""
    def cell(key: tuple[int, ...]) -> Expr:
        return all_of((x >= cap) if (f is None and a == cap) else (x == a)
                      for x, a, f in zip(counts, key, caps, strict=True))
    return any_of(cell(k) for k, val in sorted(fitted.items()) if val)


class _Quotient(Game):
    """The game on counts: heap i holds the number of present vertices of part i."""

    structure = "heaps"
    symmetric = False

    def __init__(self, name: str, k: int, tables: list[dict[str, Any]], caps: Sequence[int | None], cap: int):
        self.name, self.summary = name, f"{name}: the counts of present vertices per part"
        self.k, self.tables, self.caps, self.cap = k, tables, tuple(caps), cap

    def fields(self, g: Structure) -> list[Field]:
        return [Field("count", over="heaps")]

    def moves(self, g: Structure, s: SymState) -> Iterator[Move]:
        c = [s.count[i] for i in range(self.k)]
        for t, tab in enumerate(self.tables):
            def f(key: Any, tab: dict = tab) -> Expr:
                return _expr(tab[key], c, self.caps, self.cap)
            update = {}
            for i in range(self.k):
                rest = c[i] - 1 if i == t else c[i]
                kept = ite(f(("others", i)), rest, lift(0))
                update[i] = (ite(f("stays"), kept + 1, kept) if i == t else kept)
            yield move(f"a present vertex of part {t}", guard=(c[t] >= 1) & f("legal"),
                       update=s.set(count=update))

    def rank(self, g: Structure, s: SymState) -> Expr:
        return total(s.count[i] for i in range(self.k))


@dataclass
class Counted:
    """A reduction: the quotient game, its threshold, the template it was read on, and how the
    symmetry premise was proved there."""

    shape: Shape
    game: Game
    quotient: Game
    cap: int
    template: tuple[int, ...]
    symmetry: str

    def rules(self) -> Rules:
        return self._rules

    @cached_property
    def _rules(self) -> Rules:                  # built once: the moves are read at every count vector
        return Rules(self.quotient, Structure.heaps(self.shape.k))

    def assume(self, rules: Rules) -> Expr:
        """The counts a member can have: fixed parts at most their size."""
        s = rules.state
        return all_of(s.count[i] <= f for i, f in enumerate(self.shape.fixed) if f is not None)

    def options(self, c: Sequence[int]) -> set[tuple[int, ...]]:
        """The counting rule's options at the count vector c (each move read from the IR by the
        reference engine's interpreter: no compiled code)."""
        return {tuple(nxt) for mt in self._tapes if (nxt := _after(mt, list(c))) is not None}

    @cached_property
    def _tapes(self) -> list[Any]:
        from .reference.tape import MoveTape
        r = self.rules()
        return [MoveTape(m, r.schema.slot_by_var) for m in r.moves]


def template_sizes(shape: Shape, cap: int = 4) -> tuple[int, ...]:
    """The part sizes of the member the counting rule is read on: open parts of ``cap + 2``
    vertices (two past the largest threshold), fixed parts at their size."""
    return tuple(f if f is not None else max(cap + 2, low) for f, low in zip(shape.fixed, shape.lows, strict=True))


def reduce_game(game: Game, shape: Shape, cap: int = 4) -> Counted:
    """The counting reduction of ``game`` on ``shape`` (threshold at most ``cap``), or
    :class:`Refused` with the reason."""
    sizes = template_sizes(shape, cap)
    rules = _check_form(game, shape.build(sizes))
    how = _symmetric(rules, sizes)
    data: list[dict[Any, dict]] = [{} for _ in range(shape.k)]
    read = _Reader(rules)
    for c in _boxes(sizes):
        _dead_moves_idle(read, sizes, c)
        for t in range(shape.k):
            if c[t] == 0:
                continue
            o = _observe(read, sizes, c, t)
            assert o is not None
            data[t].setdefault("legal", {})[c] = o.legal
            data[t].setdefault("stays", {})[c] = o.stays if o.legal else None
            for i in range(shape.k):
                data[t].setdefault(("others", i), {})[c] = o.others[i] if o.legal else None
    for threshold in range(1, cap + 1):
        tables = [{key: _fit(tab, shape.fixed, threshold) for key, tab in d.items()} for d in data]
        if all(v is not None for tab in tables for v in tab.values()):
            q = _Quotient(f"counted {game.name} on {shape.name}", shape.k, tables, shape.fixed, threshold)
            red = Counted(shape, game, q, threshold, sizes, how)
            bad = agrees(red, sizes)
            if bad is not None:
                raise Refused(f"the moves are not one rule for every vertex of a part: {bad}")
            return red
    raise Refused(f"the rule's counts need a threshold above {cap} (read on {shape.label(sizes)})")


def agrees(red: Counted, sizes: Sequence[int]) -> str | None:
    """Compare the counting rule with the rule on the member with these part sizes, at every
    count vector: the counts of the options of *every* move at the representative state against
    the counting rule's options (a symmetry proved on options, not move by move, still needs
    this). None if they agree, else where they differ."""
    from .explicit.compile import compile_rules
    rules = _check_form(red.game, red.shape.build(sizes), per_vertex=False)
    successors = compile_rules(rules, symmetry=False, decompose=False).successors
    for c in _boxes(sizes):
        got = {counts_of(sizes, t) for t in successors(tuple(representative(sizes, c)))}
        want = red.options(c)
        if got != want:
            return (f"on {red.shape.label(sizes)} at counts {tuple(c)}: the rule's options have counts "
                    f"{sorted(got)}, the counting rule's {sorted(want)}")
    return None
