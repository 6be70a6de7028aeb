"""The C kernel's search: its canonical form over listed automorphisms, its table, the order of
its outcome search.

``canon`` (``native/c/canon_auts.c``) builds the images' keys together from the most
significant digit and drops an image as soon as it is larger in a digit; here it is compared
with the plain minimum, written again in Python, over the automorphisms that send the token to
the least vertex of its orbit (every automorphism without a token), on random states of several
structures. The table packs a key and its value in one word below 2^56 positions and keeps them
side by side above: a box beyond 2^56 gives the same values. The outcome search tries
successors least rank first: outcomes in both conventions equal the Python path's.
"""
import random

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grundy.solvers.native import build
from grundy.solvers.native.kernel import GRUNDY, MISERE, NORMAL, Box, Kernel
from grundy.solvers.solver import Solver
from grundy.spec import Structure
from grundy.spec.expr import ite
from grundy.spec.games import get_game
from grundy.spec.position import read_position

pytestmark = pytest.mark.skipif(not build.available(), reason="no C compiler here")


def cycle(n):
    return Structure.graph(range(n), [(i, (i + 1) % n) for i in range(n)])


def complete(n):
    return Structure.graph(range(n), [(u, v) for u in range(n) for v in range(u)])


# (game, structure, the largest value of an int slot): a token and edge weights (Petersen,
# K_4, a cycle), no token (mig, weighted grim), an edge-valued field (wyg), bool slots over
# pairs with a token (vertexnim)
CASES = [("edge-nim", Structure.from_networkx(nx.petersen_graph()), 3),
         ("edge-nim", complete(4), 3),
         ("edge-nim", cycle(6), 2),
         ("mig", cycle(8), 3),
         ("weighted-grim", Structure.from_networkx(nx.cubical_graph()), 2),
         ("wyg", cycle(5), 2),
         ("vertexnim", cycle(4), 2)]
IDS = [f"{game}-{g.n}-{len(g.edges)}" for game, g, _ in CASES]


def box_of(rules, top):
    lo, radix = [], []
    for name, _ in rules.schema.slots:
        f = rules.schema.fields[name]
        if f.kind == "vertex":
            lo.append(0)
            radix.append(rules.structure.n)
        elif f.kind == "edge":
            lo.append(-1)
            radix.append(len(rules.structure.edges) + 1)
        elif f.kind == "bool":
            lo.append(0)
            radix.append(2)
        else:
            lo.append(f.lower)
            radix.append(top - f.lower + 1)
    return Box(tuple(lo), tuple(radix), Box.around(rules, []).order)


def least_image(rules, box, s):
    """The least key over the automorphisms sending the token (if there is one) to the least
    vertex of its orbit: the plain minimum, every image's key built whole."""
    sch = rules.schema
    tokens = [i for i, (name, key) in enumerate(sch.slots) if key is None and sch.fields[name].kind == "vertex"]
    auts = rules.automorphisms
    keep = auts
    if len(tokens) == 1:
        t = s[tokens[0]]
        least = min(sigma[t] for sigma in auts)
        keep = [sigma for sigma in auts if sigma[t] == least]
    keys = []
    for sigma in keep:
        perm, vmaps = rules.slot_action(sigma)
        image = [0] * len(s)
        for i, v in enumerate(s):
            image[perm[i]] = vmaps[i](v) if vmaps[i] is not None else v
        keys.append(box.index(image))
    return min(keys)


@pytest.mark.parametrize("game, g, top", CASES, ids=IDS)
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10 ** 9))
def test_canon_equals_the_plain_minimum_over_the_automorphisms(game, g, top, seed):
    rules = get_game(game).rules(g)
    assert len(rules.automorphisms) > 1
    box = box_of(rules, top)
    k = Kernel(rules, box, symmetry=True)
    rnd = random.Random(seed)
    for _ in range(50):
        s = [box.lo[i] + rnd.randrange(box.radix[i]) for i in range(len(box.lo))]
        if rnd.random() < 0.5:            # many equal values: images tie in their first digits
            s = [box.lo[i] + min(box.radix[i] - 1, 1) if box.radix[i] > 2 else v for i, v in enumerate(s)]
        assert k.lib.k_canon(box.index(s)) == least_image(rules, box, s), s


def random_graph_position(rnd, game):
    n = rnd.randint(3, 6)
    g = rnd.choice([nx.cycle_graph(n), nx.complete_graph(min(n, 4)), nx.path_graph(n), nx.star_graph(n - 1),
                    nx.petersen_graph() if game == "edge-nim" and rnd.random() < 0.2 else nx.cycle_graph(n)])
    if game == "edge-nim":
        top = 1 if g.number_of_nodes() > 6 else 3
        return {"game": game, "edges": [[u, v, rnd.randint(0, top)] for u, v in g.edges],
                "token": rnd.choice(list(g.nodes))}
    return {"game": game, "nodes": [[v, rnd.randint(1, 3)] for v in g.nodes], "edges": [list(e) for e in g.edges],
            "token": rnd.choice(list(g.nodes))}


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["edge-nim", "vertexnim", "vertex-nimg"]), st.sampled_from([NORMAL, MISERE]),
       st.integers(0, 10 ** 9))
