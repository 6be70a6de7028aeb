"""The explicit sweep with its values from the levelled solver (the method :class:`~grundy.verify.methods.Levelled`).

Per structure of the family: every position within the bounds is a start; the levelled solver
(:func:`grundy.solvers.levelled.solve_levelled`) solves every position reachable from them, level
by level of the rules' rank (proved by Z3 to fall at every move), by canonical form where the
symmetry premise is proved. Then the statement (and the assumption) is judged at every start
exactly as by the memo solver's sweep (:func:`~.sweep._python`: the same counts, the same
smallest counterexample, the same positions offered to the reference engine's sample), each
start's truth read from the level store. The scope adds "levelled: L levels, N positions,
per-level counts digest D, engine E (why)".

Served: normal play, claims judged by a position's value or outcome alone (no table of values,
no strategy), games solved on the claim's own slots. Anything else is a :class:`ClaimError`
(the verdict ``error``, one line): the method never falls back to another engine silently.

A Dask client for the levelled engine (``grundy verify --executor dask://HOST:PORT``) is set
for the claims checked in this thread by :func:`levelled_client`; without one, the Dask path
makes its own ``LocalCluster``.

>>> from grundy.verify.claims import Claim
>>> from grundy.verify.families import complete
>>> from grundy.verify.check import check_claim
>>> c = Claim("demo/k3", game="edge-nim", kind="conj", family=complete(3), bounds={"weight": (1, 2)},
...           statement=lambda g, s: False, methods=["levelled"], expect="verified")
>>> v = check_claim(c)
>>> v.verdict, v.scope.split("; ")[1].split(", engine")[0]
('verified', 'levelled: 7 levels, 17 positions, per-level counts digest 560a205ab6b21c4a')
"""
from __future__ import annotations

import contextlib
import contextvars
import functools
import hashlib
from typing import Any, Iterator

import numpy as np

from ...errors import GrundyError
from ...solvers.levelled import Grid, LevelStore, solve_levelled
from ...solvers.solver import Solver
from ...spec.game import Game
from ..claims import Claim, ClaimError
from ..families import count_states, states
from ..families.bounds import slot_values
from ..methods import Levelled
from ..recheck import CrossCheck
from .csweep import Tally
from .deadline import Deadline, Progress, State, TimedOut, _nothing, _Ticker
from .instance import Instance
from .results import SweepResult
from .scope import ORDER, _bounds_text, _conditions, where
from .sweep import _python, _tick

__all__ = ["sweep_levelled", "levelled_client", "LevelledInstance"]

_CLIENT: contextvars.ContextVar[Any] = contextvars.ContextVar("grundy_levelled_client", default=None)


@contextlib.contextmanager
def levelled_client(client: Any) -> Iterator[None]:
    """Within the block, the levelled engine's Dask path runs on ``client`` (a ``distributed.Client``)."""
    token = _CLIENT.set(client)
    try:
        yield
    finally:
        _CLIENT.reset(token)


