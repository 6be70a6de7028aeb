"""vnim: E. Duchêne, G. Renault, *Vertex Nim played on graphs* (TCS 2014).

Games: ``adjacent-nim`` (§2), ``directed-vertexnim`` (§3, §5), ``vertexnim`` (§4, §5) and
``vertex-nimg``, Stockman's remove-then-move Vertex NimG (Remark 5, Corollary 12).

The results are algorithms ("deciding whether (G, w, u) is P or N can be done in O(|V||E|)
time"); what is checked is the characterization each proof establishes, written as an IR
predicate over the position, true exactly at the P-positions. The labellings the algorithms
compute (lo, Definition 7; lu, Definition 11) are fixpoints over the graph; here they are
unrolled into |V| rounds ("take the sinks / the local minima, and the vertices next to them"),
each round an IR expression, so the same text runs in the explicit sweep and in Z3.

In vertexnim the graph changes in play (a removed vertex's neighbourhood becomes a clique
with loops), so the adjacency is part of the state (``adj``, ``arc``) and every statement reads
the *current* graph: the vertices of positive weight and the state's adjacency. The explicit
sweeps hold the adjacency at the family structure's own edges and loops (the bound
``initial``) and put weight >= 1 on every vertex: the positions of the paper. The
``*-all-weights`` claims are the Z3 proofs (partition theorem, all weights): one structure per
number of vertices, the adjacency left free and restricted by ``assume`` to the positions play
can reach (connected, removed vertices isolated), so they cover every graph with every loop
set on that many vertices at once.

Findings (witnesses at the claims):
- Definition 11 as printed (lu) is wrong once weights reach 4: a vertex next to a local
  minimum of the *same* weight is labelled N, but the proof's winning move ("move to a vertex v
  of G' such that w(v) < w(u) and lu(v) = P. Such a vertex exists by definition of lu") needs a
  *smaller* one. Theorem 10 and Corollary 12 fail on the path with weights 2, 3, 4, 4; with T
  the vertices next to a strictly lighter vertex of S (``strict``) both hold (``-corrected``).
- Corollary 12 fails with loops: a neighbour of weight 1 with a loop is N (case 2), so case 3's
  move onto it loses; and its remark on null weights fails: a neighbour next to a 0 is N too.
- Theorem 13 fails only at a single vertex without a loop, weight >= 2.
The first finding needs weight 4: with weights <= 3 the printed lu gives the right outcome on
every connected graph with <= 5 vertices and any loops (swept with the printed statement).
"""
from __future__ import annotations

import functools
import itertools
from typing import Any, Callable, Iterator, Sequence

from grundy.spec import Expr, Play, Rules, Structure, SymState, all_of, any_of, count, ite, minimum, move_index
from grundy.spec.expr import implies, not_
from grundy.spec.facts import with_facts
from grundy.spec.order import build
from grundy.verify import Claim, Family, Finding, Lazy, Source, all_graphs

PAPER = "vnim"


# ============================================================================ families and bounds
def initial(g: Structure, key: tuple[int, int]) -> list[int]:
    """held at the structure's edges and loops"""
    p, q = key
    return [int(g.has_loop(p) if p == q else g.adjacent(p, q))]


def _with_loops(name: str, g: Structure, loops) -> tuple[str, Structure]:
    loops = sorted(loops)
    h = Structure.graph(g.names, [(g.names[a], g.names[b]) for a, b in g.edges],
                        loops=[g.names[v] for v in loops], directed=g.directed)
    tag = "" if not loops else "+loop" + ("s" if len(loops) > 1 else "") + "@" + ",".join(map(str, loops))
    return name + tag, h


def loop_sets(g: Structure) -> list[tuple[int, ...]]:
    """Every set of loops on g, one per orbit of g's automorphism group.

    >>> loop_sets(Structure.graph(range(3), [(0, 1), (1, 2)]))
    [(), (0,), (1,), (0, 1), (0, 2), (0, 1, 2)]
    """
    out = []
    for r in range(g.n + 1):
        for c in itertools.combinations(range(g.n), r):
            if all(tuple(sorted(sigma[v] for v in c)) >= c for sigma in g.automorphisms):
                out.append(c)
    return out


def connected(max_n: int, min_n: int = 1, loops: str = "any") -> Family:
    """The connected graphs on min_n..max_n vertices (the atlas), with loops: ``"any"`` (every
    loop set, one per orbit of the automorphisms), ``"every"`` (on each vertex) or ``"none"``.

    >>> len(connected(3)), len(connected(3, loops="every")), connected(2).names()
    (15, 4, ['G1.1', 'G1.1+loop@0', 'G2.1', 'G2.1+loop@0', 'G2.1+loops@0,1'])
    """
    def make() -> Iterator[tuple[str, Structure]]:      # built when a claim first reads it
        for name, g in all_graphs(max_n, min_n=min_n, connected=True).items():
            sets = {"any": loop_sets(g), "every": [tuple(g.vertices)], "none": [()]}[loops]
            yield from (_with_loops(name, g, c) for c in sets)
    what = {"any": "with every loop set", "every": "with a loop on every vertex", "none": "without loops"}
    return Lazy(make, f"connected graphs on {min_n}..{max_n} vertices {what[loops]}")


