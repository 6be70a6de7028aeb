"""erickson: L. Erickson, The Game of Nim on Graphs (PhD thesis, NDSU 2011).

Edge-nim on even cycles. Proposition 3.1 is stated for an arbitrary weight assignment;
the moves reach assignments with zero weights (a zero edge is gone: the cycle becomes
paths), and the statement below covers those too: with a zero edge, m = 0 and G' = G,
so it reads "N iff a run from the token is odd", which is the path theorem (2.2) —
that part is completion.

The other chapters (numbers in brackets: the paper erickson-kn):
- §2 (Fukuyama's path and odd-cycle theorem) is written over every weight assignment, zeros
  included (completion, as for Proposition 3.1), and proved with Z3 on P_2..P_8, C_3, C_5, C_7.
- Unit-weight theorems (K_{2,j}, SSB_j, K_n, Q_n, K_{m,n}, Petersen) are outcome claims at the
  unit position. On vertex-transitive K_n and Q_n the token starts on vertex 0 (``at_zero``: the
  paper does the same, "Start with the token on 0"), since the symmetric sweep is slow there.
- Strategies (Lemma 4.3's SSB strategy, the complete graph strategy of Conjectures 4.9-4.11,
  Lemma 6.3's levels strategy) are played by the checker against every reply.
- Conjecture 4.12 is an implication between two positions; see the comment at the claim.
- Propositions 5.5-5.7 (Petersen, a unique edge of minimum weight) are swept with that edge
  fixed to edge 0 (the Petersen graph is edge-transitive) and every token.
"""
import networkx as nx

from grundy.spec import Play, all_of, any_of, count, minimum, move_index
from grundy.verify import Claim, Finding, Source, cycles
from grundy.verify.families import (
    Family,
    Lazy,
    all_graphs,
    complete,
    complete_bipartite,
    graphs,
    hypercubes,
    paths,
    petersen,
    ssb,
)

THESIS = "erickson"


def runs(g, t):
    """The two walks around the cycle from vertex t: lists of (edge id, next vertex)."""
    out = []
    for first in g.neighbours(t):
        walk, prev, cur = [], t, first
        walk.append((g.edge_id(prev, cur), cur))
        while cur != t:
            nxt = next(v for v in g.neighbours(cur) if v != prev)
            prev, cur = cur, nxt
            walk.append((g.edge_id(prev, cur), cur))
        out.append(walk)
    return out


def odd_run(g, s, walk):
    """The run of positive G'-edges (weight > m) along ``walk`` has odd length."""
    m = minimum(s.weight[e] for e in range(len(g.edges)))
    up = [s.weight[e] > m for e, _ in walk]
    return any_of(all_of(up[:j]) & ~up[j] for j in range(1, len(walk), 2))


def even_cycle_p(g, s):
    # Proposition 3.1 [2.1]: C_2n, m = min weight, G' = weights - m: N iff the token has an
    # odd path option in G' (one of the two runs of positive G'-edges leaving it is odd).
    return ~any_of((s.token == t) & any_of(odd_run(g, s, w) for w in runs(g, t)) for t in g.vertices)


def even_cycle_strategy(g, s, rules):
    # "P1 moves in the direction of the odd path in G', decreasing the weight of e12 to zero"
    # in G': in G, move along an odd run and set that edge's weight to m.
    m = minimum(s.weight[e] for e in range(len(g.edges)))
    return [Play((s.token == t) & odd_run(g, s, walk), move_index(rules, f"{g.names[t]}->{g.names[walk[0][1]]},"),
                 {"w": m})
            for t in g.vertices for walk in runs(g, t)]


def all_positive(g, s):
    # the strategy wins on the whole family; "exactly these moves win" is claimed on C_2n
    # itself (every weight positive): with a zero edge (a path) lowering an edge of an odd run
    # to a value above 0 may win too, e.g. token on the middle of a path with weights 1, 2
    return all_of(s.weight[e] > 0 for e in range(len(g.edges)))



