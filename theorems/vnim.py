"""vnim: E. Duchêne, G. Renault, *Vertex Nim played on graphs* (TCS 2014).

Games: ``adjacent-nim`` and ``directed-vertexnim`` (Section 2, 3, 5), ``vertexnim`` (Section 4,
5), ``vertex-nimg`` (Stockman's remove-then-move Vertex NimG: Remark 5, Corollary 12).

The paper's results are algorithms ("deciding whether (G, w, u) is P or N can be done in
O(|V||E|) time"); what is checked is the characterization each proof establishes, written
below as an IR predicate over the position (true exactly at the P-positions). The labellings
the algorithms compute (lo, Definition 7; lu, Definition 11) are fixpoints over the graph;
here they are unrolled: |V| rounds of "take the sinks / local minima and their in-neighbours",
each round an IR expression, so the same text runs in the explicit sweep and in Z3.

In vertexnim the graph changes during play (a removed vertex's neighbourhood becomes a
clique with loops), so the adjacency is part of the state (``adj``, ``arc``) and every
statement reads the *current* graph: the vertices of positive weight and the state's
adjacency. The explicit sweeps hold the adjacency at the family structure's own edges and
loops (the bound ``initial``); the SMT claims (``*-all-weights``) instead take one structure
per number of vertices with the adjacency free, restricted by ``assume`` to the positions of
the game (connected, removed vertices isolated): that covers every graph with every loop set.
"""
from __future__ import annotations

import itertools

import networkx as nx

from grundy.spec import Play, Structure, all_of, any_of, count, ite, minimum, move_index, total
from grundy.verify import Claim, Family, Source, all_graphs

PAPER = "vnim"


# ============================================================================ families
def initial(g, key):
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
    """Every set of loops on g, one per orbit of g's automorphism group."""
    out = []
    for r in range(g.n + 1):
        for c in itertools.combinations(range(g.n), r):
            if all(tuple(sorted(sigma[v] for v in c)) >= c for sigma in g.automorphisms):
                out.append(c)
    return out


def connected(max_n: int, min_n: int = 1, loops: str = "any", only: set[str] | None = None) -> Family:
    """The connected graphs on min_n..max_n vertices (atlas), with loops: ``"any"`` (every loop
    set, one per orbit of the automorphisms), ``"every"`` (a loop on each vertex), ``"none"``."""
    items = []
    for name, g in all_graphs(max_n, min_n=min_n, connected=True).items():
        if only is not None and name not in only:
            continue
        sets = {"any": loop_sets(g), "every": [tuple(g.vertices)], "none": [()]}[loops]
        items += [_with_loops(name, g, c) for c in sets]
    what = {"any": "with every loop set", "every": "with a loop on every vertex", "none": "without loops"}
    return Family(items, f"connected graphs on {min_n}..{max_n} vertices {what[loops]}")


def strong_digraphs(max_n: int, min_n: int = 1) -> Family:
    """The strongly connected digraphs on min_n..max_n vertices up to isomorphism, a loop on
    every vertex (max_n <= 4: 1, 1, 5, 83 of them)."""
    items = []
    for n in range(min_n, max_n + 1):
        pairs = [(a, b) for a in range(n) for b in range(n) if a != b]
        perms = list(itertools.permutations(range(n)))
        seen, k = set(), 0
        for bits in range(1 << len(pairs)):
            arcs = [p for i, p in enumerate(pairs) if bits >> i & 1]
            d = nx.DiGraph(arcs)
            d.add_nodes_from(range(n))
            if not nx.is_strongly_connected(d):
                continue
            key = min(tuple(sorted((s[a], s[b]) for a, b in arcs)) for s in perms)
            if key in seen:
                continue
            seen.add(key)
            k += 1
            items.append((f"D{n}.{k}", Structure.graph(range(n), arcs, loops=range(n), directed=True)))
    return Family(items, f"strongly connected digraphs on {min_n}..{max_n} vertices, a loop on every vertex")


def circuits(*ns: int) -> Family:
    """Elementary circuits v1 -> v2 -> ... -> vN -> v1 (as adjacent-nim reads its heaps)."""
    items = []
    for n in ns:
        names = [f"v{i + 1}" for i in range(n)]
        items.append((f"C_{n}", Structure.graph(names, [(names[i], names[(i + 1) % n]) for i in range(n)],
                                                directed=True)))
    return Family(items, "circuits " + ", ".join(f"C_{n}" for n in ns))


