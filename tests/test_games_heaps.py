"""The heap games (grundy/spec/games/*.py) against known values and naive brute force.

Every brute force here is written from the rule's words on sorted tuples of the
existing (non-zero) heaps, by plain memoized recursion; it shares no code with
grundy's spec or solver.
"""
from __future__ import annotations

import sys
import time
from functools import lru_cache
from math import isqrt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy
from grundy.solvers.solver import Solver
from grundy.spec import InputError, read_position

sys.setrecursionlimit(10_000)


# ------------------------------------------------------------------ brute force

def norm(heaps) -> tuple[int, ...]:
    """Sorted tuple of the heaps that still exist."""
    return tuple(sorted(h for h in heaps if h > 0))


def replace(h: tuple[int, ...], i: int, x: int) -> tuple[int, ...]:
    return norm(h[:i] + (x,) + h[i + 1:])


def nim_options(h):
    """Take k >= 1 from one heap."""
    return {replace(h, i, x - k) for i, x in enumerate(h) for k in range(1, x + 1)}


def minnie_options(h):
    """Take 1 <= k <= the smallest existing heap from one heap."""
    if not h:
        return set()
    m = min(h)
    return {replace(h, i, x - k) for i, x in enumerate(h) for k in range(1, m + 1)}


def pairwise_distinct(h) -> bool:
    return len(set(h)) == len(h)


def mine_options(h):
    """minnie, but no two existing heaps may be equal afterwards."""
    return {o for o in minnie_options(h) if pairwise_distinct(o)}


def nimb_options(h):
    """A nim move after which the smallest existing heap is not what it was."""
    low = min(h) if h else None
    return {o for o in nim_options(h) if (min(o) if o else None) != low}


def nimtb_options(h):
    """A nim move changing the smallest and the largest heap, heaps staying distinct."""
    def lo(x):
        return min(x) if x else None

    def hi(x):
        return max(x) if x else None
    return {o for o in nim_options(h) if lo(o) != lo(h) and hi(o) != hi(h) and pairwise_distinct(o)}


def wynnie_options(h):
    """1 <= k <= the smallest existing heap, from one heap or from both."""
    out = minnie_options(h)
    if len(h) == 2:
        out |= {norm((h[0] - k, h[1] - k)) for k in range(1, h[0] + 1)}
    return out


def wythoff_options(h):
    """Nim, or the same amount from both heaps."""
    out = nim_options(h)
    if len(h) == 2:
        out |= {norm((h[0] - k, h[1] - k)) for k in range(1, h[0] + 1)}
    return out


