"""erickson: L. Erickson, The Game of Nim on Graphs (PhD thesis, NDSU 2011).

Edge-nim on even cycles. Proposition 3.1 is stated for an arbitrary weight assignment;
the moves reach assignments with zero weights (a zero edge is gone: the cycle becomes
paths), and the statement below covers those too: with a zero edge, m = 0 and G' = G,
so it reads "N iff a run from the token is odd", which is the path theorem (2.2) —
that part is completion.
"""
from grundy.spec import Play, all_of, any_of, minimum, move_index
from grundy.verify import Claim, Source, cycles

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


CLAIMS = [
    Claim("erickson/prop3.1", source=Source(THESIS, "Proposition 3.1 [2.1]", "§3"),
          game="edge-nim", kind="char", family=cycles(4, 6, 8),
          statement=even_cycle_p, strategy=even_cycle_strategy,   # the strategy: a witness for (NP)
          bounds={"weight": 2}, full={"weight": 4},
          methods=["explicit", "smt"], expect="proved"),
    Claim("erickson/prop3.1-strategy", source=Source(THESIS, "Proposition 3.1 [2.1]", "§3"),
          game="edge-nim", kind="strategy", family=cycles(4, 6, 8),
          statement=even_cycle_p, strategy=even_cycle_strategy,
          bounds={"weight": 2}, full={"weight": 4},
          methods=["explicit", "smt"], expect="proved"),
    # CLAIMS.md reads the strategy as "exactly the winning moves" (existence and uniqueness).
    # Uniqueness fails already on C_4 with positive weights; the minimal witness is in the report.
    Claim("erickson/prop3.1-strategy-unique", source=Source(THESIS, "Proposition 3.1 [2.1]", "§3"),
          game="edge-nim", kind="strategy", family=cycles(4, 6, 8),
          statement=even_cycle_p, strategy=even_cycle_strategy, exact=all_positive,
          bounds={"weight": 2}, full={"weight": 4},
          methods=["explicit", "smt"], expect="refuted"),
]
