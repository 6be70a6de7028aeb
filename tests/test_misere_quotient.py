"""Misère quotients (grundy.solvers.misere): cross-checked against misère search, structure theorems,
published quotients, claims refuted."""
from __future__ import annotations

import functools

import pytest

from grundy.solvers.misere import (
    Quotient,
    check_order_claim,
    check_quotient_claim,
    code_options,
    from_presentation,
    is_tame,
    isomorphic,
    mismatches,
    quotient_of,
    search_outcomes,
)
from grundy.solvers.misere.monoid import Monoid, minimal_generators, reduce
from grundy.spec.heaprule import TakeBreak, parse_octal

TOTAL = 24          # every sum of heaps of total size <= 24

# codes whose quotient is computed for heaps <= 24 (or proved) within seconds
CODES = ["0.75", "0.31", "0.123", "0.12", "0.33"]
WILD = ["0.77", "0.07"]          # Kayles, Dawson's Kayles: heaps <= 24, classes split on the way (slow)


def nim_options(n: int) -> list[tuple[int, ...]]:
    return [(k,) if k else () for k in range(n)]


@pytest.fixture(scope="module")
def quotients() -> dict[str, Quotient]:
    return {c: Quotient("octal", code=c, max_heap=TOTAL) for c in CODES}


@pytest.mark.parametrize("code", CODES)
def test_quotient_matches_misere_search(quotients: dict[str, Quotient], code: str) -> None:
    q = quotients[code]
    assert q.q.proved or q.q.computed >= TOTAL, q.q.why
    assert mismatches(q.q, code_options(parse_octal(code)), TOTAL) == []


@pytest.mark.slow
@pytest.mark.parametrize("code", WILD)
def test_wild_quotient_matches_misere_search(code: str) -> None:
    q = Quotient("octal", code=code, max_heap=TOTAL)
    assert q.q.computed >= TOTAL and q.q.splits >= 1, q.q.why
    assert mismatches(q.q, code_options(parse_octal(code)), TOTAL) == []


def test_quotient_matches_grundy_misere_solver() -> None:
    from grundy import solve
    q = Quotient("octal", code="0.77", max_heap=9)         # Kayles: classes split at heap 9
    assert q.q.splits == 1
    for heaps in ([1, 1], [2, 2], [3, 4], [1, 4, 5], [9, 5, 5], [2, 3, 6]):
        got = solve({"game": "octal", "code": "0.77", "heaps": heaps, "convention": "misere"})["outcome"]
        assert got == q.outcome(heaps), heaps


def test_winning_moves_reach_p_positions(quotients: dict[str, Quotient]) -> None:
    q = quotients["0.75"]
    outcomes = search_outcomes(q.options, 16)
    for pos, is_p in outcomes.items():
        mv = q.winning_move(list(pos))
        assert (mv is None) == (is_p or pos == ()), pos         # the empty sum: N, no move
        if mv is not None:
            assert outcomes[tuple(sorted(mv[2]))] is True


def test_big_sums_through_the_proved_period(quotients: dict[str, Quotient]) -> None:
    q = quotients["0.75"]
    assert q.proved
    heaps = [10_000 - i for i in range(10)]
    mv = q.winning_move(heaps)
    if q.outcome(heaps) == "N":
        assert mv is not None and q.outcome(mv[2]) == "P"
    n0, p = q.q.period                                           # type: ignore[misc]
    # a big heap pretends to be the heap of the period it falls on
    assert q.outcome([10_000, 3]) == q.outcome([n0 + (10_000 - n0) % p, 3])


def test_unproved_heaps_are_refused() -> None:
    q = Quotient("octal", code="0.77", max_heap=6)
    assert not q.proved
    with pytest.raises(ValueError):
        q.outcome([50])


# ----------------------------------------------------------------------------- structure theorems

@functools.lru_cache(maxsize=1)
def _extra() -> tuple:
    out = [quotient_of(code_options(parse_octal(c)), 12) for c in WILD]
    out += [quotient_of(nim_options, n) for n in (1, 3, 7)]
    out += [quotient_of(code_options(parse_octal(c)), 12) for c in ("0.15", "0.51", "0.137")]
    return tuple(out)


def all_quotients(quotients: dict[str, Quotient]) -> list:
    return [q.q for q in quotients.values()] + list(_extra())


def test_every_quotient_has_even_order(quotients: dict[str, Quotient]) -> None:
    # Plambeck & Siegel (2008): every misère quotient of impartial games (other than of {0}) has even order
    for q in all_quotients(quotients):
        assert q.size % 2 == 0, q.presentation()


def test_tame_quotients_are_misere_nims(quotients: dict[str, Quotient]) -> None:
    for q in all_quotients(quotients):
        if is_tame(q.q):
            assert q.size == 2 or (q.size - 2) & (q.size - 3) == 0, q.size      # 2 or 2^k + 2
    assert is_tame(quotient_of(nim_options, 3).q) and is_tame(quotient_of(nim_options, 1).q)
    assert not is_tame(quotients["0.75"].q.q)


