"""Claims as researchers write them: tables as data, families that list positions."""
import pytest

from grundy.solvers.heaps import takebreak_run
from grundy.spec import Structure, parse_octal
from grundy.verify import Claim, ClaimError, heaps, positions
from grundy.verify.check import check_claim, check_part

# restricted-nim's Grundy values for n = 1, 2, ... (the selfref thesis, Table 2.2)
RESTRICTED = [0, 0, 1, 0, 2, 1, 3, 0, 4, 2, 5, 1, 6, 3, 7, 0, 8, 4, 9, 2, 10]


@pytest.fixture(autouse=True)
def _forget_test_games():
    """Games registered by a test are forgotten after it (other tests list every game)."""
    from grundy.spec.registry import GAMES as registry
    with registry.scoped():
        yield


def test_a_table_as_a_list_checks_exactly_its_positions_and_catches_a_planted_error():
    # nim: the value of a heap is its size
    ok = Claim("t/nim-table", game="nim", table=list(range(12)))
    v = check_claim(ok)
    assert v.verdict == "verified" and v.scope.startswith("the table's 12 heaps: 12 positions")
    bad = list(range(12))
    bad[9] = 8
    v = check_claim(Claim("t/nim-table-bad", game="nim", table=bad, expect="refuted"))
    assert v.verdict == "refuted"
    assert (v.counterexample.witness, v.counterexample.claimed, v.counterexample.actual) == \
        ({"game": "nim", "heaps": [9]}, 8, 9)


def test_a_table_as_a_dict_of_states_with_outcomes_and_values():
    table = {(1, 1): "P", (1, 2): "N", (1, 2, 3): "P", (2, 5): 7, 4: 4}
    assert check_claim(Claim("t/dict", game="nim", table=table)).verdict == "verified"
    wrong = {**table, (2, 2, 2): "P"}
    v = check_claim(Claim("t/dict-bad", game="nim", table=wrong, expect="refuted"))
    assert v.verdict == "refuted" and v.counterexample.witness["heaps"] == [2, 2, 2]


def test_a_table_on_the_structures_of_a_family():
    c = Claim("t/rn", game="restricted-nim", table={n + 1: v for n, v in enumerate(RESTRICTED)}, family=heaps(1))
    v = check_claim(c)
    assert v.verdict == "verified", v.detail or v.scope
    assert v.scope == ("the table's 21 heaps on 1 heap: 21 positions; "
                       "cross-checked by the reference engine at 21 positions; values from Python search")


@pytest.mark.parametrize("fields,match", [
    (dict(table=[0, 1], statement=lambda g, s: 0), "not both"),
    (dict(table=[]), "table: is empty"),
    (dict(table=[0, -1]), "must be a Grundy value"),
    (dict(table={"x": 1}), "a key must be an int or a tuple"),
    (dict(table=["P"], kind="grundy"), "Grundy values"),
    (dict(table=[0], kind="char"), "serves kinds"),
    (dict(table=[0], methods=["explicit", "smt"]), "explicit method only"),
    (dict(table=[0], bounds={"heap": 3}), "takes no bounds"),
])
def test_bad_tables_are_one_line_claim_errors(fields, match):
    with pytest.raises(ClaimError, match=match):
        Claim("t/bad", game="nim", **fields)


def test_a_family_of_listed_positions_checks_correlated_positions_only():
    # grim on P_n against octal 0.6 at n: the start position of each path, nothing else
    fam = positions(lambda: ({"game": "grim", "edges": [[i, i + 1] for i in range(n - 1)]} for n in range(2, 25)),
                    "P_2..P_24")
    octal = takebreak_run(parse_octal("0.6"), 30).values
    ok = Claim("t/grim-paths", game="grim", kind="grundy", family=fam, statement=lambda g, s: octal[g.n])
    v = check_claim(ok)
    assert v.verdict == "verified" and "23 positions" in v.scope
    off = Claim("t/grim-paths-bad", game="grim", kind="grundy", family=fam, expect="refuted",
                statement=lambda g, s: octal[g.n - 1])
    assert check_claim(off).verdict == "refuted"
    # cut into chunks as a parallel run does: each part checks its own positions
    parts = [check_part(ok, a, b) for a, b in ((0, 10), (10, 23))]
    assert [n for _, n in parts] == [10, 13] and all(v.verdict == "verified" for v, _ in parts)


def test_listed_states_on_structures_and_their_domains():
    fam = positions(lambda: ((Structure.heaps(2), (n, n)) for n in range(15)), "equal pairs")
    c = Claim("t/pairs", game="nim", kind="char", family=fam, statement=lambda g, s: s.heap[0] == s.heap[1])
    assert check_claim(c).verdict == "verified"
    bad = positions([(Structure.heaps(2), (1, -1))])
    v = check_claim(Claim("t/neg", game="nim", kind="char", family=bad, statement=lambda g, s: True))
    assert v.verdict == "error" and "outside the field's domain" in v.detail
    wrong_size = positions([(Structure.heaps(2), (1, 2, 3))])
    v = check_claim(Claim("t/size", game="nim", kind="char", family=wrong_size, statement=lambda g, s: True))
    assert v.verdict == "error" and "does not fit" in v.detail
    other_game = positions([{"game": "wythoff", "heaps": [1, 2]}])
    v = check_claim(Claim("t/other", game="nim", kind="char", family=other_game, statement=lambda g, s: True))
    assert v.verdict == "error" and "not of the claim's game" in v.detail
    mis = positions([{"game": "nim", "heaps": [1], "convention": "misere"}])
    v = check_claim(Claim("t/conv", game="nim", kind="char", family=mis, statement=lambda g, s: True))
    assert v.verdict == "error" and "position in misère play" in v.detail and "never switched" in v.detail


def test_families_of_positions_and_of_structures_do_not_mix():
    with pytest.raises(TypeError):
        heaps(1) + positions([])
    with pytest.raises(ClaimError, match="needs a family of positions"):
        Claim("t/sum", game="sum", kind="outcome", family=heaps(1), statement=lambda g, s: True)


def test_a_game_file_error_in_a_sibling_module_names_both_lines(tmp_path):
    from grundy.spec import GameError, load_games
    (tmp_path / "helper.py").write_text("def f():\n    return missing_name\n\nVALUE = f()\n")
    (tmp_path / "g.py").write_text("import grundy\nfrom helper import VALUE\n")
    with pytest.raises(GameError) as e:
        load_games(tmp_path / "g.py")
    msg = str(e.value)
    assert msg.startswith(f"{tmp_path / 'g.py'}:2 (at {tmp_path / 'helper.py'}:2): NameError")
