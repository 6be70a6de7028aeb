"""The Z3 backend: translation of every operator (Int and bit-vector modes) against the IR's
reference evaluator, and the proof obligations on claims from the literature.

Expected verdicts come from the papers (Bouton's nim, Erickson's Prop. 3.1, the selfref
thesis) and from naive brute force written here on plain tuples.
"""
import itertools

import pytest
import z3
from hypothesis import given, settings
from hypothesis import strategies as st

from grundy.solvers.smt import check_grundy_formula, check_partition, check_rank, check_strategy, encoding
from grundy.solvers.smt.encode import intervals, normalize, substitute
from grundy.spec import (
    Field,
    Game,
    Play,
    Structure,
    Var,
    all_of,
    any_of,
    evaluate,
    ite,
    lift,
    maximum,
    minimum,
    move,
    move_index,
    not_,
    total,
)
from grundy.spec.games import get_game

X, Y, B = Var.int("x"), Var.int("y"), Var.bool("b")


@pytest.fixture(autouse=True)
def slow_only_when_asked(request):
    """Tests marked slow (long demonstrations) run only with ``-m slow``."""
    if request.node.get_closest_marker("slow") and "slow" not in (request.config.getoption("markexpr") or ""):
        pytest.skip("a long demonstration: run with -m slow")


RANGE = (-30, 30)
IV = {"x": RANGE, "y": RANGE}
NIM2 = get_game("nim").rules(Structure.heaps(2))


# --------------------------------------------------------------------------- translation
def z3_value(e, env, width):
    """Translate ``e`` (over x, y, b) with the nim-2 encoding and evaluate it in Z3."""
    enc = encoding(NIM2, width)
    w = enc.width_for([e], IV)
    tr = enc.translator(w)
    z = tr(lift(e))
    num = (lambda v: z3.IntVal(v)) if w is None else (lambda v: z3.BitVecVal(v, w))
    subs = [(tr.var("x", "int"), num(env["x"])), (tr.var("y", "int"), num(env["y"])),
            (tr.var("b", "bool"), z3.BoolVal(env["b"]))]
    out = z3.simplify(z3.substitute(z, *subs))
    if z3.is_bool(out):
        return z3.is_true(out)
    return out.as_long() if w is None else out.as_signed_long()


OPERATORS = {
    "add": X + Y, "sub": X - Y, "neg": -X, "mul": X * -3, "div": X // 4, "div1": (X - Y) // 7,
    "mod": X % 5, "mod-neg": (X - 40) % 8, "lt": X < Y, "le": X <= Y, "eq": X == Y, "ne": X != Y,
    "not": ~(X < Y), "and": (X < Y) & B, "or": (X < 0) | B, "ite": ite(B, X, Y * 2),
    "ite-bool": ite(X < Y, B, ~B), "min": minimum(X, Y, 3), "max": maximum(X, -Y, 0),
    "bool-eq": (X < Y) == B, "const-big": X + 1000 < 1000 * 7,
    "div-pow2-neg": (X - 40) // 16, "div-by-1": X // 1, "mod-by-1": X % 1, "mod-pow2": (X - Y) % 32,
}


