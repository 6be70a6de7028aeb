"""Mutations of real explicit bundles, each of which the stand-alone checker must catch.

From a few bundles written by grundy (a sweep in normal and in misère play, a refutation with its
options, a table of listed positions on a heap rule, a period proved by a theorem, a far refutation by a certificate) a generated set
of mutations: one value flipped, one outcome flipped, one position dropped, one constant of the
rules changed, one constant of the statement changed, the convention changed, the period's
constants changed. Two mutators:

- a naive one, which edits the file as a careless or dishonest hand would: 100 % caught (by the
  recomputation, the coverage or the digests the bundle records);
- an adversarial one, which also recomputes every digest and count it can: every mutation that
  changes the truth at some listed position (or the coverage of a sweep) is still caught, by
  recomputation alone, and a mutation that changes nothing the bundle lists raises no alarm.
"""
from __future__ import annotations

import copy
import importlib.util
import json
import pathlib
import random

import pytest

from grundy.spec import ite
from grundy.verify import Claim, check_claim
from grundy.verify.certificates import run_checker, write_explicit
from grundy.verify.families import heaps, paths
from grundy.verify.loading import load

ROOT = pathlib.Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("grundy_check", ROOT / "checker" / "grundy_check.py")
CK = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(CK)

CLAIMS = [
    Claim("m/bouton", game="nim", kind="char", family=heaps(2), bounds={"heap": 3},
          statement=lambda g, s: s.heap[0] == s.heap[1]),
    Claim("m/misere-nim", game="nim", kind="grundy", family=heaps(2), bounds={"heap": 2}, convention="misere",
          statement=lambda g, s: ite((s.heap[0] <= 1) & (s.heap[1] <= 1), 1 - (s.heap[0] ^ s.heap[1]),
                                     s.heap[0] ^ s.heap[1])),
    Claim("m/wythoff", game="wythoff", kind="char", family=heaps(2), bounds={"heap": 5},
          statement=lambda g, s: ((s.heap[0] == 0) & (s.heap[1] == 0)) | ((s.heap[0] == 1) & (s.heap[1] == 2))
          | ((s.heap[0] == 2) & (s.heap[1] == 1)) | ((s.heap[0] == 3) & (s.heap[1] == 5))
          | ((s.heap[0] == 5) & (s.heap[1] == 3))),
    Claim("m/edge-nim-wrong", game="edge-nim", kind="char", family=paths(3), bounds={"weight": 2},
          statement=lambda g, s: s.weight[0] == s.weight[1] + 1, expect="refuted"),
    Claim("m/lasker-table", game="lasker-nim", table=[0, 1, 2, 4, 3, 5, 6, 8]),
    Claim("m/s134", game="subtraction", params={"set": [1, 3, 4]}, kind="period", period=(0, 7), expect="proved"),
    *(c for c in load([str(ROOT / "theorems" / "classics.py")]) if c.id == "planted/bouton-3-far"),
]


@pytest.fixture(scope="module")
def bundles(tmp_path_factory):
    out = {}
    for c in CLAIMS:
        v = check_claim(c)
        assert v.verdict == c.expect, (c.id, v.verdict, v.detail)
        d = tmp_path_factory.mktemp(c.id.replace("/", "_"))
        assert write_explicit(d, c, v) == ["explicit.json"]
        assert run_checker(d)["status"] == "agreed"
        out[c.id] = json.loads((d / "explicit.json").read_text())
    return out


# ------------------------------------------------------------------ the mutations
def _reachable(nodes, roots):
    seen, todo = set(), [r for r in roots if isinstance(r, int)]
    while todo:
        i = todo.pop()
        if i not in seen:
            seen.add(i)
            if nodes[i][0] not in ("const", "var"):
                todo.extend(nodes[i][2:])
    return seen


def _rule_roots(inst):
    roots = [inst["rules"]["rank"]]
    for m in inst["rules"]["moves"]:
        roots += [m["guard"], *(e for _, e in m["update"]), *(c[k] for c in m["choices"] for k in ("lo", "hi"))]
    for o in (inst.get("heap_rule") or {}).get("options", []):
        roots += [o["guard"], *o["parts"], *(c[k] for c in o["choices"] for k in ("lo", "hi"))]
    return roots


def _bump(node):
    v = node[2]
    node[2] = (not v) if isinstance(v, bool) else v + 1


