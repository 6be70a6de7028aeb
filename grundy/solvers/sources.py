"""Where a solver's values come from: an ordered list of value sources, asked in turn.

A source answers one question (``"grundy"``: Grundy values; ``"wins"``: whether the mover wins)
about a batch of packed states of one game on one structure in one convention, or says it
cannot (None: the solver asks the next source). The solver's order (:data:`Solver.sources`):

- :class:`HeapTablesSource`: one-heap tables, for games that are sums of heaps by construction
  (normal play, with decomposition allowed): no premise to prove;
- :class:`KernelSource`: the C kernel generated from the rules, once its table is in use (from the
  first position with ``native="always"``, for a batch of several states at once, or when the
  Python search hands a large table over); its reductions are the proved ones
  (``solver.establish`` before every call);
- :class:`PythonSource`: the Python search (:class:`~grundy.solvers.search.PythonSearch`); it
  asks for the premises of the reductions it would use (``Table.reach``) once its table has
  stored ``reduce_after`` positions, and hands its
  table to the kernel once it has stored :data:`NATIVE_AFTER` positions.

The Python source may answer only the first states of a batch and give control back (a shorter
list): the solver then asks its sources again, from the first, for the states left.
Sums of positions (:class:`~grundy.spec.SumPosition`) are not asked here: the solver gives them
to its :class:`~grundy.solvers.explicit.sums.MisereSums`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Protocol

from ..errors import BuildError
from ..spec.game import Game
from ..spec.structure import Structure
from .explicit.compile import State
from .heaps import sum_of_heaps
from .limits import cycle_error as _cycle
from .native.kernel import (
    CYCLE,
    DOMAIN,
    GRUNDY,
    LIMIT,
    MAX_KEY,
    MISERE,
    MISERE_GRUNDY,
    NORMAL,
    Box,
    Kernel,
    KernelError,
    OutOfBox,
)
from .source_log import HEAP_TABLES, KERNEL, PYTHON
from .table import Table, _domain_violation

if TYPE_CHECKING:
    from .solver import Solver

__all__ = ["Query", "ValueSource", "HeapTablesSource", "KernelSource", "PythonSource", "HandOver",
           "NATIVE_AFTER", "REDUCE_AFTER"]

NATIVE_AFTER = 20_000   # positions the Python path stores on a table before its kernel is built
                        # (building one costs about half a second; small tables never pay for it)
REDUCE_AFTER = 2_000    # positions the Python path stores on a table before it asks for the premises
                        # of its reductions (a Z3 proof costs some 10-100 ms, once per structure;
                        # the values stored before are true values: they need no reduction)


@dataclass
class Query:
    """One question about states of one game on one structure. ``sweep``: asked for a batch
    (``grundy_states``, ``mover_wins_states``), not for one position. ``chunk``: many states
    asked at once, each answered as it would be alone (``Solver.answers``: no kernel built for
    the batch; a source that answers state by state is asked state by state)."""

    game: Game
    structure: Structure
    convention: str
    question: str                  # "grundy" or "wins"
    sweep: bool = False
    chunk: bool = False
    t: Table | None = field(default=None, repr=False)

    def table(self, solver: "Solver") -> Table:
        """The solver's table of the game on the structure (made, or put last in its order of
        use, when a source first needs it)."""
        if self.t is None:
            self.t = solver.table(self.game, self.structure)
        return self.t


class ValueSource(Protocol):
    """A value source: ``name`` is the engine the source log names; ``premises`` says which
    premises of its table the source needs proved, and when it asks (``solver.establish``)."""

    name: str
    premises: str

    def can_answer(self, solver: "Solver", q: Query) -> bool:
        """Whether the source may answer ``q`` at all (cheap; no value computed)."""
        ...

    def values(self, solver: "Solver", q: Query, states: list[State]) -> list[Any] | None:
        """The answers at ``states`` (or their first ones, then control back to the solver);
        None: the source cannot answer, ask the next."""
        ...


class HandOver(Exception):
    """Unwinds the Python search when its table should be served otherwise: ``prove`` (its
    premises are to be asked first), else its kernel is now in use."""

    def __init__(self, prove: bool):
        super().__init__()
        self.prove = prove


class HeapTablesSource:
    """Sums of heaps by construction (normal play): the XOR of one-heap values."""

    name = HEAP_TABLES
    premises = "none (sums of heaps by construction)"

    def can_answer(self, solver: "Solver", q: Query) -> bool:
        return solver.decompose and q.convention == "normal" and sum_of_heaps(q.game, q.structure) is not None

    def values(self, solver: "Solver", q: Query, states: list[State]) -> list[Any] | None:
        rule = sum_of_heaps(q.game, q.structure)
        if rule is None:
            return None
        if q.sweep:                          # a batch is noted before its values, one position after
            solver._note(q.game, q.structure, HEAP_TABLES)
        vals = [solver.heaps.values(rule, [tuple(s)])[0] for s in states]   # one by one: tables grow as before
        if not q.sweep:
            solver._note(q.game, q.structure, HEAP_TABLES)
        return vals if q.question == "grundy" else [v != 0 for v in vals]


class KernelSource:
    """The C kernel of a table (per mode), once the table is in use; a batch of several states
    puts its table in use at once (a family on one structure is worth a kernel)."""

    name = KERNEL
    premises = "symmetry and decomposition asked before every call (it reduces by the proved ones)"

    def can_answer(self, solver: "Solver", q: Query) -> bool:
        t = q.table(solver)            # the table is made here (whether or not a kernel serves)
        return solver.native and t.native and (t.in_use or not q.chunk)

    def values(self, solver: "Solver", q: Query, states: list[State]) -> list[Any] | None:
        t = q.table(solver)
        if len(states) > 1 and not q.chunk:
            t.in_use = True
        if not t.in_use:
            return None
        solver.establish(t)             # the kernel reduces only by what is proved here
        mode = self.mode(t, q, states)
        if q.chunk:                     # as one by one: the first state, then those its box holds
            states = self._alike(t, q, states, mode)
        vals = self.run(solver, t, mode, states)
        if vals is None:
            return None
        solver._served(t, q.game, q.structure, KERNEL)
        return [v - 1 for v in vals] if q.question == "grundy" else [v != 1 for v in vals]

    @staticmethod
    def mode(t: Table, q: Query, states: list[State]) -> int:
        misere = q.convention == "misere"
        if q.question == "grundy":
            return MISERE_GRUNDY if misere else GRUNDY
        if misere:
            return MISERE
        # a sum's outcome needs values; else the outcome kernel, unless the values' kernel is
        # there (and, for one position, already holds it)
        k = t.kernels.get(GRUNDY)
        if t.decomposed or (k is not None and (q.sweep or k.box.contains(states[0]))):
            return GRUNDY
        return NORMAL

    @classmethod
    def _alike(cls, t: Table, q: Query, states: list[State], mode: int) -> list[State]:
        """The first of ``states`` and those after it that the mode's kernel (as it stands after
        the first) holds and would answer in the same mode alone: a chunk grows no box that
        states asked one by one would not."""
        k = t.kernels.get(mode)
        n = 1
        if k is not None:
            while n < len(states) and k.box.contains(states[n]) and cls.mode(t, q, states[n:n + 1]) == mode:
                n += 1
        return states[:n]

    def for_sweep(self, solver: "Solver", q: Query, box: Box, extra: str,
                  quick: bool | None = None, light: bool = False) -> Kernel | None:
        """The kernel a sweep's batch of ``q`` is answered by (its table put in use, its premises
        asked, the mode of a batch), its box holding ``box``, compiled with ``extra`` (a claim's
        sweep in C, :mod:`grundy.solvers.native.sweep`): the table's kernel, or one built now
        in its place (on the join of the boxes; ``quick``, ``light``: as :class:`Kernel`'s); None where no
        kernel serves the table: then the table is no longer marked as the kernel's, so that the
        Python path answers as it would have."""
        if not self.can_answer(solver, q):
            return None
        t = q.table(solver)
        was, t.in_use = t.in_use, True
        solver.establish(t)
        mode = self.mode(t, q, [])             # a batch's mode (q.sweep: no state read)
        k = t.kernels.get(mode)
        if k is not None and k.extra == extra and k.box.join(box) == k.box:
            return k
        need = box if k is None else k.box.join(box)
        try:
            if need.size >= MAX_KEY:
                raise ValueError("no 64-bit key")
            k = Kernel(t.rules, need, mode, limit=solver.max_positions, symmetry=t.symmetric,
                       decompose=t.decomposed, extra=extra, quick=quick, light=light)
        except (BuildError, MemoryError, ValueError):
            t.in_use = was
            return None
        t.kernels[mode] = k
        solver._served(t, q.game, q.structure, KERNEL)
        return k

    @staticmethod
    def run(solver: "Solver", t: Table, mode: int, states: list[State]) -> bytes | None:
        """The kernel's stored values for states of one table (None: it cannot serve the table).
        The kernel's box grows to hold them, and again whenever a successor leaves it."""
        rules = t.rules
        k = t.kernels.get(mode)
        box = None if k is not None else Box.around(rules, states)
        try:
            while True:
                if box is not None:
                    if box.size >= MAX_KEY:
                        t.native = False
                        return None
                    k = t.kernels[mode] = Kernel(rules, box, mode, limit=solver.max_positions,
                                                 symmetry=t.symmetric, decompose=t.decomposed)
                assert k is not None           # built above, or the table's kernel for this mode
                try:
                    return k.values(states)
                except ValueError:         # a state outside the box: a box holding them all (grown
                    box = k.box.grown(Box.around(rules, states))   # at least twofold: few rebuilds)
                except OutOfBox as e:
                    name = rules.schema.slots[e.slot][0]
                    box = k.box.widened([i for i, (nm, _) in enumerate(rules.schema.slots) if nm == name], e.value)
        except KernelError as e:
            t.kernels.pop(mode, None)
            if e.status == CYCLE:
                raise _cycle(rules) from None
            if e.status == LIMIT:
                raise solver._limit() from None
            if e.status == DOMAIN and e.key is not None and k is not None:
                raise _domain_violation(t, k.box.state(e.key)) from None
            t.native = False      # a value or a product beyond the kernel: the Python path
            return None


class PythonSource:
    """The Python search, position by position; it answers whatever the others cannot."""

    name = PYTHON
    premises = "symmetry and decomposition asked once its table has stored reduce_after positions, where they reduce"

    def can_answer(self, solver: "Solver", q: Query) -> bool:
        return True

    def values(self, solver: "Solver", q: Query, states: list[State]) -> list[Any] | None:
        out: list[Any] = []
        t = q.table(solver)
        canon = t.code.canonical           # the same through the loop: a new one comes with a HandOver
        by_value = q.question == "grundy"
        ask: Callable[[Table, State, Any], Any] = solver._grundy if by_value else solver._wins
        arg = q.convention == "misere" if by_value else q.convention
        try:
            for s in states:
                out.append(ask(t, canon(tuple(s)), arg))
        except HandOver as h:
            if out:
                solver._served(t, q.game, q.structure, PYTHON)
            if h.prove:
                solver.establish(t, python=True)
            return out                     # the solver asks again, from its first source
        if out:
            solver._served(t, q.game, q.structure, PYTHON)
        return out

    @staticmethod
    def room(solver: "Solver", t: Table) -> None:
        """Count a position the search is about to store on ``t``; hand the table over (the
        premises to ask, or the kernel to use) or stop at the solver's limit."""
        t.py_stored += 1
        if t.py_stored > (t.ask_after or solver.reduce_after) and not t.asked:
            raise HandOver(prove=True)
        if t.py_stored > NATIVE_AFTER and t.native and solver.native and not t.in_use:
            t.in_use = True
            raise HandOver(prove=False)
        solver.count_stored()
