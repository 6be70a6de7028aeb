"""Graph games (grim, weighted-grim, edge-delete, wyg, wygthoff, mig) against naive brute force
written here from the papers' words, and against values from the literature."""
from __future__ import annotations

import itertools
import time
from functools import lru_cache

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy
from grundy import Solver
from grundy.errors import InputError
from grundy.spec import read_position

FULL = Solver()
PLAIN = Solver(symmetry=False, decompose=False)


# ------------------------------------------------------------------ naive reference solvers
# A position is a hashable value; each game below lists a position's options. Nothing here
# uses grundy's IR or solver.

def mex(values) -> int:
    s = set(values)
    m = 0
    while m in s:
        m += 1
    return m


def naive(options):
    """Grundy value (normal play) and misère mover-wins by plain recursion over ``options``."""
    @lru_cache(maxsize=None)
    def g(pos):
        return mex(g(q) for q in options(pos))

    @lru_cache(maxsize=None)
    def misere_wins(pos):
        opts = options(pos)
        return not opts or any(not misere_wins(q) for q in opts)  # no move: you made none, you win

    return g, misere_wins


def ends(edges) -> set:
    return set().union(*edges) if edges else set()


def grim_options(edges: frozenset) -> list:
    """Grim: the graph is its edge set (isolated vertices do not exist). Deleting v deletes its
    edges; a vertex with no edge left has become isolated and is gone with them."""
    return [frozenset(e for e in edges if v not in e) for v in ends(edges)]


def weighted_grim_options(pos) -> list:
    """Weighted Grim: select v, its weight drops by one; at 0 it goes with its edges; a vertex
    with no edge left is isolated and goes too (so weights are kept only for ends of edges)."""
    edges, weights = pos
    w = dict(weights)
    out = []
    for v in w:
        w2 = dict(w)
        w2[v] -= 1
        es = edges if w2[v] > 0 else frozenset(e for e in edges if v not in e)
        live = ends(es)
        out.append((es, frozenset((x, k) for x, k in w2.items() if x in live)))
    return out


def edge_delete_options(edges: frozenset) -> list:
    """Edge-delete: remove an edge without creating an isolated vertex."""
    deg = {}
    for e in edges:
        for x in e:
            deg[x] = deg.get(x, 0) + 1
    return [edges - {e} for e in edges if all(deg[x] >= 2 for x in e)]


def wyg_options(pos, whole_end: bool = False) -> list:
    """wyg (whole_end=False) and wygthoff (True). pos = (edges, chips, active edge or None)."""
    edges, chips, active = pos
    playable = [active] if active is not None else [(u, v) for u, v in edges if chips[u] and chips[v]]
    out = []
    for u, v in playable:
        m = min(chips[u], chips[v])
        takes = ([(k, 0) for k in range(1, (chips[u] if whole_end else m) + 1)]
                 + [(0, k) for k in range(1, (chips[v] if whole_end else m) + 1)]
                 + [(k, k) for k in range(1, m + 1)])
        for du, dv in takes:
            c = list(chips)
            c[u] -= du
            c[v] -= dv
            out.append((edges, tuple(c), (u, v) if c[u] and c[v] else None))
    return out


def mig_options(pos) -> list:
    """mig: at v take k <= the smallest non-empty stack of v's closed neighbourhood."""
    adj, chips = pos
    out = []
    for v, c in enumerate(chips):
        if c:
            m = min(chips[w] for w in (v, *adj[v]) if chips[w])
            out.extend((adj, chips[:v] + (c - k,) + chips[v + 1:]) for k in range(1, m + 1))
    return out


GRIM = naive(grim_options)
WGRIM = naive(weighted_grim_options)
EDEL = naive(edge_delete_options)
WYG = naive(wyg_options)
WYGTHOFF = naive(lambda p: wyg_options(p, whole_end=True))
MIG = naive(mig_options)


def edge_set(edges) -> frozenset:
    return frozenset(frozenset(e) for e in edges)


# ------------------------------------------------------------------ comparing with grundy

def check(obj: dict, ref_grundy: int, ref_misere_wins: bool) -> None:
    """grundy.solve, and the solver without symmetry and decomposition, agree with the reference."""
    normal = grundy.solve(obj)
    misere = grundy.solve({**obj, "convention": "misere"})
    assert normal["grundy"] == ref_grundy, obj
    assert normal["outcome"] == ("N" if ref_grundy else "P"), obj
    assert misere["outcome"] == ("N" if ref_misere_wins else "P"), obj
    p, pm = read_position(obj), read_position({**obj, "convention": "misere"})
    assert PLAIN.grundy(p) == ref_grundy, obj
    assert PLAIN.mover_wins(pm) == ref_misere_wins, obj


