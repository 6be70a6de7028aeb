"""The explicit sweep of one structure in C, beside the kernel (:mod:`grundy.solvers.native.sweep`):
the per-position loop (the state, the assumption, the kernel's value, the statement, the least
counterexample, the positions offered to the cross-check) runs in the kernel's library.

It serves structures with at least ``settings.c_always`` starts, and those with at least
``settings.c_from`` where the kernel is worth its compiler's time for the starts left after the
first ``settings.pilot``, judged in Python (:func:`worth`), for claims judged
by the solver's value or outcome alone (no table of values, no strategy), where the statement and assumption
compile to exact C and a kernel answers the game on the structure. A range the C cannot
finish (a position or a move outside the kernel's box, a product overflowing, any status of
the kernel) is judged again by the Python path, which reports what it meets as before; the
counterexample found in C is judged again in Python before it is reported.
"""
from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Any, Callable

from ...errors import Disagreement
from ...settings import current as settings
from ...solvers.native import build, vm
from ...solvers.native.kernel import LIMIT, MAX_KEY, Box, kernel_source
from ...solvers.native.sweep import SweepRun, sweep_source, values_fit
from ...spec.game import Game
from ..families import size_key
from ..families.bounds import slot_values
from .instance import Instance

ENABLED = True       # False: every structure on the Python path (benchmarks, differential tests)
VM = True            # False: no interpreter (vm.py): the structures a kernel is not worth compiling for in Python
C_OPTIMIZED = 2_000_000   # ... the statement compiled with the optimizer from this many (else: the compiler's
                          # time outweighs the loop's; many small structures, each its own kernel), and the
                          # kernel with -O2 (from settings.c_quick to this many: -O1, build.LIGHT_FLAGS)
C_BATCH = 1 << 16    # indices checked per call (each range judged again in Python if C cannot finish it)


class Tally:
    """A sweep's counts so far, and the least counterexample of the structure under way."""

    def __init__(self) -> None:
        self.checked = self.met = self.here = 0
        self.best: tuple | None = None       # (size key, state, what was found or None: judge it again)
        self.texts: dict[str, int] = {}      # the kernel texts the sweep asked for, and how often
        self.vm_off = False                  # the interpreter met its limit (vm.STORE_LIMIT): not asked again

    def failed(self, rules: Any, st: tuple, found: Any) -> None:
        key = size_key(rules, st)
        if self.best is None or key < self.best[0]:
            self.best = (key, st, found)

    def cap(self) -> int | None:
        """The sum of the numeric slots at the least failure so far, or None: a position of
        larger sum cannot be the least failure (the order of ``size_key`` on one structure), so
        the sweep passes it over."""
        return None if self.best is None else self.best[0][2]


class _Indexed(Sequence):
    """The positions at some indices of a structure's sweep, made when read (the cross-check's
    sample reads few of them)."""

    def __init__(self, run: SweepRun, idx: Sequence[int]):
        self.run, self.idx = run, idx

    def __len__(self) -> int:
        return len(self.idx)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return [self.run.state(x) for x in self.idx[i]]
        return self.run.state(self.idx[i])

    def later(self, i: int) -> tuple[Callable[[int], tuple], int]:
        """How to make the position at ``i`` later: (a function, its argument), nothing made now."""
        return self.run.state, self.idx[i]


def kernel_cost(tally: Tally, text: str, quick: bool) -> float:
    """The compiler's time for a kernel of library text ``text`` (:func:`build.compile_cost`),
    shared among the times this claim's sweep met the same text. From the text and the claim
    alone (not from the machine, nor from what earlier claims compiled)."""
    key = hashlib.sha256(text.encode()).hexdigest()
    met = tally.texts[key] = tally.texts.get(key, 0) + 1
    return build.compile_cost(text, quick) / met


