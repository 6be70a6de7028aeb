"""The vertexnim family (Duchêne–Renault): vertexnim, directed-vertexnim, adjacent-nim, vertex-nimg.

Expected values come from naive brute forces written here, straight from the paper's
sentences, on networkx graphs (vertexnim, vertex NimG) or on tuples (Adjacent Nim, in the
words of the paper's introduction), and from small cases derived by hand in comments.
None of them uses grundy's spec or solver.
"""
from __future__ import annotations

import functools
from itertools import combinations, permutations

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import grundy
from grundy.solvers.solver import Solver
from grundy.spec import InputError, read_position

# ----------------------------------------------------------------- naive brute force
# A position is (directed, ((vertex, weight), ...), frozenset of edges/arcs, token); undirected
# edges are sorted pairs, a loop is (v, v). token None: the game is over.


def freeze(G: nx.Graph, w: dict, u) -> tuple:
    d = G.is_directed()
    edges = frozenset(tuple(e) if d else tuple(sorted(e)) for e in G.edges)
    return (d, tuple(sorted(w.items())), edges, u)


def thaw(pos: tuple) -> tuple[nx.Graph, dict, object]:
    d, weights, edges, u = pos
    G = nx.DiGraph() if d else nx.Graph()
    G.add_nodes_from(v for v, _ in weights)
    G.add_edges_from(edges)
    return G, dict(weights), u


def adjacent(G: nx.Graph, u) -> list:
    """N(u): out-neighbours in a digraph; networkx lists u itself when u has a loop."""
    return list(G.successors(u)) if G.is_directed() else list(G.neighbors(u))


def vertexnim_options(pos: tuple) -> list[tuple]:
    """Definitions 1 and 2: "decrease the value of the current vertex u and choose an adjacent
    vertex of u as the new current vertex. When the value of a vertex v is set to 0, then v is
    removed [...]. The game ends when G is empty." """
    G, w, u = thaw(pos)
    if G.number_of_nodes() == 0:
        return []
    out = []
    for k in range(w[u]):
        H, w2 = G.copy(), dict(w)
        w2[u] = k
        choices = adjacent(G, u)
        if k == 0:
            if G.is_directed():   # "all the pairs of arcs (p, v) and (v, s) [...] are replaced by an arc (p, s)"
                H.add_edges_from((p, s) for p in G.predecessors(u) for s in G.successors(u) if u not in (p, s))
            else:                 # "the subgraph N(v) of G becomes a clique, and a loop is added on each vertex"
                nb = [x for x in G.neighbors(u) if x != u]
                H.add_edges_from(combinations(nb, 2))
                H.add_edges_from((x, x) for x in nb)
            H.remove_node(u)      # "v and its incident edges are removed from G"
            del w2[u]
            choices = [v for v in choices if v != u]
            if H.number_of_nodes() == 0:
                out.append(freeze(H, w2, None))
                continue
        out.extend(freeze(H, w2, v) for v in choices)
    return out


def nimg_options(pos: tuple) -> list[tuple]:
    """Remove then move; "vertices of null weight are never removed, and a player who must play
    from a 0 loses". No neighbour at all: no move can be completed either."""
    G, w, u = thaw(pos)
    if w[u] == 0:
        return []
    return [freeze(G, {**w, u: k}, v) for k in range(w[u]) for v in adjacent(G, u)]


def adjacent_nim_options(pos: tuple) -> list[tuple]:
    """The introduction's Adjacent Nim on heaps (n1, ..., nN): "play the game of Nim under the
    constraint that if your opponent has moved on heap i, you must move on heap i + 1 (or on the
    smallest next non-empty heap, in a circular way)". pos = (heaps, the heap to play)."""
    heaps, i = pos
    if i is None:
        return []
    n, out = len(heaps), []
    for k in range(heaps[i]):
        h = heaps[:i] + (k,) + heaps[i + 1:]
        nxt = next(((i + d) % n for d in range(1, n + 1) if h[(i + d) % n] > 0), None)
        out.append((h, nxt))
    return out


OPTIONS = {"vertexnim": vertexnim_options, "directed-vertexnim": vertexnim_options,
           "vertex-nimg": nimg_options, "adjacent-nim": adjacent_nim_options}


@functools.cache
def naive_grundy(game: str, pos: tuple) -> int:
    vals = {naive_grundy(game, q) for q in OPTIONS[game](pos)}
    return next(m for m in range(len(vals) + 1) if m not in vals)


@functools.cache
def naive_misere_wins(game: str, pos: tuple) -> bool:
    """Misère: the last mover loses, so a player with no move wins."""
    opts = OPTIONS[game](pos)
    return not opts or any(not naive_misere_wins(game, q) for q in opts)


