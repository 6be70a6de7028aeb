"""Families of structures, and the positions on a structure within bounds.

A :class:`Family` is a list of named structures, smallest first (fewest vertices,
then fewest edges); families add up with ``+``.

>>> cycles(4, 6).names()
['C_4', 'C_6']
>>> [name for name, g in (paths(3) + stars(3)).items()]
['P_3', 'S_3']
>>> len(all_graphs(4, min_n=4)), len(all_graphs(4, min_n=4, connected=True))
(11, 6)
>>> list(heap_tuples(2, 2))
[(0, 0), (0, 1), (0, 2), (1, 1), (1, 2), (2, 2)]
"""
from __future__ import annotations

from ..errors import GrundyError
import itertools
import random
from typing import Any, Callable, Iterable, Iterator, Sequence

import networkx as nx

from ..spec.structure import Structure

Item = tuple[str, Structure]


def _size(item: Item) -> tuple:
    g = item[1]
    return (g.n, len(g.edges) + len(g.loops))


class Family:
    """Named structures, ordered by size; ``scope`` is how a verdict describes the family."""

    def __init__(self, items: Iterable[Item], scope: str | None = None):
        self._items = sorted(items, key=_size)
        self.scope = scope if scope is not None else ", ".join(n for n, _ in self._items)

    def items(self) -> list[Item]:
        return list(self._items)

    def names(self) -> list[str]:
        return [n for n, _ in self._items]

    def __add__(self, other: "Family") -> "Family":
        if isinstance(other, Positions):
            raise TypeError("a family of structures does not add to a family of positions")
        return Family(self._items + other._items, f"{self.scope}; {other.scope}")

    def __len__(self) -> int:
        return len(self._items)

    def __repr__(self) -> str:
        return f"Family({self.scope})"


class Lazy(Family):
    """A family built on first use: loading a theorem file stays fast, and a worker builds only
    the families it checks. ``make()`` yields (name, structure) or (name, structure, data); the
    data of each structure is kept in ``table`` (a claim's statement may read it). A structure
    met twice is kept once."""

    def __init__(self, make: Callable[[], Iterable[tuple]], scope: str):
        self._make, self.scope, self._built = make, scope, None
        self.table: dict[Structure, object] = {}

    @property
    def _items(self) -> list[Item]:
        if self._built is None:
            items = []
            for item in self._make():
                if item[1] in self.table:
                    continue
                self.table[item[1]] = item[2] if len(item) > 2 else None
                items.append(item[:2])
            self._built = sorted(items, key=_size)
        return self._built


def _sizes(ns: Sequence[Any]) -> list[Any]:
    out: list[Any] = []
    for n in ns:
        out.extend(n if isinstance(n, range) else [n])
    return out


def _graph(name: str, g: nx.Graph, relabel: bool = True) -> Item:
    if relabel:
        g = nx.convert_node_labels_to_integers(g, ordering="sorted" if _sortable(g) else "default")
    return name, Structure.from_networkx(g)


def _sortable(g: nx.Graph) -> bool:
    try:
        sorted(g.nodes)
        return True
    except TypeError:
        return False


def graphs(*named: tuple[str, nx.Graph], scope: str | None = None) -> Family:
    """A family of given networkx graphs: ``graphs(("K_4", nx.complete_graph(4)), ...)``."""
    return Family([_graph(n, g) for n, g in named], scope)


def heaps(*counts: int | range) -> Family:
    """Rows of heaps: ``heaps(2)`` is two heaps, ``heaps(2, 3)`` two and three."""
    ns = _sizes(counts)
    items = [(f"{n} heap{'s' * (n != 1)}", Structure.heaps(n)) for n in ns]
    return Family(items, " and ".join(str(n) for n in ns) + (" heaps" if ns != [1] else " heap"))


def paths(*ns: int | range) -> Family:
    """Paths P_n on n vertices."""
    return Family([_graph(f"P_{n}", nx.path_graph(n)) for n in _sizes(ns)])


