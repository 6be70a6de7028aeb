"""The canonical form under the full symmetric group (grundy/solvers/symmetric.py).

Every stored key must denote a position isomorphic to the one asked about: checked directly
(the representative is an image of the position under some vertex permutation), as a class
function below the cap (renamed positions get the same representative), Python against C
(the same representative), and through values: Grundy values, normal and misère outcomes with
the reduction (forced on K_3..K_5 and on edgeless graphs) equal those without symmetry, on the
Python path and in the kernel, with and without the cap cutting the candidates short.
"""
import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from grundy.solvers import symmetric
from grundy.solvers.explicit import compile_rules
from grundy.solvers.native import build
from grundy.solvers.native.kernel import GRUNDY, MISERE, NORMAL, Box, Kernel
from grundy.solvers.solver import Solver
from grundy.solvers.symmetric import Plan
from grundy.spec import Structure
from grundy.spec.games import get_game
from grundy.spec.position import Position

native = pytest.mark.skipif(not build.available(), reason="no C compiler here")


def complete(n, loops=False):
    return Structure.graph(range(n), [(u, v) for u in range(n) for v in range(u)],
                           loops=range(n) if loops else ())


def edgeless(n, loops=True):
    return Structure.graph(range(n), [], loops=range(n) if loops else ())


# (game, structure, the values a slot takes in the tests)
CASES = [("edge-nim", complete(3), 3), ("edge-nim", complete(4), 2), ("edge-nim", complete(5), 2),
         ("vertex-nimg", complete(4), 3), ("vertex-nimg", complete(4, loops=True), 2),
         ("vertex-nimg", edgeless(4), 3), ("vertex-nimg", edgeless(5), 2),
         ("weighted-grim", complete(4), 3), ("mig", complete(4), 2), ("edge-delete", complete(4), 1)]
IDS = [f"{g}-{'K' if s.edges else 'E'}{s.n}{'L' if s.loops else ''}" for g, s, _ in CASES]


@pytest.fixture
def forced(monkeypatch):
    monkeypatch.setattr(symmetric, "FORCE", True)


def rules_of(game, g):
    return get_game(game).rules(g)


def random_state(rules, top, rnd):
    out = []
    for name, _ in rules.schema.slots:
        f = rules.schema.fields[name]
        if f.kind == "vertex":
            out.append(rnd.randrange(rules.structure.n))
        elif f.kind == "bool":
            out.append(rnd.randrange(2))
        else:
            out.append(rnd.randint(max(f.lower, 0), top))
    return tuple(out)


def all_images(plan, s):
    return {plan.image(s, list(p)) for p in itertools.permutations(range(plan.n))}


def test_plan_only_where_every_permutation_is_an_automorphism():
    en = get_game("edge-nim")
    assert Plan.of(en.rules(complete(6))) is not None          # 720 > 256 automorphisms
    assert Plan.of(en.rules(complete(5))) is None              # listed: the automorphisms serve
    assert Plan.of(en.rules(complete(5)), force=True) is not None
    path = Structure.graph(range(7), [(i, i + 1) for i in range(6)])
    assert Plan.of(en.rules(path), force=True) is None
    k6_minus = Structure.graph(range(6), [(u, v) for u in range(6) for v in range(u) if (u, v) != (1, 0)])
    assert Plan.of(en.rules(k6_minus), force=True) is None
    some_loops = Structure.graph(range(6), [], loops=[0, 1])
    assert Plan.of(get_game("vertex-nimg").rules(some_loops), force=True) is None
    assert Plan.of(get_game("vertexnim").rules(complete(6)), force=True) is None   # a field over pairs
    assert Plan.of(get_game("wyg").rules(complete(6)), force=True) is None         # an edge-valued field


def test_no_plan_without_declared_symmetry(monkeypatch):
    game = get_game("edge-nim")
    monkeypatch.setattr(type(game), "symmetric", False)
    assert Plan.of(game.rules(complete(6))) is None