def euclid_options(h):
    """[a, b] -> [a - kb, b] with a >= b > 0 (a heap at 0: no move)."""
    if len(h) < 2:
        return set()
    b, a = h
    return {norm((a - k * b, b)) for k in range(1, a // b + 1)}


def greedy_options(h):
    """Take k >= 1 from a largest heap."""
    return {replace(h, i, x - k) for i, x in enumerate(h) if x == max(h) for k in range(1, x + 1)}


def susen_options(h):
    """Subtract from one heap the size of some existing heap."""
    return {replace(h, i, x - y) for i, x in enumerate(h) for y in set(h) if y <= x}


def jennifer_options(h):
    """Subtract from one heap an amount k >= 1 that is not the size of an existing heap."""
    return {replace(h, i, x - k) for i, x in enumerate(h) for k in range(1, x + 1) if k not in h}


def restricted_options(h):
    """One heap n: remove k with 1 <= k and 2k < n."""
    return {norm((n - k,)) for n in h for k in range(1, n) if 2 * k < n}


def octal_options(code: str, h):
    """Take-and-break from the code's words: removing k tokens from a heap may leave
    nothing (digit bit 1), one heap (bit 2) or two non-empty heaps (bit 4)."""
    before, _, after = code.partition(".")
    digits = [int(before or 0)] + [int(c) for c in after]
    out = set()
    for i, x in enumerate(h):
        rest = h[:i] + h[i + 1:]
        for k, d in enumerate(digits):
            r = x - k
            if r < 0:
                continue
            if d & 1 and r == 0 and k > 0:
                out.add(norm(rest))
            if d & 2 and r > 0 and k > 0:
                out.add(norm(rest + (r,)))
            if d & 4:
                out |= {norm(rest + (a, r - a)) for a in range(1, r)}
    return out


RULES = {"nim": nim_options, "minnie": minnie_options, "mine": mine_options, "nimb": nimb_options,
         "nimtb": nimtb_options, "wynnie": wynnie_options, "wythoff": wythoff_options,
         "euclid": euclid_options, "greedy-nim": greedy_options, "susen": susen_options,
         "jennifer": jennifer_options, "restricted-nim": restricted_options}


def options(game: str, h):
    if game.startswith("octal "):
        return octal_options(game.split()[1], h)
    return RULES[game](h)


@lru_cache(maxsize=None)
def bf_grundy(game: str, h: tuple[int, ...]) -> int:
    vals = {bf_grundy(game, o) for o in options(game, h)}
    g = 0
    while g in vals:
        g += 1
    return g


@lru_cache(maxsize=None)
def bf_misere_wins(game: str, h: tuple[int, ...]) -> bool:
    """The player to move wins misère play (no move: the player to move wins)."""
    opts = options(game, h)
    return not opts or any(not bf_misere_wins(game, o) for o in opts)


def check_against_brute_force(game: str, heaps: list[int], solver: Solver | None = None) -> None:
    pos = {"game": game, "heaps": heaps}
    if game.startswith("octal "):
        pos = {"game": "octal", "heaps": heaps, "code": game.split()[1]}
    want = bf_grundy(game, norm(heaps))
    assert grundy.solve(pos, solver=solver)["grundy"] == want, pos
    mis = grundy.solve({**pos, "convention": "misere"}, outcome_only=True, solver=solver)["outcome"]
    assert mis == ("N" if bf_misere_wins(game, norm(heaps)) else "P"), pos


def heap_lists(max_heap: int, min_len: int, max_len: int):
    return st.lists(st.integers(0, max_heap), min_size=min_len, max_size=max_len)


# ------------------------------------------------------------------ the brute force itself

def test_brute_force_reads_the_thesis_examples():
    # nimb on [3, 4, 6]: the thesis lists the legal options
    want = {(2, 4, 6), (1, 4, 6), (0, 4, 6), (3, 2, 6), (3, 1, 6), (3, 4, 2), (3, 4, 1)}
    assert nimb_options((3, 4, 6)) == {norm(o) for o in want}
    # mine [1, 2]: "the only option is Mn[0, 2]"
    assert mine_options((1, 2)) == {(2,)}


# ------------------------------------------------------------------ minnie, nimb, mine, wynnie

@settings(max_examples=150, deadline=None)
@given(heap_lists(9, 1, 3))
def test_minnie_brute_force(heaps):
    check_against_brute_force("minnie", heaps)


@settings(max_examples=150, deadline=None)
@given(heap_lists(9, 1, 4))
def test_nimb_brute_force(heaps):
    check_against_brute_force("nimb", heaps)


@settings(max_examples=150, deadline=None)
@given(heap_lists(10, 1, 4).filter(lambda h: pairwise_distinct([x for x in h if x > 0])))
def test_mine_brute_force(heaps):
    check_against_brute_force("mine", heaps)


@settings(max_examples=150, deadline=None)
@given(heap_lists(14, 2, 2))
def test_wynnie_brute_force(heaps):
    check_against_brute_force("wynnie", heaps)


def test_wynnie_all_small_pairs():
    for a in range(12):
        for b in range(12):
            check_against_brute_force("wynnie", [a, b])


def test_mine_rejects_equal_heaps():
    with pytest.raises(InputError) as e:
        read_position({"game": "mine", "heaps": [2, 5, 2]})
    assert e.value.field == "heaps[2]"
    read_position({"game": "mine", "heaps": [0, 5, 0]})  # heaps at 0 do not exist


def test_wynnie_needs_two_heaps():
    for heaps in ([3], [1, 2, 3]):
        with pytest.raises(InputError) as e:
            read_position({"game": "wynnie", "heaps": heaps})
        assert e.value.field == "heaps"


# ------------------------------------------------------------------ nim, wythoff, euclid, ...

@settings(max_examples=100, deadline=None)
@given(heap_lists(12, 0, 4))
def test_nim_grundy_is_the_xor(heaps):
    x = 0
    for h in heaps:
        x ^= h
    assert grundy.solve({"game": "nim", "heaps": heaps})["grundy"] == x


def floor_n_phi(n: int) -> int:
    """floor(n * phi), phi = (1 + sqrt 5) / 2, exactly: sqrt(5 n^2) is irrational for n > 0."""
    return (n + isqrt(5 * n * n)) // 2


def test_wythoff_first_20_p_positions():
    pairs = {(floor_n_phi(n), floor_n_phi(n) + n) for n in range(21)}   # floor(n phi^2) = floor(n phi) + n
    assert {(12, 20), (19, 31), (32, 52)} <= pairs                      # sanity of the arithmetic
    top = floor_n_phi(20) + 20
    for a in range(top + 1):
        for b in range(a, top + 1):
            out = grundy.solve({"game": "wythoff", "heaps": [a, b]}, outcome_only=True)["outcome"]
            assert (out == "P") == ((a, b) in pairs), (a, b)


@settings(max_examples=100, deadline=None)
@given(heap_lists(15, 2, 2))
def test_wythoff_brute_force(heaps):
    check_against_brute_force("wythoff", heaps)


@settings(max_examples=150, deadline=None)
@given(heap_lists(40, 2, 2))
def test_euclid_brute_force(heaps):
    check_against_brute_force("euclid", heaps)


def test_euclid_order_of_heaps_does_not_matter():
    for a, b in [(51, 14), (14, 51), (7, 7), (0, 9), (30, 1)]:
        assert grundy.solve({"game": "euclid", "heaps": [a, b]}) == \
            grundy.solve({"game": "euclid", "heaps": [b, a]})
        check_against_brute_force("euclid", [a, b])


@settings(max_examples=120, deadline=None)
@given(heap_lists(7, 1, 4))
def test_greedy_nim_brute_force(heaps):
    check_against_brute_force("greedy-nim", heaps)


@settings(max_examples=120, deadline=None)
@given(heap_lists(12, 1, 4))
def test_susen_brute_force(heaps):
    check_against_brute_force("susen", heaps)


@settings(max_examples=120, deadline=None)
@given(heap_lists(9, 1, 3))
def test_jennifer_brute_force(heaps):
    check_against_brute_force("jennifer", heaps)


def test_jennifer_thesis_play():
    # figure 2.2: after [1, 1, 2] "Player One [has] no legal action"
    assert grundy.solve({"game": "jennifer", "heaps": [1, 1, 2]}, winning_moves=True) == \
        {"grundy": 0, "outcome": "P", "winning_moves": []}
    assert jennifer_options((1, 1, 2)) == set()


def test_restricted_nim_sequence():
    # selfref §2.2 (Levine): n = 1, 2, ..., 21
    want = [0, 0, 1, 0, 2, 1, 3, 0, 4, 2, 5, 1, 6, 3, 7, 0, 8, 4, 9, 2, 10]
    got = [grundy.solve({"game": "restricted-nim", "heaps": [n]})["grundy"] for n in range(1, 22)]
    assert got == want
    assert [bf_grundy("restricted-nim", (n,)) for n in range(1, 22)] == want


def test_restricted_nim_brute_force():
    for n in range(0, 80):
        check_against_brute_force("restricted-nim", [n])


@settings(max_examples=150, deadline=None)
@given(heap_lists(11, 1, 4).filter(lambda h: pairwise_distinct([x for x in h if x > 0])))
def test_nimtb_brute_force(heaps):
    check_against_brute_force("nimtb", heaps)


def test_nimtb_thesis_example():
    assert nimtb_options((3, 4, 6)) == {(2, 3, 4), (1, 3, 4)}
    pos = read_position({"game": "nimtb", "heaps": [3, 4, 6]})
    assert sorted(tuple(sorted(q.state)) for _, q in grundy.solvers.solver.DEFAULT.options(pos)) == \
        [(1, 3, 4), (2, 3, 4)]


# ------------------------------------------------------------------ octal games

def kayles_row(n: int) -> int:
    """Kayles from its words: a row of n pins; knock down one pin or two adjacent pins."""
    return _row(n, (1, 2), "kayles")


def dawson_row(n: int) -> int:
    """Dawson's Kayles: knock down exactly two adjacent pins of a row."""
    return _row(n, (2,), "dawson")


@lru_cache(maxsize=None)
def _row(n: int, widths: tuple[int, ...], name: str) -> int:
    vals = set()
    for w in widths:
        for left in range(0, n - w + 1):                # pins left of the knocked-down ones
            vals.add(_row(left, widths, name) ^ _row(n - w - left, widths, name))
    g = 0
    while g in vals:
        g += 1
    return g


@lru_cache(maxsize=None)
def node_kayles_path(n: int) -> int:
    """Node Kayles on the path P_n: pick a vertex, delete it with its neighbours."""
    vals = set()
    for i in range(n):
        vals.add(node_kayles_path(max(i - 1, 0)) ^ node_kayles_path(max(n - i - 2, 0)))
    g = 0
    while g in vals:
        g += 1
    return g


def octal_values(code: str, upto: int, solver: Solver) -> list[int]:
    return [grundy.solve({"game": "octal", "code": code, "heaps": [n]}, solver=solver)["grundy"]
            for n in range(upto + 1)]


KAYLES_40 = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2,
             1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 3]


def test_kayles():
    solver = Solver()
    top = 71 + 4 * 12 - 1
    got = octal_values("0.77", top, solver)
    assert got[:40] == KAYLES_40
    assert [kayles_row(n) for n in range(top + 1)] == got
    assert all(got[n + 12] == got[n] for n in range(71, top - 12 + 1))   # period 12 from n = 71
    assert got[70] != got[82]                                            # ... and not from 70
    assert len(solver.tables) <= 7                                       # slot counts 1, 2, 4, ..., 64


# The literature's "period 34, last exception at n = 51" counts as Dawson's chess / Node
# Kayles on P_n (0.137) does; in 0.07's count (n pins, remove two adjacent) that is n = 52.

def test_dawsons_kayles():
    solver = Solver()
    top = 53 + 4 * 34 - 1
    got = octal_values("0.07", top, solver)
    assert [dawson_row(n) for n in range(top + 1)] == got
    assert all(got[n + 34] == got[n] for n in range(53, top - 34 + 1))  # period 34 from n = 53
    assert got[52] != got[86]                                            # n = 52 is the last exception


def test_node_kayles():
    solver = Solver()
    top = 52 + 4 * 34 - 1
    got = octal_values("0.137", top, solver)
    assert [node_kayles_path(n) for n in range(top + 1)] == got
    assert all(got[n + 34] == got[n] for n in range(52, top - 34 + 1))  # period 34 from n = 52
    assert got[51] != got[85]                                            # n = 51 is the last exception
    assert got == [dawson_row(n + 1) for n in range(top + 1)]           # = Dawson's Kayles on n + 1


CODES = ["0.77", "0.07", "0.137", "0.6", "0.4", "0.51", "0.3", "4.07", "0.1234567", "0.4107", "4.0", "0.34"]


@pytest.mark.slow
@settings(max_examples=150, deadline=None)
@given(st.sampled_from(CODES), heap_lists(9, 1, 3))
def test_octal_brute_force(code, heaps):
    check_against_brute_force(f"octal {code}", heaps)


@pytest.mark.parametrize("code", ["0.77", "0.6", "4.07", "0.4107"])
def test_octal_no_move_lost_without_reductions(code):
    # without decomposition or symmetry every heap is carried in its slot: breaks need room
    solver = Solver(symmetry=False, decompose=False)
    for heaps in ([9], [4, 5], [3, 0, 6], [1, 2, 7]):
        check_against_brute_force(f"octal {code}", heaps, solver=solver)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(CODES), heap_lists(10, 1, 3))
