"""The C kernel against the Python path, on every game: the same successors, the same values.

Both are generated from one move plan, so these tests catch a translation slip in either
(C's truncating division, operator precedence, an unchanged slot, the box arithmetic).
States are drawn at random from a box of each game's slot domains (so they need not be
reachable), which exercises the rules beyond what play would reach.
"""
import random

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grundy.settings import current as current_settings
from grundy.solvers.explicit import compile_rules
from grundy.solvers.native import build
from grundy.solvers.native.kernel import GRUNDY, MISERE, NORMAL, Box, Halt, Kernel, KernelError, OutOfBox
from grundy.solvers.solver import Solver
from grundy.spec.games import GAMES
from grundy.spec.position import read_position

pytestmark = pytest.mark.skipif(not build.available(), reason="no C compiler here")

E4 = [[0, 1], [1, 2], [2, 0], [2, 3]]          # a triangle with a pendant edge
BASES = {
    "adjacent-nim": {"heaps": [2, 3, 1]},
    "directed-vertexnim": {"nodes": [[0, 2], [1, 1], [2, 2]], "arcs": [[0, 1], [1, 2], [2, 0]], "loops": [0], "token": 0},
    "edge-delete": {"edges": E4},
    "edge-nim": {"edges": [[u, v, 2] for u, v in E4], "token": 0},
    "euclid": {"heaps": [5, 3]},
    "greedy-nim": {"heaps": [3, 2, 2]},
    "grim": {"edges": E4 + [[3, 4]]},
    "jennifer": {"heaps": [2, 3, 1]},
    "mig": {"nodes": [[0, 2], [1, 3], [2, 1]], "edges": [[0, 1], [1, 2]]},
    "mine": {"heaps": [2, 3, 4]},
    "minnie": {"heaps": [2, 3, 4]},
    "nim": {"heaps": [2, 3, 4]},
    "nimb": {"heaps": [2, 3, 4]},
    "nimtb": {"heaps": [2, 3, 4]},
    "octal": {"code": "0.137", "heaps": [5, 3]},
    "lasker-nim": {"heaps": [3, 2]},
    "grundys-game": {"heaps": [5, 3]},
    "subtraction": {"set": [1, 3, 4], "heaps": [6, 4]},
    "restricted-nim": {"heaps": [9]},
    "susen": {"heaps": [2, 3, 4]},
    "vertex-nimg": {"nodes": [[0, 2], [1, 1], [2, 2]], "edges": [[0, 1], [1, 2]], "loops": [1], "token": 0},
    "vertexnim": {"nodes": [[0, 2], [1, 1], [2, 2]], "edges": [[0, 1], [1, 2]], "loops": [1], "token": 0},
    "weighted-grim": {"nodes": [[0, 2], [1, 1], [2, 2]], "edges": [[0, 1], [1, 2]]},
    "wyg": {"nodes": [[0, 1], [1, 2], [2, 1]], "edges": [[0, 1], [1, 2], [0, 2]]},
    "wygthoff": {"nodes": [[0, 2], [1, 3]], "edges": [[0, 1]]},
    "wynnie": {"heaps": [3, 4]},
    "wythoff": {"heaps": [3, 5]},
}


def base(name):
    obj = dict(BASES[name], game=name)
    if name == "directed-vertexnim":
        obj["edges"] = obj.pop("arcs")
    return read_position(obj)


def test_every_game_has_a_base_position():
    assert set(GAMES) <= set(BASES), f"add a base position for {sorted(set(GAMES) - set(BASES))}"


def random_states(pos, count, seed):
    rules = pos.rules
    box = Box.around(rules, [pos.state])
    rnd = random.Random(seed)
    out = [pos.state]
    while len(out) <= count:
        st = tuple(lo + rnd.randrange(r) for lo, r in zip(box.lo, box.radix))
        # octal positions hold heaps in slots sized for the reachable positions: a state with
        # more heaps than the reading allowed for would lack a slot for a break
        if pos.game.heap_rule(pos.structure) is not None and sum(1 for h in st if h) > sum(1 for h in pos.state if h):
            continue
        out.append(st)
    return rules, box, out


