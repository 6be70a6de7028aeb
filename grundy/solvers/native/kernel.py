"""The C kernel: a game's IR compiled to C, with a table of values over packed positions.

The move code comes from the same plan as the Python solver's (``move_plan``): only the
syntax differs. A position is packed into one 64-bit integer by a mixed radix (a *box*:
for each slot its least value and number of values), so that the whole box can be swept
in index order with one byte per position (``dense``), or single positions solved with an
open-addressing hash table. Values: Grundy value + 1, or for outcomes 1 (mover loses) and
2 (mover wins); 0 is unknown. A successor outside the box stops the search: ``values`` returns a
:class:`~grundy.solvers.native.box.Halt` saying so (the caller widens the box and starts
again); nothing is ever truncated.

>>> from grundy.spec.games import get_game
>>> from grundy.spec import Structure
>>> from grundy.solvers.native import build
>>> rules = get_game("nim").rules(Structure.heaps(3))
>>> if build.available():
...     k = Kernel(rules, Box.around(rules, [(3, 5, 6)]))
...     print(k.grundy((3, 5, 6)), k.grundy((1, 2, 4)))
... else:
...     print(0, 7)
0 7
"""
from __future__ import annotations

import ctypes
import itertools
from array import array
from functools import lru_cache
from typing import Any, Callable, Sequence

from ...errors import BuildError, KernelError, OutOfBox
from ...settings import current as settings
from ...spec.game import Rules
from . import build
from .box import OUT_OF_BOX, Box, Halt
from .codegen import CYCLE, DOMAIN, LIMIT, NO_MEMORY, OVERFLOW, PAUSED, TOO_LARGE, c_source, kernel_source, load_kernel
from .csyntax import C, CSyntax

__all__ = ["Kernel", "TableHandle", "KernelError", "OutOfBox", "Box", "Halt", "OUT_OF_BOX", "halt_error", "keys_in", "CSyntax", "C", "c_source", "kernel_source",
           "run_paused", "counted", "upgrade_pauses", "batch_keys", "GRUNDY", "NORMAL", "MISERE", "MISERE_GRUNDY", "UNKNOWN", "LOSES",
           "WINS", "MAX_KEY", "DENSE_LIMIT", "CYCLE", "TOO_LARGE", "LIMIT",
           "NO_MEMORY", "OVERFLOW", "DOMAIN", "PAUSED"]     # Box, CSyntax, C, c_source, kernel_source: kept importable from here

State = tuple[int, ...]
GRUNDY, NORMAL, MISERE, MISERE_GRUNDY = 0, 1, 2, 3   # table modes (3: misère Grundy values)
UNKNOWN, LOSES, WINS = 0, 1, 2             # outcome values
MAX_KEY = 2 ** 63                          # box sizes stay below this
DENSE_LIMIT = 2 ** 28                      # boxes up to this many positions get a dense table


_STATUS = {CYCLE: "cycle", TOO_LARGE: "a Grundy value above 253", LIMIT: "position limit",
           NO_MEMORY: "out of memory",
           OVERFLOW: "a product overflowed 64 bits (or a nim product had a negative operand)",
           DOMAIN: "a move left a field's domain"}


def kernel_error(status: int, key: int | None = None) -> KernelError:
    """The error for the kernel's ``status``, in words."""
    return KernelError(status, _STATUS.get(status, f"status {status}"), key)


def halt_error(h: Halt) -> KernelError:
    """The error for a :class:`Halt`, where its caller has no other answer (a single position
    asked, a sweep): :class:`OutOfBox`, or :func:`kernel_error`'s.

    >>> halt_error(Halt(DOMAIN, value=7)).key, str(halt_error(Halt(OUT_OF_BOX, 2, 9)))
    (7, 'slot 2 took value 9, outside the box')
    """
    if h.status == OUT_OF_BOX:
        return OutOfBox(-1 if h.slot is None else h.slot, h.value)
    return kernel_error(h.status, key=h.value if h.status == DOMAIN else None)