def free(*ns: int, directed: bool = False) -> Family:
    """One structure per number of vertices, for the claims whose adjacency is left free (the
    SMT proofs): the structure only names the vertices; its complete graph (all loops) lends
    the sweep every vertex permutation as a symmetry, which the rules respect."""
    items = []
    for n in ns:
        pairs = [(a, b) for a in range(n) for b in range(n) if a != b and (directed or a < b)]
        items.append((f"{n} vertices", Structure.graph(range(n), pairs, loops=range(n), directed=directed)))
    what = "digraph" if directed else "graph"
    return Family(items, f"every {what} on {', '.join(map(str, ns))} vertices with any loops"
                         f"{' (strongly connected)' if directed else ' (connected)'}")


# ============================================================================ IR helpers
def closure(n, inside, edge):
    """Reflexive-transitive closure of ``edge(p, q)`` among the vertices where ``inside`` holds
    (Floyd-Warshall, unrolled): r[p][q] iff q is reachable from p inside."""
    r = [[inside[p] & inside[q] & (True if p == q else edge(p, q)) for q in range(n)] for p in range(n)]
    for k in range(n):
        r = [[r[p][q] | (r[p][k] & r[k][q]) if k not in (p, q) else r[p][q] for q in range(n)]
             for p in range(n)]
    return r


def reached(n, inside, edge, source):
    """The vertices reachable from ``source`` (a bool per vertex) inside: n - 1 rounds."""
    r = list(source)
    for _ in range(n - 1):
        r = [r[v] | (inside[v] & any_of(r[q] & edge(q, v) for q in range(n) if q != v)) for v in range(n)]
    return r


def lu_p(n, inside, edge, w, strict=False):
    """Definition 11, unrolled: the vertices labelled P by lu on the graph induced by ``inside``.
    Each round, S = the local minima of the weight (w(u) <= w(v) for every neighbour v) get P,
    T = their other neighbours get N, and both are removed; |V| rounds empty the graph (a
    global minimum is always in S)."""
    rem, lab = list(inside), [False] * n
    for _ in range(n):
        s_ = [rem[u] & all_of(~(rem[v] & edge(u, v)) | (w[u] <= w[v]) for v in range(n) if v != u)
              for u in range(n)]
        t_ = [rem[v] & ~s_[v] & any_of(s_[u] & edge(v, u) & ((w[u] < w[v]) if strict else True)
                                       for u in range(n) if u != v) for v in range(n)]
        lab = [lab[u] | s_[u] for u in range(n)]
        rem = [rem[u] & ~s_[u] & ~t_[u] for u in range(n)]
    return lab


def lo_p(n, inside, arc):
    """Definition 7, unrolled: the vertices labelled P by lo on the digraph induced by ``inside``.
    Each round takes every strongly connected component S without out-arcs (the choice of S
    does not matter, the paper notes; taking all of them at once is one order of choosing):
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


def at_token(g, s, f):
    """``f(u)`` at the token's vertex u."""
    return any_of((s.token == u) & f(u) for u in g.vertices)


class Current:
    """The current graph of a vertexnim position: vertices of positive weight, the state's
    adjacency (``adj`` over pairs, or ``arc`` over ordered pairs) between them."""

    def __init__(self, g, s):
        self.g, self.s, self.n = g, s, g.n
        self.w = [s.weight[v] for v in g.vertices]
        self.alive = [x > 0 for x in self.w]
        self.directed = g.directed

    def edge(self, p, q):
        if self.directed:
            return self.alive[p] & self.alive[q] & self.s.arc[p, q]
        return self.alive[p] & self.alive[q] & self.s.adj[p, q]

    def loop(self, v):
        return self.alive[v] & (self.s.arc[v, v] if self.directed else self.s.adj[v, v])

    def size(self):
        return count(self.alive)

    def empty(self):
        return all_of(~a for a in self.alive)

    def all_ones(self):
        return all_of(x <= 1 for x in self.w)


# ============================================================================ Section 2: circuits
def walk(g, t):
    """The vertices of the circuit in order from t (t first)."""
    out = [t]
    while len(out) < g.n:
        out.append(g.neighbours(out[-1])[0])
    return out


def first_min_at(w, order, j):
    """The first vertex of ``order`` with the minimum weight is order[j]."""
    x = w[order[j]]
    return all_of([x < w[order[i]] for i in range(j)] + [x <= w[order[i]] for i in range(j + 1, len(order))])


def thm3_p(g, s):
    # Theorem 3: C_N, N >= 3, every weight >= 2, token on v1. N odd: N. N even: N iff the first
    # index (1-based, from v1) of a minimum weight is even. The paper fixes the token on v1
    # "without loss of generality"; indices are counted from the token, so any token is covered.
    if g.n % 2 == 1:
        return False
    w = [s.weight[v] for v in g.vertices]
    return at_token(g, s, lambda t: any_of(first_min_at(w, walk(g, t), j) for j in range(0, g.n, 2)))


def weights_at_least_2(g, s):
    return all_of(s.weight[v] >= 2 for v in g.vertices)


