"""Periods of one-heap values: proved by a periodicity theorem where one covers the rule, else
only apparent.

>>> from grundy.spec.heaprule import TakeBreak
>>> from grundy.solvers.heaps.takebreak import takebreak_run
>>> period(TakeBreak((0, 7, 7)), takebreak_run(TakeBreak((0, 7, 7)), 200).values)
Period(preperiod=71, period=12, proved=True)
"""
from __future__ import annotations

import ctypes
from array import array
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ...errors import BuildError
from ...spec.heaprule import TakeBreak
from ..native import build
from .bounds import PeriodTheorem, theorem_for
from .takebreak import U32, HeapRun, check_n, takebreak_run

__all__ = ["Period", "period", "run_to_period"]

FIRST_PERIOD_CHECK = 1023  # run_to_period: the first G(0..m) looked at for a proved period
NATIVE_FROM = 256          # period(): values from this length on are checked in C (periodscan.c)


@dataclass(frozen=True)
class Period:
    """G(n + period) = G(n) for every n >= preperiod: ``proved`` by a periodicity theorem for
    the rule (codes without breaks: a window of the longest move repeats; finite codes: Guy and
    Smith), or only *apparent* (it holds for every value computed, at least twice over)."""

    preperiod: int
    period: int
    proved: bool

    def describe(self, name: str, n: int, by: str = "") -> str:
        """One line; ``by``: the theorem that proves it (or why none does), said in the parentheses."""
        how = (f"proved by G(0..{n})" if self.proved else
               f"apparent in G(0..{n}), not proved: it repeats {(n + 1 - self.preperiod) // self.period} times "
               f"in G({self.preperiod}..{n})")
        return f"{name}: period {self.period} from n = {self.preperiod} ({how}{'; ' + by if by else ''})"


def _least_n0(values: Sequence[int], p: int) -> int:
    n = len(values) - 1 - p
    while n >= 0 and values[n + p] == values[n]:
        n -= 1
    return n + 1


