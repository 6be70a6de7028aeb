"""A kernel built in two parts (codegen.split_source: the fixed search compiled once into an
object, linked with each kernel's generated part) answers as the same text built whole."""
from __future__ import annotations

import random

import networkx as nx
import pytest
from drawn import random_heap_game

from grundy.errors import KernelError
from grundy.solvers.native import build
from grundy.solvers.native import kernel as K
from grundy.solvers.native.codegen import c_source, split_source
from grundy.solvers.native.kernel import GRUNDY, MISERE, MISERE_GRUNDY, NORMAL, OVERFLOW, Box, Kernel
from grundy.solvers.native.sweep import sweep_source
from grundy.spec import Structure, move
from grundy.spec.games import get_game
from grundy.spec.heaps import HeapGame

pytestmark = pytest.mark.skipif(not build.available(), reason="no C compiler")


def _kernel(whole: bool, monkeypatch, *args, **kw) -> Kernel:
    """A kernel of ``args``, built whole (split_source declining) or in two parts."""
    K._library.cache_clear()
    with monkeypatch.context() as m:
        if whole:
            m.setattr("grundy.solvers.native.codegen.split_source", lambda text: None)
        k = Kernel(*args, **kw)
    K._library.cache_clear()
    return k


def _grim(n: int, p: float, seed: int):
    g = nx.gnp_random_graph(n, p, seed=seed)
    return get_game("grim").rules(Structure.from_networkx(g))


CASES = [("nim", lambda: get_game("nim").rules(Structure.heaps(3)), [(4, 5, 6)]),
         ("grim", lambda: _grim(7, 0.4, 3), None),
         ("grim-sparse", lambda: _grim(8, 0.25, 5), None),
         ("drawn", lambda: random_heap_game([1, 3], [2], True).rules(Structure.heaps(2)), [(9, 7)])]


@pytest.mark.parametrize("name,make,starts", CASES, ids=[c[0] for c in CASES])
@pytest.mark.parametrize("mode", [GRUNDY, NORMAL, MISERE, MISERE_GRUNDY])
def test_split_and_whole_kernels_give_the_same_table(name, make, starts, mode, monkeypatch):
    """Every position of the box, with and without symmetry and components: the same bytes."""
    rules = make()
    if starts is None:
        starts = [tuple(1 for _ in rules.schema.slots), tuple(0 for _ in rules.schema.slots)]
    box = Box.around(rules, starts)
    for symmetry, decompose in ((False, False), (True, mode == GRUNDY)):
        split = _kernel(False, monkeypatch, rules, box, mode, symmetry=symmetry, decompose=decompose, quick=True)
        whole = _kernel(True, monkeypatch, rules, box, mode, symmetry=symmetry, decompose=decompose, quick=True)
        assert split.lib is not whole.lib
        assert bytes(split.sweep()) == bytes(whole.sweep())
        rnd = random.Random(1)
        for _ in range(20):
            s = box.state(rnd.randrange(box.size))
            assert split.successors(s) == whole.successors(s)
            assert split.canonical(s) == whole.canonical(s)


def test_a_hashed_table_beyond_2_56_positions_splits_too(monkeypatch):
    """A box of 2^57 positions: entries not packed (PACKED 0, the core's other object)."""
    rules = get_game("nim").rules(Structure.heaps(3))
    box = Box(lo=(0, 0, 0), radix=(2 ** 19, 2 ** 19, 2 ** 19))
    text = c_source(rules, box)
    gen, core = split_source(text)
    assert "#define PACKED 0" in core
    split = _kernel(False, monkeypatch, rules, box, GRUNDY, dense=False, quick=True)
    whole = _kernel(True, monkeypatch, rules, box, GRUNDY, dense=False, quick=True)
    states = [(3, 5, 6), (7, 9, 12), (1, 2, 4), (20, 17, 9)]
    assert split.values(states) == whole.values(states) == bytes((a ^ b ^ c) + 1 for a, b, c in states)


def test_the_core_is_one_text_for_every_kernel_of_a_layout():
    """Two kernels of different games and boxes: their cores are the same text (one object for
    both), their generated parts differ and hold no search."""
    nim = get_game("nim").rules(Structure.heaps(2))
    grim = _grim(6, 0.5, 1)
    a = split_source(c_source(nim, Box.around(nim, [(3, 4)])))
    b = split_source(c_source(grim, Box.around(grim, [(1,) * 6]), symmetry=True))
    sweep = sweep_source(nim, nim.state.heap[0] == nim.state.heap[1], nim.state.heap[0] >= 1, [[0, 1, 2], [0, 1, 2]])
    c = split_source(c_source(nim, Box.around(nim, [(3, 4)])) + sweep)
    assert a is not None and b is not None and c is not None
    assert a[1] == b[1] == c[1] and a[0] != b[0]
    assert "static int s_eval(" in c[0] and "int s_run(" in c[1] and "int s_run(" not in c[0]
    assert "static int solve_(" in a[1] and "static int solve_(" not in a[0] + b[0]


def test_appended_c_that_is_neither_a_sweep_nor_a_follower_is_built_whole():
    nim = get_game("nim").rules(Structure.heaps(2))
    text = c_source(nim, Box.around(nim, [(3, 4)]))
    assert split_source(text) is not None
    assert split_source(text + "\nint peek(T *t) { return t->depth; }\n") is None
    follow = build.fixed_c("grundy.solvers.native", "c/follow.c")     # a follower reads the moves only
    gen, core = split_source(text + "\n/* a strategy */\n" + follow)
    assert follow in gen and follow not in core
    assert split_source("int twice(int x) { return 2 * x; }") is None


class _Overflowing(HeapGame):
    """One heap; take 1 where heap * 2^62 is positive: a product past 64 bits from a heap of 2."""
    name = "split-overflow-test"
    summary = "a test's game"
    heap_count = 1

    def moves(self, g, s):
        yield move("take 1", guard=(s.heap[0] >= 1) & (s.heap[0] * (2 ** 62) > 0),
                   update=lambda: s.set(heap={0: s.heap[0] - 1}))


def test_a_product_overflowing_in_the_moves_is_reported_by_the_split_search(monkeypatch):
    """The moves' overflow flag (set in the generated part) is the one the search reads (in the
    core): one flag for both parts."""
    rules = _Overflowing().rules(Structure.heaps(1))
    box = Box.around(rules, [(3,)])
    for whole in (False, True):
        k = _kernel(whole, monkeypatch, rules, box, GRUNDY, quick=True)
        assert k.grundy((1,)) == 1                 # 1 * 2^62 fits
        with pytest.raises(KernelError) as e:
            k.grundy((3,))
        assert e.value.status == OVERFLOW