# ================================================================== chapter 2: paths, odd cycles
def walks(g, t):
    """From vertex t, one walk per neighbour, straight on until a dead end (a path's end) or back
    at t (around a cycle): lists of (edge id, next vertex). For paths and cycles."""
    out = []
    for first in g.neighbours(t):
        walk, prev, cur = [(g.edge_id(t, first), first)], t, first
        while cur != t:
            nxt = [v for v in g.neighbours(cur) if v != prev]
            if not nxt:
                break
            prev, cur = cur, nxt[0]
            walk.append((g.edge_id(prev, cur), cur))
        out.append(walk)
    return out


def run_odd(s, walk):
    """The run of positive edges leaving the token along ``walk`` (up to the first zero edge, or the
    whole walk) has odd length."""
    up = [s.weight[e] > 0 for e, _ in walk]
    cut = any_of(all_of(up[:j]) & ~up[j] for j in range(1, len(walk), 2))
    return cut | all_of(up) if len(walk) % 2 else cut


def path_p(g, s):
    # Theorem 2.2 (paths): the token splits the path into parts of a and b edges; N iff a or b
    # is odd. Completion: a zero edge is gone, so a and b are the runs of positive edges leaving
    # the token. On an odd cycle with every weight positive the "run" is the whole cycle (odd): N
    # (the odd-cycle half of 2.2); with a zero edge the cycle is a path.
    return ~any_of((s.token == t) & any_of(run_odd(s, w) for w in walks(g, t)) for t in g.vertices)


def path_strategy(g, s, rules):
    # the witness for (NP): move along an odd run and remove all the weight of that edge
    return [Play((s.token == t) & run_odd(s, w), move_index(rules, f"{g.names[t]}->{g.names[w[0][1]]},"),
                 {"w": 0})
            for t in g.vertices for w in walks(g, t)]


def uniform(g, s):
    """Every edge has the same weight."""
    return all_of(s.weight[e] == s.weight[0] for e in range(1, len(g.edges)))


def P_always(g, s):
    return True


def N_always(g, s):
    return False


def token_in(vs):
    """The token is on one of the vertices ``vs``."""
    return lambda g, s: any_of(s.token == v for v in vs)


UNIT = {"weight": (1, 1)}


def unit_up_to(n):
    def bound(g, e):
        return [1] if g.n <= n else []
    bound.__doc__ = f"1 on graphs of at most {n} vertices (none beyond)"
    return bound


def up_to_on_at_most(hi, n, hi_beyond):
    def bound(g, e):
        return list(range(1, (hi if g.n <= n else hi_beyond) + 1))
    bound.__doc__ = f"1..{hi} on graphs of at most {n} vertices, 1..{hi_beyond} beyond"
    return bound


def at_zero(g, s):
    """The token starts on vertex 0 (on a vertex-transitive graph: no loss of generality; the
    symmetric sweep is slow there, as the automorphism groups of K_n and Q_n are large)."""
    return s.token == 0


# ================================================================== chapter 4: complete graphs
def ssb_strategy(g, s, rules):
    # Lemma 4.3 [4.1], the SSB strategy on K_n (v1, v2 = vertices 0, 1): "A moves from v1 to
    # v2" first, then "A choosing to move to whichever of the v1 or v2 options exist".
    mv = lambda a, b: move_index(rules, f"{g.names[a]}->{g.names[b]},")  # noqa: E731
    out = [Play((s.token == 0) & (s.weight[g.edge_id(0, 1)] > 0), mv(0, 1), {"w": 0})]
    for x in g.vertices:
        for hub in (0, 1):
            if x not in (0, 1):
                out.append(Play((s.token == x) & (s.weight[g.edge_id(x, hub)] > 0), mv(x, hub), {"w": 0}))
    return out


def mutual_tokens(g):
    """The vertices with a mutually adjacent partner (Definition 4.4: adjacent, and the same
    other neighbours)."""
    out = set()
    for u, v in g.edges:
        if set(g.neighbours(u)) - {v} == set(g.neighbours(v)) - {u}:
            out |= {u, v}
    return sorted(out)


def with_mutual_pair(fam):
    """The structures of ``fam`` with two mutually adjacent vertices (filtered when a claim
    first reads the family: loading the file stays fast)."""
    return Lazy(lambda: ((n, g) for n, g in fam.items() if mutual_tokens(g)),
                f"{fam.scope} with two mutually adjacent vertices")


