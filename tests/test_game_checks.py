"""Declared game properties are checked, not trusted (issue 9 item 3): grundy.solvers.gamecheck,
the solvers' domain checks, the heap count on every path, ``grundy check``."""
from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from grundy import Solver, Structure
from grundy.cli import main
from grundy.errors import RuleError
from grundy.solvers.gamecheck import check_game, parse_structure
from grundy.solvers.native import build
from grundy.spec import make_position
from grundy.spec.games import GAMES

sys.path.insert(0, str(Path(__file__).parent / "soundness"))
import _bad_games  # noqa: E402  (the test games: registered only in this process)

SEEDS = sorted(GAMES)                      # the listed games: the test games are unlisted


# ------------------------------------------------------------------ every seed game passes
@pytest.mark.parametrize("name", SEEDS)
def test_every_seed_game_passes_its_checks(name):
    report = check_game(name, smt=False)
    assert report.checks, name
    assert report.ok, "\n".join(report.lines())
    assert all(c.status in ("ok", "not declared") for c in report.checks)


def test_seed_games_pass_with_z3_too():
    for name in ("nim", "wythoff", "edge-nim", "grim"):
        report = check_game(name)
        assert report.ok, "\n".join(report.lines())
        assert any("Z3: proved" in c.detail for c in report.checks), name


HEAP_RULE_GAMES = [n for n in SEEDS if GAMES[n].structure == "heaps" and hasattr(GAMES[n], "one_heap_rules")]


@pytest.mark.parametrize("name", HEAP_RULE_GAMES)
def test_every_heap_rule_game_passes_its_checks_with_z3(name, capsys):
    """A split needs an empty slot: on a row of full slots it has none, by design (a position read
    is laid out with room). Z3 asks the domains of the one-heap rule on a lone heap instead."""
    assert main(["check", name]) == 0, capsys.readouterr().out
    assert "one-heap rule, on a lone heap" in capsys.readouterr().out


def test_a_heap_rule_whose_part_leaves_the_domain_is_still_caught_by_z3():
    from grundy import HeapRule, option

    class Unguarded(HeapRule):
        name = "t-unguarded-split"

        def options(self, g, n):
            yield option("take 1 and split the rest at {a}", choose=[("a", 0, n)], parts=lambda a: [a, n - 1 - a])

    report = check_game(Unguarded(), [Structure.heaps(1)], positions=None, max_states=0)
    dom = [c for c in report.checks if c.property == "domains"]
    assert dom and dom[0].status == "violated" and "found by Z3" in dom[0].detail, report.lines()


# ------------------------------------------------------------------ each check catches its bad game
@pytest.mark.parametrize("prop", sorted(_bad_games.BAD))
def test_each_check_catches_its_planted_game(prop):
    game = _bad_games.BAD[prop]
    report = check_game(game, smt=False)
    assert not report.ok
    first = report.violations[0]
    assert first.property == prop
    assert first.detail.startswith(f"{game.name}: ")
    assert "\n" not in first.detail
    assert '{"heaps": [' in first.detail                 # the position
    # the other properties of the same game hold
    others = {c.property for c in report.violations}
    assert others == {prop}


def test_twins_with_correct_declarations_pass():
    for game in _bad_games.GOOD:
        assert check_game(game).ok, game.name


def test_chomp_declared_symmetric_is_not_used_and_reported():
    """The solver does not reduce by a symmetry Z3 finds violated: the values are the rule's own
    (two-row Chomp [2, 1] is P, [1, 2] is no position of it but the swapped rule's N), and the
    declaration, made by the author, is reported."""
    bad = _bad_games.BAD["symmetry"]
    good = _bad_games.GOOD[0]                               # the same rule, symmetric = False
    for native in (False, "always"):
        s = Solver(native=native, reduce_after=0)
        for h in ([2, 1], [1, 2], [5, 3], [3, 5]):
            want = Solver(native=False).outcome(make_position(good, Structure.heaps(2), {"heap": h}))
            assert s.outcome(make_position(bad, Structure.heaps(2), {"heap": h})) == want, h
        (line,) = s.violations
        assert line.startswith("test-chomp-symmetric: the rule does not commute with swapping heaps 0 and 1")
        assert '{"heaps": [' in line and "\n" not in line