@pytest.mark.parametrize("width", [7, 9])
def test_powers_of_two_divide_exactly_every_value(width):
    """Bit-vector mode turns ``% 2**k`` into a mask and ``// 2**k`` into a shift: exact for
    every value of the width, negative ones included (checked one by one, not sampled)."""
    lo, hi = -(1 << (width - 2)), (1 << (width - 2)) - 1
    for k in range(width - 2):
        for e in (X % (1 << k), X // (1 << k), (X - Y) % (1 << k) + (X + Y) // (1 << k)):
            for x in range(lo, hi + 1, 3):
                env = {"x": x, "y": (x * 7) % 11 - 5, "b": False}
                assert _z3_value_at(e, env, width) == evaluate(e, env), (e, x, k)


def _z3_value_at(e, env, width):
    """``e`` translated at exactly ``width`` bits and evaluated in Z3."""
    tr = encoding(NIM2, width).translator(width)
    z = tr(lift(e))
    subs = [(tr.var(n, "int"), z3.BitVecVal(env[n], width)) for n in ("x", "y")]
    return z3.simplify(z3.substitute(z, *subs)).as_signed_long()


@pytest.mark.parametrize("width", [None, 6, 16], ids=["int", "bv6", "bv16"])
@pytest.mark.parametrize("op", sorted(OPERATORS))
@given(x=st.integers(*RANGE), y=st.integers(*RANGE), b=st.booleans())
@settings(max_examples=10, deadline=None)
def test_each_operator_translates_exactly(op, width, x, y, b):
    e, env = OPERATORS[op], {"x": x, "y": y, "b": b}
    assert z3_value(e, env, width) == evaluate(e, env)


def _compare(t):
    a, b, op = t
    return a < b if op == "lt" else a <= b if op == "le" else a == b


def _conditions(ints):
    return st.one_of(st.tuples(ints, ints, st.sampled_from(["lt", "le", "eq"])).map(_compare), st.just(B))


def _grow(sub):
    return st.one_of(
        st.tuples(sub, sub).map(lambda t: t[0] + t[1]),
        st.tuples(sub, sub).map(lambda t: t[0] - t[1]),
        st.tuples(sub, st.integers(-4, 4)).map(lambda t: t[0] * t[1]),
        st.tuples(sub, st.integers(1, 9)).map(lambda t: t[0] // t[1]),
        st.tuples(sub, st.integers(1, 9)).map(lambda t: t[0] % t[1]),
        st.tuples(_conditions(sub), sub, sub).map(lambda t: ite(*t)),
        st.lists(sub, min_size=1, max_size=3).map(minimum),
        st.lists(sub, min_size=1, max_size=3).map(maximum))


INTS = st.recursive(st.one_of(st.sampled_from([X, Y]), st.integers(-9, 9).map(lift)), _grow, max_leaves=10)
BOOLS = st.recursive(_conditions(INTS), lambda sub: st.one_of(
    sub.map(not_), st.lists(sub, min_size=2, max_size=3).map(all_of),
    st.lists(sub, min_size=2, max_size=3).map(any_of)), max_leaves=4)


@given(e=st.one_of(INTS, BOOLS), x=st.integers(*RANGE), y=st.integers(*RANGE),
       b=st.booleans(), width=st.sampled_from([None, 4, 12]))
@settings(max_examples=60, deadline=None)
def test_random_expressions_translate_exactly(e, x, y, b, width):
    env = {"x": x, "y": y, "b": b}
    assert z3_value(e, env, width) == evaluate(e, env)


@given(e=BOOLS, x=st.integers(*RANGE), y=st.integers(*RANGE), b=st.booleans())
@settings(max_examples=60, deadline=None)
def test_normalisation_and_substitution_keep_values(e, x, y, b):
    env = {"x": x, "y": y, "b": b}
    assert evaluate(normalize(e), env) == evaluate(e, env)
    assert evaluate(substitute(e, {"x": Y + 1, "b": X < 0}), env) == evaluate(
        e, {"x": y + 1, "y": y, "b": x < 0})


@given(e=INTS, x=st.integers(*RANGE), y=st.integers(*RANGE), b=st.booleans())
@settings(max_examples=60, deadline=None)
def test_intervals_contain_every_value(e, x, y, b):
    env = {"x": x, "y": y, "b": b}
    for node, (lo, hi) in intervals([e], IV).values():
        if node.sort == "int":
            assert lo <= evaluate(node, env) <= hi


def test_bit_vector_width_grows_to_hold_intermediates():
    enc = encoding(get_game("nim").rules(Structure.heaps(3)), 4)   # heaps <= 3, 4-bit fields
    s = enc.rules.state
    big = total(s.heap[i] * 100 for i in range(3))                 # up to 900: 11 bits signed
    assert enc.width_for([big]) == 11
    # a claim true only because nothing wraps: 100 * (h0 + h1 + h2) never exceeds 900
    res = check_partition(enc.rules, (big <= 900) & (s.heap[0] == 7), width=4)
    assert [r.status for r in res][:1] == ["holds"]


def test_bit_vector_choices_cannot_wrap_around():
    # `w + 1 <= weight` with w a free 4-bit choice would wrap at w = 7 without the
    # choice's interval constraint; every move of edge-nim lowers the total weight
    r = get_game("edge-nim").rules(Structure.graph(range(3), [(0, 1), (1, 2)]))
    for width in (3, 4, 8):
        assert [x.status for x in check_rank(r, width=width)] == ["holds"] * 3


# --------------------------------------------------------------------------- naive games
def nim_moves(h):
    return [h[:i] + (h[i] - k,) + h[i + 1:] for i in range(len(h)) for k in range(1, h[i] + 1)]


def smallest(h):
    return min([x for x in h if x > 0], default=0)


def nimb_moves(h):
    return [t for t in nim_moves(h) if smallest(t) != smallest(h)]


# --------------------------------------------------------------------------- obligations
@pytest.mark.parametrize("width", [None, 16])
def test_nim_two_heaps_equal_heaps_are_exactly_the_P_positions(width):
    # Bouton: two heaps are P iff the nim-sum is 0 iff they are equal (selfref/thm1.4)
    s = NIM2.state
    res = check_rank(NIM2, width=width) + check_partition(NIM2, s.heap[0] == s.heap[1], width=width)
    assert [(r.obligation, r.status) for r in res] == [
        ("rank", "holds"), ("rank", "holds"), ("domain", "holds"),
        ("closed", "holds"), ("T", "holds"), ("PN", "holds"), ("NP", "holds")]
    assert "all sizes" in res[-1].scope if width is None else "16-bit" in res[-1].scope


def test_wrong_claims_give_violations_that_really_break_the_obligation():
    s = NIM2.state
    p = s.heap[0] <= s.heap[1]
    pn = {r.obligation: r for r in check_partition(NIM2, p)}["PN"]
    assert pn.status == "violated"
    h, c = pn.state, pn.choices
    nxt = tuple(x - c["k"] if i == c["move"] else x for i, x in enumerate(h))
    assert h[0] <= h[1] and nxt[0] <= nxt[1] and nxt in nim_moves(h)
    # only (0, 0) claimed P: NP fails at a state all of whose moves avoid (0, 0)
    np_ = {r.obligation: r for r in check_partition(NIM2, (s.heap[0] == 0) & (s.heap[1] == 0))}["NP"]
    assert np_.status == "violated"
    assert np_.state != (0, 0) and nim_moves(np_.state) and (0, 0) not in nim_moves(np_.state)


def test_np_is_asked_with_the_choices_at_their_bounds_first_and_with_a_quantifier_where_they_fail():
    # one heap, P iff empty: taking the whole heap (k = hi) wins, so the bounds settle (NP)
    one = get_game("nim").rules(Structure.heaps(1))
    np1 = {r.obligation: r for r in check_partition(one, one.state.heap[0] == 0)}["NP"]
    assert np1.status == "holds" and "at their bounds" in np1.detail
    # two heaps, P iff equal: the winning k (the difference) is at no bound: the quantifier decides
    s = NIM2.state
    np2 = {r.obligation: r for r in check_partition(NIM2, s.heap[0] == s.heap[1])}["NP"]
    assert np2.status == "holds" and "quantifier" in np2.detail and "at their bounds" not in np2.detail
    # a false (NP) is never settled by the bounds: the quantified query finds a real violation
    bad = {r.obligation: r for r in check_partition(one, one.state.heap[0] == 5)}["NP"]
    assert bad.status == "violated" and "quantifier" in bad.detail
    assert 0 < bad.state[0] < 5                 # no move from it reaches 5


def test_terminal_means_no_choice_value_is_legal():
    # nimb: the guard depends on the amount taken; (1, 1) has no legal move at all
    r = get_game("nimb").rules(Structure.heaps(2))
    t = {x.obligation: x for x in check_partition(r, lift(False))}["T"]
    assert t.status == "violated" and nimb_moves(t.state) == []
    assert {x.obligation: x for x in check_partition(r, lift(True))}["T"].status == "holds"


def test_nimb_two_heaps_grundy_and_outcome():
    # selfref/thm3.1: nimb with n >= 2 heaps, smallest a1 >= 1, has Grundy value a1 - 1;
    # one heap left: every nim move changes the smallest heap, so its value is the heap
    r = get_game("nimb").rules(Structure.heaps(2))
    s = r.state
    both = (s.heap[0] > 0) & (s.heap[1] > 0)
    g = ite(both, minimum(s.heap[0], s.heap[1]) - 1, s.heap[0] + s.heap[1])
    assert all(x.status == "holds" for x in check_grundy_formula(r, g))
    p = (both & (minimum(s.heap[0], s.heap[1]) == 1)) | ((s.heap[0] == 0) & (s.heap[1] == 0))
    assert all(x.status == "holds" for x in check_partition(r, p))
    # the naive game agrees on small heaps (a sanity check of the rule text itself)
    memo = {}

    def grundy(h):
        if h not in memo:
            opts = {grundy(t) for t in nimb_moves(h)}
            memo[h] = next(v for v in itertools.count() if v not in opts)
        return memo[h]
    env = lambda h: {"heap[0]": h[0], "heap[1]": h[1]}  # noqa: E731
    assert all(grundy(h) == evaluate(g, env(h)) for h in itertools.product(range(7), repeat=2))


def test_misere_convention_flips_terminal_states():
    # misère nim on one heap: P iff the heap is 1
    r = get_game("nim").rules(Structure.heaps(1))
    p = r.state.heap[0] == 1
    assert all(x.status == "holds" for x in check_partition(r, p, convention="misere"))
    t = {x.obligation: x for x in check_partition(r, p)}["T"]
    assert t.status == "violated" and t.state == (0,)


def test_grundy_formula_one_heap():
    r = get_game("nim").rules(Structure.heaps(1))
    h = r.state.heap[0]
    assert all(x.status == "holds" for x in check_grundy_formula(r, h))
    wit = lambda g, s, rules, v: [Play(True, 0, {"k": s.heap[0] - v})]  # noqa: E731
    assert all(x.status == "holds" for x in check_grundy_formula(r, h, witnesses=wit, width=12))
    bad = {x.obligation: x for x in check_grundy_formula(r, h + 1)}
    assert bad["mex-below"].status == "violated" and bad["mex-below"].state == (0,)
    assert bad["mex-below"].choices == {"value": 0}
    # minnie on one heap has Grundy value a (selfref/lemma5.1)
    m = get_game("minnie").rules(Structure.heaps(1))
    assert all(x.status == "holds" for x in check_grundy_formula(m, m.state.heap[0]))


def mirror(g, s, rules):
    return [Play(s.heap[0] > s.heap[1], 0, {"k": s.heap[0] - s.heap[1]}),
            Play(True, 1, {"k": s.heap[1] - s.heap[0]})]


def off_by_one(g, s, rules):
    return [Play(s.heap[0] > s.heap[1], 0, {"k": s.heap[0] - s.heap[1]}),
            Play(s.heap[1] > s.heap[0] + 1, 1, {"k": s.heap[1] - s.heap[0] - 1}),
            Play(True, 1, {"k": 1})]


def test_strategies():
    s = NIM2.state
    p = s.heap[0] == s.heap[1]
    assert [x.status for x in check_strategy(NIM2, p, mirror)] == ["holds", "holds"]
    res = {x.obligation: x for x in check_partition(NIM2, p, strategy=off_by_one)}
    bad = res["strategy-lands-in-P"]
    assert bad.status == "violated" and bad.choices["move"] == 1
    h = bad.state
    assert h[1] > h[0] + 1 and h[0] != h[1] - bad.choices["k"]      # really misses P
    assert res["NP"].status == "holds"                               # without the strategy
    illegal = [Play(True, 0, {"k": s.heap[0] + 1})]
    leg = check_strategy(NIM2, p, illegal)[0]
    assert leg.status == "violated" and leg.choices == {"move": 0, "k": leg.state[0] + 1}


class Toy(Game):
    """A test-only game with a rank-raising move and a move that leaves the domain."""

    name, structure = "toy", "heaps"

    def fields(self, g):
        return [Field("heap", over="heaps")]

    def moves(self, g, s):
        yield move("up", guard=s.heap[0] < 3, update=s.set(heap={0: s.heap[0] + 1}))
        yield move("down {k}", choose=[("k", 1, 2)], guard=s.heap[0] >= 1,
                   update=lambda k: s.set(heap={0: s.heap[0] - k}))

    def rank(self, g, s):
        return s.heap[0]


def test_rank_and_domain_violations():
    r = Toy().rules(Structure.heaps(1))
    res = check_rank(r)
    assert [x.status for x in res] == ["holds", "violated", "violated"]
    assert res[1].choices == {"move": 0} and res[1].state[0] < 3
    assert res[2].choices == {"move": 1, "k": 2} and res[2].state == (1,)
    closed = check_partition(r, lift(True), r.state.heap[0] <= 2)[0]
    assert closed.status == "violated" and closed.state == (2,) and closed.choices == {"move": 0}


def test_timeouts_are_unknown_never_holds():
    r = get_game("wynnie").rules(Structure.heaps(2))
    s = r.state
    lo, hi = minimum(s.heap[0], s.heap[1]), maximum(s.heap[0], s.heap[1])
    p = ((lo == 0) & (hi == 0)) | ((hi > lo) & any_of(
        (lo == 2 ** n - 1) & (hi % 2 ** n == 2 ** (n - 1) - 1) for n in range(1, 17)))
    np_ = check_partition(r, p, width=16, timeout=0.5)[-1]
    assert np_.obligation == "NP" and np_.status == "unknown" and "timeout" in np_.detail


def test_a_query_answered_unsat_is_not_asked_again_and_nothing_else_is_reused(monkeypatch):
    from grundy.solvers.smt import runner as smt_runner

    memo = smt_runner._Unsat()
    monkeypatch.setattr(smt_runner, "HOLDS", memo)
    run = smt_runner._Runner(encoding(NIM2), None, 10.0, minimize=False)
    asked = []
    plain = run._check
    monkeypatch.setattr(run, "_check", lambda s, sec: asked.append(1) or plain(s, sec))

    def ask(*items):
        return run.run(smt_runner._Query("test", list(items)), 10.0)[0]

    sat = 2          # a violation: the tuned tactic, then the untuned one for its model (INT_PARAMS)
    assert ask(X + Y == 3, X == 1, Y == 3) == "holds" and len(asked) == 1
    assert ask(X + Y == 3, X == 1, Y == 3) == "holds" and len(asked) == 1 and memo.hits == 1
    assert ask(X + Y == 3, X == 1, Y == 2) == "violated" and len(asked) == 1 + sat     # one constant apart
    assert ask(X + Y == 3, X == 1, Y == 2) == "violated" and len(asked) == 1 + 2 * sat  # sat: asked again
    assert ask(X + Y == 4, X == 1, Y == 3) == "violated"
    assert ask(X + Y == 3, X == 2, Y == 3) == "holds" and len(asked) == 2 + 3 * sat
    # Z3 giving up (unknown) is never kept: the same query is asked again and decided
    monkeypatch.setattr(run, "_check", lambda s, sec: asked.append(1) or (z3.unknown, "timeout (0 s)"))
    assert ask(X * 3 == 7) == "unknown"
    monkeypatch.setattr(run, "_check", lambda s, sec: asked.append(1) or plain(s, sec))
    assert ask(X * 3 == 7) == "holds" and len(asked) == 4 + 3 * sat
    assert memo.hits == 1


def test_the_cpu_watchdog_stops_a_query_on_the_integer_tactics():
    """A quantifier-free integer query (on the simplify+smt tactics, not the default solver) is
    still interrupted at its CPU-time limit: unknown, never holds, and not retried past it."""
    from grundy.solvers.smt import runner as smt_runner
    run = smt_runner._Runner(encoding(NIM2), None, 10.0, minimize=False)
    n = 24                                               # pigeons in n - 1 holes: no solver's quick case
    xs = [Var.int(f"p{i}") for i in range(n)]
    items = [all_of([(x >= 0) & (x <= n - 2) for x in xs])] + [xs[i] != xs[j] for i in range(n) for j in range(i)]
    assert not any(isinstance(it, list) for it in items)
    status, _, why = run.run(smt_runner._Query("pigeons", items), 0.3)
    assert status == "unknown" and why.startswith("timeout")      # the watchdog fired: no retry after it


# --------------------------------------------------------------------------- Erickson, C_4 and C_6
def cycle(n):
    return Structure.graph(range(n), [(i, (i + 1) % n) for i in range(n)])


def runs(g, s):
    """m = min weight, and: the run of positive G'-edges from t in direction step is odd."""
    n = g.n
    m = minimum([s.weight[e] for e in range(len(g.edges))])
    pos = [s.weight[e] > m for e in range(len(g.edges))]

    def odd(t, step):
        seq = [g.edge_id((t + j * step) % n, (t + (j + 1) * step) % n) for j in range(n)]
        return any_of(all_of(pos[seq[j]] for j in range(length)) & ~pos[seq[length]]
                      for length in range(1, n, 2))
    return m, odd


def erickson_p(g, s):
    """Erickson Prop. 3.1: N iff one of the two runs of positive G'-edges leaving the token is odd."""
    _, odd = runs(g, s)
    return ~any_of((s.token == t) & (odd(t, 1) | odd(t, -1)) for t in range(g.n))


def erickson_strategy(g, s, rules):
    """Move along an odd run of G' and set that edge's weight to m."""
    m, odd = runs(g, s)
    return [Play((s.token == t) & odd(t, d), move_index(rules, f"{t}->{(t + d) % g.n},"), {"w": m})
            for t in range(g.n) for d in (1, -1)]


@pytest.mark.parametrize("strategy", [None, erickson_strategy], ids=["exists", "strategy"])
def test_erickson_even_cycle_c4_all_weights(strategy):
    r = get_game("edge-nim").rules(cycle(4))
    p = erickson_p(r.structure, r.state)
    res = check_rank(r) + check_partition(r, p, strategy=strategy)
    assert all(x.status == "holds" for x in res), [(x.obligation, x.status, x.detail) for x in res]


@pytest.mark.slow
@pytest.mark.parametrize("strategy", [None, erickson_strategy], ids=["exists", "strategy"])
def test_erickson_even_cycle_c6_all_weights(strategy):
    r = get_game("edge-nim").rules(cycle(6))
    p = erickson_p(r.structure, r.state)
    res = check_partition(r, p, strategy=strategy, timeout=120)
    assert all(x.status == "holds" for x in res), [(x.obligation, x.status, x.detail) for x in res]


def test_erickson_claim_fails_on_an_odd_cycle():
    # the same predicate is not the P-set on C_5 (odd cycles are always N: erickson/2.2-odd-cycle)
    r = get_game("edge-nim").rules(cycle(5))
    res = {x.obligation: x for x in check_partition(r, erickson_p(r.structure, r.state))}
    assert "violated" in {x.status for x in res.values()}


# --------------------------------------------------------------------------- wynnie, bit-vectors
def wynnie_p(s, n_max):
    """selfref/thm4.5: for c > r, P iff r = 2^n - 1 and c = 2^n a + 2^(n-1) - 1 (n >= 1, a >= 0);
    with r = c > 0 (take all from both) and r = 0 < c (take the heap) N, and (0, 0) P."""
    r, c = minimum(s.heap[0], s.heap[1]), maximum(s.heap[0], s.heap[1])
    return ((r == 0) & (c == 0)) | ((c > r) & any_of(
        (r == 2 ** n - 1) & (c % 2 ** n == 2 ** (n - 1) - 1) for n in range(1, n_max + 1)))


def test_wynnie_theorem_4_5_for_heaps_below_32():
    r = get_game("wynnie").rules(Structure.heaps(2))
    res = check_partition(r, wynnie_p(r.state, 5), width=5, bound=31, timeout=60)
    assert all(x.status == "holds" for x in res), [(x.obligation, x.status, x.detail) for x in res]


@pytest.mark.slow
def test_wynnie_theorem_4_5_for_heaps_below_2_to_32():
    # closed, T and PN are proved for heaps < 2^32 (each in well under a second); NP (a quantifier
    # over k) is out of reach at 32 bits (Z3 gives up after 10 minutes: 10 s here, enough to see it
    # is not violated), so it is proved here only up to 2^12
    r = get_game("wynnie").rules(Structure.heaps(2))
    res = check_partition(r, wynnie_p(r.state, 32), width=32, bound=2 ** 32 - 1, timeout=10)
    assert [(x.obligation, x.status) for x in res[:3]] == [
        ("closed", "holds"), ("T", "holds"), ("PN", "holds")]
    assert res[3].obligation == "NP" and res[3].status in ("holds", "unknown")
    res = check_partition(r, wynnie_p(r.state, 12), width=12, bound=2 ** 12 - 1, timeout=300)
    assert res[3].status == "holds"


# --------------------------------------------------------------------------- splitting queries
VERTEXNIM_P3 = get_game("vertexnim").rules(Structure.graph(range(3), [(0, 1), (1, 2)]))


def test_a_quantified_query_with_too_many_cases_is_split_over_the_token_alone():
    # 3 token values x 2^6 adjacency bits = 192 cases, over SPLIT_LIMIT: one case per token value,
    # the bits left free (each case fixes the token and nothing else)
    from grundy.solvers.smt.encode import Exists
    from grundy.solvers.smt.runner import SPLIT_LIMIT, _Query, _split
    enc = encoding(VERTEXNIM_P3)
    s = VERTEXNIM_P3.state
    part = enc.exists_choice(0, enc.next(s.weight[0] == 1, 0))      # reads the amount left: a quantifier
    assert isinstance(part, Exists)
    cases = _split(enc, _Query("q", [~part]))
    assert 3 * 2 ** 6 > SPLIT_LIMIT
    assert [q.case for q in cases] == ["token = 0", "token = 1", "token = 2"]


def test_a_false_characterization_is_refuted_in_one_token_case_with_a_real_counterexample():
    # "P iff w(0) = 1": NP fails at a non-terminal state with w(0) != 1 and no move leaving 1 on 0
    s = VERTEXNIM_P3.state
    np_ = {r.obligation: r for r in check_partition(VERTEXNIM_P3, s.weight[0] == 1)}["NP"]
    assert np_.status == "violated" and "[token = " in np_.detail
    from grundy.solvers.explicit.compile import compile_rules
    code = compile_rules(VERTEXNIM_P3, symmetry=False, decompose=False)
    w0 = VERTEXNIM_P3.schema.slot_by_var[s.weight[0].name]
    kids = code.successors(np_.state)
    assert np_.state[w0] != 1 and kids and all(t[w0] != 1 for t in kids)
