"""Differential tests: the Z3 obligations against the explicit solver.

For small games within a bound B (a family closed under moves: no move of these games
raises a field), the explicit solver gives the true P-positions and Grundy values. Written
as IR tables (an ``any_of`` over the P-states; an ite-chain of values), they must pass every
obligation. With one state flipped (or one value changed) some obligation must fail, and
the state Z3 reports must really break it, checked on concrete states with the explicit
solver's compiled moves.
"""
import itertools
import random

import pytest

from grundy.solvers.explicit import compile_rules
from grundy.solvers.native.build import available as native_available
from grundy.solvers.smt import check_grundy_formula, check_partition
from grundy.solvers.solver import Solver
from grundy.spec import Structure, all_of, any_of, ite, lift
from grundy.spec.games import GAMES, get_game
from grundy.spec.position import Position

SOLVER = Solver(native=False)                 # the pure-Python path
NATIVE = Solver(native="always")              # the C kernel (the same answers, checked in setup)


def graph(kind, n):
    if kind == "path":
        return Structure.graph(range(n), [(i, i + 1) for i in range(n - 1)])
    if kind == "cycle":
        return Structure.graph(range(n), [(i, (i + 1) % n) for i in range(n)])
    return Structure.graph(range(n), itertools.combinations(range(n), 2))


# (game, structure, bound B, mode): mode "bound" = unbounded integers held <= B by the
# encoding (choices expand), "assume" = the bound as an assumption (choices quantified),
# "bv" = 8-bit vectors with bound B
INSTANCES = [
    ("nim", Structure.heaps(2), 5, "assume"),
    ("nim", Structure.heaps(3), 3, "bound"),
    ("edge-nim", graph("path", 4), 2, "bound"),
    ("edge-nim", graph("cycle", 3), 2, "assume"),
    ("edge-nim", graph("cycle", 4), 2, "bv"),
    ("edge-nim", graph("cycle", 5), 1, "bound"),
    ("edge-nim", graph("complete", 4), 1, "bound"),
    ("minnie", Structure.heaps(3), 3, "bound"),
    ("nimb", Structure.heaps(2), 5, "assume"),
    ("nimb", Structure.heaps(3), 3, "bv"),
    ("mine", Structure.heaps(3), 3, "bound"),
    ("wynnie", Structure.heaps(2), 6, "assume"),
    ("wythoff", Structure.heaps(2), 5, "bound"),
]
INSTANCES = [i for i in INSTANCES if i[0] in GAMES]   # games not written yet are left out
IDS = [f"{g}-{s.kind}{s.n}{'-' + str(len(s.edges)) + 'e' if s.edges else ''}-B{b}-{m}"
       for g, s, b, m in INSTANCES]
# the Grundy tables are slower to check: a subset (every mode, both kinds of structure)
GRUNDY = [i for i, x in enumerate(IDS) if x in {
    "nim-heaps2-B5-assume", "edge-nim-graph4-3e-B2-bound", "edge-nim-graph3-3e-B2-assume",
    "minnie-heaps3-B3-bound", "nimb-heaps3-B3-bv", "wynnie-heaps2-B6-assume", "wythoff-heaps2-B5-bound"}]


def family(rules, bound):
    """Every state with int fields <= bound."""
    sch, g = rules.schema, rules.structure
    ranges = []
    for name, _ in sch.slots:
        f = sch.fields[name]
        ranges.append({"int": range(f.lower, bound + 1), "bool": range(2), "vertex": range(g.n),
                       "edge": range(-1, len(g.edges))}[f.kind])
    return list(itertools.product(*ranges))


def is_state(rules, state):
    vs = rules.schema.variables
    return all_of([v == (bool(x) if v.sort == "bool" else x) for v, x in zip(vs, state)])


def setup(name, structure, bound, mode):
    game = get_game(name)
    rules = game.rules(structure)
    states = family(rules, bound)
    pos = [Position(game, structure, s) for s in states]
    outcome = {s: SOLVER.outcome(p) == "P" for s, p in zip(states, pos)}
    grundy = {s: SOLVER.grundy(p) for s, p in zip(states, pos)}
    if native_available():    # the tables Z3 is held to come out the same from the C kernel
        assert outcome == {s: NATIVE.outcome(p) == "P" for s, p in zip(states, pos)}
        assert grundy == {s: NATIVE.grundy(p) for s, p in zip(states, pos)}
    if mode == "assume":
        vs, sch = rules.schema.variables, rules.schema
        assume = all_of(v <= bound for v, (f, _) in zip(vs, sch.slots) if sch.fields[f].kind == "int")
        kw = {"assume": assume}
    else:
        kw = {"bound": bound, "width": 8 if mode == "bv" else None}
    return rules, states, outcome, grundy, kw


