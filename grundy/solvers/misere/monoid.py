"""Finite commutative monoids, as action tables of their generators, and bipartite monoids (Q, P).

A :class:`Monoid` has the elements ``0 .. size-1`` (0 the identity) and generators
``g_0 .. g_{r-1}``, each given by its action ``x -> x * g_i`` on every element. Every element is a
product of generators: its *normal form* is the least exponent vector (by degree, then
lexicographically) of a word for it, found by breadth-first search; products of any two
elements follow. A :class:`Bipartite` monoid adds a subset P (the P-portion of a misère quotient).

- :func:`reduce` identifies indistinguishable elements (x ~ y when no z tells x*z and y*z apart
  by P) by partition refinement, the way a finite automaton is minimised;
- :func:`isomorphic` tests whether two bipartite monoids are isomorphic (a map of the generators
  extended to a bijection that respects products and P);
- :func:`from_presentation` builds a bipartite monoid from generators and relations, written as
  in the papers (``a^2 = 1, b^3 = b``), by completing the relations into a rewriting system.

>>> t2 = from_presentation("ab", ["a^2 = 1", "b^3 = b"], ["a", "b^2"])     # misère Nim's quotient T2
>>> t2.size, sorted(t2.word(x) for x in t2.p)
(6, ['a', 'b^2'])
>>> reduce(t2)[0].size
6
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from itertools import product as cartesian
from typing import Iterable, Sequence

__all__ = ["Monoid", "Bipartite", "reduce", "isomorphic", "from_presentation", "presentation", "minimal_generators"]

GEN_NAMES = "abcdefghijklmnopqrstuvwxyz"
TABLE_MAX = 1024        # monoids of at most this many elements keep their multiplication table


@dataclass
class Monoid:
    """A finite commutative monoid: ``act[i][x]`` is ``x * g_i``; element 0 is the identity."""

    act: list[list[int]]
    size: int
    names: list[str] = field(default_factory=list)
    _nf: list[tuple[int, ...]] | None = field(default=None, repr=False)
    _table: list[list[int]] | None = field(default=None, repr=False)

    def __post_init__(self) -> None:
        if not self.names:
            self.names = [_gen_name(i) for i in range(len(self.act))]

    @property
    def normal_forms(self) -> list[tuple[int, ...]]:
        """The least exponent vector of a word for each element (every element must be reached)."""
        if self._nf is None:
            r = len(self.act)
            nf: list[tuple[int, ...] | None] = [None] * self.size
            nf[0] = (0,) * r
            frontier = [0]
            while frontier:
                cand: dict[int, tuple[int, ...]] = {}
                for x in frontier:
                    for i in range(r):
                        y = self.act[i][x]
                        if nf[y] is None:
                            v = list(nf[x])                                  # type: ignore[arg-type]
                            v[i] += 1
                            tv = tuple(v)
                            if y not in cand or _lexkey(tv) < _lexkey(cand[y]):
                                cand[y] = tv
                for y, tv in cand.items():
                    nf[y] = tv
                frontier = list(cand)
            if any(v is None for v in nf):
                raise ValueError("the generators do not generate every element")
            self._nf = [v for v in nf if v is not None]
        return self._nf

    def times(self, x: int, y: int) -> int:
        """The product x * y: read from the multiplication table (made at the first product
        when the monoid has at most :data:`TABLE_MAX` elements), else by y's normal form.

        >>> m = from_presentation("ab", ["a^2 = 1", "b^3 = b"], []).monoid
        >>> all(m.times(x, y) == m.product(x, y) for x in range(m.size) for y in range(m.size))
        True
        """
        t = self._table
        if t is None:
            if self.size > TABLE_MAX:
                return self.product(x, y)
            t = self.table()
        return t[x][y]

    def product(self, x: int, y: int) -> int:
        """The product x * y by y's normal form (the generators' actions), without the table."""
        for i, e in enumerate(self.normal_forms[y]):
            for _ in range(e):
                x = self.act[i][x]
        return x

    def table(self) -> list[list[int]]:
        """The whole multiplication table (``table()[x][y]`` = x * y), kept once computed: the
        column of y = w g_i (w the element of y's normal form less one g_i, of a smaller degree)
        is the column of w moved by g_i."""
        if self._table is None:
            nf = self.normal_forms
            cols: list[list[int]] = [[]] * self.size
            cols[0] = list(range(self.size))
            for y in sorted(range(1, self.size), key=lambda z: sum(nf[z])):
                v = list(nf[y])
                i = next(j for j, e in enumerate(v) if e)
                v[i] -= 1
                act = self.act[i]                   # y = w g_i, w of a smaller degree: done
                cols[y] = [act[z] for z in cols[self.element(v)]]
            self._table = [list(row) for row in zip(*cols)]
        return self._table

    def word(self, x: int) -> str:
        """The normal form of x as a word: ``a b^2``; ``1`` for the identity."""
        return _word(self.normal_forms[x], self.names)

    def element(self, exps: Sequence[int]) -> int:
        """The element of an exponent vector."""
        x = 0
        for i, e in enumerate(exps):
            for _ in range(e):
                x = self.act[i][x]
        return x


@dataclass
class Bipartite:
    """A bipartite monoid (Q, P): a monoid and a subset P of its elements."""

    monoid: Monoid
    p: frozenset[int]

    @property
    def size(self) -> int:
        return self.monoid.size

    def word(self, x: int) -> str:
        return self.monoid.word(x)


def _gen_name(i: int) -> str:
    return GEN_NAMES[i] if i < len(GEN_NAMES) else f"g{i}"


def _lexkey(v: tuple[int, ...] | None) -> tuple[int, tuple[int, ...]]:
    assert v is not None
    return (sum(v), tuple(-e for e in v))


def _word(v: Sequence[int], names: Sequence[str]) -> str:
    parts = [n if e == 1 else f"{n}^{e}" for n, e in zip(names, v) if e]
    return " ".join(parts) if parts else "1"


def reduce(q: Bipartite) -> tuple[Bipartite, list[int]]:
    """The quotient of (Q, P) by indistinguishability (x ~ y iff xz in P <=> yz in P for every z),
    and the map old element -> new one. Generators that become the identity or repeat an earlier
    generator are dropped.

    >>> m = Monoid([[1, 2, 3, 2]], 4)            # a, a^2, a^3 = a^2 ...: no P tells a^2 from a^3
    >>> r, f = reduce(Bipartite(m, frozenset({1})))
    >>> r.size, f
    (3, [0, 1, 2, 2])
    """
    m = q.monoid
    cls = [1 if x in q.p else 0 for x in range(m.size)]
    while True:
        keys: dict[tuple[int, ...], int] = {}
        new = [keys.setdefault((cls[x], *(cls[a[x]] for a in m.act)), len(keys)) for x in range(m.size)]
        if len(keys) == len(set(cls)):
            break
        cls = new
    # renumber so that the identity is 0, in the order the old elements first reach a class
    order: dict[int, int] = {}
    for x in [0, *range(m.size)]:
        order.setdefault(cls[x], len(order))
    f = [order[cls[x]] for x in range(m.size)]
    size = len(order)
    gens, names, seen = [], [], {0}
    for a, name in zip(m.act, m.names):
        g = f[a[0]]
        if g in seen:
            continue
        seen.add(g)
        row = [0] * size
        for x in range(m.size):
            row[f[x]] = f[a[x]]
        gens.append(row)
        names.append(name)
    out = Monoid(gens, size, names)
    _ = out.normal_forms                                    # every class is still generated
    return Bipartite(out, frozenset(f[x] for x in q.p)), f


def _profile(m: Monoid, p: frozenset[int], x: int) -> tuple[bool, int, int]:
    """What an isomorphism keeps: membership in P, and the index and period of x's powers."""
    seen: dict[int, int] = {}
    y, k = 0, 0
    while y not in seen:
        seen[y] = k
        y, k = m.times(y, x), k + 1
    return (x in p, seen[y], k - seen[y])


def isomorphic(a: Bipartite, b: Bipartite) -> bool:
    """Whether (Q, P) and (Q', P') are isomorphic: some images of Q's generators extend to a
    bijective homomorphism onto Q' carrying P onto P'.

    >>> t2 = from_presentation("ab", ["a^2 = 1", "b^3 = b"], ["a", "b^2"])
    >>> u = from_presentation("xy", ["y^2 = 1", "x^3 = x"], ["y", "x^2"])
    >>> isomorphic(t2, u), isomorphic(t2, from_presentation("ab", ["a^2 = 1", "b^3 = b"], ["a", "b"]))
    (True, False)
    """
    ma, mb = a.monoid, b.monoid
    if ma.size != mb.size or len(a.p) != len(b.p):
        return False
    ma = minimal_generators(ma)                         # fewer generators: fewer images to try
    prof_b: dict[tuple[bool, int, int], list[int]] = {}
    for y in range(mb.size):
        prof_b.setdefault(_profile(mb, b.p, y), []).append(y)
    gens_a = [act[0] for act in ma.act]
    choices = [prof_b.get(_profile(ma, a.p, g), []) for g in gens_a]
    nf = ma.normal_forms
    for images in cartesian(*choices):
        f = [0] * ma.size
        ok = True
        for x in range(ma.size):
            y = 0
            for i, e in enumerate(nf[x]):
                for _ in range(e):
                    y = mb.times(y, images[i])
            f[x] = y
        if len(set(f)) != ma.size or any((f[x] in b.p) != (x in a.p) for x in range(ma.size)):
            continue
        for i, act in enumerate(ma.act):                # a homomorphism: f(x g_i) = f(x) f(g_i)
            if any(f[act[x]] != mb.times(f[x], images[i]) for x in range(ma.size)):
                ok = False
                break
        if ok:
            return True
    return False


# ----------------------------------------------------------------------------- presentations

_TERM = re.compile(r"([a-z])(?:\^(\d+))?")


def _parse_word(text: str, names: str) -> tuple[int, ...]:
    v = [0] * len(names)
    text = text.strip()
    if text == "1":
        return tuple(v)
    for tok in text.replace("*", " ").split():
        for m in _TERM.finditer(tok):
            if m.group(1) not in names:
                raise ValueError(f"{m.group(1)!r} is not a generator of {names!r}")
            v[names.index(m.group(1))] += int(m.group(2) or 1)
    return tuple(v)


def _greater(u: tuple[int, ...], v: tuple[int, ...]) -> bool:
    return (sum(u), u) > (sum(v), v)


def _normalize(v: tuple[int, ...], rules: list[tuple[tuple[int, ...], tuple[int, ...]]]) -> tuple[int, ...]:
    changed = True
    while changed:
        changed = False
        for lhs, rhs in rules:
            if all(x >= y for x, y in zip(v, lhs)):
                v = tuple(x - y + z for x, y, z in zip(v, lhs, rhs))
                changed = True
                break
    return v


def _complete(rules: list[tuple[tuple[int, ...], tuple[int, ...]]], limit: int) -> list:
    """Knuth-Bendix completion of commutative rewriting rules (every overlap resolved)."""
    rules = [(u, v) if _greater(u, v) else (v, u) for u, v in rules if u != v]
    done = False
    while not done:
        done = True
        for (l1, r1), (l2, r2) in [(p, q) for i, p in enumerate(rules) for q in rules[i + 1:]]:
            lcm = tuple(max(x, y) for x, y in zip(l1, l2))
            s1 = _normalize(tuple(m - x + y for m, x, y in zip(lcm, l1, r1)), rules)
            s2 = _normalize(tuple(m - x + y for m, x, y in zip(lcm, l2, r2)), rules)
            if s1 != s2:
                rules.append((s1, s2) if _greater(s1, s2) else (s2, s1))
                done = False
                if len(rules) > limit:
                    raise ValueError("the relations do not complete to a small rewriting system")
                break
    return rules


def from_presentation(names: str, relations: Iterable[str], p_words: Iterable[str],
                      limit: int = 10_000) -> Bipartite:
    """The bipartite monoid with generators ``names`` (one letter each), relations ``"u = v"``
    and P-portion the elements of ``p_words`` (ValueError if the monoid is not finite within
    ``limit`` elements)."""
    rules = []
    for rel in relations:
        lhs, _, rhs = rel.partition("=")
        rules.append((_parse_word(lhs, names), _parse_word(rhs, names)))
    rules = _complete(rules, 200)
    r = len(names)
    index = {(0,) * r: 0}
    forms = [(0,) * r]
    act: list[list[int]] = [[] for _ in range(r)]
    x = 0
    while x < len(forms):
        for i in range(r):
            v = list(forms[x])
            v[i] += 1
            w = _normalize(tuple(v), rules)
            if w not in index:
                index[w] = len(forms)
                forms.append(w)
                if len(forms) > limit:
                    raise ValueError(f"more than {limit} elements")
            act[i].append(index[w])
        x += 1
    m = Monoid(act, len(forms), list(names))
    return Bipartite(m, frozenset(index[_normalize(_parse_word(w, names), rules)] for w in p_words))


def presentation(m: Monoid) -> list[str]:
    """Relations presenting m on its generators: ``w = nf(w)`` for each least exponent vector w
    that is not a normal form (every smaller one being one), as in ``a^2 = 1``.

    >>> presentation(from_presentation("ab", ["a^2 = 1", "b^3 = b"], []).monoid)
    ['a^2 = 1', 'b^3 = b']
    """
    nf = m.normal_forms
    normal = {v: x for x, v in enumerate(nf)}
    out = []
    r = len(m.act)
    for x, v in enumerate(nf):
        for i in range(r):
            w = list(v)
            w[i] += 1
            tw = tuple(w)
            if tw in normal:
                continue
            lower = [tuple(e - (j == k) for k, e in enumerate(tw)) for j in range(r) if tw[j]]
            if all(u in normal for u in lower):
                out.append((tw, m.act[i][x]))
    seen = set()
    rel = []
    for tw, y in sorted(out, key=lambda t: _lexkey(t[0])):
        if tw not in seen:
            seen.add(tw)
            rel.append(f"{_word(tw, m.names)} = {m.word(y)}")
    return rel


def minimal_generators(m: Monoid) -> Monoid:
    """The same monoid (same elements) on a least-redundant generating set: a generator that is a
    product of the others is dropped (the last ones first), the rest renamed a, b, c, ...

    >>> t = from_presentation("abc", ["a^2 = 1", "b^3 = b", "c = a b"], [])
    >>> minimal_generators(t.monoid).size, len(minimal_generators(t.monoid).act)
    (6, 2)
    """
    keep = list(range(len(m.act)))
    for i in reversed(range(len(m.act))):
        rest = [j for j in keep if j != i]
        reach = {0}
        todo = [0]
        while todo:
            x = todo.pop()
            for j in rest:
                y = m.act[j][x]
                if y not in reach:
                    reach.add(y)
                    todo.append(y)
        if len(reach) == m.size:
            keep = rest
    return Monoid([m.act[j] for j in keep], m.size, [_gen_name(i) for i in range(len(keep))])
