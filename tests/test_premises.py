"""Declarations are premises (issue 18, class 1): each reduction of the solver is used on a
structure only where Z3 proves its premise there (grundy.solvers.premises); otherwise the values
come from the moves. Unit tests of each premise path, of the solver's use of them (Python and C),
of the record of which sources served, and of memos keyed by the game object."""
from __future__ import annotations

import itertools
import sys
import warnings
from pathlib import Path

import pytest

from grundy import Solver, Structure
from grundy.cli import main
from grundy.solvers import premises
from grundy.solvers.heaps import HeapTables, sum_of_heaps
from grundy.solvers.native import build
from grundy.solvers.solver import SourceLog
from grundy.solvers.symmetric import Plan
from grundy.spec import HeapRule, make_position, move, option, read_position
from grundy.spec.expr import lift
from grundy.spec.games import get_game
from grundy.spec.heaprule import rule_heaps
from grundy.spec.heaps import HeapGame
from grundy.verify import Claim, check_claim, complete, heaps

sys.path.insert(0, str(Path(__file__).parent / "soundness"))
import _bad_games  # noqa: E402  (test games, registered in this process)
import _premise_games as pg  # noqa: E402

NATIVE = [False] + (["always"] if build.available() else [])


def rules(name: str, g: Structure):
    return get_game(name).rules(g)


def heap_states(n: int, top: int):
    return itertools.product(range(top + 1), repeat=n)


# ------------------------------------------------------------------ each premise path
def _no_identity(monkeypatch):
    """Every generator proved by Z3's path (none shown by construction, identical terms)."""
    from grundy.solvers.premises import symmetry
    monkeypatch.setattr(symmetry, "_by_identity", lambda rules, gen: False)


def test_symmetry_proved_violated_unknown_not_declared(monkeypatch):
    p = premises.prove_symmetry(rules("nim", Structure.heaps(3)), cache=False)
    assert p.status == "proved" and p.how == "symmetry (S_3 on heaps) proved by construction, 2 generators"
    _no_identity(monkeypatch)
    p = premises.prove_symmetry(rules("nim", Structure.heaps(3)), cache=False)
    assert p.status == "proved" and p.how == "symmetry (S_3 on heaps) proved by Z3, 2 generators"
    bad = premises.prove_symmetry(_bad_games.BAD["symmetry"].rules(Structure.heaps(2)), cache=False)
    assert bad.status == "violated" and bad.declared and bad.state is not None
    assert bad.violation.startswith("test-chomp-symmetric: the rule does not commute with swapping heaps 0 and 1: at ")
    assert "move '" in bad.violation and "\n" not in bad.violation
    tiny = premises.prove_symmetry(rules("nim", Structure.heaps(3)), cache=False, budget=1)
    assert tiny.status == "unknown" and tiny.how.endswith("not used")
    none = premises.prove_symmetry(_bad_games.GOOD[0].rules(Structure.heaps(2)), cache=False)
    assert none.status == "not declared"


@pytest.mark.parametrize("name,most", [("test-nim-and-sub5", 4), ("test-nim-and-sub4", 3)])
def test_symmetry_broken_only_at_larger_heaps_is_found(name, most):
    """The heaps' rules agree up to ``most``: the old vet (heaps <= 3) passed both; Z3 finds the
    violation at a heap above ``most``, and the brute force confirms the two orders differ there."""
    p = premises.prove_symmetry(rules(name, Structure.heaps(2)), cache=False)
    assert p.status == "violated" and max(p.state) > most
    assert p.declared == (name == "test-nim-and-sub4")          # only one author wrote symmetric = True
    assert any(pg.nim_and_sub(x, y, most) != pg.nim_and_sub(y, x, most) for x, y in heap_states(2, most + 1))
    assert all(pg.nim_and_sub(x, y, most) == pg.nim_and_sub(y, x, most) for x, y in heap_states(2, 3))


