"""Running claims in long-lived worker processes (claims on one game and family share a
worker's solver), each claim with a time limit in CPU seconds (the worker's, so the same on a
busy machine as on an idle one: :mod:`grundy.solvers.clock`).

>>> from grundy.verify import Claim, heaps
>>> claims = [Claim("demo/nim", game="nim", kind="char", family=heaps(2), bounds={"heap": 4},
...                 statement=lambda g, s: s.heap[0] == s.heap[1])]
>>> [v.verdict for v in run(claims, jobs=1)]
['verified']
"""
from __future__ import annotations

import multiprocessing as mp
import os
import signal
import time
from functools import partial
from multiprocessing.connection import wait
from typing import Any, Callable, Iterator, cast

from ...settings import current as settings
from ...solvers.clock import WALL_FACTOR, process_cpu
from ...solvers.solver import Solver
from ..cache import VerdictCache
from ..claims import Claim
from ..families import Positions
from ..verdict import ERROR, UNKNOWN, Verdict

__all__ = ["run", "group_key", "schedule", "default_jobs"]


# How long the parent sleeps, at most, between looks at busy workers' CPU times (a message or a
# worker's end wakes it at once): a claim past its limit is stopped at most this much later
# (its limit is CPU seconds plus ``worker_grace``, 2 s). Each look costs the parent about 0.8 ms
# of CPU with two workers (/proc read, pipes polled): 0.2 s ticks were about 1 CPU s of a
# 200-second main job.
TICK = 0.5

_CLAIMS: list[Claim] = []          # what forked workers read
_CACHE: VerdictCache | None = None  # the verdict cache they look claims up in (None: off)
_CERTS: str | None = None           # where they write certificate bundles (None: none)



def group_key(claim: Claim, profile: str = "quick") -> tuple:
    """Claims with the same key solve the same positions (one game, one family of structures):
    the runner checks them one after another in one worker, on one solver. The key is
    structural (the family's kind and description), since each claim builds its own family.
    A claim on listed positions (or sums) is a group of its own. A key that joins claims with
    nothing in common only costs time: the solver's tables are keyed by game and structure.

    >>> from grundy.verify import Claim, petersen, heaps
    >>> a = Claim("a", game="edge-nim", kind="char", family=petersen(), statement=lambda g, s: True)
    >>> b = Claim("b", game="edge-nim", kind="char", family=petersen(), statement=lambda g, s: False)
    >>> c = Claim("c", game="nim", kind="char", family=heaps(2), statement=lambda g, s: True)
    >>> group_key(a) == group_key(b) != group_key(c)
    True
    """
    fam = claim.at(profile).family
    if fam is None or isinstance(fam, Positions):
        return ("claim", claim.id)
    return ("family", claim.game, type(fam).__name__, str(getattr(fam, "scope", "")))


def schedule(claims: list[Claim], profile: str = "quick",
             seconds: dict[str, float] | None = None) -> list[list[int]]:
    """The order in which claims are handed to workers: groups of claim indices (one
    :func:`group_key` each, in claim order within a group), the costliest group first by the
    ``seconds`` each claim took last time. A claim without a recorded time counts as costlier
    than any timed one (its group goes first, in file order); with no times at all (a fresh
    cache), the groups with the longest time limits go first (the limit an author gives a
    claim is the best guess of its cost there is: 120 s by default, more for the long ones),
    file order among equals. The order changes wall time only, never a verdict.

    >>> from grundy.verify import Claim, heaps, petersen
    >>> cs = [Claim(i, game="edge-nim", kind="char", family=petersen(), statement=lambda g, s: True)
    ...       for i in ("p1", "p2")]
    >>> cs.insert(1, Claim("n", game="nim", kind="char", family=heaps(2), statement=lambda g, s: True))
    >>> schedule(cs)
    [[0, 2], [1]]
    >>> schedule(cs, seconds={"p1": 1.0, "p2": 1.0, "n": 5.0})
    [[1], [0, 2]]
    >>> schedule(cs, seconds={"p1": 1.0, "p2": 1.0})          # "n" unknown: first
    [[1], [0, 2]]
    >>> cs[1] = Claim("n", game="nim", kind="char", family=heaps(2), statement=lambda g, s: True,
    ...               timeout=600)
    >>> schedule(cs, seconds={})                                 # no times: the longest limits first
    [[1], [0, 2]]
    """
    groups: dict[tuple, list[int]] = {}
    for i, c in enumerate(claims):
        groups.setdefault(group_key(c, profile), []).append(i)
    order = list(groups.values())
    if seconds is None:
        return order
    inf = float("inf")
    if seconds:
        cost = [sum(seconds.get(claims[i].id, inf) for i in g) for g in order]
    else:
        cost = [sum(claims[i].limit(None) for i in g) for g in order]
    ranked = sorted(range(len(order)), key=lambda k: -cost[k])     # stable: file order among ties
    return [order[k] for k in ranked]


