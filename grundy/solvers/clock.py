"""CPU-time clocks: the time limits of checks and proofs are counted in the CPU seconds of the
work itself, not in wall-clock seconds, so that a claim gets as much computing on a busy
machine as on an idle one and its verdict does not depend on the machine's load.

- :func:`cpu_clock` reads the CPU seconds of the calling thread (the thread that checks a
  claim: the Python loops, the C kernels and Z3 all run in it), plus those of the child
  processes already waited for (nauty's ``geng``); the clock it returns can be read from any
  thread (a :class:`Watchdog`).
- :class:`Watchdog` calls a function (e.g. Z3's ``interrupt``) from a helper thread once a
  clock passes a point: a time limit for work that does not look at the clock itself.
- :func:`process_cpu` reads the CPU seconds of another process and its children (a worker, as
  its parent sees it), or None where the system does not say.

>>> clock = cpu_clock()
>>> t = clock(); _ = sum(range(100_000)); clock() >= t
True
>>> import os
>>> process_cpu(os.getpid()) is None or process_cpu(os.getpid()) >= 0
True
"""
from __future__ import annotations

import os
import threading
import time
from functools import partial
from typing import Callable

__all__ = ["cpu_clock", "Watchdog", "process_cpu", "WALL_FACTOR"]

Clock = Callable[[], float]

# A wall-clock safety net only, where a process's CPU time cannot be read (a remote executor's
# workers; a system without /proc): work whose CPU-time limit is L seconds is given up after
# WALL_FACTOR * L seconds of wall time with no result. Thirty covers a 2-core machine shared by
# a dozen busy processes (each then runs a sixth of the time or less) with room to spare.
WALL_FACTOR = 30.0


def _children() -> float:
    t = os.times()
    return t.children_user + t.children_system


def _thread_clock() -> Clock:
    try:
        cid = time.pthread_getcpuclockid(threading.get_ident())
        time.clock_gettime(cid)
    except (AttributeError, OSError):    # pragma: no cover - not on Linux
        return time.process_time
    return partial(time.clock_gettime, cid)


def cpu_clock(children: bool = True) -> Clock:
    """A clock of the calling thread's CPU seconds (plus, with ``children``, those of its
    process's waited-for children), readable from any thread while the calling thread lives.
    Where the system has no per-thread clock, the process's CPU time (:func:`time.process_time`)."""
    own = _thread_clock()
    if not children:
        return own

    def read() -> float:
        return own() + _children()
    return read


class Watchdog:
    """``with Watchdog(clock, end, expire): work()`` calls ``expire()`` once (from a helper
    thread) if ``clock()`` passes ``end`` while ``work()`` runs; ``fired`` says whether it did.
    One helper thread per process serves every watchdog (one at a time, as checks run one after
    another in a thread): it sleeps the time left and looks again, since CPU time of one
    thread never runs faster than wall time, so it costs nothing while the work runs.

    >>> c = cpu_clock()
    >>> with Watchdog(c, c() + 0.05, lambda: None) as w:
    ...     while c() < w.end + 0.2 and not w.fired:
    ...         pass
    >>> w.fired
    True
    """

    def __init__(self, clock: Clock, end: float, expire: Callable[[], None]):
        self.clock, self.end, self.expire = clock, end, expire
        self.fired = False

    def __enter__(self) -> "Watchdog":
        _WATCHER.arm(self)
        return self

    def __exit__(self, *exc: object) -> None:
        _WATCHER.disarm(self)


class _Watcher:
    """The helper thread of :class:`Watchdog` (started when first needed, again in a forked child)."""

    def __init__(self) -> None:
        self._reset()
        os.register_at_fork(after_in_child=self._reset)    # threads do not survive a fork

    def _reset(self) -> None:
        self.lock, self.wake = threading.Lock(), threading.Event()
        self.job: Watchdog | None = None
        self.thread: threading.Thread | None = None

    def arm(self, job: Watchdog) -> None:
        with self.lock:
            self.job = job
            if self.thread is None:
                self.thread = threading.Thread(target=self._watch, daemon=True, name="grundy-watchdog")
                self.thread.start()
        self.wake.set()

    def disarm(self, job: Watchdog) -> None:
        with self.lock:                       # never fires once the work is over
            if self.job is job:
                self.job = None

    def _watch(self) -> None:
        wait: float | None = None
        while True:
            self.wake.wait(wait)
            self.wake.clear()
            with self.lock:
                job, wait = self.job, None
                if job is not None:
                    left = job.end - job.clock()
                    if left <= 0:
                        job.fired, self.job = True, None
                        job.expire()
                    else:
                        wait = min(max(left, 0.005), 1.0)


_WATCHER = _Watcher()


def process_cpu(pid: int) -> float | None:
    """The CPU seconds (user and system) of process ``pid``, with those of its children: the
    ones it waited for, and the ones still running (nauty's ``geng`` feeding it graphs); None
    where ``/proc`` does not say (not Linux, or the process is gone)."""
    own = _stat_cpu(pid, waited=True)
    if own is None:
        return None
    return own + sum(_stat_cpu(c, waited=True) or 0.0 for c in _children_of(pid))


def _stat_cpu(pid: int, waited: bool) -> float | None:
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            text = f.read().decode()
    except OSError:
        return None
    fields = text[text.rindex(")") + 2:].split()     # the command name may hold spaces
    try:                                              # utime, stime (, cutime, cstime)
        ticks = sum(int(x) for x in fields[11:15 if waited else 13])
    except (IndexError, ValueError):                  # pragma: no cover - an unknown format
        return None
    return ticks / os.sysconf("SC_CLK_TCK")


def _children_of(pid: int, depth: int = 3) -> list[int]:
    """The running descendants of ``pid`` (``depth`` generations), where /proc lists them."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as f:
            kids = [int(x) for x in f.read().split()]
    except (OSError, ValueError):
        return []
    return kids + [g for k in kids for g in (_children_of(k, depth - 1) if depth > 1 else [])]
