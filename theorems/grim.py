"""grim: R. Adams, J. Dixon, J. Elder, J. Peabody, O. Vega, K. Willis, *Combinatorial analysis of a
subtraction game on graphs*, Int. J. Combinatorics 2016 (Grim, the vertex deletion game).

How the claims are checked:

- A grim position is the set of vertices still alive. A claim about a graph is checked at its
  starting position: the bound ``alive=start(...)`` gives every vertex with a neighbour the value 1
  (isolated vertices are deleted before play). The bound also caps the size of the structures swept,
  so one family serves both profiles (quick: the smaller cap).
- Claims comparing two positions (weighted grim against grim on the blow-up, Thm 8; grim on P_n
  against octal 0.6, Thm 23; C_n against P_{n-1}, Cor 24; W_n against P_{n-2}, Cor 26) have a
  statement computed in Python at each structure: the other position solved by ``grundy.solve``
  under its own game's rule. The check compares the two solved values, as the paper does. (The
  paths P_m of Cor 24 and Cor 26 are solved as positions of one longer path, ``path_position``:
  grim writes them as P_m itself, and one table holds them all.)
- The seed text lost most formulas. Where a statement had to be reconstructed, the comment says so
  and gives the evidence (the proof's words, the tabulation). A claim whose reading fails is
  recorded ``refuted`` with its minimal witness and a ``finding``: an error of the paper (the
  evident correction is its own claim, "<id>-corrected"), or a hypothesis lost in extraction
  (then the paper's id carries the restored statement, and the reading without it is kept under
  another id, refuted).

``python theorems/grim.py`` prints the exact winning probability polynomials of Section 6.
"""
from __future__ import annotations

import functools
import itertools
import math
from typing import Callable, Iterable

import networkx as nx

from grundy import solve
from grundy.spec import Position, Structure, ite, make_position, maximum, minimum
from grundy.verify import (
    Claim,
    Family,
    Finding,
    Lazy,
    Source,
    all_graphs,
    arcs_of,
    at_least,
    complete,
    complete_bipartite,
    complete_multipartite,
    cycles,
    hypercubes,
    paths,
    runs_of,
    wheels,
)
from grundy.verify.families import geng, path_outcome

PAPER = "grim"


# ------------------------------------------------------------------ helpers
def start(limit: int | None = None, keep: Callable[[Structure], bool] | None = None, what: str = ""):
    """The bound of grim's field ``alive``: the starting position (every vertex with a neighbour
    alive) of each structure with at most ``limit`` vertices (and ``keep(g)``); none elsewhere."""
    def alive(g: Structure, v: int) -> list[int]:
        if (limit is not None and g.n > limit) or (keep is not None and not keep(g)):
            return []
        return [int(g.degree(v) > 0)]
    alive.__doc__ = "the starting position" + (f", n <= {limit}" if limit is not None else "") + what
    return alive


def graph_json(g: Structure, game: str = "grim", weights: Iterable[int] | None = None) -> dict:
    """The JSON position of the whole graph ``g`` (with vertex weights for weighted grim)."""
    nodes = list(range(g.n)) if weights is None else [[v, w] for v, w in enumerate(weights)]
    return {"game": game, "nodes": nodes, "edges": [[u, v] for u, v in g.edges]}


def path_json(n: int) -> dict:
    return {"game": "grim", "nodes": list(range(n)), "edges": [[i, i + 1] for i in range(n - 1)]}


HOST = 32   # the paths P_m of the statements are positions of one longer path (path_position)


@functools.lru_cache(maxsize=None)
def _host_path(h: int) -> Structure:
    return Structure.graph(range(h), [(i, i + 1) for i in range(h - 1)])


