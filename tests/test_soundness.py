"""The soundness suite (issue 9): planted false claims must be caught, true controls must pass.

``tests/soundness/`` holds one theorem file per class of false pass (vacuous checks, symmetry,
misère values, exactness, certificates, reach, witnesses, ...); every claim records the verdict
it must get. This file runs them all (in two worker processes, as ``grundy verify`` does) and
checks every verdict, then the things a verdict alone does not show: what is refused when a file
loads, what a witness shows, how a position is read, misère values on both solver paths.
"""
from __future__ import annotations

import json
import random
import textwrap
import warnings
from pathlib import Path

import pytest

import grundy
from grundy.cli import main
from grundy.solvers.native.kernel import MISERE_GRUNDY
from grundy.solvers.solver import Solver
from grundy.spec import read_position
from grundy.verify import Claim, heaps
from grundy.verify.claims import ClaimError
from grundy.verify.loading import load
from grundy.verify.schedule.pool import run

SUITE = Path(__file__).resolve().parent / "soundness"
FALSE = ("refuted", "error")          # what a planted false claim must get


@pytest.fixture(scope="module")
def verdicts():
    claims = load([str(SUITE)])
    return claims, {v.id: v for v in run(claims, jobs=2)}


@pytest.mark.slow
def test_every_verdict_is_the_expected_one(verdicts):
    claims, got = verdicts
    wrong = [f"{c.id}: {got[c.id].verdict} (expected {c.expect}) {got[c.id].scope} {got[c.id].detail}"
             for c in claims if got[c.id].verdict != c.expect]
    assert not wrong, "\n".join(wrong)


@pytest.mark.slow
def test_the_suite_plants_at_least_40_false_claims_and_has_controls(verdicts):
    claims, _ = verdicts
    planted = [c for c in claims if c.expect in FALSE]
    controls = [c for c in claims if c.expect in ("proved", "verified")]
    assert len(planted) >= 40
    files = {Path(c.file).stem for c in claims}
    for f in files:                                   # several false claims and a control per class
        assert sum(Path(c.file).stem == f for c in planted) >= 3, f
    assert {Path(c.file).stem for c in controls} >= files - {"witness"}


@pytest.mark.slow
def test_no_pass_covers_nothing(verdicts):
    claims, got = verdicts
    for c in claims:
        v = got[c.id]
        if v.verdict == "verified":
            assert v.coverage["positions"] > 0, c.id
        if v.verdict == "proved":
            assert v.coverage["structures"] > 0 and v.coverage["obligations"] > 0, c.id
            assert v.coverage["smt"].startswith(("all sizes", "all ", "below 2^")), c.id
        if v.verdict == "error" and Path(c.file).stem == "vacuous":
            assert "covers nothing" in v.detail and "\n" not in v.detail, c.id


@pytest.mark.slow
def test_large_refutations_are_certificates_checked_on_the_rule(verdicts):
    claims, got = verdicts
    for c in claims:
        if Path(c.file).stem == "certificates" and c.expect == "refuted":
            cex = got[c.id].counterexample
            assert cex is not None, c.id
            assert "certificate" in cex.how or "replayed by the explicit solver" in cex.how, c.id
            assert "smallest" not in cex.how.replace("not known to be the smallest", ""), c.id
    big = got["certificates/pn-32-bit"].counterexample
    assert big.how.startswith("a partition certificate") and max(big.state["heap"].values()) > 2**31
    t = got["certificates/terminal-heavy-edge"].counterexample
    assert t.actual == "P" and t.state["weight"]["1"] >= 10**9 and t.state["token"] == 0


@pytest.mark.slow
def test_witnesses_show_the_full_state_and_smallest_only_from_a_sweep(verdicts):
    _, got = verdicts
    grim = got["witness/grim-removed-vertices"].counterexample
    n = len(grim.witness["nodes"])
    assert len(grim.state["alive"]) > n                 # the dead vertices are in the state
    assert grim.how.startswith("the smallest in the sweep")
    z3 = got["witness/z3-not-smallest"].counterexample
    assert "not known to be the smallest" in z3.how and not z3.how.startswith("the smallest")
    for v in got.values():
        if v.counterexample is not None:
            assert v.counterexample.state, v.id
            assert "state" in v.to_json()


@pytest.mark.slow
def test_scope_states_assume_convention_and_bit_width(verdicts):
    _, got = verdicts
    assert "assuming s.heap[0] == 0" in got["vacuous/control-pinned-heap"].scope
    assert "misère play" in got["misere/control-table"].scope
    assert "2^32" in got["certificates/control-nim"].scope
    assert got["certificates/control-nim"].coverage["smt"] == "all sizes"


# ------------------------------------------------------------------ refused when the file loads
BAD = {
    "bounds-reversed": 'bounds={"heap": (5, 3)}',
    "bounds-negative": 'bounds={"heap": -5}',
    "bounds-empty-list": 'bounds={"heap": []}',
    "unknown-bounds-key": 'bounds={"hep": 5}',
    "exact-on-char": 'bounds={"heap": 5}, exact=True',
    "strategy-on-grundy": 'bounds={"heap": 5}, strategy=lambda g, s, rules: []',
    "bad-timeout": 'bounds={"heap": 5}, timeout=-1',
}


