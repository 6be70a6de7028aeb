"""grundy verify: claims, checks, verdicts, the runner and the command line.

Known values come from an independent brute force written here (plain recursion on
tuples), never from grundy's own solver.
"""
from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from functools import lru_cache
from pathlib import Path

import pytest

from grundy.cli import main
from grundy.verify import Claim, Explicit, heaps
from grundy.verify.check import check_claim
from grundy.verify.claims import ClaimError
from grundy.verify.loading import LoadError, load

ROOT = Path(__file__).resolve().parent.parent


# ------------------------------------------------------------------ naive brute force
def minnie_options(h: tuple[int, ...]):
    """minnie from the rule's words: take 1 <= k <= the smallest existing heap from one heap."""
    live = [x for x in h if x > 0]
    if not live:
        return []
    low = min(live)
    return [tuple(sorted(h[:i] + (h[i] - k,) + h[i + 1:])) for i in range(len(h)) if h[i] > 0
            for k in range(1, low + 1)]


@lru_cache(maxsize=None)
def minnie_p(h: tuple[int, ...]) -> bool:
    return not any(minnie_p(o) for o in minnie_options(h))


def nim_p(h) -> bool:
    x = 0
    for v in h:
        x ^= v
    return x == 0


# ------------------------------------------------------------------ helpers
def theorem(tmp_path: Path, text: str, name: str = "demo.py") -> Path:
    p = tmp_path / name
    p.write_text(textwrap.dedent(text))
    return p


NIM = """
from grundy.verify import Claim, heaps
CLAIMS = [
    Claim("demo/nim-equal", game="nim", kind="char", family=heaps(2), bounds={"heap": 6},
          statement=lambda g, s: s.heap[0] == s.heap[1], methods=["explicit", "smt"], expect="proved"),
    Claim("demo/nim-le", game="nim", kind="char", family=heaps(2), bounds={"heap": 6},
          statement=lambda g, s: s.heap[0] <= s.heap[1], expect="refuted"),
]
"""


def run_cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["verify", *args])
    out, err = capsys.readouterr()
    return code, out, err


# ------------------------------------------------------------------ the command line
def test_cli_table_and_exit_zero(tmp_path, capsys):
    theorem(tmp_path, NIM)
    code, out, err = run_cli(capsys, str(tmp_path), "--jobs", "2")
    assert code == 0
    lines = out.splitlines()
    assert lines[0].split()[:3] == ["claim", "kind", "verdict"]
    assert any(ln.startswith("demo/nim-equal") and " proved " in ln for ln in lines)
    assert any(ln.startswith("demo/nim-le") and " refuted " in ln for ln in lines)
    assert "demo: 1 proved (1 for all sizes), 0 verified, 1 refuted, 0 unknown, 0 error — all as expected" in out
    assert err == ""             # no progress bar: stderr is not a terminal


def test_cli_json_fields(tmp_path, capsys):
    theorem(tmp_path, NIM)
    code, out, _ = run_cli(capsys, str(tmp_path), "--json")
    assert code == 0
    objs = [json.loads(ln) for ln in out.splitlines()]
    assert [o["id"] for o in objs] == ["demo/nim-equal", "demo/nim-le"]
    for o in objs:
        assert {"id", "verdict", "expected", "scope", "seconds"} <= set(o)
    proved, refuted = objs
    assert proved["verdict"] == "proved" and "all heaps" in proved["scope"]
    # the smallest position where "P iff heap0 <= heap1" is wrong: [0, 1] is N (nim-sum 1)
    assert refuted["witness"] == {"game": "nim", "heaps": [0, 1]}
    assert (refuted["claimed"], refuted["actual"]) == ("P", "N")
    assert refuted["line"][0]["to"]["heaps"] == [0, 0]


