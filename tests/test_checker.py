"""The stand-alone checker (checker/grundy_check.py) against grundy: its own interpreter of the
exported rules must give grundy's values and outcomes, in normal and misère play, on every game
of the package and on random rules; its own operators grundy's catalogue; and bundles written
by grundy must be agreed with."""
from __future__ import annotations

import ast
import importlib.util
import itertools
import json
import pathlib
import random
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grundy.errors import GrundyError
from grundy.solvers.solver import Solver
from grundy.spec import HeapGame, Structure, bit_and, bit_or, ite, maximum, minimum, move, nim_product, popcount
from grundy.spec.export import NodeTable, export_heap_rule, export_rules
from grundy.spec.expr import evaluate, lift, product
from grundy.spec.games import GAMES, get_game
from grundy.spec.position import Position, read_position
from grundy.verify import Claim, check_claim
from grundy.verify.certificates import run_checker, write_explicit
from grundy.verify.families import heaps, paths, positions, sums
from grundy.verify.loading import load

ROOT = pathlib.Path(__file__).resolve().parents[1]
CHECKER = ROOT / "checker" / "grundy_check.py"
_spec = importlib.util.spec_from_file_location("grundy_check", CHECKER)
CK = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(CK)
SOLVER = Solver(native=False)


def arena(game, g):
    """The checker's arena for ``game`` on ``g``, from the exported rules only (via JSON)."""
    t = NodeTable()
    rules = export_rules(game.rules(g), t)
    hr = export_heap_rule(game, g, t)
    data = json.loads(json.dumps({"nodes": t.nodes, "rules": rules, "heap_rule": hr}))
    code = CK.Code(data["nodes"])
    return CK.HeapRule(data["heap_rule"], code) if hr else CK.Moves(data["rules"], code)


def small_states(rules, k, seed, top=2):
    """Up to ``k`` states of the rules' structure (numbers up to ``top``), drawn with ``seed``."""
    g, sch = rules.structure, rules.schema
    ranges = [{"int": range(f.lower, top + 1), "bool": range(2), "vertex": range(g.n),
               "edge": range(-1, len(g.edges))}[f.kind] for f in (sch.fields[n] for n, _ in sch.slots)]
    box = list(itertools.product(*ranges)) if len(ranges) <= 12 else None
    rng = random.Random(seed)
    if box is None:
        return [tuple(rng.choice(r) for r in ranges) for _ in range(k)]
    return sorted(rng.sample(box, min(k, len(box))))


def compare(game, g, states, misere):
    """grundy's values and outcomes against the checker's at ``states``; how many compared."""
    conv = "misere" if misere else "normal"
    mine = CK.Game(arena(game, g), misere)
    n = 0
    for s in states:
        g2, s2 = game.sized(g, s)
        try:
            want = SOLVER.grundy(Position(game, g2, s2, conv)), SOLVER.outcome(Position(game, g2, s2, conv))
        except GrundyError:                    # a state the rules do not play (grundy says why)
            with pytest.raises(CK.Disagree):
                mine.value(s), mine.outcome(s)
            continue
        assert (mine.value(s), mine.outcome(s)) == want, (game.name, g, s, conv)
        n += 1
    return n


def structures(name):
    game = get_game(name)
    out = []
    for g in game.check_structures()[:3]:
        try:
            game.rules(g).moves, export_heap_rule(game, g, NodeTable())
        except GrundyError:            # a take-and-break game needs its parameters (its positions below)
            continue
        out.append((g, None))
    for obj in game.check_positions()[:2]:
        p = read_position({"game": name, **obj})
        out.append((p.structure, tuple(p.state)))
    return out


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_of_the_package(name):
    game = get_game(name)
    compared = 0
    for i, (g, state) in enumerate(structures(name)):
        states = [state] if state is not None else small_states(game.rules(g), 12, f"{name}{i}")
        for misere in (False, True):
            compared += compare(game, g, states, misere)
    assert compared >= 4


# ------------------------------------------------------------------ operators
INT_OPS = ["add", "sub", "mul", "div", "mod", "xor", "bit_and", "bit_or", "popcount", "nim_product",
           "min", "max", "nmul"]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(INT_OPS), st.integers(-40, 300), st.integers(-40, 300), st.integers(1, 9))
