"""The time limit of a check, and its progress messages: a :class:`Deadline` raises
:class:`TimedOut` past its end; a :class:`_Ticker` checks it and reports progress at most twice
a second.

A limit counts the **CPU seconds** of the thread that checks the claim (the sweep, the C
kernels and Z3 all run in it; see :mod:`grundy.solvers.clock`), not wall-clock seconds: on a
busy machine a claim gets the same amount of computing as on an idle one, so its verdict does
not depend on the load. ``wall=True`` counts wall-clock seconds instead (the behaviour before
limits were CPU time; deprecated).
"""
from __future__ import annotations

import time
from typing import Callable

from ...solvers.clock import cpu_clock

State = tuple[int, ...]
Progress = Callable[[str], None]


class TimedOut(Exception):
    """The claim's time limit passed (cooperative check)."""


class Deadline:
    """A point in CPU time of the calling thread (``clock``); ``check()`` raises
    :class:`TimedOut` past it; ``left()`` is the CPU seconds left; ``wall()`` the wall-clock
    seconds since it was set (what a verdict reports as its time).

    >>> d = Deadline(0.05)
    >>> while True:
    ...     try:
    ...         d.check()
    ...     except TimedOut:
    ...         break
    >>> d.left() <= 0 and d.clock() - d.start >= 0.05
    True
    """

    def __init__(self, seconds: float | None):
        self.clock = cpu_clock()
        self.started = time.monotonic()
        self.start = self.clock()
        self.end = float("inf") if not seconds else self.start + seconds

    def left(self) -> float:
        return self.end - self.clock()

    def check(self) -> None:
        if self.clock() > self.end:
            raise TimedOut()

    def wall(self) -> float:
        return time.monotonic() - self.started


def _nothing(_: str) -> None:
    pass


class _Ticker:
    """A sweep's periodic duties: the time limit, and progress at most twice a second."""

    def __init__(self, deadline: Deadline, progress: Progress):
        self.deadline, self.progress, self.last = deadline, progress, time.monotonic()

    def tick(self, message: Callable[[], str]) -> None:
        self.deadline.check()
        now = time.monotonic()
        if now - self.last > 0.5:
            self.progress(message())
            self.last = now