@pytest.mark.parametrize("name", sorted(BAD) + ["empty-family", "statement-signature", "assume-signature"])
def test_bad_claims_are_one_line_errors_at_load(tmp_path, capsys, name):
    kind, family, stmt, extra = "char", "heaps(2)", "lambda g, s: s.heap[0] == s.heap[1]", BAD.get(name, "")
    if name == "empty-family":
        family = "heaps()"
    if name == "statement-signature":
        stmt = "lambda s: s.heap[0] == 0"
    if name == "assume-signature":
        extra = "assume=lambda s: True"
    if name == "strategy-on-grundy":
        kind, stmt = "grundy", "lambda g, s: s.heap[0]"
    f = tmp_path / "t.py"
    f.write_text(textwrap.dedent(f"""\
        from grundy.verify import Claim, heaps
        CLAIMS = [
            Claim("t/{name}", game="nim", kind="{kind}", family={family},
                  statement={stmt}, {extra}),
        ]
        """))
    assert main(["verify", str(f)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err
    assert f"{f}:3" in err and f"t/{name}" in err


def test_claim_takes_keywords_and_refuses_the_removed_symmetric():
    with pytest.raises(TypeError):
        Claim("x", "nim", "char")                         # type: ignore[misc]
    with pytest.raises(ClaimError, match="symmetric"):    # removed in 0.3 (deprecated in 0.2)
        Claim("x", game="nim", kind="char", family=heaps(2), bounds={"heap": 3},
              statement=lambda g, s: s.heap[0] == s.heap[1], symmetric=True)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        load([str(SUITE)])                                 # the suite itself uses no deprecated field


# ------------------------------------------------------------------ positions and solve
def test_unknown_position_field_is_exit_2_naming_it(tmp_path, capsys):
    f = tmp_path / "p.json"
    f.write_text('{"game": "grim", "edgs": [[0, 1]]}')
    assert main(["solve", str(f)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "edgs" in err and "edges" in err
    with pytest.raises(grundy.errors.InputError, match="edgs"):
        grundy.solve({"game": "grim", "edgs": [[0, 1]]})


def test_api_takes_what_the_cli_takes():
    one = grundy.solve('{"game": "nim", "heaps": [1, 2, 3]}')
    assert one == {"grundy": 0, "outcome": "P"}
    many = grundy.solve([{"game": "nim", "heaps": [1]}, '{"game": "wythoff", "heaps": [1, 2]}'])
    assert [r["outcome"] for r in many] == ["N", "P"]
    assert grundy.solve('[{"game": "nim", "heaps": [2, 2]}]') == [{"grundy": 0, "outcome": "P"}]


def test_solve_labels_misere_values(tmp_path, capsys):
    f = tmp_path / "p.json"
    f.write_text('{"game": "nim", "heaps": [1, 1], "convention": "misere"}')
    assert main(["solve", str(f)]) == 0
    out = capsys.readouterr().out
    assert "grundy (misère)" in out.splitlines()[0]
    assert out.splitlines()[1].split()[-2:] == ["1", "N"]          # not normal play's "0 N"
    assert main(["solve", "--json", str(f)]) == 0
    assert json.loads(capsys.readouterr().out) == {"index": 0, "misere_grundy": 1, "outcome": "N",
                                                    "convention": "misere"}


def _misere_brute(h: tuple[int, ...]) -> int:
    """Misère nim's Grundy value from the definition (independent of grundy's solver)."""
    memo: dict[tuple[int, ...], int] = {}

    def g(t: tuple[int, ...]) -> int:
        t = tuple(sorted(t))
        if t not in memo:
            opts = {g(t[:i] + (t[i] - k,) + t[i + 1:]) for i in range(len(t)) for k in range(1, t[i] + 1)}
            m = 0
            while m in opts:
                m += 1
            memo[t] = 1 if not opts else m
        return memo[t]
    return g(h)


@pytest.mark.parametrize("game,heap_count,hi", [("nim", 3, 5), ("wythoff", 2, 9), ("minnie", 2, 9),
                                                ("nimb", 3, 4)])
def test_misere_values_python_and_kernel_agree(game, heap_count, hi):
    rng = random.Random(9)
    py, native = Solver(native=False), Solver(native="always")
    for _ in range(30):
        h = [rng.randint(0, hi) for _ in range(heap_count)]
        p = read_position({"game": game, "heaps": h, "convention": "misere"})
        a, b = py.grundy(p), native.grundy(p)
        assert a == b, (game, h)
        assert (a == 0) == (py.outcome(p) == "P") == (native.outcome(p) == "P"), (game, h)
        if game == "nim":
            assert a == _misere_brute(tuple(h))
    assert any(MISERE_GRUNDY in t.kernels for t in native.tables.values())   # the kernel answered


def test_misere_values_on_a_graph_game_agree():
    py, native = Solver(native=False), Solver(native="always")
    for w in ([1, 2, 1], [2, 2, 2], [0, 1, 2], [3, 1, 2]):
        obj = {"game": "edge-nim", "edges": [[0, 1, w[0]], [1, 2, w[1]], [2, 0, w[2]]], "token": 0,
               "convention": "misere"}
        p = read_position(obj)
        assert py.grundy(p) == native.grundy(p)
        assert (py.grundy(p) == 0) == (py.outcome(p) == "P")
    assert any(MISERE_GRUNDY in t.kernels for t in native.tables.values())
