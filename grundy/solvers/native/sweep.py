"""A claim's sweep in C, beside the kernel: the assumption and the statement compiled with the
kernel's own expression syntax (:class:`~grundy.solvers.native.csyntax.CSyntax`) into
``s_eval``, and the fixed loop of ``c/sweep.c`` (``s_run``): every position of the product of
the slots' value lists (the order of ``itertools.product``, the sweep's), the assumption, the
kernel's value there (solved as a batch of the kernel solves it: its canonical key), the
statement, the count of positions checked, the least position the claim fails at (in the
order of ``size_key`` on one structure) and the positions it holds at (for the cross-check's
sample). The verify layer (:mod:`grundy.verify.check.csweep`) decides where it serves.

The C is exact where the Python is: :func:`sweep_source` declines (None) an expression whose
integer values might leave 64 bits at the bounds' values (their ranges by
:func:`grundy.solvers.smt.intervals.intervals`); a product overflowing at run time is
flagged and the range checked by the Python path.

>>> from grundy.spec.games import get_game
>>> from grundy.spec import Structure
>>> r = get_game("nim").rules(Structure.heaps(2))
>>> s = r.state
>>> src = sweep_source(r, s.heap[0] == s.heap[1], s.heap[0] >= 1, [[0, 1, 2], [0, 1, 2]])
>>> "static int s_eval(" in src and "int s_run(" in src
True
"""
from __future__ import annotations

import ctypes
import functools
import itertools
from array import array
from typing import Any, Callable, Sequence

from ...spec.expr import INT, Expr, nodes
from ...spec.game import Rules
from ..explicit.plan import emitter, shared_nodes, slot_sources
from . import build
from .csyntax import C
from .kernel import Kernel, counted, run_paused

__all__ = ["sweep_source", "sweep_fits", "values_fit", "SweepRun", "OUTSIDE", "LIMIT64"]

OUTSIDE = 20                 # s_run's status: a position of the sweep outside the kernel's box
LIMIT64 = 2 ** 62            # every integer of the statement and the sizes stays within +-LIMIT64


@functools.lru_cache(maxsize=None)
def _sw_type(ns: int) -> type:
    """The ctypes record of ``s_run``'s results for ``ns`` slots (one class per number of slots)."""
    return type("SW", (ctypes.Structure,), {"_fields_": [
        ("checked", ctypes.c_int64), ("agreed", ctypes.c_int64), ("best", ctypes.c_int64),
        ("best_sum", ctypes.c_int64), ("best_max", ctypes.c_int64), ("capped", ctypes.c_int64),
        ("cap", ctypes.c_int64), ("best_s", ctypes.c_int64 * max(ns, 1))]})


def _fits(roots: list[Expr], ranges: dict[str, tuple[int, int]]) -> bool:
    """Whether every integer node of ``roots`` stays within +-LIMIT64 when the variables take
    values in ``ranges`` (unknown ranges: no)."""
    from ..smt.intervals import intervals  # no z3 needed: a walker over the IR
    try:
        got = intervals(roots, dict(ranges))
    except (KeyError, AssertionError):
        return False
    seen: set[int] = set()
    for root in roots:
        for x in nodes(root, seen):
            if x.sort != INT:
                continue
            lo, hi = got[id(x)][1]
            if lo is None or hi is None or lo < -LIMIT64 or hi > LIMIT64:
                return False
    return True


def values_fit(rules: Rules, values: Sequence[Sequence[int]]) -> bool:
    """Whether the slots' value lists ``values`` and the sums of the numeric slots stay
    within +-LIMIT64 (the sweep's own arithmetic in ``c/sweep.c``)."""
    sch = rules.schema
    if not values or any(not v for v in values):
        return False
    flat = [x for v in values for x in v]
    if min(flat) < -LIMIT64 or max(flat) > LIMIT64:
        return False
    nums = [sch.fields[name].kind == "int" for name, _ in sch.slots]
    return sum(max(abs(v[0]), abs(v[-1])) for v, n in zip(values, nums) if n) <= LIMIT64


def sweep_fits(rules: Rules, statement: Expr, assume: Expr, values: Sequence[Sequence[int]]) -> bool:
    """Whether the sweep of ``statement`` under ``assume`` over the slots' value lists
    ``values`` is exact in 64 bits (:func:`values_fit`, and every integer node of the two
    expressions at the values' ranges): the condition of :func:`sweep_source`. (The
    interpreter, :mod:`grundy.solvers.native.vm`, checks its arithmetic as it goes instead.)"""
    if not values_fit(rules, values):
        return False
    sch = rules.schema
    ranges = {name: (min(values[i]), max(values[i])) for name, i in sch.slot_by_var.items()}
    return _fits([statement, assume], ranges)