def strong_digraphs(max_n: int, min_n: int = 1) -> Family:
    """The strongly connected digraphs on min_n..max_n vertices up to isomorphism, with a loop
    on every vertex (max_n <= 4).

    >>> [len(strong_digraphs(n, n)) for n in (1, 2, 3)]
    [1, 1, 5]
    """
    def make() -> Iterator[tuple[str, Structure]]:      # built when a claim first reads it
        return iter(_strong_digraphs(min_n, max_n))
    return Lazy(make, f"strongly connected digraphs on {min_n}..{max_n} vertices, a loop on every vertex")


@functools.lru_cache(maxsize=8)
def _strong_digraphs(min_n: int, max_n: int) -> tuple[tuple[str, Structure], ...]:
    """strong_digraphs' items (made once per range: the claims that share the family share them).
    Every arc set in the order of its bits; kept when strongly connected and its isomorphism class
    (the least bit mask over every relabelling) is new."""
    out = []
    for n in range(min_n, max_n + 1):
        pairs = [(a, b) for a in range(n) for b in range(n) if a != b]
        index = {p: i for i, p in enumerate(pairs)}
        moved = [[index[sg[a], sg[b]] for a, b in pairs] for sg in itertools.permutations(range(n))]
        seen, k = set(), 0
        for bits in range(1 << len(pairs)):
            on = [i for i in range(len(pairs)) if bits >> i & 1]
            arcs = [pairs[i] for i in on]
            if not _strongly_connected(n, arcs):
                continue
            key = min(sum(1 << m[i] for i in on) for m in moved)
            if key not in seen:
                seen.add(key)
                k += 1
                out.append((f"D{n}.{k}", Structure.graph(range(n), arcs, loops=range(n), directed=True)))
    return tuple(out)


def _strongly_connected(n: int, arcs: Sequence[tuple[int, int]]) -> bool:
    """Whether every vertex of 0..n-1 reaches vertex 0 and is reached from it along ``arcs``.

    >>> _strongly_connected(3, [(0, 1), (1, 2), (2, 0)]), _strongly_connected(3, [(0, 1), (1, 2)])
    (True, False)
    """
    out, into = [0] * n, [0] * n
    for a, b in arcs:
        out[a] |= 1 << b
        into[b] |= 1 << a
    for adj in (out, into):
        seen = frontier = 1
        while frontier:
            nxt = 0
            for v in range(n):
                if frontier >> v & 1:
                    nxt |= adj[v]
            frontier = nxt & ~seen
            seen |= nxt
        if seen != (1 << n) - 1:
            return False
    return True


def circuits(*ns: int) -> Family:
    """Elementary circuits v1 -> v2 -> ... -> vN -> v1 (as adjacent-nim reads its heaps)."""
    items = []
    for n in ns:
        names = [f"v{i + 1}" for i in range(n)]
        items.append((f"C_{n}", Structure.graph(names, [(names[i], names[(i + 1) % n]) for i in range(n)],
                                                directed=True)))
    return Family(items, "circuits " + ", ".join(f"C_{n}" for n in ns))


def free(*ns: int, directed: bool = False, loops: str = "any") -> Family:
    """One structure per number of vertices for the claims whose adjacency is left free (the
    Z3 proofs): the complete (di)graph with all loops, whose automorphisms (every permutation)
    the rules respect; the adjacency in the state is any (the sweep tries them all)."""
    items = []
    for n in ns:
        pairs = [(a, b) for a in range(n) for b in range(n) if a != b and (directed or a < b)]
        items.append((f"any on {n}", Structure.graph(range(n), pairs, loops=range(n), directed=directed)))
    what = ("every strongly connected digraph" if directed else "every connected graph")
    how = "with a loop on every vertex" if loops == "every" else "with every loop set"
    return Family(items, f"{what} on {', '.join(map(str, ns))} vertices {how} (the adjacency is state)")


# ============================================================================ built once per order
def per_order(fn: Callable[..., Any]) -> Callable[..., Any]:
    """A statement of the current graph (it reads of the structure only its order: kind, size,
    names) built once per order (:func:`grundy.spec.order.build`: given only the order). Used
    on the claims of vertexnim and directed vertexnim, whose graph is in the state."""
    @functools.wraps(fn)
    def built(g: Any, s: SymState, **options: Any) -> Any:
        return build(fn, g, s, **options)
    return built


# ============================================================================ IR helpers
def closure(n: int, inside: Sequence, edge: Callable) -> list[list[Expr]]:
    """Reflexive-transitive closure of ``edge(p, q)`` among the vertices where ``inside`` holds
    (Floyd-Warshall, unrolled): r[p][q] iff q is reachable from p inside."""
    r = [[inside[p] & inside[q] & (True if p == q else edge(p, q)) for q in range(n)] for p in range(n)]
    for k in range(n):
        r = [[r[p][q] if k in (p, q) else r[p][q] | (r[p][k] & r[k][q]) for q in range(n)]
             for p in range(n)]
    return r


def reached(n: int, inside: Sequence, edge: Callable, source: Sequence) -> list[Expr]:
    """The vertices reachable from ``source`` (a bool per vertex) inside: n - 1 rounds."""
    r = list(source)
    for _ in range(n - 1):
        r = [r[v] | (inside[v] & any_of(r[q] & edge(q, v) for q in range(n) if q != v)) for v in range(n)]
    return r


