"""Where a solver's values come from: an ordered list of value sources, asked in turn.

A source answers one question (``"grundy"``: Grundy values; ``"wins"``: whether the mover wins)
about a batch of packed states of one game on one structure in one convention, or says it
cannot (None: the solver asks the next source). A source is handed a
:class:`~grundy.solvers.context.SourceContext` (the tables, the settings and the limit, a way to
note which engine answered, a way to ask for premises), never the solver. The solver's order
(:data:`Solver.sources`, after the proved theorems of :mod:`grundy.solvers.theorems`):

- :class:`HeapTablesSource`: one-heap tables, for games that are sums of heaps by construction
  (normal play, with decomposition allowed): no premise to prove;
- :class:`~grundy.solvers.coins.CoinTurningSource`: coin-turning games, the nim-sum of single-head
  values (normal play, with decomposition allowed), where Z3 proves the coin-turning shape of the
  rule on the structure (:mod:`grundy.solvers.premises.coin_turning`);
- :class:`KernelSource`: the C kernel generated from the rules, once its table is in use (from the
  first position with ``native="always"``, for a batch of several states at once, or when the
  Python search hands a large table over); its reductions are the proved ones
  (``ctx.establish`` before every call); it also gives a sweep its kernel (:meth:`KernelSource.sweep`);
- :class:`PythonSource`: the Python search (:class:`~grundy.solvers.search.PythonSearch`, one
  per batch); it asks for the premises of the reductions it would use (``Table.reach``) once
  its table has stored ``reduce_after`` positions, and hands its table to the kernel once it
  has stored ``settings.native_after`` positions.

A source may answer only the first states of a batch and give control back: a shorter list, or
a :class:`Partial` saying why (the Python search handing its table over). The solver then asks
its sources again, from the first, for the states left. Adding a source is one class with
``name``, ``premises``, ``can_answer`` and ``values`` (and, to serve a sweep in C, ``sweep``),
put in ``Solver.sources`` where it is to be asked (``tests/test_source_conformance.py`` then
holds it to the reference engine on every registered game).

Sums of positions (:class:`~grundy.spec.SumPosition`) are not asked here: the solver gives them
to its :class:`~grundy.solvers.explicit.sums.MisereSums`.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from ..errors import BuildError
from ..settings import current as settings
from ..spec.game import Game
from ..spec.structure import Structure
from .context import SourceContext
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
)
from .native.vm import STORE_LIMIT, Program, VMKernel
from .native.vmsplit import presence_key
from .premises import VIOLATED, Premise
from .search import ASK_PREMISES, PythonSearch
from .source_log import HEAP_TABLES, INTERPRETER, KERNEL, PYTHON
from .table import IN_REACH, Table, _domain_violation, relation_key

__all__ = ["Query", "ValueSource", "Partial", "HeapTablesSource", "KernelSource", "PythonSource",
           "SourceContext", "OutcomesOnly", "outcome_alone"]



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

    def table(self, ctx: SourceContext) -> Table:
        """The context's table of the game on the structure (made, or put last in its order of
        use, when a source first needs it)."""
        if self.t is None:
            self.t = ctx.table(self.game, self.structure)
        return self.t


@dataclass(frozen=True)
class Partial:
    """A source's answers at the first ``len(values)`` states of a batch, and why it hands the
    rest back (``because``): the solver asks its sources again, from the first, for the rest.

    >>> Partial([0, 1], "its table is large enough for the C kernel").answered(5)
    'answered 2 of 5, hand over because its table is large enough for the C kernel'
    """

    values: list[Any]
    because: str

    def answered(self, n: int) -> str:
        return f"answered {len(self.values)} of {n}, hand over because {self.because}"


class ValueSource(Protocol):
    """A value source: ``name`` is the engine the source log names; ``premises`` says which
    premises of its table the source needs proved, and when it asks (``ctx.establish``).
    Optional: ``sweep(ctx, q, box, extra, quick, light)``, the C kernel that answers a sweep's
    batch (see :meth:`KernelSource.sweep`); where the first source that may answer a sweep has
    none, ``Solver.sweep_kernel`` says None and the sweep asks the solver state by state.
    Optional too, for a source that answers outcomes only (``"wins"``, never ``"grundy"``): the
    capability :class:`OutcomesOnly` (``Solver.outcome_alone`` asks it)."""

    name: str
    premises: str

    def can_answer(self, ctx: SourceContext, q: Query) -> bool:
        """Whether the source may answer ``q`` at all (cheap; no value computed)."""
        ...

    def values(self, ctx: SourceContext, q: Query, states: list[State]) -> list[Any] | Partial | None:
        """The answers at ``states``, or at their first ones (a shorter list, or a
        :class:`Partial`), then control back to the solver; None: the source cannot answer,
        ask the next."""
        ...


class OutcomesOnly(Protocol):
    """The optional capability of a source that answers the question ``"wins"`` and never
    ``"grundy"`` (the value comes from the next sources, by search): it says what a search for
    the value would cost, so that a caller with a budget may take the outcome alone
    (``Solver.outcome_alone``), and why the value is then not given."""

    def value_cost(self, q: Query, state: State) -> int:
        """About how many positions a search for the value at ``state`` stores."""
        ...

    def label(self, q: Query) -> str | None:
        """What the source answers by, in words (as the log notes it); None: nothing yet."""
        ...

    def why_no_value(self, q: Query, state: State, cost: int, budget: int, label: str) -> str:
        """One sentence: why the value at ``state`` is not given (``cost`` > ``budget``)."""
        ...


def outcome_alone(ctx: SourceContext, sources: tuple[ValueSource, ...], q: Query, state: State,
                  budget: int) -> tuple[bool, str] | None:
    """(mover wins, why the value is not given) when the first source in order that has the
    capability :class:`OutcomesOnly` may answer ``q`` (a ``"wins"`` query), a search for the
    value at ``state`` would store more than ``budget`` positions, and that source answers the
    state; None otherwise (then ask for both as usual). Only that source is asked: an earlier
    one (a proved theorem) might have answered the outcome too, and both are exact."""
    for src in sources:
        if not isinstance(src, _OutcomesOnlyCheck) or not src.can_answer(ctx, q):
            continue
        cap: OutcomesOnly = src
        cost = cap.value_cost(q, state)
        if cost <= budget:
            return None
        got = src.values(ctx, q, [state])
        if got is None or isinstance(got, Partial) or len(got) != 1:
            return None                     # declined (the next sources would answer both)
        label = cap.label(q) or src.name
        return bool(got[0]), cap.why_no_value(q, state, cost, budget, label)
    return None


@runtime_checkable
class _OutcomesOnlyCheck(OutcomesOnly, Protocol):
    pass


class HeapTablesSource:
    """Sums of heaps by construction (normal play): the XOR of one-heap values."""

    name = HEAP_TABLES
    premises = "none (sums of heaps by construction)"

    def can_answer(self, ctx: SourceContext, q: Query) -> bool:
        return ctx.decompose and q.convention == "normal" and sum_of_heaps(q.game, q.structure) is not None

    def values(self, ctx: SourceContext, q: Query, states: list[State]) -> list[Any] | None:
        rule = sum_of_heaps(q.game, q.structure)
        if rule is None:
            return None
        if q.sweep:                          # a batch is noted before its values, one position after
            ctx.note(q.game, q.structure, HEAP_TABLES)
        vals = [ctx.heaps.values(rule, [tuple(s)])[0] for s in states]   # one by one: tables grow as before
        if not q.sweep:
            ctx.note(q.game, q.structure, HEAP_TABLES)
        return vals if q.question == "grundy" else [v != 0 for v in vals]


class KernelSource:
    """The C kernel of a table (per mode), once the table is in use; a batch of several states
    puts its table in use at once (a family on one structure is worth a kernel)."""

    name = KERNEL
    premises = "symmetry and decomposition asked before every call (it reduces by the proved ones)"

    def can_answer(self, ctx: SourceContext, q: Query) -> bool:
        t = q.table(ctx)               # the table is made here (whether or not a kernel serves)
        return ctx.native and t.native and (t.in_use or not q.chunk)

    def values(self, ctx: SourceContext, q: Query, states: list[State]) -> list[Any] | None:
        t = q.table(ctx)
        if len(states) > 1 and not q.chunk:
            t.in_use = True
        if not t.in_use:
            return None
        ctx.establish(t)                # the kernel reduces only by what is proved here
        mode = self.mode(t, q, states)
        if q.chunk:                     # as one by one: the first state, then those its box holds
            states = self._alike(t, q, states, mode)
        vals = self.run(ctx, t, mode, states)
        if vals is None:
            return None
        ctx.served(t, q.game, q.structure, KERNEL)
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

    def sweep(self, ctx: SourceContext, q: Query, box: Box, extra: str,
              quick: bool | None = None, light: bool = False) -> Kernel | None:
        """The kernel a sweep's batch of ``q`` is answered by (its table put in use, its premises
        asked, the mode of a batch), its box holding ``box``, compiled with ``extra`` (a claim's
        sweep in C, :mod:`grundy.solvers.native.sweep`): the table's kernel, or one built now
        in its place (on the join of the boxes; ``quick``, ``light``: as :class:`Kernel`'s; on the same
        box, another claim's, it takes on that kernel's table where :meth:`Kernel.can_share`); None where no
        kernel serves the table: then the table is no longer marked as the kernel's, so that the
        Python path answers as it would have."""
        if not self.can_answer(ctx, q):
            return None
        t = q.table(ctx)
        was, t.in_use = t.in_use, True
        ctx.establish(t)
        mode = self.mode(t, q, [])             # a batch's mode (q.sweep: no state read)
        k = t.kernels.get(mode)
        if k is not None and k.extra == extra and k.box.join(box) == k.box:
            return k
        need = box if k is None else k.box.join(box)
        if need.size >= MAX_KEY:               # no 64-bit key: no kernel
            t.in_use = was
            return None
        try:
            k = Kernel(t.rules, need, mode, limit=ctx.max_positions, symmetry=t.symmetric,
                       decompose=t.decomposed, extra=extra, quick=quick, light=light, table_of=k)
        except (BuildError, MemoryError, ValueError):
            t.in_use = was
            return None
        t.kernels[mode] = k
        ctx.served(t, q.game, q.structure, KERNEL)
        return k

    def sweep_vm(self, ctx: SourceContext, q: Query, box: Box) -> VMKernel | None:
        """The interpreter's table (:mod:`grundy.solvers.native.vm`: the kernel's search with the
        rules as data, no compile) for a sweep's batch of ``q`` on ``box``, where this source
        would answer the sweep; None where it would not, or the box is too large. Shared,
        as the Python search's memo tables are (:class:`~grundy.solvers.table.Stores`), by the
        structures with the same move relation, box and mode. No symmetry. A game whose
        positions split (``rules.present``; normal play, decomposition allowed) is searched for
        Grundy values (a sum's outcome needs its parts' values) by a program with its
        components (:func:`_splitting`): split only once the decomposition premise is proved."""
        if not self.can_answer(ctx, q):
            return None
        t = q.table(ctx)
        misere = q.convention == "misere"
        splits = t.decompose and not misere and t.rules.present is not None
        mode = (MISERE_GRUNDY if misere else GRUNDY) if q.question == "grundy" else MISERE if misere else NORMAL
        key = None if ctx.stores is None else \
            (relation_key(t.rules), presence_key(t.rules) if splits else None, box, mode)
        k = None if key is None or ctx.stores is None else ctx.stores.vm.get(key)
        if k is None:
            try:
                k = VMKernel(Program(t.rules, box, splits), mode, limit=min(ctx.max_positions, STORE_LIMIT))
            except (BuildError, MemoryError, ValueError):
                return None
            if key is not None and ctx.stores is not None:
                ctx.stores.keep_vm(key, k)
        if splits and not _splitting(ctx, q, t, k):
            return None
        if not splits:
            ctx.note(q.game, q.structure, INTERPRETER)
        return k

    @staticmethod
    def vm_swept(ctx: SourceContext, q: Query, stored: int, split_share: float | None = None) -> None:
        """After the interpreter swept ``q``'s structure, storing ``stored`` positions: from
        ``reduce_after`` on, the premises of the reductions allowed there are asked (where the
        Python search would have asked them, or some of them: it asks the rest once it has
        stored more), so that a declaration found violated is in the log as on the Python path
        (the interpreter reduces by none of them but a proved decomposition; asking changes no
        value). ``split_share``: a program with components, which asks the one premise it
        reduces by where the Python search would (:func:`_splitting`), and here where it did not
        (at least :data:`~grundy.solvers.table.IN_REACH` of the positions expanded since it last
        asked would have split), the others not."""
        if stored < ctx.reduce_after or (split_share is not None and split_share < IN_REACH):
            return
        t = q.table(ctx)
        ctx.establish(t, only=None if split_share is None else "decomposition")
        if ctx.log is not None:
            for p in t.premises.values():
                if p.status == VIOLATED and p.declared and p.violation not in ctx.log.violations:
                    ctx.log.violations.append(p.violation)

    @staticmethod
    def vm_limited(ctx: SourceContext, q: Query) -> None:
        """The interpreter met its limit (``vm.STORE_LIMIT`` positions stored) on ``q``'s
        structure: its table is large, so it is put in use for its kernel now (where a kernel
        may serve it), as the Python search hands a table over past ``settings.native_after``
        positions, instead of searching that many in Python first. Only who answers changes,
        never a value: both are exact, and the kernel reduces by the premises proved."""
        t = q.table(ctx)
        if ctx.native and t.native:
            t.in_use = True

    @staticmethod
    def run(ctx: SourceContext, t: Table, mode: int, states: list[State]) -> bytes | None:
        """The kernel's stored values for states of one table (None: it cannot serve the table).
        The kernel's box grows to hold them, and again whenever a successor leaves it (the
        kernel says so by a :class:`~grundy.solvers.native.box.Halt` it returns)."""
        rules = t.rules
        k = t.kernels.get(mode)
        box = None if k is not None else Box.around(rules, states)
        while True:
            if box is not None:
                if box.size >= MAX_KEY:
                    t.native = False
                    return None
                k = t.kernels[mode] = Kernel(rules, box, mode, limit=ctx.max_positions,
                                             symmetry=t.symmetric, decompose=t.decomposed)
            assert k is not None           # built above, or the table's kernel for this mode
            got = k.values(states)
            if isinstance(got, bytes):
                return got
            if not got.outside:
                break
            box = got.widened(rules, k.box, states)    # grown at least twofold: few rebuilds
        t.kernels.pop(mode, None)
        if got.status == CYCLE:
            raise _cycle(rules)
        if got.status == LIMIT:
            raise ctx.limit()
        if got.status == DOMAIN:
            raise _domain_violation(t, k.box.state(got.value))
        t.native = False      # a value or a product beyond the kernel: the Python path
        return None


SPLIT_BOX = 2 ** 15     # boxes of at most this many positions: the interpreter never asks to split there (the
                        # whole box searched in C costs about what the premise's proof in Z3 does, 20-200 ms)
SPLIT_TRY = 2 ** 14     # positions an outcome question's Grundy search with components stores on trial ...
SPLIT_KEEP = 0.5        # ... and goes on past them where at least this share of the positions it expanded
                        # split (a path's intervals: 0.9), else the outcome search without components takes
                        # over (a wheel's hub joins every part: 0.1-0.2 of them split, and the Grundy search
                        # stores 15-30 times what the outcome search does)


def _splitting(ctx: SourceContext, q: Query, t: Table, k: VMKernel) -> bool:
    """Make ``k`` (a program with components, for ``t``) split where the decomposition premise
    is proved on ``t`` (already, or asked here). It is asked where the Python search would ask
    it (counted, never the clock): once ``k`` has stored ``ctx.reduce_after`` positions more,
    if at least :data:`~grundy.solvers.table.IN_REACH` of the positions it expanded until then
    would split (the program probes), and not on a box of at most :data:`SPLIT_BOX` positions.
    An outcome question (``k`` in NORMAL mode) then searches Grundy values with components (a
    sum's outcome needs its parts' values) in a new table, on trial (:data:`SPLIT_TRY`,
    :data:`SPLIT_KEEP`). ``k.on_limit`` takes each step, and the search goes on. False (no
    interpreter): ``k``, shared, splits and ``t``'s own premise is not proved."""
    prog = k.prog
    cap = min(ctx.max_positions, STORE_LIMIT)

    def note() -> None:
        if ctx.log is not None:
            p = t.premises.get("decomposition")
            used: dict[str, Premise] | None = None if not prog.decomposes else {}   # {}: an outcome's trial, given up
            if p is not None and prog.decomposes and k.mode == GRUNDY:
                used = {"decomposition": p}
            ctx.log.note(q.game, q.structure, INTERPRETER, used)

    def step(stage: int, mode: int) -> bool:
        """To ``stage`` (1: probing for reduce_after positions; 2: an outcome's trial of the
        Grundy search with components; 3: the rest) in ``mode``."""
        prog.probe(stage == 1 or (stage == 3 and mode != GRUNDY) or not t.decomposed)
        prog.split_share()                       # counted from here (the last share: KernelSource.vm_swept's)
        if mode == GRUNDY and t.decomposed and stage > 1:
            prog.decompose()
        limit = min(cap, k.stored + ctx.reduce_after) if stage == 1 else min(cap, SPLIT_TRY) if stage == 2 else cap
        if mode != k.mode:
            k.renew(mode, limit)                 # a new table (its values from the moves, as the one before)
        else:
            k.set_limit(limit)
        k.stage = stage
        note()
        return True

    def on_limit() -> bool:
        if k.stage == 1:
            if prog.split_share() >= IN_REACH:
                ctx.establish(t, only="decomposition")
            return step(2, GRUNDY) if k.mode == NORMAL and t.decomposed else step(3, k.mode)
        if k.stage == 2:
            return step(3, GRUNDY if prog.split_share() >= SPLIT_KEEP else NORMAL)
        return False
    k.on_limit = on_limit
    if prog.decomposes:                       # shared, and splitting: only where proved here too
        ctx.establish(t, only="decomposition")
        if not t.decomposed:
            return False
    if k.stage == 0:
        if ctx.reduce_after <= 0 or k.box.size <= SPLIT_BOX:
            return step(3, k.mode)
        return step(2, GRUNDY) if k.mode == NORMAL and t.decomposed else step(3 if t.decomposed else 1, k.mode)
    note()
    return True


class PythonSource:
    """The Python search, position by position; it answers whatever the others cannot, and
    hands its table over (a :class:`Partial`) where it is to be served otherwise: its premises
    asked first (it asks them here), or its C kernel now in use (past ``settings.native_after``)."""

    name = PYTHON
    premises = "symmetry and decomposition asked once its table has stored reduce_after positions, where they reduce"

    def can_answer(self, ctx: SourceContext, q: Query) -> bool:
        return True

    def values(self, ctx: SourceContext, q: Query, states: list[State]) -> list[Any] | Partial | None:
        t = q.table(ctx)
        canon = t.code.canonical           # the same through the batch: premises are asked after it
        search = PythonSearch(t, ctx, settings().native_after)
        by_value = q.question == "grundy"
        misere = q.convention == "misere"
        out: list[Any] = []
        for s in states:
            v = search.grundy(canon(tuple(s)), misere) if by_value else search.wins(canon(tuple(s)), q.convention)
            if v is None:
                break
            out.append(v)
        if out:
            ctx.served(t, q.game, q.structure, PYTHON)
        if search.because is None:
            return out
        if search.because == ASK_PREMISES:
            ctx.establish(t, python=True)
        return Partial(out, search.because)
