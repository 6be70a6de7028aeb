"""Certificates: the SMT queries of a claim captured and written as a bundle, re-solved by a
second solver (cvc5 / Bitwuzla), and mutations of a bundle caught by ``grundy recheck``."""
from __future__ import annotations

import hashlib
import importlib.util
import json
import re
import shutil
from pathlib import Path

import pytest
import z3

from grundy.cli import main
from grundy.solvers.smt import check_partition
from grundy.solvers.smt.capture import active, capturing
from grundy.spec import Play, Structure
from grundy.spec.games import get_game
from grundy.verify import Claim, bitvec, heaps
from grundy.verify.certificates import bundle_name, verdict_digest, write_bundle
from grundy.verify.certificates.recheck import (
    BundleResult,
    Outcome,
    recheck_bundle,
    recheck_query,
    second_opinion,
)
from grundy.verify.schedule.pool import run
from grundy.verify.verdict import Verdict

HAVE_CVC5 = importlib.util.find_spec("cvc5") is not None
HAVE_BITWUZLA = importlib.util.find_spec("bitwuzla") is not None
needs_cvc5 = pytest.mark.skipif(not HAVE_CVC5, reason="cvc5 is not installed (pip install 'grundy[certify]')")
needs_both = pytest.mark.skipif(not (HAVE_CVC5 and HAVE_BITWUZLA),
                                reason="cvc5 and bitwuzla are not installed (pip install 'grundy[certify]')")


def _mirror(g, s):
    return s.heap[0] == s.heap[1]


def _nim_claim(cid: str = "demo/mirror", methods=("smt",), statement=_mirror, expect: str = "proved") -> Claim:
    return Claim(cid, game="nim", kind="char", family=heaps(2), bounds={"heap": 3},
                 statement=statement, methods=list(methods), expect=expect)


def _xor(g, s):
    return (s.heap[0] ^ s.heap[1]) == 0


def _mirror_play(g, s, rules):
    return [Play(s.heap[0] > s.heap[1], 0, {"k": s.heap[0] - s.heap[1]}), Play(True, 1, {"k": s.heap[1] - s.heap[0]})]


@pytest.fixture(scope="module")
def bundles(tmp_path_factory) -> dict[str, Verdict]:
    """Three small claims checked in two worker processes with certificates: unbounded
    integers (proved), bit-vectors (proved) and a false claim (refuted)."""
    root = tmp_path_factory.mktemp("certs")
    claims = [_nim_claim(),
              Claim("demo/xor", game="nim", kind="char", family=heaps(2), bounds={"heap": 3},
                    statement=_xor, strategy=_mirror_play, methods=[bitvec(8)], expect="proved"),
              _nim_claim("demo/false", statement=lambda g, s: s.heap[0] <= s.heap[1], expect="refuted")]
    out = {v.id: v for v in run(claims, jobs=2, certificates=str(root))}
    assert [v.verdict for v in out.values()] == ["proved", "proved", "refuted"]
    return out


@pytest.fixture
def mini(tmp_path) -> Path:
    """A bundle of three small queries (integers, non-linear, bit-vectors), Z3's own answers."""
    x, y = z3.Ints("x y")
    b = z3.BitVec("b", 8)
    queries = [("T", [x > 2, x < 3]), ("PN", [x * y == 6, x > 1, y > 1]), ("NP", [z3.ULT(b, 3), z3.UGT(b, 2)])]
    with capturing("demo/mini") as cap:
        for name, fs in queries:
            s = z3.Solver()
            s.add(*fs)
            cap.record(name, "a small query", fs, str(s.check()), 0.01, "z3")
    assert [q.result for q in cap.queries] == ["unsat", "sat", "unsat"]
    return write_bundle(tmp_path / "certs", Verdict("demo/mini", "char", "proved"), cap)