def _never(e: Any) -> bool:
    """Whether ``e`` (a Python bool or an IR node) is the constant False."""
    return e is False or (isinstance(e, Expr) and e.op == "const" and e.args[0] is False)


def lu_p(n: int, inside: Sequence, edge: Callable, w: Sequence, strict: bool = False) -> list[Expr]:
    """Definition 11, unrolled: the vertices lu labels P on the graph induced by ``inside``.
    Each round S = the local minima (w(u) <= w(v) for every neighbour v) get P, T = the other
    vertices next to S get N, both are removed; |V| rounds empty the graph (a global minimum
    is always in S). ``strict``: T = the vertices next to a vertex of S of *smaller* weight
    (the correction; a vertex next to S only at equal weight stays for the next round)."""
    # the pairs with an edge (an absent one, a constant False, makes its term the connective's
    # unit, which all_of / any_of drop: skipped here, the same node is built)
    nb = [[v for v in range(n) if v != u and not _never(edge(u, v))] for u in range(n)]
    e = {(u, v): edge(u, v) for u in range(n) for v in nb[u]}
    rem, lab = list(inside), [False] * n
    for _ in range(n):
        s_ = [rem[u] & all_of(~(rem[v] & e[u, v]) | (w[u] <= w[v]) for v in nb[u]) for u in range(n)]
        t_ = [rem[v] & ~s_[v] & any_of(s_[u] & e[v, u] & ((w[u] < w[v]) if strict else True)
                                       for u in nb[v]) for v in range(n)]
        lab = [lab[u] | s_[u] for u in range(n)]
        rem = [rem[u] & ~s_[u] & ~t_[u] for u in range(n)]
    return lab


def lo_p(n: int, inside: Sequence, arc: Callable) -> list[Expr]:
    """Definition 7, unrolled: the vertices lo labels P on the digraph induced by ``inside``.
    Each round takes every strongly connected component S without out-arcs ("The choice of S is
    not unique, unlike the lo function": taking all of them at once is one order of choosing):
    |S| even: S gets N and is removed; |S| odd: S gets P, T (the vertices with an arc into S)
    gets N, and both are removed."""
    rem, lab = list(inside), [False] * n
    for _ in range(n):
        r = closure(n, rem, arc)
        sink = [rem[v] & all_of(~r[v][q] | r[q][v] for q in range(n) if q != v) for v in range(n)]
        odd = [count(r[v][q] & r[q][v] for q in range(n)) % 2 == 1 for v in range(n)]
        t_ = [rem[v] & ~sink[v] & any_of(arc(v, q) & sink[q] & odd[q] for q in range(n) if q != v)
              for v in range(n)]
        lab = [lab[v] | (sink[v] & odd[v]) for v in range(n)]
        rem = [rem[v] & ~sink[v] & ~t_[v] for v in range(n)]
    return lab


def at_token(g: Structure, s: SymState, f: Callable[[int], Expr]) -> Expr:
    """``f(u)`` at the token's vertex u."""
    return any_of((s.token == u) & f(u) for u in g.vertices)


class Current:
    """The current graph of a vertexnim position: the vertices of positive weight and the
    state's adjacency (``adj`` over pairs, or ``arc`` over ordered pairs) between them."""

    def __init__(self, g: Structure, s: SymState):
        self.g, self.s, self.n, self.directed = g, s, g.n, g.directed
        self.w = [s.weight[v] for v in g.vertices]
        self.alive = [x > 0 for x in self.w]
        self.link = (lambda p, q: s.arc[p, q]) if self.directed else (lambda p, q: s.adj[p, q])
        self._edges: dict[tuple[int, int], Expr] = {}

    def edge(self, p, q):
        e = self._edges.get((p, q))
        if e is None:
            e = self._edges[p, q] = self.alive[p] & self.alive[q] & self.link(p, q)
        return e

    def loop(self, v):
        return self.alive[v] & self.link(v, v)

    def size(self):
        return count(self.alive)

    def empty(self):
        return all_of(~a for a in self.alive)

    def all_ones(self):
        return all_of(x <= 1 for x in self.w)


def valid(g: Structure, s: SymState) -> Expr:
    """The positions of vertexnim / directed vertexnim play: a removed vertex (weight 0) has no
    edge, arc or loop; the current graph is connected (strongly, for a digraph), the token on it."""
    c = Current(g, s)
    gone = all_of(c.alive[p] | all_of(~c.link(p, q) & ~c.link(q, p) for q in g.vertices) for p in g.vertices)
    if g.directed:
        r = closure(g.n, c.alive, c.edge)
        linked = all_of(~c.alive[p] | ~c.alive[q] | r[p][q] for p in g.vertices for q in g.vertices if p != q)
    else:
        r1 = reached(g.n, c.alive, c.edge, [(s.token == v) & c.alive[v] for v in g.vertices])
        linked = all_of(~c.alive[v] | r1[v] for v in g.vertices)
    return gone & (c.empty() | (at_token(g, s, lambda u: c.alive[u]) & linked))


def valid_all_loops(g: Structure, s: SymState) -> Expr:
    """``valid``, and a loop on every vertex (removals keep that: loops are never taken away)."""
    c = Current(g, s)
    return valid(g, s) & all_of(~c.alive[v] | c.loop(v) for v in g.vertices)