def test_two_p_positions_orders(quotients: dict[str, Quotient]) -> None:
    # |P| = 2 => |Q| = 2^n + 2 or 2^n + 4 (as the brief quotes Plambeck & Siegel): checked on every
    # quotient computed here
    def power_of_two(k: int) -> bool:
        return k > 0 and k & (k - 1) == 0
    for q in all_quotients(quotients):
        if len(q.p) == 2:
            assert power_of_two(q.size - 2) or power_of_two(q.size - 4), (q.size, q.presentation())


# ----------------------------------------------------------------------------- published quotients

T1 = from_presentation("a", ["a^2 = 1"], ["a"])                                  # misère Nim, heaps *1
T2 = from_presentation("ab", ["a^2 = 1", "b^3 = b"], ["a", "b^2"])              # misère Nim, heaps <= *3
R8 = from_presentation("abc", ["a^2 = 1", "b^3 = b", "b c = a b", "c^2 = b^2"], ["a", "b^2"])   # 0.75


def test_published_quotients() -> None:
    assert (T1.size, len(T1.p)) == (2, 1) and (T2.size, len(T2.p)) == (6, 2) and (R8.size, len(R8.p)) == (8, 2)
    assert isomorphic(quotient_of(nim_options, 1).q, T1)
    assert isomorphic(quotient_of(nim_options, 3).q, T2)
    q75 = Quotient("octal", code="0.75")
    assert q75.proved and isomorphic(q75.q.q, R8)
    assert not isomorphic(q75.q.q, T2) and not isomorphic(R8, from_presentation(
        "abc", ["a^2 = 1", "b^3 = b", "b c = a b", "c^2 = b^2"], ["a", "b"]))


# ----------------------------------------------------------------------------- monoids

def test_reduce_and_minimal_generators() -> None:
    big = from_presentation("ab", ["a^4 = 1", "b^3 = b"], ["a^2", "b^2 a^2"])     # a and a^3 are told apart? no
    red, f = reduce(big)
    assert red.size <= big.size and len(set(f)) == red.size
    assert all((f[x] in red.p) == (x in big.p) for x in range(big.size))
    m = minimal_generators(from_presentation("abc", ["a^2 = 1", "b^3 = b", "c = a b"], []).monoid)
    assert (m.size, len(m.act)) == (6, 2)
    with pytest.raises(ValueError):
        _ = Monoid([[0, 0]], 2).normal_forms                 # element 1 is never reached


# ----------------------------------------------------------------------------- claims

def test_planted_wrong_quotient_claims_are_refuted() -> None:
    opts = code_options(parse_octal("0.75"))
    q75 = Quotient("octal", code="0.75").q
    wrong_p = from_presentation("abc", ["a^2 = 1", "b^3 = b", "b c = a b", "c^2 = b^2"], ["a", "b"])
    phi = {1: "a", 2: "b", 3: "a", 4: "b", 5: "c", 6: "b", 7: "c"}

    def claimed(q):
        from grundy.solvers.misere.monoid import _parse_word
        def f(h: int) -> int:
            w = phi.get(h) or ("b" if h % 2 == 0 else "a b^2")
            return q.monoid.element(_parse_word(w, "abc"))
        return f
    v = check_quotient_claim(opts, wrong_p, claimed(wrong_p), 12)
    assert v.verdict == "refuted" and v.counterexample
    pos = v.counterexample[0]
    x = 0
    for h in pos:
        x = wrong_p.monoid.times(x, claimed(wrong_p)(h))
    assert search_outcomes(opts, sum(pos))[pos] != (x in wrong_p.p)      # replayed: a real counterexample
    good = check_quotient_claim(opts, R8, claimed(R8), 16, computed=q75)
    assert good.verdict == "proved", good.why
    # orders: too small is refuted by sums pairwise told apart, replayed by search
    assert check_order_claim(q75, 8, 2, TOTAL, opts).verdict == "proved"
    v = check_order_claim(q75, 6, None, TOTAL, opts)
    assert v.verdict == "refuted" and len(v.counterexample) >= 7
    assert check_order_claim(q75, 10, None, TOTAL, opts).verdict == "unknown"


def test_a_rule_given_as_options_and_a_subtraction_game() -> None:
    sub = Quotient("subtraction", set=[1, 2])
    assert sub.proved and isomorphic(sub.q.q, T2)
    assert mismatches(sub.q, sub.options, 16) == []
    lasker = Quotient("lasker-nim", max_heap=5)
    assert not lasker.proved and lasker.q.computed == 5
    assert mismatches(lasker.q, lasker.options, 10, search_outcomes(lasker.options, 10, max_heap=5)) == []


def test_code_options_agree_with_the_rule() -> None:
    from grundy.solvers.heaps import rule_options, sum_of_heaps
    from grundy.spec import read_position
    for code in ("0.75", "4.07", "0.137", "0.6"):
        pos = read_position({"game": "octal", "code": code, "heaps": []})
        rule = sum_of_heaps(pos.game, pos.structure)
        mine = code_options(parse_octal(code))
        for n in range(12):
            theirs = {tuple(sorted(ps)) for _, ps in rule_options(rule, n)}
            assert set(mine(n)) == theirs, (code, n)
    assert TakeBreak((0, 7)).last == 1
