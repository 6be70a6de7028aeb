"""Claims for every n: open families checked by counting, and the mutants that must never be
``proved`` (refuted, or refused with a one-line reason and the bounded verdict)."""
from __future__ import annotations

import pytest

from grundy.solvers.counting import Refused, Shape, agrees, reduce_game
from grundy.spec import any_of, move
from grundy.spec.games.grim import Grim
from grundy.spec.games.weighted_grim import WeightedGrim
from grundy.verify import Claim, at_least, check_claim, complete, complete_bipartite, complete_multipartite, stars


@pytest.fixture(autouse=True)
def _own_games():
    """The test games a claim registers are forgotten after each test (other tests list GAMES)."""
    from grundy.spec.games import GAMES
    with GAMES.scoped():
        yield


def parity(g, c):                           # grim on K_n: P iff c is odd or 0 (Lemma 9)
    return (c[0] % 2 == 1) | (c[0] == 0)


def claim(statement=parity, game="grim", family=None, kind="char", expect="proved"):
    return Claim("t/every-n", game=game, kind=kind, family=family or complete(n=at_least(1), first=7),
                 statement=statement, expect=expect)


# ------------------------------------------------------------------ the mechanism
def test_lemma9_is_proved_for_every_n():
    v = check_claim(claim())
    assert v.verdict == "proved", v.detail
    assert v.scope.startswith("for every n >= 1 (by counting")
    assert "linear integer arithmetic" in v.scope and "at most 7 vertices" in v.scope
    assert v.coverage["smt"] == "all sizes"


def test_grundy_values_for_every_n():
    from grundy.spec import ite
    v = check_claim(claim(lambda g, c: ite((c[0] % 2 == 0) & (c[0] >= 2), 1, 0), kind="grundy"))
    assert v.verdict == "proved", v.detail


def test_stars_and_bipartite():
    star = check_claim(claim(lambda g, c: (c[0] == 0) | (c[1] == 0), family=stars(n=at_least(1), first=7)))
    assert star.verdict == "proved", star.detail
    bip = check_claim(claim(lambda g, c: (c[0] == 0) | (c[1] == 0)
                            | ((c[0] >= 2) & (c[1] >= 2) & ((c[0] + c[1]) % 2 == 0)),
                            family=complete_bipartite(m=at_least(1), n=at_least(1), first=7)))
    assert bip.verdict == "proved", bip.detail
    assert bip.scope.startswith("for every m >= 1, n >= 1")


def test_counting_rule_matches_the_rule_on_larger_members():
    red = reduce_game(Grim(), Shape.multipartite(2))
    assert agrees(red, (3, 9)) is None
    assert red.options((1, 1)) == {(0, 0)}              # K_{1,1}: either move empties the graph
    assert red.options((2, 3)) == {(1, 3), (2, 2)}


# ------------------------------------------------------------------ mutants: refuted
def test_false_claim_is_refuted_at_its_smallest_member():
    v = check_claim(claim(lambda g, c: c[0] % 3 == 0, expect="refuted"))
    assert v.verdict == "refuted"
    assert v.counterexample is not None and v.counterexample.structure == "K_1"


def test_false_claim_beyond_the_first_members_is_refuted_by_z3s_counts():
    # right on K_1..K_7 (the explicit sweep), wrong at 9 alive vertices: Z3's violation on the
    # counts is swept explicitly on the member with those counts
    v = check_claim(claim(lambda g, c: parity(g, c) & (c[0] != 9), expect="refuted"))
    assert v.verdict == "refuted", (v.verdict, v.scope, v.detail)
    assert v.counterexample is not None and v.counterexample.structure == "K_9"


# ------------------------------------------------------------------ mutants: refused
class NamesAVertex(Grim):
    """Grim where a vertex can be deleted only while vertex 0 is alive: the rule names a vertex."""
    name = "test-grim-names-0"

    def moves(self, g, s):
        for m in super().moves(g, s):
            yield move(m.label, guard=m.guard & s.alive[0], update=m.update)


class BreaksOrbits(Grim):
    """Grim where deleting v also deletes the vertex after it: the update breaks the orbits."""
    name = "test-grim-next-too"

    def moves(self, g, s):
        for v in g.vertices:
            w = (v + 1) % g.n
            yield move(f"delete {v}", guard=s.alive[v] & any_of(s.alive[u] for u in g.neighbours(v)),
                       update=s.set(alive={v: False, w: False}))


class ChangesAtNine(Grim):
    """Grim, but on 9 or more vertices a move is legal only with 3 others alive: a rule that is
    not one function of the structure (the template, K_6, does not see it; K_9 does)."""
    name = "test-grim-size-9"

    def moves(self, g, s):
        for m in super().moves(g, s):
            if g.n >= 9:
                v = int(m.label.split()[-1])
                yield move(m.label, guard=m.guard & any_of(s.alive[u] & s.alive[w]
                                                           for u in g.neighbours(v) for w in g.neighbours(v)
                                                           if u < w), update=m.update)
            else:
                yield m