def test_decomposition_proved_violated_unknown_not_declared():
    assert premises.prove_decomposition(rules("nim", Structure.heaps(4)), cache=False).status == "proved"
    c5 = Structure.graph(range(5), [(0, 1), (1, 2), (2, 3), (3, 4), (0, 4)])
    assert premises.prove_decomposition(rules("grim", c5), cache=False).status == "proved"
    bad = premises.prove_decomposition(get_game("test-nim-plus4").rules(Structure.heaps(2)), cache=False)
    assert bad.status == "violated" and bad.declared and min(bad.state) >= 4
    assert "move 'take 4 from heaps 1 and 2' of the whole position is no move of a single component" in bad.violation
    assert pg.nim_plus(bad.state, 4) != pg.nim_plus((bad.state[0], 0), 4) ^ pg.nim_plus((0, bad.state[1]), 4)
    tiny = premises.prove_decomposition(rules("nim", Structure.heaps(4)), cache=False, budget=1)
    assert tiny.status == "unknown"
    assert premises.prove_decomposition(rules("wythoff", Structure.heaps(2)), cache=False).status == "not declared"


class _GrimFar(type(get_game("grim"))):
    """Grim whose move at v also deletes v + 2 (on a path: no neighbour of v): not a sum over
    the components once v + 1 is gone."""
    name = "test-grim-far"

    def moves(self, g, s):
        for mv in super().moves(g, s):
            v = int(mv.label.split()[-1])
            if v + 2 < g.n:
                mv = move(mv.label, guard=mv.guard, update={**mv.update, v + 2: lift(False)})
            yield mv


class _GrimFarPresence(type(get_game("grim"))):
    """Grim whose vertex v takes part only while vertex 0 is alive: a component's presence
    read from another component."""
    name = "test-grim-far-presence"

    def present(self, g, s, v):
        return s.alive[v] & s.alive[0] if v else s.alive[v]


class _GrimPlainValues(type(get_game("grim"))):
    """Grim with the deleted vertex's update written as a plain Python ``False``."""
    name = "test-grim-plain-values"

    def moves(self, g, s):
        for mv in super().moves(g, s):
            v = int(mv.label.split()[-1])
            yield move(mv.label, guard=mv.guard, update={**mv.update, v: False})


def test_plain_values_in_an_update_are_expressions_and_the_premises_hold():
    """move(update={slot: False}) stores an expression: the premises read it as grim's own (a
    plain bool made both of them unknown, 'AttributeError')."""
    path = Structure.graph(range(6), [(i, i + 1) for i in range(5)])
    r = _GrimPlainValues().rules(path)
    assert all(hasattr(e, "op") for m in r.moves for e in m.update.values())
    assert premises.prove_decomposition(r, cache=False).status == "proved"
    assert premises.prove_symmetry(r, cache=False).status == "proved"


@pytest.mark.parametrize("game", [_GrimFar(), _GrimFarPresence()], ids=["far-move", "far-presence"])
@pytest.mark.parametrize("n", [6, 9])
def test_decomposition_violated_by_what_is_far_from_a_move(game, n):
    """The premise's queries read what a move changes (and the links it touches); a change far
    from the move, or a presence read far away, is still found and replayed."""
    path = Structure.graph(range(n), [(i, i + 1) for i in range(n - 1)])
    got = premises.prove_decomposition(game.rules(path), cache=False)
    assert got.status == "violated", got.how
    assert premises.prove_decomposition(get_game("grim").rules(path), cache=False).status == "proved"


@pytest.mark.parametrize("name", ["grim", "far-move", "far-presence", "weighted-grim", "edge-delete", "mig"])
def test_decomposition_states_after_a_move_are_made_as_from_scratch(name):
    """What the premise derives at a state after a move (presence, links, each side's
    restriction), made from the state before it where the move reaches, is what it makes
    from the state alone."""
    from grundy.solvers.premises.base import _encoding
    from grundy.solvers.premises.decomposition import _Split
    from grundy.spec.expr import show
    game = {"far-move": _GrimFar(), "far-presence": _GrimFarPresence()}.get(name) or get_game(name)
    r = game.rules(Structure.graph(range(5), [(0, 1), (1, 2), (2, 3), (3, 4), (1, 3)]))
    assert r.present is not None
    sp = _Split(r, _encoding(r))
    for mv in sp.enc.moves:
        for a_side in (True, False):
            for before in (sp.s, sp.restrict(sp.s, a_side)):
                after = sp.after(mv, before)
                plain = dict(after)
                assert list(map(show, sp.present(after))) == list(map(show, sp.present(plain)))
                assert list(map(show, sp.links(after))) == list(map(show, sp.links(plain)))
                for side in (True, False):
                    got, want = sp.restrict(after, side), sp.restrict(plain, side)
                    assert {n: show(e) for n, e in got.items()} == {n: show(e) for n, e in want.items()}