def test_cli_junit(tmp_path, capsys):
    theorem(tmp_path, NIM.replace('expect="refuted"', 'expect="proved"'))
    junit = tmp_path / "out.xml"
    code, _, _ = run_cli(capsys, str(tmp_path), "--junit", str(junit))
    assert code == 1             # nim-le is refuted, not proved as it now expects
    root = ET.parse(junit).getroot()
    cases = {c.get("name"): c for c in root.iter("testcase")}
    assert set(cases) == {"demo/nim-equal", "demo/nim-le"}
    assert cases["demo/nim-equal"].find("failure") is None
    assert cases["demo/nim-le"].find("failure") is not None
    assert "refuted" in cases["demo/nim-le"].find("failure").get("message")


def test_cli_only(tmp_path, capsys):
    theorem(tmp_path, NIM)
    code, out, _ = run_cli(capsys, str(tmp_path), "--json", "--only", "demo/nim-le")
    assert code == 0
    assert [json.loads(ln)["id"] for ln in out.splitlines()] == ["demo/nim-le"]
    code, out, _ = run_cli(capsys, str(tmp_path), "--json", "--only", "demo/*")
    assert len(out.splitlines()) == 2
    code, _, err = run_cli(capsys, str(tmp_path), "--only", "demo/nope")
    assert code == 2 and "no such claim" in err


@pytest.mark.parametrize("text, message", [
    ("CLAIMS = [\n  oops(\n", "syntax error"),
    ("from grundy.verify import Claim, heaps\n"
     "CLAIMS = [Claim('x/1', game='no-such-game', kind='char', family=heaps(2),"
     " statement=lambda g, s: True)]\n", "claim 'x/1': unknown game 'no-such-game'"),
    ("from grundy.verify import Claim, heaps\n"
     "CLAIMS = [Claim('x/2', game='nim', kind='char', family=heaps(2),"
     " statement=lambda g, s: True, colour='red')]\n", "claim 'x/2': unknown field 'colour'"),
    ("from grundy.verify import Claim, heaps\n"
     "CLAIMS = [Claim('x/3', game='nim', kind='charr', family=heaps(2),"
     " statement=lambda g, s: True)]\n", "claim 'x/3': unknown kind 'charr'"),
    ("X = 1\n", "defines no list CLAIMS"),
])
def test_bad_theorem_files(tmp_path, capsys, text, message):
    f = theorem(tmp_path, text, "bad.py")
    code, out, err = run_cli(capsys, str(f))
    assert code == 2
    assert err.count("\n") == 1 and str(f) in err and message in err
    assert "Traceback" not in err


def test_bad_theorem_file_no_traceback_subprocess(tmp_path):
    f = theorem(tmp_path, "CLAIMS = [\n", "broken.py")
    r = subprocess.run([sys.executable, "-m", "grundy.cli", "verify", str(f)], capture_output=True,
                       text=True, timeout=60)
    assert r.returncode == 2
    assert r.stderr.startswith("grundy verify: ") and "broken.py:" in r.stderr
    assert "Traceback" not in r.stderr and r.stderr.count("\n") == 1


def test_duplicate_ids_and_missing_path(tmp_path):
    theorem(tmp_path, NIM, "a.py")
    theorem(tmp_path, NIM, "b.py")
    with pytest.raises(LoadError, match="already defined"):
        load([str(tmp_path)])
    with pytest.raises(LoadError, match="no such file"):
        load([str(tmp_path / "missing.py")])


# ------------------------------------------------------------------ unknown is never a pass
SLOW_SWEEP = """
from grundy.verify import Claim, heaps
CLAIMS = [Claim("demo/slow", game="nim", kind="char", family=heaps(5), bounds={"heap": 60}, methods=["explicit"],
                statement=lambda g, s: s.heap[0] ^ s.heap[1] ^ s.heap[2] ^ s.heap[3] ^ s.heap[4] == 0,
                expect="verified")]     # true: the sweep must see all 61^5 positions
"""

