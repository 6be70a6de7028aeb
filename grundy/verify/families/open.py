"""Open families: a family that stands for every size, ``complete(n=at_least(1))``.

An open family names a :class:`~grundy.solvers.counting.Shape` (parts of vertices, every
permutation within a part an automorphism) and the least size of each open part. A claim on it
is checked (a) for every size by a mechanism (counting: :mod:`grundy.solvers.counting`) and
(b) explicitly on its first members, those with at most ``first`` vertices (``first_full``
under ``--profile full``): see docs/claims.md, "Claims for every n".

The statement of a claim on an open family reads the **counts**: ``statement(g, c)``, where
``c[i]`` is the number of present vertices of part i (the game's one bool field over
vertices, else its ``present()``; an integer expression) and ``c.n`` their
total. On a first member ``g`` is the graph; in the proof for every size it is the shape.

>>> fam = complete_open(at_least(2))
>>> fam.scope, fam.names()[:3]
('K_n, every n >= 2', ['K_2', 'K_3', 'K_4'])
>>> bip = bipartite_open(at_least(1), at_least(2), first=5)
>>> bip.names()
['K_{1,2}', 'K_{1,3}', 'K_{2,2}', 'K_{1,4}', 'K_{2,3}']
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from ...solvers.counting import Shape
from ...solvers.invariant import Invariant, invariant
from ...spec.expr import Expr, Var, count, lift, total
from ...spec.structure import Structure
from .base import Family, Item

__all__ = ["AtLeast", "at_least", "invariant", "Invariant", "OpenFamily", "Counts", "complete_open", "bipartite_open",
           "multipartite_open", "stars_open", "OpenPaths", "RunsOf", "runs_of", "paths_open", "OpenCycles",
           "ArcsOf", "arcs_of", "cycles_open",
           "OpenWheels", "PathOutcome", "path_outcome", "wheels_open"]


@dataclass(frozen=True)
class AtLeast:
    """An open size: every integer >= ``low``."""

    low: int

    def __repr__(self) -> str:
        return f"at_least({self.low})"


def at_least(low: int) -> AtLeast:
    """Every size from ``low`` on: ``complete(n=at_least(1))``."""
    if not isinstance(low, int) or low < 0:
        raise ValueError(f"at_least({low!r}): a size is an integer >= 0")
    return AtLeast(low)


class Counts:
    """What a statement on an open family reads: ``c[i]``, the present vertices of part i, and
    ``c.n``, their total (integer expressions)."""

    def __init__(self, parts: Sequence[Expr]):
        self._parts = list(parts)

    def __getitem__(self, i: int) -> Expr:
        return self._parts[i]

    def __len__(self) -> int:
        return len(self._parts)

    @property
    def n(self) -> Expr:
        return lift(total(self._parts))


class OpenFamily(Family):
    """A family standing for every size of a shape; its items are the first members (at most
    ``first`` vertices), each with its part sizes in :attr:`sizes`."""

    open = True
    invariant: Invariant | None = None

    def __init__(self, shape: Shape, first: int = 10, first_full: int = 14):
        self.shape, self.first, self.first_full = shape, first, first_full
        opened = [f"{x} >= {low}" for x, low, f in zip(_letters(shape), shape.lows, shape.fixed, strict=True)
                  if f is None]
        self.sizes: dict[Structure, tuple[int, ...]] = {}
        super().__init__(self.members(first), f"{shape.name}, every " + ", ".join(opened))

    def under(self, inv: Invariant) -> "OpenFamily":
        """The family on the positions an inductive invariant keeps (``invariant(chips=(0, 1),
        active=-1)``): the game is reduced as a present/removed vertex game, once Z3 proves the
        invariant inductive and the claim's bounds are found within it (docs/claims.md)."""
        self.invariant = inv
        self.scope = f"{self.scope}, under the invariant {inv}"
        return self

    def members(self, most: int) -> list[Item]:
        """The members with at most ``most`` vertices, smallest first (parts non-decreasing
        where the shape's open parts are interchangeable)."""
        shape = self.shape
        ranges = [[f] if f is not None else range(low, most + 1) for f, low in zip(shape.fixed, shape.lows, strict=True)]
        out = []
        for sizes in itertools.product(*ranges):
            open_sizes = [s for s, f in zip(sizes, shape.fixed, strict=True) if f is None]
            if sum(sizes) > most or open_sizes != sorted(open_sizes):
                continue
            g = shape.build(sizes)
            self.sizes[g] = tuple(sizes)
            out.append((shape.label(sizes), g))
        return out

    def for_profile(self, profile: str) -> Family:
        """The first members the profile checks explicitly."""
        most = self.first_full if profile == "full" else self.first
        return Family(self.members(most), f"{self.scope}: first members, at most {most} vertices")

    def counts(self, g: Structure, present: Callable[[int], Any]) -> Counts:
        """The counts on a first member: the present vertices of each part (``present(v)``: a
        bool expression)."""
        sizes, at, parts = self.sizes[g], 0, []
        for k in sizes:
            parts.append(lift(count(present(v) for v in range(at, at + k))))
            at += k
        return Counts(parts)