def test_decomposition_queries_near_a_move_are_proved_once_per_shape(monkeypatch):
    """A move's query is proved with the assumptions near it, and once in the process for
    every path (the same up to renaming): a longer path asks Z3 about no new middle; the
    remembered proofs are charged to the budget (budget 1 still gives unknown)."""
    import z3

    from grundy.solvers.premises import decomposition as dec
    monkeypatch.setattr(dec, "_LOCALLY", {})
    monkeypatch.setattr(dec, "_EXACTLY", {})
    checks = []
    real = z3.Solver.check

    def counted(self, *a):
        checks.append(1)
        return real(self, *a)
    monkeypatch.setattr(z3.Solver, "check", counted)

    def path(n):
        return get_game("grim").rules(Structure.graph(range(n), [(i, i + 1) for i in range(n - 1)]))
    assert premises.prove_decomposition(path(12), cache=False).status == "proved"
    first = len(checks)
    assert premises.prove_decomposition(path(30), cache=False).status == "proved"
    assert len(checks) - first < first / 2          # the ends and the presence of the whole, not every move
    assert premises.prove_decomposition(path(30), cache=False, budget=1).status == "unknown"


def test_canonical_text_names_variables_by_first_appearance():
    from grundy.solvers.premises.decomposition import _canonical
    from grundy.spec import Var
    a, b, c = Var.bool("a"), Var.bool("b"), Var.bool("c")
    x, y = Var.int("x"), Var.int("y")
    assert _canonical([a & ~b, b]) == _canonical([c & ~a, a])             # renamed: the same
    assert _canonical([a & ~b, b]) != _canonical([a & ~b, a])             # another formula
    assert _canonical([x < 3]) == _canonical([y < 3]) != _canonical([y < 4])
    assert _canonical([a]) != _canonical([x == 0])                         # sorts kept


def test_the_plans_generators_are_its_maps():
    """The S_n plan reduces by vertex permutations acting as Plan.image does: the generators the
    premise is proved for act on states the same way."""
    k5 = Structure.graph(range(5), [(u, v) for u in range(5) for v in range(u)])
    r = rules("edge-nim", k5)
    group = premises.symmetry_group(r)
    assert group.name == "S_5 on vertices" and len(group.generators) == 2
    plan = Plan.of(r, force=True)
    s = (1, 2, 0, 3, 1, 2, 0, 1, 2, 3, 4)
    for gen, perm in zip(group.generators, ([1, 0, 2, 3, 4], [4, 0, 1, 2, 3])):
        assert gen.image(s) == plan.image(s, perm)


def test_listed_generators_generate_the_listed_group_and_are_few():
    """The generators of a listed group (each a premise proof) generate every listed
    automorphism; tried by decreasing order, the Petersen graph's 120 take 2 (the listed order
    took 4)."""
    import networkx as nx
    pet = nx.petersen_graph()
    g = Structure.graph(list(pet.nodes), list(pet.edges))
    r = rules("edge-nim", g)
    group = premises.symmetry_group(r)
    assert group.name == "120 automorphisms" and len(group.generators) == 2
    made = {tuple(range(g.n))}
    frontier = list(made)
    while frontier:                      # the closure of the generators' vertex maps
        nxt = []
        for x in frontier:
            for gen in group.generators:
                sigma = gen.tables[r.schema.slot_of[r.schema.key("token", None)]]
                y = tuple(sigma[x[v]] for v in range(g.n))
                if y not in made:
                    made.add(y)
                    nxt.append(y)
        frontier = nxt
    assert made == set(r.automorphisms)