# ============================================================================ §2 circuits
def walk(g: Structure, t: int) -> list[int]:
    """The vertices of the circuit in order from t (t first)."""
    out = [t]
    while len(out) < g.n:
        out.append(g.neighbours(out[-1])[0])
    return out


def first_min_at(w: Sequence, order: list[int], j: int) -> Expr:
    """The first vertex of ``order`` with the minimum weight is order[j]."""
    x = w[order[j]]
    return all_of([x < w[order[i]] for i in range(j)] + [x <= w[order[i]] for i in range(j + 1, len(order))])


def thm3_p(g: Structure, s: SymState) -> Expr | bool:
    # Theorem 3: C_N, N >= 3, every weight >= 2, token on v1. N odd: N. N even: N iff
    # min{argmin w(vi)} (1-based) is even. The paper puts the token on v1 "without loss of
    # generality"; indices are counted from the token, so every token is covered.
    if g.n % 2 == 1:
        return False
    w = [s.weight[v] for v in g.vertices]
    return at_token(g, s, lambda t: any_of(first_min_at(w, walk(g, t), j) for j in range(0, g.n, 2)))


def weights_at_least_2(g: Structure, s: SymState) -> Expr:
    return all_of(s.weight[v] >= 2 for v in g.vertices)


def remark5_p(g: Structure, s: SymState) -> Expr:
    # Remark 5: Vertex NimG on circuits: "Theorem 3 remains true, even if there are vertices of
    # weight 1". Completion (zeros arise in play, and the partition theorem needs every
    # position): the player who must play from a 0 loses, and the first 0 met from the token is
    # met by the same player whatever is played before it (a vertex emptied on the way comes back
    # only N steps later): P iff the first 0 has an odd 1-based index -- the even rule with
    # minimum 0. Altogether: P iff the first minimum has an odd index and (N even or min = 0).
    w = [s.weight[v] for v in g.vertices]
    zero = minimum(w) == 0
    return at_token(g, s, lambda t: (zero | (g.n % 2 == 0))
                    & any_of(first_min_at(w, walk(g, t), j) for j in range(0, g.n, 2)))


def remark5_strategy(g: Structure, s: SymState, rules: Rules) -> list[Play]:
    # the witness moves (the partition theorem's NP half): lower the current vertex by 1 (the
    # proof of Theorem 3, N even); on an odd circuit without a 0, empty it (the 0 is then met
    # last, at the even index N - 1).
    zero = minimum([s.weight[v] for v in g.vertices]) == 0
    out = []
    for t in g.vertices:
        mv = move_index(rules, f"set w({g.names[t]}) to {{k}}, token to {g.names[g.neighbours(t)[0]]}")
        if g.n % 2 == 1:
            out.append(Play((s.token == t) & ~zero, mv, {"k": 0}))
        out.append(Play(s.token == t, mv, {"k": s.weight[t] - 1}))
    return out


# ============================================================================ §3 directed, all loops
def thm6_p(g: Structure, s: SymState, misere: bool = False) -> Expr:
    # Theorem 6 (its proof): G' = the vertices of weight 1. Every vertex of weight 1: N iff |V|
    # odd ("she loves me, she loves me not"). Otherwise w(u) >= 2: N; w(u) = 1: N iff
    # lo_G'(u) = N. Theorem 14 (misère): every weight 1: N iff |V| even; "otherwise ... N in the
    # misère version if and only if it is N in the normal version".
    c = Current(g, s)
    ones = [x == 1 for x in c.w]
    lab = lo_p(c.n, ones, c.edge)
    all_ones_p = (c.size() % 2 == 1) if misere else (c.size() % 2 == 0)
    return ite(c.all_ones(), all_ones_p, at_token(g, s, lambda u: ones[u] & lab[u]))


def thm14_p(g: Structure, s: SymState) -> Expr:
    return thm6_p(g, s, misere=True)


# ============================================================================ §4 undirected
def prop9_p(g: Structure, s: SymState) -> Expr:
    # Proposition 9 (its proof): a loop on every vertex, G' = the vertices of weight 1. Every
    # weight 1: N iff |V| odd. Otherwise w(u) >= 2: N; w(u) = 1: N iff the component of u in G'
    # has an even number of vertices.
    c = Current(g, s)
    ones = [x == 1 for x in c.w]
    comp = reached(c.n, ones, c.edge, [(s.token == v) & ones[v] for v in g.vertices])
    return ite(c.all_ones(), c.size() % 2 == 0,
               at_token(g, s, lambda u: ones[u]) & (count(comp) % 2 == 1))