def remark5_p(g, s):
    # Remark 5: Vertex NimG on circuits: "Theorem 3 remains true, even if there are vertices of
    # weight 1". Completion (weights 0 occur in play): the player who must play from a 0
    # loses, and the first 0 met from the token is met by the same player whatever is played
    # before it (a vertex emptied on the way comes back only N steps later); so with a 0 the
    # position is P iff the first 0 has an odd 1-based index. That is the even rule with min 0.
    # Altogether: P iff the first minimum has an odd index, and N is even or the minimum is 0.
    w = [s.weight[v] for v in g.vertices]
    zero = minimum(w) == 0
    return at_token(g, s, lambda t: (zero | (g.n % 2 == 0))
                    & any_of(first_min_at(w, walk(g, t), j) for j in range(0, g.n, 2)))


def remark5_strategy(g, s, rules):
    # from the proof of Theorem 3: with N odd and no 0, empty v1 (the 0 is then met last, at the
    # even index N - 1); otherwise lower the current vertex by 1.
    w = [s.weight[v] for v in g.vertices]
    zero = minimum(w) == 0
    out = []
    for t in g.vertices:
        nxt = g.neighbours(t)[0]
        mv = move_index(rules, f"w({g.names[t]}) -> {{k}}, token to {g.names[nxt]}")
        if g.n % 2 == 1:
            out.append(Play((s.token == t) & ~zero, mv, {"k": 0}))
        out.append(Play(s.token == t, mv, {"k": s.weight[t] - 1}))
    return out


# ============================================================================ Section 3: directed, all loops
def thm6_p(g, s, misere=False):
    # Theorem 6 (proof): G' = the vertices of weight 1. If every vertex has weight 1: N iff
    # |V| odd ("she loves me, she loves me not"). Otherwise w(u) >= 2: N; w(u) = 1: N iff
    # lo_G'(u) = N. Theorem 14 (misère): all weights 1: N iff |V| even; otherwise as here.
    c = Current(g, s)
    ones = [x == 1 for x in c.w]
    lab = lo_p(c.n, ones, c.edge)
    p_all_ones = (c.size() % 2 == 1) if misere else (c.size() % 2 == 0)
    return ite(c.all_ones(), p_all_ones, at_token(g, s, lambda u: (c.w[u] == 1) & lab[u]))


def thm14_p(g, s):
    return thm6_p(g, s, misere=True)


# ============================================================================ Section 4: undirected
def prop9_p(g, s):
    # Proposition 9 (proof): a loop on every vertex, G' = the vertices of weight 1. All weights
    # 1: N iff |V| odd. Otherwise w(u) >= 2: N; w(u) = 1: N iff the component of u in G' has an
    # even number of vertices.
    c = Current(g, s)
    ones = [x == 1 for x in c.w]
    comp = reached(c.n, ones, c.edge, [(s.token == v) & ones[v] for v in g.vertices])
    return ite(c.all_ones(), c.size() % 2 == 0, at_token(g, s, lambda u: c.w[u] == 1) & (count(comp) % 2 == 1))


def thm10_p(g, s, misere=False):
    # Theorem 10 (proof), the four-case algorithm. Gu = the vertices of weight 1 and u;
    # G' = the vertices v with w(v) >= 2, no loop, and every neighbour of weight >= 2.
    #   G = Gu, w(u) = 1: N iff |V| odd.  G = Gu, w(u) >= 2: N.  Otherwise:
    #   (1) w(u) >= 2 and a loop on u: N.
    #   (2) w(u) = 1: N iff the component of u in Gu has an even number of vertices.
    #   (3) w(u) >= 2 and a neighbour of weight 1: N.
    #   (4) u in G': N iff lu_{G',w}(u) = N (Definition 11).
    # Theorem 13 (misère): all weights 1: N iff |V| even; "otherwise ... N in the misère version
    # if and only if it is N in the normal version".
    c = Current(g, s)
    ones = [x == 1 for x in c.w]
    comp = reached(c.n, ones, c.edge, [(s.token == v) & ones[v] for v in g.vertices])
    in_g1 = [c.alive[v] & (c.w[v] >= 2) & ~c.loop(v)
             & all_of(~c.edge(v, q) | (c.w[q] >= 2) for q in g.vertices if q != v) for v in g.vertices]
    lab = lu_p(c.n, in_g1, c.edge, c.w)

    def p_at(u):
        rest_ones = all_of(c.w[v] <= 1 for v in g.vertices if v != u)          # G = Gu
        one_nb = any_of(c.edge(u, v) & ones[v] for v in g.vertices if v != u)
        return c.alive[u] & ite(
            rest_ones, (c.w[u] == 1) & (c.size() % 2 == 0),
            ite(c.w[u] == 1, count(comp) % 2 == 1,                             # case (2)
                ~c.loop(u) & ~one_nb & lab[u]))                                # (1), (3), (4)
    normal = c.empty() | at_token(g, s, p_at)
    if not misere:
        return normal
    return ite(c.all_ones(), c.size() % 2 == 1, normal)


