"""Strategy refutations in an explicit bundle, re-checked by the stand-alone checker
(checker/grundy_check.py): the strategy travels as data (its cases in the exported IR), the
failing line as [move, choices, state] steps; the checker evaluates the strategy itself at each
of its turns, applies every move with its own compiled rules and finds the failure at the end;
for ``exact`` it recomputes the winning moves. Edits of the line, of the strategy or of the
claim are disagreements."""
from __future__ import annotations

import copy
import importlib.util
import json
import pathlib

import pytest

from grundy.spec import Play
from grundy.verify import Claim, check_claim
from grundy.verify.certificates import run_checker, write_explicit
from grundy.verify.families import heaps

ROOT = pathlib.Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("grundy_check", ROOT / "checker" / "grundy_check.py")
CK = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(CK)


def _h(s, i):
    return s.heap[i]


def greedy(g, s, rules):
    """Even up the larger heap, else take 1 from heap 2: loses from [0, 2] after two moves."""
    return [Play(_h(s, 0) > _h(s, 1), 0, {"k": _h(s, 0) - _h(s, 1)}), Play(_h(s, 1) > 0, 1, {"k": 1})]


def mirror(g, s, rules):
    """Bouton's mirror on two heaps: wins from every N-position in normal play."""
    return [Play(_h(s, 0) > _h(s, 1), 0, {"k": _h(s, 0) - _h(s, 1)}),
            Play(_h(s, 1) > _h(s, 0), 1, {"k": _h(s, 1) - _h(s, 0)})]


def mirror_and_one(g, s, rules):
    """The mirror, and also 'take 1 from the larger heap' (a losing move where the heaps differ by more)."""
    return mirror(g, s, rules) + [Play(_h(s, 0) > _h(s, 1), 0, {"k": 1})]


def mirror_misere(g, s, rules):
    """The mirror, and from two equal heaps take all of heap 1: empties the board from [2, 0]."""
    return mirror(g, s, rules) + [Play((_h(s, 0) == _h(s, 1)) & (_h(s, 0) > 0), 0, {"k": _h(s, 0)})]


def misere_p(g, s):
    small = (s.heap[0] <= 1) & (s.heap[1] <= 1)
    return (small & ((s.heap[0] ^ s.heap[1]) == 1)) | (~small & (s.heap[0] == s.heap[1]))


def _claim(cid, strategy, **kw):
    kw.setdefault("statement", lambda g, s: s.heap[0] == s.heap[1])
    return Claim(cid, game="nim", kind="strategy", family=heaps(2), bounds={"heap": 3}, strategy=strategy,
                 expect="refuted", **kw)


CLAIMS = {
    "illegal": _claim("t/illegal", lambda g, s, rules: [Play(s.heap[0] != s.heap[1], 0, {"k": 1})]),
    "line": _claim("t/line", greedy),
    "misere": _claim("t/misere", mirror_misere, convention="misere", statement=misere_p),
    "exact": _claim("t/exact", mirror_and_one, exact=True),
}


@pytest.fixture(scope="module")
def bundles(tmp_path_factory):
    out = {}
    for name, c in CLAIMS.items():
        v = check_claim(c)
        assert v.verdict == "refuted", (c.id, v.verdict, v.detail)
        d = tmp_path_factory.mktemp(name)
        assert write_explicit(d, c, v) == ["explicit.json"]
        out[name] = (v, d, json.loads((d / "explicit.json").read_text()))
    return out


@pytest.mark.parametrize("name", sorted(CLAIMS))
def test_each_strategy_refutation_is_agreed_with_in_a_fresh_process(bundles, name):
    v, d, data = bundles[name]
    assert data["supported"] and data["instances"][0]["strategy"], data.get("reason")
    r = run_checker(d)
    assert r["status"] == "agreed", r
    cex = data["counterexample"]
    if name == "exact":
        assert cex["exact"] and "winning moves are" in r["detail"]
    else:
        assert len(cex["line"]) == len(v.counterexample.line) and "strategy fails" in r["detail"]