def test_declared_means_written_by_the_author():
    assert premises.declared(get_game("grim"), "decompose_over")           # its own class says so
    assert not premises.declared(get_game("grim"), "symmetric")            # Game's default
    assert not premises.declared(get_game("lasker-nim"), "decompose_over")  # HeapRule's, by construction
    assert premises.declared(get_game("test-nim-and-sub4"), "symmetric")


# ------------------------------------------------------------------ the solver uses what is proved
@pytest.mark.parametrize("native", NATIVE)
def test_a_reduction_is_used_iff_its_premise_is_proved(native):
    for name, count, top, truth, sym, dec in [
            ("nim", 2, 9, lambda h: h[0] ^ h[1], True, True),
            ("test-nim-and-sub5", 2, 9, lambda h: pg.nim_and_sub(h[0], h[1], 4), False, False),
            ("test-nim-plus4", 3, 6, lambda h: pg.nim_plus(h, 4), True, False)]:
        game, g = get_game(name), Structure.heaps(count)
        s = Solver(native=native, reduce_after=0)
        for h in heap_states(count, top):
            assert s.grundy(make_position(game, g, {"heap": list(h)})) == truth(h), (name, h)
        t = s.table(game, g)
        assert (t.symmetric, t.decomposed) == (sym, dec), name
        for k in t.kernels.values():                   # the kernel reduces by what is proved only
            assert (k.symmetry, k.decompose) == (sym, dec), name


def test_an_unknown_premise_is_not_used(tune, monkeypatch):
    tune(premise_rlimit=1)
    _no_identity(monkeypatch)           # (by construction, the symmetry would need no Z3 units)
    s = Solver(native=False, reduce_after=0)
    p = read_position({"game": "test-nim-plus4", "heaps": [4, 4]})
    assert s.grundy(p) == 1 and s.violations == []                # unknown: not used, nothing to report
    t = s.table(p.game, p.structure)
    assert {q.status for q in t.premises.values()} == {"unknown"} and not t.symmetric and not t.decomposed


def test_small_tables_ask_for_no_premise():
    s = Solver(native=False)
    p = read_position({"game": "nim", "heaps": [3, 5, 6]})
    assert s.grundy(p) == 0
    t = s.table(p.game, p.structure)
    assert not t.asked and not t.premises and not t.symmetric


def test_the_issues_reproductions(tmp_path, capsys):
    """``solve`` of [7, 2] (heap 1 Nim, heap 2 S(1..4)) is 5, N; of [4, 4] (Nim plus "take 4 from
    two heaps >= 4", declared a sum of its heaps) 1, N; with the kernel (which asks for the
    premises at once) the declared decomposition is reported violated, in one line."""
    import json
    for native in ("off",) + (("always",) if build.available() else ()):
        for obj, value in [({"game": "test-nim-and-sub5", "heaps": [7, 2]}, 5),
                           ({"game": "test-nim-plus4", "heaps": [4, 4]}, 1)]:
            f = tmp_path / "p.json"
            f.write_text(json.dumps(obj))
            assert main(["solve", "--json", "--native", native, str(f)]) == 0
            out, err = capsys.readouterr()
            assert json.loads(out) == {"index": 0, "grundy": value, "outcome": "N"}
            if native == "always" and obj["game"] == "test-nim-plus4":
                assert err.startswith("grundy: warning: a declared property does not hold")
                assert err.count("\n") == 1 and "test-nim-plus4: at {\"heaps\": [4, 4]}" in err
            else:                                # undeclared (symmetric by default), or never asked
                assert err == ""