def cycles(*ns: int | range) -> Family:
    """Cycles C_n (vertex i adjacent to i ± 1 mod n)."""
    return Family([_graph(f"C_{n}", nx.cycle_graph(n)) for n in _sizes(ns)])


def complete(*ns: int | range) -> Family:
    """Complete graphs K_n."""
    return Family([_graph(f"K_{n}", nx.complete_graph(n)) for n in _sizes(ns)])


def complete_bipartite(*mn: tuple[int, int]) -> Family:
    """K_{m,n}: vertices 0..m-1 form the first part."""
    return Family([_graph(f"K_{{{m},{n}}}", nx.complete_bipartite_graph(m, n)) for m, n in mn])


def complete_multipartite(*parts: Sequence[int]) -> Family:
    """Complete multipartite graphs with the given part sizes."""
    return Family([_graph("K_{" + ",".join(map(str, p)) + "}", nx.complete_multipartite_graph(*p))
                   for p in parts])


def wheels(*ns: int | range) -> Family:
    """Wheels W_n on n vertices: hub 0 plus the rim C_{n-1}."""
    return Family([_graph(f"W_{n}", nx.wheel_graph(n)) for n in _sizes(ns)])


def stars(*ns: int | range) -> Family:
    """Stars S_n: centre 0 and n leaves."""
    return Family([_graph(f"S_{n}", nx.star_graph(n)) for n in _sizes(ns)])


def two_stars(m: int, n: int, length: int) -> Family:
    """Stars with m and n leaves whose centres are joined by a path of ``length`` edges.
    Vertices: centre 0, its leaves, the path, centre, its leaves."""
    g = nx.Graph()
    a, b = 0, m + length
    g.add_edges_from((a, 1 + i) for i in range(m))
    path = [a] + list(range(m + 1, m + length)) + [b]
    g.add_edges_from(zip(path, path[1:]))
    g.add_edges_from((b, b + 1 + i) for i in range(n))
    return Family([_graph(f"S_{m}-{length}-S_{n}", g)])


def ssb(*js: int | range) -> Family:
    """SSB_j: K_{2,j} plus the edge v1v2 (v1, v2 = vertices 0 and 1, the part of size 2)."""
    out = []
    for j in _sizes(js):
        g = nx.complete_bipartite_graph(2, j)
        g.add_edge(0, 1)
        out.append(_graph(f"SSB_{j}", g))
    return Family(out)


def hypercubes(*ds: int | range) -> Family:
    """Hypercubes Q_d; vertex i is the bit string of i."""
    out = []
    for d in _sizes(ds):
        bits = lambda t: t if isinstance(t, tuple) else (t,)  # noqa: E731  (networkx names Q_1's vertices 0, 1)
        g = nx.relabel_nodes(nx.hypercube_graph(d), lambda t: int("".join(map(str, bits(t))) or "0", 2))
        out.append(_graph(f"Q_{d}", g))
    return Family(out)


def petersen() -> Family:
    """The Petersen graph."""
    return Family([_graph("Petersen", nx.petersen_graph())])


def disjoint_union(a: Family, b: Family) -> Family:
    """G + H for every G in a and H in b."""
    return Family([_graph(f"{na}+{nb}", nx.disjoint_union(ga.to_networkx(), gb.to_networkx()))
                   for na, ga in a.items() for nb, gb in b.items()])


def cartesian(a: Family, b: Family) -> Family:
    """The Cartesian products G □ H for every G in a and H in b."""
    return Family([_graph(f"{na}x{nb}", nx.cartesian_product(ga.to_networkx(), gb.to_networkx()))
                   for na, ga in a.items() for nb, gb in b.items()])