STUCK = """
import time
from grundy.verify import Claim, heaps
def stuck(g, s):
    while time.process_time() < 600:   # computes, never returns in time: the worker must be killed
        pass
    return s.heap[0] == s.heap[1]
CLAIMS = [Claim("demo/stuck", game="nim", kind="char", family=heaps(2), bounds={"heap": 3},
                statement=stuck, methods=["explicit", "smt"], expect="proved")]
"""

ASLEEP = """
import time
from grundy.verify import Claim, heaps
def asleep(g, s):
    time.sleep(600)                    # uses no CPU time: stopped as a worker that does not compute
    return s.heap[0] == s.heap[1]
CLAIMS = [Claim("demo/asleep", game="nim", kind="char", family=heaps(2), bounds={"heap": 3},
                statement=asleep, expect="proved")]
"""


def test_timeout_is_unknown_and_fails(tmp_path, capsys):
    theorem(tmp_path, SLOW_SWEEP)
    code, out, _ = run_cli(capsys, str(tmp_path), "--json", "--timeout", "0.5")
    (o,) = [json.loads(ln) for ln in out.splitlines()]
    assert o["verdict"] == "unknown" and o["expected"] == "verified"
    assert "timed out" in o["scope"] + o["detail"]      # the limit stopped it (0.5 CPU seconds)
    assert code == 1


def test_worker_killed_past_its_limit(tmp_path, capsys):
    theorem(tmp_path, STUCK)
    code, out, _ = run_cli(capsys, str(tmp_path), "--json", "--timeout", "0.5")
    (o,) = [json.loads(ln) for ln in out.splitlines()]
    assert o["verdict"] == "unknown" and "timed out after 0.5 s (CPU time); the worker was stopped" in o["detail"]
    assert code == 1


def test_a_sleeping_worker_is_stopped_once_it_stops_computing(tmp_path, capsys):
    theorem(tmp_path, ASLEEP)
    code, out, _ = run_cli(capsys, str(tmp_path), "--json", "--timeout", "0.5")
    (o,) = [json.loads(ln) for ln in out.splitlines()]
    assert o["verdict"] == "unknown" and "the worker was stopped" in o["detail"]
    assert o["seconds"] >= 0.5 + 2.0                    # not before: the limit and the grace, in wall time
    assert code == 1


def test_unknown_expected_unknown_passes(tmp_path, capsys):
    theorem(tmp_path, SLOW_SWEEP.replace('expect="verified"', 'expect="unknown"'))
    code, _, _ = run_cli(capsys, str(tmp_path), "--timeout", "0.5")
    assert code == 0


# ------------------------------------------------------------------ planted claims
def test_planted_minnie_witness_is_minimal_and_replayed(capsys):
    code, out, _ = run_cli(capsys, str(ROOT / "theorems" / "planted.py"), "--json",
                           "--only", "planted/thm5.2-off-by-one")
    (o,) = [json.loads(ln) for ln in out.splitlines()]
    assert code == 0 and o["verdict"] == "refuted"

    def planted(a, b):       # the planted statement, in plain Python
        a, b = min(a, b), max(a, b)
        return (b == 0 or (a == 1 and b % 2 == 1) or (a == 2 and b % 4 == 2)
                or (a == 3 and b % 4 == 0 and b >= 4) or (a == 4 and b == 4))

    wrong = [(a, b) for a in range(21) for b in range(a, 21) if planted(a, b) != minnie_p((a, b))]
    smallest = min(wrong, key=lambda h: (sum(h), max(h), h))
    assert tuple(o["witness"]["heaps"]) == smallest == (3, 4)
    assert o["claimed"] == "P" and o["actual"] == ("P" if minnie_p(smallest) else "N")
    # the line shows it: the mover wins, every move legal under the naive rules
    h = smallest
    for i, m in enumerate(o["line"]):
        nxt = tuple(sorted(m["to"]["heaps"]))
        assert nxt in minnie_options(tuple(sorted(h)))
        if i % 2 == 0:
            assert minnie_p(nxt)     # the winner always moves to a P-position
        h = nxt
    assert minnie_options(h) == [] and len(o["line"]) % 2 == 1


