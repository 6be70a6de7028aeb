"""The coin-turning premise (grundy.solvers.premises.coin_turning) and its value source
(grundy.solvers.coins): recognised on the rule and proved by Z3, refused with one line naming a
move otherwise; the values it gives are the plain solver's on every position of small boards;
Turning Corners on 8x8 verified through it, a planted cell refuted (examples/coin-turning)."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from test_source_conformance import check_every_source

from grundy.solvers.coins import COIN_TURNING_SOURCE, CoinTurningSource
from grundy.solvers.premises import NOT_DECLARED, PROVED, VIOLATED
from grundy.solvers.premises.coin_turning import coin_turning
from grundy.solvers.solver import Solver
from grundy.solvers.source_log import SourceLog
from grundy.solvers.sources import Query
from grundy.spec import Field, Game, Structure, ite, move, total
from grundy.spec.nimber import nim_multiply
from grundy.spec.position import Position

EXAMPLE = Path(__file__).resolve().parent.parent / "examples" / "coin-turning"


def _load(name: str, path: Path):
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


GAMES = _load("coin_turning_example_games", EXAMPLE / "games.py")
CORNERS, PEEK, RULER = GAMES.TURNING_CORNERS, GAMES.PEEK, GAMES.RULER


@pytest.fixture(autouse=True, scope="module")
def _example_games_forgotten_after():
    """The example's games, registered when its claims are built, are forgotten after this file
    (a later test that lists every registered game would meet them)."""
    from grundy.spec import GAMES as REGISTRY
    with REGISTRY.scoped():
        yield


def board(game, m, n):
    return game.read({"rows": m, "cols": n})[0]


def every_state(n):
    return [tuple((k >> i) & 1 for i in range(n)) for k in range(1 << n)]


def plain():
    return Solver(symmetry=False, decompose=False, native=False)


# ----------------------------------------------------------------------------- the premise
@pytest.mark.parametrize("m, n", [(3, 3), (3, 4), (8, 8)])
def test_turning_corners_is_proved_coin_turning_and_its_heads_are_nim_products(m, n):
    g = board(CORNERS, m, n)
    ct = coin_turning(CORNERS.rules(g), cache=False)
    assert ct.premise.status == PROVED, ct.premise
    assert ct.premise.how == "coin-turning decomposition, proved by Z3 on the rule"
    assert [ct.values[v] for v in g.vertices] == [nim_multiply(a, b) for a, b in g.names]
    pos = {v: i for i, v in enumerate(ct.order)}
    assert all(pos[b] < pos[c] for c, rest in zip(ct.last, ct.others) for b in rest)


def test_a_guard_that_peeks_at_another_coin_is_refused_by_z3_naming_the_move():
    ct = coin_turning(PEEK.rules(board(PEEK, 3, 3)), cache=False)
    assert ct.premise.status == VIOLATED and not ct.holds and ct.values == ()
    why = ct.premise.violation
    assert why.startswith("move 'turn (") and "its guard is not exactly 'coin heads[(" in why, why
    assert why.count("\n") == 0 and '"heads": [[' in why            # one line, with a position


class Row(Game):
    """A row of coins with moves given as data: (guard, turned, constant) per move."""
    structure = "heaps"
    summary = "a test rule (tests/test_coin_turning.py)"

    def __init__(self, name, make):
        self.name, self.make = name, make

    def fields(self, g):
        return [Field("coin", over="heaps", kind="bool")]

    def moves(self, g, s):
        return self.make(g, s)

    def rank(self, g, s):
        return total(ite(s.coin[i], 2 ** i, 0) for i in g.elements)


def flip(s, coins):
    return s.set(coin={c: ~s.coin[c] for c in coins})


MUTANTS = {
    # the guard reads coin 0, which the move does not turn: only Z3 sees it (alone, coin 2 decides)
    "reads-another": (lambda g, s: [move("turn 1,2", guard=s.coin[2] | s.coin[0], update=flip(s, [1, 2]))],
                      VIOLATED, "its guard is not exactly 'coin coin[2] shows heads'"),
    "sets-heads": (lambda g, s: [move("turn 2, set 1", guard=s.coin[2],
                                      update=s.set(coin={2: ~s.coin[2], 1: True}))],
                   VIOLATED, "coin coin[1] is not turned alike"),
    "choices": (lambda g, s: [move("take {k}", guard=s.coin[2], choose=[("k", 0, 1)], update=flip(s, [2]))],
                VIOLATED, "has numeric choices"),
    "cycle": (lambda g, s: [move("a", guard=s.coin[0], update=flip(s, [0, 1])),
                            move("b", guard=s.coin[1], update=flip(s, [1, 0]))],
              VIOLATED, "no order of the coins"),
    "two-guards": (lambda g, s: [move("both", guard=s.coin[1] | s.coin[2], update=flip(s, [1, 2]))],
                   VIOLATED, "its guard is not 'one coin it turns shows heads'"),
    "always-legal": (lambda g, s: [move("turn 1", guard=True, update=flip(s, [1]))],
                     VIOLATED, "its guard is not exactly 'coin coin[1] shows heads' (at {coin[0]: 0, coin[1]: 0, coin[2]: 0})"),
    # a turn written as ite: semantically a flip, proved
    "ite-flip": (lambda g, s: [move("turn 0,2", guard=s.coin[2],
                                    update=s.set(coin={2: ~s.coin[2], 0: ite(s.coin[0], False, True)}))],
                 PROVED, ""),
}


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_mutant_rules_are_refused_with_one_line_or_proved(name):
    make, status, phrase = MUTANTS[name]
    ct = coin_turning(Row(f"ct-{name}", make).rules(Structure.heaps(3)), cache=False)
    assert ct.premise.status == status, ct.premise
    assert phrase in ct.premise.violation and "\n" not in ct.premise.violation
    if status == PROVED:
        assert ct.values == (0, 0, 1)          # coin 2: mex{G(0)} = mex{0} = 1


def test_a_game_whose_position_is_not_one_bool_field_is_not_asked():
    from grundy.spec.games import get_game
    nim = get_game("nim")
    assert coin_turning(nim.rules(Structure.heaps(2)), cache=False).premise.status == NOT_DECLARED
    q = Query(nim, Structure.heaps(2), "normal", "grundy")
    src = CoinTurningSource()
    assert not src.can_answer(Solver().ctx, q) and src.analysis(q) is None


# ----------------------------------------------------------------------------- the source
@pytest.mark.parametrize("m, n", [(3, 3), (3, 4)])
def test_every_position_of_a_small_board_has_the_plain_solvers_value(m, n):
    g = board(CORNERS, m, n)
    states = every_state(g.n)
    solver = Solver(native=False)
    solver.log = log = SourceLog()
    got = solver.grundy_states(CORNERS, g, states)
    assert got == plain().grundy_states(CORNERS, g, states)
    assert log.summary() == {COIN_TURNING_SOURCE: 1}
    assert len(set(got)) >= 4                                # not a constant (3x3: 0..3)


def test_ruler_on_a_row_is_the_ruler_function_and_the_plain_solvers():
    g = RULER.read({"coins": "T" * 9})[0]
    states = every_state(9)
    got = Solver(native=False).grundy_states(RULER, g, states)
    assert got == plain().grundy_states(RULER, g, states)
    assert got[1 << 7] == 8 and got[1 << 3] == 4 and got[1 << 2] == 1


def test_refused_games_misere_play_and_no_decomposition_are_declined():
    src = CoinTurningSource()
    g = board(PEEK, 3, 3)
    assert not src.can_answer(Solver().ctx, Query(PEEK, g, "normal", "grundy"))
    solver = Solver(native=False)
    solver.log = log = SourceLog()
    states = every_state(g.n)[:64]
    assert solver.grundy_states(PEEK, g, states) == plain().grundy_states(PEEK, g, states)
    assert all(COIN_TURNING_SOURCE not in k for k in log.summary())
    g = board(CORNERS, 2, 3)
    assert not src.can_answer(Solver().ctx, Query(CORNERS, g, "misere", "grundy"))
    assert not src.can_answer(Solver(decompose=False).ctx, Query(CORNERS, g, "normal", "grundy"))
    assert src.can_answer(Solver().ctx, Query(CORNERS, g, "normal", "wins"))
    p = Position(CORNERS, g, (0, 0, 0, 0, 0, 1), "misere")        # misère: from the moves, as the reference
    assert Solver(native=False).grundy(p) == plain().grundy(p)


def test_every_source_answers_as_the_reference_on_coin_games():
    g = board(CORNERS, 2, 3)
    for game in (CORNERS, PEEK):
        for conv in ("normal", "misere"):
            seen = check_every_source(lambda: Solver(native=False), game, g, every_state(g.n)[::7], conv)
            assert (COIN_TURNING_SOURCE in seen) == (game is CORNERS and conv == "normal"), (game.name, conv)


# ----------------------------------------------------------------------------- claims
def _claims():
    sys.path.insert(0, str(EXAMPLE))
    try:
        sys.modules["games"] = GAMES
        paper = _load("coin_turning_example_paper", EXAMPLE / "paper.py")
    finally:
        sys.path.remove(str(EXAMPLE))
        sys.modules.pop("games", None)
    return {c.id: c for c in paper.CLAIMS}


def test_a_planted_cell_is_refuted_with_its_cell():
    from grundy.verify import check_claim
    v = check_claim(_claims()["coin-turning/corners-8-planted"])
    assert v.verdict == "refuted", v
    assert '"heads": [[2, 3]]' in v.scope and "claimed 2, actually 1" in v.scope, v.scope


@pytest.mark.slow
@pytest.mark.parametrize("cid", ["coin-turning/corners-8-single", "coin-turning/corners-8-pairs",
                                 "coin-turning/ruler-16", "coin-turning/peek-3"])
def test_the_example_claims(cid):
    from grundy.verify import check_claim
    v = check_claim(_claims()[cid])
    assert v.verdict == "verified", v
    names_premise = "values from coin-turning decomposition, proved by Z3 on the rule" in v.scope
    assert names_premise == (cid != "coin-turning/peek-3"), v.scope


# ----------------------------------------------------------------------------- the soundness suite's plants
SOUND = _load("coin_turning_soundness_plants", Path(__file__).resolve().parent / "soundness" / "coins.py")


def test_the_planted_coin_games_are_coin_turning_on_short_rows_only():
    """tests/soundness/coins.py: the premise proved on short rows, refused beyond (naming the move);
    the planted statement false on rows of 7 by the brute force from the rule in words, true on 5."""
    for game, short, long_, phrase in ((SOUND.PEEK5, 5, 7, "its guard is not exactly 'coin coin[5]"),
                                       (SOUND.SET6, 6, 8, "is not turned alike")):
        assert coin_turning(game.rules(Structure.heaps(short)), cache=False).premise.status == PROVED
        bad = coin_turning(game.rules(Structure.heaps(long_)), cache=False).premise
        assert bad.status == VIOLATED and phrase in bad.violation, bad
    def nim_sum(s):
        v = 0
        for c, up in enumerate(s):
            v ^= (c + 1) * up
        return v
    assert SOUND.peek5_value((1, 0, 0, 0, 0, 1, 0)) == 0 != nim_sum((1, 0, 0, 0, 0, 1, 0))
    assert all(SOUND.peek5_value(s) == nim_sum(s) for s in every_state(5))