def path_position(m: int) -> Position:
    """The position P_m (m >= 2) on the path P_H, H the least multiple of ``HOST`` at least m:
    its first m vertices alive, the others deleted. Grim's moves read only the alive vertices
    and the edges between them (a deleted vertex is out of the game), and the game writes this
    position as P_m itself (checked here: the same JSON as ``path_json(m)``), so ``solve`` gives
    it the value of P_m; the statements that ask for many P_m then ask one structure (one
    solver table holding every run, its premises proved once) instead of one per m.

    >>> path_position(5).to_json() == path_json(5)
    True
    """
    if m < 2:
        raise ValueError("P_m for m >= 2 (P_1's vertex is deleted before play)")
    h = HOST * -(-m // HOST)
    pos = make_position("grim", _host_path(h), {"alive": [v < m for v in range(h)]})
    if pos.to_json() != path_json(m):
        raise AssertionError(f"P_{m} on P_{h} is written {pos.to_json()}, not as P_{m}")
    return pos


def outcome(obj: dict | Position) -> str:
    return solve(obj, outcome_only=True)["outcome"]


def grundy_value(obj: dict | Position) -> int:
    return solve(obj)["grundy"]


def lazy(scope: str) -> Callable[[Callable[[], Iterable[tuple]]], Lazy]:
    """Decorator: the function builds the family's items."""
    return lambda make: Lazy(make, scope)


def family(items: Iterable[tuple[str, Structure]], scope: str) -> Family:
    return Family(list(items), scope)


def nx_item(name: str, h: nx.Graph) -> tuple[str, Structure]:
    h = nx.convert_node_labels_to_integers(h)
    return name, Structure.graph(range(h.number_of_nodes()), h.edges)


def parts(g: Structure) -> list[int]:
    """The part sizes of a complete multipartite graph (the classes of non-adjacency), sorted."""
    comp = nx.complement(g.to_networkx())
    return sorted(len(c) for c in nx.connected_components(comp))


def colour_classes(g: Structure) -> list[int]:
    """The colour of each vertex after colour refinement (start from the degrees; split by the
    multiset of the neighbours' colours until stable). Every automorphism maps each vertex to
    one of its own colour.

    >>> colour_classes(paths(4).items()[0][1])
    [0, 1, 1, 0]
    """
    adj = [g.neighbours(v) for v in range(g.n)]
    colour = [len(a) for a in adj]
    count = len(set(colour))
    while True:
        keys = [(colour[v], tuple(sorted(colour[w] for w in adj[v]))) for v in range(g.n)]
        index = {k: i for i, k in enumerate(sorted(set(keys)))}
        colour = [index[k] for k in keys]
        if len(index) == count:
            return colour
        count = len(index)


def involution(g: Structure, fixed: int) -> tuple[int, ...] | None:
    """An automorphism s of order 2 with exactly ``fixed`` fixed points and v not adjacent to s(v)
    for every other v (the hypothesis of Theorem 15 with fixed = 0, of Corollary 16 with 1).
    s keeps each colour class of :func:`colour_classes`, so a class of odd size holds a fixed
    point: more than ``fixed`` of them, and there is none; s(v) is sought in v's class only.

    >>> involution(cycles(6).items()[0][1], 0)
    (3, 4, 5, 0, 1, 2)
    >>> involution(paths(4).items()[0][1], 0) is None     # 1 and 2 would swap, but are adjacent
    True
    """
    n = g.n
    if (n - fixed) % 2:
        return None                       # the other vertices are paired: n - fixed is even
    colour = colour_classes(g)
    sizes: dict[int, int] = {}
    for c in colour:
        sizes[c] = sizes.get(c, 0) + 1
    if sum(k % 2 for k in sizes.values()) > fixed:
        return None
    adj = [set(g.neighbours(v)) for v in range(n)]
    s = [-1] * n
    done: list[int] = []                  # the vertices paired so far

    def consistent(v: int, u: int) -> bool:                  # s(v) = u, s(u) = v, with the pairs so far
        for w in done:
            if (w in adj[v]) != (s[w] in adj[u]) or (w in adj[u]) != (s[w] in adj[v]):
                return False
        return True

    def search(left: int) -> bool:
        v = next((x for x in range(n) if s[x] < 0), None)
        if v is None:
            return left == 0 and any(s[x] != x for x in range(n))
        for u in ([v] if left > 0 else []) + [u for u in range(v + 1, n) if s[u] < 0]:
            if u != v and (u in adj[v] or colour[u] != colour[v]):
                continue
            if consistent(v, u):
                s[v], s[u] = u, v
                done.extend((v, u) if u != v else (v,))
                if search(left - (u == v)):
                    return True
                del done[-(1 + (u != v)):]
                s[v] = s[u] = -1
        return False

    return tuple(s) if search(fixed) else None


def has_isolated(g: Structure) -> bool:
    return any(g.degree(v) == 0 for v in range(g.n))


def hyp15(g: Structure) -> bool:
    """Theorem 15's hypothesis: an involution without fixed points, never mapping v to a neighbour."""
    return involution(g, 0) is not None


def hyp16(g: Structure) -> bool:
    """Corollary 16's: no isolated vertex; an involution fixing exactly one vertex, never mapping v
    to a neighbour."""
    return not has_isolated(g) and involution(g, 1) is not None


@functools.cache
def atlas_items() -> list[tuple[str, Structure]]:
    return all_graphs(7).items()                          # every graph on 1..7 vertices (1252)


def atlas(max_n: int = 7, min_n: int = 1, where: Callable[[Structure], bool] = lambda g: True
          ) -> list[tuple[str, Structure]]:
    return [(name, g) for name, g in atlas_items() if min_n <= g.n <= max_n and where(g)]


def connected(g: Structure) -> bool:
    return g.n > 0 and nx.is_connected(g.to_networkx())


def union2(items: Iterable[tuple[str, Structure]]) -> list[tuple[str, Structure]]:
    """G + G (two disjoint copies) for each G."""
    return [nx_item(f"2({name})", nx.disjoint_union(g.to_networkx(), g.to_networkx())) for name, g in items]


def products(gs: Iterable[tuple[str, Structure]], hs: Iterable[tuple[str, Structure]]) -> list:
    """The Cartesian products G x H."""
    hs = list(hs)
    return [nx_item(f"{a} x {b}", nx.cartesian_product(g.to_networkx(), h.to_networkx()))
            for a, g in gs for b, h in hs]


# ------------------------------------------------------------------ §2 weighted graphs
def blowup(g: Structure, w: tuple[int, ...]) -> Structure:
    """Every vertex v of weight w(v) replaced by w(v) independent copies with v's neighbours."""
    copies = [(v, i) for v in range(g.n) for i in range(w[v])]
    index = {c: j for j, c in enumerate(copies)}
    edges = [(index[(u, i)], index[(v, j)]) for u, v in g.edges for i in range(w[u]) for j in range(w[v])]
    return Structure.graph(range(len(copies)), edges)


def blowups(max_w: dict[int, int]) -> Lazy:
    """Grim on the blow-ups of every graph on n vertices (n in max_w) without isolated vertices,
    with weights 1..max_w[n] (one weighting per orbit of the automorphisms); each structure keeps
    its weighted graph (G, w)."""
    @lazy("blow-ups of the graphs without isolated vertices, weights <= "
          + ", ".join(f"{w} on {n}" for n, w in max_w.items()) + " vertices")
    def fam():
        for name, g in atlas(max(max_w), min(max_w), lambda g: not has_isolated(g)):
            seen: set[tuple[int, ...]] = set()
            for w in itertools.product(range(1, max_w[g.n] + 1), repeat=g.n):
                if w not in seen:
                    seen.update(tuple(w[a[v]] for v in range(g.n)) for a in g.automorphisms)
                    yield f"{name} w={''.join(map(str, w))}", blowup(g, w), (g, w)
    return fam


THM8 = blowups({2: 4, 3: 4, 4: 3, 5: 2})


def weighted_p(g, s):
    # Theorem 8: weighted grim on (G, w) has the outcome of grim on the blow-up of G.
    G, w = THM8.table[g]
    return outcome(graph_json(G, "weighted-grim", w)) == "P"


# ------------------------------------------------------------------ §3 complete multipartite
def lemma9_p(g, s):
    # Lemma 9: K_n (n >= 1) is N iff n is even.
    return g.n % 2 == 1


def thm10_p(g, s):
    # Theorem 10: (1) K_{1,n} is N; (2) m, n >= 2: K_{m,n} is N iff m + n is odd.
    m, n = parts(g)
    return m >= 2 and (m + n) % 2 == 0


def lemma11_p(g, s):
    # Lemma 11, RECONSTRUCTED (the seed lost every formula; "_" below is a lost symbol, brackets
    # are our reading). K_{1,m,n}, 1 <= m <= n:
    #   (1) m = 1: N iff n is even;  (2) m = 2: N;  (3) m, n >= 3: N iff m + n is even.
    # The proof: "the case _ is immediate" [K_{1,1,1} = K_3, P]; "we will prove the case _ by
    # induction on _" [m = 1, on n: the followers are K_{1,n}, N, and K_{1,1,n-1}]; "If _ is even
    # then Player 1 leaves _ as a follower, which by Theorem 10 is won by Player 1 [K_{2,n}, P].
    # If _ is odd then Player 1 leaves _" [K_{1,1,n}, P by (1)]: m = 2 is always N; "Finally,
    # assume _. Since none of the players would like to leave _ [K_{m,n}] ... the winners of these
    # graphs will alternate depending on _ being even or odd" [m + n]: case (3). The tabulation
    # shows exactly these three cases.
    _, m, n = parts(g)
    if m == 1:
        return n % 2 == 1
    if m == 2:
        return False
    return (m + n) % 2 == 1


def thm12_p(g, s):
    # Theorem 12: K_{n1..nk}, k >= 2, every n_i >= 2: P iff N = n1 + ... + nk is even.
    return g.n % 2 == 0


def lemma13_p(g, s):
    # Lemma 13, our reading. The seed: "Let _, where _, _, and _, for all _. Then, _ is a _
    # position if and only if _ is even and _, for all _." Read: G = K_{1,n2,...,nk}, k >= 3,
    # N = 1 + n2 + ... + nk, n_i >= 2 for all i; G is P iff N is even and n_i >= 3 for all i.
    # The lost condition is n_i >= 3 by the proof: with N even, Player 1 leaves K_{1,n2-1,...};
    # "If _ [every part still >= 2] then by the previous case we would get that Player 2 wins";
    # "If we allow _ [a part of size 2] ... we get K_{1,1,n3,...,nk} ... Player 1 leaves _ as a
    # follower, and thus Player 1 wins". For k = 3 it agrees with Lemma 11 (2)-(3).
    _, *big = parts(g)
    return g.n % 2 == 0 and min(big) >= 3


def lemma13_corrected_p(g, s):
    # Lemma 13 corrected: P iff N is even and at least two of n2..nk are >= 3 (the same for k = 3).
    # The proof's last step fails: K_{1,1,n3,...,nk} need not be P (K_{1,1,3,4} is N: delete a
    # singleton, leaving K_{1,3,4}, P by Lemma 11). Why the P side holds (induction on N): with N
    # even and two parts >= 3, deleting the singleton leaves N - 1 odd vertices in parts >= 2, N by
    # Thm 12; deleting from a part >= 3 leaves N - 1 odd, N by the case N odd (delete the
    # singleton); deleting from a part of size 2 leaves K_{1,1,rest}, where the mover deletes a
    # singleton and leaves K_{1,rest}, P by induction. The N side is the sweep's.
    _, *big = parts(g)
    return g.n % 2 == 0 and sum(1 for b in big if b >= 3) >= 2


def weighted_k2_p(g, s):
    # Theorems 8 and 10 together: weighted grim on K_2 with weights (a, b) is grim on K_{a,b}
    # (a weight 0 is a deleted vertex: then nothing is left to play). P iff a = 0 or b = 0 or
    # (a, b >= 2 and a + b even). Proved by Z3 for all weights: Theorem 10 for every m, n, on the
    # weighted side of Theorem 8.
    a, b = s.weight[0], s.weight[1]
    return (a == 0) | (b == 0) | ((a >= 2) & (b >= 2) & ((a + b) % 2 == 0))


def weighted_k3_p(g, s):
    # Theorems 8, 10, 12 and Lemma 11 together: weighted grim on K_3 with weights (a, b, c) is grim
    # on K_{a,b,c}. With x <= y <= z the sorted weights: x = 0, Theorem 10 on K_{y,z}; x = 1,
    # Lemma 11 (reconstructed) on K_{1,y,z}; x >= 2, Theorem 12 (P iff a + b + c is even).
    # These cover every position, so Z3 proves the whole statement for all weights.
    w = [s.weight[v] for v in range(3)]
    x, z = minimum(w), maximum(w)
    y = w[0] + w[1] + w[2] - x - z
    two = (y == 0) | ((y >= 2) & ((y + z) % 2 == 0))
    one = ite(y == 1, z % 2 == 1, (y >= 3) & ((y + z) % 2 == 1))
    return ite(x == 0, two, ite(x == 1, one, (w[0] + w[1] + w[2]) % 2 == 0))


def kparts(ps: tuple[int, ...]) -> tuple[str, Structure]:
    """The complete multipartite graph with parts of the given sizes (vertices numbered part by part)."""
    part = [i for i, p in enumerate(ps) for _ in range(p)]
    edges = [(u, v) for u in range(len(part)) for v in range(u + 1, len(part)) if part[u] != part[v]]
    return "K_{" + ",".join(map(str, ps)) + "}", Structure.graph(range(len(part)), edges)


def partitions(k: int, lo: int, total: int) -> Iterable[tuple[int, ...]]:
    """Non-decreasing k-tuples of integers >= lo with sum <= total.

    >>> list(partitions(2, 1, 4))
    [(1, 1), (1, 2), (1, 3), (2, 2)]
    """
    if k == 0:
        yield ()
        return
    for first in range(lo, total // k + 1):
        for rest in partitions(k - 1, first, total - first):
            yield (first,) + rest


def multipartite(ks: Iterable[int], lo: int, max_total: int, singleton: bool) -> Family:
    """Complete multipartite graphs with k parts (k in ks) of sizes >= lo, plus a singleton part
    first when ``singleton``, total <= max_total."""
    ks = list(ks)
    items = [kparts(((1,) if singleton else ()) + ps)
             for k in ks for ps in partitions(k, lo, max_total - singleton)]
    return family(items, f"K_{{{'1,' if singleton else ''}n_i...}}: {min(ks) + singleton}.."
                         f"{max(ks) + singleton} parts, n_i >= {lo}, n <= {max_total}")


def bipartite(max_total: int) -> Family:
    return family([kparts(ps) for ps in partitions(2, 1, max_total)],
                  f"K_{{m,n}}, 1 <= m <= n, m + n <= {max_total}")


def tripartite1(max_total: int) -> Family:
    return family([kparts((1,) + ps) for ps in partitions(2, 1, max_total - 1)],
                  f"K_{{1,m,n}}, 1 <= m <= n, 1 + m + n <= {max_total}")


# ------------------------------------------------------------------ §3 for every size (counting)
# On an open family (complete(n=at_least(1)), ...) a statement reads c[i], the number of alive
# vertices of part i, at EVERY position (not only the start): grim there is grim on the complete
# multipartite graph of the alive counts (an alive vertex without an alive neighbour is inert).
# Each is proved for all counts on the game of counts (docs/claims.md, "Claims for every n");
# at the start (every vertex with a neighbour alive) it is the paper's statement.
def lemma9_counts(g, c):
    # Lemma 9 on counts: K_c is P iff c is odd or 0 (K_1's lone vertex is isolated: P).
    return (c[0] % 2 == 1) | (c[0] == 0)


def bipartite_counts(g, c):
    # Theorem 10 on counts: K_{a,b} is P iff a part is empty, or a, b >= 2 with a + b even
    # (a star K_{1,b}, b >= 1, is N: delete the centre).
    a, b = c[0], c[1]
    return (a == 0) | (b == 0) | ((a >= 2) & (b >= 2) & ((a + b) % 2 == 0))


def tripartite_counts(g, c):
    # Theorem 10, Lemma 11 (our reconstruction) and Theorem 12 on the three alive counts, sorted
    # x <= y <= z: x = 0, Theorem 10 on K_{y,z}; x = 1, Lemma 11 on K_{1,y,z}; x >= 2, Theorem 12
    # (P iff x + y + z is even). The same formula as grim/tripartite-weighted, here on grim itself.
    w = [c[0], c[1], c[2]]
    x, z = minimum(w), maximum(w)
    y = w[0] + w[1] + w[2] - x - z
    two = (y == 0) | ((y >= 2) & ((y + z) % 2 == 0))
    one = ite(y == 1, z % 2 == 1, (y >= 3) & ((y + z) % 2 == 1))
    return ite(x == 0, two, ite(x == 1, one, (w[0] + w[1] + w[2]) % 2 == 0))


# ------------------------------------------------------------------ §4 automorphisms
def cone(h: nx.Graph) -> nx.Graph:
    """A new vertex 0 joined to every vertex of h."""
    h = nx.convert_node_labels_to_integers(h, first_label=1)
    h.add_edges_from((0, v) for v in list(h.nodes))
    return h


def checked(hyp: Callable[[Structure], bool], items: Iterable[tuple[str, Structure]]) -> list:
    items = list(items)
    for name, g in items:
        assert hyp(g), f"{name} lacks the hypothesis"
    return items


def thm15_extras():
    """Larger graphs with Theorem 15's involution, checked to have it."""
    return checked(hyp15, cycles(8, 10, 12, 14, 16).items() + hypercubes(3, 4).items()
                   + [nx_item("C_4 x C_4", nx.cartesian_product(nx.cycle_graph(4), nx.cycle_graph(4))),
                      kparts((2, 2, 2, 2)), kparts((4, 4, 4))]
                   + union2(atlas(6, 2, connected)))


def cor16_extras():
    """Larger graphs with Corollary 16's involution, checked to have it."""
    return checked(hyp16, paths(9, 11, 13, 15, 17).items() + wheels(9, 11, 13, 15, 17).items()
                   + [nx_item(f"K_{{1,{n}}}", nx.star_graph(n)) for n in (8, 10, 12, 14, 16)]
                   + [nx_item(f"cone({name})", cone(g.to_networkx()))
                      for name, g in union2(atlas(4, 1, connected))])


EXTRAS15 = "C_8..C_16, Q_3, Q_4, C_4 x C_4, K_{2,2,2,2}, K_{4,4,4}, G + G (G connected, 2..6 vertices)"
EXTRAS16 = "P_9..P_17, W_9..W_17, K_{1,8..16}, cones over G + G (G connected, <= 4 vertices)"


@lazy(f"graphs on 1..7 vertices with Thm 15's involution; {EXTRAS15}")
def THM15():
    yield from atlas(where=hyp15)
    yield from thm15_extras()


@lazy(f"graphs on 1..7 vertices with Cor 16's involution; {EXTRAS16}")
def COR16():
    yield from atlas(where=hyp16)
    yield from cor16_extras()


# --profile full: every graph on <= 9 vertices from nauty's geng (288,266 graphs; 94 have
# Theorem 15's involution, 773 Corollary 16's). nauty's pickg drops first the graphs that cannot
# have the involution, on their automorphism group: Theorem 15's fixes no vertex, so no vertex
# is fixed by every automorphism (max_fixed=0); Corollary 16's is non-trivial and fixes one vertex
# (symmetric, max_fixed=1). hyp15 / hyp16 then decide on the graphs left, as without the filter.
GENG15 = dict(max_fixed=0)
GENG16 = dict(symmetric=True, max_fixed=1)


@lazy(f"every graph on 1..9 vertices (nauty's geng: 288,266) with Thm 15's involution (after nauty's "
      f"pickg drops those with a vertex fixed by every automorphism); {EXTRAS15}")
def THM15_FULL():
    yield from geng(9, where=hyp15, **GENG15).items()
    yield from thm15_extras()


@lazy(f"every graph on 1..9 vertices (nauty's geng: 288,266) with Cor 16's involution (after nauty's "
      f"pickg keeps those with a non-trivial automorphism and at most 1 vertex fixed by every "
      f"automorphism); {EXTRAS16}")
def COR16_FULL():
    yield from geng(9, where=hyp16, **GENG16).items()
    yield from cor16_extras()


def cor17(lo_path: int, lo_wheel: int) -> Lazy:
    """Corollary 17's four families with the outcome claimed (True = P): (1) P_n, odd n >= lo_path,
    N; (2) C_n, even n >= 4, P; (3) W_n, odd n >= lo_wheel, N; (4) G + G, G with an edge, P."""
    @lazy(f"P_n, odd n >= {lo_path}; C_n, even n >= 4; W_n, odd n >= {lo_wheel}; G + G (G on 2..5 "
          f"vertices, an edge)")
    def fam():
        yield from ((name, g, False) for name, g in paths(range(lo_path, 52, 2)).items())
        yield from ((name, g, True) for name, g in cycles(range(4, 52, 2)).items())
        yield from ((name, g, False) for name, g in wheels(range(lo_wheel, 32, 2)).items())
        yield from ((name, g, True) for name, g in union2(atlas(5, 2, lambda g: len(g.edges) > 0)))
    return fam


def not_wheel_above(n: int) -> Callable[[Structure], bool]:
    """Keeps every structure but the wheels (a hub adjacent to all) on more than n vertices."""
    return lambda g: g.n <= n or all(g.degree(v) < g.n - 1 for v in range(g.n))


def cor19(corrected: bool) -> Lazy:
    """G x H with the outcome claimed (True = P): (1) H with Thm 15's involution, P; (2) in our first
    reading, H with Cor 16's, N; corrected: G and H both with Cor 16's, N."""
    scope = ("G x H: G on 1..3 vertices, H on <= 4 vertices with Thm 15's involution (P); "
             + ("G and H on <= 5 vertices, both with Cor 16's (N)" if corrected else
                "G on 1..3 vertices, H on <= 5 vertices with Cor 16's (N)"))

    @lazy(scope)
    def fam():
        small, h15, h16 = atlas(3), atlas(4, 2, hyp15), atlas(5, 3, hyp16)
        yield from ((name, g, True) for name, g in products(small, h15))
        yield from ((name, g, False) for name, g in products(h16 if corrected else small, h16))
    return fam


def claimed(fam: Lazy) -> Callable:
    """The statement read from the family's table (true = P)."""
    return lambda g, s: fam.table[g]


# ------------------------------------------------------------------ §5 paths, cycles, wheels
# The zeros of the Sprague-Grundy sequence of octal 0.6 (Officers) for heaps 0..101, from the
# literature: OEIS A046695 (values for n = 0..101 in its data section). By Theorem 23 these are
# the n with G(P_n) = 0 (P_0, P_1 are empty games).
OFFICERS_ZEROS = {0, 1, 4, 12, 20, 30, 46, 72, 98}


def octal06(g, s):
    # Theorem 23: G(P_n) (grim) = G(n) in octal 0.6, a heap of n.
    return grundy_value({"game": "octal", "code": "0.6", "heaps": [g.n]})


def even_paths_p(g, s):
    # Section 5: "if n <= _, then G(P_n) = 0 only when n = _" (the list was lost in extraction).
    # Reconstructed from the literature: the even zeros of octal 0.6 (OEIS A046695), n <= 101.
    return g.n in OFFICERS_ZEROS


def cor24_value(g, s):
    # Corollary 24: G(C_n) = 1 if G(P_{n-1}) = 0, else 0 (C_n has the single follower P_{n-1}).
    # "In particular C_n is P when n is even": that is G(P_{n-1}) != 0 for odd n - 1 >= 3, i.e.
    # Cor 17 (1), checked there.
    return 1 if grundy_value(path_position(g.n - 1)) == 0 else 0


def cor26_p(g, s):
    # Corollary 26 (our reading): n >= 4 (the rim C_{n-1} is a cycle): W_n is N iff P_{n-2} is N.
    return outcome(path_position(g.n - 2)) == "P"


# ------------------------------------------------------------------ §6 random graphs
def labelled(n: int) -> Family:
    """Every labelled graph on the vertices 0..n-1 (the empty graph included)."""
    pairs = list(itertools.combinations(range(n), 2))
    items = [("{" + ",".join(f"{u}{v}" for u, v in es) + "}", Structure.graph(range(n), es))
             for k in range(len(pairs) + 1) for es in itertools.combinations(pairs, k)]
    return family(items, f"the {len(items)} labelled graphs on {n} vertices")


def bernstein(poly: list[int], m: int) -> list[int]:
    """The coefficients c_e with sum_e c_e p^e (1-p)^(m-e) = sum_i poly[i] p^i.

    >>> bernstein([0, 3, -3], 3)                     # 3p(1-p)
    [0, 3, 3, 0]
    """
    return [sum(a * math.comb(m - i, e - i) for i, a in enumerate(poly) if i <= e) for e in range(m + 1)]


THREE_VERTICES = [0, 3, -3]                             # P(P1 wins G(3, p)) = 3p(1 - p) = 3p - 3p^2


def three_vertices_p(g, s):
    # Section 6: "Player 1 would win all the three graphs with one edge and all the three graphs
    # with 2 edges and lose the one complete graph and the empty graph", so P(P1 wins G(3, p)) =
    # 3p(1-p). The statement is derived from the polynomial: in the basis p^e (1-p)^(3-e) its
    # coefficients count the labelled graphs with e edges that P1 wins; each count is 0 or all
    # C(3, e) graphs, so the polynomial says which graphs P1 wins.
    c = bernstein(THREE_VERTICES, 3)[len(g.edges)]
    if c not in (0, math.comb(3, len(g.edges))):
        raise ValueError("the polynomial does not decide every graph")
    return c == 0


def thm30_claims_reading_p(g, s):
    # Theorem 30 read with Player 1 (unfaithful, see thm30_p): n odd => P(P1 wins G(n, p)) > 1/2 for all p > some p0 < 1.
    # P(P1 wins G(n, p)) is a polynomial in p whose value at p = 1 is 1 if K_n is N, else 0; by
    # continuity the reading holds for n iff K_n is N. So it is checked as "K_n is N".
    return False


def thm30_p(g, s):
    # Theorem 30, RESTORED (the player was lost in extraction): n odd => there is p0 < 1 with P(P2 wins G(n, p)) > 1/2 for all
    # p > p0. The proof: "We will get a lower bound for [P2's probability] ... by Remark 28 ...
    # We set this bound equal to 0.5 and solve for p" and "as the number of vertices gets large,
    # the bound for the value of p0 ... approaches 1 and thus, overall, Player 1 has increasingly
    # better chances": the bound is p^C(n,2), the probability of K_n, which is P for odd n
    # (Lemma 9); p0 = 2^(-1/C(n,2)). So the theorem holds for n iff K_n is P.
    return True


def winning_polynomial(n: int) -> list[int]:
    """P(P1 wins G(n, p)) as integer coefficients of 1, p, p^2, ...: the labelled graphs P1 wins,
    each weighted p^|E| (1-p)^(C(n,2)-|E|) (Definition 29); every graph of the atlas stands for its
    n!/|Aut| labellings.

    >>> winning_polynomial(3)
    [0, 3, -3]
    """
    m = math.comb(n, 2)
    won = [0] * (m + 1)                               # labelled graphs P1 wins, by number of edges
    for _, g in atlas(n, n):
        if outcome(graph_json(g)) == "N":
            won[len(g.edges)] += math.factorial(n) // len(g.automorphisms)
    poly = [0] * (m + 1)
    for e, c in enumerate(won):                       # c p^e (1-p)^(m-e), expanded
        for j in range(m - e + 1):
            poly[e + j] += c * math.comb(m - e, j) * (-1) ** j
    while len(poly) > 1 and poly[-1] == 0:
        poly.pop()
    return poly


def halves(poly: list[int], steps: int = 100_000) -> list[float]:
    """The p in (0, 1) where the polynomial crosses 1/2 (to about 1e-9)."""
    f = lambda p: sum(c * p**i for i, c in enumerate(poly)) - 0.5  # noqa: E731
    out = []
    for i in range(steps):
        a, b = i / steps, (i + 1) / steps
        if f(a) * f(b) < 0 or (f(b) == 0 and 0 < b < 1):
            for _ in range(40):
                mid = (a + b) / 2
                a, b = (mid, b) if f(a) * f(mid) > 0 else (a, mid)
            out.append(round((a + b) / 2, 6))
    return out


# ------------------------------------------------------------------ the claims
def src(number: str, section: str) -> Source:
    return Source(PAPER, number, section)


COR17, COR17C = cor17(1, 3), cor17(3, 5)
COR19, COR19C = cor19(False), cor19(True)

CLAIMS = [
    # §2 ------------------------------------------------------------------------------------------
    Claim("grim/thm8",
          text=("Weighted grim on a graph G (a weight k >= 1 per vertex) has the outcome of grim on the "
                "blow-up of G, where each vertex of weight k becomes k independent copies with the same "
                "neighbours."),
          source=src("Theorem 8", "§2"), game="grim", kind="char",
          family=THM8, statement=weighted_p,
          bounds={"alive": start(7)}, full={"alive": start(12)},
          note="grim on the blow-up against weighted-grim on (G, w), both solved"),
    # §3 ------------------------------------------------------------------------------------------
    Claim("grim/lemma9",
          text="Grim on the complete graph K_n: the first player wins iff n is even.",
          source=src("Lemma 9", "§3"), game="grim", kind="char",
          family=family(complete(range(1, 17)).items(), "K_1..K_16"), statement=lemma9_p,
          bounds={"alive": start(12)}, full={"alive": start(16)}),
    Claim("grim/thm10",
          text=("Grim on the star K_{1,n}: the first player wins; on K_{m,n} with m, n >= 2: the first "
                "player wins iff m + n is odd."),
          reading="The formulas were lost in extraction; read from the proof.",
          source=src("Theorem 10", "§3"), game="grim", kind="char",
          family=bipartite(18), statement=thm10_p,
          bounds={"alive": start(12)}, full={"alive": start(18)}),
    Claim("grim/lemma11",
          text=("Grim on the complete tripartite graph K_{1,m,n}, 1 <= m <= n: (1) m = 1: the first player "
                "wins iff n is even; (2) m = 2: the first player wins; (3) m, n >= 3: the first player wins "
                "iff m + n is even."),
          reading=("Every formula of the statement was lost in extraction; reconstructed from the proof's "
                   "cases (K_{1,1,1} = K_3 immediate, induction on n for m = 1, the alternation of winners "
                   "for m, n >= 3)."),
          source=src("Lemma 11", "§3"), game="grim", kind="char",
          family=tripartite1(18), statement=lemma11_p,
          bounds={"alive": start(12)}, full={"alive": start(18)},
          note="statement reconstructed from the proof"),
    Claim("grim/thm12",
          text=("Grim on a complete multipartite graph whose parts all have at least 2 vertices: the second "
                "player wins iff the number of vertices is even."),
          reading="The formulas were lost in extraction; read from the proof's two cases.",
          source=src("Theorem 12", "§3"), game="grim", kind="char",
          family=multipartite(range(2, 8), 2, 14, False), statement=thm12_p,
          bounds={"alive": start(12)}, full={"alive": start(14)}),
    # For every size, by counting (docs/claims.md, "Claims for every n"): the statement holds at
    # every position of every member (c[i] alive vertices in part i), proved on the game of counts.
    Claim("grim/lemma9-every-n",
          text=("Lemma 9 for every n: grim on K_n (n >= 1) is N iff n is even; at every position, with c "
                "vertices alive, it is P iff c is odd or 0."),
          source=src("Lemma 9, every n", "§3"), game="grim", kind="char",
          family=complete(n=at_least(1), first=10, first_full=14), statement=lemma9_counts,
          expect="proved"),
    Claim("grim/thm10-every-n",
          text=("Theorem 10 for every m, n >= 1: grim on K_{m,n} with a and b vertices alive in the two parts "
                "is P iff a = 0, b = 0, or a, b >= 2 with a + b even (so K_{1,n} is N, and K_{m,n}, m, n >= 2, "
                "is N iff m + n is odd)."),
          source=src("Theorem 10, every m, n", "§3"), game="grim", kind="char",
          family=complete_bipartite(m=at_least(1), n=at_least(1), first=10, first_full=14),
          statement=bipartite_counts, expect="proved"),
    Claim("grim/lemma11-every-n",
          text=("Lemma 11 (reconstructed) for every 1 <= m <= n: grim on K_{1,m,n}, at every position, has the "
                "outcome Theorems 10, 12 and Lemma 11 give to the alive counts."),
          source=src("Lemma 11, every m, n", "§3"), game="grim", kind="char",
          family=complete_multipartite(k=2, size=at_least(1), centre=True, first=8, first_full=13),
          statement=tripartite_counts, expect="proved"),
    Claim("grim/thm12-every-n",
          text=("Theorem 12 for three parts of every size >= 2: grim on K_{l,m,n} is P iff l + m + n is even; "
                "at every position, the outcome Theorems 10, 12 and Lemma 11 give to the alive counts."),
          reading=("Counting reaches a fixed number of parts: three here (two parts is Theorem 10 above). "
                   "For any number of parts the claim stays bounded (grim/thm12)."),
          source=src("Theorem 12, three parts, every size", "§3"), game="grim", kind="char",
          family=complete_multipartite(k=3, size=at_least(2), first=8, first_full=13),
          statement=tripartite_counts, expect="proved"),
    Claim("grim/lemma13-corrected-every-n",
          text=("Lemma 13 corrected, for k = 3 and every n_2, n_3 >= 2: grim on K_{1,n_2,n_3} is P iff the "
                "number of vertices is even and n_2, n_3 >= 3; at every position, the outcome Theorems 10, 12 "
                "and Lemma 11 give to the alive counts."),
          reading=("Counting reaches a fixed number of parts: k = 3 here, where Lemma 13 corrected is Lemma 11"
                   " (2)-(3). For k >= 4 the claim stays bounded (grim/lemma13-corrected)."),
          source=src("Lemma 13 corrected, k = 3, every size", "§3"), game="grim", kind="char",
          family=complete_multipartite(k=2, size=at_least(2), centre=True, first=8, first_full=13),
          statement=tripartite_counts, expect="proved"),
    # Theorems 10 and 12, Lemma 11 for every size, on the weighted side of Theorem 8 (an addition:
    # the proof holds for all weights of weighted grim on K_2, K_3; for grim on K_{m,n}, K_{l,m,n}
    # it rests on Theorem 8, which is verified above within bounds).
    Claim("grim/thm10-weighted",
          text=("Theorems 8 and 10 together, for every size: weighted grim on K_2 with weights (a, b), that "
                "is grim on K_{a,b}, is P iff a = 0, b = 0, or a, b >= 2 with a + b even."),
          source=src("Theorems 8 and 10, all sizes", "§2-3"),
          game="weighted-grim", kind="char", family=family(complete(2).items(), "weighted K_2"),
          statement=weighted_k2_p, bounds={"weight": 12}, full={"weight": 40},
          methods=["explicit", "smt"], expect="proved"),
    Claim("grim/tripartite-weighted",
          text=("Theorems 8, 10, 12 and Lemma 11 together, for every size: weighted grim on K_3 with weights"
                " (a, b, c), that is grim on K_{a,b,c}, has the outcome those results give."),
          source=src("Theorems 8, 10, 12 and Lemma 11, all sizes", "§2-3"),
          game="weighted-grim", kind="char", family=family(complete(3).items(), "weighted K_3"),
          statement=weighted_k3_p, bounds={"weight": 8}, full={"weight": 16},
          methods=["explicit", "smt"], expect="proved"),
    # Refuted. Witness (grundy verify --json): K_{1,2,3,4}, {"game": "grim", "nodes": [0..9],
    # "edges": the 35 edges between different parts of {0}, {1,2}, {3,4,5}, {6,7,8,9}}: claimed N,
    # actually P (confirmed by a naive recursion outside grundy). Every move leaves an N position:
    # deleting from the part of size 2 leaves K_{1,1,3,4}, where the mover deletes a singleton and
    # leaves K_{1,3,4}, P by Lemma 11 (3). It is the only counterexample on <= 10 vertices.
    Claim("grim/lemma13",
          text=("Grim on K_{1,n_2,...,n_k}, k >= 3, every n_i >= 2: the second player wins iff the number of"
                " vertices is even and every n_i >= 3."),
          reading=("The condition at the end was lost in extraction and is read as n_i >= 3: the proof says "
                   "that with a part of size 2 Player 1 wins (leaving K_{1,1,n_3,...}). That step is wrong: "
                   "K_{1,2,3,4} (10 vertices, one part of size 2) is P, every move leaving an N position. "
                   "Any reading of the lost condition that follows the proof fails there, so this is an "
                   "error of the paper, not of the extraction."),
          finding=Finding("paper-error", corrected="grim/lemma13-corrected"),
          source=src("Lemma 13", "§3"), game="grim", kind="char",
          family=multipartite(range(2, 7), 2, 14, True), statement=lemma13_p,
          bounds={"alive": start(12)}, full={"alive": start(14)}, expect="refuted",
          note="our reading of the lost condition: n_i >= 3 for all i"),
    Claim("grim/lemma13-corrected",
          text=("Grim on K_{1,n_2,...,n_k}, k >= 3, every n_i >= 2: the second player wins iff the number of"
                " vertices is even and at least two of n_2, ..., n_k are >= 3."),
          reading="Our correction of Lemma 13 (the argument for the P side is in the theorem file).",
          source=src("Lemma 13, corrected", "§3"), game="grim", kind="char",
          family=multipartite(range(2, 7), 2, 14, True), statement=lemma13_corrected_p,
          bounds={"alive": start(12)}, full={"alive": start(14)}),
    # §4 ------------------------------------------------------------------------------------------
    Claim("grim/thm15",
          text=("Grim on a graph with an automorphism s of order 2 such that s(v) != v and v is not adjacent"
                " to s(v) for every vertex v: the second player wins."),
          source=src("Theorem 15", "§4"), game="grim", kind="char",
          family=THM15, full_family=THM15_FULL, statement=lambda g, s: True,
          bounds={"alive": start(12)}, full={"alive": start(16)}),
    Claim("grim/cor16",
          text=("Grim on a graph without isolated vertices having an automorphism s of order 2 that fixes "
                "exactly one vertex, with v not adjacent to s(v) for every other v: the first player wins."),
          source=src("Corollary 16", "§4"), game="grim", kind="char",
          family=COR16, full_family=COR16_FULL, statement=lambda g, s: False,
          bounds={"alive": start(13)}, full={"alive": start(17)}),
    # Corollary 17 with the lower bounds on n that the extraction lost restored ("(1) If _ is odd
    # and _, then _ is an N position", "(3) If _ is odd and _ ..."): n >= 3 in (1) and n >= 5 in
    # (3), the smallest that make the statement true. Without them (grim/cor17-no-bounds) the
    # tabulation of the small cases finds exactly two exceptions: P_1 in (1), {"game": "grim",
    # "nodes": [], "edges": []} (its only vertex is isolated and deleted before play: P), and
    # W_3 = K_3 (hub plus "C_2") in (3); W_5 is the first odd wheel whose rim is a cycle.
    Claim("grim/cor17",
          text=("Grim: (1) the path P_n, n odd and n >= 3, is N; (2) the cycle C_n, n even, is P; (3) the "
                "wheel W_n (a hub joined to a rim C_{n-1}), n odd and n >= 5, is N; (4) two disjoint copies "
                "of any graph with an edge are P."),
          reading=("The lower bounds on n in (1) and (3) were lost in extraction (the text reads 'If _ is "
                   "odd and _'); restored as the smallest that make the statement true, which the proofs "
                   "need: n >= 3 in (1) (P_1 is a lone vertex, deleted before play) and n >= 5 in (3) (W_3 "
                   "is K_3, whose rim is no cycle, and K_3 is P by Lemma 9). Without them: "
                   "grim/cor17-no-bounds."),
          source=src("Corollary 17", "§4"), game="grim",
          kind="char", family=COR17C, statement=claimed(COR17C),
          bounds={"alive": start(31, not_wheel_above(21), ", wheels n <= 21")},
          full={"alive": start(51, not_wheel_above(31), ", wheels n <= 31")}),
    Claim("grim/cor17-no-bounds",
          text=("Corollary 17 as extracted, with no lower bound on n: P_n for every odd n and W_n for every "
                "odd n >= 3 are N; (2) and (4) as in grim/cor17."),
          reading=("Kept to show that the lost bounds matter: it fails only at P_1 (the empty game, P) and "
                   "W_3 = K_3 (P), below the restored bounds. A hypothesis lost in extraction, not an error "
                   "of the paper; the restored statement is grim/cor17."),
          source=src("Corollary 17, as extracted (no lower bounds)", "§4"),
          game="grim", kind="char", family=COR17, statement=claimed(COR17),
          bounds={"alive": start(31, not_wheel_above(21), ", wheels n <= 21")},
          full={"alive": start(51, not_wheel_above(31), ", wheels n <= 31")},
          expect="refuted", finding=Finding("lost-hypothesis", corrected="grim/cor17")),
    # Corollary 19 with the hypothesis on H only (our first reading): (1) H has Thm 15's
    # involution => G x H is P; (2) H has
    # Cor 16's => G x H is N, for any G. Part (2) is refuted. Witness: 2K_1 x P_3 (G2.1 x G3.3),
    # {"game": "grim", "nodes": [0, 1, 2, 3, 4, 5], "edges": [[0, 1], [0, 2], [3, 4], [3, 5]]}:
    # claimed N, actually P (two copies of P_3, Cor 17 (4)). With G connected, K_2 x P_3 (the
    # 2 x 3 grid) is P too.
    # The proof's automorphism (g, h) -> (g, s(h)) fixes every (g, h0), one per vertex of G, so
    # Cor 16 applies only when the fixed point is unique: the paper's (2) must need G and H both
    # with Cor 16's involution ("If _ satisfy the hypothesis in Corollary 16": a plural subject),
    # and then s_G x s_H fixes exactly (g0, h0): grim/cor19 (the reading above: grim/cor19-h-only).
    Claim("grim/cor19",
          text=("Grim on Cartesian products G x H: (1) if H has the involution of Theorem 15, G x H is P; "
                "(2) if G and H both have the involution of Corollary 16, G x H is N."),
          reading=("The subject of 'satisfy the hypothesis' was lost in extraction; the plural verb, and the"
                   " fact that Corollary 16 needs a single fixed point, make (2) a statement about both "
                   "factors: with only H, the involution (g, h) -> (g, s(h)) fixes one vertex per vertex of "
                   "G, while s_G x s_H fixes exactly (g0, h0). (1) is checked in its stronger form (only H "
                   "has the involution). Read with H only: grim/cor19-h-only."),
          source=src("Corollary 19", "§4"), game="grim",
          kind="char", family=COR19C, statement=claimed(COR19C),
          bounds={"alive": start(12)}, full={"alive": start(16)}),
    Claim("grim/cor19-h-only",
          text=("Corollary 19 read with the hypothesis on H only: (2) if H has the involution of Corollary "
                "16, G x H is N for every G; (1) as in grim/cor19."),
          reading=("This reading drops the paper's plural subject. It fails at 2K_1 x P_3 (two disjoint "
                   "copies of P_3, P by Corollary 17 (4)) and, with G connected, at the 2 x 3 grid K_2 x "
                   "P_3. A hypothesis lost in extraction; the restored statement is grim/cor19."),
          source=src("Corollary 19, (2) with the hypothesis on H only", "§4"),
          game="grim", kind="char", family=COR19, statement=claimed(COR19),
          bounds={"alive": start(12)}, full={"alive": start(15)}, expect="refuted",
          finding=Finding("lost-hypothesis", corrected="grim/cor19")),
    # §5 ------------------------------------------------------------------------------------------
    Claim("grim/thm23",
          text="The Grundy values of grim on the path P_n are those of the octal game 0.6 on a heap of n.",
          source=src("Theorem 23", "§5"), game="grim", kind="grundy",
          family=Family(paths(range(1, 102)).items(), "P_1..P_101"), statement=octal06,
          bounds={"alive": start(45)}, full={"alive": start(72)}, timeout=900,
          note="grim on P_n against octal 0.6 on a heap of n, both solved"),
    # Theorem 23 for every n by locality (docs/claims.md, "Claims for every n"): the heap game of
    # grim's runs deletes a lone end vertex with its neighbour (from a run of 2, both go) where
    # octal 0.6 leaves a heap of 1; a heap of 1 has no move in either, so the options are compared
    # with those heaps dropped, and the values are equal (normal play).
    Claim("grim/thm23-every-n",
          text=("Theorem 23 for every n: grim on P_n has the values of octal 0.6; at every position, the XOR "
                "of 0.6's values at the lengths of the runs of alive vertices."),
          source=src("Theorem 23, every n", "§5"), game="grim", kind="grundy",
          family=paths(n=at_least(1), first=12, first_full=16), statement=runs_of("0.6"),
          expect="proved", note="by locality: the heap game of grim's runs is 0.6 up to heaps of one token"),
    Claim("grim/5-even-paths",
          text="The even n <= 100 for which grim on P_n is a P-position are 4, 12, 20, 30, 46, 72 and 98.",
          reading=("The paper's list was lost in extraction; reconstructed from the literature as the even "
                   "zeros of octal 0.6 (OEIS A046695)."),
          source=src("Section 5, after Remark 21", "§5"), game="grim", kind="table",
          family=Family(paths(range(2, 101, 2)).items(), "P_n, even n <= 100"), statement=even_paths_p,
          bounds={"alive": start(46)}, full={"alive": start(100)}, timeout=900,
          note="the paper's list was lost: the even zeros of octal 0.6 (OEIS A046695)"),
    Claim("grim/cor24",
          text=("Grim on cycles: G(C_n) = 1 if G(P_{n-1}) = 0 and 0 otherwise (the only follower of C_n is "
                "P_{n-1}); in particular C_n is P for even n."),
          source=src("Corollary 24", "§5"), game="grim", kind="grundy",
          family=Family(cycles(range(3, 81)).items(), "C_3..C_80"), statement=cor24_value,
          bounds={"alive": start(32)}, full={"alive": start(60)}, timeout=900),
    # Corollary 24 for every n by locality: the first move on C_n (every move from the full cycle
    # leaves one arc of n - 1), then the arcs are runs of a path (grim/thm23-every-n's reduction).
    Claim("grim/cor24-every-n",
          text=("Corollary 24 for every n >= 3: the only follower of C_n is P_{n-1}, so G(C_n) = 1 if "
                "G(P_{n-1}) = 0 and 0 otherwise, G(P_{n-1}) being octal 0.6's value at n - 1 (Theorem 23); "
                "at every other position of C_n, the XOR of 0.6's values at the arcs of alive vertices."),
          source=src("Corollary 24, every n", "§5"), game="grim", kind="grundy",
          family=cycles(n=at_least(3), first=12, first_full=16), statement=arcs_of("0.6", removed=1),
          expect="proved"),
    Claim("grim/cor26",
          text=("Grim on the wheel W_n (a hub joined to a rim C_{n-1}), n >= 4: the first player wins iff "
                "the path P_{n-2} is an N-position."),
          reading=("The formulas were lost in extraction; our reading, with n >= 4 so that the rim is a "
                   "cycle."),
          source=src("Corollary 26", "§5"), game="grim", kind="char",
          family=Family(wheels(range(4, 33)).items(), "W_4..W_32"), statement=cor26_p,
          bounds={"alive": start(22)}, full={"alive": start(32)}),
    # Corollary 26 for every n by the hub (docs/claims.md, "Claims for every n"): the paper's proof
    # made a lemma checked on the IR: the hub's move leaves the rim C_{n-1}, whose every move leaves
    # P_{n-2}; every other first move has a move to P_{n-2}.
    Claim("grim/cor26-every-n",
          text=("Corollary 26 for every n >= 4 (our reading): grim on the wheel W_n is an N-position iff the "
                "path P_{n-2} is."),
          reading=("The formulas were lost in extraction; our reading, as grim/cor26. P_{n-2}'s outcome is "
                   "octal 0.6's at n - 2 (grim/thm23-every-n)."),
          source=src("Corollary 26, every n", "§5"), game="grim", kind="char",
          family=wheels(n=at_least(4), first=10, first_full=14), statement=path_outcome("grim"),
          bounds={"alive": start()}, expect="proved"),
    # §6 ------------------------------------------------------------------------------------------
    Claim("grim/6-three-vertices",
          text=("Among the graphs on 3 labelled vertices the first player wins exactly those with 1 or 2 "
                "edges, so P(Player 1 wins G(3, p)) = 3p(1 - p)."),
          source=src("Section 6, the example G(3, p)", "§6"), game="grim",
          kind="table", family=labelled(3), statement=three_vertices_p,
          bounds={"alive": start()}),
    # Theorem 30 read with Player 1 (an earlier reading of ours, favoured near p = 1) is refuted. Witness: n = 1,
    # K_1 = {"game": "grim", "nodes": [], "edges": []} (a single vertex: P1 never wins): claimed N,
    # actually P; then K_3, K_5, ... (Lemma 9): for n = 3, P(P1 wins G(3, p)) = 3p(1 - p) < 1/2
    # for p > (3 + sqrt 3)/6 ~ 0.789. The exact polynomials (python theorems/grim.py), P(P1 wins
    # G(n, p)) in powers of p, and where they cross 1/2:
    #   n = 3: 3p - 3p^2; crosses 1/2 at 0.211325 and 0.788675 (value 0 at p = 1)
    #   n = 4: 6p - 18p^2 + 16p^3 + 12p^4 - 24p^5 + 9p^6; crosses at 0.124041, then above (1 at p = 1)
    #   n = 5: 10p - 60p^2 + 170p^3 - 155p^4 - 318p^5 + 1055p^6 - 1260p^7 + 720p^8 - 160p^9
    #          - 2p^10; crosses at 0.081255 and 0.748017 (0 at p = 1)
    #   n = 6: crosses once, at 0.057579 (1 at p = 1)
    #   n = 7: crosses at 0.043056 and 0.724945 (0 at p = 1)
    # So for odd n <= 7, P2 wins with probability > 1/2 exactly for p > 0.788675, 0.748017,
    # 0.724945 (n = 3, 5, 7) and for small p; the proof's p0 = 2^(-1/C(n,2)) (0.7937, 0.9330,
    # 0.9675) is a valid but weaker bound. For even n <= 6 Player 1 is favoured near p = 1.
    Claim("grim/thm30-player1",
          text=("Theorem 30 read with Player 1: for odd n there is p0 < 1 such that Player 1 wins G(n, p) "
                "with probability above 1/2 for every p > p0."),
          reading=("An earlier, unfaithful reading of the damaged statement. It holds iff K_n is N, and K_n "
                   "is P for odd n, so it fails at every odd n, from n = 1 (a lone vertex: Player 1 never "
                   "wins). The player was lost in extraction; the restored statement is grim/thm30."),
          source=src("Theorem 30, read with Player 1", "§6"), game="grim",
          kind="char", family=Family(complete(range(1, 18, 2)).items(), "K_n, odd n <= 17"),
          statement=thm30_claims_reading_p,
          bounds={"alive": start(11)}, full={"alive": start(17)}, expect="refuted",
          finding=Finding("lost-hypothesis", corrected="grim/thm30"),
          note="P(P1 wins G(n,p)) > 1/2 near p = 1 iff K_n is N"),
    Claim("grim/thm30",
          text=("For odd n there is p0 < 1 such that, on the Erdos-Renyi random graph G(n, p), Player 2 wins"
                " with probability above 1/2 for every p > p0."),
          reading=("The player was lost in extraction; restored as Player 2. The proof bounds the "
                   "probability from below by p^C(n,2), the probability of K_n, which is P for odd n (Lemma "
                   "9), giving p0 = 2^(-1/C(n,2)); the remark after it (this bound tends to 1, so Player 1's"
                   " chances grow with n) speaks of the other player. Checked as 'K_n is P for every odd n' "
                   "(n <= 11, or 17 in the full profile): the winning probability is a polynomial in p "
                   "whose value at p = 1 is K_n's outcome."),
          source=src("Theorem 30", "§6"), game="grim", kind="char",
          family=Family(complete(range(1, 18, 2)).items(), "K_n, odd n <= 17"), statement=thm30_p,
          bounds={"alive": start(11)}, full={"alive": start(17)},
          note="P(P2 wins G(n,p)) >= p^C(n,2) > 1/2 for p > 2^(-1/C(n,2)) iff K_n is P"),
]


if __name__ == "__main__":                              # the polynomials of Section 6, n <= 7
    for n in range(1, 8):
        poly = winning_polynomial(n)
        print(f"n = {n}: P(P1 wins) = {poly} (coefficients of 1, p, p^2, ...); value at p = 1: "
              f"{sum(poly)}; crosses 1/2 at p = {halves(poly)}; Thm 30's p0 = 2^(-1/C(n,2)) = "
              f"{2 ** (-1 / math.comb(n, 2)) if n > 1 else '-'}")