def test_each_operator_means_what_grundy_means(op, a, b, k):
    """Each operator on constants folded by grundy's catalogue, and evaluated by the checker on
    variables: the same value."""
    x, y = lift(0) + _var("x"), _var("y")
    env = {"x": a, "y": b}
    if op == "nim_product":
        env = {"x": abs(a), "y": abs(b)}
    e = {"add": x + y, "sub": x - y, "mul": x * k, "div": x // k, "mod": x % k, "xor": x ^ y,
         "bit_and": bit_and(x, y), "bit_or": bit_or(x, y), "popcount": popcount(x),
         "nim_product": nim_product(x, y), "min": minimum(x, y, k), "max": maximum(x, y, k),
         "nmul": product(x, y)}[op]
    t = NodeTable()
    root = t.add(e)
    code = CK.Code(json.loads(json.dumps(t.nodes)))
    names = sorted(code.free[root])
    assert code.fn(root, names, "test")(*(env[n] for n in names)) == evaluate(e, env)


def _var(name):
    from grundy.spec import Var
    return Var.int(name)


def test_nim_products_below_256():
    from grundy.spec.nimber import nim_multiply
    assert all(CK.nim_mul(a, b) == nim_multiply(a, b) for a in range(256) for b in range(0, 256, 7))
    assert CK.nim_mul(1 << 40, (1 << 33) + 5) == nim_multiply(1 << 40, (1 << 33) + 5)


# ------------------------------------------------------------------ random rules
def _exprs():
    """Recipes of random expressions: (kind, ...) trees over x0, x1 (the heaps) and k."""
    leaf = st.one_of(st.tuples(st.just("v"), st.integers(0, 2)), st.tuples(st.just("c"), st.integers(-3, 5)))
    ints = st.deferred(lambda: st.one_of(
        leaf, leaf,
        st.tuples(st.sampled_from(["add", "sub", "xor", "band", "bor", "min", "max", "nmul", "nimp"]), ints, ints),
        st.tuples(st.sampled_from(["mulc", "div", "mod"]), ints, st.integers(1, 4)),
        st.tuples(st.just("pop"), ints), st.tuples(st.just("ite"), bools, ints, ints)))
    bools = st.deferred(lambda: st.one_of(
        st.tuples(st.sampled_from(["lt", "le", "eq"]), ints, ints), st.tuples(st.just("not"), bools),
        st.tuples(st.sampled_from(["and", "or"]), bools, bools), st.tuples(st.just("b"), st.booleans())))
    return ints, bools


def build(r, env):
    """The expression of recipe ``r`` over ``env`` (the variables)."""
    op = r[0]
    if op == "v":
        return env[r[1]]
    if op in ("c", "b"):
        return lift(r[1])
    a = [build(x, env) if isinstance(x, tuple) else x for x in r[1:]]
    nat = lambda e: maximum(e, 0)  # noqa: E731  (nim products of non-negative numbers)
    return {"add": lambda: a[0] + a[1], "sub": lambda: a[0] - a[1], "xor": lambda: a[0] ^ a[1],
            "band": lambda: bit_and(a[0], a[1]), "bor": lambda: bit_or(a[0], a[1]),
            "min": lambda: minimum(a[0], a[1]), "max": lambda: maximum(a[0], a[1]),
            "nmul": lambda: product(a[0], a[1]), "nimp": lambda: nim_product(nat(a[0]), nat(a[1])),
            "mulc": lambda: a[0] * a[1], "div": lambda: a[0] // a[1], "mod": lambda: a[0] % a[1],
            "pop": lambda: popcount(a[0]), "ite": lambda: ite(a[0], a[1], a[2]),
            "lt": lambda: a[0] < a[1], "le": lambda: a[0] <= a[1], "eq": lambda: a[0] == a[1],
            "not": lambda: ~a[0], "and": lambda: a[0] & a[1], "or": lambda: a[0] | a[1]}[op]()


_COUNT = itertools.count()
INTS, BOOLS = _exprs()


def random_game(hi, guard, other):
    """Two heaps; from heap i take k (1 <= k <= min(heap i, hi)) where ``guard`` holds, and set
    the other heap to max(0, min(itself, other)): every move lowers the total."""
    class R(HeapGame):
        name = f"random-checker-{next(_COUNT)}"
        heap_count = 2
        symmetric = False

        def moves(self, g, s):
            for i in (0, 1):
                h, o = s.heap[i], s.heap[1 - i]
                yield move(f"take {{k}} from heap {i + 1}",
                           choose=[("k", 1, lambda h=h: minimum(h, maximum(build(hi, [s.heap[0], s.heap[1], 0]), 0)))],
                           guard=lambda k: build(guard, [s.heap[0], s.heap[1], k]),
                           update=lambda k, i=i, h=h, o=o: s.set(heap={
                               i: h - k, 1 - i: maximum(0, minimum(o, build(other, [s.heap[0], s.heap[1], k])))}))
    return R()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(INTS, BOOLS, INTS)