class Doubled(Grim):
    """Grim with every move listed twice: the same game, but not one move per vertex."""
    name = "test-grim-doubled"

    def moves(self, g, s):
        for m in super().moves(g, s):
            yield m
            yield move(m.label + " again", guard=m.guard, update=m.update)


def test_moves_not_one_per_vertex_are_read_from_option_sets():
    """Two moves per vertex (each one twice): not the per-vertex form, so the counting rule is read
    from whole option sets (solvers/counting_options.py), and the claim is proved."""
    v = check_claim(claim(game=Doubled()))
    assert v.verdict == "proved", v.detail
    from grundy.solvers.counting_options import reduce_any
    assert reduce_any(Doubled(), Shape.complete()).options((4,)) == {(3,)}


def test_refused_claim_keeps_its_bounded_verdict_and_says_why():
    v = check_claim(claim(game=NamesAVertex(), family=complete(n=at_least(2), first=6),
                          statement=lambda g, c: c[0] % 2 == 1, expect="verified"))
    assert v.verdict != "proved"
    assert v.verdict == "refuted" or "(not reducible: the rule is not symmetric within the parts" in v.scope


@pytest.mark.parametrize("game, why", [
    (NamesAVertex(), "not symmetric within the parts"),
    (BreaksOrbits(), "not symmetric within the parts"),
    ("weighted-grim", "the state is not one bool per vertex"),
])
def test_refused_with_one_line_and_the_bounded_verdict(game, why):
    c = Claim("t/mutant", game=game, kind="conj", family=complete(n=at_least(2), first=6),
              statement=lambda g, c: c[0] >= 0, bounds={"weight": 2} if game == "weighted-grim" else {})
    red_reason = None
    try:
        reduce_game(WeightedGrim() if game == "weighted-grim" else game, Shape.complete(2))
    except Refused as e:
        red_reason = str(e)
    assert red_reason is not None and why in red_reason
    v = check_claim(c)                     # every position P: refuted on K_2 before any reduction
    assert v.verdict == "refuted" and v.counterexample.structure == "K_2"


class Revives(Grim):
    """Deleting a vertex brings every other vertex back: symmetric, but not a counting rule."""
    name = "test-revives"

    def moves(self, g, s):
        for v in g.vertices:
            yield move(f"delete {v}", guard=s.alive[v],
                       update=s.set(alive={u: u != v for u in g.vertices}))


class DeadMoves(Grim):
    """A move at every vertex, present or not (it deletes the vertex): symmetric, refused."""
    name = "test-dead-moves"

    def moves(self, g, s):
        for v in g.vertices:
            yield move(f"delete {v}", guard=s.alive[v] | ~s.alive[v], update=s.set(alive={v: False}))


@pytest.mark.parametrize("game, why", [
    (Revives(), "a move makes a removed vertex present"),
    (DeadMoves(), "a move at a removed vertex is legal"),
])
def test_symmetric_rules_that_are_no_counting_rule_are_refused(game, why):
    """The counting rule is read on the template's representatives (the reference engine's
    interpreter): a move reviving a vertex, or legal at a removed vertex, is refused."""
    with pytest.raises(Refused, match=why):
        reduce_game(game, Shape.complete())


def test_rule_changing_on_a_first_member_is_refused():
    red = reduce_game(ChangesAtNine(), Shape.complete())      # read on K_6: grim's counting rule
    assert agrees(red, (8,)) is None
    assert "on K_9 at counts (2,)" in agrees(red, (9,))
    v = check_claim(claim(game=ChangesAtNine(), family=complete(n=at_least(1), first=9), expect="verified"))
    assert v.verdict != "proved"
    assert v.verdict == "refuted" or "(not reducible: the counting rule" in v.scope


def test_open_family_api():
    with pytest.raises(ValueError):
        at_least(-1)
    with pytest.raises(TypeError):
        complete(3, n=at_least(1))
    with pytest.raises(TypeError):
        complete_bipartite(m=at_least(1))
    fam = complete_multipartite(k=3, size=at_least(2), first=7)
    assert fam.scope == "K_{l,m,n}, every l >= 2, m >= 2, n >= 2"
    assert fam.names() == ["K_{2,2,2}", "K_{2,2,3}"]


def test_open_family_verdicts_are_cached_by_their_statement_and_profile():
    from grundy.verify.cache import claim_key
    a, b = claim(), claim(lambda g, c: (c[0] % 2 == 1) | (c[0] <= 0))
    quick = {"profile": "quick"}
    assert claim_key(a, quick) == claim_key(a, quick) != claim_key(b, quick)
    assert claim_key(a, quick) != claim_key(a, {"profile": "full"})


# ------------------------------------------------------------------ paths, by locality
from grundy.solvers.locality import path_heaps  # noqa: E402
from grundy.spec import GraphGame  # noqa: E402
from grundy.verify import paths, runs_of  # noqa: E402


class NodeKayles(GraphGame):
    name = "test-node-kayles"

    def moves(self, g, s):
        for v in g.vertices:
            yield move(f"take {v}", guard=s.alive[v], update=s.set(alive={v: False, **{u: False for u in g.neighbours(v)}}))


