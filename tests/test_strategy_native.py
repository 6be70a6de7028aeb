"""The strategy follower in C against the Python one: the same verdict at every start, the same
claim verdicts and counterexamples, misère included."""
from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from theorem_files import theorem_module

from grundy import Solver
from grundy.settings import current as current_settings
from grundy.solvers.native import build
from grundy.solvers.native.follow import StrategyTable
from grundy.spec import Play, Structure
from grundy.spec.expr import all_of, any_of
from grundy.spec.strategy import move_index, plays
from grundy.verify.check import Instance, check_claim
from grundy.verify.check.instance import AGREED, CLAIMED_N, FOLLOWED
from grundy.verify.claims import Claim
from grundy.verify.families import complete, heaps

pytestmark = pytest.mark.skipif(not build.available(), reason="no C compiler")
E = theorem_module("erickson")


def k(n: int) -> Structure:
    return Structure.graph(range(n), list(itertools.combinations(range(n), 2)))


def highest_tie(g, s, rules):
    """The complete graph strategy with ties broken towards the highest vertex (planted)."""
    out = []
    for t in g.vertices:
        opts = list(g.neighbours(t))
        live = {v: s.weight[g.edge_id(t, v)] > 0 for v in opts}
        for v in opts:
            best = all_of(~live[u] | (E.degree(g, s, v) < E.degree(g, s, u)) |
                          ((E.degree(g, s, v) == E.degree(g, s, u)) & (v > u)) for u in opts if u != v)
            out.append(Play((s.token == t) & live[v] & best, move_index(rules, f"{g.names[t]}->{g.names[v]},"),
                            {"w": 0}))
    return out


def minus_one(g, s, rules):
    """Lower the first live edge at the token by one only (planted, false)."""
    out = []
    for t in g.vertices:
        for v in g.neighbours(t):
            e = g.edge_id(t, v)
            out.append(Play((s.token == t) & (s.weight[e] > 0), move_index(rules, f"{g.names[t]}->{g.names[v]},"),
                            {"w": s.weight[e] - 1}))
    return out


def too_much(g, s, rules):
    """Set the weight to itself: never a legal move (the move must lower it)."""
    return [Play((s.token == t) & (s.weight[g.edge_id(t, v)] > 0), move_index(rules, f"{g.names[t]}->{g.names[v]},"),
                 {"w": s.weight[g.edge_id(t, v)]}) for t in g.vertices for v in g.neighbours(t)]


def only_at_zero(g, s, rules):
    """The complete graph strategy with the token at vertex 0 only: elsewhere no case applies."""
    zero = f"{g.names[0]}->"
    return [p for p in E.complete_graph_strategy(g, s, rules) if rules.moves[p.move].label.startswith(zero)]


def claim(strategy, n: int, top: int, convention: str = "normal", expect: str = "verified") -> Claim:
    return Claim("demo/cg", game="edge-nim", kind="strategy", family=complete(n), bounds={"weight": (1, top)},
                 statement=E.N_always, strategy=strategy, convention=convention, expect=expect)


def compare(c: Claim, g: Structure, starts) -> list[int]:
    """The C follower's result at every start, asserted equal to the Python follower's."""
    py = Instance(c, "g", g, Solver(native=False))
    table = StrategyTable(py.rules, plays(c.strategy, py.rules), c.convention == "misere")
    got = table.follow_many(starts)
    assert got is not None
    for s, r in zip(starts, got):
        if not py.code.options(s):
            assert r == 2, s
        else:
            assert r == (1 if py.follow(s) is None else 0), s
    return list(got)


def starts(n: int, top: int):
    m = n * (n - 1) // 2
    return [w + (t,) for w in itertools.product(range(1, top + 1), repeat=m) for t in range(n)]


CASES = [(E.complete_graph_strategy, 3, 3), (E.complete_graph_strategy, 4, 3), (E.complete_graph_strategy, 5, 2),
         (highest_tie, 4, 3), (highest_tie, 5, 2), (minus_one, 4, 2), (too_much, 3, 2), (only_at_zero, 4, 2)]


