"""Octal games' one-heap values (kept for compatibility): thin wrappers of
:mod:`grundy.solvers.heaps`, which computes them for every take-and-break code.

>>> octal_values("0.77", 11)                        # Kayles
[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
>>> octal_period("0.77", octal_values("0.77", 200))   # Kayles: period 12 from n = 71
(71, 12)
"""
from __future__ import annotations

from grundy.spec.heaprule import parse_octal

from .heaps import CHECK_STEP, FIRST_CHECK, MAX_N, MAX_WHT_BITS, HeapRun, HeapTables, period, takebreak_run
from .heaps.takebreak import Method

__all__ = ["OctalRun", "octal_run", "octal_values", "octal_period", "last_digit", "HeapTables",
           "MAX_N", "MAX_WHT_BITS", "FIRST_CHECK", "CHECK_STEP"]     # the constants: kept importable from here

OctalRun = HeapRun


def octal_run(code: str, n: int, *, method: Method = "sparse", native: bool | None = None,
              mask: int | None = None) -> HeapRun:
    """G(0..n) of one heap under the octal ``code``, with the work counters (see
    :func:`grundy.solvers.heaps.takebreak_run`).

    >>> octal_run("0.07", 20, native=False).values[:10]
    [0, 0, 1, 1, 2, 0, 3, 1, 1, 0]
    """
    tb = parse_octal(code)
    run = takebreak_run(tb, n, method=method, native=native, mask=mask)
    run.code = code
    return run


def octal_values(code: str, n: int, *, method: Method = "sparse", native: bool | None = None) -> list[int]:
    """The Grundy values G(0), ..., G(n) of a single heap under the octal ``code``.

    >>> octal_values("0.137", 16)                     # Dawson's chess
    [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2]
    >>> octal_values("4.0", 8)                        # split a heap in two, nothing else
    [0, 0, 1, 0, 1, 0, 1, 0, 1]
    """
    return octal_run(code, n, method=method, native=native).values


def last_digit(code: str) -> int:
    """The position t of the code's last non-zero digit (the most tokens a move removes); 0 if none.

    >>> last_digit("0.137"), last_digit("4.0"), last_digit("0.070")
    (3, 0, 2)
    """
    return parse_octal(code).last or 0


def octal_period(code: str, values: list[int]) -> tuple[int, int] | None:
    """(preperiod n0, period p) that ``values`` = G(0..N) prove by the octal periodicity theorem
    (Guy and Smith: with t the code's last non-zero digit, if G(n + p) = G(n) for every n with
    n0 <= n < 2 n0 + p + t, then for every n >= n0; for n0 = 0 one more n is checked), or None.

    >>> octal_period("0.07", octal_values("0.07", 200))     # Dawson's Kayles
    (53, 34)
    >>> octal_period("0.6", octal_values("0.6", 200)) is None
    True
    """
    found = period(parse_octal(code), values)
    return (found.preperiod, found.period) if found is not None and found.proved else None