class _Shared(Solver):
    """The solver of one group of claims in a worker; counts the position limits it hit (a claim
    that hits one on a solver that earlier claims filled is checked again on a fresh one)."""

    hits = 0

    def _limit(self):  # type: ignore[override]
        self.hits += 1
        return super()._limit()


def _serve(conn, profile: str, parent: int, recheck: str = "sample") -> None:
    """A long-lived worker: check the claims it is sent, one after another, on one solver per
    group (a fresh one at each new group, or once it holds as many positions as one claim may
    store). Messages in: (index, limit, group key) or None (stop); out: ("progress", text),
    ("restart",) (the claim is checked again from the start), ("done", index, verdict)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # Ctrl-C is the parent's: it stops the workers
    signal.signal(signal.SIGTERM, signal.SIG_DFL)    # not the parent's handler: a quiet end

    def progress(text: str) -> None:
        try:
            conn.send(("progress", text))
        except (BrokenPipeError, OSError):
            pass

    group = _Group()
    while True:
        while not conn.poll(1.0):
            if os.getppid() != parent:               # the parent is gone: so is the work
                return
        try:
            msg = conn.recv()
        except (EOFError, OSError):
            return
        if msg is None:
            return
        i, limit, k = msg
        if k != group.key or group.solver.stored >= group.solver.max_positions:
            group = _Group(k)                              # nothing shared between groups
        v = _checked(_CLAIMS[i], partial(_check_in, group, _CLAIMS[i], profile, limit, progress,
                                        lambda: conn.send(("restart",)), recheck))
        group.served += 1
        conn.send(("done", i, v.to_json()))


class _Group:
    """What a worker keeps for the group of claims it serves: their solver, and how many it served."""

    def __init__(self, key: tuple | None = None):
        self.solver, self.key, self.served = _Shared(), key, 0


def _check_in(group: _Group, claim: Claim, profile: str, limit: float, progress: Callable[[str], None],
              restart: Callable[[], None], recheck: str = "sample") -> Verdict:
    """Check a claim on its group's solver."""
    from ..check import check_claim
    hits = group.solver.hits
    v = check_claim(claim, profile=profile, timeout=limit, progress=progress, solver=group.solver,
                    recheck=recheck)
    if group.solver.hits > hits and group.served:
        # a position limit on a solver that earlier claims filled: it might not be this
        # claim's own, so the claim is checked again alone, as a fresh process would
        restart()
        from ...solvers.smt.capture import active
        cap = active()
        if cap is not None:                # certificates: only the second check's queries
            cap.clear()
        group.solver = _Shared()
        v = check_claim(claim, profile=profile, timeout=limit, progress=progress, solver=group.solver,
                    recheck=recheck)
    return v


def _cached(claim: Claim, check: Callable[[], Verdict]) -> Verdict:
    """``check()``, or the claim's stored verdict when the cache is on and holds its key."""
    return check() if _CACHE is None else _CACHE.verdict(claim, check)


def _checked(claim: Claim, check: Callable[[], Verdict]) -> Verdict:
    """:func:`_cached`; with certificates (``_CERTS``), ``check()`` always (a stored verdict has
    no queries to show), its SMT queries captured and its bundle written."""
    if _CERTS is None:
        return _cached(claim, check)
    from ..certificates import certify
    store = None if _CACHE is None else partial(_CACHE.verdict, read=False)
    return certify(claim, check, _CERTS, store)


class _Slot:
    """One worker process as the parent sees it: the claim it runs and the rest of its group."""

    def __init__(self) -> None:
        self.proc: Any = None               # a multiprocessing Process, and its end of the pipe
        self.conn: Any = None
        self.claim: int | None = None
        self.queue: list[int] = []
        self.start = self.limit = 0.0
        self.cpu: float | None = None      # the worker's CPU seconds when its claim started
        self.seen = (0.0, 0.0)              # (CPU seconds, wall time) when they last went up

    def begin(self) -> None:
        """The claim's clocks start now (wall, and the worker's CPU time)."""
        self.start, self.cpu = time.monotonic(), process_cpu(self.proc.pid)
        self.seen = (self.cpu or 0.0, self.start)

    def over(self, now: float) -> bool:
        """The claim ran past its limit: its CPU time (the worker's and its children's) past the
        limit plus ``settings.worker_grace``; or, a worker that does not compute (it sleeps, or waits on
        something), no CPU time used for as long as the limit once the limit has passed in wall
        time. Where the system does not give a process's CPU time:
        :data:`~grundy.solvers.clock.WALL_FACTOR` times the limit in wall time."""
        cpu = process_cpu(self.proc.pid) if self.cpu is not None else None
        if cpu is None or self.cpu is None:
            return now - self.start > self.limit * WALL_FACTOR + settings().worker_grace
        if cpu > self.seen[0]:
            self.seen = (cpu, now)
        stalled = now - self.seen[1] > self.limit + settings().worker_grace and now - self.start > self.limit + settings().worker_grace
        return cpu - self.cpu > self.limit + settings().worker_grace or stalled

    def used(self) -> float:
        """The worker's CPU seconds since its claim started (0 where the system does not say)."""
        cpu = process_cpu(self.proc.pid) if self.cpu is not None else None
        return 0.0 if cpu is None or self.cpu is None else cpu - self.cpu

    def spawn(self, ctx, profile: str, recheck: str = "sample") -> None:
        a, b = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(b, profile, os.getpid(), recheck), daemon=True)
        self.proc.start()
        b.close()
        self.conn = a

    def stop(self, kill: bool = False) -> None:
        if self.proc is None:
            return
        if kill:
            self.proc.kill()
        else:
            try:
                self.conn.send(None)
            except (BrokenPipeError, OSError):
                self.proc.kill()
        self.proc.join(1 if not kill else 5)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join(5)
        self.conn.close()
        self.proc = self.conn = None