# ------------------------------------------------------------------------------ capture and layout
def test_capture_is_off_unless_asked():
    r = get_game("nim").rules(Structure.heaps(2))
    assert active() is None
    with capturing("demo/x") as cap:
        res = check_partition(r, r.state.heap[0] == r.state.heap[1])
    assert active() is None
    asked = len(cap.queries)
    assert asked >= len(res) and all(q.claim == "demo/x" for q in cap.queries)
    check_partition(r, r.state.heap[0] == r.state.heap[1])      # outside: nothing more kept
    assert len(cap.queries) == asked


def test_bundle_layout(bundles):
    for v in bundles.values():
        d = Path(v.certificate)
        assert d.is_dir() and d.name == bundle_name(v)
        assert re.fullmatch(r"demo_[a-z]+-[0-9a-f]{16}", d.name)
        m = json.loads((d / "manifest.json").read_text())
        assert m["claim"] == v.id and m["verdict"] == v.verdict and m["digest"] == verdict_digest(v)
        assert m["complete"] is True and m["gaps"] == []
        assert {"grundy", "z3", "python"} <= set(m["versions"])
        index = json.loads((d / "smt" / "index.json").read_text())
        assert m["smt"]["queries"] == len(index) > 0
        explicit = ["explicit.json"] if (d / "explicit.json").exists() else []   # its explicit part, if any
        assert m["files"] == [f"smt/{e['file']}" for e in index] + ["smt/index.json"] + explicit
        assert all((d / f).is_file() for f in explicit)
        for n, e in enumerate(index, 1):
            text = (d / "smt" / e["file"]).read_text()
            assert e["file"] == f"{n:03d}.smt2"
            assert hashlib.sha256(text.encode()).hexdigest() == e["sha256"]
            assert f"; claim: {v.id}" in text and f"; z3 result: {e['z3']}" in text
            assert f"(set-logic {e['logic']})" in text and text.count("(check-sat)") == 1
            # self-contained: Z3 reads it back alone and gives the recorded answer
            s = z3.Solver()
            s.from_string(text)
            assert str(s.check()) == e["z3"]
    bv = json.loads((Path(bundles["demo/xor"].certificate) / "smt" / "index.json").read_text())
    assert {e["logic"] for e in bv} <= {"QF_BV", "BV"}
    ints = json.loads((Path(bundles["demo/mirror"].certificate) / "smt" / "index.json").read_text())
    assert {e["logic"] for e in ints} <= {"QF_LIA", "LIA", "QF_NIA", "NIA"}
    false = json.loads((Path(bundles["demo/false"].certificate) / "smt" / "index.json").read_text())
    assert any(e["z3"] == "sat" and e["obligation"] != "nonempty" for e in false)   # the violation


def test_cli_links_each_claim_to_its_bundle(tmp_path, capsys):
    f = tmp_path / "th.py"
    f.write_text("from grundy.verify import Claim, heaps\n"
                 "CLAIMS = [Claim('demo/m', game='nim', kind='char', family=heaps(2), bounds={'heap': 2},\n"
                 "                statement=lambda g, s: s.heap[0] == s.heap[1], methods=['smt'], expect='proved')]\n")
    certs, report = tmp_path / "certs", tmp_path / "r.md"
    assert main(["verify", str(f), "--certificates", str(certs), "--json", "--jobs", "1",
                 "--report", str(report), "--no-cache"]) == 0
    line = json.loads(capsys.readouterr().out.splitlines()[0])
    assert Path(line["certificate"]).parent == certs.resolve()
    assert (Path(line["certificate"]) / "manifest.json").exists()
    assert line["certificate"] in report.read_text()


def test_certificates_need_claims_checked_whole(tmp_path, capsys):
    f = tmp_path / "th.py"
    f.write_text("from grundy.verify import Claim, heaps\n"
                 "CLAIMS = [Claim('demo/m', game='nim', kind='char', family=heaps(2), bounds={'heap': 2},\n"
                 "                statement=lambda g, s: s.heap[0] == s.heap[1])]\n")
    assert main(["verify", str(f), "--certificates", str(tmp_path / "c"), "--executor", "local:2"]) == 2
    assert "not with --executor" in capsys.readouterr().err