# ----------------------------------------------------------------------------- the kernel
@lru_cache(maxsize=256)
def _library(source: str, quick: bool = False, light: bool = False) -> ctypes.CDLL:
    lib = load_kernel(source, quick, light)     # the fixed search compiled once, linked with each kernel
    lib.k_new.restype = ctypes.c_void_p
    lib.k_new.argtypes = [ctypes.c_int, ctypes.c_uint64, ctypes.c_int64]
    lib.k_free.argtypes = [ctypes.c_void_p]
    for f in ("k_solve",):
        getattr(lib, f).argtypes = [ctypes.c_void_p, ctypes.c_uint64]
    lib.k_solve_many.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint64), ctypes.c_int64,
                                 ctypes.POINTER(ctypes.c_uint8), ctypes.POINTER(ctypes.c_int64)]
    lib.k_sweep.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint64), ctypes.c_uint64]
    lib.k_abort.argtypes = [ctypes.c_void_p]
    lib.k_value.argtypes = [ctypes.c_void_p, ctypes.c_uint64]
    lib.k_stored.argtypes = [ctypes.c_void_p]
    lib.k_stored.restype = ctypes.c_int64
    lib.k_set_limit.argtypes = [ctypes.c_void_p, ctypes.c_int64]
    _declare_keys(lib)
    lib.k_canon.argtypes = [ctypes.c_uint64]
    lib.k_canon.restype = ctypes.c_uint64
    lib.k_err_slot.argtypes = [ctypes.c_void_p]
    lib.k_err_value.argtypes = [ctypes.c_void_p]
    lib.k_err_value.restype = ctypes.c_int64
    lib.k_dense.argtypes = [ctypes.c_void_p]
    lib.k_dense.restype = ctypes.c_void_p
    lib.k_successors.argtypes = [ctypes.c_uint64, ctypes.POINTER(ctypes.c_uint64), ctypes.c_int64]
    lib.k_successors.restype = ctypes.c_int64
    return lib


PAUSE_SECONDS = 0.01     # CPU seconds a pause of a search at -Og (65,536 steps) is reckoned to take
SAVED = 0.2              # the part of that time the optimized build saves (Q_7's levels 0..2, the main
                         # job's largest tiered kernel: 5.1 s in C at -Og, about 1 s less at -O2)


def upgrade_pauses(text: str, light: bool = False) -> int:
    """The pauses at -Og after which a tiered kernel of library text ``text`` is compiled with
    the optimizer (:func:`counted`), unless ``settings.upgrade_after`` fixes them: as many as
    make the time the optimized code would have saved so far (``SAVED`` of ``PAUSE_SECONDS``
    a pause) equal to the optimizer's estimated time (:func:`build.compile_cost`; ``light``:
    -O1, 1.5 times less), so that a search that ends soon after never pays for a build it
    does not use, and a long one pays at most about twice. Counts, never the clock: the same
    search takes the same path on any machine.

    >>> upgrade_pauses("x" * 63_000), upgrade_pauses("x" * 10_000)
    (610, 88)
    """
    cost = build.compile_cost(text, quick=False) / (1.5 if light else 1.0)
    return max(1, int(cost / (PAUSE_SECONDS * SAVED) + 0.5))


def run_paused(call: Callable[[], int], abort: Callable[[], None]) -> int:
    """Call a search in C until it is done; its status. The search returns every few
    milliseconds (PAUSED) so that Python's signal handlers run between calls: Ctrl-C (or a
    handler raising on SIGTERM) stops it within a second, after ``abort()``."""
    try:
        status = call()
        while status == PAUSED:
            status = call()
    except BaseException:
        abort()
        raise
    return status


