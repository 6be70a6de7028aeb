"""What a claim is: its statement in words, source, reading and finding; how verdicts,
``--json`` and reports show them; the theorem library's classification of its refutations."""
from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from grundy.cli import main
from grundy.tools.report import finding_text, write_report
from grundy.verify import Claim, Finding, heaps
from grundy.verify.claims import FINDINGS, ClaimError
from grundy.verify.loading import LoadError, check_findings, load
from grundy.verify.verdict import Verdict

THEOREMS = Path(__file__).resolve().parent.parent / "theorems"

DEMO = '''
from grundy.verify import Claim, Finding, Source, heaps
CLAIMS = [
    Claim("demo/nim-le", text="Nim on two heaps: P iff the first heap is at most the second.",
          source=Source("demo", "Theorem 2", "§1"), reading="The printed '<' read as '<='.",
          game="nim", kind="char", family=heaps(2), bounds={"heap": 4},
          statement=lambda g, s: s.heap[0] <= s.heap[1], expect="refuted",
          finding=Finding("paper-error", corrected="demo/nim-equal")),
    Claim("demo/nim-equal", text="Nim on two heaps: P iff the heaps are equal.",
          source=Source("demo", "Theorem 2, corrected"), game="nim", kind="char", family=heaps(2),
          bounds={"heap": 4}, statement=lambda g, s: s.heap[0] == s.heap[1], expect="verified"),
]
'''


def write(tmp_path: Path, text: str, name: str = "demo.py") -> Path:
    p = tmp_path / name
    p.write_text(textwrap.dedent(text))
    return p


@pytest.fixture(scope="module")
def library() -> dict[str, Claim]:
    return {c.id: c for c in load([str(THEOREMS)])}


# ------------------------------------------------------------------ the theorem library
def test_every_claim_has_a_statement_in_words(library):
    short = [cid for cid, c in library.items() if len(c.text.split()) < 6]
    assert not short, f"claims without a statement in words: {short}"
    assert len({c.text for c in library.values()}) == len(library)      # none copied from another


def test_every_refuted_claim_is_classified(library):
    refuted = {cid: c for cid, c in library.items() if c.expect == "refuted"}
    assert len(refuted) >= 20
    for cid, c in refuted.items():
        assert c.finding is not None, f"{cid}: refuted, but no finding"
        assert c.finding.kind in FINDINGS
        assert (c.finding.kind == "planted") == cid.startswith("planted/"), cid
        assert c.reading, f"{cid}: the reason for its classification (reading=) is missing"
        if c.finding.corrected:
            other = library[c.finding.corrected]
            assert other.expect in ("proved", "verified"), (cid, other.id, other.expect)
            assert other.finding is None


def test_classes_of_the_seed_refutations(library):
    kinds = {cid: c.finding.kind for cid, c in library.items() if c.finding}
    # errors of the papers, each with its corrected statement beside it
    for cid in ("grim/lemma13", "vnim/thm10", "vnim/cor12", "selfref/thm4.10", "erickson/prop5.6",
                "erickson/prop3.1-strategy-unique", "selfref/5.5-mine-strategy"):
        assert kinds[cid] == "paper-error", cid
    # failures only at a degenerate instance (equal heaps; a one-vertex graph; K_2)
    for cid in ("selfref/thm2.1", "vnim/thm13", "erickson/conj4.12"):
        assert kinds[cid] == "degenerate", cid
    # the corrected readings: the paper's ids carry the restored statements
    assert library["grim/thm30"].expect == "verified" and "Player 2" in library["grim/thm30"].text
    assert library["grim/cor17"].expect == "verified" and "n >= 3" in library["grim/cor17"].text
    assert library["grim/cor19"].expect == "verified"
    for cid, restored in (("grim/thm30-player1", "grim/thm30"), ("grim/cor17-no-bounds", "grim/cor17"),
                          ("grim/cor19-h-only", "grim/cor19")):
        assert kinds[cid] == "lost-hypothesis" and library[cid].finding.corrected == restored


