"""The explicit solver: known values, reductions that must not change values, limits, lines of play."""
import itertools
from functools import lru_cache

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy
from grundy import Solver, Structure
from grundy.errors import SolverLimit
from grundy.spec import make_position, read_position


@given(st.lists(st.integers(0, 12), min_size=1, max_size=4))
def test_nim_grundy_is_the_nim_sum(heaps):
    x = 0
    for h in heaps:
        x ^= h
    assert grundy.solve({"game": "nim", "heaps": heaps}) == {"grundy": x, "outcome": "P" if x == 0 else "N"}


def _naive_edge_nim(edges, weights, token):
    """Plain recursion from the rule's words: an independent reference."""
    @lru_cache(maxsize=None)
    def g(w, t):
        opts = set()
        for i, (a, b) in enumerate(edges):
            if t in (a, b) and w[i] > 0:
                for nw in range(w[i]):
                    opts.add(g(w[:i] + (nw,) + w[i + 1:], b if t == a else a))
        m = 0
        while m in opts:
            m += 1
        return m
    return g(tuple(weights), token)


@st.composite
def weighted_graphs(draw, max_n=5, max_w=3):
    n = draw(st.integers(1, max_n))
    pairs = [(u, v) for u in range(n) for v in range(u + 1, n)]
    chosen = draw(st.lists(st.sampled_from(pairs), unique=True, max_size=7)) if pairs else []
    weights = draw(st.lists(st.integers(0, max_w), min_size=len(chosen), max_size=len(chosen)))
    return n, chosen, weights, draw(st.integers(0, n - 1))


@settings(max_examples=60, deadline=None)
@given(weighted_graphs())
def test_edge_nim_matches_naive_recursion(gr):
    n, edges, weights, token = gr
    pos = {"game": "edge-nim", "nodes": list(range(n)), "edges": [[u, v, w] for (u, v), w in zip(edges, weights)],
           "token": token}
    assert grundy.solve(pos)["grundy"] == _naive_edge_nim(edges, weights, token)


def test_edge_nim_known_values():
    # a single edge of weight m has Grundy value m
    for m in range(8):
        assert grundy.solve({"game": "edge-nim", "edges": [[0, 1, m]], "token": 0})["grundy"] == m
    # a triangle with all weights w has Grundy value w
    for w in range(1, 5):
        tri = {"game": "edge-nim", "edges": [[0, 1, w], [1, 2, w], [0, 2, w]], "token": 0}
        assert grundy.solve(tri)["grundy"] == w
    # C_4 with equal weights is P
    for w in range(1, 4):
        c4 = {"game": "edge-nim", "edges": [[0, 1, w], [1, 2, w], [2, 3, w], [3, 0, w]], "token": 0}
        assert grundy.solve(c4)["outcome"] == "P"


@settings(max_examples=40, deadline=None)
@given(weighted_graphs(max_n=5, max_w=2))
def test_symmetry_reduction_never_changes_a_value(gr):
    n, edges, weights, token = gr
    g = Structure.graph(range(n), edges)
    ew = {tuple(sorted(e)): w for e, w in zip(edges, weights)}
    pos = make_position("edge-nim", g, {"weight": [ew[e] for e in g.edges], "token": token})
    assert Solver(symmetry=True).grundy(pos) == Solver(symmetry=False).grundy(pos)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.integers(0, 9), min_size=2, max_size=4))
def test_disjoint_union_is_the_xor_of_its_parts(heaps):
    # nim declares its heaps independent: the decomposed and the undecomposed search agree,
    # and the value of the whole is the XOR of the values of the parts
    pos = read_position({"game": "nim", "heaps": heaps})
    whole = Solver(decompose=False, symmetry=False).grundy(pos)
    assert Solver(decompose=True).grundy(pos) == whole
    x = 0
    for h in heaps:
        x ^= Solver().grundy(read_position({"game": "nim", "heaps": [h]}))
    assert whole == x


def test_outcome_only_agrees_with_grundy_values():
    g = Structure.from_networkx(nx.cycle_graph(5))
    for ws in itertools.product((1, 2), repeat=5):
        pos = make_position("edge-nim", g, {"weight": list(ws), "token": 0})
        quick, full = Solver(), Solver()
        assert quick.outcome(pos) == ("P" if full.grundy(pos) == 0 else "N")


def test_misere_nim_outcome():
    # misère nim: P iff (all heaps <= 1 and an odd number of 1s) or (some heap > 1 and nim-sum 0)
    for heaps in itertools.product(range(4), repeat=3):
        x = heaps[0] ^ heaps[1] ^ heaps[2]
        big = any(h > 1 for h in heaps)
        p = (x == 0) if big else (sum(heaps) % 2 == 1)
        out = grundy.solve({"game": "nim", "heaps": list(heaps), "convention": "misere"})["outcome"]
        assert out == ("P" if p else "N"), heaps