def test_random_rules(hi, guard, other):
    game = random_game(hi, guard, other)
    g = Structure.heaps(2)
    states = list(itertools.product(range(4), repeat=2))
    for misere in (False, True):
        assert compare(game, g, states, misere) == len(states)


# ------------------------------------------------------------------ bundles and the file itself
def test_the_checker_is_one_standard_library_file():
    text = CHECKER.read_text()
    assert len(text.splitlines()) < 500
    mods = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            mods.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            mods.add((node.module or "").split(".")[0])
    assert mods and mods <= set(sys.stdlib_module_names), mods - set(sys.stdlib_module_names)
    assert "grundy" not in mods


def _bundle(tmp_path, claim):
    v = check_claim(claim)
    d = tmp_path / claim.id.replace("/", "_")
    assert write_explicit(d, claim, v) == ["explicit.json"]
    return v, d


CLAIMS = [
    Claim("t/bouton", game="nim", kind="char", family=heaps(3), bounds={"heap": 3},
          statement=lambda g, s: (s.heap[0] ^ s.heap[1] ^ s.heap[2]) == 0),
    Claim("t/misere-nim", game="nim", kind="grundy", family=heaps(2), bounds={"heap": 3}, convention="misere",
          statement=lambda g, s: ite((s.heap[0] <= 1) & (s.heap[1] <= 1), 1 - (s.heap[0] ^ s.heap[1]),
                                     s.heap[0] ^ s.heap[1])),
    Claim("t/edge-nim-wrong", game="edge-nim", kind="char", family=paths(3), bounds={"weight": 2},
          statement=lambda g, s: s.weight[0] == s.weight[1], expect="refuted"),
    Claim("t/lasker", game="lasker-nim", kind="grundy", family=heaps(2), bounds={"heap": 5},
          statement=lambda g, s: s.heap[0] ^ s.heap[1], expect="refuted"),
    Claim("t/lasker-table", game="lasker-nim", table=[0, 1, 2, 4, 3, 5, 6, 8]),
    Claim("t/kayles", game="octal", params={"code": "0.77"}, kind="period", period=(71, 12), expect="proved"),
    Claim("t/kayles-70", game="octal", params={"code": "0.77"}, kind="period", period=(70, 12), expect="refuted"),
    Claim("t/bouton-2-proved", game="nim", kind="char", family=heaps(2), bounds={"heap": 4},
          statement=lambda g, s: s.heap[0] == s.heap[1], methods=["explicit", "smt"], expect="proved"),
    *(c for c in load([str(ROOT / "theorems" / "classics.py")]) if c.id == "planted/misere-nim-3-far"),
    # an open family (every n): its first members' sweep, the statement reading their counts
    *(c for c in load([str(ROOT / "theorems" / "grim.py")]) if c.id == "grim/lemma9-every-n"),
]


@pytest.mark.parametrize("claim", CLAIMS, ids=lambda c: c.id)
def test_bundles_written_by_grundy_are_agreed_with(tmp_path, claim):
    v, d = _bundle(tmp_path, claim)
    assert v.verdict == claim.expect
    r = run_checker(d)
    assert r["status"] == "agreed", r


def test_a_far_refutation_is_a_certificate_checked_at_one_position(tmp_path):
    claim = next(c for c in CLAIMS if c.id == "planted/misere-nim-3-far")
    _, d = _bundle(tmp_path, claim)
    data = json.loads((d / "explicit.json").read_text())
    assert data["certificate"]["obligation"] == "PN" and data["certificate"]["state"][0] > 10 ** 6
    detail = run_checker(d)["detail"]
    assert "certificate PN" in detail and "contradicts itself" in detail


def test_what_has_no_explicit_certificate_is_said(tmp_path):
    c = Claim("t/sums", game="sum", kind="outcome", family=sums([{"game": "nim", "heaps": [1]}],
              [{"game": "nim", "heaps": [1]}]), statement=lambda g, s: True)
    v, d = _bundle(tmp_path, c)
    assert v.verdict == "verified"
    r = run_checker(d)
    assert r["status"] == "skipped" and "sums" in r["detail"], r
    u = Claim("t/unknown", game="nim", kind="char", family=heaps(2), bounds={"heap": 2},
              statement=lambda g, s: True)
    from grundy.verify.verdict import Verdict
    assert write_explicit(tmp_path / "u", u, Verdict("t/unknown", "char", "unknown")) == []
    assert run_checker(tmp_path / "u")["status"] == "skipped"


