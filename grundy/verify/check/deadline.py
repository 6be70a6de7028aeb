"""The time limit of a check, and its progress messages: a :class:`Deadline` raises
:class:`TimedOut` past its end; a :class:`_Ticker` checks it and reports progress at most twice
a second.
"""
from __future__ import annotations

import time
from typing import Callable

State = tuple[int, ...]
Progress = Callable[[str], None]


class TimedOut(Exception):
    """The claim's time limit passed (cooperative check)."""


class Deadline:
    """A point in time; ``check()`` raises :class:`TimedOut` past it."""

    def __init__(self, seconds: float | None):
        self.start = time.monotonic()
        self.end = float("inf") if not seconds else self.start + seconds

    def left(self) -> float:
        return self.end - time.monotonic()

    def check(self) -> None:
        if time.monotonic() > self.end:
            raise TimedOut()


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