def degree(g, s, v):
    """The current degree of v: its edges of positive weight."""
    return count(s.weight[e] > 0 for e in g.incident(v))


def complete_graph_strategy(g, s, rules):
    # Conjectures 4.9-4.11 [§4]: "P1 should always move to the vertex of lowest degree and
    # remove all weight from the corresponding edge". Degree: current degree (positive edges);
    # ties (the paper: "P1 always has isomorphic options as the lowest degree option") are
    # broken towards the lowest vertex number.
    out = []
    for t in g.vertices:
        opts = [v for v in g.neighbours(t)]
        live = {v: s.weight[g.edge_id(t, v)] > 0 for v in opts}
        for v in opts:
            best = all_of(~live[u] | (degree(g, s, v) < degree(g, s, u)) |
                          ((degree(g, s, v) == degree(g, s, u)) & (v < u)) for u in opts if u != v)
            out.append(Play((s.token == t) & live[v] & best,
                            move_index(rules, f"{g.names[t]}->{g.names[v]},"), {"w": 0}))
    return out


def kn_pendant(*ns):
    """K_n plus a pendant edge at vertex 0; the end vertex is n."""
    out = []
    for n in ns:
        h = nx.complete_graph(n)
        h.add_edge(0, n)
        out.append((f"K_{n}+pendant", h))
    return graphs(*out)


def off_pendant(g, s):
    """The token is on a vertex of the K_n (not the pendant's end vertex, the last one)."""
    return s.token != g.n - 1


# ================================================================== chapter 5: the Petersen graph
def _edge_distance(g):
    h = g.to_networkx()
    d = dict(nx.all_pairs_shortest_path_length(h))
    return {(t, e): min(d[t][a], d[t][b]) for e, (a, b) in enumerate(g.edges) for t in g.vertices}


def unique_min_at(dist):
    """Exactly one edge of minimum weight, at distance ``dist`` from the token (0: incident)."""
    def assume(g, s):
        d = _edge_distance(g)
        m = len(g.edges)
        return any_of(all_of(s.weight[e] < s.weight[f] for f in range(m) if f != e) &
                      any_of(s.token == t for t in g.vertices if d[t, e] == dist)
                      for e in range(m))
    return assume


def rest_uniform(assume):
    """``assume``, and every edge but edge 0 of one weight."""
    def both(g, s):
        return assume(g, s) & all_of(s.weight[e] == s.weight[1] for e in range(2, len(g.edges)))
    return both


def min_edge_first(hi):
    def bound(g, e):
        """edge 0 is the unique minimum (edge-transitive: no loss), weights 1..%d"""
        return [1] if e == 0 else list(range(2, hi + 1))
    bound.__doc__ = f"edge 0 weight 1, the others 2..{hi} (edge-transitive: WLOG)"
    return bound


# ================================================================== chapter 6: hypercubes
def cubes(*ds):
    """Q_d; Q_1 = K_2 built here (families.hypercubes(1) fails: networkx names Q_1's vertices by
    ints, not tuples)."""
    q1 = [("Q_1", paths(2).items()[0][1])] if 1 in ds else []
    rest = [d for d in ds if d != 1]
    return Family(q1 + (hypercubes(*rest).items() if rest else []), ", ".join(f"Q_{d}" for d in ds))


def cube_levels(*ds):
    """The subgraph of Q_d induced by levels 0, 1, 2 (vertices, as bit masks, with at most two ones)."""
    def level_graph(d):
        q = nx.hypercube_graph(d)
        mask = {v: sum(b << i for i, b in enumerate(v)) for v in q}
        return nx.Graph((mask[u], mask[v]) for u, v in q.edges if sum(u) <= 2 and sum(v) <= 2)
    return graphs(*[(f"L2(Q_{d})", level_graph(d)) for d in ds],
                  scope=", ".join(f"Q_{d} levels 0..2" for d in ds))


def hypercube_p(g, s):
    # Theorems 6.4, 6.5 (Corollaries 6.6, 6.7): unit Q_n is N iff n is odd
    return (g.n.bit_length() - 1) % 2 == 0