def test_a_large_sweep_is_sampled_and_the_checker_says_so(tmp_path, tune):
    tune(sample_above=50)
    tune(sample_size=20)
    _, d = _bundle(tmp_path, CLAIMS[0])
    data = json.loads((d / "explicit.json").read_text())
    assert data["instances"][0]["sample"]["of"] == 64
    r = run_checker(d)
    assert r["status"] == "agreed" and "sample of 20 of 64 positions" in r["detail"], r


def test_no_source_tree_is_a_skip(tmp_path, monkeypatch):
    from grundy.verify.certificates import explicit
    _, d = _bundle(tmp_path, CLAIMS[0])
    monkeypatch.setattr(explicit, "checker_path", lambda: None)
    r = run_checker(d)
    assert r["status"] == "skipped" and "source tree" in r["detail"]


def test_the_checkers_limit_is_cpu_time(tmp_path, monkeypatch):
    """A checker that never ends is stopped by its CPU-time limit and said to be a skip, with the limit."""
    from grundy.verify.certificates import explicit
    _, d = _bundle(tmp_path, CLAIMS[0])
    spin = tmp_path / "spin.py"
    spin.write_text("while True:\n    pass\n")
    monkeypatch.setattr(explicit, "checker_path", lambda: spin)
    r = run_checker(d, timeout=1)
    assert r["status"] == "skipped" and "1 CPU s" in r["detail"], r


def test_a_guard_testing_a_choice_against_a_constant():
    """Found by test_random_rules: two moves whose guards say ``k == 1`` made the compilers
    dispatch on the choice ``k`` as if it were a state slot (a KeyError in Python and C)."""
    game = random_game(("v", 0), ("eq", ("v", 2), ("c", 1)), ("v", 1))
    g = Structure.heaps(2)
    states = list(itertools.product(range(4), repeat=2))
    assert compare(game, g, states, False) == len(states)
    from grundy.solvers.native.build import available
    if available():
        native = Solver(native="always")
        assert [native.grundy(Position(game, g, s)) for s in states] == \
               [SOLVER.grundy(Position(game, g, s)) for s in states]


def test_a_verdict_of_the_full_profile_gets_its_own_bounds(tmp_path):
    c = Claim("t/bouton-full", game="nim", kind="char", family=heaps(2), bounds={"heap": 2}, full={"heap": 4},
              statement=lambda g, s: s.heap[0] == s.heap[1])
    v = check_claim(c, profile="full")
    assert v.swept == 25 and write_explicit(tmp_path, c, v) == ["explicit.json"]   # profile not said
    assert json.loads((tmp_path / "explicit.json").read_text())["instances"][0]["count"] == 25
    assert run_checker(tmp_path)["status"] == "agreed"


@pytest.mark.parametrize("claim", [CLAIMS[2], Claim(
    "t/listed-wrong", game="nim", kind="char", family=positions([{"game": "nim", "heaps": [h, 1]} for h in range(4)]),
    statement=lambda g, s: s.heap[0] == 0, expect="refuted")], ids=lambda c: c.id)
def test_a_verdict_read_back_from_json_finds_its_counterexample(tmp_path, claim):
    """A cached verdict has no in-memory origin: the counterexample is found again from its
    structure's label and its fields."""
    from grundy.verify.verdict import Verdict
    v = Verdict.from_json(json.loads(json.dumps(check_claim(claim).to_json())))
    assert v.verdict == "refuted" and v.counterexample.origin is None
    assert write_explicit(tmp_path, claim, v) == ["explicit.json"]
    assert run_checker(tmp_path)["status"] == "agreed"


def test_a_bad_bundle_exits_2_and_is_never_agreed_with(tmp_path):
    import subprocess
    _, d = _bundle(tmp_path, CLAIMS[0])
    data = json.loads((d / "explicit.json").read_text())
    row = next(r for r in data["instances"][0]["nodes"] if r[0] == "xor")
    row[0] = "xnor"                                           # an operator the language does not have
    (d / "explicit.json").write_text(json.dumps(data))
    r = subprocess.run([sys.executable, str(CHECKER), str(d)], capture_output=True, text=True)
    assert r.returncode == 2 and "unknown operator 'xnor'" in r.stdout
    got = run_checker(d)
    assert got["status"] == "disagreed" and "bad bundle" in got["detail"]


def test_positions_grundy_cannot_solve_again_leave_a_reason(tmp_path):
    from grundy.errors import SolverLimit
    from grundy.verify.certificates.explicit import bundle_of

    class Tired(Solver):
        def outcome(self, pos):
            raise SolverLimit("no more positions today")
    c = CLAIMS[0]
    b = bundle_of(c, check_claim(c), solver=Tired(native=False))
    assert b["supported"] is False and "no more positions today" in b["reason"]