# ------------------------------------------------------------------ the planted claims, by brute force
def test_the_planted_claims_are_false_and_the_controls_true():
    for a, b in heap_states(2, 12):
        assert pg.nim_and_sub(a, b, 4) == a ^ (b % 5)                      # control-nim-and-sub5
        assert pg.nim_and_sub(a, b, 3) == a ^ (b % 4)                      # control-nim-and-sub4
        if min(a, b) < 4:
            assert pg.nim_plus((a, b), 4) == a ^ b                          # control-nim-plus4-below-4
    assert pg.nim_and_sub(7, 2, 4) == 5 and min(7, 2) ^ (max(7, 2) % 5) == 0   # nim-and-sub5-sorted-*
    assert pg.nim_and_sub(4, 0, 3) == 4 and 0 ^ (4 % 4) == 0                    # nim-and-sub4-sorted-value
    assert pg.nim_plus((4, 4), 4) == 1 != 4 ^ 4                                  # nim-plus4-xor
    assert pg.nim_plus((0, 4, 4), 4) != 0 == 0 ^ 4 ^ 4                          # nim-plus4-xor-p-3-heaps
    assert pg.nim_plus((5, 5), 5) == 2 != 5 ^ 5                                  # nim-plus5-xor
    path = [(0, 1), (1, 2), (2, 3), (3, 4)]
    true, rev = pg.upward_walk_table(5, path, 2), pg.upward_walk_table(5, path, 2, reversed_=True)
    assert any(true[k] != rev[k] for k in true)                                 # upward-walk-reversed
    assert pg.no_checks((0, 3, 0)) == 3 and 0 ^ 0 ^ (3 % 3) == 0                # no-check-structures-sorted
    for h in heap_states(3, 6):
        assert pg.no_checks(h) == h[0] ^ h[1] ^ (h[2] % 3)                      # control-no-check-structures-3


def test_a_verdict_does_not_depend_on_the_order_of_claims():
    """The old vet checked a game whose check structures fail on the first structure solved and
    trusted that pass everywhere after: a claim's verdict depended on which claim came first."""
    sys.path.insert(0, str(Path(__file__).parent / "soundness"))
    from grundy.verify.loading import load
    claims = {c.id: c for c in load([str(Path(__file__).parent / "soundness" / "premises.py")],
                                     only=["premises/*no-check-structures*"])}
    assert len(claims) == 3
    verdicts = []
    for order in itertools.permutations(sorted(claims)):
        solver = Solver()                              # shared by the claims, as in a worker
        verdicts.append({cid: check_claim(claims[cid], solver=solver).verdict for cid in order})
    assert all(v == verdicts[0] for v in verdicts)
    assert verdicts[0]["premises/no-check-structures-sorted"] == "refuted"


# ------------------------------------------------------------------ which sources served
def test_the_verdict_names_the_sources_that_served():
    c = Claim("t/nim-3", game="nim", kind="char", family=heaps(3), bounds={"heap": 12},
              statement=lambda g, s: (s.heap[0] ^ s.heap[1] ^ s.heap[2]) == 0)
    v = check_claim(c, solver=Solver(native=False, reduce_after=0))
    assert v.verdict == "verified"
    want = "Python search with symmetry (S_3 on heaps) proved by construction, 2 generators and decomposition proved by Z3"
    assert v.coverage["sources"] == {want: 1} and v.scope.endswith(f"; values from {want}")
    v = check_claim(Claim("t/lasker", game="lasker-nim", kind="grundy", family=heaps(2), bounds={"heap": 5},
                          statement=lambda g, s: s.heap[0] ^ s.heap[1], expect="refuted"))
    assert set(v.coverage["sources"]) == {"one-heap tables"}    # (on each slot count the sweep solved on)


@pytest.mark.skipif(not build.available(), reason="no C compiler")
def test_the_kernel_on_k6_reduces_by_a_proved_s6():
    c = Claim("t/k6", game="edge-nim", kind="char", family=complete(6), bounds={"weight": (1, 1)},
              statement=lambda g, s: s.token < 0, expect="verified")    # every start is N (Erickson 4.8)
    v = check_claim(c, solver=Solver(native="always"))
    assert v.verdict == "verified"
    assert v.coverage["sources"] == {"C kernel with symmetry (S_6 on vertices) proved by construction, 2 generators": 1}