def test_outcomes_least_rank_first_equal_the_python_path(game, mode, seed):
    obj = random_graph_position(random.Random(seed), game)
    obj["convention"] = "misere" if mode == MISERE else "normal"
    pos = read_position(obj)
    rules = pos.rules
    k = Kernel(rules, Box.around(rules, [pos.state]), mode, symmetry=True)
    assert k.mover_wins(pos.state) == Solver(native=False, symmetry=False).mover_wins(pos)


def test_a_box_past_56_bits_keeps_keys_and_values_side_by_side():
    """Keys of 56 bits or more leave no byte for the value in the key's word: the same values."""
    g = cycle(14)
    rules = get_game("edge-nim").rules(g)
    box = Box(tuple([0] * 14 + [0]), tuple([16] * 14 + [14]), Box.around(rules, []).order)
    assert 2 ** 56 <= box.size < 2 ** 63
    rnd = random.Random(5)
    states = [tuple(rnd.randint(0, 2) for _ in range(14)) + (rnd.randrange(14),) for _ in range(30)]
    for mode in (GRUNDY, NORMAL):
        for symmetry in (False, True):
            k = Kernel(rules, box, mode, dense=False, symmetry=symmetry)
            small = Kernel(rules, Box.around(rules, states), mode, dense=False, symmetry=symmetry)
            got = [k.value(s) for s in states]
            assert got == [small.value(s) for s in states]
            assert k.stored == small.stored > 0


def _nim_with_rank(rank):
    from grundy.spec import Field, Game, move

    class RankedNim(Game):
        name = "ranked-nim-test"
        summary = "nim on two heaps, with a rank given by the test"
        structure = "heaps"

        def fields(self, g):
            return [Field("heap", over="heaps")]

        def moves(self, g, s):
            for i in range(2):
                yield move(f"take from {i}", guard=s.heap[i] > 0, choose=[("k", 1, s.heap[i])],
                           update=lambda k, i=i: s.set(heap={i: s.heap[i] - k}))

        def rank(self, g, s):
            return rank(s)

    return RankedNim()


@pytest.mark.parametrize("rank, separable", [
    (lambda s: ite(s.heap[0] > 0, 2 * s.heap[0] - 1, 0) + 3 * s.heap[1], True),      # one slot per term
    (lambda s: 2 * (s.heap[0] + s.heap[1]) + ite(s.heap[0] > s.heap[1], 1, 0), False),   # a term reads two
])
def test_outcomes_with_any_rank_are_boutons(rank, separable):
    from grundy.solvers.native.codegen import c_source, rank_terms
    game = _nim_with_rank(rank)
    rules = game.rules(Structure.heaps(2))
    assert (rank_terms(rules) is not None) == separable
    states = [(a, b) for a in range(7) for b in range(7)]
    box = Box.around(rules, states)
    assert ("push_ranked(b, nk, dr)" in c_source(rules, box)) == separable
    for mode in (NORMAL, MISERE):
        k = Kernel(rules, box, mode)
        for s in states:                  # Bouton: normal play, and misère (all heaps <= 1: the parity flips)
            expected = (s[0] ^ s[1]) != 0 if mode == NORMAL or max(s) > 1 else (s[0] ^ s[1]) == 0
            assert k.mover_wins(s) == expected, (s, mode)


def test_a_hash_table_grown_past_millions_of_positions_keeps_every_value():
    """The kernel's hash table grows twice over, four times over from 2^20 entries to 2^24
    (grundy/solvers/native/c/solver.c, grow): a subtraction game S(1, 2) on four heaps up to 44,
    without reductions, stores all 45^4 = 4,100,625 positions (past 3/4 of 2^22, so through
    both four-fold steps); its Grundy values are the XOR of the heaps mod 3."""
    pos = read_position({"game": "subtraction", "set": [1, 2], "heaps": [44, 44, 44, 44]})
    rules = pos.rules
    k = Kernel(rules, Box.around(rules, [pos.state, (0, 0, 0, 0)]), GRUNDY, dense=False)
    assert k.grundy(pos.state) == 0
    assert k.stored == 45 ** 4
    rnd = random.Random(7)
    for s in [tuple(rnd.randint(0, 44) for _ in range(4)) for _ in range(2000)]:
        assert k.grundy(s) == (s[0] % 3) ^ (s[1] % 3) ^ (s[2] % 3) ^ (s[3] % 3), s