def test_the_failures_are_found_by_the_checker(bundles):
    """The checker names the failure it finds itself, each kind once."""
    said = {name: run_checker(bundles[name][1])["detail"].splitlines()[-2] for name in ("illegal", "line", "misere")}
    assert "is not legal" in said["illegal"]
    assert "it has no move" in said["line"] and "after 2 moves" in said["line"]
    assert "leaves the opponent without a move" in said["misere"]


def caught(b):
    try:
        CK.check(json.loads(json.dumps(b)))
    except (CK.Disagree, CK.Bad) as e:
        return str(e)
    return None


def _point_choice_at_new_const(inst, k):
    """The strategy's cases whose choice is node ``k`` (a constant) choose that constant + 1, through
    a node of their own: equal constants may share one node with a guard or an index, and
    editing the shared node would change those too (whether they share depends on what the
    process interned before)."""
    node = list(inst["nodes"][k])
    node[2] += 1
    inst["nodes"].append(node)
    for case in inst["strategy"]:
        if case["choices"][0] == k:
            case["choices"][0] = len(inst["nodes"]) - 1


def _edits(b):
    """(name, edit) for one strategy bundle: each changes what the line or the strategy shows."""
    inst = b["instances"][0]
    out = [("start claimed P", lambda m: m["counterexample"]["state"].__setitem__(1, m["counterexample"]["state"][0])),
           ("strategy dropped", lambda m: m["instances"][0].update(strategy=[]))]
    k_nodes = {c["choices"][0] for c in inst["strategy"]} - {c["when"] for c in inst["strategy"]}
    for k in sorted(k_nodes):
        if inst["nodes"][k][0] == "const":          # a new node for the choice: the old one may be shared
            out.append((f"strategy constant {k}", lambda m, k=k: _point_choice_at_new_const(m["instances"][0], k)))
    line = b["counterexample"].get("line") or []
    for j in range(len(line)):
        out.append((f"step {j} choice + 1", lambda m, j=j: m["counterexample"]["line"][j][1].__setitem__(
            0, m["counterexample"]["line"][j][1][0] + 1)))
        out.append((f"step {j} state edited", lambda m, j=j: m["counterexample"]["line"][j][2].__setitem__(
            0, m["counterexample"]["line"][j][2][0] + 1)))
    if len(line) >= 2:
        out.append(("line cut short", lambda m: m["counterexample"].update(line=m["counterexample"]["line"][:-2])))
    if b["counterexample"].get("exact"):
        out.append(("exact dropped", lambda m: m["instances"][0].update(exact=None)))
    return out


@pytest.mark.parametrize("name", sorted(CLAIMS))
def test_every_edit_of_a_strategy_bundle_is_caught_with_the_digests_fixed(bundles, name):
    b = bundles[name][2]
    assert caught(b) is None
    edits = _edits(b)
    assert len(edits) >= 2
    for what, edit in edits:
        m = copy.deepcopy(b)
        edit(m)
        for inst in m["instances"]:            # an adversary who recomputes the digests
            inst["game_digest"] = CK.game_digest(inst)
        if not (name == "illegal" and what.startswith("strategy constant")):
            assert caught(m) is not None, (name, what)
        # "illegal": a strategy whose chosen amount is edited fails at the same state too (take 2
        # from an empty heap is as illegal as take 1): that bundle is a true refutation of *another*
        # strategy, which only the digest binding it to the claim tells apart (checked next).
        assert caught({**m, "instances": [dict(m["instances"][0], game_digest="0" * 64)]}) is not None


def test_a_verdict_read_back_from_json_still_carries_its_line(tmp_path):
    from grundy.verify.verdict import Verdict
    c = CLAIMS["line"]
    v = Verdict.from_json(json.loads(json.dumps(check_claim(c).to_json())))
    assert v.counterexample.origin is None
    assert write_explicit(tmp_path, c, v) == ["explicit.json"]
    assert run_checker(tmp_path)["status"] == "agreed"