@pytest.mark.parametrize("name", sorted(BASES))
def test_same_successors_as_the_python_path(name):
    pos = base(name)
    rules, box, states = random_states(pos, 60, seed=1)
    py = compile_rules(rules, symmetry=False, decompose=False)
    k = Kernel(rules, box)
    for s in states:
        want = sorted(py.successors(s))
        if not all(box.contains(t) for t in want):
            with pytest.raises(OutOfBox):
                k.successors(s)
            continue
        assert sorted(k.successors(s)) == want, (name, s)


@pytest.mark.parametrize("symmetry", [False, True])
@pytest.mark.parametrize("name", sorted(BASES))
def test_same_values_as_the_python_path(name, symmetry):
    pos = base(name)
    rules, box, states = random_states(pos, 25, seed=2)
    # the other reductions (symmetry, components) on the other side
    py = Solver(native=False, symmetry=not symmetry, decompose=not symmetry)
    nat = Solver(native="always", symmetry=symmetry, decompose=symmetry)
    for s in states:
        for conv in ("normal", "misere"):
            p = pos.with_state(s)
            p = type(p)(p.game, p.structure, s, conv)
            try:
                want = py.mover_wins(p)
            except Exception as e:              # the same failure on both paths
                with pytest.raises(type(e)):
                    nat.mover_wins(p)
                continue
            assert nat.mover_wins(p) == want, (name, s, conv)
        p = type(p)(p.game, p.structure, s, "normal")
        assert nat.grundy(p) == py.grundy(p), (name, s)


@pytest.mark.slow
@settings(max_examples=40, deadline=None)
@given(st.integers(2, 6), st.floats(0.3, 1.0), st.integers(0, 10 ** 6), st.integers(1, 3))
def test_edge_nim_random_graphs(n, p, seed, w):
    g = nx.gnp_random_graph(n, p, seed=seed)
    if g.number_of_edges() == 0:
        return
    rnd = random.Random(seed)
    obj = {"game": "edge-nim", "edges": [[u, v, rnd.randint(0, w)] for u, v in g.edges],
           "token": rnd.choice([u for e in g.edges for u in e])}
    pos = read_position(obj)
    assert Solver(native="always").grundy(pos) == Solver(native=False).grundy(pos)


@pytest.mark.parametrize("symmetry", [False, True])
def test_sweep_fills_the_whole_box_and_agrees(symmetry):
    pos = base("edge-nim")
    rules = pos.rules
    box = Box.around(rules, [pos.state])
    k = Kernel(rules, box, GRUNDY, symmetry=symmetry)
    table = k.sweep()
    py = Solver(native=False, symmetry=False)
    rnd = random.Random(3)
    for i in rnd.sample(range(box.size), 200):
        assert table[i] - 1 == py.grundy(pos.with_state(box.state(i)))
    assert all(table)                                    # every index has its value
    assert (k.stored < box.size) == symmetry             # only class representatives are solved


def test_a_box_too_small_is_reported_then_widened_by_the_solver():
    pos = read_position({"game": "nim", "heaps": [3, 4]})
    rules = pos.rules
    # heaps only shrink in nim: a box around (3, 4) holds every successor
    assert Kernel(rules, Box.around(rules, [pos.state])).grundy(pos.state) == 7
    k = Kernel(rules, Box((1, 1), (3, 4)))          # values 1..3 and 1..4: 0 is outside
    with pytest.raises(OutOfBox):
        k.grundy((3, 4))
    assert Solver(native="always").grundy(pos) == 7