def test_a_violated_declaration_is_in_the_verdict_not_used():
    c = Claim("t/plus4", game="test-nim-plus4", kind="grundy", family=heaps(2), bounds={"heap": 60},
              statement=lambda g, s: s.heap[0] ^ s.heap[1], expect="refuted")
    v = check_claim(c)
    assert v.verdict == "refuted" and v.counterexample.actual == 1
    (line,) = v.coverage["violated"]
    assert line.startswith("test-nim-plus4: at ") and "no move of a single component" in line


def test_a_log_notes_each_source():
    log = SourceLog()
    s = Solver(native=False)
    s.log = log
    s.grundy(read_position({"game": "octal", "code": "0.77", "heaps": [30, 9]}))
    s.grundy(read_position({"game": "wythoff", "heaps": [3, 5]}))
    assert log.summary() == {"Python search": 1, "one-heap tables": 1}
    assert log.text() == "values from Python search and one-heap tables"


# ------------------------------------------------------------------ memos by the game object
class _SameName(HeapGame):
    name = "same-name-test"
    summary = "a test game"
    most = 1

    def moves(self, g, s):
        for i in g.elements:
            yield move(f"take {{k}} from heap {i}", choose=[("k", 1, self.most)], guard=lambda k, i=i: s.heap[i] >= k,
                       update=lambda k, i=i: s.set(heap={i: s.heap[i] - k}))


def test_two_games_of_one_name_never_share_a_table():
    a, b = _SameName(), _SameName()
    b.most = 2                                        # another rule, the same name
    g = Structure.heaps(2)
    pa, pb = make_position(a, g, {"heap": [3, 0]}), make_position(b, g, {"heap": [3, 0]})
    s = Solver(native=False)
    assert (s.grundy(pa), s.grundy(pb)) == (1, 0)    # S(1): 3 mod 2; S(1, 2): 3 mod 3
    assert s.grundy_many([pa, pb]) == [1, 0]
    assert s.mover_wins_many([pa, pb]) == [True, False]
    assert [s.outcome(pa), s.outcome(pb)] == ["N", "P"]


class _OneHeapSameName(HeapRule):
    name = "same-name-rule-test"
    summary = "a test game"
    most = 1

    def options(self, g, n):
        yield option("take {k}", choose=[("k", 1, self.most)], guard=lambda k: n >= k, parts=lambda k: [n - k])


def test_two_heap_rules_of_one_name_never_share_one_heap_tables():
    a, b = _OneHeapSameName(), _OneHeapSameName()
    b.most = 2
    g = rule_heaps(1)
    tables = HeapTables()
    assert tables.value(make_position(a, g, {"heap": [5]})) == 1
    assert tables.value(make_position(b, g, {"heap": [5]})) == 2


def test_one_heap_tables_only_for_heap_rules_own_moves():
    class Claims(HeapRule):                     # a HeapRule whose moves are its own (one more move)
        name = "claims-heap-rule-test"
        summary = "a test game"

        def options(self, g, n):
            yield option("take 1", guard=n >= 1, parts=[n - 1])

        def moves(self, g, s):
            yield from HeapRule.moves(self, g, s)
            yield move("empty both", guard=(s.heap[0] >= 1) & (s.heap[1] >= 1), update=s.set(heap={0: 0, 1: 0}))

    game, g = Claims(), rule_heaps(2)
    assert sum_of_heaps(game, g) is None
    s = Solver(native=False)
    assert s.grundy(make_position(game, g, {"heap": [1, 1]})) == 2   # to [0, 1], [1, 0] (value 1), [0, 0] (0)