class Reach2(GraphGame):
    """Node Kayles taking the vertices at distance <= 2 (radius 2)."""
    name = "test-node-kayles-2"

    def moves(self, g, s):
        for v in g.vertices:
            near = {u for u in g.neighbours(v)} | {w for u in g.neighbours(v) for w in g.neighbours(u)}
            yield move(f"take {v}", guard=s.alive[v], update=s.set(alive={u: False for u in near | {v}}))


def test_node_kayles_on_paths_is_octal_0137_for_every_n():
    v = check_claim(Claim("t/paths", game=NodeKayles(), kind="grundy", family=paths(n=at_least(1), first=8),
                          statement=runs_of("0.137"), expect="proved"))
    assert v.verdict == "proved", (v.scope, v.detail)
    assert v.scope.startswith("for every n >= 1 (by locality") and "radius 1" in v.scope
    assert "octal 0.137 on every heap (Z3, unbounded integers)" in v.scope


def test_radius_two_claimed_as_a_radius_one_code_is_refuted():
    v = check_claim(Claim("t/paths2", game=Reach2(), kind="grundy", family=paths(n=at_least(1), first=8),
                          statement=runs_of("0.137"), expect="refuted"))
    assert v.verdict == "refuted" and v.counterexample.structure == "P_3"


def test_grim_on_paths_is_0_6_up_to_lone_vertices():
    # the heap game of grim's runs removes a lone end vertex with its neighbour, which octal 0.6
    # does not: equal once the heaps of 1 (no move in either) are dropped (Theorem 23)
    v = check_claim(Claim("t/grim-paths", game="grim", kind="grundy", family=paths(n=at_least(1), first=8),
                          statement=runs_of("0.6"), expect="proved"))
    assert v.verdict == "proved", (v.scope, v.detail)
    assert "once the heaps of 1 (no move in either: value 0) are dropped" in v.scope
    w = check_claim(Claim("t/grim-misere", game="grim", kind="grundy", family=paths(n=at_least(1), first=4),
                          statement=runs_of("0.6"), convention="misere", expect="refuted"))
    assert w.verdict != "proved"


def test_codes_with_the_same_inert_heaps_are_told_apart():
    from grundy.solvers.locality import inert_sizes, rule_is_code_up_to
    from grundy.spec.games import get_game
    from grundy.spec.heaprule import parse_octal, rule_heaps
    heaps = path_heaps(get_game("grim"))
    one = heaps.heap_rule(rule_heaps(1))
    assert inert_sizes(heaps, parse_octal("0.6")) == (1,)
    assert rule_is_code_up_to(one, parse_octal("0.6"), (1,))[0]
    assert not rule_is_code_up_to(one, parse_octal("0.06"), (1,))[0]     # no heap of 2 taken whole


def test_the_heap_game_is_compared_with_the_code_on_every_heap():
    from grundy.solvers.heaps.codeproof import rule_is_code
    from grundy.spec.heaprule import parse_octal
    heaps = path_heaps(NodeKayles())
    assert rule_is_code(heaps.heap_rule(None), parse_octal("0.137"))[0]
    assert not rule_is_code(heaps.heap_rule(None), parse_octal("0.07"))[0]


def test_paths_claims_are_cached():
    from grundy.verify.cache import claim_key
    c = Claim("t/paths", game=NodeKayles(), kind="grundy", family=paths(n=at_least(1), first=8),
              statement=runs_of("0.137"))
    d = Claim("t/paths", game=NodeKayles(), kind="grundy", family=paths(n=at_least(1), first=8),
              statement=runs_of("0.07"))
    assert claim_key(c, {"profile": "quick"}) != claim_key(d, {"profile": "quick"})


def test_cycles_by_the_first_move_then_paths():
    from grundy.verify import arcs_of, cycles
    v = check_claim(Claim("t/cycles", game="grim", kind="grundy", family=cycles(n=at_least(3), first=8),
                          statement=arcs_of("0.6"), expect="proved"))
    assert v.verdict == "proved", (v.scope, v.detail)
    assert "every move from the full cycle leaves one arc of n - 1" in v.scope
    w = check_claim(Claim("t/cycles-2", game="grim", kind="grundy", family=cycles(n=at_least(3), first=8),
                          statement=arcs_of("0.6", removed=2), expect="refuted"))
    assert w.verdict == "refuted" and w.counterexample.structure == "C_3"
    # Node Kayles takes three vertices from a cycle: one arc of n - 3, refused as a claim of n - 1
    from grundy.solvers.locality import cycle_step
    assert cycle_step(NodeKayles(), 3, range(5, 12)) is None
    assert "not one arc of 9" in cycle_step(NodeKayles(), 1, [10])


def test_an_open_claim_does_not_serve_the_solver():
    from grundy.solvers.solver import Solver
    from grundy.verify.serve import serve
    c = Claim("t/serve", game="grim", kind="char", family=complete(n=at_least(1), first=5), statement=parity,
              serves=True)
    assert serve(Solver(), [c], cache=False) == ["t/serve: not used (a claim on an open family does not serve "
                                                 "the solver yet)"]
