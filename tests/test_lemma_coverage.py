"""A lemma answers only what its check covered (issue 37, item 1): its ``assume``, its bounds,
its bit width, its structures, its game by content; every value read is re-solved by the
reference engine; a name is no identity (games, theorems, lemma ids)."""
import pytest

import grundy
from grundy import HeapRule, option
from grundy.errors import GameError
from grundy.spec.expr import ite
from grundy.spec.games import GAMES
from grundy.spec.position import Position, read_position
from grundy.spec.structure import Structure
from grundy.verify import Claim, bitvec, heaps, value_of
from grundy.verify.check import check_claim


def G(n):
    return value_of({"game": "nim", "heaps": [n]})


def small(methods=("explicit",), **kw):
    """True as stated: a Nim heap h <= 10 is worth h (the statement says 0 beyond, where the
    assume excludes it)."""
    fields = dict(game="nim", kind="grundy", family=heaps(1), bounds={"heap": 10},
                  assume=lambda g, s: s.heap[0] <= 10, statement=lambda g, s: ite(s.heap[0] <= 10, s.heap[0], 0))
    fields.update(kw)
    return Claim(f"cov/small-{'-'.join(map(str, methods))}", methods=list(methods), **fields)


def using(lemma, statement, name="use"):
    return Claim(f"cov/{name}", game="nim", kind="char", family=heaps(2), bounds={"heap": 6}, uses=[lemma],
                 statement=statement)


FALSE_READING = lambda g, s: s.heap[0] == s.heap[1] ^ G(20)           # noqa: E731  (false: G(20) = 20)
BOUTON_20 = lambda g, s: s.heap[0] == s.heap[1] ^ G(20) ^ 20         # noqa: E731  (true)


@pytest.mark.parametrize("methods", [("explicit",), ("explicit", "smt")])
def test_a_value_outside_the_lemmas_assume_is_never_read(methods):
    lemma = small(methods)
    assert check_claim(lemma).verdict == ("proved" if "smt" in methods else "verified")
    for statement in (FALSE_READING, BOUTON_20):
        v = check_claim(using(lemma, statement))
        assert v.verdict == "unknown", (v.verdict, v.scope)
        assert '{"heaps": [20]}' in v.detail and lemma.id in v.detail, v.detail
        want = "its assume is false there" if "smt" in methods else "outside the box its sweep covered"
        assert want in v.detail, v.detail


def test_bouton_through_a_lemma_that_covers_the_value_is_verified_and_the_false_reading_refuted():
    wide = small(("explicit", "smt"), assume=lambda g, s: s.heap[0] <= 30,
                 statement=lambda g, s: ite(s.heap[0] <= 30, s.heap[0], 0), bounds={"heap": 30})
    v = check_claim(using(wide, BOUTON_20))
    assert v.verdict == "verified", (v.scope, v.detail)
    assert "1 value read re-solved by the reference engine" in v.scope, v.scope
    v = check_claim(using(wide, FALSE_READING))
    assert v.verdict == "refuted" and v.counterexample.witness["heaps"] == [0, 0], v.scope


def test_a_value_beyond_the_box_or_the_bit_width_is_not_covered():
    boxed = Claim("cov/box", game="nim", kind="grundy", family=heaps(1), bounds={"heap": (3, 9)},
                  statement=lambda g, s: s.heap[0])
    v = check_claim(using(boxed, lambda g, s: (G(2) ^ s.heap[0]) == (G(2) ^ s.heap[1]), "below-box"))
    assert v.verdict == "unknown" and "heap 2 is outside the box" in v.detail, v.detail
    assert check_claim(using(boxed, lambda g, s: (G(9) ^ s.heap[0]) == (G(9) ^ s.heap[1]), "in-box")).verdict \
        == "verified"
    narrow = Claim("cov/bits", game="nim", kind="grundy", family=heaps(1), bounds={"heap": 3},
                   statement=lambda g, s: s.heap[0], methods=[bitvec(6)])
    assert check_claim(narrow).verdict == "proved"
    v = check_claim(using(narrow, lambda g, s: (G(63) ^ s.heap[0]) == (G(63) ^ s.heap[1]), "in-width"))
    assert v.verdict == "verified", v.detail
    v = check_claim(using(narrow, lambda g, s: (G(64) ^ s.heap[0]) == (G(64) ^ s.heap[1]), "beyond-width"))
    assert v.verdict == "unknown" and "beyond its proof on 6-bit vectors" in v.detail, v.detail