def counted(owner: Any, call: Callable[[], int]) -> Callable[[], int]:
    """``call`` (a search in C of ``owner``'s library), counting its pauses while
    ``owner.tiered``: at ``owner.upgrade_at`` pauses (:func:`upgrade_pauses`; ``settings.upgrade_after``
    if set), ``owner.lib`` becomes ``owner.optimized()``, the
    same text with -O2, and goes on with the same table, the search under way included. One C
    text built by one compiler lays out its structures alike whatever the optimizer does, the
    tables live in the process's heap, and the library keeps no state between calls (its one
    flag, a product's overflow, is cleared where it is read); ``call`` reads ``owner.lib``
    each time, so the next call runs the new library. A compiler that fails on the optimized
    build leaves the -Og library in place (the flags change the time only)."""
    def count() -> int:
        status = call()
        if status == PAUSED and owner.tiered:
            owner.pauses += 1
            fixed = settings().upgrade_after
            if owner.pauses >= (owner.upgrade_at if fixed is None else fixed):
                owner.tiered = False
                try:
                    owner.lib = owner.optimized()
                except BuildError:        # the optimizer failed where -Og did not: go on with -Og
                    pass
        return status
    return count


def keys_in(lib: ctypes.CDLL, box: Box, states: Sequence[Sequence[int]]) -> "ctypes.Array | None":
    """The keys of many states, computed by the library's ``k_keys`` from the states packed in
    one array; None if one is outside the box (or beyond 64 bits); TypeError if one has the
    wrong length (a caller's bug)."""
    n = len(states)
    keys = (ctypes.c_uint64 * n)()
    try:
        flat = array("q", itertools.chain.from_iterable(states))
    except OverflowError:                     # array's own check of 64 bits, read as a value here
        return None
    if len(flat) != n * len(box.lo):
        raise TypeError("a state of the wrong length for the box")
    if n and lib.k_keys(flat.buffer_info()[0], n, keys) >= 0:
        return None
    return keys


def batch_keys(lib: ctypes.CDLL, box: Box, states: Sequence[Sequence[int]]) -> "ctypes.Array":
    """:func:`keys_in`'s keys, ValueError if one is outside the box (for callers whose box
    holds every state by construction: one outside is a bug there)."""
    keys = keys_in(lib, box, states)
    if keys is None:
        raise ValueError("outside the box")
    return keys


def _declare_keys(lib: ctypes.CDLL) -> None:
    lib.k_keys.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.POINTER(ctypes.c_uint64)]
    lib.k_keys.restype = ctypes.c_int64


class TableHandle:
    """A value table held by a C library (``lib``, the table ``_t``): freed with the object, and
    the number of positions it stores. Shared by :class:`Kernel` and the interpreter's
    :class:`~grundy.solvers.native.vm.VMKernel`."""

    lib: Any
    _t: Any

    def __del__(self) -> None:
        t, self._t = getattr(self, "_t", None), None
        if t:
            self.lib.k_free(t)

    @property
    def stored(self) -> int:
        return self.lib.k_stored(self._t)


class _Owned:
    """A kernel's table, freed (by ``free``, the library's ``k_free``) when the last kernel
    that uses it is gone (a table handed on: :class:`Kernel`'s ``table_of``)."""

    __slots__ = ("free", "t")

    def __init__(self, free: Callable[[Any], None], t: Any):
        self.free, self.t = free, t

    def __del__(self) -> None:
        t, self.t = self.t, None
        if t:
            self.free(t)


