"""One-heap Grundy values of heap rules, and positions of many heaps as sums of them.

Every :class:`~grundy.spec.heaprule.HeapRule` game is a sum of single heaps: the value of
a position is the XOR of its heaps' values G(h) (:class:`HeapTables`, asked by the solver
for every game alike through :meth:`~grundy.spec.Game.heap_rule`). G(0..n) comes from the
rule itself (:func:`rule_values`: the rule's options compiled once, on a heap alone) or, for
a take-and-break code (:class:`~grundy.spec.heaprule.TakeBreak`: finite codes, infinite
codes, unequal splits), from the sparse-space method (:func:`takebreak_run`, in C or in
Python: :mod:`.sparse` explains it). :func:`period` reports a period, proved where a
periodicity theorem covers the rule.

- :mod:`.tables`: :class:`HeapTables` (values of positions, options of one heap, winning moves)
- :mod:`.rules`: :func:`sum_of_heaps`, :func:`rule_options`, :func:`rule_values`, :func:`heap_values`
- :mod:`.period`: :class:`Period`, :func:`period`, :func:`run_to_period`
- :mod:`.takebreak`: :func:`takebreak_run`, :class:`HeapRun` (C: ``takebreak.c``; Python: :mod:`.sparse`)

>>> from grundy.spec.heaprule import TakeBreak
>>> takebreak_run(TakeBreak((0, 7, 7)), 11).values          # code 0.77
[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
"""
from .period import Period, period, run_to_period
from .rules import heap_values, rule_options, rule_values, sum_of_heaps
from .tables import HeapTables
from .takebreak import CHECK_STEP, FIRST_CHECK, MAX_N, MAX_WHT_BITS, HeapRun, takebreak_run

__all__ = ["HeapRun", "HeapTables", "Period", "heap_values", "period", "rule_options", "rule_values", "run_to_period",
           "sum_of_heaps", "takebreak_run", "MAX_N", "MAX_WHT_BITS", "FIRST_CHECK", "CHECK_STEP"]