def test_octal_slots_hold_every_reachable_position(code, heaps):
    seen, todo, most = set(), [norm(heaps)], 0
    while todo:
        h = todo.pop()
        if h in seen:
            continue
        seen.add(h)
        most = max(most, len(h))
        todo.extend(octal_options(code, h))
    assert read_position({"game": "octal", "code": code, "heaps": heaps}).structure.n >= most


def test_octal_tables_are_shared():
    a = read_position({"game": "octal", "code": "0.77", "heaps": [100]})
    b = read_position({"game": "octal", "code": "0.770", "heaps": [120]})
    c = read_position({"game": "octal", "code": "0.07", "heaps": [100]})
    assert a.structure == b.structure and hash(a.structure) == hash(b.structure)
    assert a.structure != c.structure                     # another code, another table


# ------------------------------------------------------------------ depth

def test_deep_game_without_recursion_limit():
    # octal 0.3 (take one token) on a heap of 10,000: a line of 10,000 moves
    t = time.process_time()
    assert grundy.solve({"game": "octal", "code": "0.3", "heaps": [10_000]}, solver=Solver()) == \
        {"grundy": 0, "outcome": "P"}
    assert time.process_time() - t < 5


def test_minnie_deep():
    # minnie [1, n]: 2n moves deep. n = 10,000 is out of reach in a few seconds: the
    # one-heap positions [m] have m options each, O(n^2) = 5e7 options in all.
    n = 1500
    t = time.process_time()
    r = grundy.solve({"game": "minnie", "heaps": [1, n]}, solver=Solver())
    assert time.process_time() - t < 8
    assert r["grundy"] == bf_minnie_1n(n)