@pytest.mark.parametrize("game,g,top", CASES, ids=IDS)
def test_representative_is_an_image_and_a_class_function(game, g, top):
    rules = rules_of(game, g)
    plan = Plan.of(rules, force=True)
    rnd = random.Random(7)
    for _ in range(40):
        s = random_state(rules, top, rnd)
        c = plan.canonical(s)
        assert c in all_images(plan, s)            # isomorphic to s (sound)
        perm = list(range(g.n))
        rnd.shuffle(perm)
        assert plan.canonical(plan.image(s, perm)) == c   # the same for a renamed s


@pytest.mark.parametrize("game,g,top", CASES[:5], ids=IDS[:5])
def test_above_the_cap_still_an_image(game, g, top):
    rules = rules_of(game, g)
    plan = Plan.of(rules, force=True, cap=1)
    rnd = random.Random(3)
    for _ in range(40):
        s = random_state(rules, top, rnd)
        assert plan.canonical(s) in all_images(plan, s)


@native
@pytest.mark.parametrize("game,g,top", CASES, ids=IDS)
def test_kernel_and_python_pick_the_same_representative(game, g, top, forced):
    rules = rules_of(game, g)
    plan = Plan.of(rules)
    rnd = random.Random(11)
    states = [random_state(rules, top, rnd) for _ in range(200)]
    k = Kernel(rules, Box.around(rules, states), NORMAL, symmetry=True)
    for s in states:
        assert k.canonical(s) == plan.canonical(s)


def _solve_all(game, g, states, convention, **kw):
    solver = Solver(**kw)
    out = []
    for s in states:
        p = Position(get_game(game), g, s, convention)
        out.append((solver.grundy(p) if convention == "normal" else None, solver.mover_wins(p)))
    return out


@given(data=st.data())
@settings(max_examples=12, deadline=None)
@pytest.mark.parametrize("game,g,top", CASES, ids=IDS)
@pytest.mark.parametrize("convention", ["normal", "misere"])
def test_values_with_the_reduction_equal_values_without(game, g, top, convention, data):
    rules = rules_of(game, g)
    seed = data.draw(st.integers(0, 2 ** 32 - 1))
    rnd = random.Random(seed)
    states = [random_state(rules, top, rnd) for _ in range(6)]
    plain = _solve_all(game, g, states, convention, symmetry=False, native=False)
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(symmetric, "FORCE", True)
        assert _solve_all(game, g, states, convention, native=False) == plain
        if build.available():
            assert _solve_all(game, g, states, convention, native="always") == plain
        mp.setattr(symmetric, "CAP", 1)       # partial canonical forms only
        assert _solve_all(game, g, states, convention, native=False) == plain
        if build.available():
            assert _solve_all(game, g, states, convention, native="always") == plain


@native
def test_k6_kernel_stores_fewer_positions_same_outcomes():
    rules = rules_of("edge-nim", complete(6))
    rnd = random.Random(5)
    states = [tuple(rnd.randint(1, 2) for _ in range(15)) + (rnd.randrange(6),) for _ in range(30)]
    box = Box.around(rules, states)
    with_sym = Kernel(rules, box, NORMAL, symmetry=True)
    without = Kernel(rules, box, NORMAL, symmetry=False)
    assert with_sym.values(states) == without.values(states)
    assert with_sym.stored * 2 < without.stored


@native
def test_misere_grundy_kernel_mode_with_the_reduction(forced):
    rules = rules_of("edge-nim", complete(4))
    rnd = random.Random(9)
    states = [tuple(rnd.randint(0, 2) for _ in range(6)) + (rnd.randrange(4),) for _ in range(40)]
    box = Box.around(rules, states)
    for mode in (GRUNDY, MISERE):
        a = Kernel(rules, box, mode, symmetry=True).values(states)
        b = Kernel(rules, box, mode, symmetry=False).values(states)
        assert a == b


def test_compile_rules_uses_the_plan_on_k6():
    rules = rules_of("edge-nim", complete(6))
    code = compile_rules(rules)
    s = (1,) * 15 + (4,)
    t = (1,) * 15 + (0,)
    assert code.canonical(s) == code.canonical(t)
    assert compile_rules(rules, symmetry=False).canonical(s) == s