def _letters(shape: Shape) -> list[str]:
    open_parts = sum(f is None for f in shape.fixed)
    names = iter("nmlkji"[:open_parts][::-1])
    return [next(names) if f is None else "1" for f in shape.fixed]


def symbolic_counts(variables: Sequence[Var]) -> Counts:
    return Counts(list(variables))


def complete_open(n: AtLeast, first: int = 10, first_full: int = 14) -> OpenFamily:
    """K_n for every n >= n.low."""
    return OpenFamily(Shape.complete(n.low), first, first_full)


def bipartite_open(m: AtLeast, n: AtLeast, first: int = 10, first_full: int = 14) -> OpenFamily:
    """K_{m,n} for every m >= m.low and n >= n.low, listed with m <= n."""
    shape = Shape.multipartite(2, m.low)
    return OpenFamily(Shape(shape.name, shape.joined, shape.fixed, (m.low, n.low)), first, first_full)


def multipartite_open(k: int, parts: AtLeast, centre: bool = False, first: int = 10,
                      first_full: int = 14) -> OpenFamily:
    """Complete multipartite graphs with k parts of every size >= parts.low (and a part of one
    vertex first when ``centre``)."""
    return OpenFamily(Shape.multipartite(k, parts.low, centre), first, first_full)


def stars_open(n: AtLeast, first: int = 10, first_full: int = 14) -> OpenFamily:
    """The stars K_{1,n} for every n >= n.low (the centre is the part of one vertex)."""
    return OpenFamily(Shape.multipartite(1, n.low, centre=True), first, first_full)


class OpenPaths(Family):
    """The paths P_n for every n >= ``low``; its items are the first members (at most ``first``
    vertices). A claim on it states the values of a take-and-break code on the runs
    (:func:`runs_of`); it is proved for every n by locality (:mod:`grundy.solvers.locality`)."""

    open = True

    def __init__(self, low: int = 1, first: int = 12, first_full: int = 16):
        from ...solvers.locality import path
        self.low, self.first, self.first_full, self._path = low, first, first_full, path
        super().__init__([(f"P_{n}", path(n)) for n in range(low, first + 1)], f"P_n, every n >= {low}")

    def for_profile(self, profile: str) -> Family:
        most = self.first_full if profile == "full" else self.first
        return Family([(f"P_{n}", self._path(n)) for n in range(self.low, most + 1)],
                      f"{self.scope}: first members, at most {most} vertices")


class RunsOf:
    """A statement on paths: the value of a position is the XOR of the values of octal ``code``
    at the lengths of its runs of present vertices (the game's one bool field).

    >>> from grundy.spec.games import get_game
    >>> from grundy.verify.families.open import OpenPaths
    >>> g = OpenPaths(first=3).items()[2][1]
    >>> s = get_game("grim").rules(g).state
    >>> from grundy.spec.expr import evaluate
    >>> evaluate(runs_of("0.6")(g, s), {"alive[0]": True, "alive[1]": True, "alive[2]": True})
    2
    """

    def __init__(self, code: str):
        self.code = code
        self._values: list[int] = []
        self.__doc__ = f"the values of octal {code} at the runs' lengths"

    def value(self, n: int) -> int:
        from ...solvers.solver import Solver
        from ...spec.position import read_position
        solver = Solver()
        while len(self._values) <= n:
            pos = read_position({"game": "octal", "code": self.code, "heaps": [len(self._values)]})
            self._values.append(solver.grundy(pos))
        return self._values[n]

    def __call__(self, g: Structure, s: Any) -> Expr:
        from ...spec.expr import all_of, ite
        field = next(iter(s.schema.fields))
        x = [getattr(s, field)[v] for v in range(g.n)]
        out: Expr = lift(0)
        for a in range(g.n):
            for b in range(a, g.n):
                run = all_of(x[a:b + 1] + ([~x[a - 1]] if a > 0 else []) + ([~x[b + 1]] if b + 1 < g.n else []))
                out = out ^ ite(run, self.value(b - a + 1), 0)
        return out


def runs_of(code: str) -> RunsOf:
    """The statement "a position on a path has the XOR of octal ``code``'s values at its runs'
    lengths": ``Claim(kind="grundy", family=paths(n=at_least(1)), statement=runs_of("0.137"))``."""
    return RunsOf(code)