def period(code: TakeBreak | None, values: Sequence[int], *, native: bool | None = None) -> Period | None:
    """The least period (with its least preperiod) of ``values`` = G(0..N): proved when a
    theorem covers the code, else apparent; None if there is none to report.

    A code without breaks and with a last digit t: G(n) for n > t
    depends only on G(n - t..n - 1), so a window of t values repeating p later, starting at
    n0, repeats forever (checked for n0 <= n < max(n0, 1) + t, the max keeping the heap of
    exactly t, whose "take all" is special, out of the induction). Finite codes with breaks:
    the periodicity theorem of Guy and Smith: if G(n + p) = G(n) for
    n0 <= n < 2 n0 + p + t, then for every n >= n0 (for n0 = 0 one more n is checked: at
    N = p + t the induction would match the split p + p of N + p with the "split" p + 0 of N);
    :mod:`.bounds` has the theorems. Otherwise (an infinite code, unequal splits, a rule without
    a code), the least p that repeats at least three times in G(n0..N), with G(n0..N) at least
    half of G(0..N), is reported as apparent.

    The loop runs in C (``periodscan.c``, the same loop step for step) for values of
    ``NATIVE_FROM`` entries or more when a compiler is available (``native``: True always,
    False never), else in Python.

    >>> period(None, [0, 1, 2, 3, 4, 5, 6, 7, 8, 0, 1, 0, 1, 0, 1]) is None    # 3 repeats, under half
    True
    >>> period(None, [0, 1, 2] + [0, 1] * 4)
    Period(preperiod=3, period=2, proved=False)

    >>> from grundy.solvers.heaps.takebreak import takebreak_run
    >>> period(TakeBreak((0, 3, 0, 3, 3)), takebreak_run(TakeBreak((0, 3, 0, 3, 3)), 30).values)
    Period(preperiod=0, period=7, proved=True)
    """
    th = theorem_for(code)
    if native or native is None and len(values) >= NATIVE_FROM and build.available():
        found = _native_period(th, values)
        if found is not NotImplemented:
            return found
    N = len(values) - 1
    # Only a p with G(N - p) = G(N) can be a period below: otherwise n0 = N - p + 1, and both a
    # proof (it reads G up to n0 + t - 1 + p = N + t > N) and three repeats after n0 need more.
    last = values[-1] if values else None
    candidates = [p for p in range(1, N + 1) if values[N - p] == last]
    # Each p is first tested from the largest n0 that would do (a mismatch there is usually
    # found at once, where scanning down from N may run through a long near-periodic stretch);
    # only the p that passes is scanned down for its least n0.
    if th is not None:
        for p in candidates:
            if th.needed(0, p) > N:
                break                               # no larger p can be proved either
            top = _largest(lambda n0: th.needed(n0, p) <= N, N)   # noqa: B023  (called at once)
            if _repeats_from(values, p, top):       # G(n + p) = G(n) checked for n0 <= n < end
                return Period(_least_n0(values, p), p, True)
    for p in candidates:
        if p > N // 3:
            break
        # three periods seen after n0, and the periodic part at least half of G(0..N)
        top = min(N + 1 - 3 * p, (N + 1) // 2)
        if _repeats_from(values, p, top):
            return Period(_least_n0(values, p), p, False)
    return None


@lru_cache(maxsize=1)
def _scanner() -> ctypes.CDLL:
    lib = build.load(build.fixed_c(__package__, "periodscan.c"))
    i64 = ctypes.c_int64
    lib.pd_period.argtypes = [ctypes.POINTER(ctypes.c_uint32), i64, ctypes.c_int, i64, i64, i64, i64,
                              ctypes.POINTER(i64), ctypes.POINTER(i64)]
    lib.pd_period.restype = ctypes.c_int
    return lib


def _linear(th: PeriodTheorem) -> tuple[int, int, int, int]:
    """The theorem's bound as the C check takes it, compared with ``th.needed`` (both pieces
    are linear: checked on a grid that fixes them)."""
    a, b, c, c0 = th.linear()
    for n0 in range(4):
        for p in range(1, 4):
            if th.needed(n0, p) != (a * n0 + b * p + c if n0 else b * p + c0):
                raise AssertionError(f"{th.name}: needed({n0}, {p}) is not the linear bound {(a, b, c, c0)}")
    return a, b, c, c0


def _native_period(th: PeriodTheorem | None, values: Sequence[int]) -> Any:
    """:func:`period` in C (``periodscan.c``, the same loop), or NotImplemented where values
    do not fit 32 bits."""
    if not (isinstance(values, array) and values.typecode == U32):
        try:
            values = array(U32, values)
        except (OverflowError, TypeError):
            return NotImplemented
    a, b, c, c0 = _linear(th) if th is not None else (0, 0, 0, 0)
    try:
        lib = _scanner()
    except BuildError:                      # no compiler after all: Python
        return NotImplemented
    p, n0 = ctypes.c_int64(0), ctypes.c_int64(0)
    buf = (ctypes.c_uint32 * len(values)).from_buffer(values)
    kind = lib.pd_period(buf, len(values) - 1, int(th is not None), a, b, c, c0, ctypes.byref(p),
                                ctypes.byref(n0))
    del buf
    return None if kind == 0 else Period(n0.value, p.value, kind == 1)


def _largest(ok: Any, hi: int) -> int:
    """The largest n0 in 0..hi with ok(n0) (ok holds at 0 and is monotone: true, then false)."""
    lo = 0
    while lo < hi:
        mid = (lo + hi + 1) // 2
        lo, hi = (mid, hi) if ok(mid) else (lo, mid - 1)
    return lo


def _repeats_from(values: Sequence[int], p: int, lo: int) -> bool:
    """G(n + p) = G(n) for every n from ``lo`` to N - p (compared a block at a time, upwards)."""
    N = len(values) - 1
    i = max(lo, 0)
    while i <= N - p:
        j = min(i + 256, N - p + 1)
        if values[i:j] != values[i + p:j + p]:
            return False
        i = j
    return True


def run_to_period(code: TakeBreak, n: int, **how: Any) -> HeapRun:
    """G(0..n) of ``code``, as :func:`~.takebreak.takebreak_run` (``how``: its options) gives
    it, but where a periodicity theorem covers the code, computed only up to m = 1023, 2047,
    4095, ... (each run extending the last, its table grown in place) until the theorem proves
    a period, and extended to n by it (the run's counters are those of G(0..m); ``computed`` is
    m and ``period`` (preperiod, period)).

    >>> r = run_to_period(TakeBreak((0, 1, 3, 7)), 10**6)     # code 0.137, Dawson's chess
    >>> r.computed, r.period, len(r.values)
    (1023, (52, 34), 1000001)
    >>> r.values[:5000] == takebreak_run(TakeBreak((0, 1, 3, 7)), 4999).values
    True
    """
    check_n(n)
    m = n if theorem_for(code) is None else min(n, FIRST_PERIOD_CHECK)
    run: HeapRun | None = None
    while True:
        run = takebreak_run(code, m, start=run, **how)     # the table extended in place
        found = period(code, run.table) if m < n else None
        if m == n or found is not None and found.proved:
            break
        m = min(n, 2 * (m + 1) - 1)
    if found is None:
        return run
    p, more = found.period, n - m
    block = run.table[m + 1 - p:m + 1]              # G(m + 1 + i) = G(m + 1 - p + i mod p); m + 1 - p > preperiod
    run.table.extend((block * (more // p + 1))[:more])
    run.__dict__.pop("values", None)               # the list view, if one was made, is remade from the table
    run.period = (found.preperiod, p)
    return run