def worth(cost: float, starts: int, stored_per_start: float) -> bool:
    """Whether a kernel whose compiler takes ``cost`` seconds (:func:`kernel_cost`) is worth it
    for ``starts`` starts, where the Python path stored ``stored_per_start`` positions a start
    on the first ``settings.pilot`` (``settings.py_store`` a position, ``settings.py_judge`` a start). Counts,
    never the clock: the same claim takes the same paths on any machine.

    >>> worth(0.1, 9_000, 0.0), worth(0.1, 5_000, 20.0)     # a Python path that solves little, one that solves much
    (False, True)
    """
    return cost <= starts * (settings().py_judge + stored_per_start * settings().py_store)


def _c_may(inst: Instance) -> bool:
    """Whether a sweep in C (a kernel's or the interpreter's) may serve ``inst`` at all."""
    if not ENABLED or not inst.solver.native or not build.available():
        return False
    if inst.table is not None or inst.cases or inst.exact is not None:
        return False
    return type(inst.game).sized is Game.sized      # else solved on other slots than the sweep's


def plan(inst: Instance, bounds: dict[str, Any], n_states: int,
         tally: Tally) -> tuple[SweepRun, str, Box, bool | None, bool, float | None] | None:
    """The C sweep of ``inst``'s structure within ``bounds``, or None (the Python path), with
    the :func:`kernel_cost` of the kernel's text without reductions and the sweep's C below
    ``settings.c_always`` starts (None from there: C from the first start). Below, the sweep judges
    the first ``settings.pilot`` starts in Python and goes on in C only where the kernel is
    :func:`worth` it for the rest (else in Python: the answers the Python path gives)."""
    if n_states < settings().c_from or not _c_may(inst):
        return None
    vals = slot_values(inst.rules, bounds)
    src = sweep_source(inst.rules, inst.expr, inst.assume_expr, vals, optimize=n_states >= C_OPTIMIZED)
    if src is None:
        return None
    box = Box.around(inst.rules, [tuple(v[0] for v in vals), tuple(v[-1] for v in vals)])
    quick = True if n_states < settings().c_quick else None        # None: as the kernel's box says (Kernel)
    cost = None
    if n_states < settings().c_always and box.size < MAX_KEY:
        cost = kernel_cost(tally, kernel_source(inst.rules, box) + src, bool(quick))
    light = settings().c_quick <= n_states < C_OPTIMIZED
    return SweepRun(inst.rules, vals, inst.by_value), src, box, quick, light, cost


def sweep_c(inst: Instance, bounds: dict[str, Any], n_states: int, tally: Tally, tick: Callable[[], None],
            cross: Any, python: Callable[[Any], None]) -> bool:
    """Sweep ``inst``'s structure in C into ``tally`` (``python(states)``: the Python path for a
    range C cannot finish); False (nothing done) where the C path does not serve."""
    p = plan(inst, bounds, n_states, tally)
    if p is None:
        return sweep_vm(inst, bounds, tally, tick, cross, python, 0)
    run, src, box, quick, light, cost = p
    first = 0
    if cost is not None:                # below settings.c_always: the first starts in Python, then decide
        stored, first = inst.solver.stored, min(settings().pilot, run.size)
        python(run.states(0, first))
        if not worth(cost, run.size - first, (inst.solver.stored - stored) / first):
            if not sweep_vm(inst, bounds, tally, tick, cross, python, first):
                python(run.states(first, run.size))
            return True
    question = "grundy" if inst.by_value else "wins"
    solver = inst.solver

    def kernel() -> Any:
        return solver.sweep_kernel(inst.game, inst.structure, inst.claim.convention, question, box, src, quick, light)
    if kernel() is None:
        if first == 0:
            return False
        python(run.states(first, run.size))     # the rest as the first: in Python
        return True
    _ranges(inst, run, kernel, first, tally, tick, cross, python)
    return True


