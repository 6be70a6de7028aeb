"""Foresight and progress for ``grundy solve``: before a large solve, an estimate of the work
and the faster route when there is one; while a solve runs over a second, a progress line on
stderr (positions stored, their rate, the largest table), redrawn by a thread that only reads
the solver's counters.

>>> from grundy.spec.position import read_position
>>> estimate(read_position({"game": "nim", "heaps": [999, 999, 9]}))
('explicit', 10000000)
>>> estimate(read_position({"game": "lasker-nim", "heaps": [20000]}))
('one-heap', 20000)
"""
from __future__ import annotations

import threading
import time
from typing import Any, Callable

from ..settings import current as settings
from ..solvers.heaps import sum_of_heaps
from ..solvers.solver import Solver
from ..spec.position import Position, SumPosition
from ..tools.progress import Progress

__all__ = ["estimate", "foresight", "faster_route", "Watch", "THEOREM_ROUTE"]


# A function (position -> a line naming a proved theorem that gives its value, or None): the
# theorem route, set by whatever knows the proved theorems (None: no such route on this build).
THEOREM_ROUTE: Callable[[Any], str | None] | None = None


def estimate(pos: Position | SumPosition) -> tuple[str, int]:
    """The work a solve of ``pos`` does: ``("one-heap", N)``, one heap's values G(0..N) (a sum
    of heaps under one rule, normal play), or ``("explicit", N)``, N the positions of the box
    below it (each numeric field from its least value to its largest here; fewer are stored
    where symmetry or components apply), summed over the parts of a sum."""
    if isinstance(pos, SumPosition):
        return "explicit", sum(estimate(p)[1] for p in pos.parts)
    if pos.convention == "normal" and sum_of_heaps(pos.game, pos.structure) is not None:
        return "one-heap", max(pos.state, default=0)
    size = 1
    for d, x in zip(pos.game.rules(pos.structure).slot_domains, pos.state, strict=False):
        size *= 2 if d is None else (x - d[0] + 1) if d[1] is None else (d[1] - d[0] + 1)
    return "explicit", size


def faster_route(pos: Position | SumPosition, obj: Any) -> str | None:
    """Another route to the answer, if there is one: ``faster: ...``, a proved theorem that
    gives it (:data:`THEOREM_ROUTE`), or ``see also: ...``, ``grundy values``, where the solve
    builds one heap's values anyway (the same work, every heap's value printed)."""
    if THEOREM_ROUTE is not None:
        line = THEOREM_ROUTE(pos)
        if line:
            return f"faster: {line}"
    kind, n = estimate(pos)
    if kind == "explicit":
        return ("faster, if a theorem of yours gives this game's values: a claim with serves=True, "
                "proved, passed with --theorems FILE answers in its scope at once (docs/claims.md)")
    if kind == "one-heap" and isinstance(obj, dict):
        params = " ".join(f"--{k} {_word(v)}" if k in ("code", "set") else f"--param {k}={_word(v)}"
                          for k, v in obj.items() if k not in ("game", "heaps", "convention"))
        return (f"see also: grundy values {obj.get('game')} {n}" + (f" {params}" if params else "")
                + " (the same work, every heap's value up to it)")
    return None


def _word(v: Any) -> str:
    return ",".join(map(str, v)) if isinstance(v, list) else str(v)


def foresight(pos: Position | SumPosition, obj: Any) -> list[str]:
    """The lines said before a large solve (none for a small one)."""
    kind, n = estimate(pos)
    if kind == "one-heap" and n >= settings().large_heap:
        lines = [f"one heap's Grundy values G(0..{n:,}) to compute (each heap's options, about "
                 f"{n * n // 2:,} in all for a rule that splits heaps)"]
    elif kind == "explicit" and n >= settings().large_box:
        lines = [f"about {n:,} positions below it (the box of its values; fewer are stored where "
                 f"symmetry or components apply)"]
    else:
        return []
    route = faster_route(pos, obj)
    if route:
        lines.append(route)
    return lines


def _table_size(t: Any) -> int:
    return t.py_stored + sum(k.stored for k in list(t.kernels.values()))


def status(solver: Solver, started: float, work: tuple[str, int], game: str) -> str:
    """The progress line: positions stored, their rate, the largest table (or, for one heap's
    values, what is computed and for how long)."""
    took = time.monotonic() - started
    if work[0] == "one-heap":
        return f"one heap's values of {game} up to {work[1]:,}: {took:.0f} s"
    try:
        tables = list(solver.tables.values())
        sizes = [(_table_size(t), t) for t in tables]
        stored = solver.stored
    except RuntimeError:          # a table added while it was read: the next tick reads again
        return ""
    text = f"{stored:,} positions stored ({stored / max(took, 1e-9):,.0f}/s, {took:.0f} s)"
    if sizes:
        n, t = max(sizes, key=lambda x: x[0])
        g = t.rules.structure
        text += f"; largest table {n:,} ({t.rules.game.name} on {g.kind} of {g.n})"
    return text


class Watch:
    """One thread for a command: while a solve is under way (between :meth:`begin` and
    :meth:`end`) and has run ``settings.progress_delay`` seconds, it redraws ``bar`` with :func:`status` every
    half second. It only reads the solver's counters; the line is wiped before any output."""

    def __init__(self, bar: Progress, solver: Solver):
        self.bar, self.solver = bar, solver
        self.lock = threading.Lock()
        self.current: tuple[float, tuple[str, int], str, str] | None = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def begin(self, work: tuple[str, int], game: str, prefix: str = "") -> None:
        self.current = (time.monotonic(), work, game, prefix)

    def end(self) -> None:
        with self.lock:
            self.current = None
            if self.bar.tty and self.bar.last:
                self.bar.clear()
                self.bar.last = ""

    def _run(self) -> None:
        while not self._stop.wait(settings().progress_tick):
            cur = self.current
            if cur is None or time.monotonic() - cur[0] < settings().progress_delay:
                continue
            text = status(self.solver, cur[0], cur[1], cur[2])
            with self.lock:
                if text and self.current is cur:
                    self.bar(f"grundy solve: {cur[3]}{text}")

    def close(self) -> None:
        self._stop.set()
        self._thread.join()
        self.end()
