"""Octal Grundy values by the sparse-space method (grundy.solvers.heaps).

References used here, written in this file from the rules' words and not from grundy's spec
or solver: a naive recursion over heap tuples, grim played on networkx paths, and the
literature's values (Kayles, Dawson's chess).
"""
import subprocess
import sys
from functools import lru_cache

import networkx as nx
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import grundy
from grundy.solvers import heaps as octal
from grundy.solvers.heaps import period, takebreak_run
from grundy.solvers.heaps import sparse as sparse_module
from grundy.solvers.native import build
from grundy.spec.heaprule import parse_octal
from grundy.spec.position import InputError

NATIVE = build.available()
needs_cc = pytest.mark.skipif(not NATIVE, reason="no C compiler")



def octal_run(code, n, **options):
    return takebreak_run(parse_octal(code), n, **options)


def octal_values(code, n, **options):
    return octal_run(code, n, **options).values


def octal_period(code, values):
    """(preperiod, period) proved by the octal periodicity theorem, or None."""
    found = period(parse_octal(code), values)
    return (found.preperiod, found.period) if found is not None and found.proved else None


def last_digit(code):
    return parse_octal(code).last or 0


CODES = ["0.6", "0.77", "0.07", "0.137", "0.51", "4.07", "0.16", "0.007", "0.75", "0.4", "4.0", "0.3",
         "0.1234567", "0.4107", "0.34", "4.77"]


# ------------------------------------------------------------------ independent references

def digits_of(code: str) -> list[int]:
    before, _, after = code.partition(".")
    return [int(before or 0)] + [int(c) for c in after]


def heap_options(code: str, h: int):
    """Removing k tokens may leave nothing (bit 1), one heap (bit 2), two non-empty heaps (bit 4)."""
    for k, d in enumerate(digits_of(code)):
        r = h - k
        if r < 0:
            continue
        if k > 0 and d & 1 and r == 0:
            yield ()
        if k > 0 and d & 2 and r > 0:
            yield (r,)
        if d & 4:
            for a in range(1, r):
                yield (a, r - a)


def mex(values) -> int:
    s, g = set(values), 0
    while g in s:
        g += 1
    return g


@lru_cache(maxsize=None)
def naive_sum(code: str, heaps: tuple[int, ...]) -> int:
    """Grundy value of a multiset of heaps by plain recursion over whole positions (no XOR)."""
    opts = set()
    for i, h in enumerate(heaps):
        rest = heaps[:i] + heaps[i + 1:]
        for o in heap_options(code, h):
            opts.add(tuple(sorted(rest + o)))
    return mex(naive_sum(code, o) for o in opts)


def naive_values(code: str, n: int) -> list[int]:
    """G(0..n) for one heap, by the Sprague-Grundy sum theorem (a break is worth the XOR)."""
    G: list[int] = []
    for h in range(n + 1):
        G.append(mex(0 if not o else G[o[0]] if len(o) == 1 else G[o[0]] ^ G[o[1]]
                     for o in heap_options(code, h)))
    return G


def grim_path(n: int) -> int:
    """Grim on the path P_n: delete a vertex and its edges, then every vertex left isolated."""
    @lru_cache(maxsize=None)
    def g(alive: frozenset) -> int:
        graph = nx.path_graph(n).subgraph(alive)
        opts = []
        for v in graph.nodes:
            rest = graph.copy()
            rest.remove_node(v)
            rest.remove_nodes_from([u for u in list(rest.nodes) if rest.degree(u) == 0])
            opts.append(g(frozenset(rest.nodes)))
        return mex(opts)
    return g(frozenset(range(n)) if n > 1 else frozenset())


# Literature: Kayles (0.77), Winning Ways ch. 4 / Guy-Smith 1956.
KAYLES_40 = [0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6, 4, 1, 2, 7, 1, 4, 3, 2,
             1, 4, 6, 7, 4, 1, 2, 8, 5, 4, 7, 2, 1, 8, 6, 7, 4, 1, 2, 3]
KAYLES_EXCEPTIONS = {0, 3, 6, 9, 11, 15, 18, 21, 22, 28, 34, 39, 57, 70}       # period 12
DAWSONS_CHESS_EXCEPTIONS = {0, 14, 16, 17, 31, 34, 51}                          # 0.137, period 34


def exceptions(values: list[int], p: int) -> set[int]:
    """Heaps whose value differs from the eventual periodic value (read off the last period)."""
    last = len(values) - 1
    return {n for n in range(last + 1) if values[n] != values[last - ((last - n) % p)]}