@st.composite
def graphs(draw, max_n: int = 6, max_edges: int = 15):
    n = draw(st.integers(1, max_n))
    pairs = list(itertools.combinations(range(n), 2))
    edges = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=max_edges)) if pairs else []
    return n, [list(e) for e in edges]


@settings(max_examples=80, deadline=None)
@given(graphs())
def test_grim_matches_naive(gr):
    n, edges = gr
    pos = edge_set(edges)
    check({"game": "grim", "nodes": list(range(n)), "edges": edges}, GRIM[0](pos), GRIM[1](pos))


@settings(max_examples=60, deadline=None)
@given(graphs(), st.data())
def test_weighted_grim_matches_naive(gr, data):
    n, edges = gr
    w = data.draw(st.lists(st.integers(1, 3), min_size=n, max_size=n))
    es = edge_set(edges)
    pos = (es, frozenset((v, w[v]) for v in ends(es)))
    check({"game": "weighted-grim", "nodes": [[v, w[v]] for v in range(n)], "edges": edges},
          WGRIM[0](pos), WGRIM[1](pos))


@settings(max_examples=60, deadline=None)
@given(graphs(max_edges=10))
def test_edge_delete_matches_naive(gr):
    n, edges = gr
    pos = edge_set(edges)
    check({"game": "edge-delete", "nodes": list(range(n)), "edges": edges}, EDEL[0](pos), EDEL[1](pos))


@st.composite
def chip_graphs(draw, max_chips: int = 3, active: bool = True):
    n, edges = draw(graphs())
    top = max_chips if n <= 4 else 2
    chips = draw(st.lists(st.integers(0, top), min_size=n, max_size=n))
    live = [e for e in edges if chips[e[0]] and chips[e[1]]]
    act = draw(st.sampled_from([None] + live)) if active and live else None
    return n, edges, tuple(chips), act


def chip_json(game, n, edges, chips, act=None) -> dict:
    obj = {"game": game, "nodes": [[v, chips[v]] for v in range(n)], "edges": edges}
    if act is not None:
        obj["active"] = list(reversed(act)) if act[0] % 2 else list(act)  # either orientation
    return obj


@pytest.mark.parametrize("game,ref", [("wyg", WYG), ("wygthoff", WYGTHOFF)])
@settings(max_examples=50, deadline=None)
@given(cg=chip_graphs())
def test_wyg_and_wygthoff_match_naive(game, ref, cg):
    n, edges, chips, act = cg
    pos = (tuple(tuple(e) for e in edges), chips, tuple(act) if act else None)
    check(chip_json(game, n, edges, chips, act), ref[0](pos), ref[1](pos))


@settings(max_examples=60, deadline=None)
@given(cg=chip_graphs(active=False))
def test_mig_matches_naive(cg):
    n, edges, chips, _ = cg
    adj = tuple(tuple(sorted({b for a, b in edges if a == v} | {a for a, b in edges if b == v}))
                for v in range(n))
    check(chip_json("mig", n, edges, chips), MIG[0]((adj, chips)), MIG[1]((adj, chips)))


# ------------------------------------------------------------------ the literature: Grim