def all_graphs(max_n: int, *, min_n: int = 1, connected: bool = False) -> Family:
    """Every graph on min_n..max_n vertices up to isomorphism (the networkx atlas: n <= 7)."""
    if max_n > 7:
        raise ValueError("the graph atlas stops at 7 vertices")
    from networkx.generators.atlas import graph_atlas_g
    out = []
    counter: dict[int, int] = {}
    for g in graph_atlas_g():
        n = g.number_of_nodes()
        if not (min_n <= n <= max_n) or (connected and not nx.is_connected(g)):
            continue
        counter[n] = counter.get(n, 0) + 1
        out.append(_graph(f"G{n}.{counter[n]}", g))
    scope = f"all {'connected ' if connected else ''}graphs on {min_n}..{max_n} vertices"
    return Family(out, scope)


def gnp(n: int, p: float, count: int, seed: int = 0) -> Family:
    """``count`` samples of G(n, p), seeded."""
    rng = random.Random(seed)
    out = [_graph(f"G({n},{p})#{i}", nx.gnp_random_graph(n, p, seed=rng.randrange(2**31)))
           for i in range(count)]
    return Family(out, f"{count} samples of G({n}, {p}), seed {seed}")


# ------------------------------------------------------------------ positions

def values_of(bound: Any, lower: int = 0) -> list[int]:
    """The values a bound allows: an int b is lower..b, a pair (lo, hi) lo..hi, a list itself.

    >>> values_of(3), values_of((1, 3)), values_of([2, 5])
    ([0, 1, 2, 3], [1, 2, 3], [2, 5])
    """
    if isinstance(bound, bool):
        raise ValueError(f"bad bound {bound!r}")
    if isinstance(bound, int):
        return list(range(lower, bound + 1))
    if isinstance(bound, tuple) and len(bound) == 2:
        return list(range(max(lower, bound[0]), bound[1] + 1))
    if isinstance(bound, (list, range)):
        return sorted(v for v in bound if v >= lower)
    raise ValueError(f"bad bound {bound!r}: use an int, a pair (lo, hi) or a list")


def heap_tuples(count: int, hi: int, lo: int = 0) -> Iterator[tuple[int, ...]]:
    """All sorted tuples of ``count`` heaps in lo..hi (heaps are a multiset)."""
    return itertools.combinations_with_replacement(range(lo, hi + 1), count)


