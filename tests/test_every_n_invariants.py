"""Claims for every n under an inductive invariant: wyg's W1 positions (one chip or none per
vertex, no active edge) as a present/removed vertex game, counted on K_n and K_{m,n}; wheels by
the hub's step; and the mutants that must never be ``proved``."""
from __future__ import annotations

import itertools

import pytest

from grundy.solvers.counting import Refused, Shape
from grundy.solvers.counting_options import reduce_any
from grundy.solvers.invariant import holds_on_slots, invariant, project, prove_inductive
from grundy.spec import ite, move
from grundy.spec.games import get_game
from grundy.spec.games.grim import Grim
from grundy.spec.structure import Structure
from grundy.verify import Claim, at_least, check_claim, complete, complete_bipartite, wheels
from grundy.verify.families import path_outcome

W1 = invariant(chips=(0, 1), active=-1)


def kn(n: int) -> Structure:
    return Structure.graph(range(n), list(itertools.combinations(range(n), 2)))


def no_edge(g, key):
    return [-1]


def zero_one(g, v):
    return [0, 1]


def w1_value(g, c):
    k = c[0]
    return ite(k == 0, 0, ite(k % 3 == 1, 0, ite(k % 3 == 2, 1, 2)))


def claim(statement=w1_value, family=None, kind="grundy", chips=zero_one, inv=W1, expect="proved"):
    fam = family or complete(n=at_least(1), first=5)
    return Claim("t/w1-every-n", game="wyg", kind=kind, family=fam.under(inv), statement=statement,
                 bounds={"chips": chips, "active": no_edge}, expect=expect)


# ------------------------------------------------------------------ the invariant
def test_w1_invariant_is_inductive_and_others_are_not():
    wyg = get_game("wyg")
    ok, how = prove_inductive(wyg.rules(kn(4)), W1)
    assert ok and "every one of the 18 moves" in how
    ok, how = prove_inductive(wyg.rules(kn(4)), invariant(chips=(1, 2), active=-1))
    assert not ok and "breaks it" in how                  # taking 2 from both ends leaves 0 chips
    ok, _ = prove_inductive(wyg.rules(kn(3)), invariant(chips=(0, 2), active=-1))
    assert not ok                                         # take 1 of 2: one chip left, the edge active


def test_invariant_names_every_field():
    with pytest.raises(Refused, match="names the fields"):
        invariant(chips=(0, 1)).expr(get_game("wyg").rules(kn(3)))
    with pytest.raises(ValueError, match="two different values"):
        invariant(chips=(1, 1), active=-1)


def test_projection_has_the_games_options_at_every_invariant_position():
    """The projected game's options are the game's options under "present iff 1 chip", state by
    state, on K_4 and on a path (every state the invariant allows)."""
    from grundy.solvers.explicit.compile import compile_rules
    wyg, proj = get_game("wyg"), project(get_game("wyg"), W1)
    for g in (kn(4), Structure.graph(range(4), [(0, 1), (1, 2), (2, 3)])):
        base = compile_rules(wyg.rules(g), symmetry=False, decompose=False).successors
        mine = compile_rules(proj.rules(g), symmetry=False, decompose=False).successors
        for bits in itertools.product((0, 1), repeat=g.n):
            want = {tuple(t[:g.n]) for t in base(tuple(bits) + (-1,))}
            assert all(t[g.n] == -1 for t in base(tuple(bits) + (-1,)))
            assert {tuple(t) for t in mine(bits)} == want, bits


def test_bounds_outside_the_invariant_are_found():
    rules = get_game("wyg").rules(kn(3))
    assert holds_on_slots(W1, rules, [[0, 1]] * 3 + [[-1]]) is None
    assert "chips[1] takes [1, 2]" in holds_on_slots(W1, rules, [[1], [1, 2], [1], [-1]])
    assert "active takes [-1, 0]" in holds_on_slots(W1, rules, [[1]] * 3 + [[-1, 0]])


def test_counting_reads_edge_moves_from_option_sets():
    red = reduce_any(project(get_game("wyg"), W1), Shape.complete())
    assert red.options((5,)) == {(4,), (3,)} and red.options((1,)) == set() and red.options((2,)) == {(1,), (0,)}
    bip = reduce_any(project(get_game("wyg"), W1), Shape.multipartite(2))
    assert bip.options((3, 2)) == {(2, 2), (3, 1), (2, 1)} and bip.options((0, 4)) == set()


# ------------------------------------------------------------------ claims
def test_w1_on_kn_is_proved_for_every_n():
    v = check_claim(claim())
    assert v.verdict == "proved", v.detail
    assert v.scope.startswith("for every n >= 1, under the invariant chips[v] in {0, 1}, active = -1 (by counting")
    assert "inductive on 6 vertices" in v.scope and v.coverage["smt"] == "all sizes"


