"""theorems/classics.py: Bouton's theorem and misère Nim (3 heaps) against a naive recursion
written here, their Z3 proofs on 32-bit vectors, and the planted twins refuted by Z3 at the
one large position where they differ."""
from __future__ import annotations

import itertools
from functools import lru_cache

import pytest
from theorem_files import theorem_module

from grundy.spec import Structure, evaluate
from grundy.spec.games import get_game
from grundy.verify.check import check_claim

CLASSICS = theorem_module("classics")
CLAIMS = {c.id: c for c in CLASSICS.CLAIMS}


@lru_cache(maxsize=None)
def mover_wins(h: tuple[int, ...], misere: bool) -> bool:
    """Plain recursion over Nim positions (sorted tuples)."""
    opts = {tuple(sorted(h[:i] + (h[i] - k,) + h[i + 1:])) for i in range(len(h)) for k in range(1, h[i] + 1)}
    if not opts:
        return misere
    return any(not mover_wins(o, misere) for o in opts)


@pytest.mark.parametrize("statement, misere", [(CLASSICS.bouton_p, False), (CLASSICS.misere_p, True)])
def test_statements_match_a_naive_recursion(statement, misere):
    rules = get_game("nim").rules(Structure.heaps(3))
    p = statement(rules.structure, rules.state)
    names = [rules.schema.var_name(i) for i in range(3)]
    for h in itertools.product(range(9), repeat=3):
        claimed_p = evaluate(p, dict(zip(names, h)))
        assert claimed_p == (not mover_wins(tuple(sorted(h)), misere)), h


@pytest.mark.parametrize("cid", ["classics/bouton-3", "classics/misere-nim-3", "classics/lasker-nim"])
def test_proved_by_z3_below_2_to_the_32(cid):
    v = check_claim(CLAIMS[cid], timeout=120)
    assert v.verdict == "proved", v.detail
    assert "2^32" in v.scope
    wanted = {"parts", "mex-equal", "mex-below"} if "lasker" in cid else {"PN", "NP", "T", "closed"}
    assert {o["obligation"] for o in v.obligations} >= wanted


def test_lasker_formula_matches_a_naive_recursion():
    @lru_cache(maxsize=None)
    def g(n):
        opts = {g(n - k) for k in range(1, n + 1)} | {g(a) ^ g(n - a) for a in range(1, n // 2 + 1)}
        return next(m for m in range(n + 2) if m not in opts)
    expr = CLASSICS.lasker_value(None, get_game("nim").rules(Structure.heaps(1)).state)
    for n in range(120):
        assert evaluate(expr, {"heap[0]": n}) == g(n), n


@pytest.mark.parametrize("cid", ["planted/bouton-3-far", "planted/misere-nim-3-far"])
def test_planted_twins_are_refuted_at_their_large_position(cid):
    # too large to solve: the refutation is a certificate (two claimed P-positions a move apart)
    v = check_claim(CLAIMS[cid], timeout=120)
    assert v.verdict == "refuted", v.detail
    cex = v.counterexample
    assert sorted(cex.witness["heaps"]) == [0, 0, CLASSICS.BIG] and cex.claimed == "P"
    assert "Z3" in cex.how and "certificate" in cex.how


def test_lasker_planted_is_refuted_next_to_its_heap():
    import copy
    c = copy.copy(CLAIMS["planted/lasker-nim-far"])
    c.methods = c.methods[1:]                     # Z3 alone: the sweep (heap <= 200) cannot see it
    v = check_claim(c, timeout=120)
    assert v.verdict == "refuted", v.detail
    cex = v.counterexample
    big = CLASSICS.BIG_LASKER
    # the planted value at big equals the (true) value of big + 1, one removal above it
    assert cex.witness["heaps"] in ([big], [big + 1]) and "certificate" in cex.how
    assert f"heaps': [{big}]" in cex.how or cex.witness["heaps"] == [big]


def test_unbounded_integers_refuse_the_nim_sum_with_a_hint():
    import copy
    c = copy.copy(CLAIMS["classics/bouton-3"])
    c.methods = [type(c.methods[1])()]            # Smt() on unbounded integers
    v = check_claim(c, timeout=60)
    assert v.verdict == "error"
    assert "bitvec(32)" in v.detail and "classics/bouton-3" in v.detail