def mutations(b, rng):
    """(name, mutated bundle) for one bundle: every kind that applies to it."""
    out = []

    def edit(name, fn):
        m = copy.deepcopy(b)
        fn(m)
        out.append((name, m))
    for i, inst in enumerate(b["instances"]):
        n = len(inst["positions"])
        for j in sorted(rng.sample(range(n), min(3, n))):
            if "value" in inst["positions"][j]:           # a claim on values (else outcomes only)
                edit(f"value+1 at {i}/{j}", lambda m, i=i, j=j: m["instances"][i]["positions"][j].update(
                    value=m["instances"][i]["positions"][j]["value"] + 1))
            edit(f"outcome flipped at {i}/{j}", lambda m, i=i, j=j: m["instances"][i]["positions"][j].update(
                outcome="N" if m["instances"][i]["positions"][j]["outcome"] == "P" else "P"))
            edit(f"position {i}/{j} dropped", lambda m, i=i, j=j: m["instances"][i]["positions"].pop(j))
        nodes = inst["nodes"]
        rule = _reachable(nodes, _rule_roots(inst))
        stmt = _reachable(nodes, [inst.get("statement"), inst.get("assume")]) - rule
        for what, pool in (("rule", rule), ("statement", stmt)):
            consts = sorted(k for k in pool if nodes[k][0] == "const")
            for k in sorted(rng.sample(consts, min(6, len(consts)))):
                edit(f"{what} constant node {k} ({nodes[k][2]!r}) changed in {i}",
                     lambda m, i=i, k=k: _bump(m["instances"][i]["nodes"][k]))
    conv = {"normal": "misere", "misere": "normal"}
    # a certificate other than T shows the claim false in either convention: changing it means nothing
    if b.get("certificate", {}).get("obligation", "T") == "T":
        edit("convention changed", lambda m: m["claim"].update(convention=conv[m["claim"]["convention"]]))
    if "certificate" in b:
        edit("certificate: the move's choice + 1", lambda m: m["certificate"]["move"][1].__setitem__(
            0, m["certificate"]["move"][1][0] + 1))
        edit("certificate: the position's first slot + 1", lambda m: m["certificate"]["state"].__setitem__(
            0, m["certificate"]["state"][0] + 1))
        edit("certificate: another obligation", lambda m: m["certificate"].update(obligation="mex-equal"))
    if "period" in b:
        h = b["period"]["top"] // 2
        edit("a value of the period flipped", lambda m: m["period"]["values"].__setitem__(
            h, m["period"]["values"][h] + 1))
        edit("n0 lowered", lambda m: m["period"].update(n0=m["period"]["n0"] - 1))
        edit("p changed", lambda m: m["period"].update(p=m["period"]["p"] + 1))
    return out


def caught(b):
    """Whether the checker rejects bundle ``b`` (in this process), and why."""
    try:
        CK.check(json.loads(json.dumps(b)))
    except CK.Disagree as e:
        return True, f"disagreed: {e}"
    except CK.Bad as e:
        return True, f"bad bundle: {e}"
    return False, "agreed"


def all_mutations(bundles):
    rng = random.Random(37)
    return [(cid, name, m) for cid, b in bundles.items() for name, m in mutations(b, rng)]


def test_every_naive_mutation_is_caught(bundles):
    muts = all_mutations(bundles)
    kinds = {name.split(" ")[0] for _, name, _ in muts}
    assert {"value+1", "outcome", "position", "rule", "statement", "convention", "n0", "p", "certificate:"} <= kinds
    missed = [(cid, name) for cid, name, m in muts if not caught(m)[0]]
    assert not missed, f"{len(missed)} of {len(muts)} mutations not caught: {missed}"
    assert len(muts) >= 60


def test_a_mutated_bundle_is_a_disagreement_in_a_fresh_process(bundles, tmp_path):
    cid, name, m = next(x for x in all_mutations(bundles) if x[1].startswith("value+1"))
    (tmp_path / "explicit.json").write_text(json.dumps(m))
    r = run_checker(tmp_path)
    assert r["status"] == "disagreed" and "recomputed" in r["detail"], r


# ------------------------------------------------------------------ the adversary
def redigest(b):
    """What a mutator who knows the format can also fix: every digest and count."""
    for inst in b["instances"]:
        states = [p["state"] for p in inst["positions"]]
        inst["digest"] = CK.digest(states)
        inst["game_digest"] = CK.game_digest(inst)
        if inst.get("box") is None and "count" in inst:
            b["verdict"]["positions"] += len(states) - inst["count"]
            inst["count"] = len(states)
    return b


def truth(b):
    """What the checker recomputes at every listed position (or the error it meets)."""
    misere = b["claim"]["convention"] == "misere"
    out = []
    try:
        if "period" in b:
            rule = CK.Instance(b["instances"][0], False).game.arena
            return [rule.heap_value(h) for h in range(b["period"]["top"] + 1)]
        if "certificate" in b:                  # what it shows: a contradiction, or not
            return CK.check_certificate(b, misere)
        for raw in b["instances"]:
            inst = CK.Instance(raw, misere)
            for p in raw["positions"]:
                st = tuple(p["state"])
                value = inst.game.value(st) if "value" in p else None      # what the bundle states
                out.append((value, inst.game.outcome(st), inst.claimed(p), inst.holds_assume(st)))
    except (CK.Disagree, CK.Bad, KeyError, NameError, RecursionError) as e:
        return f"error: {e}"
    return out


def test_an_adversary_who_fixes_the_digests_is_caught_wherever_the_truth_changes(bundles):
    n_visible = 0
    for cid, name, m in all_mutations(bundles):
        m = redigest(m)
        got, why = caught(m)
        kind = name.split(" ")[0]
        if kind in ("rule", "statement"):
            visible = truth(m) != truth(bundles[cid])
            n_visible += visible
            assert got == visible, (cid, name, why)
        elif kind == "position" and bundles[cid]["verdict"]["verdict"] == "verified" \
                and bundles[cid]["instances"][0].get("box") is None:
            assert not got, (cid, name, why)     # a listed family's positions are the family: said in the docs
        else:
            assert got, (cid, name, why)
    assert n_visible >= 10