def levels_strategy(g, s, rules):
    # Lemma 6.3: P1 (on the even levels) keeps play within levels 0, 1, 2: from level 0 or
    # level 2 P1 moves to a level-1 neighbour ("there is always an option in level 1 for any ij
    # in level 2"); the lowest-numbered one first.
    lvl = lambda v: bin(v).count("1")  # noqa: E731
    return [Play((s.token == t) & (s.weight[g.edge_id(t, v)] > 0),
                 move_index(rules, f"{g.names[t]}->{g.names[v]},"), {"w": 0})
            for t in g.vertices if lvl(t) in (0, 2) for v in g.neighbours(t) if lvl(v) == 1]


CLAIMS = [
    # ------------------------------------------------------------ chapter 2 (from Fukuyama)
    Claim("erickson/2.2-paths",
          text=("Edge-nim on a path with any positive weights, the token splitting it into runs of a and b "
                "edges: the first player wins iff a or b is odd."),
          source=Source(THESIS, "Theorem 2.2 (paths)", "§2"),
          game="edge-nim", kind="char", family=paths(range(2, 9)),
          statement=path_p, strategy=path_strategy,
          bounds={"weight": 2}, full={"weight": 3},
          methods=["explicit", "smt"], expect="proved"),
    Claim("erickson/2.2-odd-cycle",
          text=("Edge-nim on an odd cycle with any positive weights: the first player wins from every "
                "vertex."),
          source=Source(THESIS, "Theorem 2.2 (odd cycles)", "§2"),
          game="edge-nim", kind="char", family=cycles(3, 5, 7),
          statement=path_p, strategy=path_strategy,
          bounds={"weight": 2}, full={"weight": 3},
          methods=["explicit", "smt"], expect="proved"),
    Claim("erickson/3-uniform-even-cycle",
          text=("Edge-nim on an even cycle whose edges all have the same weight k >= 1: the second player "
                "wins (quoted from Fukuyama)."),
          source=Source(THESIS, "§3 (Fukuyama: uniform even cycles)", "§3"),
          game="edge-nim", kind="char", family=cycles(4, 6, 8, 10),
          statement=P_always, assume=uniform,
          bounds={"weight": (1, 3)}, full={"weight": (1, 4)}, expect="verified"),
    Claim("erickson/prop3.1",
          text=("Edge-nim on an even cycle C_2n with any positive weights. Let m be the minimum weight and "
                "G' the cycle with m taken off every edge (edges left at 0 dropped). The first player wins "
                "iff one of the two runs of positive G'-edges leaving the token has odd length."),
          source=Source(THESIS, "Proposition 3.1 [2.1]", "§3"),
          game="edge-nim", kind="char", family=cycles(4, 6, 8),
          statement=even_cycle_p, strategy=even_cycle_strategy,   # the strategy: a witness for (NP)
          bounds={"weight": 2}, full={"weight": 4},
          methods=["explicit", "smt"], expect="proved"),
    Claim("erickson/prop3.1-strategy",
          text=("In the setting of Proposition 3.1, the first player wins by moving along an odd run of G' "
                "and setting the weight of the edge crossed to the minimum m."),
          reading=("The existence half of the strategy claim (the thesis also claims uniqueness: "
                   "erickson/prop3.1-strategy-unique)."),
          source=Source(THESIS, "Proposition 3.1 [2.1]", "§3"),
          game="edge-nim", kind="strategy", family=cycles(4, 6, 8),
          statement=even_cycle_p, strategy=even_cycle_strategy,
          bounds={"weight": 2}, full={"weight": 4},
          methods=["explicit", "smt"], expect="proved"),
    # Our reading of the strategy is "exactly the winning moves" (existence and uniqueness).
    # Uniqueness fails already on C_4 with positive weights; the minimal witness is in the report.
    Claim("erickson/prop3.1-strategy-unique",
          text=("In the setting of Proposition 3.1 (every weight positive), the winning moves are exactly "
                "those of the strategy: along an odd run of G', setting the edge crossed to m; every other "
                "move loses."),
          reading=("The thesis proves uniqueness in so many words ('To establish the uniqueness of this "
                   "strategy, we must show that any move except one to reduce the edge weight to m on the "
                   "odd path option results in a loss'). It is false on C_4 with positive weights (2, 1, 1, "
                   "3 around the cycle, token between the edges of weights 2 and 3): lowering the weight-3 "
                   "edge to 2 wins as well. Classified as an error of the paper, not of the extraction; the "
                   "existence half, erickson/prop3.1-strategy, is proved."),
          finding=Finding("paper-error", corrected="erickson/prop3.1-strategy"),
          source=Source(THESIS, "Proposition 3.1 [2.1]", "§3"),
          game="edge-nim", kind="strategy", family=cycles(4, 6, 8),
          statement=even_cycle_p, strategy=even_cycle_strategy, exact=all_positive,
          bounds={"weight": 2}, full={"weight": 4},
          methods=["explicit", "smt"], expect="refuted"),

    # ------------------------------------------------------------ chapter 4: complete graphs
    Claim("erickson/thm4.1",
          text=("Unit-weight edge-nim on K_{2,j}, j >= 1, with the token in the part of size 2: the second "
                "player wins."),
          source=Source(THESIS, "Theorem 4.1 [3.1]", "§4.1"),
          game="edge-nim", kind="char", family=complete_bipartite(*[(2, j) for j in range(1, 9)]),
          statement=P_always, assume=token_in((0, 1)),
          bounds=UNIT, full=UNIT, expect="verified"),
    Claim("erickson/cor4.2",
          text=("Unit-weight edge-nim on SSB_j (K_{2,j} plus the edge v1v2), token on v1 or v2: the first "
                "player wins (first move: across v1v2)."),
          source=Source(THESIS, "Corollary 4.2 [3.4]", "§4.1"),
          game="edge-nim", kind="char", family=ssb(range(1, 9)),
          statement=N_always, assume=token_in((0, 1)),
          bounds=UNIT, full=UNIT, expect="verified"),
    Claim("erickson/lemma4.3-ssb-strategy",
          text=("Unit-weight edge-nim on K_n, n >= 2: the first player wins with the SSB strategy (first "
                "move v1 -> v2, then always to whichever of v1, v2 is still reachable)."),
          source=Source(THESIS, "Lemma 4.3 [4.1]", "§4.2"),
          game="edge-nim", kind="strategy", family=complete(range(2, 15)),
          statement=N_always, strategy=ssb_strategy,
          assume=at_zero,           # "Assume G = K_n with token = v1": WLOG
          bounds={"weight": unit_up_to(12)}, full=UNIT, expect="verified"),
    Claim("erickson/thm4.6",
          text=("Unit-weight edge-nim on any graph with two mutually adjacent vertices (adjacent to each "
                "other, with the same other neighbours), token on one of them: the first player wins."),
          source=Source(THESIS, "Theorem 4.6 [4.4]", "§4.2"),
          game="edge-nim", kind="char", family=with_mutual_pair(all_graphs(7)),
          statement=N_always, assume=lambda g, s: token_in(mutual_tokens(g))(g, s),
          bounds={"weight": unit_up_to(6)}, full=UNIT, expect="verified"),
    Claim("erickson/cor4.7",
          text="Unit-weight edge-nim on the complete graph K_n, n > 1: the first player wins.",
          source=Source(THESIS, "Corollary 4.7 [4.5]", "§4.2"),
          game="edge-nim", kind="char", family=complete(range(2, 17)),
          statement=N_always, assume=at_zero,  # vertex-transitive: token 0
          bounds={"weight": unit_up_to(12)}, full=UNIT, expect="verified"),
    # Conjecture 4.8 ("known to be true for 2 <= n <= 7" by hand): K_2..K_6, weights 1..2, and
    # weights 1..3 in full. K_6 with weights in {1, 2} is 86 million positions (196,608 starts):
    # about 9 s with the C kernel; nothing found.
    Claim("erickson/conj4.8",
          text=("Conjecture: edge-nim on K_n, n >= 2, with any positive weights and any start: the first "
                "player wins (the thesis checked n <= 7 by hand)."),
          source=Source(THESIS, "Conjecture 4.8", "§4.3"),
          game="edge-nim", kind="conj", family=complete(range(2, 7)),
          statement=N_always, bounds={"weight": (1, 2)}, full={"weight": up_to_on_at_most(3, 5, 2)},
          expect="verified"),
    # The complete graph strategy (ties towards the lowest vertex number) wins from every start
    # of the sweep: no counterexample to Conjectures 4.9-4.11's strategy on K_2..K_5, weights <= 3.
    Claim("erickson/conj4.9-4.11-complete-graph-strategy",
          text=("Conjecture: on K_n with any positive weights, the first player wins by always moving to an "
                "option of lowest current degree and removing all the weight of the edge crossed."),
          source=Source(THESIS, "Conjectures 4.9-4.11", "§4.3"),
          game="edge-nim", kind="strategy", family=complete(range(2, 6)),
          statement=N_always, strategy=complete_graph_strategy,
          bounds={"weight": (1, 2)}, full={"weight": (1, 3)}, expect="verified"),
    # Conjecture 4.12: "If P1 can win the K_n, then P1 can win the K_n with an additional pendant
    # edge and end vertex at any vertex on the K_n." An implication between two positions is not
    # a set of P-positions, so it is checked here as: K_n + pendant (token on the K_n) is N at
    # every position of the sweep; the hypothesis "K_n with the same weights and token is N" holds
    # at every one of them, since conj4.8 (K_n any positive weights: N) is verified on the same
    # K_n and the same bounds. Within those bounds the two statements are therefore equivalent.
    # REFUTED at n = 2 (the paper allows n >= 2, as in Conjecture 4.8): witness from --json,
    #   {"edges": [[0, 1, 1], [0, 2, 1]], "token": 1}: claimed N, actually P
    # K_2 = the edge 01 with the token on 1 is N (move across it), but with the pendant edge 02 at
    # vertex 0 it is the path 1-0-2 with the token at an end: two edges, even, P (Theorem 2.2).
    # Theorem 4.13's proof (via Conjecture 4.10) breaks down the same way for n = 2.
    Claim("erickson/conj4.12",
          text=("Conjecture: if the first player wins edge-nim on K_n (some weights, some token), they also "
                "win on K_n with one extra pendant edge at any vertex (same weights, token on the K_n)."),
          reading=("An implication between two positions, checked as 'K_n plus a pendant edge, token on the "
                   "K_n, is N': erickson/conj4.8 finds every K_n position of the same bounds N. It fails "
                   "only at n = 2, where K_2 is a single edge and K_2 plus a pendant edge is the path P_3 "
                   "with the token at an end (P by Theorem 2.2); it holds for every n >= 3 of the sweep. The"
                   " complete graph on two vertices is the degenerate case: degenerate instance only."),
          finding=Finding("degenerate", corrected="erickson/conj4.12-corrected"),
          source=Source(THESIS, "Conjecture 4.12", "§4.3"),
          game="edge-nim", kind="conj", family=kn_pendant(2, 3, 4, 5),
          statement=N_always, assume=off_pendant,
          bounds={"weight": (1, 2)}, full={"weight": (1, 3)}, expect="refuted"),
    # corrected: n >= 3 (same reduction as above, same bounds as conj4.8)
    Claim("erickson/conj4.12-corrected",
          text=("Conjecture 4.12 for n >= 3: edge-nim on K_n plus one pendant edge, any positive weights, "
                "token on the K_n: the first player wins."),
          reading="Our restriction to n >= 3 (the conjecture fails at n = 2 only).",
          source=Source(THESIS, "Conjecture 4.12, n >= 3", "§4.3"),
          game="edge-nim", kind="conj", family=kn_pendant(3, 4, 5),
          statement=N_always, assume=off_pendant,
          bounds={"weight": (1, 2)}, full={"weight": (1, 3)}, expect="verified"),
    # ------------------------------------------------------------ chapter 5: the Petersen graph
    # With the C kernel, weights up to 3 are within reach (4^15 x 10 positions, 120 symmetries):
    # Propositions 5.5-5.7 need a unique minimum edge: WLOG edge 0 = {0, 1} at 1, the other 14 at
    # 2 or 3, every token (163,840 positions; about 30 s each). With weights in {1, 2} only (the
    # other 14 at 2) all three hold; with a single 3 two of them fail.
    Claim("erickson/thm5.3",
          text="Unit-weight edge-nim on the Petersen graph: the second player wins from every vertex.",
          source=Source(THESIS, "Theorem 5.3", "§5"),
          game="edge-nim", kind="char", family=petersen(),
          statement=P_always, bounds=UNIT, full=UNIT, expect="verified"),
    Claim("erickson/5.3-uniform",
          text="Edge-nim on the Petersen graph with every edge of the same weight: the second player wins.",
          source=Source(THESIS, "§5, after Theorem 5.3", "§5"),
          game="edge-nim", kind="char", family=petersen(),
          statement=P_always, assume=uniform,
          bounds={"weight": (1, 2)}, full={"weight": (1, 3)}, expect="verified"),
    Claim("erickson/prop5.5",
          text=("Edge-nim on the Petersen graph with any weights having exactly one edge of minimum weight, "
                "that edge incident with the token: the first player wins."),
          source=Source(THESIS, "Proposition 5.5", "§5"),
          game="edge-nim", kind="char", family=petersen(),
          statement=N_always, assume=unique_min_at(0),
          bounds={"weight": min_edge_first(3)}, expect="verified"),
    # REFUTED ("weighted arbitrarily ... only one edge of minimum weight and it is distance one
    # from the token ... P2 can win"): witness {0-1: 1, 6-9: 3, every other edge 2, token on 2}
    # is N: 2->1 lowering 1-2 to 1 wins (checked also by a plain recursion written in
    # tests/test_findings.py, and by the pure-Python path). With the other 14 edges all at 2 it
    # holds (the quick bounds of earlier versions): the counterexample needs one heavier edge.
    Claim("erickson/prop5.6",
          text=("Edge-nim on the Petersen graph with any weights having exactly one edge of minimum weight, "
                "at distance 1 from the token: the second player wins."),
          reading=("The thesis states it for weights 'assigned arbitrarily'; its proof assumes that both "
                   "players always lower an edge to the current minimum. That fails once the other 14 edges "
                   "differ: minimum edge 0-1 of weight 1, edge 6-9 of weight 3, the rest 2, token on 2 is N "
                   "(2 -> 1 lowering 1-2 to 1 wins). The hypothesis is in the text, so this is an error of "
                   "the paper; with the other edges all equal the statement holds in the sweep "
                   "(erickson/prop5.6-rest-uniform)."),
          finding=Finding("paper-error", corrected="erickson/prop5.6-rest-uniform"),
          source=Source(THESIS, "Proposition 5.6", "§5"),
          game="edge-nim", kind="char", family=petersen(),
          statement=P_always, assume=unique_min_at(1),
          bounds={"weight": min_edge_first(3)}, expect="refuted"),
    # REFUTED: the same weights with the token on 7 (the minimum edge 0-1 at distance 2) are P.
    Claim("erickson/prop5.7",
          text=("Edge-nim on the Petersen graph with any weights having exactly one edge of minimum weight, "
                "at distance 2 from the token: the first player wins."),
          reading=("Same gap as Proposition 5.6 (the proof assumes every move lowers an edge to the current "
                   "minimum): the same weights with the token on 7 are P. An error of the paper; with the "
                   "other edges all equal it holds in the sweep (erickson/prop5.7-rest-uniform)."),
          finding=Finding("paper-error", corrected="erickson/prop5.7-rest-uniform"),
          source=Source(THESIS, "Proposition 5.7", "§5"),
          game="edge-nim", kind="char", family=petersen(),
          statement=N_always, assume=unique_min_at(2),
          bounds={"weight": min_edge_first(3)}, expect="refuted"),
    # A reading under which both hold within these bounds (ours, not the thesis's): the other 14
    # edges all of one weight.
    Claim("erickson/prop5.6-rest-uniform",
          text=("Proposition 5.6 with the 14 other edges all of one weight: one edge of minimum weight at "
                "distance 1 from the token, the second player wins."),
          reading=("Our restriction, not the thesis's: the hypothesis under which the proof's 'always lower "
                   "to the minimum' argument holds in the sweep."),
          source=Source(THESIS, "Proposition 5.6, the other edges equal", "§5"),
          game="edge-nim", kind="char", family=petersen(),
          statement=P_always, assume=rest_uniform(unique_min_at(1)),
          bounds={"weight": min_edge_first(3)}, expect="verified"),
    Claim("erickson/prop5.7-rest-uniform",
          text=("Proposition 5.7 with the 14 other edges all of one weight: one edge of minimum weight at "
                "distance 2 from the token, the first player wins."),
          reading="Our restriction, not the thesis's (see erickson/prop5.6-rest-uniform).",
          source=Source(THESIS, "Proposition 5.7, the other edges equal", "§5"),
          game="edge-nim", kind="char", family=petersen(),
          statement=N_always, assume=rest_uniform(unique_min_at(2)),
          bounds={"weight": min_edge_first(3)}, expect="verified"),
    # ------------------------------------------------------------ chapter 6: hypercubes
    Claim("erickson/thm6.4-6.5",
          text=("Unit-weight edge-nim on the hypercube Q_n, token on vertex 0: the first player wins iff n "
                "is odd."),
          source=Source(THESIS, "Theorems 6.4, 6.5", "§6"),
          game="edge-nim", kind="char", family=cubes(1, 2, 3, 4, 5, 6),
          statement=hypercube_p, assume=at_zero,  # "start with the token on 0"
          bounds={"weight": unit_up_to(32)}, full=UNIT, expect="verified"),
    Claim("erickson/lemma6.3-strategy",
          text=("Unit-weight edge-nim on Q_{2n+1}: the first player wins while keeping play within levels 0,"
                " 1, 2 (vertices with at most two ones), moving from levels 0 and 2 to level 1."),
          source=Source(THESIS, "Lemma 6.3", "§6"),
          game="edge-nim", kind="strategy", family=cubes(1, 3, 5),
          statement=hypercube_p, strategy=levels_strategy,
          assume=at_zero,
          bounds=UNIT, full=UNIT, expect="verified"),
    # Lemma 6.3 as a certificate: from a level-1 vertex every move stays within levels 0..2, so
    # "P1 has a winning strategy keeping play within levels 0, 1, 2" is exactly "the first player
    # wins edge geography on the subgraph induced by those levels" (P1's moves there are the
    # strategy's choices, P2's are all of P2's moves in Q_n). Solving that game is P1's strategy
    # certificate: Q_7 (49 edges, 12 million positions) takes about 12 s with the C kernel.
    Claim("erickson/lemma6.3-levels",
          text=("Lemma 6.3 as a certificate: the first player wins unit-weight edge-nim on the subgraph of "
                "Q_{2n+1} induced by levels 0, 1, 2, from vertex 0."),
          reading=("Every move from level 1 stays within levels 0..2, so winning there is exactly the "
                   "strategy of Lemma 6.3."),
          source=Source(THESIS, "Lemma 6.3 (levels 0..2)", "§6"),
          game="edge-nim", kind="char", family=cube_levels(3, 5, 7),
          statement=N_always, assume=at_zero,
          bounds=UNIT, full=UNIT, expect="verified"),
    # ------------------------------------------------------------ chapter 7: complete bipartite
    Claim("erickson/thm7.1",
          text="Unit-weight edge-nim on K_{2,j}, j >= 2, token in either part: the second player wins.",
          source=Source(THESIS, "Theorem 7.1", "§7.1"),
          game="edge-nim", kind="char", family=complete_bipartite(*[(2, j) for j in range(2, 11)]),
          statement=P_always, bounds=UNIT, full=UNIT, expect="verified"),
    # Theorem 7.2's proof ("P2 can keep P1 within the confines of the K_{2,n}") is sketchy, but
    # the statement holds on every K_{m,n}, 2 <= m <= n <= 5, any token.
    Claim("erickson/thm7.2",
          text="Unit-weight edge-nim on K_{m,n}, m, n >= 2, from any vertex: the second player wins.",
          source=Source(THESIS, "Theorem 7.2", "§7.1"),
          game="edge-nim", kind="char",
          family=complete_bipartite(*[(m, n) for m in range(2, 6) for n in range(m, 6)]),
          statement=P_always, bounds=UNIT, full=UNIT, expect="verified"),
]
