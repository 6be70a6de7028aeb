"""One-heap values of a take-and-break code: the sparse-space method in C, or in Python.

The loop (see :mod:`grundy.solvers.heaps.sparse` for the method) runs in C (``takebreak.c``,
built once by :mod:`grundy.solvers.native.build`: the code's digits, tail digit and
``unequal`` flag are its arguments) when a compiler is available, else in Python; both run the
same algorithm and report the same work counters.

>>> takebreak_run(TakeBreak((0, 7, 7)), 11).values          # code 0.77
[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
>>> takebreak_run(TakeBreak((4,), unequal=True), 12, native=False).values   # unequal splits
[0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1]
"""
from __future__ import annotations

import ctypes
from array import array
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from typing import Any, Literal

from ...spec.heaprule import TakeBreak
from ...spec.position import InputError
from ..native import build
from ..native.interruptible import Interrupted, call_filling
from . import sparse
from .sparse import CHECK_STEP, FIRST_CHECK, MAX_WHT_BITS

__all__ = ["HeapRun", "Method", "takebreak_run", "check_n", "u32_array", "MAX_N", "MAX_WHT_BITS", "FIRST_CHECK", "CHECK_STEP"]

MAX_N = 2**31 - 2          # stamps are h + 1 in 32 bits
U32 = next(t for t in "IL" if array(t).itemsize == 4)    # the array typecode of a C uint32_t


def u32_array(n: int) -> array:
    """A zeroed ``array`` of ``n`` unsigned 32-bit entries (C writes into it in place).

    >>> a = u32_array(3); a.itemsize, a.tolist()
    (4, [0, 0, 0])
    """
    return array(U32, [0]) * n
Method = Literal["sparse", "plain"]


@dataclass
class HeapRun:
    """Values G(0..n) and what the computation did.

    ``table``: G(0..n) as a typed array (``array('I')``, 32 bits an entry), the buffer the C
    kernel wrote: no copy per element; ``values``: the same as a list, made from it at first use
    (callers that need list semantics). ``computed``: the largest heap whose value was computed (below ``len(values) - 1`` only
    for :func:`~.period.run_to_period`: the values above it follow from ``period`` =
    (preperiod, period), proved by a periodicity theorem). ``mask``: the final mask (0 for the plain method), ``parity``: whether it counts the heap
    size's parity (see :mod:`~grundy.solvers.heaps.sparse`); ``rares``: heaps 1..n that are
    rare under them; ``mask_changes``: how often the mask was replaced; ``rare_pairs``: splits
    looked at through the rare list; ``full_pairs``: splits looked at by the resumed full
    scans (for the plain method, every split).
    """

    code: str
    table: array
    method: str
    native: bool
    mask: int = 0
    rares: int = 0
    mask_changes: int = 0
    rare_pairs: int = 0
    full_pairs: int = 0
    parity: int = 0
    computed: int = -1
    period: tuple[int, int] | None = None
    state: list[int] = field(default_factory=list, repr=False, compare=False)   # the loop's, to extend the run
    how: tuple[Any, ...] = field(default=(), repr=False, compare=False)         # (fixed mask, plain)

    def __post_init__(self) -> None:
        if self.computed < 0:
            self.computed = len(self.table) - 1

    @cached_property
    def values(self) -> list[int]:
        """G(0..n) as a list (from ``table``, at first use)."""
        return self.table.tolist()

    def counters(self) -> tuple[int, int, int, int, int, int]:
        return (self.mask, self.rares, self.mask_changes, self.rare_pairs, self.full_pairs, self.parity)


@lru_cache(maxsize=1)
def _kernel() -> ctypes.CDLL:
    defines = (f"#define FIRST_CHECK {FIRST_CHECK}\n#define CHECK_STEP {CHECK_STEP}\n"
               f"#define MAX_WHT_BITS {MAX_WHT_BITS}\n#define RESUME_STEP {sparse.RESUME_STEP}\n"
               f"#define PROBE_FROM {sparse.PROBE_FROM}\n#define PROBE_LENGTH {sparse.PROBE_LENGTH}\n")
    lib = build.load(defines + build.fixed_c(__package__, "takebreak.c"))
    i32, i64 = ctypes.c_int, ctypes.c_int64
    lib.tb_run.argtypes = [ctypes.POINTER(i32), i32, i32, i32, i64, i64, i32, i32, i32, i32,
                           ctypes.POINTER(ctypes.c_uint32), ctypes.POINTER(i64), i64, ctypes.POINTER(i64)]
    lib.tb_run.restype = ctypes.c_int
    return lib