def naive(obj: dict) -> tuple[int, str]:
    """(normal-play Grundy value, misère outcome) of a JSON position, by brute force."""
    game = obj["game"]
    if game == "adjacent-nim":
        pos: tuple = (tuple(obj["heaps"]), 0)
    else:
        directed = "arcs" in obj
        G = nx.DiGraph() if directed else nx.Graph()
        G.add_nodes_from(v for v, _ in obj["nodes"])
        G.add_edges_from(tuple(e) for e in obj.get("arcs", obj.get("edges", [])))
        G.add_edges_from((v, v) for v in obj.get("loops", []))
        pos = freeze(G, dict(map(tuple, obj["nodes"])), obj["token"])
    return naive_grundy(game, pos), "N" if naive_misere_wins(game, pos) else "P"


# ----------------------------------------------------------------- random positions

@st.composite
def graphs(draw, directed: bool, max_n: int = 5) -> tuple[int, list, list]:
    """n, edges (or arcs) without loops, loops: connected (strongly connected if directed)."""
    n = draw(st.integers(1, max_n))
    pairs = list(permutations(range(n), 2) if directed else combinations(range(n), 2))
    G = nx.DiGraph() if directed else nx.Graph()
    G.add_nodes_from(range(n))
    G.add_edges_from(p for p in pairs if draw(st.booleans()))
    if directed:                        # repair: an arc from a sink component to a source component
        while not nx.is_strongly_connected(G):
            c = nx.condensation(G)
            sink = next(x for x in c if c.out_degree(x) == 0)
            source = next(x for x in c if c.in_degree(x) == 0 and x != sink)
            G.add_edge(draw(st.sampled_from(sorted(c.nodes[sink]["members"]))),
                       draw(st.sampled_from(sorted(c.nodes[source]["members"]))))
    else:                               # repair: join consecutive components
        comps = [sorted(c) for c in nx.connected_components(G)]
        for a, b in zip(comps, comps[1:]):
            G.add_edge(draw(st.sampled_from(a)), draw(st.sampled_from(b)))
    loops = [v for v in range(n) if draw(st.booleans())]
    return n, sorted(G.edges), loops


@st.composite
def positions(draw, game: str, max_n: int = 5, max_w: int = 3) -> dict:
    if game == "adjacent-nim":
        return {"game": game, "heaps": draw(st.lists(st.integers(1, max_w), min_size=1, max_size=max_n))}
    directed = game == "directed-vertexnim" or (game == "vertex-nimg" and draw(st.booleans()))
    n, edges, loops = draw(graphs(directed, max_n))
    low = 0 if game == "vertex-nimg" else 1
    obj = {"game": game, "nodes": [[v, draw(st.integers(low, max_w))] for v in range(n)],
           "arcs" if directed else "edges": [list(e) for e in edges], "token": draw(st.sampled_from(range(n)))}
    if draw(st.booleans()):
        obj["loops"] = loops
    else:                               # loops given as edges [v, v]
        obj["arcs" if directed else "edges"] += [[v, v] for v in loops]
    return obj


def check_against_naive(obj: dict) -> None:
    g, misere = naive(obj)
    assert grundy.solve(obj) == {"grundy": g, "outcome": "N" if g else "P"}, obj
    assert grundy.solve({**obj, "convention": "misere"}, outcome_only=True)["outcome"] == misere, obj


GAMES = ["vertexnim", "directed-vertexnim", "adjacent-nim", "vertex-nimg"]
FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("game", GAMES)
@FAST
@given(data=st.data())
def test_solver_agrees_with_naive_brute_force(game, data):
    check_against_naive(data.draw(positions(game)))


@settings(max_examples=15, deadline=None)
@given(positions("vertex-nimg", max_n=5, max_w=3))
def test_vertex_nimg_needs_no_connectivity(obj):
    """vertex-nimg is defined on any graph: drop edges at random (disconnected graphs, sinks)."""
    key = "arcs" if "arcs" in obj else "edges"
    obj = {**obj, key: obj[key][::2]}
    check_against_naive(obj)


# ----------------------------------------------------------------- cross-checks of our own files

@settings(max_examples=20, deadline=None)
@given(positions("vertexnim", max_n=4))
def test_undirected_is_directed_on_symmetric_digraph(obj):
    """Each edge uv read as the two arcs (u, v), (v, u): removing v then makes N(v) a clique
    with a loop on each vertex, so both games have the same Grundy values."""
    arcs = [a for u, v in obj["edges"] for a in ([[u, v], [v, u]] if u != v else [[u, u]])]
    d = {**obj, "game": "directed-vertexnim", "arcs": arcs}
    del d["edges"]
    assert grundy.solve(obj)["grundy"] == grundy.solve(d)["grundy"]


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=8, deadline=None)
@given(data=st.data())
def test_written_options_read_back(game, data):
    """Every option, written as JSON and read again, has the option's value (write() is faithful)."""
    solver = Solver()
    p = read_position(data.draw(positions(game, max_n=4)))
    for _, q in solver.options(p):
        assert solver.grundy(read_position(q.to_json())) == solver.grundy(q), q.to_json()


