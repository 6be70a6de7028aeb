"""The explicit sweep: the statement evaluated at every position of the family within
bounds, smallest structures first; the smallest counterexample of the first structure that
has one. Large sweeps ask the kernel for their truths in batches; the others ask the solver for
a chunk's truths in one call (``Solver.answers``: each served as it would be alone).
"""
from __future__ import annotations

import functools
import itertools
from typing import Any, Callable, Iterator

from ...settings import current as settings
from ...solvers.solver import Solver
from ...solvers.symmetric import Plan
from ...spec.games import GAMES
from ..claims import Claim, Explicit
from ..families import count_states, size_key, states
from ..recheck import CrossCheck
from .csweep import Tally, judged, sweep_c
from .deadline import Deadline, Progress, State, TimedOut, _nothing, _Ticker
from .instance import Instance
from .results import SweepResult
from .scope import ORDER, _bounds_text, _conditions, where
from .search import _random_search

BATCH = 8192          # starts read from a sweep at a time (their truths asked of the kernel in one call)


def sweep(claim: Claim, method: Explicit, bounds: dict[str, Any], solver: Solver, deadline: Deadline,
          progress: Progress = _nothing, cross: CrossCheck | None = None) -> SweepResult:
    """Evaluate the statement and the assumption at every position of the family within bounds
    (the solver's values come from canonical representatives: symmetry serves solving only),
    smallest structures first; stop after the first structure with a counterexample and report
    the smallest one it has (in the order of :data:`ORDER`: once one is found, positions of a
    larger sum of the numeric fields are passed over, not judged). ``cross`` is offered every
    position where the claim held (the reference engine's sample)."""
    structures = family = 0
    n = Tally()
    ticker = _Ticker(deadline, progress)
    for label, g in claim.family.items():
        family += 1
        rules = GAMES[claim.game].rules(g)
        claim.check_fields(list(rules.schema.fields))
        n_states = count_states(rules, bounds)
        if n_states == 0:
            continue                       # the bounds allow no position here (e.g. a size limit)
        inst = Instance(claim, label, g, solver)
        # batches pay where the kernel reduces by every vertex permutation (K_n). Elsewhere the
        # kernel's box grows batch by batch and the kernel restarts each time (a 5-heap sweep up
        # to 40 took twice as long), so those sweeps keep one start at a time. (The sweep in C,
        # csweep.py, sizes the kernel's box to the bounds at once.)
        inst.batched = n_states >= settings().batch_from and solver.symmetry and Plan.of(rules) is not None
        n.best, n.here = None, 0
        tick = functools.partial(_tick, ticker, label, n)
        python = functools.partial(_python, inst, n, tick, cross)
        try:
            if not sweep_c(inst, bounds, n_states, n, tick, cross, python):
                python(states(inst.rules, bounds, None))
            if n.best is not None and n.best[2] is None:
                n.best = (n.best[0], n.best[1], judged(inst, n.best[1]))
        except TimedOut:
            here_text = where(claim.family.scope, _bounds_text(bounds), _conditions(claim))
            return SweepResult(n.checked, None, False, f"{here_text}: timed out after {n.checked:,} "
                                                     f"positions (up to {label})", n.met, structures, family)
        structures += n.here > 0
        best = n.best
        if best is not None:
            within = f", {_bounds_text(bounds)}" if bounds else ""
            cex = inst.counterexample(best[1], best[2], f"the smallest in the sweep of {label}{within} "
                                                        f"(order: {ORDER})")
            return SweepResult(n.checked, cex, True, "", n.met, structures, family)
    checked, met = n.checked, n.met
    text = (f"{where(claim.family.scope, _bounds_text(bounds), _conditions(claim))}: {checked:,} positions"
            f" (each one evaluated)")
    if method.samples and checked:
        cex, n = _random_search(claim, method, solver, deadline)
        if cex is not None:
            return SweepResult(checked + n, cex, True, "", met, structures, family)
        text += f" + {n:,} random positions with {_bounds_text(method.sample_bounds or bounds)}"
    return SweepResult(checked, None, True, text, met, structures, family)


def _tick(ticker: _Ticker, label: str, n: Tally) -> None:
    ticker.tick(lambda: f"explicit: {label}, {n.checked:,} positions")


def _python(inst: Instance, n: Tally, tick: Callable[[], None], cross: CrossCheck | None, it: Iterator[State]) -> None:
    """Judge the states of ``it`` in Python (their truths asked in chunks), into ``n``."""
    while True:
        chunk = list(itertools.islice(it, BATCH))
        if not chunk:
            break
        n.met += len(chunk)
        if not inst.assumes_nothing:
            chunk = [st for st in chunk if inst.assume(st)]
        if n.best is not None:    # larger than a failure found: not the least one, not solved
            chunk = [st for st in chunk if size_key(inst.rules, st)[2] <= n.best[0][2]]
        truths = inst.prefetch(chunk) or [None] * len(chunk)   # the solver's side in one call
        held = []
        for st, truth in zip(chunk, truths, strict=False):     # ... each start judged here
            if n.best is not None and size_key(inst.rules, st)[2] > n.best[0][2]:
                continue                                       # (as the sweep in C passes it over)
            n.checked += 1
            n.here += 1
            if n.checked & 255 == 0:
                tick()
            found = inst.judge(st, truth)
            if found is not None:
                n.failed(inst.rules, st, found)
            else:
                held.append(st)
        if cross is not None:         # where the solver agreed with the claim
            cross.offer(inst, held)