def test_a_bundle_without_queries_says_so(tmp_path):
    v = Verdict("demo/stopped", "char", "unknown", detail="timed out")
    d = write_bundle(tmp_path, v, None, gaps=["the check was stopped"])
    m = json.loads((d / "manifest.json").read_text())
    assert m["complete"] is False and len(m["gaps"]) == 2 and m["smt"]["queries"] == 0
    assert recheck_bundle(d).status == "incomplete"
    with capturing("demo/explicit-only") as cap:             # complete, but nothing to re-solve
        pass
    d = write_bundle(tmp_path, Verdict("demo/explicit-only", "char", "verified"), cap)
    res = recheck_bundle(d)
    assert res.status == "incomplete" and any("nothing to re-check" in n for n in res.notes)


def test_unfaithful_queries_are_never_agreed(tmp_path):
    x = z3.Int("x")
    with capturing("demo/pb") as cap:
        cap.record("T", "a pseudo-Boolean constraint", [z3.PbEq([(x > 0, 1), (x > 1, 1)], 1)], "sat", 0.1, "z3")
    q = cap.queries[0]
    assert q.unfaithful
    d = write_bundle(tmp_path, Verdict("demo/pb", "char", "proved"), cap)
    text = (d / "smt" / "001.smt2").read_text()
    assert "NOT FAITHFUL" in text
    res = recheck_bundle(d)
    assert [o.status for o in res.outcomes] == ["not faithful"] and res.status != "agreed"


# ------------------------------------------------------------------------------ the second solver
@needs_both
def test_second_solver_on_a_small_bundle(mini, capsys):
    res = recheck_bundle(mini, seconds=20)
    assert res.status == "agreed" and [o.solver.split()[0] for o in res.outcomes] == ["cvc5", "cvc5", "bitwuzla"]
    assert main(["recheck", str(mini.parent)]) == 0
    assert "1 bundles: 1 agreed" in capsys.readouterr().out


@needs_both
@pytest.mark.slow
def test_second_solver_agrees_on_every_query(bundles, capsys):
    for v in bundles.values():
        res = recheck_bundle(Path(v.certificate), seconds=30, jobs=2)
        assert res.status == "agreed", [(o.file, o.status, o.detail) for o in res.outcomes]
        solvers = {o.solver.split()[0] for o in res.outcomes}
        assert solvers == ({"bitwuzla"} if v.id == "demo/xor" else {"cvc5"})
    root = Path(bundles["demo/mirror"].certificate).parent
    assert main(["recheck", str(root)]) == 0
    out = capsys.readouterr().out
    assert "3 bundles: 3 agreed" in out and "second solver / Z3 time" in out


@needs_both
def test_undecided_within_the_limit_is_said_with_the_time(tmp_path):
    a, b = z3.BitVecs("a b", 64)
    n = 4294967291 * 4294967279            # two primes near 2^32: factoring it is hard
    hard = [z3.ZeroExt(64, a) * z3.ZeroExt(64, b) == n, z3.UGT(a, 1), z3.UGT(b, 1)]
    with capturing("demo/hard") as cap:
        cap.record("rank", "a hard query", hard, "sat", 1.0, "z3")
    d = write_bundle(tmp_path, Verdict("demo/hard", "char", "proved"), cap)
    res = recheck_bundle(d, seconds=1.0)
    (o,) = res.outcomes
    assert o.status == "undecided" and "s)" in o.detail and res.status == "incomplete"