def test_position_limit_is_a_clear_error():
    solver = Solver(max_positions=50)
    pos = read_position({"game": "edge-nim", "edges": [[0, 1, 5], [1, 2, 5], [2, 3, 5], [3, 0, 5]], "token": 0})
    with pytest.raises(SolverLimit, match="50"):
        solver.grundy(pos)


@pytest.mark.slow
def test_deep_games_need_no_recursion():
    # forced lines of 2000 and 1999 moves (deeper than Python's recursion limit): edge-nim on a path of weight-1 edges, token at one end;
    # the player who makes the last move wins, so an even number of edges is P
    for edges, expected in ((2000, "P"), (1999, "N")):
        pos = {"game": "edge-nim", "edges": [[i, i + 1, 1] for i in range(edges)], "token": 0}
        assert grundy.solve(pos)["outcome"] == expected


def test_winning_line_is_legal_and_ends_with_the_winner():
    solver = Solver()
    pos = read_position({"game": "nim", "heaps": [3, 4, 5]})
    line = solver.winning_line(pos)
    assert line and not solver.options(line[-1][1])
    assert len(line) % 2 == 1  # N position: the first player makes the last move
    prev = pos
    for _, q in line:
        assert q.state in [o.state for _, o in solver.options(prev)]
        prev = q


def test_minnie_one_and_ten_thousand_outcome_search():
    # minnie [1, n]: the smallest heap is 1, so the moves are [0, n] (a lone heap, which the mover
    # empties: N) and [1, n - 1]. Hence [1, n] is P iff [1, n - 1] is N, and [1, 0] is N:
    # [1, n] is P iff n is odd. A line 10,000 moves deep, solved without recursion.
    assert grundy.solve({"game": "minnie", "heaps": [1, 10000]}, outcome_only=True) == {"outcome": "N"}
    assert grundy.solve({"game": "minnie", "heaps": [1, 9999]}, outcome_only=True) == {"outcome": "P"}


def test_caches_stay_bounded_over_a_sweep_of_many_structures():
    """A sweep over more structures than the caches hold: the solver's tables and the game's
    Rules stay bounded (least recently used go), and a structure met again is solved anew
    with the same values."""
    from grundy.solvers.solver import MAX_TABLES
    from grundy.spec.game import RULES_CACHE
    from grundy.spec.games import get_game
    from grundy.spec.position import read_position
    game = get_game("edge-nim")
    solver = Solver(native=False)
    paths = [read_position({"game": "edge-nim", "edges": [[i, i + 1, 2] for i in range(n)] + [[n, "x", 1]],
                            "token": 0}) for n in range(1, 12)]
    first = [solver.grundy(p) for p in paths]
    for k in range(max(MAX_TABLES, RULES_CACHE) + 20):     # a path and k isolated vertices: new structures
        solver.grundy(read_position({"game": "edge-nim", "nodes": list(range(k + 3)),
                                     "edges": [[0, 1, 1], [1, 2, 1]], "token": 1}))
    assert len(solver.tables) <= MAX_TABLES and len(game.__dict__["_rules"]) <= RULES_CACHE
    assert all((p.game.name, p.structure) not in solver.tables for p in paths)   # evicted
    assert [solver.grundy(p) for p in paths] == first == [Solver(native=False).grundy(p) for p in paths]


_BOXES = [("vertex-nimg", {"nodes": [[0, 0], [1, 0], [2, 0]], "edges": [[0, 1], [1, 2]], "loops": [2], "token": 0},
           {"weight": 2}),
          ("edge-nim", {"edges": [[0, 1, 1], [1, 2, 1], [2, 0, 1]], "token": 0}, {"weight": 2}),
          ("grim", {"edges": [[0, 1], [1, 2], [2, 3], [3, 4], [4, 0]]}, {}),
          ("nim", {"heaps": [0, 0, 0]}, {"heap": 3})]