def test_decomposition_violation_names_the_move():
    report = check_game(_bad_games.BAD["decomposition"], [Structure.heaps(2)], smt=False)
    (bad,) = report.violations
    assert "(the XOR of theirs)" in bad.detail and "move 'take" in bad.detail


# ------------------------------------------------------------------ field domains while solving
@pytest.mark.parametrize("native", [False, "always"])
def test_a_rule_without_a_guard_stops_at_the_first_offending_move(native):
    if native and not build.available():
        pytest.skip("no C compiler")
    game = _bad_games.BAD["domains"]
    pos = make_position(game, Structure.heaps(2), {"heap": [30, 41]})
    t0 = time.monotonic()
    with pytest.raises(RuleError) as e:
        Solver(native=native).grundy(pos)     # no vetting: the solvers' own check
    assert time.monotonic() - t0 < 10
    msg = str(e.value)
    assert msg.startswith("test-take-unguarded: move 'take ")
    assert "heap[" in msg and "its domain: >= 0" in msg and '{"heaps": [' in msg


def test_the_kernel_and_the_python_path_report_the_same_violation():
    if not build.available():
        pytest.skip("no C compiler")
    game = _bad_games.BAD["domains"]
    pos = make_position(game, Structure.heaps(1), {"heap": [2]})
    msgs = []
    for native in (False, "always"):
        with pytest.raises(RuleError) as e:
            Solver(native=native).grundy(pos)
        msgs.append(str(e.value))
    assert msgs[0] == msgs[1]
    assert "to -1" in msgs[0]


def test_updates_plainly_in_their_domain_get_no_check():
    from grundy.solvers.explicit.compile import compile_rules
    edge = compile_rules(GAMES["edge-nim"].rules(parse_structure("path:3")))
    nim = compile_rules(GAMES["nim"].rules(Structure.heaps(2)))
    wyg = compile_rules(GAMES["wyg"].rules(parse_structure("path:3")))
    unguarded = compile_rules(_bad_games.BAD["domains"].rules(Structure.heaps(2)))
    edge.successors((1, 1, 1))            # each move function is compiled when first called
    nim.successors((1, 1))
    wyg.successors(tuple(1 if i < 5 else -1 for i in range(len(wyg.rules.schema))))
    unguarded.successors((5, 5))
    src = "".join(f.__source__ for f in edge.successors.__globals__["SUCCESSORS_BY_VALUE"].values())
    assert "_domain" not in src                             # weight := a choice >= 0, token := a vertex
    assert "_domain" not in nim.successors.__source__       # heap - k, 1 <= k <= heap: at least 0
    wyg_src = "".join(f.__source__ for f in wyg.successors.__globals__.get("SUCCESSORS_BY_VALUE", {}).values())
    assert "min(" in wyg_src + wyg.successors.__source__ and "_domain" not in wyg_src + wyg.successors.__source__
    assert "_domain" in unguarded.successors.__source__     # heap - k, k up to 3 whatever the heap: checked


# ------------------------------------------------------------------ a fixed heap count, every path
@pytest.mark.parametrize("name,count", [("wythoff", 2), ("wynnie", 2), ("euclid", 2), ("restricted-nim", 1)])
def test_other_heap_counts_are_refused_on_every_path(name, count):
    game = GAMES[name]
    assert game.heap_count == count
    other = Structure.heaps(count + 1)
    with pytest.raises(RuleError, match=f"exactly {count} heap"):
        game.rules(other)
    with pytest.raises(RuleError, match=f"exactly {count} heap"):
        Solver().grundy(make_position(game, other, {"heap": [1] * (count + 1)}))
    from grundy.verify import Claim, check_claim, heaps
    for method in ("explicit", "smt"):
        v = check_claim(Claim("x", game=name, kind="char", family=heaps(count + 1), bounds={"heap": 3},
                              statement=lambda g, s: s.heap[0] == 0, methods=[method]))
        assert v.verdict == "error", (method, v.verdict, v.detail)
        assert "exactly" in v.detail


