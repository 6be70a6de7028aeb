"""The theorem files: their claims load, and (slow) every verdict is the expected one, the
planted claims' witnesses being the smallest ones found by a naive brute force written here."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import pytest

from grundy.cli import main
from grundy.verify.loading import load

THEOREMS = Path(__file__).resolve().parent.parent / "theorems"

REQUIRED = {
    "selfref/thm5.2": "proved", "selfref/thm3.1": "proved", "selfref/thm5.8": "proved",
    "selfref/thm4.5": "proved", "erickson/prop3.1": "proved", "erickson/prop3.1-strategy": "proved",
    "planted/thm5.2-off-by-one": "refuted", "planted/thm3.1-off-by-one": "refuted",
    "planted/thm5.8-off-by-one": "refuted", "planted/thm4.5-off-by-one": "refuted",
    "planted/prop3.1-off-by-one": "refuted", "planted/prop3.1-strategy-off-by-one": "refuted",
}


# every claim id of the seed papers' published results
SEED_IDS = """
erickson/2.2-paths erickson/2.2-odd-cycle erickson/3-uniform-even-cycle erickson/prop3.1
erickson/prop3.1-strategy erickson/thm4.1 erickson/cor4.2 erickson/lemma4.3-ssb-strategy erickson/thm4.6
erickson/cor4.7 erickson/conj4.8 erickson/conj4.9-4.11-complete-graph-strategy erickson/conj4.12
erickson/thm5.3 erickson/5.3-uniform erickson/prop5.5 erickson/prop5.6 erickson/prop5.7 erickson/thm6.4-6.5
erickson/lemma6.3-strategy erickson/thm7.1 erickson/thm7.2 grim/thm8 grim/lemma9 grim/thm10 grim/lemma11
grim/thm12 grim/lemma13 grim/thm15 grim/cor16 grim/cor17 grim/cor19 grim/thm23 grim/5-even-paths grim/cor24
grim/cor26 grim/6-three-vertices grim/thm30 vnim/thm3 vnim/remark5 vnim/thm6 vnim/prop9 vnim/thm10
vnim/cor12 vnim/thm13 vnim/thm14 selfref/thm1.4 selfref/1.3-wythoff selfref/thm2.1 selfref/thm2.3
selfref/thm2.4 selfref/thm2.5 selfref/2.2-restricted selfref/thm3.1 selfref/thm3.2 selfref/lemma4.2
selfref/lemma4.3-4.4 selfref/thm4.5 selfref/lemma4.6-4.9 selfref/thm4.10 selfref/thm4.11 selfref/thm4.12
selfref/thm4.13-cor4.14 selfref/thm4.15-4.16 selfref/lemma4.17-thm4.18 selfref/lemma4.19-thm4.20
selfref/thm4.21-4.24 selfref/4.3-two-stars-conj selfref/4.3-examples selfref/q6.4 selfref/lemma5.1
selfref/thm5.2 selfref/thm5.3 selfref/thm5.4 selfref/conj5.6 selfref/thm5.8 selfref/thm5.9-5.12
selfref/thm5.13 selfref/thm5.14 selfref/thm5.15 selfref/5.5-mine-strategy
""".split()


def test_theorem_files_load():
    claims = {c.id: c for c in load([str(THEOREMS)])}
    for cid, expect in REQUIRED.items():
        assert claims[cid].expect == expect
    assert len(SEED_IDS) == 81
    assert not [cid for cid in SEED_IDS if cid not in claims], "seed claims missing from theorems/"


# ------------------------------------------------------------------ naive games on sorted tuples
def _live(h):
    return tuple(sorted(x for x in h if x > 0))


def minnie_moves(h):
    h = _live(h)
    return {_live(h[:i] + (h[i] - k,) + h[i + 1:]) for i in range(len(h)) for k in range(1, h[0] + 1)} if h else set()


def mine_moves(h):
    return {t for t in minnie_moves(h) if len(set(t)) == len(t)}


def wynnie_moves(h):
    h = _live(h)
    if not h:
        return set()
    out = {_live(h[:i] + (h[i] - k,) + h[i + 1:]) for i in range(len(h)) for k in range(1, h[0] + 1)}
    if len(h) == 2:
        out |= {_live((h[0] - k, h[1] - k)) for k in range(1, h[0] + 1)}
    return out


def nimb_moves(h):
    h = _live(h)
    low = h[0] if h else 0
    out = set()
    for i in range(len(h)):
        for k in range(1, h[i] + 1):
            t = _live(h[:i] + (h[i] - k,) + h[i + 1:])
            if (t[0] if t else 0) != low:
                out.add(t)
    return out


def solver(moves):
    @lru_cache(maxsize=None)
    def grundy(h):
        opts = {grundy(t) for t in moves(h)}
        g = 0
        while g in opts:
            g += 1
        return g
    return grundy


def smallest(bad):
    return min(bad, key=lambda h: (sum(h), max(h), h))


def edge_nim_p(n, weights, token):
    """Edge-nim on C_n (edge i joins i and i+1 mod n), naive recursion."""
    @lru_cache(maxsize=None)
    def wins(ws, t):
        for e in ((t - 1) % n, t):                 # the edges at t
            if ws[e] > 0:
                other = (t + 1) % n if e == t else (t - 1) % n
                for w in range(ws[e]):
                    if not wins(ws[:e] + (w,) + ws[e + 1:], other):
                        return True
        return False
    return not wins(tuple(weights), token)


@pytest.mark.slow
def test_verify_theorems_all_as_expected(capsys):
    # the whole library, quick profile: what README's main command runs; CI keeps it from regressing
    # a busy machine is slower, never another verdict: a generous time limit for every claim
    code = main(["verify", str(THEOREMS), "--json", "--jobs", "2", "--timeout", "3600"])
    out = capsys.readouterr().out
    got = {o["id"]: o for o in map(json.loads, out.splitlines())}
    assert code == 0, [(o["id"], o["verdict"], o["expected"]) for o in got.values() if o["verdict"] != o["expected"]]
    for cid in SEED_IDS:
        assert got[cid]["verdict"] != "error", (cid, got[cid])
    for o in got.values():
        if o["verdict"] == "refuted":
            assert o["witness"]["game"] and o["line"] is not None, o["id"]
    for cid, expect in REQUIRED.items():
        assert got[cid]["verdict"] == expect, (cid, got[cid])
    assert "2^32" in got["selfref/thm4.5"]["scope"]

    # planted heap claims: the witness is the smallest wrong position (sum, then max)
    R = range(0, 21)
    minnie, mine, wynnie = solver(minnie_moves), solver(mine_moves), solver(wynnie_moves)
    nimb = solver(nimb_moves)

    def p_minnie_planted(a, b):
        return (b == 0 or (a == 1 and b % 2 == 1) or (a == 2 and b % 4 == 2)
                or (a == 3 and b % 4 == 0 and b >= 4) or (a == 4 and b == 4))

    def p_mine_planted(a, b):
        return b == 0 or (a == 1 and b % 2 == 0) or (a == 2 and b % 4 == 3) or (a == 3 and b % 4 == 3 and b > 3)

    def p_wynnie_planted(r, c):
        return c == 0 or (r < c and any(r == 2**n - 1 and c % 2**n == 2**(n - 1) % 2**n for n in range(1, 8)))

    cases = [
        ("planted/thm5.2-off-by-one", [(a, b) for a in R for b in R if a <= b
                                       and p_minnie_planted(a, b) != (minnie((a, b)) == 0)]),
        ("planted/thm5.8-off-by-one", [(a, b) for a in R for b in R if a <= b and (a != b or a == 0)
                                       and p_mine_planted(a, b) != (mine((a, b)) == 0)]),
        ("planted/thm4.5-off-by-one", [(a, b) for a in R for b in R if a <= b
                                       and p_wynnie_planted(a, b) != (wynnie((a, b)) == 0)]),
    ]
    for cid, bad in cases:
        assert sorted(got[cid]["witness"]["heaps"]) == list(smallest(bad)), cid
    # nimb: G = a1 claimed; 2 heaps first (fewer heaps), smallest wrong position
    bad = [(a, b) for a in range(9) for b in range(a, 9)
           if (min(a, b) if a and b else a + b) != nimb((a, b))]
    w = got["planted/thm3.1-off-by-one"]
    assert sorted(w["witness"]["heaps"]) == list(smallest(bad))
    assert w["actual"] == nimb(tuple(w["witness"]["heaps"]))

    # planted prop3.1: the witness is a C_4 position where the naive outcome is N, claimed P
    w = got["planted/prop3.1-off-by-one"]
    pos = w["witness"]
    assert len(pos["nodes"]) == 4 and w["claimed"] == "P" and w["actual"] == "N"
    ws = {tuple(sorted((u, v))): x for u, v, x in pos["edges"]}
    weights = [ws[tuple(sorted((i, (i + 1) % 4)))] for i in range(4)]
    assert not edge_nim_p(4, weights, pos["token"])
    assert sum(weights) == 1          # one edge of weight 1 at the token: the smallest such position