def bf_minnie_1n(n: int) -> int:
    """minnie [1, m] for m up to n, bottom-up (no recursion): options [m] (Grundy m) and [1, m-1]."""
    g = {0: 1}                                        # [1] alone: Grundy 1
    for m in range(1, n + 1):
        vals = {m, g[m - 1]}                          # [1, m] -> [m] (one nim heap), [1, m - 1]
        x = 0
        while x in vals:
            x += 1
        g[m] = x
    return g[n]


# ------------------------------------------------------------------ bad input

@pytest.mark.parametrize("obj, field", [
    ({"game": "minnie", "heaps": [3, -1]}, "heaps[1]"),
    ({"game": "nimb", "heaps": [3, 1.5]}, "heaps[1]"),
    ({"game": "susen", "heaps": ["4"]}, "heaps[0]"),
    ({"game": "jennifer", "heaps": 4}, "heaps"),
    ({"game": "greedy-nim"}, "heaps"),
    ({"game": "euclid", "heaps": [3, 2, 1]}, "heaps"),
    ({"game": "wythoff", "heaps": [3, 2, 1]}, "heaps"),
    ({"game": "wythoff", "heaps": [3]}, "heaps"),
    ({"game": "restricted-nim", "heaps": [3, 4]}, "heaps"),
    ({"game": "nimtb", "heaps": [5, 2, 5]}, "heaps[2]"),
    ({"game": "mine", "heaps": [1, 1]}, "heaps[1]"),
    ({"game": "octal", "heaps": [3], "code": "0.8"}, "code"),
    ({"game": "octal", "heaps": [3], "code": "1.7"}, "code"),
    ({"game": "octal", "heaps": [3], "code": 0.77}, "code"),
    ({"game": "octal", "heaps": [3], "code": "0.7x"}, "code"),
    ({"game": "octal", "heaps": [3]}, "code"),
    ({"game": "octal", "heaps": [-3], "code": "0.77"}, "heaps[0]"),
])
def test_bad_input(obj, field):
    with pytest.raises(InputError) as e:
        read_position(obj)
    assert e.value.field == field