def _native(code: TakeBreak, n: int, fixed: tuple[int, int] | None, plain: bool, table: array,
            state: list[int]) -> tuple[list[int], list[int]]:
    """Fill ``table`` (G(0..n), its first ``len(state) and f`` entries given) in C: (stats, state)."""
    lib = _kernel()
    digits = code.digits
    d = (ctypes.c_int * len(digits))(*digits)
    f = len(table) if state else 0         # heaps 0..f - 1 computed by the run being extended
    table.extend(u32_array(n + 1 - len(table)))
    whole = (ctypes.c_uint32 * (n + 1)).from_buffer(table)                # C writes the array's own buffer
    out = (ctypes.c_uint32 * (n + 1 - f)).from_buffer(table, 4 * f)       # the part it computes
    stats, st = (ctypes.c_int64 * 6)(), (ctypes.c_int64 * sparse.STATE_LEN)(*state)
    mask, par = (0, 0) if plain else (-1, 0) if fixed is None else fixed
    how = (int(sparse.parity_allowed(code)), sparse.split_parity(code), int(plain))
    try:
        status = call_filling(lambda: lib.tb_run(d, len(digits), code.tail, int(code.unequal), n, mask, par,  # Ctrl-C:
                                                 *how, whole, stats, f, st), out, ctypes.c_int.in_dll(lib, "tb_stop"))
    except Interrupted as e:               # what it computed, from heap 0
        raise Interrupted(table[:f].tolist() + e.done) from None
    if status != 0:
        raise MemoryError(f"one-heap values up to {n}: out of memory")
    return list(stats), list(st)           # the views end here: the array may be resized again


def check_n(n: Any) -> None:
    """An InputError unless ``n`` is a heap size the tables can reach."""
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise InputError("n", f"must be a natural number, got {n!r}")
    if n > MAX_N:
        raise InputError("n", f"{n} is too large (at most {MAX_N})")


def takebreak_run(code: TakeBreak, n: int, *, method: Method = "sparse", native: bool | None = None,
                  mask: int | None = None, parity: bool = False, start: HeapRun | None = None) -> HeapRun:
    """G(0..n) of one heap under a take-and-break ``code``, with the work counters (see
    :class:`HeapRun`).

    ``method``: "sparse" or "plain". ``native``: None uses C when a compiler is available;
    False forces Python; True requires C. ``mask`` fixes the sparse method's mask (any
    mask gives the same values; None chooses it as :mod:`~grundy.solvers.heaps.sparse` says);
    ``parity``, with a fixed ``mask``, makes it count the heap size's parity too (any code).
    ``start``: an earlier run of the same code with the same options, up to n' <= n, extended
    to n (its table grown in place, heaps n' + 1..n computed as a run to n computes them, the
    same values and counters): the run returned is ``start`` itself.

    >>> r = takebreak_run(TakeBreak((0, 0, 7)), 20, native=False); r.values[:10], r.method
    ([0, 0, 1, 1, 2, 0, 3, 1, 1, 0], 'sparse')
    >>> takebreak_run(TakeBreak((0, 0, 7)), 20, mask=5).values == r.values
    True
    >>> s = takebreak_run(TakeBreak((0, 0, 7)), 9, native=False)
    >>> takebreak_run(TakeBreak((0, 0, 7)), 20, native=False, start=s) == r
    True
    """
    check_n(n)
    if method not in ("sparse", "plain"):
        raise ValueError(f"method must be 'sparse' or 'plain', got {method!r}")
    if mask is not None and not 0 <= mask < 2**32:
        raise ValueError(f"mask must be in 0..2^32 - 1, got {mask}")
    use_c = build.available() if native is None else native
    plain = method == "plain"
    fixed = None if mask is None else (mask, int(parity))
    how = (fixed, plain)
    if start is not None and (start.code, start.method, start.native, start.how) != (code.text, method, bool(use_c), how):
        raise ValueError("start: a run of another code, method or options")
    if start is not None and (len(start.table) > n + 1 or start.computed != len(start.table) - 1):
        raise ValueError(f"start: a run up to {start.computed}, not one to extend to {n}")
    table, state = (start.table, start.state) if start is not None else (array(U32), [])
    if use_c:
        stats, state = _native(code, n, fixed, plain, table, state)
    else:
        values, stats, state = sparse.run(code, n, fixed, plain, table.tolist(), state)
        table[len(table):] = array(U32, values[len(table):])
    run = start if start is not None else HeapRun(code.text, table, method, bool(use_c), how=how)
    run.mask, run.rares, run.mask_changes, run.rare_pairs, run.full_pairs, run.parity = stats
    run.computed, run.state = n, state
    run.__dict__.pop("values", None)       # a list made before the extension is made again
    return run