# ------------------------------------------------------------------ the fields
def test_finding_is_validated():
    with pytest.raises(ClaimError, match="unknown finding 'oops'"):
        Finding("oops")
    with pytest.raises(ClaimError, match="needs corrected="):
        Finding("lost-hypothesis")
    ok = dict(game="nim", kind="char", family=heaps(1), statement=lambda g, s: True)
    with pytest.raises(ClaimError, match="needs expect='refuted'"):
        Claim("x/1", finding=Finding("planted"), **ok)
    with pytest.raises(ClaimError, match="must be a Finding"):
        Claim("x/2", finding="paper-error", expect="refuted", **ok)
    with pytest.raises(ClaimError, match="text must be a string"):
        Claim("x/3", text=["P iff"], **ok)
    with pytest.raises(ClaimError, match="is the claim itself"):
        Claim("x/4", finding=Finding("paper-error", corrected="x/4"), expect="refuted", **ok)
    with pytest.raises(ClaimError, match="'x/5': its finding names 'x/none'"):
        check_findings([Claim("x/5", finding=Finding("paper-error", corrected="x/none"), expect="refuted", **ok)])


def test_a_finding_naming_no_claim_is_a_load_error(tmp_path, capsys):
    f = write(tmp_path, DEMO.replace('corrected="demo/nim-equal"', 'corrected="demo/nim-eq"'))
    with pytest.raises(LoadError, match=r"demo.py:\d+: claim 'demo/nim-le': its finding names 'demo/nim-eq'"):
        load([str(tmp_path)])
    code = main(["verify", str(f)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    # --only leaves the corrected claim out of the run, not out of the check
    write(tmp_path, DEMO)
    assert [c.id for c in load([str(tmp_path)], ["demo/nim-le"])] == ["demo/nim-le"]


def test_a_bad_finding_in_a_theorem_file_names_its_line(tmp_path, capsys):
    f = write(tmp_path, DEMO.replace('Finding("paper-error"', 'Finding("paper-eror"'))
    code = main(["verify", str(f)])
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and "Traceback" not in err
    assert f"{f}:8: unknown finding 'paper-eror'" in err


# ------------------------------------------------------------------ what verdicts and reports show
def test_json_of_one_claim_says_what_it_is(tmp_path, capsys):
    write(tmp_path, DEMO)
    code = main(["verify", str(tmp_path), "--json", "--only", "demo/nim-le"])
    out = capsys.readouterr().out
    assert code == 0
    (o,) = [json.loads(ln) for ln in out.splitlines()]
    assert o["text"] == "Nim on two heaps: P iff the first heap is at most the second."
    assert o["source"] == "demo, Theorem 2, §1"
    assert o["reading"] == "The printed '<' read as '<='."
    assert o["finding"] == {"kind": "paper-error", "label": "error in the paper", "corrected": "demo/nim-equal"}
    assert o["verdict"] == "refuted" and "counterexample" in o["scope"] and o["seconds"] >= 0
    assert Verdict.from_json(o).to_json() == o                      # the fields survive a round trip
    # the same keys for a claim without a reading or a finding
    main(["verify", str(tmp_path), "--json", "--only", "demo/nim-equal"])
    o = json.loads(capsys.readouterr().out)
    assert (o["reading"], o["finding"], o["verdict"]) == ("", None, "verified")
    assert o["text"] == "Nim on two heaps: P iff the heaps are equal."


def test_markdown_report_shows_statement_source_reading_and_finding(tmp_path, capsys):
    write(tmp_path, DEMO)
    md = tmp_path / "out" / "r.md"
    assert main(["verify", str(tmp_path), "--report", str(md)]) == 0
    capsys.readouterr()
    text = md.read_text()
    section = text[text.index("## demo/nim-le: refuted"):text.index("## demo/nim-equal")]
    for line in ("- statement: Nim on two heaps: P iff the first heap is at most the second.",
                 "- source: demo, Theorem 2, §1", "- reading: The printed '<' read as '<='.",
                 "- finding: error in the paper; corrected statement: demo/nim-equal (verified)",
                 "- kind: char", "- time: "):
        assert line in section, line
    assert "- scope: 2 heaps: counterexample" in section
    assert "| demo/nim-le | error in the paper; corrected statement: demo/nim-equal (verified) |" in text
    assert "- statement: Nim on two heaps: P iff the heaps are equal." in text[text.index("## demo/nim-equal"):]


def test_html_report_and_unclassified_refutations(tmp_path):
    v = Verdict("demo/a", "char", "refuted", "refuted", "1 heap: counterexample", 0.1, text="A <claim>.")
    w = Verdict("demo/b", "grundy", "proved", "proved", "all heaps", 0.2,
                obligations=[{"obligation": "mex", "status": "holds", "seconds": 0.5}])
    assert finding_text(v) == "unclassified"
    out = tmp_path / "r.html"
    write_report([v, w], str(out))
    page = out.read_text()
    assert "<dd>A &lt;claim&gt;.</dd>" in page and "<td>unclassified</td>" in page
    assert "1 obligation (mex): 1 hold, 0.5 s" in page
