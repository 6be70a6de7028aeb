"""One-heap tables as the kernel's typed array, extended in place (``takebreak_run(..., start=run)``),
the rare class's parity, and the period check in C (``periodscan.c``): each must give exactly what
the plain computation gives."""
from __future__ import annotations

import random
from array import array

import pytest

from grundy.solvers.heaps import period, run_to_period, takebreak_run
from grundy.solvers.heaps import sparse as sparse_module
from grundy.solvers.heaps.bounds import theorem_for
from grundy.solvers.heaps.period import _least_n0, _repeats_from
from grundy.solvers.native import build
from grundy.solvers.native.interruptible import Interrupted
from grundy.spec.heaprule import TakeBreak, parse_octal

needs_cc = pytest.mark.skipif(not build.available(), reason="no C compiler")
NATIVE = [False, pytest.param(True, marks=needs_cc)]


def test_split_parity():
    # the parity shared by every splitting k (0.6 splits at 1, 0.106 at 3), else 0
    assert [sparse_module.split_parity(parse_octal(c)) for c in ["0.106", "0.4", "0.137", "4.07", "0.77", "0.6",
                                                               "0.04", "0.7"]] == [1, 1, 1, 0, 0, 1, 0, 1]
    assert sparse_module.split_parity(TakeBreak((0, 4), tail=4)) == 0     # splits at every k: no one parity


@needs_cc
def test_table_is_the_kernels_typed_array():
    r = takebreak_run(parse_octal("4.07"), 1000)
    assert r.table.itemsize == 4 and len(r.table) == 1001
    assert isinstance(r.values, list) and r.values == r.table.tolist()
    assert r.values is r.values                                      # made once
    assert takebreak_run(parse_octal("4.07"), 1000, native=False).table == r.table


@pytest.mark.parametrize("native", NATIVE)
@pytest.mark.parametrize("code", ["0.6", "0.007", "0.137", "4.07", "0.106", "0.77", "4.4"])
def test_an_extended_run_is_the_run_to_n(native, code):
    # the steps start at, before and after the mask checks (64, 128, ..., 1024)
    c = parse_octal(code)
    whole = takebreak_run(c, 1500, native=native)
    run = None
    for m in (0, 1, 63, 64, 200, 1023, 1500):
        run = takebreak_run(c, m, native=native, start=run)
        assert run.values == whole.values[:m + 1]
    assert run.table == whole.table and run.counters() == whole.counters() and run.computed == 1500


@needs_cc
def test_an_extended_run_through_a_probe_is_the_run_to_n():
    # 0.6 past PROBE_FROM: the probe's state (its end, the work at its start) carried across
    n = sparse_module.PROBE_FROM + 2 * sparse_module.PROBE_LENGTH
    c = parse_octal("0.6")
    whole = takebreak_run(c, n)
    run = takebreak_run(c, sparse_module.PROBE_FROM + 10)
    table = run.table
    run = takebreak_run(c, n, start=run)
    assert run.table is table                                       # the same array, grown in place
    assert run.values == whole.values and run.counters() == whole.counters()


def test_an_extension_keeps_its_options():
    run = takebreak_run(parse_octal("0.6"), 100, native=False, mask=5)
    with pytest.raises(ValueError, match="another code"):
        takebreak_run(parse_octal("0.77"), 200, native=False, start=run)
    with pytest.raises(ValueError, match="another code"):
        takebreak_run(parse_octal("0.6"), 200, native=False, start=run)          # mask chosen, not fixed
    with pytest.raises(ValueError, match="not one to extend"):
        takebreak_run(parse_octal("0.6"), 50, native=False, mask=5, start=run)
    longer = takebreak_run(parse_octal("0.6"), 200, native=False, mask=5, start=run)
    assert longer.values == takebreak_run(parse_octal("0.6"), 200, native=False, mask=5).values


@needs_cc
def test_run_to_period_extends_in_place():
    r = run_to_period(parse_octal("0.137"), 20_000)
    assert r.computed == 1023 and r.period == (52, 34)
    assert r.values == takebreak_run(parse_octal("0.137"), 20_000).values
    r = run_to_period(parse_octal("0.106"), 5000)                    # no period proved: 1023, 2047, 4095, 5000
    assert r.computed == 5000 and r.period is None and r.values == takebreak_run(parse_octal("0.106"), 5000).values


@needs_cc
def test_an_interrupted_extension_reports_every_value_from_heap_0(monkeypatch):
    from grundy.solvers.heaps import takebreak
    c = parse_octal("0.6")
    run = takebreak_run(c, 500)
    want = takebreak_run(c, 900).values

    def stopped(fn, out, stop):               # the C call runs to its end; then "Ctrl-C", 100 values written
        fn()
        raise Interrupted([out[i] for i in range(100)])
    monkeypatch.setattr(takebreak, "call_filling", stopped)
    with pytest.raises(Interrupted) as got:
        takebreak_run(c, 900, start=run)
    assert got.value.done == want[:601]


# ------------------------------------------------------------------ the period check in C

def test_the_linear_bound_is_the_theorems():
    for code in ["0.77", "0.137", "0.3", "0.333", "4.07", "0.03", "0.7"]:
        th = theorem_for(parse_octal(code))
        a, b, c, c0 = th.linear()
        for n0 in range(0, 60):
            for p in range(1, 40):
                assert th.needed(n0, p) == (a * n0 + b * p + c if n0 else b * p + c0)


def python_period(code, values):
    return period(code, list(values), native=False)


@needs_cc
@pytest.mark.parametrize("code", ["0.77", "0.137", "0.6", "0.106", "4.07", "0.3", "0.333", "0.16", "0.51"])
def test_native_period_is_pythons_on_octal_values(code):
    c = parse_octal(code)
    vals = takebreak_run(c, 3000).values
    for n in (0, 1, 5, 40, 100, 300, 1023, 2047, 3000):
        got = period(c, array("I", vals[:n + 1]), native=True)
        assert got == python_period(c, vals[:n + 1]), (code, n)
        assert period(None, vals[:n + 1], native=True) == period(None, vals[:n + 1], native=False), (code, n)


@needs_cc
def test_native_period_is_pythons_on_random_sequences():
    rng = random.Random(41)
    codes = [None, TakeBreak((0, 7, 7)), TakeBreak((0, 3, 3))]
    found = 0
    for _ in range(400):
        pre = [rng.randrange(4) for _ in range(rng.randrange(0, 30))]
        block = [rng.randrange(3) for _ in range(rng.randrange(1, 8))]
        vals = pre + block * rng.randrange(1, 40)
        if rng.random() < 0.3 and vals:
            vals[rng.randrange(len(vals))] ^= 1                       # a defect somewhere
        for code in codes:
            want = period(code, vals, native=False)
            assert period(code, vals, native=True) == want, (code, vals)
            found += want is not None
    assert found > 300                                                # periods were there to find


def test_period_helpers_agree_with_their_definition():
    vals = [3, 1, 2, 1, 2, 1, 2, 1, 2]
    assert _least_n0(vals, 2) == 1 and _repeats_from(vals, 2, 1) and not _repeats_from(vals, 2, 0)