@needs_cvc5
def test_second_solver_inline(tmp_path, capsys):
    f = tmp_path / "th.py"
    f.write_text("from grundy.verify import Claim, heaps\n"
                 "CLAIMS = [Claim('demo/m', game='nim', kind='char', family=heaps(2), bounds={'heap': 2},\n"
                 "                statement=lambda g, s: s.heap[0] == s.heap[1], methods=['smt'], expect='proved')]\n")
    assert main(["verify", str(f), "--second-solver", "--json", "--jobs", "1", "--no-cache"]) == 0
    line = json.loads(capsys.readouterr().out.splitlines()[0])
    assert line["verdict"] == "proved" and "certificate" not in line      # a temporary bundle
    agreed, total = re.match(r"(\d+) of (\d+) SMT queries agreed", line["coverage"]["second solver"]).groups()
    assert agreed == total and int(total) > 0


def test_a_disagreement_makes_the_verdict_an_error():
    v = Verdict("demo/x", "char", "proved")
    bad = Outcome("003.smt2", "demo/x", "PN: ...", "unsat", 0.1, "sat", 0.2, "cvc5", "disagreed",
                  "Z3 answered unsat, cvc5 answers sat")
    second_opinion(v, BundleResult("b", "demo/x", "proved", "disagreed", [bad]))
    assert v.verdict == "error" and "cvc5 answers sat" in v.detail
    ok = Verdict("demo/y", "char", "proved")
    good = Outcome("001.smt2", "demo/y", "T: ...", "unsat", 0.1, "unsat", 0.2, "cvc5", "agreed")
    second_opinion(ok, BundleResult("b", "demo/y", "proved", "agreed", [good]))
    assert ok.verdict == "proved" and ok.coverage["second solver"] == "1 of 1 SMT queries agreed"


# ------------------------------------------------------------------------------ mutations
def _sexprs(text: str) -> list[str]:
    """The top-level s-expressions of an SMT-LIB script (comments dropped)."""
    body = "\n".join(ln for ln in text.splitlines() if not ln.startswith(";"))
    out, depth, start = [], 0, None
    for i, ch in enumerate(body):
        if ch == "(":
            if depth == 0:
                start = i
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                out.append(body[start:i + 1])
    return out


FLIPS = [("(bvsle ", "(bvslt "), ("(bvslt ", "(bvsle "), ("(bvsge ", "(bvsgt "), ("(<= ", "(< "),
         ("(< ", "(<= "), ("(>= ", "(> "), ("(= ", "(distinct ")]


def _mutations(text: str) -> list[tuple[str, str]]:
    """Weakened versions of a query: each assertion dropped, each comparison flipped (one at a time)."""
    header = [ln for ln in text.splitlines() if ln.startswith(";")]
    parts = _sexprs(text)
    out = []
    for i, p in enumerate(parts):
        if p.startswith("(assert"):
            out.append((f"drop assertion {i}", "\n".join(header + parts[:i] + parts[i + 1:]) + "\n"))
    for old, new in FLIPS:
        for m in list(re.finditer(re.escape(old), text))[:1]:
            out.append((f"{old.strip()} -> {new.strip()} at {m.start()}", text[:m.start()] + new + text[m.end():]))
    return out


def _z3_answer(text: str) -> str:
    s = z3.Solver()
    s.set("timeout", 5000)
    s.from_string("\n".join(ln for ln in text.splitlines() if not ln.startswith(";")))
    return str(s.check())


def _forge(d: Path, e: dict, text: str) -> dict:
    """Write ``text`` as the query's file and make the index and the manifest match it (what a
    forger would do: only re-solving the file can catch it)."""
    (d / "smt" / e["file"]).write_text(text)
    index = json.loads((d / "smt" / "index.json").read_text())
    for x in index:
        if x["file"] == e["file"]:
            x["sha256"] = hashlib.sha256(text.encode()).hexdigest()
            x["z3"] = e["z3"]
            e = x
    (d / "smt" / "index.json").write_text(json.dumps(index))
    m = json.loads((d / "manifest.json").read_text())
    m["smt"]["index_sha256"] = hashlib.sha256((d / "smt" / "index.json").read_bytes()).hexdigest()
    (d / "manifest.json").write_text(json.dumps(m))
    return e


