"""Period claims (kind "period"): proved by the periodicity theorem of the rule, refuted by a
heap where the period fails, verified only up to the computed heap where no theorem applies."""
import pytest

from grundy.errors import ClaimError
from grundy.spec import HeapRule, Var, option
from grundy.verify.check import check_claim
from grundy.verify.claims import Claim
from grundy.verify.families import heaps

KAYLES = dict(game="octal", params={"code": "0.77"}, kind="period")


@pytest.fixture(autouse=True)
def _games_forgotten_after():
    """The games these tests register are forgotten after each (the registry as it was)."""
    from grundy.spec import GAMES
    with GAMES.scoped():
        yield


class TakeOneToThree(HeapRule):
    """Take 1, 2 or 3 tokens: written by hand, not as a code."""
    name = "test-take-1-3"

    def options(self, g, n):
        yield option("take {k} from heap {heap}", choose=[("k", 1, 3)], guard=n >= Var.int("k"),
                     parts=lambda k: [n - k])


class TakeOneToThreeButFar(HeapRule):
    """As TakeOneToThree, and a heap of 200 may also be emptied (differs from 0.333 at 200 only)."""
    name = "test-take-1-3-far"

    def options(self, g, n):
        yield option("take {k} from heap {heap}", choose=[("k", 1, 3)], guard=n >= Var.int("k"),
                     parts=lambda k: [n - k])
        yield option("empty heap {heap}", guard=n == 200, parts=[0])


def test_kayles_period_proved():
    v = check_claim(Claim("t/kayles", period=(71, 12), expect="proved", **KAYLES))
    assert v.verdict == "proved", v.scope
    assert "Guy and Smith" in v.scope and "0.77" in v.scope


def test_planted_kayles_period_from_70_refuted():
    v = check_claim(Claim("t/kayles-70", period=(70, 12), expect="refuted", **KAYLES))
    assert v.verdict == "refuted"
    c = v.counterexample
    assert c.witness["heaps"] == [82] and (c.claimed, c.actual) == (6, 2)     # G(70) = 6, G(82) = 2


def test_a_later_start_and_a_multiple_are_periods_too():
    assert check_claim(Claim("t/k2", period=(100, 24), **KAYLES)).verdict == "proved"
    assert check_claim(Claim("t/k3", period=(71, 6), **KAYLES)).verdict == "refuted"


def test_hand_written_rule_gets_the_codes_theorem():
    v = check_claim(Claim("t/take3", game=TakeOneToThree(), kind="period", period=(0, 4), expect="proved"))
    assert v.verdict == "proved", v.scope
    assert "hand-written" in v.scope and "0.333" in v.scope


def test_a_rule_that_differs_from_the_code_is_not_proved_by_it():
    v = check_claim(Claim("t/take3-far", game=TakeOneToThreeButFar(), kind="period", period=(0, 4),
                          bounds={"heap": 150}))
    assert v.verdict == "verified" and "no theorem applies" in v.scope, v.scope
    v = check_claim(Claim("t/take3-far2", game=TakeOneToThreeButFar(), kind="period", period=(0, 4),
                          bounds={"heap": 300}))
    assert v.verdict == "refuted"            # G(200) = mex{G(197..199), 0}: the far option shows


def test_subtraction_set_and_arithmetic_periodicity():
    v = check_claim(Claim("t/s134", game="subtraction", params={"set": [1, 3, 4]}, kind="period",
                          period=(0, 7)))
    assert v.verdict == "proved", v.scope
    v = check_claim(Claim("t/s134-saltus", game="subtraction", params={"set": [1, 3, 4]}, kind="period",
                          period=(0, 7, 1)))
    assert v.verdict == "refuted"


def test_infinite_code_is_verified_up_to_the_bound_only():
    # 0.333...: nim on one heap as a code: G(n) = n, arithmetic-periodic with p = 1, s = 1
    v = check_claim(Claim("t/nim-code", game="octal", params={"code": "0.333333333333"}, kind="period",
                          period=(0, 1, 1), bounds={"heap": 12}))
    assert v.verdict == "verified" and "G(0..12)" in v.scope     # G(n) = n up to the last digit
    v = check_claim(Claim("t/nim-code2", game="octal", params={"code": "0.333333333333"}, kind="period",
                          period=(0, 1, 1), bounds={"heap": 30}))
    assert v.verdict == "refuted" and v.counterexample.witness["heaps"] == [13]    # G(13) = 0
    v = check_claim(Claim("t/lasker", game="lasker-nim", kind="period", period=(1, 4, 4), bounds={"heap": 60}))
    assert v.verdict == "verified" and "arithmetic" in v.scope and "G(0..60)" in v.scope


def test_period_claims_are_checked_when_written():
    with pytest.raises(ClaimError, match="period must be"):
        Claim("t/bad", kind="period", game="octal", period=(1,))
    with pytest.raises(ClaimError, match="p >= 1"):
        Claim("t/bad", kind="period", game="octal", period=(1, 0))
    with pytest.raises(ClaimError, match="no statement"):
        Claim("t/bad", kind="period", game="octal", period=(1, 2), statement=lambda g, s: True)
    with pytest.raises(ClaimError, match="on one heap"):
        Claim("t/bad", kind="period", game="octal", period=(1, 2), family=heaps(2))
    with pytest.raises(ClaimError, match="params="):
        Claim("t/bad", kind="char", game="nim", family=heaps(1), statement=lambda g, s: True, params={"a": 1})


class HandKayles(HeapRule):
    """Kayles by hand: take 1 or 2 from a heap, leaving 0, 1 or 2 heaps."""
    name = "test-hand-kayles"

    def options(self, g, n):
        yield option("take {k}, leave {a} and the rest", choose=[("k", 1, 2), ("a", 0, (n - Var.int("k")) // 2)],
                     guard=n >= Var.int("k"), parts=lambda k, a: [a, n - k - a])


def test_hand_written_kayles_gets_guy_smith():
    v = check_claim(Claim("t/hk", game=HandKayles(), kind="period", period=(71, 12)))
    assert v.verdict == "proved" and "proved by Z3" in v.scope, v.scope


def test_apparent_needs_three_repeats_over_half_the_range():
    from grundy.solvers.heaps import period
    twice = list(range(20)) + [5, 6, 7] * 2          # the tail repeats twice only
    assert period(None, twice) is None
    late = list(range(40)) + [1, 2] * 3              # three times, but far less than half of G(0..N)
    assert period(None, late) is None
    for vals in (twice, late, [0, 1] * 30, list(range(9)) + [3, 1, 4] * 5):
        p = period(None, vals)
        if p is not None and not p.proved:
            n = len(vals)
            assert n - p.preperiod >= 3 * p.period and 2 * (n - p.preperiod) >= n


def test_values_period_cli_proves_a_hand_written_rule(tmp_path):
    import contextlib
    import io

    from grundy.cli import main
    (tmp_path / "take3.py").write_text(
        "from grundy.spec import HeapRule, Var, option\n"
        "class T(HeapRule):\n"
        "    name = 'cli-take-1-3'\n"
        "    def options(self, g, n):\n"
        "        yield option('take {k}', choose=[('k', 1, 3)], guard=n >= Var.int('k'), parts=lambda k: [n - k])\n"
        "GAME = T()\n")
    from grundy.spec import GAMES
    out = io.StringIO()
    with GAMES.scoped(), contextlib.redirect_stdout(out):      # the file's game gone after the test
        code = main(["values", "--games", str(tmp_path / "take3.py"), "cli-take-1-3", "10", "--period"])
    assert code == 0 and "period 4 from n = 0 (proved" in out.getvalue(), out.getvalue()