def _ranges(inst: Instance, run: SweepRun, kernel: Callable[[], Any], first: int, tally: Tally,
            tick: Callable[[], None], cross: Any, python: Callable[[Any], None]) -> None:
    """Indices ``first``.. of ``run`` checked in C by ``kernel()``'s table, range by range (a
    range C cannot finish: in Python), into ``tally``."""
    for a in range(first, run.size, C_BATCH):
        b = min(a + C_BATCH, run.size)
        k = kernel()
        got = None if k is None else run.run(k, a, b, tick, tally.cap())
        while got is not None and got[0] == LIMIT and isinstance(k, vm.VMKernel) and k.on_limit and k.on_limit():
            got = run.run(kernel(), a, b, tick, tally.cap())   # its policy's next step taken: the range again
        if got is not None and got[0] == LIMIT and isinstance(k, vm.VMKernel):
            # the search needs the reductions: the rest in Python (a program that splits: this
            # structure's; the claim's others may split enough, a wheel's limit says nothing of a cycle)
            tally.vm_off = tally.vm_off or not k.prog.splits
            inst.solver.vm_limited(inst.game, inst.structure)   # its values from the kernel
            python(run.states(a, run.size))
            return
        if got is None or got[0] != 0:
            python(run.states(a, b))
            continue
        checked, best, idx, tot = got[1]
        tally.met += b - a
        tally.checked += checked
        tally.here += checked
        if best >= 0:
            tally.failed(inst.rules, run.state(best), None)
        if cross is not None and len(idx):
            cross.offer(inst, _Indexed(run, idx), tot)
        tick()


def sweep_vm(inst: Instance, bounds: dict[str, Any], tally: Tally, tick: Callable[[], None], cross: Any,
             python: Callable[[Any], None], first: int) -> bool:
    """Sweep ``inst``'s structure from index ``first`` on with the interpreter
    (:mod:`grundy.solvers.native.vm`: no compile for the structure) into ``tally``, where the
    sweep in C may serve (a solver asked for its kernel ``"always"`` has it instead; once the
    interpreter met its limit on a structure, the claim's other structures go without it), its values fit in 64 bits (:func:`values_fit`; the interpreter checks
    its own arithmetic as it goes) and the solver would give it a kernel; False (nothing done)
    where it does not serve."""
    if not VM or tally.vm_off or inst.solver.native_first or not _c_may(inst) or not vm.available():
        return False                     # ("always": the kernel, with its reductions, from the first start)
    vals = slot_values(inst.rules, bounds)
    if not values_fit(inst.rules, vals):
        return False
    box = Box.around(inst.rules, [tuple(v[0] for v in vals), tuple(v[-1] for v in vals)])
    if box.size >= vm.MAX_BOX:
        return False
    try:
        if inst.by_facts is not None:     # one program per order, the structure's facts in its pool
            expr, facts = inst.by_facts
            statement = vm.Statement.of(inst.rules, expr, inst.assume_expr, tuple(facts)).bind(facts)
        else:
            statement = vm.Statement.of(inst.rules, inst.expr, inst.assume_expr)
    except (KeyError, TypeError):         # a variable that is no slot (a caller's bug): as without it
        return False
    question = "grundy" if inst.by_value else "wins"
    k = inst.solver.sweep_vm(inst.game, inst.structure, inst.claim.convention, question, box)
    if k is None:
        return False
    k.prog.use(statement)
    stored, run = k.stored, SweepRun(inst.rules, vals, inst.by_value)
    in_python: list[int] = []

    def python_too(states: Any) -> None:          # a range C did not finish: judged in Python
        in_python.append(1)
        python(states)
    _ranges(inst, run, lambda: k, first, tally, tick, cross, python_too)
    if first == 0 and not in_python:
        inst.swept_by = statement            # every position here judged by it (the cross-check's compare)
    # the Python path solves every start of a chunk before judging them: it stores at least as many
    inst.solver.vm_swept(inst.game, inst.structure, max(k.stored - stored, run.size),
                         k.prog.split_share() if k.prog.splits else None)
    return True


def judged(inst: Instance, st: tuple) -> Any:
    """What the Python path finds at a state the C sweep found the claim failing at (the same
    truth: the solver's, asked as the Python path asks it)."""
    truths = inst.prefetch([st])
    found = inst.judge(st, truths[0] if truths else None)
    if found is None:
        raise Disagreement(f"the sweep in C and the Python judgement disagree at {inst.position(st).to_json()} "
                          f"on {inst.label}: please report this")
    return found