def thm10_p(g: Structure, s: SymState, strict: bool = False, misere: bool = False) -> Expr:
    # Theorem 10 (its proof), the four-case algorithm. Gu = the vertices of weight 1, and u;
    # G' = the vertices v with w(v) >= 2, no loop, and no neighbour of weight 1.
    #   G = Gu, w(u) = 1: N iff |V| odd.   G = Gu, w(u) >= 2: N.   Otherwise:
    #   (1) w(u) >= 2 and a loop on u: N.
    #   (2) w(u) = 1: N iff the component of u in Gu has an even number of vertices.
    #   (3) w(u) >= 2 and a neighbour of weight 1: N.
    #   (4) u in G': N iff lu_{G',w}(u) = N (Definition 11; ``strict``: the corrected lu).
    # (G' reads "w(v) > 2" in the extracted text, whose ">" is the lost ">=": the proof's base
    # case has w = 2 in G'; the same loss turns Definition 11's "<=" into "6".)
    c = Current(g, s)
    ones = [x == 1 for x in c.w]
    comp = reached(c.n, ones, c.edge, [(s.token == v) & ones[v] for v in g.vertices])
    in_g1 = [c.alive[v] & (c.w[v] >= 2) & ~c.loop(v)
             & all_of(~c.edge(v, q) | (c.w[q] >= 2) for q in g.vertices if q != v) for v in g.vertices]
    lab = lu_p(c.n, in_g1, c.edge, c.w, strict)

    def p_at(u):
        rest_ones = all_of(c.w[v] <= 1 for v in g.vertices if v != u)          # G = Gu
        one_nb = any_of(c.edge(u, v) & ones[v] for v in g.vertices if v != u)
        return c.alive[u] & ite(
            rest_ones, ones[u] & (c.size() % 2 == 0),
            ite(ones[u], count(comp) % 2 == 1,                                 # (2)
                ~c.loop(u) & ~one_nb & lab[u]))                                # (1), (3), (4)
    normal = c.empty() | at_token(g, s, p_at)
    if not misere:
        return normal
    return ite(c.all_ones(), c.size() % 2 == 1, normal)


def thm10_corrected_p(g: Structure, s: SymState) -> Expr:
    return thm10_p(g, s, strict=True)


# ============================================================================ §5 misère
def thm13_p(g: Structure, s: SymState) -> Expr:
    # Theorem 13: every weight 1: N iff |V| even; otherwise N in misère iff N in normal play.
    # "N in normal play" is written with the corrected Theorem 10 (the printed one fails at
    # weight 4, see thm10), so that what is checked is the misère claim itself.
    return thm10_p(g, s, strict=True, misere=True)


def thm13_corrected_p(g: Structure, s: SymState) -> Expr:
    # Theorem 13 with the exception the check finds: a single vertex without a loop and weight
    # >= 2 is P in misère play (its only move empties it: the last move) and N in normal play.
    # Removals put loops on the neighbours, so a vertex without a loop is alone only at the start.
    c = Current(g, s)
    lone = (c.size() == 1) & at_token(g, s, lambda u: ~c.loop(u) & (c.w[u] >= 2))
    return lone | thm13_p(g, s)


# ============================================================================ Corollary 12: Vertex NimG
def cor12_p(g: Structure, s: SymState) -> Expr:
    # Corollary 12, Stockman's Vertex NimG (the graph never changes), "four cases":
    #   w(u) = 1 and no loop on u: P.   w(u) >= 1 and a loop on u: N.
    #   w(u) >= 2 and a neighbour v with w(v) = 1: N.   u in G': lu_{G',w}(u), as in Theorem 10.
    # and "the proof is still working if there exist vertices of null weight at the beginning.
    # It suffices to consider the two following properties: if w(u) = 0 then this is P, and if u
    # is adjacent to some v with w(v) = 0, then it is N" (read: decided before the four cases).
    w = [s.weight[v] for v in g.vertices]
    nb = g.neighbours
    in_g1 = [(w[v] >= 2) & (not g.has_loop(v)) & all_of(w[q] >= 2 for q in nb(v)) for v in g.vertices]
    lab = lu_p(g.n, in_g1, lambda p, q: g.adjacent(p, q), w)

    def p_at(u):
        if g.has_loop(u):
            return w[u] == 0
        zero_nb = any_of(w[v] == 0 for v in nb(u))
        one_nb = any_of(w[v] == 1 for v in nb(u))
        return (w[u] == 0) | (~zero_nb & ite(w[u] == 1, True, ~one_nb & lab[u]))
    return at_token(g, s, p_at)


@functools.partial(with_facts, edges=False)
def cor12_corrected_p(g: Structure, s: SymState) -> Expr:
    # Corollary 12 corrected. A vertex of weight 0 is P; one of positive weight with a loop, or
    # next to a 0, is N (it empties itself and stays, or moves onto the 0), so moving onto it
    # loses. The four cases are applied to the graph without those vertices ("kept"), with the
    # corrected lu: a kept vertex of weight 1 is P; of weight >= 2 next to a kept vertex of
    # weight 1, N (lower u to 1 and move there); otherwise lu with ``strict``.
    # The graph is read through adjacent() and has_loop() alone, as terms (``with_facts``: on a
    # structure the same IR as over its neighbours, tests/test_vnim_facts.py; built once per
    # order with them as data for the interpreter's sweep).
    w = [s.weight[v] for v in g.vertices]
    adj = g.adjacent
    zero = [x == 0 for x in w]
    kept = [~zero[v] & not_(g.has_loop(v)) & all_of(implies(adj(v, q), ~zero[q]) for q in g.vertices if q != v)
            for v in g.vertices]
    in_g1 = [kept[v] & (w[v] >= 2) & all_of(implies(adj(v, q), ~kept[q] | (w[q] >= 2)) for q in g.vertices if q != v)
             for v in g.vertices]
    lab = lu_p(g.n, in_g1, adj, w, strict=True)

    def p_at(u):
        one_nb = any_of(adj(u, v) & kept[v] & (w[v] == 1) for v in g.vertices if v != u)
        return zero[u] | (kept[u] & ite(w[u] == 1, True, ~one_nb & lab[u]))
    return at_token(g, s, p_at)