def test_a_batch_outside_the_box_is_refused_then_served_by_the_solver():
    """Kernel.values computes a batch's keys in C: a state outside the box (below, above, or
    beyond 64 bits) is answered by a Halt (no slot: grow around the states), never a key of
    another position, and nothing is raised; the solver then widens."""
    pos = read_position({"game": "nim", "heaps": [3, 4]})
    k = Kernel(pos.rules, Box((0, 0), (4, 5)))
    assert list(k.values([(3, 4), (0, 0), (1, 2)])) == [1 + (3 ^ 4), 1, 1 + (1 ^ 2)]
    for bad in ((4, 0), (0, 5), (-1, 0), (2 ** 63, 0), (2 ** 70, 0)):
        got = k.values([(1, 1), bad])
        assert isinstance(got, Halt) and got.outside and got.slot is None, bad
    inner = Kernel(pos.rules, Box((1, 1), (3, 4)))    # values 1..3 and 1..4: a move to 0 leaves it
    got = inner.values([(3, 4)])
    assert isinstance(got, Halt) and got.outside and got.slot in (0, 1) and got.value == 0
    assert got.widened(pos.rules, inner.box, [(3, 4)]).contains((0, 0))
    with pytest.raises(TypeError):
        k.values([(1, 1, 1)])
    s = Solver(native="always")
    many = [pos.with_state(st) for st in [(3, 4), (9, 2), (0, 0)] * 6]
    assert s.grundy_many(many) == [3 ^ 4, 9 ^ 2, 0] * 6


@settings(max_examples=30, deadline=None)
@given(st.integers(2, 7), st.integers(0, 10 ** 6))
def test_symmetric_kernel_on_symmetric_graphs(n, seed):
    """Cycles and complete graphs: large automorphism groups, a token and edge weights."""
    rnd = random.Random(seed)
    edges = ([(i, (i + 1) % n) for i in range(n)] if n > 5 or (n > 2 and rnd.random() < 0.5)
             else [(i, j) for i in range(n) for j in range(i + 1, n)])   # K_n for n <= 5 only
    obj = {"game": "edge-nim", "edges": [[u, v, rnd.randint(0, 2)] for u, v in edges], "token": rnd.randrange(n)}
    pos = read_position(obj)
    assert Solver(native="always").grundy(pos) == Solver(native=False, symmetry=False).grundy(pos)


@pytest.mark.slow
@settings(max_examples=30, deadline=None)
@given(st.integers(2, 12), st.floats(0.1, 0.6), st.integers(0, 10 ** 6))
def test_components_in_the_kernel_grim_on_sparse_graphs(n, p, seed):
    """Sparse graphs fall apart as vertices go: the kernel's sums against the Python path's."""
    g = nx.gnp_random_graph(n, p, seed=seed)
    if g.number_of_edges() == 0:
        return
    pos = read_position({"game": "grim", "edges": [list(e) for e in g.edges]})
    want = Solver(native=False, decompose=False, symmetry=False).grundy(pos)
    assert Solver(native="always").grundy(pos) == want
    assert Solver(native="always").outcome(pos) == ("P" if want == 0 else "N")


def test_outcome_tables_in_both_conventions():
    pos = read_position({"game": "nim", "heaps": [1, 1]})
    rules = pos.rules
    box = Box.around(rules, [pos.state])
    assert Kernel(rules, box, NORMAL).mover_wins((1, 1)) is False
    assert Kernel(rules, box, MISERE).mover_wins((1, 1)) is True     # misère: take one, leave one
    assert Kernel(rules, box, MISERE).mover_wins((0, 0)) is True     # no move: the mover wins


def test_position_limit_stops_the_kernel():
    pos = read_position({"game": "nim", "heaps": [30, 30]})
    with pytest.raises(KernelError, match="position limit"):
        Kernel(pos.rules, Box.around(pos.rules, [pos.state]), limit=100).grundy(pos.state)


