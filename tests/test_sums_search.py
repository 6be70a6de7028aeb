"""Sprague-Grundy checked, not assumed: the method "search" values each sum by a search over the
whole sum, so a claim "the sum's value is the XOR of its parts' values" is a real check."""
import pytest

from grundy.errors import ClaimError
from grundy.verify import Claim
from grundy.verify.check import check_claim
from grundy.verify.families import heaps, positions, sums

NIM = [{"game": "nim", "heaps": [k]} for k in range(6)]
TAKE3 = [{"game": "subtraction", "set": [1, 2, 3], "heaps": [k]} for k in range(7)]


def nim_misere(n):                 # misère Grundy value of one Nim heap: mex of the options, 1 at 0
    return 1 if n == 0 else 0 if n == 1 else n


def xor_normal(g, s):              # the parts' normal-play values (known formulas), XORed
    return s[0].heap[0] ^ (s[1].heap[0] % 4)


def xor_misere(g, s):
    return nim_misere(s[0].heap[0]) ^ nim_misere(s[1].heap[0])


def test_normal_play_xor_is_verified_by_search():
    v = check_claim(Claim("t/sg-normal", game="sum", kind="grundy", family=sums(NIM, TAKE3), statement=xor_normal,
                          methods=["search"]))
    assert v.verdict == "verified", v.detail
    assert "by a search over the whole sum" in v.scope and "Sprague-Grundy not used" in v.scope


def test_the_xor_path_says_it_uses_the_theorem():
    v = check_claim(Claim("t/sg-xor", game="sum", kind="grundy", family=sums(NIM, TAKE3), statement=xor_normal))
    assert v.verdict == "verified" and "the Sprague-Grundy theorem, used" in v.scope


def test_misere_xor_is_refuted_by_search():
    misere = positions(lambda: ({"game": "sum", "convention": "misere", "parts": [a, b]} for a in NIM for b in NIM),
                       "misère sums of two Nim heaps")
    v = check_claim(Claim("t/sg-misere", game="sum", kind="grundy", family=misere, statement=xor_misere,
                          convention="misere", methods=["search"], expect="refuted"))
    assert v.verdict == "refuted"
    c = v.counterexample
    parts = [p["heaps"][0] for p in c.witness["parts"]]
    assert c.claimed == nim_misere(parts[0]) ^ nim_misere(parts[1]) != c.actual


def test_search_serves_sums_only():
    with pytest.raises(ClaimError, match="search"):
        Claim("t/x", game="nim", kind="char", family=heaps(1), statement=lambda g, s: True, methods=["search"])