def run(claims: list[Claim], *, jobs: int = 1, timeout: float | None = None, profile: str = "quick",
        progress: Callable[[str], None] | None = None, executor: str | None = None,
        seconds: dict[str, float] | None = None,
        record: Callable[[dict[str, float]], None] | None = None,
        cache: VerdictCache | None = None, recheck: str = "sample",
        certificates: str | None = None) -> Iterator[Verdict]:
    """Check the claims in up to ``jobs`` worker processes; yield verdicts in claim order.

    Each worker is a long-lived process that checks claims one after another: the claims of
    one :func:`group_key` (same game, same family) go to the same worker, consecutively, and
    share its solver, so positions solved for one claim are not solved again for the next.
    With more than one worker, groups are started costliest first by ``seconds`` (each
    claim's time last run, see :func:`schedule`); with one, in file order. ``record`` is given
    the seconds of the claims checked here. Sharing
    never changes a verdict: the solver's tables hold values of positions, whoever asked.

    On KeyboardInterrupt (Ctrl-C, or SIGTERM turned into one by the command line) the
    verdicts already finished but held back for the claim order are yielded, in order, before
    the interrupt goes on; the workers still running are killed.

    A claim gets ``timeout`` CPU seconds (default: its own ``timeout``, else 120); a worker that
    runs past it (and a short grace) is killed and its claim is ``unknown``; a fresh worker
    takes the rest of its group. A worker that dies makes its claim an ``error``. With
    ``executor`` (``local:N``, ``dask://HOST:PORT``) each claim's family is cut into chunks run
    there instead (see :mod:`grundy.verify.schedule.chunks`; ``jobs`` is then unused). Each verdict
    carries its claim's text, source, reading and finding (:meth:`Claim.describe`). ``recheck``:
    what the reference engine re-solves (:mod:`grundy.verify.recheck`).

    With ``cache`` (:class:`~grundy.verify.cache.VerdictCache`), a claim whose key is stored is
    not checked: its stored verdict comes instead. Each worker builds the keys of its claims,
    just before checking them (with an executor: this process, before cutting the rest).

    With ``certificates`` (a directory), every claim is checked here and now (the cache is
    written, not read), with its SMT queries captured in the worker that checks it, and its
    bundle written there (:mod:`grundy.verify.certificates`); not with an ``executor``.
    """
    if certificates is not None and executor is not None:
        raise ValueError("certificates are written by claims checked whole (not with an executor)")
    if executor is not None:
        from . import chunks as chunked
        with chunked.executor(executor) as ex:
            def check(todo: list[Claim]) -> Iterator[Verdict]:
                return chunked.run(todo, ex, timeout=timeout, profile=profile, progress=progress,
                                   recheck=recheck)
            yield from check(claims) if cache is None else cache.around(claims, check)
        return
    global _CLAIMS, _CACHE, _CERTS
    _CLAIMS, _CACHE, _CERTS = list(claims), cache, certificates
    if "fork" not in mp.get_all_start_methods():      # pragma: no cover - not on Linux
        from ..check import check_claim
        for c in claims:
            yield _checked(c, partial(check_claim, c, profile=profile, timeout=c.limit(timeout),
                                     recheck=recheck))
        return
    yield from _run_shared(claims, jobs=jobs, timeout=timeout, profile=profile, progress=progress,
                           seconds=seconds, record=record, recheck=recheck)