def test_a_table_handed_on_keeps_its_values_and_outlives_the_kernel_it_came_from():
    """Another claim's kernel on the same rules, box and mode takes on the table (nothing solved
    again, the same values), freed only with the last kernel using it; another mode, a table
    too full, gets its own; the one taking it on may store ``limit`` positions more."""
    import gc
    pos = read_position({"game": "nim", "heaps": [5, 6, 7]})
    rules, box = pos.rules, Box.around(pos.rules, [pos.state])
    states = [(a, b, c) for a in range(6) for b in range(7) for c in range(8)]
    a = Kernel(rules, box, NORMAL, quick=True)
    want = a.values(states)
    n = a.stored
    assert n > 0
    b = Kernel(rules, box, NORMAL, quick=True, extra="/* another claim */", table_of=a, limit=4 * n)
    assert b.stored == n
    del a
    gc.collect()
    assert b.values(states) == want and b.stored == n          # read, not solved again
    assert Kernel(rules, box, GRUNDY, quick=True, table_of=b).stored == 0
    assert Kernel(rules, box, NORMAL, quick=True, table_of=b, limit=4 * n - 1).stored == 0
    wider = Box.around(rules, [(9, 9, 9)])
    c = Kernel(rules, wider, NORMAL, quick=True, table_of=b)
    assert c.stored == 0 and c.values(states) == want
    d = Kernel(rules, box, NORMAL, quick=True, table_of=b, limit=4 * n)
    assert d.lib.k_stored(d._t) == n and d.values([(5, 6, 7)]) == want[-1:]


def test_a_game_whose_rank_does_not_decrease_is_a_cycle_error_on_both_paths():
    from grundy import Field, Game, Structure, move
    from grundy.solvers.solver import CycleError
    from grundy.spec import make_position

    class Toggle(Game):              # a heap of 1 becomes 2 and back: play never ends
        name = "toggle-test"
        summary = "a test game with a cycle"
        structure = "heaps"

        def fields(self, g):
            return [Field("heap", over="heaps")]

        def moves(self, g, s):
            yield move("up", guard=s.heap[0] == 1, update=s.set(heap={0: 2}))
            yield move("down", guard=s.heap[0] == 2, update=s.set(heap={0: 1}))

        def rank(self, g, s):
            return s.heap[0]

    pos = make_position(Toggle(), Structure.heaps(1), {"heap": [1]})
    for native in (False, "always", None):     # the solvers' own cycle detection (nothing vetted first)
        with pytest.raises(CycleError, match="toggle-test"):
            Solver(native=native).grundy(pos)
        with pytest.raises(CycleError, match="toggle-test"):
            Solver(native=native).outcome(pos)


def test_a_compiler_without_loop_alignment_still_builds(tmp_path, monkeypatch):
    """build.FLAGS asks for -falign-loops; a compiler that refuses it builds without it."""
    cc = build.compiler()
    fake = tmp_path / "cc-without-align"
    fake.write_text(f'#!/bin/sh\nfor a in "$@"; do case "$a" in -falign-loops*) '
                    f'echo "unknown argument: $a" >&2; exit 1;; esac; done\nexec {cc} "$@"\n')
    fake.chmod(0o755)
    monkeypatch.setenv("CC", str(fake))
    monkeypatch.setenv("GRUNDY_CACHE", str(tmp_path / "cache"))
    build.compiler.cache_clear()
    try:
        assert build.compiler() == str(fake)
        assert build.load("int thrice_plus_one(int x) { return 3 * x + 1; }").thrice_plus_one(4) == 13
    finally:
        build.compiler.cache_clear()


@pytest.mark.parametrize("name", ["nim", "euclid", "octal", "grundys-game", "vertexnim", "vertex-nimg", "edge-nim",
                                  "grim", "wythoff", "mig"])
def test_a_quick_kernel_answers_as_the_optimized_one(name):
    """A kernel compiled without optimization (build.QUICK_FLAGS, the default on small boxes)
    gives the same values as the optimized one: on random states of the base position's box."""
    pos = base(name)
    rules, box, states = random_states(pos, 60, seed=7)
    quick, optimized = Kernel(rules, box, quick=True), Kernel(rules, box, quick=False)
    assert quick.quick and not optimized.quick and quick.lib is not optimized.lib
    kept = []
    for s in states:
        got = optimized.values([s])
        if isinstance(got, bytes):
            kept.append((s, got))
    assert len(kept) > 10
    for s, want in kept:
        assert quick.values([s]) == want, (name, s)


