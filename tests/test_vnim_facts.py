"""A statement built once per order with the structure's facts as data (grundy/spec/facts.py):
vnim/cor12-corrected's statement, rewritten to read the graph through ``adjacent`` and
``has_loop`` alone, builds on each structure the IR it built over the neighbours; its build with
the loops as facts, bound to a structure's, is worth the structure's own statement at every
position the sweep judges (differential, on the interpreter); the mechanism refuses builders
that read more of the structure or test a fact in Python."""
import itertools
from pathlib import Path

import pytest

from grundy.spec import Structure, all_of, any_of, ite, not_
from grundy.spec import facts as facts_mod
from grundy.spec.facts import build_facts, with_facts
from grundy.spec.games import GAMES
from grundy.verify.families import states
from grundy.verify.loading import load

THEOREMS = Path(__file__).resolve().parents[1] / "theorems"


@pytest.fixture(scope="module")
def claims():
    return {c.id: c for c in load([str(THEOREMS / "vnim.py")])}


def _same(a, b, seen=None) -> bool:
    """Whether two IR DAGs are the same tree (operators, sorts, constants, variables)."""
    seen = set() if seen is None else seen
    stack = [(a, b)]
    while stack:
        x, y = stack.pop()
        if x is y or (id(x), id(y)) in seen:
            continue
        seen.add((id(x), id(y)))
        if x.op != y.op or x.sort != y.sort or len(x.args) != len(y.args):
            return False
        if x.op in ("const", "var"):
            if x.args != y.args or type(x.args[0]) is not type(y.args[0]):
                return False
            continue
        stack.extend(zip(x.args, y.args))
    return True


def _old(vnim):
    """vnim/cor12-corrected's statement as written before the rewrite (over ``g.neighbours``)."""
    def p(g, s):
        w = [s.weight[v] for v in g.vertices]
        nb = g.neighbours
        zero = [x == 0 for x in w]
        kept = [~zero[v] & (not g.has_loop(v)) & all_of(~zero[q] for q in nb(v)) for v in g.vertices]
        in_g1 = [kept[v] & (w[v] >= 2) & all_of(~kept[q] | (w[q] >= 2) for q in nb(v)) for v in g.vertices]
        lab = vnim.lu_p(g.n, in_g1, lambda p, q: g.adjacent(p, q), w, strict=True)

        def p_at(u):
            one_nb = any_of(kept[v] & (w[v] == 1) for v in nb(u))
            return zero[u] | (kept[u] & ite(w[u] == 1, True, ~one_nb & lab[u]))
        return vnim.at_token(g, s, p_at)
    return p


@pytest.fixture(scope="module")
def vnim():
    import importlib.util
    spec = importlib.util.spec_from_file_location("vnim_theorems_under_test", THEOREMS / "vnim.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("cid", ["vnim/cor12-corrected", "vnim/cor12-corrected-n5"])
def test_rewritten_statement_builds_the_same_ir(claims, vnim, cid):
    claim, old = claims[cid], _old(vnim)
    n = 0
    for _, g in itertools.islice(claim.family.items(), 0, None, 3):
        s = GAMES[claim.game].rules(g).state
        assert _same(claim.statement(g, s), old(g, s)), g
        n += 1
    assert n >= 5


def _vm():
    from grundy.solvers.native import vm
    if not vm.available():
        pytest.skip("no C compiler: no interpreter")
    return vm


def test_facts_program_agrees_with_the_structures_own(claims):
    vm = _vm()
    claim = claims["vnim/cor12-corrected-n5"]
    checked = programs = 0
    for _, g in itertools.islice(claim.family.items(), 0, None, 12):
        rules = GAMES[claim.game].rules(g)
        got = claim.statement.facts(g, rules.state)
        assert got is not None and got[1], g                 # the loops are facts
        generic, values = got
        assert set(values) == {f"@loop({v})" for v in g.vertices}
        bound = vm.Statement.of(rules, generic, None, tuple(values)).bind(values)
        own = vm.Statement.of(rules, claim.statement(g, rules.state), None)
        programs += 1
        for st in states(rules, claim.bounds):
            assert vm.statement_at(bound, st) == vm.statement_at(own, st), (g, st)
            checked += 1
    assert programs >= 30 and checked > 20_000


def test_an_unbound_statement_is_refused(claims):
    vm = _vm()
    claim = claims["vnim/cor12-corrected-n5"]
    _, g = next(iter(claim.family.items()))
    rules = GAMES[claim.game].rules(g)
    generic, values = claim.statement.facts(g, rules.state)
    st = vm.Statement.of(rules, generic, None, tuple(values))
    with pytest.raises(ValueError):
        vm.statement_at(st, (0,) * len(rules.schema))


def test_built_once_per_order_and_edges():
    game = GAMES["vertex-nimg"]
    made = []

    def f(g, s):
        made.append(g.n)
        return all_of(not_(g.has_loop(v)) | (s.weight[v] >= 1) for v in g.vertices if g.adjacent(0, v))
    facts_mod._BUILT.clear()
    path = Structure.graph(range(3), [(0, 1), (1, 2)])
    looped = Structure.graph(range(3), [(0, 1), (1, 2)], loops=[1])
    star = Structure.graph(range(3), [(0, 1), (0, 2)])
    got = [build_facts(f, g, game.rules(g).state, edges=False) for g in (path, looped, star)]
    assert made == [3, 3]                                   # the path's build serves its looped copy
    assert got[0][0] is got[1][0] and got[0][0] is not got[2][0]
    assert got[0][1] == {"@loop(1)": 0} and got[1][1] == {"@loop(1)": 1}
    assert build_facts(f, path, game.rules(path).state) is None        # adjacent() tested in Python


def test_builders_reading_more_get_none():
    game = GAMES["vertex-nimg"]
    g = Structure.graph(range(3), [(0, 1), (1, 2)], loops=[0])
    s = game.rules(g).state
    assert build_facts(lambda g, s: s.weight[g.neighbours(0)[0]] > 0, g, s) is None     # neighbours
    assert build_facts(lambda g, s: s.token == (0 if g.has_loop(0) else 1), g, s) is None   # a Python test
    marked = with_facts(lambda g, s: not_(g.has_loop(0)) & (s.weight[0] > 0))
    assert marked(g, s).op == "const"                       # on the structure: folded (a loop at 0)
    e, values = marked.facts(g, s)
    assert values == {"@loop(0)": 1} and e.op == "and"


def test_instance_builds_the_structures_statement_when_read(claims):
    from grundy.solvers.solver import Solver
    from grundy.verify.check.instance import Instance
    claim = claims["vnim/cor12-corrected-n5"]
    label, g = next(iter(claim.family.items()))
    inst = Instance(claim, label, g, Solver())
    assert inst.by_facts is not None and inst._expr is None and not inst.by_value
    e = inst.expr
    assert _same(e, claim.statement(g, inst.rules.state)) and inst.expr is e
    assert inst.assume_expr.op == "const" and inst.assume_expr.args[0] is True      # made again: no assume
    plain = claims["vnim/thm10-corrected"]                             # no build by facts: as before
    label, g = next(iter(plain.family.items()))
    other = Instance(plain, label, g, Solver())
    assert other.by_facts is None and other._expr is not None