def octal_values(code: str, n_max: int) -> list[int]:
    """Grundy values of the octal game ``code`` (e.g. "0.6") on heaps 0..n_max, from the
    definition: digit d_j lists what may remain after removing j chips from a heap
    (bit 1: no heap, bit 2: one heap, bit 4: two non-empty heaps)."""
    digits = [int(d) for d in code.split(".")[1]]
    g: list[int] = []
    for n in range(n_max + 1):
        opts = set()
        for j, d in enumerate(digits, start=1):
            rest = n - j
            if rest < 0:
                break
            if d & 1 and rest == 0:
                opts.add(0)
            if d & 2 and rest >= 1:
                opts.add(g[rest])
            if d & 4 and rest >= 2:
                opts.update(g[a] ^ g[rest - a] for a in range(1, rest // 2 + 1))
        g.append(mex(opts))
    return g


def path_json(game: str, n: int) -> dict:
    return {"game": game, "nodes": list(range(n)), "edges": [[i, i + 1] for i in range(n - 1)]}


def cycle_json(game: str, n: int) -> dict:
    return {"game": game, "edges": [[i, (i + 1) % n] for i in range(n)]}


def nx_json(game: str, g: nx.Graph, chips=None) -> dict:
    nodes = sorted(g.nodes)
    if chips is None:
        return {"game": game, "nodes": nodes, "edges": [list(e) for e in g.edges]}
    return {"game": game, "nodes": [[v, chips(g, v)] for v in nodes], "edges": [list(e) for e in g.edges]}


def test_grim_on_paths_is_octal_0_6():
    """Thm 23: Grim on P_n has the Grundy value of the octal game 0.6 on a heap of n
    (deleting the i-th vertex of P_n leaves P_{i-1} and P_{n-i}, as removing a chip splits a heap)."""
    officers = octal_values("0.6", 40)
    p40 = read_position(path_json("grim", 40))    # P_n as the first n vertices of P_40 (P_1: nothing)
    paths = [p40.with_state(tuple(i < n and n > 1 for i in range(40))) for n in range(1, 41)]
    assert [FULL.grundy(p) for p in paths] == officers[1:]
    assert grundy.solve(path_json("grim", 40))["grundy"] == officers[40]
    # and the naive recursion on small paths
    for n in range(1, 13):
        assert GRIM[0](edge_set([i, i + 1] for i in range(n - 1))) == officers[n]


def test_grim_cycles_cor17_cor24():
    officers = octal_values("0.6", 22)
    for n in range(3, 23):
        g = grundy.solve(cycle_json("grim", n))["grundy"]
        assert g == (1 if officers[n - 1] == 0 else 0)  # Cor 24: C_n's only follower is P_{n-1}
        if n % 2 == 0:
            assert g == 0                                # Cor 17(2): even cycles are P


def test_grim_complete_graphs_lemma9():
    for n in range(1, 10):
        assert grundy.solve(nx_json("grim", nx.complete_graph(n)))["outcome"] == ("N" if n % 2 == 0 else "P")


def test_grim_odd_paths_and_two_copies_cor17():
    for n in range(3, 30, 2):
        assert grundy.solve(path_json("grim", n))["outcome"] == "N"          # Cor 17(1)
    for h in (nx.petersen_graph(), nx.path_graph(5), nx.complete_graph(4), nx.star_graph(3)):
        two = nx.disjoint_union(h, h)
        assert grundy.solve(nx_json("grim", two))["outcome"] == "P"          # Cor 17(4)


def test_grim_complete_bipartite_thm10():
    for n in range(1, 8):
        assert grundy.solve(nx_json("grim", nx.complete_bipartite_graph(1, n)))["outcome"] == "N"
    for m in range(2, 6):
        for n in range(2, 6):
            out = grundy.solve(nx_json("grim", nx.complete_bipartite_graph(m, n)))["outcome"]
            assert out == ("N" if (m + n) % 2 else "P")


def test_grim_three_vertex_graphs_section6():
    """Among graphs on 3 vertices Player 1 wins exactly those with 1 or 2 edges."""
    pairs = list(itertools.combinations(range(3), 2))
    for r in range(4):
        for edges in itertools.combinations(pairs, r):
            out = grundy.solve({"game": "grim", "nodes": [0, 1, 2], "edges": [list(e) for e in edges]})
            assert out["outcome"] == ("N" if r in (1, 2) else "P")


def test_grim_petersen_matches_naive_and_reductions():
    g = nx.petersen_graph()
    obj = nx_json("grim", g)
    ref = GRIM[0](edge_set(g.edges))
    assert grundy.solve(obj)["grundy"] == ref == PLAIN.grundy(read_position(obj))


@pytest.mark.parametrize("obj", [path_json("grim", 40), nx_json("grim", nx.petersen_graph())],
                         ids=["P40", "petersen"])
def test_grim_performance(obj):
    start = time.perf_counter()
    Solver().grundy(read_position(obj))
    assert time.perf_counter() - start < 10


def blow_up(g: nx.Graph, weight: dict) -> nx.Graph:
    """Each vertex v replaced by weight[v] independent copies with v's neighbours."""
    b = nx.Graph()
    for u, v in g.edges:
        b.add_edges_from(((u, i), (v, j)) for i in range(weight[u]) for j in range(weight[v]))
    return b


@settings(max_examples=40, deadline=None)
@given(graphs(max_n=5), st.data())
def test_weighted_grim_is_grim_on_the_blow_up_thm8(gr, data):
    """Thm 8: same outcome as Grim on the blow-up (its proof matches moves one for one, so
    Grundy values agree too)."""
    n, edges = gr
    w = data.draw(st.lists(st.integers(1, 3), min_size=n, max_size=n))
    g = nx.Graph()
    g.add_nodes_from(range(n))
    g.add_edges_from(map(tuple, edges))
    ref = GRIM[0](edge_set(blow_up(g, dict(enumerate(w))).edges))
    out = grundy.solve({"game": "weighted-grim", "nodes": [[v, w[v]] for v in range(n)], "edges": edges})
    assert out["outcome"] == ("N" if ref else "P")
    assert out["grundy"] == ref


def test_weighted_grim_with_unit_weights_is_grim():
    for g in (nx.petersen_graph(), nx.path_graph(9), nx.wheel_graph(7), nx.complete_bipartite_graph(2, 4)):
        assert (grundy.solve(nx_json("weighted-grim", g, lambda g, v: 1))
                == grundy.solve(nx_json("grim", g)))


# ------------------------------------------------------------------ the literature: selfref §4.3

def test_edge_delete_involution_thm4_12():
    """Gallant et al.: a fixed-point-free involutive automorphism with x never adjacent to f(x): P."""
    for g in (nx.cycle_graph(6), nx.cycle_graph(8), nx.hypercube_graph(3),
              nx.disjoint_union(nx.complete_graph(4), nx.complete_graph(4)),
              nx.disjoint_union(nx.cycle_graph(5), nx.cycle_graph(5))):
        g = nx.convert_node_labels_to_integers(g)
        assert grundy.solve(nx_json("edge-delete", g))["outcome"] == "P"


def test_wyg_w1_complete_graphs_thm4_13():
    """Thm 4.13 / Cor 4.14: G(W1(K_n)) = 0, 1, 2 for n = 1, 2, 0 (mod 3)."""
    for n in range(1, 10):
        got = grundy.solve(nx_json("wyg", nx.complete_graph(n), lambda g, v: 1))["grundy"]
        assert got == {1: 0, 2: 1, 0: 2}[n % 3], n


def test_wyg_p3_examples():
    """Section 4.3: W1(P3) is N, Wdg(P3) is P (the thesis's figures 4.3 and 4.4)."""
    p3 = nx.path_graph(3)
    assert grundy.solve(nx_json("wyg", p3, lambda g, v: 1))["outcome"] == "N"
    assert grundy.solve(nx_json("wyg", p3, lambda g, v: g.degree(v)))["outcome"] == "P"


def test_wyg_w1_cycles_and_bipartite_thm4_15_4_18():
    for n in range(4, 11):
        assert grundy.solve(nx_json("wyg", nx.cycle_graph(n), lambda g, v: 1))["outcome"] == "P"
    for m in range(1, 6):
        for n in range(1, 6):
            out = grundy.solve(nx_json("wyg", nx.complete_bipartite_graph(m, n), lambda g, v: 1))
            assert out["outcome"] == ("P" if m % 2 == 0 and n % 2 == 0 else "N")


def test_wyg_is_not_a_disjunctive_sum():
    """Why wyg does not decompose: one edge with chips 1, 2 has Grundy value 2 (naive), two of
    them side by side would be P as a sum, but the game is N (naive and grundy agree)."""
    one = (((0, 1),), (1, 2), None)
    two = (((0, 1), (2, 3)), (1, 2, 1, 2), None)
    assert WYG[0](one) == 2 and WYG[0](two) != 0
    obj = chip_json("wyg", 4, [[0, 1], [2, 3]], (1, 2, 1, 2))
    assert grundy.solve(obj)["outcome"] == "N"
    # so mirroring fails: two single edges with 2 chips on every vertex (what the first move in
    # the proof of selfref Thm 4.11 leaves from W2(P5)) are N, not P
    twins = (((0, 1), (2, 3)), (2, 2, 2, 2), None)
    assert WYG[0](twins) != 0
    assert grundy.solve(chip_json("wyg", 4, [[0, 1], [2, 3]], (2, 2, 2, 2)))["outcome"] == "N"


def test_mig_on_two_vertices_is_minnie_thm5_2():
    """On K_2 (and on K_n) mig is minnie: M[a, b], a <= b, is P iff [1, 2i+1], [2, 4i+2],
    [3, 4i] with i >= 2, or [4, 4]."""
    def minnie_p(a, b):
        return ((a == 1 and b % 2 == 1) or (a == 2 and b % 4 == 2) or (a == 3 and b % 4 == 0 and b >= 8)
                or (a, b) == (4, 4))
    for a in range(1, 9):
        for b in range(a, 14):
            out = grundy.solve({"game": "mig", "nodes": [[0, a], [1, b]], "edges": [[0, 1]]})
            assert out["outcome"] == ("P" if minnie_p(a, b) else "N"), (a, b)


def test_mig_one_chip_everywhere_is_parity():
    for g in (nx.petersen_graph(), nx.path_graph(7), nx.complete_graph(5), nx.star_graph(4)):
        out = grundy.solve(nx_json("mig", g, lambda g, v: 1))
        assert out["outcome"] == ("N" if g.number_of_nodes() % 2 else "P")


# ------------------------------------------------------------------ writing positions back

@pytest.mark.parametrize("obj", [
    {"game": "grim", "nodes": [0, 1, 2, 3, 4, 9], "edges": [[0, 1], [1, 2], [2, 3], [3, 0], [3, 4]]},
    {"game": "weighted-grim", "nodes": [[0, 2], [1, 1], [2, 3], [3, 1]], "edges": [[0, 1], [1, 2], [2, 3]]},
    {"game": "edge-delete", "edges": [[0, 1], [1, 2], [2, 3], [3, 0], [0, 2]]},
    {"game": "wyg", "nodes": [[0, 2], [1, 3], [2, 1]], "edges": [[0, 1], [1, 2]], "active": [1, 0]},
    {"game": "wygthoff", "nodes": [["a", 2], ["b", 3], ["c", 0]], "edges": [["a", "b"], ["b", "c"]]},
    {"game": "mig", "nodes": [[0, 2], [1, 3], [2, 1]], "edges": [[0, 1], [1, 2]]},
])
def test_options_round_trip_through_json(obj):
    pos = read_position(obj)
    assert FULL.grundy(read_position(pos.to_json())) == FULL.grundy(pos)
    opts = FULL.options(pos)
    assert opts
    for _, q in opts:
        assert FULL.grundy(read_position(q.to_json())) == FULL.grundy(q)
    assert FULL.grundy(pos) == mex(FULL.grundy(q) for _, q in opts)


# ------------------------------------------------------------------ bad input

@pytest.mark.parametrize("obj,field", [
    ({"game": "grim", "edges": [[1, 1]]}, "edges[0]"),
    ({"game": "grim", "nodes": [1, 2], "edges": [[1, 3]]}, "edges[0][1]"),
    ({"game": "grim", "edges": [[1, 2], [2, 1]]}, "edges[1]"),
    ({"game": "weighted-grim", "nodes": [[1, 0], [2, 1]], "edges": [[1, 2]]}, "nodes[0][1]"),
    ({"game": "weighted-grim", "nodes": [[1, 2], [2, -1]], "edges": [[1, 2]]}, "nodes[1][1]"),
    ({"game": "weighted-grim", "edges": [[1, 2]]}, "nodes"),
    ({"game": "weighted-grim", "nodes": [[1, 1], [2, 1]], "edges": [[2, 2]]}, "edges[0]"),
    ({"game": "edge-delete", "edges": [[0, 1], [1, 1]]}, "edges[1]"),
    ({"game": "wyg", "nodes": [[0, 1], [1, -2]], "edges": [[0, 1]]}, "nodes[1][1]"),
    ({"game": "wyg", "nodes": [[0, 1], [1, 1], [2, 1]], "edges": [[0, 1]], "active": [0, 2]}, "active"),
    ({"game": "wyg", "nodes": [[0, 1], [1, 0]], "edges": [[0, 1]], "active": [0, 1]}, "active"),
    ({"game": "wyg", "nodes": [[0, 1], [1, 1]], "edges": [[0, 1]], "active": [0, 7]}, "active"),
    ({"game": "wyg", "nodes": [[0, 1], [1, 1]], "edges": [[0, 1]], "active": 0}, "active"),
    ({"game": "wyg", "nodes": [[0, 1], [1, 1]], "edges": [[0, 0]]}, "edges[0]"),
    ({"game": "wygthoff", "nodes": [[0, 1], [1, 1], [2, 1]], "edges": [[0, 1]], "active": [1, 2]}, "active"),
    ({"game": "wygthoff", "nodes": [[0, 1.5]], "edges": []}, "nodes[0][1]"),
    ({"game": "mig", "nodes": [[0, 1], [1, -1]], "edges": [[0, 1]]}, "nodes[1][1]"),
    ({"game": "mig", "nodes": [[0, 1], [1, 1]], "edges": [[0, 1]], "active": [0, 1]}, "active"),
    ({"game": "mig", "nodes": [0, 1], "edges": [[0, 1]]}, "nodes[0]"),
])
def test_bad_input_names_the_field(obj, field):
    with pytest.raises(InputError) as err:
        read_position(obj)
    assert err.value.field == field
