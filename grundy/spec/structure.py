"""The fixed structure a position lives on: a graph, a digraph, or a number of heaps.

Vertices are numbered 0..n-1 internally; ``names`` keeps the user's labels.

>>> g = Structure.graph(["a", "b", "c"], [("a", "b"), ("b", "c")])
>>> g.n, g.edges, g.neighbours(1)
(3, [(0, 1), (1, 2)], [0, 2])
>>> Structure.heaps(3).elements
[0, 1, 2]
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Any, Hashable, Iterable, Iterator

if TYPE_CHECKING:
    import networkx as nx


@dataclass(frozen=True)
class Structure:
    """A graph (``kind='graph'``), digraph (``'digraph'``) or row of heaps (``'heaps'``).

    Parameters
    ----------
    kind : {"graph", "digraph", "heaps"}
    n : int
        Vertices (or heaps), numbered 0..n-1.
    edges : list of (int, int)
        A graph's edges (i < j) or a digraph's arcs.
    loops : frozenset of int
        Vertices with a loop.
    names : list
        The vertices' names as positions write them (default 0..n-1).

    Examples
    --------
    >>> Structure.heaps(3).n, Structure.graph("abc", [("a", "b"), ("b", "c")]).edges
    (3, [(0, 1), (1, 2)])
    """

    kind: str
    n: int
    edges: list[tuple[int, int]] = field(default_factory=list)  # graph: i < j; digraph: arcs (i, j), i != j
    loops: frozenset[int] = frozenset()
    names: list[Hashable] = field(default_factory=list)

    # construction -------------------------------------------------------------
    @staticmethod
    def heaps(n: int) -> "Structure":
        return Structure("heaps", n, names=list(range(n)))

    @staticmethod
    def graph(names: Iterable[Hashable], edges: Iterable[tuple[Hashable, ...]], loops: Iterable[Hashable] = (),
              directed: bool = False) -> "Structure":
        """A (di)graph on the named vertices; edges given by names; loops may also be given as edges (v, v)."""
        names = list(names)
        index = {v: i for i, v in enumerate(names)}
        pairs, loop_set = set(), {index[v] for v in loops}
        for e in edges:
            u, v = index[e[0]], index[e[1]]
            if u == v:
                loop_set.add(u)
            else:
                pairs.add((u, v) if directed else (min(u, v), max(u, v)))
        return Structure("digraph" if directed else "graph", len(names), sorted(pairs),
                         frozenset(loop_set), names)

    @staticmethod
    def from_networkx(g: nx.Graph[Any]) -> "Structure":
        nodes = sorted(g.nodes, key=_sort_key)
        return Structure.graph(nodes, g.edges, directed=g.is_directed())

    # queries ------------------------------------------------------------------
    def param(self, key: str) -> Any:
        """A game parameter carried by the structure (heap rules: see ``RuleHeaps``); none here."""
        from ..errors import RuleError
        raise RuleError(f"this {self.kind} structure carries no parameter {key!r} "
                        f"(read the position from JSON, or build it with the game's structure_for)")

    @property
    def directed(self) -> bool:
        return self.kind == "digraph"

    @property
    def vertices(self) -> list[int]:
        return list(range(self.n)) if self.kind != "heaps" else []

    @property
    def elements(self) -> list[int]:
        """Vertices of a graph, or heap indices."""
        return list(range(self.n))

    @cached_property
    def arcs(self) -> list[tuple[int, int]]:
        """Ordered pairs (u, v) along which a token may move (both directions for a graph; no loops)."""
        if self.directed:
            return list(self.edges)
        return sorted([(u, v) for u, v in self.edges] + [(v, u) for u, v in self.edges])

    @cached_property
    def _out(self) -> list[list[int]]:
        out: list[list[int]] = [[] for _ in range(self.n)]
        for u, v in self.arcs:
            out[u].append(v)
        return [sorted(x) for x in out]

    @cached_property
    def _in(self) -> list[list[int]]:
        inn: list[list[int]] = [[] for _ in range(self.n)]
        for u, v in self.arcs:
            inn[v].append(u)
        return [sorted(x) for x in inn]

    @cached_property
    def _edge_index(self) -> dict[tuple[int, int], int]:
        idx = {e: i for i, e in enumerate(self.edges)}
        if not self.directed:
            idx.update({(v, u): i for (u, v), i in list(idx.items())})
        return idx

    def neighbours(self, v: int) -> list[int]:
        """Out-neighbours of v, without v itself (see ``has_loop``)."""
        return self._out[v]

    def in_neighbours(self, v: int) -> list[int]:
        return self._in[v]

    def adjacent(self, u: int, v: int) -> bool:
        return (u, v) in self._edge_index

    def has_loop(self, v: int) -> bool:
        return v in self.loops

    def edge_id(self, u: int, v: int) -> int:
        return self._edge_index[(u, v)]

    def incident(self, v: int) -> list[int]:
        """Ids of the edges at v."""
        return [i for i, e in enumerate(self.edges) if v in e]

    def degree(self, v: int) -> int:
        return len(self._out[v])

    def to_networkx(self) -> nx.Graph[int]:
        import networkx as nx
        g: nx.Graph[int] = nx.DiGraph() if self.directed else nx.Graph()
        g.add_nodes_from(range(self.n))
        g.add_edges_from(self.edges)
        g.add_edges_from((v, v) for v in self.loops)
        return g

    @cached_property
    def automorphisms(self) -> list[tuple[int, ...]]:
        """All automorphisms as vertex permutations (loops preserved); heaps: not enumerated here."""
        if self.kind == "heaps":
            return [tuple(range(self.n))]
        return sorted(self._automorphism_iter())

    def automorphisms_at_most(self, limit: int) -> list[tuple[int, ...]] | None:
        """``automorphisms`` if there are at most ``limit`` of them, else None, found without
        listing a larger group (K_9 has 362,880).

        >>> Structure.graph(range(9), [(u, v) for u in range(9) for v in range(u)]).automorphisms_at_most(256) is None
        True
        """
        if self.kind == "heaps" or "automorphisms" in self.__dict__:
            return self.automorphisms if len(self.automorphisms) <= limit else None
        found = list(itertools.islice(self._automorphism_iter(), limit + 1))
        if len(found) > limit:
            return None
        self.__dict__["automorphisms"] = sorted(found)
        return self.automorphisms

    @property
    def every_permutation(self) -> bool:
        """Whether every vertex permutation is an automorphism, seen from the edges alone: an
        undirected graph, complete or edgeless, with a loop at every vertex or at none.

        >>> Structure.graph(range(4), [(u, v) for u in range(4) for v in range(u)]).every_permutation
        True
        """
        full = self.n * (self.n - 1) // 2
        return (self.kind == "graph" and not self.directed and len(self.edges) in (0, full)
                and len(self.loops) in (0, self.n))

    def stabiliser_at_most(self, limit: int) -> list[tuple[int, ...]]:
        """A subgroup of the automorphisms with at most ``limit`` elements, sorted (the identity
        first): those fixing the first k vertices of the backtracking order, for the least such k
        (the whole group when it is small enough; k found by bisection, each try listing at most
        ``limit + 1`` automorphisms).

        >>> k33 = Structure.graph(range(6), [(u, v) for u in range(3) for v in range(3, 6)])
        >>> len(k33.automorphisms), len(k33.stabiliser_at_most(20)), len(k33.stabiliser_at_most(72))
        (72, 12, 72)
        """
        def fixing(k: int) -> list[tuple[int, ...]] | None:
            found = list(itertools.islice(self._backtrack(k), limit + 1))
            return found if len(found) <= limit else None
        if self.kind == "heaps":
            return [tuple(range(self.n))]
        best = fixing(0)
        if best is not None:
            return sorted(best)
        lo, hi, best = 0, self.n, [tuple(range(self.n))]        # fixing every vertex: the identity
        while hi - lo > 1:
            mid = (lo + hi) // 2
            got = fixing(mid)
            if got is None:
                lo = mid
            else:
                hi, best = mid, got
        return sorted(best)

    def _automorphism_iter(self) -> Iterator[tuple[int, ...]]:
        """Every automorphism once, by :meth:`_backtrack` at every size (measured against
        networkx's VF2 matcher, which it replaced beyond 12 vertices: 3 to 40 times faster on
        paths, cycles, wheels, hypercubes and their levels, complete and bipartite graphs, random
        regular graphs and strongly regular ones; ``benchmarks/automorphisms.py``)."""
        return self._backtrack()

    def _backtrack(self, fix: int = 0) -> Iterator[tuple[int, ...]]:
        """Every automorphism once, by backtracking: vertices taken in breadth-first order
        (so each after the first of its component has a placed neighbour, whose image's
        neighbours are the only candidates), each image checked against every placed vertex
        for arcs both ways (read from the neighbours of both ends: :func:`_arcs_kept`) and for
        its colour (in/out degrees and loop, refined by the colours of the neighbours until
        stable). ``fix``: only the automorphisms fixing the first ``fix``
        vertices of that order (a pointwise stabiliser: a subgroup)."""
        n = self.n
        out = [set(x) for x in self._out]
        inn = [set(x) for x in self._in]
        # a colour per vertex: a tuple at first, then the rank of its refined colour (only compared and hashed)
        sig: list[Any] = [(len(out[v]), len(inn[v]), v in self.loops) for v in range(n)]
        while True:     # colour refinement: an automorphism keeps each vertex's final colour
            refined = [(sig[v], tuple(sorted(sig[w] for w in out[v])), tuple(sorted(sig[w] for w in inn[v])))
                       for v in range(n)]
            names = {c: i for i, c in enumerate(sorted(set(refined)))}
            new = [names[c] for c in refined]
            if len(names) == len(set(sig)):
                break
            sig = new
        order: list[int] = []
        anchor: list[int] = []          # a placed neighbour of order[k], or -1
        seen: set[int] = set()
        for r in sorted(range(n), key=lambda v: (-len(out[v]) - len(inn[v]), v)):
            if r in seen:
                continue
            seen.add(r)
            order.append(r)
            anchor.append(-1)
            k = len(order) - 1
            while k < len(order):
                v = order[k]
                for w in sorted(out[v] | inn[v]):
                    if w not in seen:
                        seen.add(w)
                        order.append(w)
                        anchor.append(v)
                k += 1
        image = [-1] * n
        pre = [-1] * n                  # pre[u]: the placed vertex whose image is u, or -1 (u unused)
        everything = range(n)

        def extend(k: int) -> Iterator[tuple[int, ...]]:
            if k == n:
                yield tuple(image)
                return
            v, a = order[k], anchor[k]
            cands = (v,) if k < fix else everything if a < 0 else sorted(out[image[a]] | inn[image[a]])
            for u in cands:
                if pre[u] >= 0 or sig[u] != sig[v] or not _arcs_kept(out, inn, image, pre, v, u):
                    continue
                image[v], pre[u] = u, v
                yield from extend(k + 1)
                image[v], pre[u] = -1, -1

        return extend(0)

    # Identity is everything a rule may read: the vertex names too (a rule may read coordinates
    # from them), so that two structures equal up to names never share a memo table.
    def __hash__(self) -> int:
        h = self.__dict__.get("_hash")
        if h is None:   # computed once: structures key every memo table
            h = hash((self.kind, self.n, tuple(self.edges), self.loops, _names_key(self.names)))
            object.__setattr__(self, "_hash", h)
        return h

    def __eq__(self, other: object) -> bool:
        return self is other or (isinstance(other, Structure) and (self.kind, self.n, self.edges, self.loops)
                == (other.kind, other.n, other.edges, other.loops)
                and _names_key(self.names) == _names_key(other.names))


def _arcs_kept(out: list[set[int]], inn: list[set[int]], image: list[int], pre: list[int], v: int, u: int) -> bool:
    """Whether placing v at u (in :meth:`Structure._backtrack`: ``image[w]`` the image of a
    placed vertex w, else -1; ``pre[x]`` the placed vertex whose image is x, else -1) keeps
    the arcs both ways between v and every placed vertex w (w -> v an arc exactly when
    image[w] -> u is, and v -> w exactly when u -> image[w]), read from the neighbours of v
    and of u only: a placed out-neighbour of v must go to an out-neighbour of u, and an
    out-neighbour of u that is a placed vertex's image must come from an out-neighbour of v
    (the same for in-neighbours). Neither v nor u is placed yet: a loop is left to the
    colours.

    >>> out = inn = [{1}, {0}, set()]             # the edge 0-1 and the vertex 2; 0 placed at 0
    >>> _arcs_kept(out, inn, [0, -1, -1], [0, -1, -1], 1, 1), _arcs_kept(out, inn, [0, -1, -1], [0, -1, -1], 1, 2)
    (True, False)
    """
    for at_v, at_u in ((out[v], out[u]), (inn[v], inn[u])):      # out-neighbours, then in-neighbours
        for w in at_v:
            x = image[w]
            if x >= 0 and x not in at_u:
                return False
        for x in at_u:
            w = pre[x]
            if w >= 0 and w not in at_v:
                return False
    return True

def _names_key(names: Iterable[Hashable]) -> tuple[tuple[str, Hashable], ...]:
    """Names compared by type and value (the vertex 1 and the vertex "1" differ)."""
    return tuple((type(v).__name__, v) for v in names)


def _sort_key(v: Hashable) -> tuple[int, int, str]:
    return (0, v, "") if isinstance(v, int) else (1, 0, str(v))
