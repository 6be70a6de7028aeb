"""One-heap values of any heap rule in C: the plain method (every option of every heap) over
the moves the kernel's code generator writes from the rule's IR.

The rule's one-heap form (:meth:`~grundy.spec.heaprule.HeapRule.one_heap_rules`: slot 0 the
heap, the other slots its other parts) goes through
:func:`grundy.solvers.native.codegen.moves_source`, the same generator as the solver's
kernels, and ``rulevalues.c`` computes G(0..n) from its ``successors``: no game is written
in C by hand. The Python method (:func:`~grundy.solvers.heaps.rules.rule_values`) is the
fallback and the judge: it runs instead when there is no compiler, when the box of heaps
0..n does not fit 64-bit keys, when the rule has an option on an empty heap (moves on the
empty slots would then be counted), and up to the heap where the C found an option that is
not a heap rule's (there it raises the :class:`~grundy.errors.RuleError` naming it).

>>> from grundy.spec.games import get_game
>>> from grundy.spec.heaprule import rule_heaps
>>> rule = get_game("lasker-nim").heap_rule(rule_heaps(1))
>>> native_rule_values(rule, 12) if build.available() else [0, 1, 2, 4, 3, 5, 6, 8, 7, 9, 10, 12, 11]
[0, 1, 2, 4, 3, 5, 6, 8, 7, 9, 10, 12, 11]
"""
from __future__ import annotations

import ctypes
from functools import lru_cache

from ...errors import GrundyError
from ...spec.heaprule import OneHeap
from ..native import build
from ..native.box import Box
from ..native.codegen import moves_source
from ..native.interruptible import call_filling
from .takebreak import u32_array

__all__ = ["native_rule_values"]


def _rules_and_box(rule: OneHeap, n: int):
    """The one-heap rules, and a box holding heaps up to 2^k - 1 >= n (k >= 10: few kernels
    for the sizes a table doubles through)."""
    rules = rule.game.one_heap_rules(rule.structure)
    top = (1 << max(n.bit_length(), 10)) - 1
    return rules, Box.around(rules, [(top,) * len(rules.schema)])


@lru_cache(maxsize=64)
def _library(source: str) -> ctypes.CDLL:
    lib = build.load(source + "\n" + build.fixed_c(__package__, "rulevalues.c"))
    lib.rv_run.argtypes = [ctypes.c_int64, ctypes.POINTER(ctypes.c_uint32), ctypes.POINTER(ctypes.c_int64)]
    lib.rv_run.restype = ctypes.c_int
    return lib


def native_rule_values(rule: OneHeap, n: int) -> list[int] | None:
    """G(0..n) of one heap of ``rule`` in C, or None where the Python method must answer
    (no compiler, keys too wide, a rule whose options are not a heap rule's: the Python
    method then raises). The caller has checked that the empty heap has no option."""
    if not build.available():
        return None
    rules, box = _rules_and_box(rule, n)
    if box.size >= 2**63 or n >= 2**31 - 1:
        return None
    try:
        lib = _library(moves_source(rules, box))
    except GrundyError:                    # an operator the C generator lacks, no compiler: Python
        return None
    table = u32_array(n + 1)
    out = (ctypes.c_uint32 * (n + 1)).from_buffer(table)      # C writes the array's buffer: tolist() below is
    bad = ctypes.c_int64(-1)                                   # one C loop, not a ctypes read per entry
    status = call_filling(lambda: lib.rv_run(n, out, ctypes.byref(bad)), out,     # Ctrl-C: Interrupted
                          ctypes.c_int.in_dll(lib, "rv_stop"))
    if status == -1:
        raise MemoryError(f"one-heap values up to {n}: out of memory")
    if status == 1:
        return None
    return table.tolist()