def paths_open(n: AtLeast, first: int = 12, first_full: int = 16) -> OpenPaths:
    """P_n for every n >= n.low."""
    return OpenPaths(n.low, first, first_full)


class OpenCycles(OpenPaths):
    """The cycles C_n for every n >= ``low`` (at least 3); a claim on it states the values of
    a take-and-break code on the arcs (:func:`arcs_of`)."""

    def __init__(self, low: int = 3, first: int = 12, first_full: int = 16):
        from ...solvers.locality import cycle
        Family.__init__(self, [(f"C_{n}", cycle(n)) for n in range(max(low, 3), first + 1)],
                        f"C_n, every n >= {max(low, 3)}")
        self.low, self.first, self.first_full, self._path = max(low, 3), first, first_full, cycle

    def for_profile(self, profile: str) -> Family:
        most = self.first_full if profile == "full" else self.first
        return Family([(f"C_{n}", self._path(n)) for n in range(self.low, most + 1)],
                      f"{self.scope}: first members, at most {most} vertices")


class ArcsOf(RunsOf):
    """A statement on cycles: a position with a removed vertex has the XOR of octal ``code``'s
    values at the lengths of its arcs of present vertices; the full C_n, whose every move leaves
    one arc of n - ``removed`` vertices, has the value mex{G(n - removed)}."""

    def __init__(self, code: str, removed: int = 1):
        super().__init__(code)
        self.removed = removed
        self.__doc__ = (f"the values of octal {code} at the arcs' lengths; the full cycle: "
                        f"mex{{G(n - {removed})}}")

    def __call__(self, g: Structure, s: Any) -> Expr:
        from ...spec.expr import all_of, ite
        field = next(iter(s.schema.fields))
        n = g.n
        x = [getattr(s, field)[v] for v in range(n)]
        full = 1 if self.value(n - self.removed) == 0 else 0
        out: Expr = ite(all_of(x), full, 0)
        for a in range(n):
            for length in range(1, n):
                arc = [x[(a + j) % n] for j in range(length)] + [~x[(a - 1) % n], ~x[(a + length) % n]]
                out = out ^ ite(all_of(arc), self.value(length), 0)
        return out


def arcs_of(code: str, removed: int = 1) -> ArcsOf:
    """The statement of a claim on ``cycles(n=at_least(3))``: see :class:`ArcsOf`."""
    return ArcsOf(code, removed)


def cycles_open(n: AtLeast, first: int = 12, first_full: int = 16) -> OpenCycles:
    """C_n for every n >= n.low (at least 3)."""
    return OpenCycles(n.low, first, first_full)


class OpenWheels(OpenPaths):
    """The wheels W_n (hub 0, rim 1..n-1) for every n >= ``low`` (at least 4); a claim on it
    states the start's outcome by the path P_{n-2} (:func:`path_outcome`), proved for every n by
    the hub's step (:mod:`grundy.solvers.wheels`)."""

    def __init__(self, low: int = 4, first: int = 10, first_full: int = 14):
        from ...solvers.wheels import wheel
        low = max(low, 4)
        Family.__init__(self, [(f"W_{n}", wheel(n)) for n in range(low, first + 1)], f"W_n, every n >= {low}")
        self.low, self.first, self.first_full, self._path = low, first, first_full, wheel

    def for_profile(self, profile: str) -> Family:
        most = self.first_full if profile == "full" else self.first
        return Family([(f"W_{n}", self._path(n)) for n in range(self.low, most + 1)],
                      f"{self.scope}: first members, at most {most} vertices")


class PathOutcome:
    """The statement of a claim on ``wheels(n=at_least(4))`` (kind char, the full wheel only):
    W_n is P iff the full path P_{n-2} is P in the same game (solved on each member)."""

    def __init__(self, game: str):
        self.game = game
        self.__doc__ = f"W_n is P iff P_(n-2) is P ({game})"
        self._p: dict[int, bool] = {}

    def p(self, n: int) -> bool:
        if n not in self._p:
            from ...solvers.solver import Solver
            from ...spec.position import read_position
            pos = read_position({"game": self.game, "nodes": list(range(n)), "edges": [[i, i + 1] for i in range(n - 1)]})
            self._p[n] = Solver().grundy(pos) == 0
        return self._p[n]

    def __call__(self, g: Structure, s: Any) -> Expr:
        return lift(self.p(g.n - 2))


def path_outcome(game: str) -> PathOutcome:
    """"The full W_n is P iff the full P_{n-2} is P", in ``game``: the statement of a claim on
    ``wheels(n=at_least(4))``."""
    return PathOutcome(game)


def wheels_open(n: AtLeast, first: int = 10, first_full: int = 14) -> OpenWheels:
    """W_n for every n >= n.low (at least 4)."""
    return OpenWheels(n.low, first, first_full)