# ------------------------------------------------------------------ the command line
def test_cli_check_passes_a_seed_game(capsys):
    assert main(["check", "nim", "heaps:2", "--no-smt"]) == 0
    out = capsys.readouterr().out
    assert "symmetry" in out and "decomposition" in out and "0 violated" in out


def test_cli_check_reports_a_violation(capsys):
    assert main(["check", "test-chomp-symmetric", "heaps:2", "--no-smt"]) == 1
    out = capsys.readouterr().out
    assert "violated" in out and "swapping heaps 0 and 1" in out


@pytest.mark.parametrize("argv,needle", [
    (["check", "no-such-game"], "unknown game"),
    (["check", "wythoff", "heaps:3"], "exactly 2 heaps"),
    (["check", "nim", "cycle:x"], "structure 'cycle:x'"),
    (["check", "nim", "--position", "{bad"], "malformed JSON"),
])
def test_cli_check_bad_input_is_one_line_exit_2(capsys, argv, needle):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert needle in err and err.count("\n") == 1


def test_cli_check_from_a_position(capsys):
    assert main(["check", "edge-nim", "--no-smt", "--position",
                 '{"game": "edge-nim", "edges": [[0, 1, 2], [1, 2, 1]], "token": 0}']) == 0
    assert "1 given position" in capsys.readouterr().out


def test_cli_solve_names_a_domain_violation(capsys, tmp_path):
    import json

    f = tmp_path / "p.json"
    f.write_text(json.dumps({"game": "test-take-unguarded", "heaps": [5]}))
    assert main(["solve", str(f)]) == 2
    err = capsys.readouterr().err
    assert "test-take-unguarded: move 'take" in err and err.count("\n") == 1


# ------------------------------------------------------------------ the planted claims
@pytest.mark.parametrize("name", ["heapcount.py", "declared.py", "domain.py"])
def test_planted_claims_get_their_expected_verdicts(name):
    from grundy.verify import check_claim
    from grundy.verify.loading import load_file
    claims = load_file(Path(__file__).parent / "soundness" / name)
    assert any(c.expect == "error" for c in claims) and any(c.expect != "error" for c in claims)
    for c in claims:
        v = check_claim(c)
        assert v.verdict == c.expect, (c.id, v.verdict, v.detail)


def test_test_games_are_found_by_name_but_not_listed():
    assert "test-chomp" in GAMES and GAMES["test-chomp"] is _bad_games.GOOD[0]
    assert GAMES.get("test-chomp") is _bad_games.GOOD[0]
    assert "test-chomp" not in set(GAMES) and "test-chomp" not in list(GAMES.keys())
    from grundy.spec.games import register
    with pytest.raises(RuntimeError, match="two games named 'nim'"):
        register(type(GAMES["nim"])(), listed=False)       # another game of a taken name
    register(GAMES["nim"])                                  # the same object again: harmless


def test_an_update_that_is_no_expression_names_the_move_and_slot():
    """A move's update of a string (a typo in a user's game) is refused where the move is
    written, naming the move and the slot; ints and bools are lifted to expressions."""
    from grundy.spec import move
    with pytest.raises(TypeError, match=r"move 'take': the update of 3 must be an expression.*str 'x'"):
        move("take", update={3: "x"})
    m = move("take", update={3: 0, 4: True})
    assert all(hasattr(e, "op") for e in m.update.values())