# ------------------------------------------------------------------ the references agree

def test_references_agree_with_each_other():
    for code in ["0.6", "0.77", "4.07", "0.51"]:
        assert [naive_sum(code, (h,)) for h in range(13)] == naive_values(code, 12)
        assert naive_sum(code, (3, 5, 6)) == naive_values(code, 6)[3] ^ naive_values(code, 6)[5] ^ \
            naive_values(code, 6)[6]


# ------------------------------------------------------------------ values

@pytest.mark.parametrize("code", CODES)
def test_sparse_equals_naive(code):
    assert octal_values(code, 150) == naive_values(code, 150)


@needs_cc
@pytest.mark.parametrize("code", CODES)
def test_plain_equals_sparse_3000(code):
    sparse = octal_run(code, 3000, method="sparse")
    plain = octal_run(code, 3000, method="plain")
    assert sparse.native and plain.native
    assert sparse.values == plain.values
    assert sparse.values[:200] == naive_values(code, 199)


@needs_cc
def test_plain_equals_sparse_0_6_at_20000():
    sparse, plain = octal_run("0.6", 20_000), octal_run("0.6", 20_000, method="plain")
    assert sparse.values == plain.values
    assert sparse.mask != 0 and sparse.rares < 2_000               # sparse: few rares
    assert sparse.rare_pairs <= sparse.rares * 20_000               # the rare scans look only at rares
    assert sparse.rare_pairs + sparse.full_pairs < plain.full_pairs


@needs_cc
@pytest.mark.parametrize("code", ["0.6", "0.77", "0.137", "4.07", "0.16", "0.007"])
def test_native_equals_python_fallback(code):
    for method, n in (("sparse", 1100), ("plain", 500)):
        c = octal_run(code, n, method=method, native=True)
        py = octal_run(code, n, method=method, native=False)
        assert c.native and not py.native
        assert c.values == py.values
        assert c.counters() == py.counters()                         # the same algorithm, step by step


@needs_cc
def test_native_equals_python_fallback_through_a_probe():
    # 0.6 past PROBE_FROM: a probe of the sparse loop runs (on 0.6 at 5,120 it finds the sparse
    # loop scanning over half the plain work: the plain loop until the next check)
    n = sparse_module.PROBE_FROM + 2 * sparse_module.PROBE_LENGTH
    c, py = octal_run("0.6", n, native=True), octal_run("0.6", n, native=False)
    assert c.values == py.values and c.counters() == py.counters()
    assert c.values == octal_values("0.6", n, method="plain")


@needs_cc
def test_the_probe_sends_treblecross_to_the_plain_loop():
    # 0.007 at 70,000: 17% of the heaps rare, but the sparse loop scans about 0.9 of the plain
    # work; after the check at 65,536 the probe measures it and the plain loop takes over
    r = octal_run("0.007", 70_000)
    plain = octal_run("0.007", 70_000, method="plain")
    assert r.values == plain.values
    assert 4 * r.rares < 70_000                                      # not too many rares by count
    assert r.rare_pairs < plain.full_pairs // 40      # ... but the rare scans stopped (63 M without the probe)


# the codes benchmarks/octal_peers.py computes, and 0.106 (it splits at k = 3 only)
PEER_CODES = ["4.07", "0.6", "0.77", "0.137", "0.007", "0.56", "0.644", "0.106", "4.7", "0.51"]
D1D2 = [f"0.{a}{b}" for a in range(8) for b in range(8)]


@needs_cc
@pytest.mark.parametrize("code", PEER_CODES + D1D2)
def test_sparse_equals_plain_mex_loop(code):
    # the rare class follows the parity of the splitting k: every value still the plain loop's
    n = 2000
    assert octal_values(code, n) == octal_values(code, n, method="plain")
    assert octal_values(code, 120) == naive_values(code, 120)


@needs_cc
@pytest.mark.parametrize("code", ["0.106", "0.4", "0.137", "0.14", "0.164"])
def test_odd_splits_native_equals_python(code):
    c, py = octal_run(code, 1100, native=True), octal_run(code, 1100, native=False)
    assert c.values == py.values and c.counters() == py.counters()