def test_smt_violation_is_replayed(monkeypatch):
    """A violation reported by Z3 that the explicit solver refutes is a minimal counterexample;
    one it cannot confirm is an error showing both results (a backend disagreement)."""
    from grundy.solvers import smt
    from grundy.solvers.smt import SmtResult

    c = Claim("demo/nim-big", game="nim", kind="char", family=heaps(2), bounds={"heap": 2},
              statement=lambda g, s: (s.heap[0] == s.heap[1]) | (s.heap[0] > 2),
              methods=["explicit", "smt"], expect="refuted")
    v = check_claim(c)                        # beyond the sweep's bounds: found by Z3
    assert v.verdict == "refuted"
    w = v.counterexample.witness["heaps"]
    assert w[0] > 2 and not nim_p(w) and v.counterexample.claimed == "P"
    assert "Z3" in v.counterexample.how

    def lying(rules, p, assume=True, **kw):
        return [SmtResult("PN", "violated", (3, 3), {"move": 0, "k": 1}, 0.0, "fake")]
    monkeypatch.setattr(smt, "check_partition", lying)
    good = Claim("demo/nim-equal", game="nim", kind="char", family=heaps(2), bounds={"heap": 2},
                 statement=lambda g, s: s.heap[0] == s.heap[1], methods=["smt"], expect="proved")
    v = check_claim(good)
    assert v.verdict == "error"
    assert "(3, 3)" in v.detail or "[3, 3]" in v.detail
    assert "disagreement" in v.detail


def test_smt_unknown_is_unknown(monkeypatch):
    from grundy.solvers import smt
    from grundy.solvers.smt import SmtResult
    monkeypatch.setattr(smt, "check_partition",
                        lambda rules, p, assume=True, **kw: [SmtResult("NP", "unknown", None, None, 0.0,
                                                                       "Z3 gave up")])
    c = Claim("demo/nim-equal", game="nim", kind="char", family=heaps(2), bounds={"heap": 2},
              statement=lambda g, s: s.heap[0] == s.heap[1], methods=["explicit", "smt"],
              expect="proved")
    v = check_claim(c)
    assert v.verdict == "unknown" and not v.passed and "Z3 gave up" in v.detail


# ------------------------------------------------------------------ kinds
def test_grundy_claim():
    # one nim heap: G = the heap; a wrong formula is refuted at the smallest heap
    ok = Claim("demo/g", game="nim", kind="grundy", family=heaps(1), bounds={"heap": 9},
               statement=lambda g, s: s.heap[0], methods=["explicit", "smt"], expect="proved")
    assert check_claim(ok).verdict == "proved"
    bad = Claim("demo/g2", game="nim", kind="grundy", family=heaps(1), bounds={"heap": 9},
                statement=lambda g, s: s.heap[0] % 4, expect="refuted")
    v = check_claim(bad)
    assert v.verdict == "refuted" and v.counterexample.witness["heaps"] == [4]
    assert (v.counterexample.claimed, v.counterexample.actual) == (0, 4)


def test_strategy_claims():
    from grundy.spec import Play

    def mirror(g, s, rules):       # take the difference from the larger heap
        return [Play(s.heap[0] > s.heap[1], 0, {"k": s.heap[0] - s.heap[1]}),
                Play(s.heap[1] > s.heap[0], 1, {"k": s.heap[1] - s.heap[0]})]

    def greedy(g, s, rules):       # always take 1 from the first non-empty heap
        return [Play(s.heap[0] > 0, 0, {"k": 1}), Play(True, 1, {"k": 1})]

    base = dict(game="nim", kind="strategy", family=heaps(2), bounds={"heap": 6},
                statement=lambda g, s: s.heap[0] == s.heap[1])
    v = check_claim(Claim("demo/mirror", strategy=mirror, exact=True, methods=["explicit", "smt"], **base))
    assert v.verdict == "proved", v.detail
    v = check_claim(Claim("demo/greedy", strategy=greedy, expect="refuted", **base))
    assert v.verdict == "refuted"
    w = v.counterexample.witness["heaps"]
    assert not nim_p(w) and sum(w) == 2      # [0, 2]: taking 1 leaves [0, 1], a win for the reply
    assert "fails" in v.counterexample.actual and v.counterexample.line