@pytest.mark.parametrize("convention", ["normal", "misere"])
@pytest.mark.parametrize("strategy,n,top", CASES, ids=[f"{s.__name__}-K{n}-{t}" for s, n, t in CASES])
def test_c_follower_agrees_with_python(strategy, n, top, convention):
    got = compare(claim(strategy, n, top, convention), k(n), starts(n, top))
    if strategy is E.complete_graph_strategy and convention == "normal":
        assert set(got) == {1}                  # the conjecture's strategy wins from every start here
    if strategy in (minus_one, too_much, only_at_zero):
        assert 0 in got                         # planted failures are found


def test_terminal_and_lower_weights():
    """Starts with zero weights (some without a move) agree too."""
    got = compare(claim(E.complete_graph_strategy, 4, 2), k(4), [w + (t,) for w in itertools.product(range(3), repeat=6)
                                                                   for t in range(4)])
    assert got[0] == 2 and {1, 2} <= set(got)     # all weights 0: no move; elsewhere the strategy wins


@pytest.mark.parametrize("strategy", [highest_tie, minus_one, too_much, only_at_zero])
def test_claim_verdicts_and_witnesses_agree(strategy, monkeypatch):
    calls = []
    real = StrategyTable.follow_many
    monkeypatch.setattr(StrategyTable, "follow_many", lambda self, s: calls.append(len(s)) or real(self, s))
    c = claim(strategy, 4, 3, expect="refuted")
    a = check_claim(c, solver=Solver(native="always"))
    assert calls                                  # the C follower served
    b = check_claim(c, solver=Solver(native=False))
    assert a.verdict == b.verdict
    if strategy is highest_tie and a.verdict == "verified":
        return
    assert a.verdict == "refuted"
    assert a.counterexample.witness == b.counterexample.witness
    assert (a.counterexample.claimed, a.counterexample.actual) == (b.counterexample.claimed, b.counterexample.actual)
    assert a.counterexample.line == b.counterexample.line
    if strategy is too_much:                      # fails at the start: its move is not legal
        assert "not legal" in a.counterexample.actual


def test_batched_sweep_uses_prefetch(tune):
    """A batched sweep (K_n, many starts) takes the C follower's verdicts in batches."""
    tune(batch_from=100)
    c = claim(minus_one, 4, 3, expect="refuted")
    a = check_claim(c, solver=Solver(native="always"))
    b = check_claim(c, solver=Solver(native=False))
    assert a.verdict == b.verdict == "refuted" and a.counterexample.witness == b.counterexample.witness
    ok = check_claim(claim(E.complete_graph_strategy, 4, 3), solver=Solver(native="always"))
    assert ok.verdict == "verified" and "2,916 positions" in ok.scope


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(a=st.integers(-2, 2), b=st.integers(-1, 2), c=st.integers(0, 3), conv=st.sampled_from(["normal", "misere"]))
def test_random_nim_strategies(a, b, c, conv):
    """Random two-case strategies on two nim heaps: right, wrong, illegal or without a case."""
    def strat(g, s, rules):
        return [Play(s.heap[0] > s.heap[1] + a, 0, {"k": s.heap[0] - s.heap[1] + b}),
                Play(s.heap[1] > c, 1, {"k": s.heap[1] - c})]
    cl = Claim("demo/r", game="nim", kind="strategy", family=heaps(2), bounds={"heap": 6}, convention=conv,
               statement=lambda g, s: s.heap[0] == s.heap[1], strategy=strat)
    compare(cl, Structure.heaps(2), [(x, y) for x in range(7) for y in range(7)])