def test_w1_on_bipartite_is_proved_for_every_size():
    def p(g, c):
        return (c[0] == 0) | (c[1] == 0) | ((c[0] % 2 == 0) & (c[1] % 2 == 0))
    v = check_claim(claim(p, family=complete_bipartite(m=at_least(1), n=at_least(1), first=5), kind="char"))
    assert v.verdict == "proved", v.detail


# ------------------------------------------------------------------ mutants: never proved
def test_wrong_residue_is_refuted_at_its_smallest_member():
    v = check_claim(claim(lambda g, c: ite(c[0] % 3 == 0, 0, 1), expect="refuted"))
    assert v.verdict == "refuted"
    assert v.counterexample is not None


def test_non_inductive_invariant_is_refused():
    """chips in {1, 2}: the claim's positions lie within it (on K_1, where every value is 0), but
    taking 2 from both ends of an edge leaves 0 chips: not inductive, so no reduction (the bounded
    verdict, with the reason)."""
    def two(g, v):
        return [1, 2]
    v = check_claim(claim(lambda g, c: 0, family=complete(n=at_least(1), first=1), chips=two,
                          inv=invariant(chips=(1, 2), active=-1), expect="verified"))
    assert v.verdict != "proved"
    assert "not reducible: the invariant chips[v] in {1, 2}, active = -1 is not inductive" in v.scope, v.detail


def test_invariant_failing_at_the_start_is_refused():
    """W2's start (two chips on every vertex) is not within "chips in {0, 1}": refused, whatever
    the statement says on the counts (on K_1, every value is 0)."""
    def two(g, v):
        return [2]
    v = check_claim(claim(lambda g, c: 0, family=complete(n=at_least(1), first=1), chips=two, expect="verified"))
    assert v.verdict != "proved"
    assert "not reducible: the claim's positions on K_1 are not within the invariant" in v.scope


# ------------------------------------------------------------------ wheels: one special vertex
def full(g, v):
    return [1]


class HubStays(Grim):
    """Grim where the hub (vertex 0) cannot be deleted: the hub's rule differs."""
    name = "test-grim-hub-stays"

    def moves(self, g, s):
        for v, m in enumerate(super().moves(g, s)):
            yield move(m.label, guard=m.guard & (v != 0), update=m.update)


class RimNeedsHub(Grim):
    """Grim where a vertex other than 0 can be deleted only while vertex 0 is alive."""
    name = "test-grim-rim-needs-hub"

    def moves(self, g, s):
        for v, m in enumerate(super().moves(g, s)):
            yield move(m.label, guard=m.guard & (s.alive[0] if v else True), update=m.update)


def wheel_claim(game="grim", expect="proved", first=7):
    return Claim("t/wheels", game=game, kind="char", family=wheels(n=at_least(4), first=first),
                 statement=path_outcome(game if isinstance(game, str) else game.name), bounds={"alive": full},
                 expect=expect)


def test_grim_wheels_are_proved_by_the_hub_for_every_n():
    v = check_claim(wheel_claim())
    assert v.verdict == "proved", v.detail
    assert v.scope.startswith("for every n >= 4 (by the hub") and "read on W_4..W_12" in v.scope


def test_the_step_on_the_ir():
    from grundy.solvers.wheels import same_rule, wheel, wheel_step
    from grundy.verify.families.open import OpenPaths
    assert wheel(5).edges == [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 4), (2, 3), (3, 4)]
    assert wheel_step(Grim(), 9) is None
    p5 = OpenPaths(first=5).items()[4][1]
    w7 = Grim().rules(wheel(7))
    assert same_rule(w7, {0, 3}, [4, 5, 6, 1, 2], Grim().rules(p5)) is None
    assert same_rule(w7, {0, 3}, [4, 6, 5, 1, 2], Grim().rules(p5)) is not None     # not the rim's order
    assert "hub's move" in wheel_step(HubStays(), 8)
    assert "from the full rim" in wheel_step(RimNeedsHub(), 8)      # no move once the hub is gone


@pytest.mark.parametrize("game", [HubStays(), RimNeedsHub()])
def test_wheel_claims_whose_hub_rule_differs_are_never_proved(game):
    v = check_claim(wheel_claim(game, expect="refuted"))
    assert v.verdict == "refuted" or (v.verdict == "verified" and "not reducible" in v.scope), v.scope


def test_wheel_claims_are_about_the_full_wheel():
    c = wheel_claim()
    c.bounds = {"alive": lambda g, v: [0, 1]}
    v = check_claim(c)
    assert v.verdict == "error" and "about the full wheel" in v.detail