def test_small_boxes_get_quick_kernels_large_ones_optimized_once_their_work_shows(tune):
    """A kernel on a large box starts with -Og (a table the Python search hands over has
    mostly little left to solve) and is compiled with -O2 once a search has paused
    upgrade_after times; the -O2 library goes on with the same table, in the middle of the
    search, and every value is the nim-sum."""
    rules = base("nim").rules
    assert Kernel(rules, Box.around(rules, [(0, 0, 0), (7, 7, 7)])).quick
    big = Box.around(rules, [(0, 0, 0), (63, 63, 63)])
    assert big.size > current_settings().quick_box
    assert not Kernel(rules, big, quick=False).quick                       # asked for: -O2 at once
    small_work = Kernel(rules, big)
    assert small_work.quick and small_work.grundy((1, 2, 3)) == 0 and small_work.quick
    tune(upgrade_after=2)
    k = Kernel(rules, big, dense=False)
    quick_lib = k.lib
    assert k.grundy((63, 62, 61)) == 63 ^ 62 ^ 61               # 249,984 positions: many pauses
    assert not k.quick and k.lib is not quick_lib and k.stored == 64 * 63 * 62
    rnd = random.Random(3)
    for s in [tuple(rnd.randint(0, 63) for _ in range(3)) for _ in range(500)]:
        assert k.grundy(s) == s[0] ^ s[1] ^ s[2], s


def test_an_optimizer_that_fails_leaves_the_quick_kernel_solving(tune, monkeypatch):
    """The -O2 build of a tiered kernel failing (a compiler that breaks on the optimizer) keeps
    the -Og library: the search goes on and every value is the nim-sum."""
    import grundy.solvers.native.kernel as K
    from grundy.errors import BuildError
    real = build.load

    def no_optimizer(source, quick=False, light=False, core=None):
        if not quick:
            raise BuildError("the optimizer crashed (a test)")
        return real(source, quick, light, core=core)
    monkeypatch.setattr(build, "load", no_optimizer)
    tune(upgrade_after=1)
    K._library.cache_clear()
    try:
        rules = base("nim").rules
        k = Kernel(rules, Box.around(rules, [(0, 0, 0), (59, 60, 58)]), dense=False)   # a box no other test asks
        quick_lib = k.lib
        assert k.grundy((59, 60, 58)) == 59 ^ 60 ^ 58
        assert k.quick and not k.tiered and k.lib is quick_lib and k.pauses >= 1
        assert all(k.grundy((a, b, 7)) == a ^ b ^ 7 for a in range(0, 60, 7) for b in range(0, 61, 5))
    finally:
        K._library.cache_clear()


def test_a_quick_build_is_compiled_with_og(tmp_path, monkeypatch):
    """build.load(quick=True) passes QUICK_FLAGS (-Og), light=True LIGHT_FLAGS (-O1), the
    default FLAGS (-O2): a compiler that logs its arguments shows which; a kernel asked to be
    light and not quick is built with -O1 at once."""
    cc = build.compiler()
    log = tmp_path / "args"
    fake = tmp_path / "cc-logging"
    fake.write_text(f'#!/bin/sh\necho "$@" >> {log}\nexec {cc} "$@"\n')
    fake.chmod(0o755)
    monkeypatch.setenv("CC", str(fake))
    monkeypatch.setenv("GRUNDY_CACHE", str(tmp_path / "cache"))
    build.compiler.cache_clear()
    try:
        assert build.load("int quick_seven(void) { return 7; }", quick=True).quick_seven() == 7
        assert build.load("int slow_seven(void) { return 7; }").slow_seven() == 7
        assert build.load("int light_seven(void) { return 7; }", light=True).light_seven() == 7
        rules = base("nim").rules
        k = Kernel(rules, Box.around(rules, [(0, 0, 0), (61, 62, 60)]), quick=False, light=True)   # a box no other test asks
        assert k.light and not k.quick and not k.tiered
    finally:
        build.compiler.cache_clear()
    first, second, third, *kernel = [ln.split() for ln in log.read_text().splitlines()]
    assert "-Og" in first and "-O2" not in first
    assert "-O2" in second and "-Og" not in second
    assert "-O1" in third and "-O2" not in third and "-Og" not in third
    assert len(kernel) == 2 and all("-O1" in run for run in kernel)   # the fixed search's object, the kernel