@pytest.mark.parametrize("game, obj, bounds", _BOXES, ids=[b[0] for b in _BOXES])
@pytest.mark.parametrize("convention", ["normal", "misere"])
@pytest.mark.parametrize("question", ["wins", "grundy"])
def test_a_box_solved_in_increasing_order_agrees_with_the_reference_engine(game, obj, bounds, convention,
                                                                           question):
    """In a sweep in increasing order the search finds every move's result known at the root
    and answers without its stack (grundy/solvers/search.py); in decreasing order it searches.
    Both give, at every state of the box, what the reference engine gives."""
    from grundy.solvers.reference import Reference
    from grundy.spec import Position, read_position
    from grundy.verify.families import states
    p = read_position({"game": game, **obj})
    rules = p.game.rules(p.structure)
    box = list(states(rules, bounds or {"alive": [0, 1]}))
    for order, reduce_after in ((box, None), (box[::-1], None), (box, 0)):
        s = Solver(native=False, reduce_after=reduce_after)     # 0: reductions proved at once (grim: sums)
        got = s.answers(p.game, p.structure, order, convention, question)
        for state, v in zip(order, got, strict=True):
            q = Position(p.game, p.structure, state, convention)
            want = Reference().mover_wins(q) if question == "wins" else Reference().grundy(q)
            assert v == want, (order is box, state)


_FOUR = {"path": [[0, 1], [1, 2], [2, 3]], "star": [[0, 1], [0, 2], [0, 3]], "cycle": [[0, 1], [1, 2], [2, 3], [3, 0]]}


@pytest.mark.parametrize("game, shared", [("vertexnim", True), ("vertex-nimg", False)])
def test_structures_with_one_move_relation_share_memo_tables_and_every_value_stays_the_reference_engines(
        game, shared):
    """vertexnim keeps the adjacency in the state: its moves are the same on every graph of 4
    vertices, and the solver's tables of the path, the star and the cycle share one memo
    (grundy/solvers/table.py, Stores); vertex-nimg's moves follow the graph's edges: nothing is
    shared. Each value, on a solver that shares and on one that does not (``stores = None``),
    is the reference engine's."""
    from grundy.caches import release
    from grundy.solvers.reference import Reference
    from grundy.spec import Position
    from grundy.spec.games import GAMES
    # equal moves are found equal by node identity while the intern table holds them: a table
    # filled by earlier tests may start again between two structures (sharing lost, values kept)
    release()
    GAMES[game].__dict__.pop("_rules", None), GAMES[game].__dict__.pop("_rules_last", None)
    sharing, alone = Solver(native=False), Solver(native=False)
    alone.stores = None
    memos, apart = [], []
    for edges in _FOUR.values():
        ps = [read_position({"game": game, "nodes": [[v, w[v]] for v in range(4)], "edges": edges, "token": t})
              for w in itertools.product((1, 2), repeat=4) for t in range(4)]
        g, structure = ps[0].game, ps[0].structure
        for convention in ("normal", "misere"):
            for question in ("wins", "grundy"):
                got = [s.answers(g, structure, [p.state for p in ps], convention, question) for s in (sharing, alone)]
                want = [Reference().mover_wins(Position(g, structure, p.state, convention)) if question == "wins"
                        else Reference().grundy(Position(g, structure, p.state, convention)) for p in ps]
                assert got == [want, want], (edges, convention, question)
        memos.append(sharing.tables[(id(g), structure)].wins)
        apart.append(alone.tables[(id(g), structure)].wins)
    assert len({id(m) for m in memos}) == (1 if shared else 3)
    assert len({id(m) for m in apart}) == 3


def test_the_functions_compiled_to_see_what_reduces_are_the_ones_the_search_then_uses(monkeypatch):
    """grim on two paths of 6 vertices: symmetry and decomposition both reduce there.
    Table.reach compiles the rules with both reductions to see which apply; once both premises
    are proved, the search uses those functions rather than compiling the rules again
    (solver/table.py, ``Table.would``), and every value is the reference engine's."""
    import grundy.solvers.table as table
    from grundy.solvers.reference import Reference
    from grundy.spec import Position
    both, reached = [], []
    real_compile, real_reach = table.compile_rules, table.Table.reach

    def compile_rules(rules, symmetry, decompose, **kw):
        out = real_compile(rules, symmetry, decompose, **kw)
        if symmetry and decompose:
            both.append(out)
        return out

    def reach(self, kinds):
        reached.append(kinds)
        return real_reach(self, kinds)
    monkeypatch.setattr(table, "compile_rules", compile_rules)
    monkeypatch.setattr(table.Table, "reach", reach)
    s = Solver(native=False, reduce_after=8)      # the premises asked once 8 positions are stored
    p = read_position({"game": "grim", "nodes": list(range(12)),
                       "edges": [[i, i + 1] for i in (0, 1, 2, 3, 4, 6, 7, 8, 9, 10)]})
    g, structure = p.game, p.structure
    states = [p.state, *s.table(g, structure).code.successors(p.state)]
    got = s.answers(g, structure, states, "normal", "grundy")
    assert got == [Reference().grundy(Position(g, structure, st, "normal")) for st in states]
    t = s.tables[(id(g), structure)]
    assert t.symmetric and t.decomposed
    assert len(both) == len(reached) and t.code is both[-1]