def test_solver_vet_is_deprecated_and_nothing_is_vetted(tmp_path, monkeypatch):
    monkeypatch.setenv("GRUNDY_CACHE", str(tmp_path))
    with pytest.warns(DeprecationWarning, match="vet"):
        Solver(vet=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        s = Solver(native=False, reduce_after=0)
    assert s.grundy(read_position({"game": "nim", "heaps": [2, 3]})) == 1
    assert not (tmp_path / "vetted").exists() and list((tmp_path / "premises").glob("*.json"))


def test_heap_symmetry_by_construction_only_for_a_rule_that_reads_its_own_heap():
    """A HeapRule's heaps are interchangeable by construction (no Z3) when its options read their
    heap ``n`` and their choices only; an option that reads another heap by its variable's name
    goes to Z3, which finds the violation."""
    from grundy.spec import Var

    class Peeks(HeapRule):
        name = "peeks-test"
        summary = "a test game"

        def options(self, g, n):
            yield option("take 1", guard=(n >= 1) & (Var.int("heap[0]") >= 2), parts=[n - 1])

    lasker = read_position({"game": "lasker-nim", "heaps": [3, 4]})
    assert "by construction" in premises.prove_symmetry(lasker.rules, cache=False).how
    p = premises.prove_symmetry(Peeks().rules(rule_heaps(2)), cache=False)
    assert p.status == "violated" and "by construction" not in p.how


def _counting_commutes(monkeypatch):
    """The symmetry proofs' memo emptied, and the generators proved by Z3 from now on."""
    from grundy.solvers.premises import symmetry
    monkeypatch.setattr(symmetry, "_PROVED", {})
    _no_identity(monkeypatch)
    proved: list = []
    real = symmetry._commutes
    monkeypatch.setattr(symmetry, "_commutes", lambda *a: proved.append(a[-1]) or real(*a))
    return proved


def test_a_generator_proved_on_the_same_moves_is_not_proved_again(monkeypatch):
    """vertexnim's moves read the adjacency from the state: the path with loops at its ends has
    the same rules as the path, so its generator (the reversal) is not proved again (the memo is
    keyed by the moves' content); vertex-nimg's moves read the graph: another graph's are proved."""
    proved = _counting_commutes(monkeypatch)
    edges = [(0, 1), (1, 2), (2, 3)]
    first = premises.prove_symmetry(rules("vertexnim", Structure.graph(range(4), edges)), cache=False)
    assert first.status == "proved" and proved
    n = len(proved)
    looped = Structure.graph(range(4), edges, loops=[0, 3])
    again = premises.prove_symmetry(rules("vertexnim", looped), cache=False)
    assert again.status == "proved" and again.how == first.how and len(proved) == n
    star = Structure.graph(range(4), [(0, 1), (0, 2), (0, 3)])
    assert premises.prove_symmetry(rules("vertex-nimg", star), cache=False).status == "proved"
    assert len(proved) > n
    m = len(proved)
    path = Structure.graph(range(4), edges)
    assert premises.prove_symmetry(rules("vertex-nimg", path), cache=False).status == "proved"
    assert len(proved) > m


def test_a_remembered_proof_is_charged_to_the_budget(monkeypatch):
    """A generator proved before is reused only if its recorded cost fits the budget left: with a
    budget too small, the answer is the one without the memo (unknown), not 'proved'."""
    proved = _counting_commutes(monkeypatch)
    r = rules("nim", Structure.heaps(3))
    assert premises.prove_symmetry(r, cache=False).status == "proved" and len(proved) == 2
    assert premises.prove_symmetry(rules("nim", Structure.heaps(3)), cache=False).status == "proved"
    assert len(proved) == 2
    tiny = premises.prove_symmetry(rules("nim", Structure.heaps(3)), cache=False, budget=1)
    assert tiny.status == "unknown" and len(proved) == 3


def test_the_content_without_the_structure_follows_the_moves():
    from grundy.spec.fingerprint import rules_digest
    p4 = Structure.graph(range(4), [(0, 1), (1, 2), (2, 3)])
    k4 = Structure.graph(range(4), [(a, b) for a in range(4) for b in range(a + 1, 4)])
    k3 = Structure.graph(range(3), [(0, 1), (1, 2), (0, 2)])
    same = [rules_digest(rules("vertexnim", g), structure=False) for g in (p4, k4)]
    assert same[0] == same[1] and rules_digest(rules("vertexnim", p4)) != rules_digest(rules("vertexnim", k4))
    assert rules_digest(rules("vertexnim", k3), structure=False) != same[0]
    other = [rules_digest(rules("vertex-nimg", g), structure=False) for g in (p4, k4)]
    assert other[0] != other[1]