def test_a_follower_on_a_large_box_is_optimized_in_the_middle_of_its_work(tune):
    """A follower on a box larger than settings.quick_box starts with -Og and goes on with -O2 once it
    has paused upgrade_after times (kernel.counted), its bitmap and the play under way kept:
    the same verdict at every start as the Python follower."""
    tune(upgrade_after=1)
    c = claim(E.complete_graph_strategy, 5, 2)
    py = Instance(c, "g", k(5), Solver(native=False))
    table = StrategyTable(py.rules, plays(c.strategy, py.rules), False)
    every = starts(5, 2)
    assert table.follow_many([every[0], every[-1]]) is not None      # the box of every start, little work
    f = table.follower
    assert f is not None and f.box.size > current_settings().quick_box and f.tiered
    quick_lib = f.lib
    got = compare_with(table, py, every)
    assert table.follower is f and not f.tiered and f.lib is not quick_lib and set(got) == {1}


def compare_with(table: StrategyTable, py: Instance, starts_) -> list[int]:
    got = table.follow_many(starts_)
    assert got is not None
    for s, r in zip(starts_, got):
        assert r == (2 if not py.code.options(s) else 1 if py.follow(s) is None else 0), s
    return list(got)


def light(g, s):
    """A planted statement: P iff every edge at the token weighs at most 1 (false at many starts)."""
    return any_of((s.token == t) & all_of(s.weight[g.edge_id(t, u)] <= 1 for u in g.neighbours(t))
                    for t in g.vertices)


@pytest.mark.parametrize("strategy", [E.complete_graph_strategy, minus_one, too_much, only_at_zero])
@pytest.mark.parametrize("native", [True, False])
def test_a_batch_judged_as_each_start_alone(strategy, native):
    """The truths a strategy claim's batch is given (Instance.prefetch: the statement read once, the
    truths at the starts claimed P asked in one call, the starts claimed N followed in C where it
    serves) judge every start as a fresh instance judges it alone (a statement true and false at
    starts claimed P and N; strategies winning, failing, illegal, without a case)."""
    c = Claim("demo/light", game="edge-nim", kind="strategy", family=complete(4), bounds={"weight": (0, 2)},
              statement=light, strategy=strategy, exact=lambda g, s: s.token == 0, expect="refuted")
    every = starts(4, 2) + [w + (t,) for w in itertools.product(range(3), repeat=6) for t in range(4)][::7]
    inst = Instance(c, "g", k(4), Solver(native="always" if native else False))
    inst.batched = native                       # the C follower asked for the batch
    truths = inst.prefetch(every)
    assert truths is not None and len(truths) == len(every)
    assert {AGREED, CLAIMED_N, "N"} <= set(truths) and (FOLLOWED in truths) == (native and strategy is not too_much)
    alone = Instance(c, "g", k(4), Solver(native=False))
    found = [inst.judge(x, t) for x, t in zip(every, truths)]
    assert found == [alone.judge(x) for x in every]
    assert any(f is None for f in found) and any(f is not None for f in found)


def test_instances_of_one_strategy_share_what_it_wins_from():
    """Two claims with one strategy on the same structure (another statement, another assumption)
    share the positions the strategy is known to win from and its C follower; the second judges
    every start as an instance with nothing shared does (caches released), misère kept apart."""
    from grundy.caches import release
    from grundy.verify.families import states
    a = claim(minus_one, 3, 2, expect="refuted")
    b = Claim("demo/b", game="edge-nim", kind="strategy", family=complete(3), bounds={"weight": (1, 2)},
              statement=light, strategy=minus_one, assume=lambda g, s: s.token != 1)
    g = k(3)
    first = Instance(a, "g", g, Solver(native=False))
    every = list(states(first.rules, a.bounds, None))
    for x in every:
        first.judge(x)
    assert first.won
    second = Instance(b, "g", g, Solver(native="always"))
    misere = Instance(claim(minus_one, 3, 2, "misere"), "g", g, Solver())
    assert second.won is first.won and misere.won is not first.won
    assert second.native_strategy is Instance(b, "g", g, Solver(native="always")).native_strategy
    shared = [second.judge(x) for x in every]
    release()
    alone = Instance(b, "g", g, Solver(native="always"))
    assert not alone.won and alone.won is not first.won
    assert shared == [alone.judge(x) for x in every]
    assert any(f is not None for f in shared)