def test_bad_input_on_the_command_line():
    import json
    import subprocess
    r = subprocess.run([sys.executable, "-m", "grundy.cli", "solve", "-"], capture_output=True, text=True,
                       input=json.dumps({"game": "octal", "heaps": [3], "code": "0.9"}))
    assert r.returncode != 0 and "code" in r.stderr + r.stdout and "Traceback" not in r.stderr


def test_moves_are_labelled():
    w = grundy.solve({"game": "wythoff", "heaps": [2, 3]}, winning_moves=True)["winning_moves"]
    assert {"move": "take 1 from both", "to": {"game": "wythoff", "heaps": [1, 2]}} in w
    k = grundy.solve({"game": "octal", "code": "0.77", "heaps": [5]}, winning_moves=True)["winning_moves"]
    assert {"move": "take 1 from heap 1, leaving 2 + 2", "to": {"game": "octal", "heaps": [2, 2], "code": "0.77"}} in k


# ------------------------------------------------------------------ the rule in raw slot order

ALL = ["nim", "minnie", "mine", "nimb", "nimtb", "wynnie", "wythoff", "euclid", "greedy-nim", "susen",
       "jennifer", "restricted-nim", "octal 0.77", "octal 0.6"]


@pytest.mark.parametrize("game", ALL)
def test_without_symmetry_or_decomposition(game):
    # the solver's canonical form sorts heaps; without it the rule must give the same values
    # whatever the order of the heaps (the heaps are a multiset)
    solver = Solver(symmetry=False, decompose=False)
    count = {"wynnie": 2, "wythoff": 2, "euclid": 2, "restricted-nim": 1}.get(game)
    rows = [[5, 2, 0], [0, 3, 6], [6, 3, 1], [2, 7, 4], [4, 0, 1]]
    for row in rows:
        heaps = row[:count] if count else row
        check_against_brute_force(game, heaps, solver=solver)
        check_against_brute_force(game, heaps[::-1], solver=solver)


@pytest.mark.parametrize("game", [g for g in ALL if g not in ("wynnie", "wythoff", "euclid", "restricted-nim")])
def test_no_heaps(game):
    pos = {"game": "octal", "code": game.split()[1]} if game.startswith("octal") else {"game": game}
    assert grundy.solve({**pos, "heaps": []}) == {"grundy": 0, "outcome": "P"}