class Kernel(TableHandle):
    """The compiled rules on one box, with one value table (``mode``: GRUNDY, NORMAL or MISERE
    outcomes, MISERE_GRUNDY: misère Grundy values, never split into components). ``limit`` bounds the positions stored (:class:`KernelError` "position limit").
    ``extra``: C appended to the kernel's source (functions of the same library that drive its
    table, e.g. a claim's sweep); the kernel answers as without it. ``quick``: compiled with
    ``-Og`` (:data:`build.QUICK_FLAGS`); ``light``: else with ``-O1`` (:data:`build.LIGHT_FLAGS`: a
    sweep of moderate size), else -O2. ``quick=None`` (the default): -Og on boxes of at most
    ``settings.quick_box`` positions, and on larger ones until the searches have done about a million
    steps (:func:`counted`: then ``light``'s flags or -O2). The same answers whatever the flags.
    ``table_of``: a kernel whose table this one takes on where :meth:`can_share` says it may
    (another claim's sweep on the same rules and box: the positions it solved are not solved
    again); the table then stores up to ``limit`` positions more than it held."""

    def __init__(self, rules: Rules, box: Box, mode: int = GRUNDY, limit: int = 2 ** 62,
                 dense: bool | None = None, symmetry: bool = False, decompose: bool = False,
                 extra: str = "", quick: bool | None = None, light: bool = False,
                 table_of: "Kernel | None" = None):
        if box.size >= MAX_KEY:
            raise ValueError(f"the box has {box.size} positions: more than a 64-bit key holds")
        self.rules, self.box, self.mode = rules, box, mode
        self.symmetry = symmetry
        self.decompose = decompose
        self.extra = extra          # C compiled with the kernel, driving it (a claim's sweep: native/sweep.py)
        # a large box without quick asked for: -Og until the work shows (counted), then -O2
        # (light: -O1); most such kernels (a table handed over by the Python search, a sweep
        # whose starts the assumption mostly rules out) have little to solve
        self.tiered = quick is None and box.size > settings().quick_box
        self.quick = (box.size <= settings().quick_box or self.tiered) if quick is None else quick
        self.light = light and not (self.quick and not self.tiered)      # the flags after -Og
        self.pauses = 0
        self._text = text = kernel_source(rules, box, symmetry, decompose) + extra   # c_source's, kept on disk
        self.lib = _library(text, self.quick, self.light and not self.quick)
        self.upgrade_at = upgrade_pauses(text, self.light)
        if dense is None:
            dense = box.size <= DENSE_LIMIT
        self.dense = dense
        self._owned: _Owned
        if table_of is not None and table_of.can_share(rules, box, mode, dense, symmetry, decompose, limit):
            self._owned = table_of._owned          # the same table, kept until both kernels are gone
            self._t = self._owned.t
            self.lib.k_set_limit(self._t, self.stored + limit)
        else:
            self._t = self.lib.k_new(mode, box.size if dense else 0, limit)
            if not self._t:
                raise MemoryError(f"no memory for a table of {box.size:,} positions")
            self._owned = _Owned(self.lib.k_free, self._t)
        self._strides = box.strides

    def __del__(self) -> None:
        pass                                       # the table is freed with its last kernel (_Owned)

    def can_share(self, rules: Rules, box: Box, mode: int, dense: bool, symmetry: bool, decompose: bool,
                  limit: int) -> bool:
        """Whether a kernel of these rules, box, mode, table kind and reductions may take on this
        kernel's table: the same key for every position (the same rules, box and symmetry
        reduction), the same values stored (mode, decomposition), and the table at most a
        quarter of ``limit`` full (a table handed on holds at most 1.25 times the positions of a
        new one). Every library of the fixed search lays out a table alike (one C text, one
        compiler: see :func:`counted`), whatever else it was compiled with.

        >>> from grundy.spec.games import get_game
        >>> from grundy.spec.structure import Structure
        >>> rules = get_game("nim").rules(Structure.heaps(2))
        >>> box = Box.around(rules, [(3, 4)])
        >>> k = Kernel(rules, box, NORMAL, quick=True) if build.available() else None
        >>> k is None or (k.can_share(rules, box, NORMAL, k.dense, False, False, 100),
        ...               k.can_share(rules, box, GRUNDY, k.dense, False, False, 100)) == (True, False)
        True
        """
        return (self._t is not None and self.rules is rules and self.box == box and self.mode == mode
                and self.dense == dense and self.symmetry == symmetry and self.decompose == decompose
                and self.stored <= limit // 4)

    def _run(self, call) -> None:
        """Call the kernel until it is done. It returns every few milliseconds (PAUSED) so that
        Python's signal handlers run between calls: Ctrl-C (or a handler raising on SIGTERM)
        stops a long solve within a second. The search under way is then abandoned: the
        positions it had marked become unknown again, and the table stays usable."""
        self._check(self._status(call))

    def _status(self, call) -> int:
        return run_paused(counted(self, call), lambda: self.lib.k_abort(self._t))

    def _halt(self, status: int) -> Halt:
        """The :class:`Halt` of a nonzero status, with what the C noted of it."""
        if status == OUT_OF_BOX:
            return Halt(status, self.lib.k_err_slot(self._t), self.lib.k_err_value(self._t))
        if status == DOMAIN:
            return Halt(status, value=self.lib.k_err_value(self._t) & (2 ** 64 - 1))
        return Halt(status)

    def optimized(self) -> ctypes.CDLL:
        """The library of the same text with -O2, or -O1 if ``light`` (see :func:`counted`)."""
        lib = _library(self._text, False, self.light)
        self.quick = False
        return lib

    def _check(self, status: int) -> None:
        """Raise the error of a nonzero status (single positions, sweeps: their box holds them)."""
        if status:
            raise halt_error(self._halt(status))

    def value(self, state: Sequence[int]) -> int:
        """The stored byte for ``state``, solving it first."""
        key = self.box.index(state)
        self._run(lambda: self.lib.k_solve(self._t, key))
        return self.lib.k_value(self._t, key)

    def values(self, states: Sequence[Sequence[int]]) -> bytes | Halt:
        """The stored bytes of many positions, solved in one call; or why not, as a value (a
        :class:`Halt`: a state or a successor outside the box, else the C's status)."""
        n = len(states)
        keys = keys_in(self.lib, self.box, states)
        if keys is None:
            return Halt(OUT_OF_BOX)
        out = (ctypes.c_uint8 * n)()
        at = ctypes.c_int64(0)
        status = self._status(lambda: self.lib.k_solve_many(self._t, keys, n, out, ctypes.byref(at)))
        return self._halt(status) if status else bytes(out)

    def grundy(self, state: Sequence[int]) -> int:
        assert self.mode in (GRUNDY, MISERE_GRUNDY)
        return self.value(state) - 1

    def mover_wins(self, state: Sequence[int]) -> bool:
        if self.mode in (GRUNDY, MISERE_GRUNDY):
            return self.value(state) != 1
        return self.value(state) == WINS

    def sweep(self) -> memoryview:
        """Solve every position of the (dense) box; the table, one byte per index."""
        if not self.dense:
            raise ValueError("a sweep needs a dense table")
        at = ctypes.c_uint64(0)
        self._run(lambda: self.lib.k_sweep(self._t, ctypes.byref(at), self.box.size))
        return self.table()

    def table(self) -> memoryview:
        ptr = self.lib.k_dense(self._t)
        return memoryview((ctypes.c_uint8 * self.box.size).from_address(ptr)).cast("B")

    def canonical(self, state: Sequence[int]) -> State:
        """The representative the kernel stores ``state`` under (itself without symmetry)."""
        return self.box.state(self.lib.k_canon(self.box.index(state)))

    def all_successors(self, state: Sequence[int], cap: int) -> list[State] | None:
        """Every successor of ``state`` as the kernel generates them (with repeats), or None if
        there are more than ``cap`` (a certificate enumerating one large position's moves)."""
        key = self.box.index(state)
        n = self.lib.k_successors(key, None, 0)
        if n < 0:
            if -n == 1:
                raise OutOfBox(-1, 0)
            self._check(-n)
        if n > cap:
            return None
        buf = (ctypes.c_uint64 * max(n, 1))()
        self.lib.k_successors(key, buf, n)
        return [self.box.state(buf[i]) for i in range(n)]

    def successors(self, state: Sequence[int]) -> list[State]:
        """The successors as the kernel generates them (for differential tests)."""
        cap = 1 << 16
        buf = (ctypes.c_uint64 * cap)()
        n = self.lib.k_successors(self.box.index(state), buf, cap)
        if n < 0:
            if -n == 1:
                raise OutOfBox(-1, 0)
            self._check(-n)
        return [self.box.state(buf[i]) for i in range(min(n, cap))]