@needs_cc
def test_0_106_is_sparse_with_odd_splits():
    # 0.106 splits at k = 3 only: with the size parity the options' common values for m = h - 3
    # are the heaps of class c(h) ^ 1, so the class-1 heaps are the rare ones (few), not half
    n = 20_000
    r = octal_run("0.106", n)
    assert r.values == octal_values("0.106", n, method="plain")
    assert r.parity == 1 and r.rares < 100
    plain_pairs = sum((h - 3) // 2 for h in range(5, n + 1))
    assert r.rare_pairs + r.full_pairs < plain_pairs // 50


def test_fallback_used_without_compiler(monkeypatch):
    want = naive_values("0.6", 300)
    monkeypatch.setattr(build, "available", lambda: False)
    run = octal_run("0.6", 300)
    assert not run.native and run.values == want
    assert octal_values("0.77", 39) == KAYLES_40


@pytest.mark.parametrize("native", [False, pytest.param(True, marks=needs_cc)])
@pytest.mark.parametrize("mask", [0, 1, 2, 3, 7, 46, 494, 2**31 + 5])
def test_any_mask_gives_the_same_values(native, mask):
    # correctness never rests on the rares being few: a bad mask only costs time
    for code in ["0.6", "0.77", "4.07"]:
        assert octal_run(code, 400, mask=mask, native=native).values == naive_values(code, 400)


def test_mask_zero_is_the_plain_method():
    run = octal_run("0.6", 300, mask=0, native=False)
    assert run.mask == 0 and run.rares == 300 and run.full_pairs == 0


@pytest.mark.parametrize("native", [False, pytest.param(True, marks=needs_cc)])
@pytest.mark.parametrize("code, sizes", [("0.6", True), ("0.77", False), ("0.137", True), ("0.16", True),
                                         ("4.07", True), ("0.4", True), ("4.0", True)])
def test_mask_has_the_fewest_rares_at_the_first_checkpoint(native, code, sizes):
    # the size parity may count only where every splitting k has one parity (0.77 splits at 1 and 2);
    # with it, a code splitting at odd k only (0.137 at 3, 0.6 at 1) lists the heaps of class 1 as rare
    n = octal.FIRST_CHECK
    run = octal_run(code, n, native=native)
    vals = run.values
    width = max(vals).bit_length()
    kodd = int({k % 2 for k, d in enumerate(digits_of(code)) if d & 4} == {1})

    def rare(h, mask, par):
        return (bin(vals[h] & mask).count("1") + par * (h % 2)) % 2 == par * kodd

    def rare_count(mask, par):
        return sum(1 for h in range(n + 1) if rare(h, mask, par))

    pairs = [(m, p) for p in ((0, 1) if sizes else (0,)) for m in range(1 << width) if (m, p) != (0, 0)]
    best = min(pairs, key=lambda mp: (rare_count(*mp), mp[1], mp[0]))
    assert (run.mask, run.parity) == best
    assert run.rares == sum(1 for h in range(1, n + 1) if rare(h, *best))


@pytest.mark.parametrize("native", [False, pytest.param(True, marks=needs_cc)])
@pytest.mark.parametrize("mask, par", [(0, 1), (1, 1), (3, 1), (494, 1), (5, 0)])
def test_any_mask_and_size_parity_give_the_same_values(native, mask, par):
    # with the size parity too, on codes whose splitting k have mixed parities (0.77, 4.4, 0.4444)
    for code in ["0.6", "0.77", "4.07", "4.4", "0.4444", "4.0"]:
        assert octal_run(code, 300, mask=mask, parity=par, native=native).values == naive_values(code, 300)


@needs_cc
def test_4_07_is_linear_with_the_size_parity():
    # 4.07 splits a heap of 2j into j + j: with the value alone half the heaps stay rare
    small, big = octal_run("4.07", 20_000), octal_run("4.07", 40_000)
    assert small.values == octal_run("4.07", 20_000, method="plain").values
    assert big.parity == 1 and big.rares < 100
    work = [r.rare_pairs + r.full_pairs for r in (small, big)]
    assert work[1] < 2.2 * work[0]                                   # doubling n about doubles the work
    value_only = octal_run("4.07", 20_000, mask=big.mask)             # the same mask without the parity
    assert value_only.rares > 5_000


@needs_cc
@settings(max_examples=60, deadline=None)
@given(st.sampled_from([0, 4]), st.lists(st.integers(0, 7), min_size=1, max_size=5), st.integers(200, 3000))
def test_sparse_equals_plain_on_random_codes(d0, ds, n):
    code = f"{d0}." + "".join(map(str, ds))
    assert octal_values(code, n) == octal_values(code, n, method="plain")


def test_grim_on_paths_is_octal_0_6():
    # claim grim/thm23, from grim's own words on networkx paths
    assert [grim_path(n) for n in range(13)] == octal_values("0.6", 12)


def test_literature_zeros_of_0_6():
    # OEIS A046695 (P-positions of octal 0.6, "Officers"), its terms up to 101
    assert [n for n, g in enumerate(octal_values("0.6", 101)) if g == 0] == [0, 1, 4, 12, 20, 30, 46, 72, 98]


def test_literature_kayles_and_dawsons_chess():
    kayles = octal_values("0.77", 400)
    assert kayles[:40] == KAYLES_40
    assert exceptions(kayles, 12) == KAYLES_EXCEPTIONS
    chess = octal_values("0.137", 400)
    assert exceptions(chess, 34) == DAWSONS_CHESS_EXCEPTIONS
    assert octal_values("0.07", 400)[1:] == chess[:400]             # Dawson's Kayles = Dawson's chess + 1


# ------------------------------------------------------------------ periods

def test_known_periods():
    assert octal_period("0.77", octal_values("0.77", 500)) == (71, 12)    # Kayles
    assert octal_period("0.137", octal_values("0.137", 500)) == (52, 34)  # Dawson's chess: last exception 51
    assert octal_period("0.07", octal_values("0.07", 500)) == (53, 34)    # Dawson's Kayles: the same, shifted


def test_period_needs_enough_values():
    # Kayles: n0 = 71, p = 12, t = 2: checking n < 2*71 + 12 + 2 needs G up to 155 + 12 = 167
    kayles = octal_values("0.77", 167)
    assert octal_period("0.77", kayles) == (71, 12)
    assert octal_period("0.77", kayles[:167]) is None


def test_period_from_zero_needs_one_more_value():
    # 0.4: G(n + 1) = G(n) for 0 <= n < 2*0 + 1 + 1 (the theorem's range for n0 = 0), yet G(3) = 1:
    # the induction step at N = p + t pairs the split 1 + 1 of heap 3 with "1 + 0" of heap 2
    v = octal_values("0.4", 60)
    assert v[:3] == [0, 0, 0] and v[3] == 1
    assert octal_period("0.4", v) != (0, 1)
    assert octal_period("0.3", octal_values("0.3", 10)) == (0, 2)      # a true period from 0


def test_no_period_for_0_6():
    assert octal_period("0.6", octal_values("0.6", 5000)) is None       # an open problem


@settings(max_examples=35, deadline=None)
@given(st.sampled_from([0, 4]), st.lists(st.integers(0, 7), min_size=1, max_size=4))
def test_random_codes(d0, ds):
    code = f"{d0}." + "".join(map(str, ds))
    longer = naive_values(code, 700)
    assert octal_values(code, 700) == longer
    py = octal_run(code, 150, native=False)
    assert py.values == longer[:151]
    if NATIVE:                                                        # the same steps in C and Python
        assert octal_run(code, 150, native=True).counters() == py.counters()
    found = octal_period(code, longer[:301])
    if found is not None:                                             # what it proves holds further out
        n0, p = found
        assert all(longer[n + p] == longer[n] for n in range(n0, 700 - p))
        assert n0 == 0 or longer[n0 - 1 + p] != longer[n0 - 1]
        assert not any(all(longer[n + q] == longer[n] for n in range(350, 700 - q)) for q in range(1, p))


def test_last_digit():
    assert [last_digit(c) for c in ["0.6", "0.07", "0.137", "4.0", "0.0", "0.1200"]] == [1, 2, 3, 0, 0, 2]


def test_bad_input():
    with pytest.raises(InputError, match="code"):
        octal_values("0.8", 5)
    with pytest.raises(InputError, match="code"):
        octal_values("2.1", 5)
    for n in (-1, 2.5, True, 2**40):
        with pytest.raises(InputError, match="n"):
            octal_values("0.6", n)


# ------------------------------------------------------------------ agreement with the game solver

@pytest.mark.parametrize("code", ["0.6", "0.77", "0.07", "0.137", "4.07", "0.51", "0.16"])
def test_agrees_with_explicit_solver(code):
    got = octal_values(code, 22)
    assert got == [grundy.solve({"game": "octal", "code": code, "heaps": [n]})["grundy"] for n in range(23)]
    for heaps in ([5, 7], [3, 9, 10], [12, 12, 1]):
        x = 0
        for h in heaps:
            x ^= got[h]
        assert grundy.solve({"game": "octal", "code": code, "heaps": heaps})["grundy"] == x


def test_the_removed_top_level_octal_values_still_answers_with_a_warning():
    with pytest.warns(DeprecationWarning, match="octal_values"):
        assert grundy.octal_values("0.77", 30) == octal_values("0.77", 30)


# ------------------------------------------------------------------ command line

def run_cli(code, n, *rest):
    p = subprocess.run([sys.executable, "-m", "grundy.cli", "values", "octal", n, "--code", code, *rest],
                       capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def test_cli_values_and_period():
    code, out, _ = run_cli("0.77", "39")
    assert code == 0 and list(map(int, out.split())) == KAYLES_40
    code, out, _ = run_cli("0.77", "200", "--period")
    assert code == 0 and "period 12 from n = 71" in out
    code, out, _ = run_cli("0.6", "300", "--period")
    assert code == 0 and "no period" in out


@pytest.mark.parametrize("args, field", [(["0.9", "5"], "code"), (["0.6", "-3"], "n")])
def test_cli_bad_input(args, field):
    code, out, err = run_cli(*args)
    assert code == 2 and out == "" and err.startswith(f"grundy: {field}:") and len(err.splitlines()) == 1


def test_the_solver_takes_octal_sums_from_the_heap_tables():
    """Large heaps: the solver answers from the one-heap table (reading builds no moves); on
    small heaps the table and the game's own moves give the same values."""
    from grundy import Solver
    from grundy.spec import read_position
    for code in ("0.6", "0.77", "0.137", "4.07"):
        for heaps in ([5, 3], [7, 7, 2], [9], [4, 6, 1]):
            p = read_position({"game": "octal", "code": code, "heaps": heaps})
            assert Solver().grundy(p) == Solver(decompose=False, native=False).grundy(p), (code, heaps)
    big = read_position({"game": "octal", "code": "0.6", "heaps": [30000, 12]})
    g = octal_values("0.6", 30000)
    assert Solver().grundy(big) == g[30000] ^ g[12]


@pytest.mark.parametrize("code,period_at", [("0.137", (52, 34)), ("0.77", (71, 12)), ("4.07", (1, 4)),
                                            ("0.644", (3256, 442))])
def test_run_to_period_proves_the_literature_period_and_extends_it(code, period_at):
    """Dawson's chess, Kayles, 4.07 and 0.644: the period proved early, the values extended by
    it equal the values computed to the end."""
    n = 20_000
    run = octal.run_to_period(parse_octal(code), n)
    assert run.period == period_at and run.computed < n
    assert run.values == takebreak_run(parse_octal(code), n).values


@settings(max_examples=40)
@given(st.sampled_from([0, 4]), st.lists(st.integers(0, 7), min_size=1, max_size=4), st.integers(0, 5000))
def test_run_to_period_equals_the_full_computation_on_random_codes(d0, ds, n):
    code = parse_octal(f"{d0}." + "".join(map(str, ds)))
    run = octal.run_to_period(code, n)
    assert len(run.values) == n + 1
    assert run.values == takebreak_run(code, n).values
    assert (run.period is None) == (run.computed == n)


def test_run_to_period_computes_everything_without_a_theorem():
    """Treblecross (0.007) has no known period: every value computed."""
    run = octal.run_to_period(parse_octal("0.007"), 3000)
    assert run.computed == 3000 and run.period is None


def _period_by_every_p(code, values):
    """period() as first written: every p tried, no filter (the reference for the filtered one)."""
    from grundy.solvers.heaps.bounds import theorem_for
    N = len(values) - 1

    def least_n0(p):
        n = N - p
        while n >= 0 and values[n + p] == values[n]:
            n -= 1
        return n + 1
    th = theorem_for(code)
    if th is not None:
        for p in range(1, N + 1):
            if th.needed(0, p) > N:
                break
            n0 = least_n0(p)
            if th.needed(n0, p) <= N:
                return (n0, p, True)
    for p in range(1, N // 3 + 1):
        n0 = least_n0(p)
        if N + 1 - n0 >= 3 * p and 2 * (N + 1 - n0) >= N + 1:
            return (n0, p, False)
    return None


@settings(max_examples=200)
@given(st.sampled_from(["0.6", "0.137", "0.03", "4.07", "0.33"]),
       st.lists(st.integers(0, 3), max_size=30), st.lists(st.integers(0, 3), min_size=1, max_size=8),
       st.integers(0, 60), st.lists(st.integers(0, 3), max_size=3))
def test_period_filter_finds_what_trying_every_p_finds(code, prefix, block, reps, tail):
    """Values made of a prefix, a repeated block and a tail: the filtered search for periods
    (only p with G(N - p) = G(N)) reports what trying every p reports, proved or apparent."""
    values = prefix + block * reps + tail
    found = period(parse_octal(code), values)
    got = None if found is None else (found.preperiod, found.period, found.proved)
    assert got == _period_by_every_p(parse_octal(code), values)