def test_statement_error_is_error_verdict():
    c = Claim("demo/err", game="nim", kind="char", family=heaps(2), bounds={"heap": 2},
              statement=lambda g, s: s.heap[5] == 0)
    v = check_claim(c)
    assert v.verdict == "error" and "heap" in v.detail


def test_random_search_finds_and_shrinks():
    # P iff equal heaps or both >= 5: wrong first at [5, 6], beyond the sweep's bound 3
    c = Claim("demo/rand", game="nim", kind="char", family=heaps(2), bounds={"heap": 3},
              statement=lambda g, s: (s.heap[0] == s.heap[1]) | ((s.heap[0] >= 5) & (s.heap[1] >= 5)),
              methods=[Explicit(samples=300, sample_bounds={"heap": 40})], expect="refuted")
    v = check_claim(c)
    assert v.verdict == "refuted"
    assert sorted(v.counterexample.witness["heaps"]) == [5, 6]


def test_claim_fields_are_checked():
    with pytest.raises(ClaimError, match="missing"):
        Claim("x/1", game="nim", kind="char", family=heaps(2))
    with pytest.raises(ClaimError, match="strategy claim needs"):
        Claim("x/2", game="nim", kind="strategy", family=heaps(2), statement=lambda g, s: True)
    with pytest.raises(ClaimError, match="expected verdict"):
        Claim("x/3", game="nim", kind="char", family=heaps(2), statement=lambda g, s: True,
              expect="maybe")


# ------------------------------------------------------------------ reports
def test_report_markdown_and_html(tmp_path, capsys, monkeypatch):
    theorem(tmp_path, NIM)
    md = tmp_path / "r" / "report.md"
    code, _, _ = run_cli(capsys, str(tmp_path), "--report", str(md))
    assert code == 0
    text = md.read_text()
    assert "## demo/nim-le: refuted\n" in text and "- verdict: refuted" in text and '"heaps": [0, 1]' in text
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        pass
    else:
        assert (md.parent / "report-demo-nim-le.svg").stat().st_size > 1000
        assert "![counterexample" in text
    # without matplotlib: no picture, a note, the same report
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    html = tmp_path / "r2" / "report.html"
    code, _, err = run_cli(capsys, str(tmp_path), "--report", str(html))
    assert code == 0 and "matplotlib is not installed" in err
    page = html.read_text()
    assert '<section class="claim" id="c-demo-nim-le"' in page and "<svg" not in page
    assert 'data-verdict="refuted"' in page
    assert not list(html.parent.glob("*.png")) and not list(html.parent.glob("*.svg"))


def test_junit_folder_is_made_and_a_bad_file_spoils_no_other(tmp_path, capsys):
    theorem(tmp_path, NIM)
    junit = tmp_path / "out" / "deep" / "j.xml"
    report = tmp_path / "r.md"
    code, _, _ = run_cli(capsys, str(tmp_path / "demo.py"), "--junit", str(junit), "--report", str(report))
    assert code == 0 and junit.exists() and report.exists()
    blocker = tmp_path / "file"
    blocker.write_text("")
    report.unlink()
    code, _, err = run_cli(capsys, str(tmp_path / "demo.py"), "--junit", str(blocker / "j.xml"),
                           "--report", str(report))
    assert code == 2 and "cannot write" in err and report.exists()