def options(rules, state):
    return compile_rules(rules, symmetry=False, decompose=False).options(state)  # every move, labelled


def choice_tuple(rules, res):
    return tuple(res.choices[c.name] for c in rules.moves[res.choices["move"]].choices)


def confirm_partition(rules, res, claimed, bound):
    """The violated obligation really fails at res.state for the claimed P-set."""
    s = res.state
    assert s in claimed, f"{s} is outside the family <= {bound}"
    opts = options(rules, s)
    if res.obligation == "T":
        assert opts == [] and not claimed[s]
    elif res.obligation == "PN":
        nxt = [t for mi, ch, t in opts if mi == res.choices["move"] and ch == choice_tuple(rules, res)]
        assert len(nxt) == 1 and claimed[s] and claimed[nxt[0]]
    elif res.obligation == "NP":
        assert opts and not claimed[s] and not any(claimed[t] for _, _, t in opts)
    else:
        raise AssertionError(f"unexpected violation of {res.obligation}: {res}")


def confirm_grundy(rules, res, value):
    s = res.state
    assert s in value
    opts = options(rules, s)
    if res.obligation == "mex-equal":
        nxt = [t for mi, ch, t in opts if mi == res.choices["move"] and ch == choice_tuple(rules, res)]
        assert len(nxt) == 1 and value[nxt[0]] == value[s]
    elif res.obligation == "mex-below" and res.choices:
        v = res.choices["value"]
        assert 0 <= v < value[s] and all(value[t] != v for _, _, t in opts)
    elif res.obligation == "mex-below":
        assert value[s] < 0
    else:
        raise AssertionError(f"unexpected violation of {res.obligation}: {res}")


@pytest.mark.parametrize("name,structure,bound,mode", INSTANCES, ids=IDS)
def test_true_p_positions_pass_and_a_flipped_state_is_caught(name, structure, bound, mode):
    rules, states, outcome, _, kw = setup(name, structure, bound, mode)
    p = any_of(is_state(rules, s) for s in states if outcome[s])
    res = check_partition(rules, p, **kw)
    assert [(r.obligation, r.status) for r in res] == [
        ("closed", "holds"), ("T", "holds"), ("PN", "holds"), ("NP", "holds")], res
    rng = random.Random(f"{name}{structure}{bound}")
    flip = rng.choice(states)
    claimed = dict(outcome)
    claimed[flip] = not claimed[flip]
    q = any_of(is_state(rules, s) for s in states if claimed[s])
    bad = [r for r in check_partition(rules, q, **kw) if r.status != "holds"]
    assert bad and all(r.status == "violated" for r in bad), bad
    for r in bad:
        confirm_partition(rules, r, claimed, bound)


@pytest.mark.parametrize("name,structure,bound,mode", [INSTANCES[i] for i in GRUNDY],
                         ids=[IDS[i] for i in GRUNDY])
def test_true_grundy_values_pass_and_a_changed_value_is_caught(name, structure, bound, mode):
    rules, states, _, grundy, kw = setup(name, structure, bound, mode)

    def table(value):
        g = lift(value[states[-1]])
        for s in states[:-1]:
            g = ite(is_state(rules, s), value[s], g)
        return g
    res = check_grundy_formula(rules, table(grundy), **kw)
    assert [(r.obligation, r.status) for r in res] == [
        ("closed", "holds"), ("mex-equal", "holds"), ("mex-below", "holds")], res
    rng = random.Random(f"{name}{structure}{bound}")
    s0 = rng.choice(states)
    wrong = dict(grundy)
    wrong[s0] = grundy[s0] + 1 if grundy[s0] == 0 or rng.random() < 0.5 else grundy[s0] - 1
    bad = [r for r in check_grundy_formula(rules, table(wrong), **kw) if r.status != "holds"]
    assert bad and all(r.status == "violated" for r in bad), bad
    for r in bad:
        confirm_grundy(rules, r, wrong)