def test_a_value_on_another_structure_or_in_the_other_convention_is_not_covered():
    one = Claim("cov/one-heap", game="nim", kind="grundy", family=heaps(1), bounds={"heap": 9},
                statement=lambda g, s: s.heap[0])
    pair = lambda g, s: value_of({"game": "nim", "heaps": [1, 2]}) + s.heap[0] == s.heap[1] + 3   # noqa: E731
    v = check_claim(using(one, pair, "two-heaps"))
    assert v.verdict == "unknown" and "no structure of 2 heaps" in v.detail, v.detail
    misere = lambda g, s: value_of({"game": "nim", "heaps": [2], "convention": "misere"}) + s.heap[0] == s.heap[1] + 2  # noqa: E731,E501
    v = check_claim(using(one, misere, "misere"))
    assert v.verdict == "unknown" and "normal play, the position is misere" in v.detail, v.detail


def test_a_lemma_chain_stops_at_the_first_gap():
    base = small()
    middle = Claim("cov/middle", game="nim", kind="grundy", family=heaps(1), bounds={"heap": 4}, uses=[base],
                   statement=lambda g, s: s.heap[0] + G(12) - 12)          # base does not cover 12
    top = using(middle, lambda g, s: (G(3) ^ s.heap[0]) == (G(3) ^ s.heap[1]), "top")
    v = check_claim(top)
    assert v.verdict == "unknown" and "cov/middle" in v.detail and "unknown" in v.detail, v.detail


def test_a_broken_lemma_value_is_caught_by_the_reference_engine(monkeypatch):
    """A lemma source that answers a wrong value (a bug planted in how the statement is read):
    the reference engine re-solves the position read and the verdict is error, not a pass."""
    from grundy.verify.check import lemmas
    wide = small(("explicit",), bounds={"heap": 30}, assume=None, statement=lambda g, s: s.heap[0])
    real = lemmas._claimed
    monkeypatch.setattr(lemmas, "_claimed", lambda lemma, pos, ctx: real(lemma, pos, ctx) + 1)
    claim = using(wide, lambda g, s: (G(20) ^ s.heap[0]) == (G(20) ^ s.heap[1]), "broken")
    v = check_claim(claim)
    assert v.verdict == "error" and "value_of" in v.detail and "reference engine" in v.detail, v.detail
    v = check_claim(claim, recheck="none")          # nothing re-solved: only the reading decides
    assert v.verdict == "verified"


class TakeSome(HeapRule):
    summary = "take one of the amounts from a heap"

    def __init__(self, name, amounts):
        self.name, self.amounts = name, amounts

    def options(self, g, n):
        for a in self.amounts:
            yield option(f"take {a} from heap {{heap}}", guard=n >= a, parts=[n - a])


def test_two_different_games_may_not_share_a_name_and_the_same_game_again_is_harmless():
    with GAMES.scoped():
        first = grundy.spec.register(TakeSome("t-cov-take", (1, 2, 3)))
        assert grundy.spec.register(TakeSome("t-cov-take", (1, 2, 3))) is not None     # same rules
        with pytest.raises(GameError, match=r"two games named 't-cov-take' with other rules: .*test_lemma_cov"):
            grundy.spec.register(TakeSome("t-cov-take", (1, 2)))
        assert GAMES["t-cov-take"].amounts == first.amounts


def test_a_lemma_and_a_theorem_are_about_rules_not_names():
    with GAMES.scoped():
        mine = grundy.spec.register(TakeSome("t-cov-few", (1, 2, 3)))
        other = TakeSome("t-cov-few", (1, 2))                          # never registered: same name
        pos = Position(other, Structure.heaps(1), (20,), "normal")
        lemma = Claim("cov/few", game=mine, kind="grundy", family=heaps(1), bounds={"heap": 30},
                      statement=lambda g, s: s.heap[0] % 4)
        v = check_claim(lemma)
        assert v.verdict == "verified"
        from grundy.verify.check.covered import uncovered
        assert "another game named 't-cov-few'" in uncovered(lemma, v, pos)
        assert uncovered(lemma, v, Position(mine, Structure.heaps(1), (20,), "normal")) is None

        from grundy.solvers.solver import Solver
        from grundy.verify.serve import serve
        theorem = Claim("cov/few-mod3", game=mine, kind="grundy", family=heaps(1), bounds={"heap": 12},
                        statement=lambda g, s: s.heap[0] % 4, methods=["explicit", "smt"], expect="proved",
                        serves=True)
        s = Solver()
        assert "the solver answers by it" in serve(s, [theorem], cache=False)[0]
        # a formula proved about take-{1,2,3} does not answer take-{1,2}, whatever its name
        assert s.grundy(Position(other, Structure.heaps(2), (5, 7), "normal")) == (5 % 3) ^ (7 % 3)
        assert not s.theorems.used
        assert s.grundy(read_position({"game": "t-cov-few", "heaps": [5, 7]})) == (5 % 4) ^ (7 % 4)
        assert s.theorems.used