# ============================================================================ claims
def _src(number: str, section: str) -> Source:
    return Source(PAPER, number, section)


def weights(lo: int, hi: int, hi5: int) -> Callable[[Structure, int], range]:
    """A weight bound by the structure's size: lo..hi up to 4 vertices, lo..hi5 on 5."""
    def bound(g, v):
        return range(lo, (hi if g.n <= 4 else hi5) + 1)
    bound.__doc__ = f"{lo}..{hi} on <= 4 vertices, {lo}..{hi5} on 5"
    return bound


ADJ = {"adj": initial}
ARC = {"arc": initial}

CLAIMS = [
    # ---------------------------------------------------------------------------- §2 circuits
    Claim("vnim/thm3",
          text=("Adjacent-nim on the circuit C_N, N >= 3, every weight >= 2, token on v1: for odd N the "
                "first player wins; for even N the first player wins iff the first index of a minimum weight"
                " is even."),
          source=_src("Theorem 3", "§2"), game="adjacent-nim", kind="char",
          family=circuits(3, 4, 5, 6, 7), statement=thm3_p, assume=weights_at_least_2,
          bounds={"weight": (2, 4), **ARC}, full={"weight": (2, 6)}),
    # Z3 proves it on each circuit for all weights, with the strategy as the witness move.
    Claim("vnim/remark5",
          text=("Directed vertex-nimg (remove, then move) on circuits: the rule of Theorem 3 still holds "
                "when some weights are 1."),
          reading=("Completed for the positions with a vertex at 0 that arise in play (the first 0 met from "
                   "the token decides)."),
          source=_src("Remark 5", "§2"), game="vertex-nimg", kind="char",
          family=circuits(3, 4, 5, 6, 7, 8), statement=remark5_p, strategy=remark5_strategy,
          bounds={"weight": 3}, full={"weight": 4}, methods=["explicit", "smt"], expect="proved"),

    # ---------------------------------------------------------------------------- §3 digraphs, all loops
    Claim("vnim/thm6",
          text=("Directed vertexnim on a strongly connected digraph with a loop on every vertex: if every "
                "weight is 1, the first player wins iff |V| is odd; otherwise weight >= 2 at the token wins "
                "for the first player, and weight 1 is decided by the lo-labelling of the weight-1 vertices."),
          source=_src("Theorem 6", "§3"), game="directed-vertexnim", kind="char",
          family=strong_digraphs(4), statement=per_order(thm6_p),
          bounds={"weight": (1, 3), **ARC}, full={"weight": (1, 5)}),
    Claim("vnim/thm6-all-weights",
          text=("Theorem 6 for all weights, on every digraph with at most 3 vertices and a loop on every "
                "vertex."),
          source=_src("Theorem 6", "§3"), game="directed-vertexnim", kind="char",
          family=free(1, 2, 3, directed=True, loops="every"), statement=per_order(thm6_p), assume=per_order(valid_all_loops),
          bounds={"weight": 2}, full={"weight": 3}, methods=["explicit", "smt"], expect="proved"),

    # ---------------------------------------------------------------------------- §4 undirected
    Claim("vnim/prop9",
          text=("Undirected vertexnim with a loop on every vertex: if every weight is 1, the first player "
                "wins iff |V| is odd; otherwise weight >= 2 at the token is N, and weight 1 is N iff the "
                "component of the token among the weight-1 vertices has even size."),
          source=_src("Proposition 9", "§4"), game="vertexnim", kind="char",
          family=connected(5, loops="every"), statement=per_order(prop9_p),
          bounds={"weight": (1, 3), **ADJ}, full={"weight": (1, 5)}),
    Claim("vnim/prop9-all-weights",
          text=("Proposition 9 for all weights, on every graph with at most 4 vertices and a loop on every "
                "vertex."),
          source=_src("Proposition 9", "§4"), game="vertexnim", kind="char",
          family=free(1, 2, 3, 4, loops="every"), statement=per_order(prop9_p), assume=per_order(valid_all_loops),
          bounds={"weight": 2}, full={"weight": 3}, methods=["explicit", "smt"], expect="proved"),
    # Refuted. Witness (grundy verify --json), the path 3 - 0 - 1 - 2 (G4.2):
    #   {"game": "vertexnim", "nodes": [[0, 3], [1, 4], [2, 4], [3, 2]],
    #    "edges": [[0, 1], [0, 3], [1, 2]], "token": 1}: claimed N, actually P.
    # Every vertex is in G' (weights >= 2, no loops); lu: S = {3, 2} (2 ties with its only
    # neighbour 1), T = {0, 1}, so lu(1) = N. The proof's winning move, "to a vertex v of G' such
    # that w(v) < w(u) and lu(v) = P", does not exist: 1's neighbour in S has weight 4 = w(1).
    # It needs weight 4 and 4 vertices: Z3 proves the printed statement for all weights on
    # every graph with <= 3 vertices (run once, as thm10-corrected-all-weights without strict).
    Claim("vnim/thm10",
          text=("Undirected vertexnim: the four-case algorithm of the proof of Theorem 10, with the "
                "lu-labelling of Definition 11, decides the outcome (in O(|V||E|) time)."),
          reading=("The extraction printed Definition 11's '<=' as '6' and the proof's '>=' as '>'; both are"
                   " restored. With them the algorithm is wrong: on the path 3 - 0 - 1 - 2 with weights 2, "
                   "3, 4, 4 and the token on 1, vertex 2 ties with its neighbour 1 and enters S, so 1 is "
                   "labelled N, yet no move reaches a smaller-weight vertex of S and the position is P. A "
                   "false definition in the paper."),
          finding=Finding("paper-error", corrected="vnim/thm10-corrected"),
          source=_src("Theorem 10, Definition 11", "§4"), game="vertexnim", kind="char",
          family=connected(4), statement=per_order(thm10_p), bounds={"weight": (1, 4), **ADJ}, expect="refuted"),
    # Corrected: Definition 11 with T = the vertices next to a vertex of S of smaller weight (what
    # the proof's winning move uses); the rest of the four cases unchanged.
    Claim("vnim/thm10-corrected",
          text=("Theorem 10 with Definition 11 corrected (T = the vertices adjacent to a vertex of S of "
                "smaller weight, what the proof's winning move uses), the four cases unchanged: it decides "
                "undirected vertexnim."),
          reading="Our correction of Definition 11.",
          source=_src("Theorem 10, Definition 11 corrected", "§4"),
          game="vertexnim", kind="char", family=connected(5), statement=per_order(thm10_corrected_p),
          bounds={"weight": weights(1, 4, 2), **ADJ}, full={"weight": weights(1, 6, 5)}, timeout=900),
    # Z3 on 4 vertices too (run once, too slow for these profiles: 79 s CPU): proved, all weights,
    # every connected graph on 4 vertices with every loop set.
    Claim("vnim/thm10-corrected-all-weights",
          text=("The corrected Theorem 10 for all weights, on every graph with at most 3 vertices and every "
                "set of loops."),
          source=_src("Theorem 10, Definition 11 corrected", "§4"),
          game="vertexnim", kind="char", family=free(1, 2, 3), statement=per_order(thm10_corrected_p), assume=per_order(valid),
          bounds={"weight": 2}, full={"weight": 3}, methods=["explicit", "smt"], expect="proved"),

    # ---------------------------------------------------------------------------- Corollary 12: Vertex NimG
    # Refuted by a loop. Witness (G2.1 with a loop on 0):
    #   {"game": "vertex-nimg", "nodes": [[0, 1], [1, 2]], "edges": [[0, 1]], "loops": [0],
    #    "token": 1}: claimed N (case 3: w(1) = 2, neighbour 0 of weight 1), actually P: whatever
    #   is left on 1, the token goes to 0, which empties itself and stays through its loop.
    Claim("vnim/cor12",
          text=("Stockman's Vertex NimG (emptied vertices stay): four cases decide the outcome: weight 1 at "
                "the token and no loop: P; a loop at the token: N; weight >= 2 with a neighbour of weight 1:"
                " N; otherwise the lu-labelling of Theorem 10."),
          reading=("Refuted by a loop: the token on a vertex of weight 2 next to a vertex of weight 1 with a"
                   " loop is P, not N (whatever is left, the token goes to the looped vertex, which empties "
                   "itself and stays). The corollary treats loops explicitly (its second case), so this is "
                   "an error of the paper."),
          finding=Finding("paper-error", corrected="vnim/cor12-corrected"),
          source=_src("Corollary 12", "§4"), game="vertex-nimg", kind="char",
          family=connected(4), statement=cor12_p, bounds={"weight": (1, 4)}, expect="refuted"),
    # Without loops it fails too, through Definition 11 (as thm10), same witness:
    #   {"game": "vertex-nimg", "nodes": [[0, 3], [1, 4], [2, 4], [3, 2]],
    #    "edges": [[0, 1], [0, 3], [1, 2]], "token": 1}: claimed N, actually P.
    Claim("vnim/cor12-loopless",
          text=("Corollary 12 on graphs without loops: weight 1 at the token: P; weight >= 2 with a "
                "neighbour of weight 1: N; otherwise the lu-labelling of Theorem 10."),
          reading=("Fails through Definition 11, as vnim/thm10 does (the same path 3 - 0 - 1 - 2, weights 2,"
                   " 3, 4, 4, token on 1, is P): an error of the paper."),
          finding=Finding("paper-error", corrected="vnim/cor12-corrected"),
          source=_src("Corollary 12, graphs without loops", "§4"),
          game="vertex-nimg", kind="char", family=connected(4, loops="none"), statement=cor12_p,
          bounds={"weight": (1, 4)}, expect="refuted"),
    # The proof's closing remark on null weights fails without loops and with weights <= 2.
    # Witness (the path 1 - 0 - 2, G3.1):
    #   {"game": "vertex-nimg", "nodes": [[0, 1], [1, 0], [2, 2]], "edges": [[0, 1], [0, 2]],
    #    "token": 2}: claimed N (case 3), actually P: from 0 the opponent moves onto the 0 at 1.
    Claim("vnim/cor12-zeros",
          text=("Corollary 12 with vertices of weight 0 at the start, decided first as the end of its proof "
                "says: weight 0 at the token: P; a neighbour of weight 0: N; then the four cases."),
          reading=("The closing remark fails without loops and with weights <= 2: on the path 1 - 0 - 2 with"
                   " weights w(1) = 0, w(0) = 1, w(2) = 2 and the token on 2, case 3 says N but the position"
                   " is P (after the move to 0 the opponent moves onto the 0 at 1). An error of the paper."),
          finding=Finding("paper-error", corrected="vnim/cor12-corrected"),
          source=_src("Corollary 12, null weights (end of its proof)", "§4"),
          game="vertex-nimg", kind="char", family=connected(3, loops="none"), statement=cor12_p,
          bounds={"weight": 3}, expect="refuted"),
    # Corrected (all three faults): vertices of weight 0, and those of positive weight with a
    # loop or next to a 0, are decided first (P, N, N); the four cases run on the rest, with the
    # corrected lu. Z3: all weights (0 included), every connected graph on <= 3 vertices with
    # every loop set; run once on the 50 graphs with loops on 4 vertices (58 s CPU, too slow for
    # these profiles): proved too. The sweep below takes 4 and 5 vertices.
    Claim("vnim/cor12-corrected",
          text=("Corollary 12 corrected: weight 0 at the token is P; positive weight with a loop, or next to"
                " a 0, is N; on the other vertices the four cases decide, with the corrected lu-labelling."),
          reading="Our correction of the three faults of Corollary 12.",
          source=_src("Corollary 12 corrected", "§4"), game="vertex-nimg",
          kind="char", family=connected(3), statement=cor12_corrected_p,
          bounds={"weight": 4}, full={"weight": 6}, methods=["explicit", "smt"], expect="proved"),
    Claim("vnim/cor12-corrected-n5",
          text="The corrected Corollary 12 on connected graphs with 4 and 5 vertices, weights 0 included.",
          source=_src("Corollary 12 corrected", "§4"), game="vertex-nimg",
          kind="char", family=connected(5, min_n=4), statement=cor12_corrected_p,
          bounds={"weight": weights(0, 3, 2)}, full={"weight": weights(0, 6, 5)}, timeout=900),

    # ---------------------------------------------------------------------------- §5 misère
    # Refuted. Witness (a single vertex, no loop):
    #   {"game": "vertexnim", "nodes": [[0, 2]], "edges": [], "token": 0, "convention": "misere"}:
    #   claimed N (not all weights 1, and N in normal play), actually P: the only move empties it.
    Claim("vnim/thm13",
          text=("Misere undirected vertexnim: if every weight is 1, the first player wins iff |V| is even; "
                "otherwise the outcome is the same as in normal play."),
          reading=("Fails only on a single vertex without a loop and weight >= 2: its only move empties it, "
                   "the last move, which loses in misere play, so it is P (N in normal play). A one-vertex "
                   "graph is the degenerate case (removals add loops, so it arises only at the start): "
                   "degenerate instance only. 'N in normal play' is computed with the corrected Theorem 10, "
                   "so that the misere claim itself is what is checked."),
          finding=Finding("degenerate", corrected="vnim/thm13-corrected"),
          source=_src("Theorem 13", "§5"), game="vertexnim", kind="char", convention="misere",
          family=connected(4), statement=per_order(thm13_p), bounds={"weight": (1, 4), **ADJ}, expect="refuted"),
    Claim("vnim/thm13-corrected",
          text=("Theorem 13 with its one exception added: a lone vertex without a loop and weight >= 2 is P "
                "in misere play."),
          source=_src("Theorem 13 corrected", "§5"), game="vertexnim", kind="char",
          convention="misere", family=connected(4), statement=per_order(thm13_corrected_p),
          bounds={"weight": (1, 4), **ADJ}, full={"weight": (1, 6)}),
    # Z3 on 4 vertices too (run once, 90 s CPU): proved, all weights, every graph, every loop set.
    Claim("vnim/thm13-corrected-all-weights",
          text=("The corrected Theorem 13 for all weights, on every graph with at most 3 vertices and every "
                "set of loops."),
          source=_src("Theorem 13 corrected", "§5"), game="vertexnim",
          kind="char", convention="misere", family=free(1, 2, 3), statement=per_order(thm13_corrected_p), assume=per_order(valid),
          bounds={"weight": 2}, full={"weight": 3}, methods=["explicit", "smt"], expect="proved"),
    Claim("vnim/thm14",
          text=("Misere directed vertexnim on a strongly connected digraph with a loop on every vertex: if "
                "every weight is 1, the first player wins iff |V| is even; otherwise the outcome is that of "
                "normal play (Theorem 6)."),
          source=_src("Theorem 14", "§5"), game="directed-vertexnim", kind="char",
          convention="misere", family=strong_digraphs(4), statement=per_order(thm14_p),
          bounds={"weight": (1, 3), **ARC}, full={"weight": (1, 5)}),
    Claim("vnim/thm14-all-weights",
          text=("Theorem 14 for all weights, on every digraph with at most 3 vertices and a loop on every "
                "vertex."),
          source=_src("Theorem 14", "§5"), game="directed-vertexnim", kind="char",
          convention="misere", family=free(1, 2, 3, directed=True, loops="every"), statement=per_order(thm14_p),
          assume=per_order(valid_all_loops), bounds={"weight": 2}, full={"weight": 3}, methods=["explicit", "smt"],
          expect="proved"),
]
