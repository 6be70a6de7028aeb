"""The theorem files: their claims load, and (slow) every verdict is the expected one, the
planted claims' witnesses being the smallest ones found by a naive brute force written here."""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import pytest

from grundy.cli import main
from grundy.verify.runner import load

THEOREMS = Path(__file__).resolve().parent.parent / "theorems"

REQUIRED = {
    "selfref/thm5.2": "proved", "selfref/thm3.1": "proved", "selfref/thm5.8": "proved",
    "selfref/thm4.5": "proved", "erickson/prop3.1": "proved", "erickson/prop3.1-strategy": "proved",
    "planted/thm5.2-off-by-one": "refuted", "planted/thm3.1-off-by-one": "refuted",
    "planted/thm5.8-off-by-one": "refuted", "planted/thm4.5-off-by-one": "refuted",
    "planted/prop3.1-off-by-one": "refuted", "planted/prop3.1-strategy-off-by-one": "refuted",
}


def test_theorem_files_load():
    claims = {c.id: c for c in load([str(THEOREMS)])}
    for cid, expect in REQUIRED.items():
        assert claims[cid].expect == expect


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
    files = [str(THEOREMS / f) for f in ("selfref.py", "erickson.py", "planted.py")]
    code = main(["verify", *files, "--json", "--jobs", "2"])
    out = capsys.readouterr().out
    got = {o["id"]: o for o in map(json.loads, out.splitlines())}
    assert code == 0
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