class LevelledInstance(Instance):
    """An :class:`Instance` whose truths come from a level store (solved by :meth:`solve`)."""

    store: LevelStore
    _live: dict[int, tuple[np.ndarray, np.ndarray]]

    def served(self) -> str | None:
        """Why the levelled solver cannot give this claim's truths on this structure (None: it can)."""
        if self.claim.convention == "misere":
            return "it solves normal play only (this claim is in misère play)"
        if self.table is not None or self.cases or self.exact is not None:
            return "it serves claims judged by a position's value or outcome alone (no table, no strategy)"
        if type(self.game).sized is not Game.sized:
            return f"{self.game.name} is solved on other slots than the sweep's (a heap rule's sized slots)"
        return None

    def solve(self, method: Levelled, bounds: dict[str, Any], n_states: int, deadline: Deadline,
              progress: Progress) -> None:
        """Solve every position reachable from the sweep's starts, level by level."""
        grid = Grid(tuple(tuple(v) for v in slot_values(self.rules, bounds)))     # the sweep's starts
        starts: Grid | list[State] = grid if grid.size == n_states else list(states(self.rules, bounds, None))

        def said(line: str) -> None:
            deadline.check()
            progress(f"levelled: {self.label}: {line}")

        try:
            self.store = solve_levelled(self.game, self.structure, starts, mode="grundy" if self.by_value else "outcome",
                                        engine=method.engine, partitions=method.partitions, client=_CLIENT.get(),
                                        progress=said)
        except TimedOut:
            raise
        except GrundyError as e:              # the rank not proved, a child outside the box, ...
            raise ClaimError(f"claim {self.claim.id!r}: the levelled method on {self.label}: {e}") from None
        self._live = {}

    def prefetch(self, batch: list[State]) -> list[Any] | None:
        """The levelled solver's value (or outcome, "N"/"P") at every state of ``batch``."""
        if not batch:
            return []
        kern = self.store.kernel
        keys = kern.canon(kern.keys(batch))
        ranks = kern.ranks(keys)
        out = np.zeros(len(keys), np.int64)
        for r in np.unique(ranks).tolist():
            m = ranks == r
            if r not in self._live:
                self._live[r] = self.store.values(r)
            ks, vs = self._live[r]
            i = np.minimum(np.searchsorted(ks, keys[m]), max(len(ks) - 1, 0))
            if not len(ks) or not np.array_equal(ks[i], keys[m]):
                raise GrundyError(f"a start of rank {r} missing from the level store (the levelled run is incomplete)")
            out[m] = vs[i]
        got = out.tolist()
        return got if self.by_value else ["N" if x else "P" for x in got]

    def note(self) -> tuple[int, int, str, str]:
        """(levels, positions, per-level counts digest, engine and why) of the run."""
        return len(self.store.done("fwd")), self.store.positions, self.store.counts_digest(), self.store.note


def scope_note(runs: list[tuple[int, int, str, str]]) -> str:
    """The scope's words for the levelled runs of a sweep (one per structure swept)."""
    if len(runs) == 1:
        levels, pos, digest, note = runs[0]
        return f"levelled: {levels} levels, {pos:,} positions, per-level counts digest {digest}, {note}"
    both = hashlib.sha256(" ".join(r[2] for r in runs).encode()).hexdigest()[:16]
    engines = sorted({r[3].split(":")[0] for r in runs})
    return (f"levelled on {len(runs)} structures: {sum(r[0] for r in runs)} levels, {sum(r[1] for r in runs):,} "
            f"positions, per-level counts digests' digest {both}, {' and '.join(engines)}")


def sweep_levelled(claim: Claim, method: Levelled, bounds: dict[str, Any], solver: Solver, deadline: Deadline,
                   progress: Progress = _nothing, cross: CrossCheck | None = None) -> SweepResult:
    """:func:`~.sweep.sweep` with every start's truth from the levelled solver (see the module's text)."""
    if method.samples:
        raise ClaimError(f"claim {claim.id!r}: the levelled method takes no random samples")
    structures = family = 0
    n = Tally()
    ticker = _Ticker(deadline, progress)
    runs: list[tuple[int, int, str, str]] = []
    for label, g in claim.family.items():
        family += 1
        inst = LevelledInstance(claim, label, g, solver)
        claim.check_fields(list(inst.rules.schema.fields))
        n_states = count_states(inst.rules, bounds)
        if n_states == 0:
            continue
        why = inst.served()
        if why is not None:
            raise ClaimError(f"claim {claim.id!r}: the levelled method does not serve it on {label}: {why}")
        n.best, n.here = None, 0
        try:
            inst.solve(method, bounds, n_states, deadline, progress)
            runs.append(inst.note())
            _python(inst, n, functools.partial(_tick, ticker, label, n), cross, states(inst.rules, bounds, None))
        except TimedOut:
            here_text = where(claim.family.scope, _bounds_text(bounds), _conditions(claim))
            return SweepResult(n.checked, None, False, f"{here_text}: timed out after {n.checked:,} "
                                                     f"positions (up to {label}, levelled)", n.met, structures, family)
        structures += n.here > 0
        if n.best is not None:
            within = f", {_bounds_text(bounds)}" if bounds else ""
            cex = inst.counterexample(n.best[1], n.best[2], f"the smallest in the sweep of {label}{within} "
                                                            f"(order: {ORDER}; values by the levelled solver)")
            return SweepResult(n.checked, cex, True, "", n.met, structures, family)
    text = (f"{where(claim.family.scope, _bounds_text(bounds), _conditions(claim))}: {n.checked:,} positions"
            f" (each one evaluated)")
    if runs:
        text += f"; {scope_note(runs)}"
    return SweepResult(n.checked, None, True, text, n.met, structures, family)