@needs_both
def test_mutations_of_a_small_bundle_are_caught(mini, tmp_path):
    """The fast set: in each query of the small bundle, every weakening whose answer changes and
    the edited result, forged (digests made to match): all caught by re-solving."""
    index = json.loads((mini / "smt" / "index.json").read_text())
    tried = caught = 0
    for e in index:
        text = (mini / "smt" / e["file"]).read_text()
        flip = {"sat": "unsat", "unsat": "sat"}[e["z3"]]
        cases = [m for _, m in _mutations(text) if _z3_answer(m) not in (e["z3"], "unknown")][:2]
        cases.append(None)
        for m in cases:
            d = tmp_path / f"m{tried}"
            shutil.copytree(mini, d)
            if m is None:
                forged = _forge(d, dict(e, z3=flip), text.replace(f"; z3 result: {e['z3']}", f"; z3 result: {flip}", 1))
            else:
                forged = _forge(d, dict(e), m)
            tried += 1
            caught += recheck_query(d, forged, 20).status == "disagreed"
    assert tried >= 6 and caught == tried


@needs_both
@pytest.mark.slow
def test_mutations_are_all_caught(bundles, tmp_path):
    """Weakened queries (an assertion dropped, a comparison flipped) whose answer changes, and
    edited results: every one is caught, whether the index still holds the file's digest (the
    digest differs) or a forger updated it (the second solver's answer differs)."""
    effective, caught_raw, caught_forged = 0, 0, 0
    for cid in ("demo/mirror", "demo/xor", "demo/false"):
        src = Path(bundles[cid].certificate)
        index = json.loads((src / "smt" / "index.json").read_text())
        for e in index[:5]:
            if e["z3"] not in ("sat", "unsat"):
                continue
            text = (src / "smt" / e["file"]).read_text()
            for _, mutated in _mutations(text):
                if _z3_answer(mutated) in (e["z3"], "unknown"):
                    continue                  # not weaker in effect: nothing to catch
                effective += 1
                d = tmp_path / f"m{effective}"
                shutil.copytree(src, d)
                (d / "smt" / e["file"]).write_text(mutated)          # as edited: the digest is off
                caught_raw += recheck_query(d, e, 20).status == "disagreed"
                forged = _forge(d, dict(e), mutated)                 # the digests made to match
                caught_forged += recheck_query(d, forged, 20).status == "disagreed"
            # the recorded result edited (header and index alike)
            flip = {"sat": "unsat", "unsat": "sat"}[e["z3"]]
            d = tmp_path / f"r{cid.split('/')[1]}{e['file']}"
            shutil.copytree(src, d)
            edited = text.replace(f"; z3 result: {e['z3']}", f"; z3 result: {flip}", 1)
            effective += 1
            forged = _forge(d, dict(e, z3=flip), edited)
            caught_forged += recheck_query(d, forged, 20).status == "disagreed"
            caught_raw += 1                   # counted once: the raw edit of a result is the forged one
    print(f"mutations: {effective} effective, {caught_raw} caught as written, {caught_forged} caught forged")
    assert effective >= 20
    assert caught_raw == effective and caught_forged == effective


@needs_both
def test_recheck_exit_status_on_a_damaged_bundle(mini, tmp_path, capsys):
    src = mini
    d = tmp_path / src.name
    shutil.copytree(src, d)
    index = json.loads((d / "smt" / "index.json").read_text())
    (d / "smt" / index[-1]["file"]).unlink()                          # an obligation dropped
    assert main(["recheck", str(d)]) == 1
    assert "the file is missing" in capsys.readouterr().out
    shutil.rmtree(d)
    shutil.copytree(src, d)
    index.pop(0)                                                     # an entry dropped from the index
    (d / "smt" / "index.json").write_text(json.dumps(index))
    assert main(["recheck", str(d)]) == 1
    out = capsys.readouterr().out
    assert "the manifest counts" in out and "disagreed" in out
