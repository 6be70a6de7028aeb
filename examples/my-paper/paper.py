"""The claims of "my paper", checked with ``grundy verify`` (see docs/writing-games.md).

    grundy verify examples/my-paper --games examples/my-paper/games.py
    grundy verify examples/my-paper             # the same: Claim(game=obj) registers the games

Every claim kind appears once at least: outcome, char, grundy, table, strategy, conj.
"""
import networkx as nx
from games import GEOGRAPHY, MOORE2, NODE_KAYLES, PATH_KAYLES, TAKE134  # the games module beside this file

from grundy.solvers.heaps import takebreak_run
from grundy.spec import Play, Structure, all_of, any_of, parse_octal, total
from grundy.verify import Claim, Source, all_graphs, heaps, petersen, positions

PAPER = "my-paper"
DAWSON = takebreak_run(parse_octal("0.137"), 64).values     # Dawson's Kayles, a heap of n = Node Kayles on P_n


def src(number: str) -> Source:
    return Source(PAPER, number)


def kayles_graph(g: nx.Graph) -> dict:
    """The JSON position of Node Kayles on a networkx graph (every vertex there)."""
    g = nx.convert_node_labels_to_integers(g)
    return {"game": "node-kayles", "nodes": list(g.nodes), "edges": [list(e) for e in g.edges]}


# -- Node Kayles: listed positions (the start position of each graph, no sweep over subsets) --
KAYLES_PATHS = positions(lambda: (kayles_graph(nx.path_graph(n)) for n in range(1, 31)), "P_1..P_30")
KAYLES_CYCLES = positions(lambda: (kayles_graph(nx.cycle_graph(n)) for n in range(3, 31)), "C_3..C_30")


def dawson(g, s):
    # Node Kayles on P_n is Dawson's Kayles (octal 0.137) on a heap of n
    return DAWSON[g.n]


def cycle_value(g, s):
    # every move on C_n leaves P_{n-3}: the only option value is DAWSON[n - 3]
    return 1 if DAWSON[g.n - 3] == 0 else 0


def ladder_p(g, s):
    # the ladder P_n x P_2 (n = g.n / 2) is P iff n is even (a point symmetry for even n)
    return (g.n // 2) % 2 == 0


# -- vertex geography: Fraenkel, Scheinerman, Ullman (1993) --------------------------------
def misses(g: Structure, v: int) -> bool:
    """Some maximum matching of g leaves v uncovered."""
    h = g.to_networkx()
    size = len(nx.max_weight_matching(h, maxcardinality=True))
    h.remove_node(v)
    return len(nx.max_weight_matching(h, maxcardinality=True)) == size


def uvg_p(g, s):
    # the token's player loses iff some maximum matching misses the token's vertex
    return any_of(s.token == v for v in g.vertices if misses(g, v))


# -- Moore's Nim_2 on three heaps (heaps below 2**BITS) ---------------------------------------
BITS = 4


def moore_p(g, s):
    # P iff in every binary column the digits add up to a multiple of k + 1 = 3
    return all_of(total((s.heap[i] // 2 ** b) % 2 for i in g.elements) % 3 == 0 for b in range(BITS))


# -- a take-away game: amounts 1, 3, 4 --------------------------------------------------------
def take134_p(g, s):
    return (s.heap[0] % 7 == 0) | (s.heap[0] % 7 == 2)


def take134_strategy(g, s, rules):
    # the move to a P-position from each N-class mod 7 (moves 0, 1, 2: take 1, 3, 4)
    n = s.heap[0] % 7
    return [Play(n == 1, 0), Play(n == 3, 0), Play(n == 4, 2), Play(n == 5, 1), Play(n == 6, 2)]


# -- misère Nim on two heaps -----------------------------------------------------------------
def misere_nim2_p(g, s):
    a, b = s.heap[0], s.heap[1]
    return ((a <= 1) & (b <= 1) & (a + b == 1)) | (((a >= 2) | (b >= 2)) & (a == b))


# -- sums: Node Kayles on a path plus a nim heap --------------------------------------------
def kayles_plus_heap(convention="normal"):
    # a listed position carries its convention (a claim never switches it)
    for n in range(1, 13):
        for k in range(0, 9):
            yield {"game": "sum", "parts": [kayles_graph(nx.path_graph(n)), {"game": "nim", "heaps": [k]}],
                   "convention": convention}


def heap_matches(g, s):
    # g and s hold one entry per part: the path's structure, the heap's state
    return s[1].heap[0] == DAWSON[g[0].n]


CLAIMS = [
    Claim("my-paper/kayles-petersen", source=src("Example 1"), game=NODE_KAYLES, kind="outcome",
          family=petersen(), bounds={"alive": [1]}, statement=lambda g, s: False),   # claimed N
    Claim("my-paper/kayles-paths", source=src("Proposition 2"), game=NODE_KAYLES, kind="grundy",
          family=KAYLES_PATHS, statement=dawson),
    Claim("my-paper/path-kayles", source=src("Lemma 2a"), game=PATH_KAYLES, kind="grundy",
          table=DAWSON),                                           # the one-heap rule is octal 0.137
    Claim("my-paper/kayles-cycles", source=src("Corollary 3"), game=NODE_KAYLES, kind="grundy",
          family=KAYLES_CYCLES, statement=cycle_value),
    Claim("my-paper/ladders", source=src("Conjecture 4"), game=NODE_KAYLES, kind="conj",
          family=positions(lambda: (kayles_graph(nx.grid_2d_graph(n, 2)) for n in range(1, 15)),
                           "ladders P_n x P_2, n <= 14"),
          statement=ladder_p),
    Claim("my-paper/uvg", source=src("Theorem 5 (Fraenkel, Scheinerman, Ullman)"), game=GEOGRAPHY,
          kind="char", family=all_graphs(6, min_n=2, connected=True), bounds={"alive": [1]},
          statement=uvg_p),
    Claim("my-paper/moore-2", source=src("Theorem 6 (Moore)"), game=MOORE2, kind="char",
          family=heaps(3), bounds={"heap": 2 ** BITS - 1}, statement=moore_p),
    Claim("my-paper/take134-table", source=src("Table 1"), game=TAKE134,
          table=[0, 1, 0, 1, 2, 3, 2] * 4),
    Claim("my-paper/take134-strategy", source=src("Theorem 7"), game=TAKE134, kind="strategy",
          family=heaps(1), bounds={"heap": 60}, statement=take134_p, strategy=take134_strategy,
          methods=["explicit", "smt"], expect="proved"),
    Claim("my-paper/misere-nim-2", source=src("Theorem 8 (Bouton, misère)"), game="nim", kind="char",
          convention="misere", family=heaps(2), bounds={"heap": 20}, statement=misere_nim2_p,
          methods=["explicit", "smt"], expect="proved"),
    Claim("my-paper/kayles-plus-heap", source=src("Corollary 9"), game="sum", kind="outcome",
          family=positions(kayles_plus_heap, "P_n + a nim heap of k, n <= 12, k <= 8"),
          statement=heap_matches),
    Claim("my-paper/kayles-plus-heap-misere", source=src("Corollary 9 in misère play (false)"),
          game="sum", kind="outcome", convention="misere",
          family=positions(lambda: kayles_plus_heap("misere"), "P_n + a nim heap of k, n <= 12, k <= 8"),
          statement=heap_matches, expect="refuted"),
]