def _run_shared(claims: list[Claim], *, jobs: int, timeout: float | None, profile: str,
                progress: Callable[[str], None] | None, seconds: dict[str, float] | None,
                record: Callable[[dict[str, float]], None] | None, recheck: str = "sample") -> Iterator[Verdict]:
    from .. import check  # noqa: F401  (imported once here: every worker forked later has it)
    ctx = mp.get_context("fork")
    # one worker: the total is the same in any order, and file order gives the rows as they come
    groups = schedule(claims, profile, seconds if jobs > 1 else None)
    keys = {i: group_key(claims[i], profile) for g in groups for i in g}
    slots = [_Slot() for _ in range(max(1, min(jobs, len(groups))))]
    done: dict[int, Verdict] = {}
    status: dict[int, str] = {}
    took: dict[str, float] = {}
    emitted = 0

    def finish(slot: _Slot, v: Verdict) -> None:
        i = cast(int, slot.claim)                     # a busy slot's claim
        done[i] = v
        took[claims[i].id] = v.seconds
        slot.claim = None

    try:
        while emitted < len(claims):
            for slot in slots:                         # idle workers: the next claim
                if slot.claim is None:
                    _hand_out(slot, groups, claims, keys, status, partial(slot.spawn, ctx, profile, recheck), timeout)
            busy = [s for s in slots if s.claim is not None]
            if busy:
                wait([s.conn for s in busy] + [s.proc.sentinel for s in busy], timeout=TICK)
            now = time.monotonic()
            for slot in busy:
                result = _collect(slot, claims[cast(int, slot.claim)], status, now)
                if result is not None:
                    finish(slot, result)
            if progress is not None and any(s.claim is not None for s in slots):
                running = {s.claim: (None, None, s.start) for s in slots if s.claim is not None}
                progress(_status_line(claims, emitted + len(done), running, status))
            while emitted in done:
                yield done.pop(emitted)
                emitted += 1
    except KeyboardInterrupt:
        for slot in slots:
            slot.stop(kill=True)
        for i in sorted(done):                # finished while an earlier claim still ran
            yield done.pop(i)
        raise
    finally:
        for slot in slots:
            slot.stop(kill=True)
        if record is not None:
            record(took)


def _hand_out(slot: "_Slot", groups: list[list[int]], claims: list[Claim], keys: dict[int, Any],
              status: dict[int, str], spawn: Callable[[], None], timeout: float | None) -> None:
    """An idle worker takes the next claim of its group (the next group when its own is done; no
    claim left: it stops)."""
    if not slot.queue and groups:
        slot.queue = groups.pop(0)
    if not slot.queue:
        slot.stop()
        return
    if slot.proc is None:
        spawn()
    i = slot.queue.pop(0)
    slot.claim, slot.limit = i, claims[i].limit(timeout)
    slot.begin()
    status[i] = "starting"
    try:
        slot.conn.send((i, slot.limit, keys[i]))
    except (BrokenPipeError, OSError):
        pass                               # seen by _collect as a dead worker


def _collect(slot: "_Slot", claim: Claim, status: dict[int, str], now: float) -> Verdict | None:
    """What a busy worker has to say: its claim's verdict, or the verdict of a worker that died
    or ran past the claim's limit (stopped); None while it works (its progress noted)."""
    i = cast(int, slot.claim)
    try:
        while slot.conn.poll():
            msg = slot.conn.recv()
            if msg[0] == "progress":
                status[i] = msg[1]
            elif msg[0] == "restart":
                status[i] = "again, on a fresh solver"
                slot.begin()
            else:
                return Verdict.from_json(msg[2])
    except (EOFError, OSError):
        slot.proc.join(1)
        result = _lost(claim, now - slot.start, f"the worker died (exit code {slot.proc.exitcode})")
        slot.stop(kill=True)               # the rest of its group: a fresh worker
        return result
    if not slot.proc.is_alive():
        result = _lost(claim, now - slot.start, f"the worker died (exit code {slot.proc.exitcode})")
        slot.stop(kill=True)
        return result
    if slot.over(now):
        cpu = slot.used()
        slot.stop(kill=True)
        return _lost(claim, now - slot.start, f"timed out after {slot.limit:g} s (CPU time); "
                     "the worker was stopped", UNKNOWN, cpu)
    return None


def _lost(c: Claim, seconds: float, why: str, verdict: str = ERROR, cpu: float = 0.0) -> Verdict:
    return Verdict(c.id, c.kind, verdict, c.expect, scope="", seconds=seconds, detail=why, paper=c.paper,
                   cpu=cpu, **c.describe())


def _status_line(claims: list[Claim], finished: int, running: dict, status: dict) -> str:
    now = time.monotonic()
    parts = [f"{claims[i].id} ({now - r[2]:.0f} s{': ' + status[i] if status.get(i) else ''})"
             for i, r in running.items()]
    return f"[{finished}/{len(claims)}] " + " | ".join(parts)


def default_jobs() -> int:
    return max(1, min(os.cpu_count() or 1, 8))