def sweep_source(rules: Rules, statement: Expr, assume: Expr, values: Sequence[Sequence[int]],
                 optimize: bool = True) -> str | None:
    """The C appended to a kernel for the sweep of ``statement`` under ``assume`` over the
    slots' value lists ``values`` (``s_eval`` and ``c/sweep.c``), or None where C could be
    inexact: a value beyond 64 bits, a sum of the numeric slots beyond them, an expression the
    C syntax cannot write. ``optimize=False``: ``s_eval`` is compiled without optimization
    (by GCC; a fifth of a second less per kernel on a statement of some 200 nodes: for the
    small structures of a sweep over many, where the compiler's time outweighs the loop's)."""
    if not sweep_fits(rules, statement, assume, values):
        return None
    try:
        em = emitter(slot_sources(rules), shared_nodes([assume, statement]), C)
        a = em.expr(assume)
        lines_a = em.take_lines()
        st = em.expr(statement)
        lines_s = em.take_lines()
    except (NotImplementedError, AttributeError, KeyError, TypeError):
        return None
    head = [] if optimize else ["#if defined(__GNUC__) && !defined(__clang__)",
                                '__attribute__((noinline, optimize("O0")))', "#endif"]
    body = head + ["static int s_eval(const I *s, I *claimed) {", "    (void)s;"]
    body += ["    " + ln for ln in lines_a]
    body += [f"    if (!({a})) return 0;"]
    body += ["    " + ln for ln in lines_s]
    body += [f"    *claimed = (I)({st});", "    return 1;", "}"]
    return "\n" + "\n".join(body) + "\n" + build.fixed_c(__package__, "c/sweep.c")


class SweepRun:
    """One structure's sweep in C on a kernel built with :func:`sweep_source`'s text: ``run``
    checks a range of the product's indices, ``state`` gives the position at an index."""

    def __init__(self, rules: Rules, values: Sequence[Sequence[int]], by_value: bool):
        sch = rules.schema
        self.values = [list(v) for v in values]
        self.ns = len(self.values)
        self.size = 1
        for v in self.values:
            self.size *= len(v)
        self._vals = array("q", [x for v in self.values for x in v])
        self._nv = array("q", [len(v) for v in self.values])
        self._nums = array("b", [sch.fields[name].kind == "int" for name, _ in sch.slots])
        self.by_value = by_value
        self._sw = _sw_type(self.ns)
        self._last_first = [(v, len(v)) for v in reversed(self.values)]

    def _digits(self, index: int) -> list[int]:
        out = [0] * self.ns
        for j in range(self.ns - 1, -1, -1):
            index, out[j] = divmod(index, len(self.values[j]))
        return out

    def state(self, index: int) -> tuple[int, ...]:
        """The position at ``index`` of the product (the last slot fastest): as :meth:`_digits`
        reads the digits, each slot's value taken as its digit is found."""
        out = []
        for v, n in self._last_first:
            index, d = divmod(index, n)
            out.append(v[d])
        out.reverse()
        return tuple(out)

    def states(self, a: int, b: int) -> Any:
        """The positions of indices a..b-1, in order (the Python path's range)."""
        if a >= b:
            return iter(())
        digits = self._digits(a)
        return itertools.islice(_product_from(self.values, digits), b - a)

    def run(self, kernel: Kernel, a: int, b: int, tick: Callable[[], None],
            cap: int | None = None) -> tuple[int, Any] | None:
        """Check the indices a..b-1: (status, result); result (status 0): (checked, the index of
        the least failure or -1, the indices and sums of the positions the claim held at).
        ``cap``: the sum of the numeric slots at a failure already known; a position of larger
        sum (and, once a failure is found in the range, larger than its sum) is passed over,
        neither solved nor counted, since it cannot be the least failure."""
        n = b - a
        w = self._sw()
        w.best = -1
        if cap is not None:
            w.capped, w.cap = 1, cap
        idx = (ctypes.c_int64 * max(n, 1))()
        tot = (ctypes.c_int64 * max(n, 1))()
        at = ctypes.c_int64(a)
        vals, nv, nums = self._vals.buffer_info()[0], self._nv.buffer_info()[0], self._nums.buffer_info()[0]

        def call() -> int:
            tick()
            f = kernel.lib.s_run          # read each time: the kernel may go on with -O2 (counted)
            f.restype = ctypes.c_int
            return f(ctypes.c_void_p(kernel._t), ctypes.c_void_p(vals), ctypes.c_void_p(nv),
                     ctypes.c_void_p(nums), int(self.by_value), ctypes.byref(at), ctypes.c_int64(b),
                     ctypes.byref(w), idx, tot)

        status = run_paused(counted(kernel, call), lambda: kernel.lib.k_abort(kernel._t))
        if status:
            return status, None
        k = w.agreed
        return 0, (w.checked, w.best, memoryview(idx).cast("B").cast("q")[:k],
                   memoryview(tot).cast("B").cast("q")[:k])


def _product_from(values: list[list[int]], digits: list[int]):
    """``itertools.product(*values)`` from the position of the given digits on."""
    d = list(digits)
    ns = len(values)
    while True:
        yield tuple(values[j][d[j]] for j in range(ns))
        j = ns - 1
        while j >= 0:
            d[j] += 1
            if d[j] < len(values[j]):
                break
            d[j] = 0
            j -= 1
        if j < 0:
            return