def thm13_p(g, s):
    return thm10_p(g, s, misere=True)


def thm13_corrected_p(g, s):
    # Theorem 13 with the one exception the check finds: a single vertex without a loop and
    # weight >= 2 (its only move empties it: the last move, which loses in misère play) is P,
    # where normal play makes it N. (Removals add loops, so this arises only at the start.)
    c = Current(g, s)
    lone = (c.size() == 1) & at_token(g, s, lambda u: ~c.loop(u) & (c.w[u] >= 2))
    return lone | thm13_p(g, s)


# ============================================================================ Corollary 12: Vertex NimG
def cor12_p(g, s, loopless_one=False):
    # Corollary 12 (Stockman's Vertex NimG, the graph never changes):
    #   w(u) = 1 and no loop on u: P.   w(u) >= 1 and a loop on u: N.
    #   w(u) >= 2 and a neighbour v with w(v) = 1: N.   u in G': lu_{G',w}(u) as in Theorem 10.
    # "the proof is still working if there exist vertices of null weight at the beginning. It
    # suffices to consider the two following properties: if w(u) = 0 then this is P, and if u is
    # adjacent to some v with w(v) = 0, then it is N." (read: checked before the four cases)
    # loopless_one: the correction tried for case 3 (the neighbour of weight 1 has no loop).
    w = [s.weight[v] for v in g.vertices]
    nb = lambda u: g.neighbours(u)                                            # noqa: E731
    in_g1 = [(w[v] >= 2) & (not g.has_loop(v)) & all_of(w[q] >= 2 for q in nb(v)) for v in g.vertices]
    lab = lu_p(g.n, in_g1, lambda p, q: g.adjacent(p, q), w)

    def p_at(u):
        zero_nb = any_of(w[v] == 0 for v in nb(u))
        one_nb = any_of((w[v] == 1) & (not (loopless_one and g.has_loop(v))) for v in nb(u))
        if g.has_loop(u):
            return w[u] == 0
        return (w[u] == 0) | (~zero_nb & ite(w[u] == 1, True, ~one_nb & in_g1[u] & lab[u]))
    return at_token(g, s, p_at)


# ============================================================================ claims
def _src(number, section):
    return Source(PAPER, number, section)


ADJ = {"adj": initial}
ARC = {"arc": initial}

CLAIMS = [
    Claim("vnim/thm3", source=_src("Theorem 3", "§2"), game="adjacent-nim", kind="char",
          family=circuits(3, 4, 5, 6), statement=thm3_p, assume=weights_at_least_2,
          bounds={"weight": (2, 4), **ARC}, full={"weight": (2, 5)}),
    Claim("vnim/remark5", source=_src("Remark 5", "§2"), game="vertex-nimg", kind="char",
          family=circuits(3, 4, 5, 6), statement=remark5_p, strategy=remark5_strategy,
          bounds={"weight": 4}, full={"weight": 6}, methods=["explicit", "smt"], expect="proved"),
    Claim("vnim/thm6", source=_src("Theorem 6", "§3"), game="directed-vertexnim", kind="char",
          family=strong_digraphs(4), statement=thm6_p, bounds={"weight": (1, 3), **ARC}),
    Claim("vnim/prop9", source=_src("Proposition 9", "§4"), game="vertexnim", kind="char",
          family=connected(5, loops="every"), statement=prop9_p, bounds={"weight": (1, 3), **ADJ}),
    Claim("vnim/thm10", source=_src("Theorem 10", "§4"), game="vertexnim", kind="char",
          family=connected(4), statement=thm10_p, bounds={"weight": (1, 3), **ADJ}),
    Claim("vnim/cor12", source=_src("Corollary 12", "§4"), game="vertex-nimg", kind="char",
          family=connected(4), statement=cor12_p, bounds={"weight": 3}, expect="refuted"),
    Claim("vnim/thm13", source=_src("Theorem 13", "§5"), game="vertexnim", kind="char",
          family=connected(4), statement=thm13_p, bounds={"weight": (1, 3), **ADJ},
          convention="misere", expect="refuted"),
    Claim("vnim/thm13-corrected", source=_src("Theorem 13, corrected", "§5"), game="vertexnim", kind="char",
          family=connected(4), statement=thm13_corrected_p, bounds={"weight": (1, 3), **ADJ},
          convention="misere"),
    Claim("vnim/thm14", source=_src("Theorem 14", "§5"), game="directed-vertexnim", kind="char",
          family=strong_digraphs(4), statement=thm14_p, bounds={"weight": (1, 3), **ARC},
          convention="misere"),
]