def test_two_lemmas_with_one_id_are_refused():
    a = Claim("cov/same-id", game="nim", kind="grundy", family=heaps(1), bounds={"heap": 9},
              statement=lambda g, s: s.heap[0])
    b = Claim("cov/same-id", game="nim", kind="grundy", family=heaps(1), bounds={"heap": 9},
              statement=lambda g, s: s.heap[0] % 2)
    c = Claim("cov/two-ids", game="nim", kind="char", family=heaps(2), bounds={"heap": 3}, uses=[a, b],
              statement=lambda g, s: s.heap[0] == s.heap[1])
    v = check_claim(c)
    assert v.verdict == "unknown" and "two different claims have the id 'cov/same-id'" in v.detail, v.detail


def test_a_worker_finds_a_claim_by_its_id_only_in_the_text_the_run_read(tmp_path):
    from grundy.verify.schedule import chunks
    f = tmp_path / "t.py"
    f.write_text('from grundy.verify import Claim, heaps\nCLAIMS = [Claim("w/one", game="nim", kind="char", '
                 'family=heaps(2), bounds={"heap": 3}, statement=lambda g, s: s.heap[0] == s.heap[1])]\n')
    text = chunks.file_digest(str(f))
    assert chunks._claim(str(f), "w/one", text).id == "w/one"
    chunks._LOADED.pop(str(f))
    f.write_text(f.read_text().replace("s.heap[0] == s.heap[1]", "s.heap[0] <= s.heap[1]"))
    with pytest.raises(RuntimeError, match="changed while its claims were checked"):
        chunks._claim(str(f), "w/one", text)


def test_a_theorem_file_whose_game_takes_a_taken_name_is_an_error_and_the_game_answers_itself(tmp_path, capsys):
    """The issue's reproduction: games.py plays take-{1,2,3} as take-few; a theorem file builds its
    own take-few (take-{1,2}) and proves G(n) = n mod 3 for it. grundy solve answers the position of
    the games file's game by its own rules (2), says the clash in one line, and exits 2."""
    from grundy.cli import main
    rules = ('from grundy import HeapRule, option\n\nclass TakeFew(HeapRule):\n    name = "t-take-few"\n'
             '    def __init__(self, amounts=(1, 2, 3)):\n        self.amounts = amounts\n'
             '    def options(self, g, n):\n        for a in self.amounts:\n'
             '            yield option(f"take {a} from heap {{heap}}", guard=n >= a, parts=[n - a])\n\n'
             'GAME = TakeFew()\n')
    (tmp_path / "games.py").write_text(rules)
    (tmp_path / "theorems.py").write_text(
        "import importlib.util, pathlib\nfrom grundy.verify import Claim, heaps\n"
        "spec = importlib.util.spec_from_file_location('tf_copy', pathlib.Path(__file__).with_name('games.py'))\n"
        "mod = importlib.util.module_from_spec(spec); spec.loader.exec_module(mod)\n"
        "CLAIMS = [Claim('take/mod3', game=mod.TakeFew((1, 2)), kind='grundy', family=heaps(1), bounds={'heap': 30},\n"
        "                statement=lambda g, s: s.heap[0] % 3, methods=['explicit', 'smt'], expect='proved',"
        " serves=True)]\n")
    with GAMES.scoped():
        code = main(["solve", "t-take-few", "5", "7", "--games", str(tmp_path / "games.py"),
                     "--theorems", str(tmp_path / "theorems.py")])
    out, err = capsys.readouterr()
    assert code == 2
    assert out.splitlines()[1].split()[-2:] == ["2", "N"], out            # (5 mod 4) ^ (7 mod 4) = 1 ^ 3
    assert "two games named 't-take-few' with other rules" in err and "answered by theorem" not in err, err