def test_symmetry_changes_no_value():
    obj = {"game": "vertexnim", "nodes": [[v, 1 + v % 3] for v in range(5)],
           "edges": [[0, 1], [1, 2], [2, 3], [3, 4], [4, 0]], "loops": [0, 2], "token": 0}
    on, off = Solver(), Solver(symmetry=False)
    p = read_position(obj)
    assert on.grundy(p) == off.grundy(p) == naive(obj)[0]


# ----------------------------------------------------------------- small cases by hand

def single(game: str, w: int, loop: bool) -> dict:
    return {"game": game, "nodes": [["a", w]], "loops": ["a"] if loop else [], "token": "a"}


@pytest.mark.parametrize("game", ["vertexnim", "directed-vertexnim"])
@pytest.mark.parametrize("w", [1, 2, 3, 7])
def test_single_vertex(game, w):
    # With a loop: lower w(a) to k >= 1 and stay (the loop), or to 0, which empties the graph and
    # ends the game. So the options are the same position with weights 1..w-1 plus a terminal
    # position: a Nim heap, Grundy value w.
    assert grundy.solve(single(game, w, True))["grundy"] == w
    # Without a loop there is no adjacent vertex to go to after lowering w(a) to k >= 1, so the
    # only move is w(a) -> 0 (the graph is empty, no new current vertex is needed):
    # the only option is terminal, Grundy value mex{0} = 1 for every w.
    assert grundy.solve(single(game, w, False))["grundy"] == 1


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5])
def test_all_weights_one(n):
    # Every weight 1: the only move sets the current vertex to 0 and removes it; the graph stays
    # (strongly) connected and non-empty until its last vertex goes, so exactly n moves are
    # played whatever the graph ("she loves me, she loves me not"). Every option has n - 1
    # vertices of weight 1, so by induction the Grundy value is n mod 2; misère: N iff n even.
    # Checked on K_n with all loops, on the path, and on the directed circuit (adjacent-nim).
    ones = [[v, 1] for v in range(n)]
    cases = [{"game": "vertexnim", "nodes": ones, "edges": [[u, v] for u, v in combinations(range(n), 2)],
              "loops": list(range(n)), "token": 0},
             {"game": "vertexnim", "nodes": ones, "edges": [[v, v + 1] for v in range(n - 1)], "token": n // 2},
             {"game": "adjacent-nim", "heaps": [1] * n}]
    for obj in cases:
        assert grundy.solve(obj)["grundy"] == n % 2
        assert grundy.solve({**obj, "convention": "misere"})["outcome"] == ("N" if n % 2 == 0 else "P")


# Two vertices u, v joined by an edge (no loops), or the 2-circuit u -> v -> u, weights (a, b),
# token on u; G(a, b) its Grundy value. Lowering u to k >= 1 and going to v gives G(b, k);
# emptying u leaves v alone with a loop (undirected: N(u) = {v} gets a loop; directed: the arcs
# (v, u), (u, v) become the loop (v, v)), a Nim heap b. So G(a, b) = mex({G(b, k): 1 <= k < a} ∪ {b}):
#   G(1, b) = mex{b} = 0 (b >= 1);
#   G(b, 1) = mex({G(1, k): 1 <= k < b} ∪ {1}) = mex{0, 1} = 2 for b >= 2;
#   G(2, b) = mex{G(b, 1), b} = mex{2, b} = 0 for b >= 2.
TWO = [((1, 1), 0), ((1, 3), 0), ((2, 1), 2), ((3, 1), 2), ((2, 2), 0), ((2, 3), 0)]


@pytest.mark.parametrize("ab,value", TWO)
def test_two_vertices(ab, value):
    a, b = ab
    nodes = [["u", a], ["v", b]]
    assert grundy.solve({"game": "vertexnim", "nodes": nodes, "edges": [["u", "v"]], "token": "u"})["grundy"] == value
    assert grundy.solve({"game": "directed-vertexnim", "nodes": nodes, "arcs": [["u", "v"], ["v", "u"]],
                         "token": "u"})["grundy"] == value
    assert grundy.solve({"game": "adjacent-nim", "heaps": [a, b]})["grundy"] == value


def test_adjacent_nim_one_heap():
    # One heap: the circuit v1 -> v1 is a loop, so this is a Nim heap.
    assert [grundy.solve({"game": "adjacent-nim", "heaps": [w]})["grundy"] for w in range(1, 6)] == [1, 2, 3, 4, 5]


def test_vertex_nimg_by_hand():
    def g(obj):
        return grundy.solve({"game": "vertex-nimg", **obj})["grundy"]
    # One vertex with a loop: lower it to any smaller value and stay: a Nim heap.
    assert [g(single("vertex-nimg", w, True)) for w in range(4)] == [0, 1, 2, 3]
    # One vertex without loop: nowhere to move after lowering, no move at all: P.
    assert [g(single("vertex-nimg", w, False)) for w in range(4)] == [0, 0, 0, 0]
    # Edge u-v. Token on a vertex of weight 0: no move, value 0. w = (a >= 1, 0): every move
    # goes to v of weight 0, a terminal position, so the value is mex{0} = 1.
    # w = (1, b >= 1): the only move leads to (0, b) with the token on v; from there every move
    # goes back to u of weight 0 (terminal), so (0, b) at v has value 1 and (1, b) at u value 0.
    edge = {"edges": [["u", "v"]], "token": "u"}
    assert g({"nodes": [["u", 0], ["v", 3]], **edge}) == 0
    assert g({"nodes": [["u", 3], ["v", 0]], **edge}) == 1
    assert g({"nodes": [["u", 1], ["v", 2]], **edge}) == 0
    assert g({"nodes": [["u", 0], ["v", 2]], **edge, "token": "v"}) == 1
    # Arc u -> v only: from v (weight >= 1, no out-arc) no move can be completed.
    assert g({"nodes": [["u", 2], ["v", 2]], "arcs": [["u", "v"]], "token": "v"}) == 0
    assert g({"nodes": [["u", 2], ["v", 2]], "arcs": [["u", "v"]], "token": "u"}) == 1


def test_game_over_positions():
    """The empty graph (after the last vertex is removed) reads as a terminal position."""
    for game in ("vertexnim", "directed-vertexnim"):
        assert grundy.solve({"game": game, "nodes": []}) == {"grundy": 0, "outcome": "P"}
    assert grundy.solve({"game": "adjacent-nim", "heaps": []}) == {"grundy": 0, "outcome": "P"}
    # the winning move from a single loopless vertex ends the game; it is written as the empty graph
    out = grundy.solve({"game": "vertexnim", "nodes": [["a", 2]], "token": "a"}, winning_moves=True)
    assert out["winning_moves"] == [{"move": "set w(a) to 0 (a removed), the graph is empty",
                                     "to": {"game": "vertexnim", "nodes": [], "edges": []}}]


# ----------------------------------------------------------------- bad input

BASE = {"game": "vertexnim", "nodes": [["a", 1], ["b", 2]], "edges": [["a", "b"]], "token": "a"}


@pytest.mark.parametrize("change,field", [
    ({"nodes": [["a", 0], ["b", 2]]}, "nodes[0][1]"),                       # weight 0
    ({"nodes": [["a", 1], ["b", 2], ["c", 1]]}, "edges"),                   # c: disconnected
    ({"edges": []}, "edges"),                                               # disconnected
    ({"token": "z"}, "token"),                                              # not a vertex
    ({"token": [1]}, "token"),
    ({"token": None}, "token"),                                             # missing
    ({"edges": [["a", "c"]]}, "edges[0][1]"),                               # edge to a missing vertex
    ({"loops": ["c"]}, "loops[0]"),
    ({"arcs": [["a", "b"]]}, "arcs"),                                       # undirected game
    ({"game": "directed-vertexnim", "edges": None, "arcs": [["a", "b"]]}, "arcs"),  # not strongly connected
    ({"game": "directed-vertexnim", "nodes": [["a", 0], ["b", 1]]}, "nodes[0][1]"),
    ({"game": "vertex-nimg", "nodes": [["a", -1], ["b", 1]]}, "nodes[0][1]"),
    ({"game": "vertex-nimg", "arcs": [["a", "b"]]}, "edges"),               # both edges and arcs
])
def test_bad_input(change, field):
    obj = {k: v for k, v in {**BASE, **change}.items() if v is not None}
    with pytest.raises(InputError) as e:
        read_position(obj)
    assert e.value.field == field


@pytest.mark.parametrize("heaps,field", [([1, 0, 2], "heaps[1]"), ([2, -1], "heaps[1]"), (3, "heaps")])
def test_bad_adjacent_nim_input(heaps, field):
    with pytest.raises(InputError) as e:
        read_position({"game": "adjacent-nim", "heaps": heaps})
    assert e.value.field == field