def weight_assignments(g: Structure, values: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every assignment of the given values to the edges of g."""
    return itertools.product(values, repeat=len(g.edges))


def tokens(g: Structure) -> list[int]:
    """One vertex of each orbit of g's automorphism group (the smallest).

    >>> tokens(stars(3).items()[0][1])
    [0, 1]
    """
    seen: set[int] = set()
    out = []
    for v in range(g.n):
        if v not in seen:
            out.append(v)
            seen.update(sigma[v] for sigma in g.automorphisms)
    return out


def slot_values(rules, bounds: dict[str, Any]) -> list[list[int]]:
    """For each state slot, the values the sweep tries. ``bounds`` maps a field name to an int,
    a pair, a list (see :func:`values_of`) or a function ``(structure, key) -> values`` of the
    slot's key; numeric fields need a bound, vertex/edge/bool fields default to every value.

    >>> from grundy.spec.games import get_game
    >>> r = get_game("edge-nim").rules(paths(3).items()[0][1])
    >>> slot_values(r, {"weight": (1, 2)})
    [[1, 2], [1, 2], [0, 1, 2]]
    >>> slot_values(r, {"weight": lambda g, e: [e + 1]})
    [[1], [2], [0, 1, 2]]
    """
    sch, g = rules.schema, rules.structure
    out = []
    for name, key in sch.slots:
        f = sch.fields[name]
        b = bounds.get(name)
        if callable(b):
            out.append(sorted(int(v) for v in b(g, key)))
        elif b is not None:
            out.append(values_of(b, f.lower if f.kind == "int" else -1 if f.kind == "edge" else 0))
        elif f.kind == "vertex":
            out.append(list(range(g.n)))
        elif f.kind == "edge":
            out.append(list(range(-1, len(g.edges))))
        elif f.kind == "bool":
            out.append([0, 1])
        else:
            raise KeyError(f"no bound for the numeric field {name!r} (bounds={{{name!r}: ...}})")
    return out


def states(rules, bounds: dict[str, Any], canonical: Callable | None = None) -> Iterator[tuple[int, ...]]:
    """Every state of the rules' structure within bounds; with ``canonical`` only one state
    per symmetry class met by the bounds.

    >>> from grundy.spec.games import get_game
    >>> from grundy.spec import Structure
    >>> r = get_game("nim").rules(Structure.heaps(2))
    >>> list(states(r, {"heap": 1}, canonical=lambda s: tuple(sorted(s))))
    [(0, 0), (0, 1), (1, 1)]
    """
    vals = slot_values(rules, bounds)
    if rules.heap_sorting and canonical is not None and len(set(map(tuple, vals))) == 1:
        yield from itertools.combinations_with_replacement(vals[0], len(vals))
        return
    if canonical is None:
        yield from itertools.product(*vals)
        return
    # one state per symmetry class that meets the bounds: the first met, in sweep order (the
    # bounds need not be closed under the symmetries: a pinned token, a pinned chip pattern)
    seen: set[tuple[int, ...]] = set()
    for s in itertools.product(*vals):
        c = canonical(s)
        if c not in seen:
            seen.add(c)
            yield s


def count_states(rules, bounds: dict[str, Any]) -> int:
    """The number of states in the product of the slot ranges (before symmetry)."""
    n = 1
    for v in slot_values(rules, bounds):
        n *= len(v)
    return n


def size_key(rules, state: tuple[int, ...]) -> tuple:
    """How small a position is, for choosing the smallest counterexample: fewest vertices,
    then edges, then the least total and largest of the numeric fields."""
    g, sch = rules.structure, rules.schema
    nums = [v for (name, _), v in zip(sch.slots, state) if sch.fields[name].kind == "int"]
    return (g.n, len(g.edges), sum(nums), max(nums, default=0), state)


def label_of(family: Family, g: Structure) -> str:
    for name, h in family.items():
        if h == g:
            return name
    return f"{g.kind} on {g.n}"




# ------------------------------------------------------------------ every graph, from nauty's geng
class GengMissing(GrundyError, RuntimeError):
    """nauty's ``geng`` is not installed."""


GENG_HINT = "nauty's geng is not installed: install Debian's package nauty (apt-get install nauty)"


def geng_program() -> str | None:
    """The path of nauty's geng (Debian installs it as ``nauty-geng``), or None."""
    import shutil
    return shutil.which("nauty-geng") or shutil.which("geng")


def pickg_program() -> str | None:
    """The path of nauty's pickg (Debian: ``nauty-pickg``), or None."""
    import shutil
    return shutil.which("nauty-pickg") or shutil.which("pickg")


def _geng_run(args: list[str]) -> "Any":
    import subprocess
    prog = geng_program()
    if prog is None:
        raise GengMissing(GENG_HINT)
    return subprocess.Popen([prog, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE)


_GENG_COUNTS: dict[tuple[int, int, bool], int] = {}


def _geng_count(n: int, e: int, connected: bool) -> int:
    """How many graphs geng makes on n vertices with e edges (``geng -u``, cached per process)."""
    import re
    key = (n, e, connected)
    if key not in _GENG_COUNTS:
        p = _geng_run(["-u"] + (["-c"] if connected else []) + [str(n), f"{e}:{e}"])
        _, err = p.communicate()
        m = re.search(rb"(\d+) graphs generated", err)
        if p.returncode != 0 or m is None:
            raise RuntimeError(f"geng failed on n={n}, e={e}: {err.decode(errors='replace').strip()}")
        _GENG_COUNTS[key] = int(m.group(1))
    return _GENG_COUNTS[key]


def graph6(line: bytes) -> tuple[int, list[tuple[int, int]]]:
    """Decode one graph6 line (n <= 62): the number of vertices and the edges (i < j), sorted.

    >>> graph6(b"Bw"), graph6(b"@")                  # the triangle; one vertex
    ((3, [(0, 1), (0, 2), (1, 2)]), (1, []))
    """
    line = line.strip()
    n = line[0] - 63
    if not 0 <= n <= 62:
        raise ValueError("graph6 with more than 62 vertices is not supported")
    bits = 0
    for ch in line[1:]:
        bits = (bits << 6) | (ch - 63)
    total = 6 * (len(line) - 1)
    edges = []
    k = 0
    for j in range(1, n):                              # the upper triangle, column by column
        for i in range(j):
            if (bits >> (total - 1 - k)) & 1:
                edges.append((i, j))
            k += 1
    edges.sort()
    return n, edges


class Geng(Family):
    """Every graph on min_n..max_n vertices up to isomorphism, streamed from nauty's geng
    (fewest vertices first, then fewest edges, then geng's order); ``where(g)`` keeps only some.

    Nothing is built up front: ``items()`` streams, and the family is indexed by geng's output
    (before any filter), so :meth:`part` gives a range of it to one worker of a parallel sweep
    and :meth:`span` is the number of graphs read. A structure is named by its graph6 code
    (``graph6:Bw`` is the triangle).

    Two filters run in nauty's ``pickg``, on the automorphism group, before Python sees a graph
    (they only drop graphs): ``symmetric`` keeps the graphs with a non-trivial automorphism,
    ``max_fixed=k`` those with at most k vertices fixed by every automorphism (orbits of size
    one). A ``where`` that implies them (an involution with no fixed vertex implies
    ``max_fixed=0``) keeps the same graphs with the filter as without, and a sweep is then
    far cheaper; the scope names the filter and the number of graphs geng made.
    """

    def __init__(self, max_n: int, min_n: int = 1, connected: bool = False,
                 where: Callable[[Structure], bool] | None = None, scope: str | None = None,
                 span: tuple[int, int | None] = (0, None), *, symmetric: bool = False,
                 max_fixed: int | None = None):
        if not 1 <= min_n <= max_n <= 62:
            raise ValueError("geng: need 1 <= min_n <= max_n <= 62")
        if max_fixed is not None and (isinstance(max_fixed, bool) or not isinstance(max_fixed, int)
                                      or max_fixed < 0):
            raise ValueError(f"geng: max_fixed must be an int >= 0, got {max_fixed!r}")
        self.max_n, self.min_n, self.connected, self.where = max_n, min_n, connected, where
        self.symmetric, self.max_fixed = bool(symmetric), max_fixed
        self._span = span
        self._scope = scope

    def _pick(self) -> list[str]:
        """pickg's constraints for the filters (none: no pickg)."""
        return ((["-a2:"] if self.symmetric else [])
                + ([f"-F:{self.max_fixed}"] if self.max_fixed is not None else []))

    def filter_text(self) -> str:
        """The nauty filter in words ("" without one).

        >>> geng(9, symmetric=True, max_fixed=1).filter_text()
        'a non-trivial automorphism and at most 1 vertex fixed by every automorphism'
        """
        out = ["a non-trivial automorphism"] if self.symmetric else []
        if self.max_fixed == 0:
            out.append("no vertex fixed by every automorphism")
        elif self.max_fixed is not None:
            out.append(f"at most {self.max_fixed} vertex{'es' * (self.max_fixed != 1)} fixed by every automorphism")
        return " and ".join(out)

    @property
    def scope(self) -> str:      # type: ignore[override]
        if self._scope is not None:
            return self._scope
        what = f"{'connected ' if self.connected else ''}graphs on {self.min_n}..{self.max_n} vertices"
        if self._pick():
            try:
                made = f"of the {sum(c for _, _, c in self._buckets()):,} graphs geng makes"
            except GrundyError:
                made = "of those geng makes"
            text = f"the {what} with {self.filter_text()} (nauty's pickg, {made})"
        else:
            text = f"all {what} (geng)"
        return text + (f" with {getattr(self.where, '__name__', 'a condition')}" if self.where is not None else "")

    @scope.setter
    def scope(self, text: str) -> None:
        self._scope = text

    def _buckets(self) -> list[tuple[int, int, int]]:
        return [(n, e, _geng_count(n, e, self.connected))
                for n in range(self.min_n, self.max_n + 1)
                for e in range(n - 1 if self.connected else 0, n * (n - 1) // 2 + 1)]

    def span(self) -> int:
        """The number of graphs geng makes for this family (before nauty's filter and ``where``;
        of a part: its size)."""
        lo, hi = self._span
        total = sum(c for _, _, c in self._buckets())
        hi = total if hi is None else min(hi, total)
        return max(0, hi - lo)

    def part(self, start: int, stop: int) -> "Geng":
        """The graphs ``start..stop-1`` of this family's span, as a family with the same scope."""
        lo, _ = self._span
        return Geng(self.max_n, self.min_n, self.connected, self.where, self._scope,
                    (lo + start, lo + min(stop, self.span())), symmetric=self.symmetric,
                    max_fixed=self.max_fixed)

    def lines(self) -> Iterator[bytes]:
        """geng's graph6 lines of this family (of its part), in order, after nauty's filter
        (if any) and before ``where``."""
        lo, hi = self._span
        at = 0
        pick = self._pick()
        for n, e, count in self._buckets():
            if hi is not None and at >= hi:
                return
            if at + count <= lo or count == 0:
                at += count
                continue
            a, b = max(lo - at, 0), count if hi is None else min(hi - at, count)   # this bucket's range
            if pick:
                yield from self._picked(n, e, pick + ([f"-p{a + 1}:{b}"] if (a, b) != (0, count) else []))
                at += count
                continue
            p = _geng_run(["-q"] + (["-c"] if self.connected else []) + [str(n), f"{e}:{e}"])
            try:
                for line in p.stdout:
                    if lo <= at and (hi is None or at < hi):
                        yield line
                    at += 1
                    if hi is not None and at >= hi:
                        break
            finally:
                p.kill()
                p.communicate()

    def _picked(self, n: int, e: int, pick: list[str]) -> Iterator[bytes]:
        """The graphs of geng's bucket (n, e) that pickg's constraints ``pick`` keep."""
        import subprocess
        prog = pickg_program()
        if prog is None:
            raise GengMissing(GENG_HINT.replace("geng", "pickg", 1))
        gen = _geng_run(["-q"] + (["-c"] if self.connected else []) + [str(n), f"{e}:{e}"])
        sel = subprocess.Popen([prog, "-q", *pick], stdin=gen.stdout, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE)
        gen.stdout.close()                         # pickg alone reads geng's output
        ok = False
        try:
            yield from sel.stdout
            ok = True
        finally:
            if not ok:                             # the reader stopped early (or failed): stop both
                sel.kill()
            _, err = sel.communicate()             # (read to the end: pickg exits by itself)
            gen.kill()                             # geng may still be writing past pickg's range
            gen.communicate()
            if ok and sel.returncode != 0:
                raise RuntimeError(f"pickg {' '.join(pick)} failed on n={n}, e={e}: "
                                   f"{err.decode(errors='replace').strip()}")

    def __iter__(self) -> Iterator[Item]:
        for line in self.lines():
            n, edges = graph6(line)
            g = Structure("graph", n, edges, frozenset(), list(range(n)))
            if self.where is None or self.where(g):
                yield "graph6:" + line.strip().decode(), g

    def items(self) -> "Any":  # an iterable: the family is streamed, never held as a list
        return _Stream(self)

    @property
    def _items(self) -> list[Item]:        # what Family's other methods read: built on demand
        return list(self)

    def __len__(self) -> int:
        return self.span() if self.where is None and not self._pick() else sum(1 for _ in self)

    def __repr__(self) -> str:
        return f"Geng({self.scope})"


class _Stream:
    """The items of a :class:`Geng` family: iterable again and again, with ``len`` and indexing."""

    def __init__(self, family: Geng):
        self.family = family

    def __iter__(self) -> Iterator[Item]:
        return iter(self.family)

    def __len__(self) -> int:
        return len(self.family)

    def __getitem__(self, i: "int | slice") -> "Any":
        if isinstance(i, slice):
            return list(self.family)[i]
        if i < 0:
            return list(self.family)[i]
        return next(itertools.islice(iter(self.family), i, None))


def geng(max_n: int, *, min_n: int = 1, connected: bool = False,
         where: Callable[[Structure], bool] | None = None, symmetric: bool = False,
         max_fixed: int | None = None) -> Geng:
    """Every graph on min_n..max_n vertices up to isomorphism, from nauty's ``geng`` (Debian's
    package ``nauty``), streamed lazily; ``where(g)`` keeps only the graphs meeting a condition.
    ``symmetric`` / ``max_fixed`` let nauty drop graphs first, on their automorphism group (see
    :class:`Geng`): sound for a ``where`` that implies them.

    >>> fam = geng(4, min_n=4)
    >>> fam.span() if geng_program() else 11                 # OEIS A000088: 11 graphs on 4 vertices
    11
    >>> len(geng(4, min_n=4, symmetric=True)) if geng_program() else 11   # none is asymmetric
    11
    >>> len(geng(4, min_n=4, max_fixed=0)) if geng_program() else 7       # the star K_{1,3}: its centre is fixed
    7
    """
    return Geng(max_n, min_n, connected, where, symmetric=symmetric, max_fixed=max_fixed)


# ------------------------------------------------------------------ positions listed, not swept
class Positions(Family):
    """A family of positions themselves: the claim is checked at exactly these (no sweep over a
    product of field values, no bounds). ``make()`` yields, each optionally as ``(label, item)``:
    a position (:class:`~grundy.spec.Position`, a sum, or a JSON object), or a pair
    ``(structure, state)`` on the claim's game (a state: a tuple of the schema's slots, e.g.
    the heaps). Built on first use; cut into chunks by index for a parallel run."""

    def __init__(self, make: Callable[[], Iterable[Any]], scope: str, span: tuple[int, int | None] = (0, None)):
        self._make, self.scope, self._span = make, scope, span
        self._built: list[tuple[str, Any]] | None = None

    def listed(self) -> list[tuple[str, Any]]:
        """(label, item) for every position of the family (of its part)."""
        if self._built is None:
            out: list[tuple[str, Any]] = []
            for item in self._make():
                if isinstance(item, tuple) and len(item) == 2 and isinstance(item[0], str):
                    out.append(item)
                else:
                    out.append(("", item))
            lo, hi = self._span
            self._built = out[lo:hi]
        return self._built

    @property
    def _items(self) -> list[Item]:          # the structures met (for code that lists them)
        seen: dict[Structure, str] = {}
        for label, item in self.listed():
            g = item[0] if isinstance(item, tuple) else getattr(item, "structure", None)
            if isinstance(g, Structure) and g not in seen:
                seen[g] = label or f"{g.kind} on {g.n}"
        return [(name, g) for g, name in seen.items()]

    def span(self) -> int:
        return len(self.listed())

    def part(self, start: int, stop: int) -> "Positions":
        lo, _ = self._span
        return Positions(self._make, self.scope, (lo + start, lo + stop))

    def __len__(self) -> int:
        return len(self.listed())

    def __add__(self, other: "Family") -> "Family":
        if not isinstance(other, Positions):
            raise TypeError("a family of positions adds only to another family of positions")
        a, b = self, other
        return Positions(lambda: a.listed() + b.listed(), f"{self.scope}; {other.scope}")

    def __repr__(self) -> str:
        return f"Positions({self.scope})"


def positions(make: "Callable[[], Iterable[Any]] | Iterable[Any]", scope: str | None = None) -> Positions:
    """A family of positions given one by one (see :class:`Positions`): sweeps over correlated
    positions (a graph and a matching heap, sums of two games) without filtering a product.

    >>> from grundy.spec import Structure
    >>> fam = positions(lambda: ((Structure.heaps(2), (n, n + 1)) for n in range(5)), "pairs (n, n+1)")
    >>> len(fam), fam.names()
    (5, ['heaps on 2'])
    """
    if not callable(make):
        items = list(make)
        make = lambda: items  # noqa: E731
    return Positions(make, scope or "listed positions")


def sums(a: Iterable[Any], b: Iterable[Any], scope: str | None = None) -> Positions:
    """Every sum of a position from ``a`` and one from ``b`` (positions or JSON objects; in a
    claim, ``game="sum"``).

    >>> fam = sums([{"game": "nim", "heaps": [k]} for k in range(3)],
    ...            [{"game": "grim", "edges": [[0, 1]]}])
    >>> len(fam)
    3
    """
    xs, ys = list(a), list(b)

    def make() -> Iterator[Any]:
        for x in xs:
            for y in ys:
                yield {"game": "sum", "parts": [_as_json(x), _as_json(y)]}
    return Positions(make, scope or f"sums of {len(xs)} x {len(ys)} positions")


def _as_json(p: Any) -> Any:
    return p if isinstance(p, dict) else p.to_json()


class TableStatement:
    """``table=``: the claimed value at each listed state (an int: a Grundy value; "P" / "N")."""

    def __init__(self, table: dict[tuple[int, ...], Any]):
        self.table = table

    def claimed(self, state: tuple[int, ...]) -> Any:
        return self.table[tuple(state)]

    def __call__(self, g: Any, s: Any) -> Any:         # not an IR statement
        raise TypeError("a table claim's values are data, not an expression")


def table_positions(family: "Family | None", table: Any) -> tuple[Positions, TableStatement]:
    """The family of the table's positions and its statement (see ``Claim(table=...)``).

    >>> fam, st = table_positions(None, [0, 1, 0, 1])
    >>> len(fam), st.claimed((3,))
    (4, 1)
    >>> table_positions(None, {(1, 2): "N", (1, 1): "P"})[1].claimed((1, 1))
    'P'
    """
    if isinstance(table, (list, tuple)):
        items = {(n,): v for n, v in enumerate(table)}
    elif isinstance(table, dict):
        items = {}
        for k, v in table.items():
            if isinstance(k, bool) or not isinstance(k, (int, tuple)):
                raise TypeError(f"a key must be an int or a tuple of ints, got {k!r}")
            key = (k,) if isinstance(k, int) else tuple(k)
            if not all(isinstance(x, int) and not isinstance(x, bool) for x in key):
                raise TypeError(f"a key must be an int or a tuple of ints, got {k!r}")
            items[key] = v
    else:
        raise TypeError(f"must be a list or a dict, got {type(table).__name__}")
    if not items:
        raise ValueError("is empty")
    for k, v in items.items():
        if not ((isinstance(v, int) and not isinstance(v, bool) and v >= 0) or v in ("P", "N")):
            raise ValueError(f"the value at {k if len(k) > 1 else k[0]} must be a Grundy value "
                             f"(an int >= 0) or 'P' / 'N', got {v!r}")
    if family is not None and isinstance(family, Positions):
        raise TypeError("the family of a table claim is a family of structures")
    structs = None if family is None else [g for _, g in family.items()]

    def make() -> Iterator[Any]:
        for key in items:
            for g in (structs if structs is not None else [Structure.heaps(len(key))]):
                yield (g, key)
    what = "heap" if all(len(k) == 1 for k in items) else "position"
    scope = f"the table's {len(items)} {what}{'s' * (len(items) != 1)}"
    if family is not None:
        scope += f" on {family.scope}"
    return Positions(make, scope), TableStatement(items)
