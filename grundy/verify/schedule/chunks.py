"""Parallel and distributed sweeps: a claim's family cut into chunks, run by an executor.

The unit of work is a **chunk**: one claim on a range of its family's structures (indices
``start..stop-1``), so one big claim keeps every core busy. An executor is named by a string:

- ``local:N`` — N worker processes on this machine (``local``: one per core);
- ``dask://HOST:PORT`` — the workers of a running Dask cluster (``dask.distributed``).

Both go through :func:`map_chunks`. Claims hold lambdas and are not sent anywhere: a task names
the theorem file, the claim id, the profile and the chunk, and the worker loads the file
(once per worker process). The chunk results of a claim are merged as the sequential run
would have ended: the first chunk, in family order, that is not ``verified`` decides (so the
counterexample is the sequential run's: the smallest on the first structure that has one;
a timeout gives ``unknown``, an error ``error``, never a pass); otherwise the counts add.
Only claims checked by one plain explicit sweep are cut; any other claim is one chunk, except
a claim with the method ``levelled`` on a Dask cluster: it is checked in the driver, its levelled
runs on the cluster's workers (:func:`grundy.verify.check.levelled.levelled_client`).
A claim's time limit (CPU seconds, counted in the worker) applies to each of its chunks; the
driver gives up on chunks only after :data:`~grundy.solvers.clock.WALL_FACTOR` times the limit
with no result (a lost worker). A chunk releases grundy's in-memory
caches when it ends (:mod:`grundy.caches`). Dask's own statistical profiler, on by default,
keeps ~1000 s of stack profiles per worker: for long sweeps start the workers with
``distributed.worker.profile.enabled: false`` (docs/all-graphs.md).

>>> import pathlib, tempfile
>>> from grundy.verify.loading import load
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = (d / "demo.py").write_text('''
... from grundy.verify import Claim, heaps
... CLAIMS = [Claim("demo/nim", game="nim", kind="char", family=heaps(1, 2, 3), bounds={"heap": 3},
...                 statement=lambda g, s: s.heap[0] == s.heap[g.n - 1], expect="refuted")]
... ''')
>>> with executor("local:2") as ex:
...     [(v.verdict, v.counterexample.witness) for v in run(load([str(d)]), ex)]
[('refuted', {'game': 'nim', 'heaps': [1]})]
"""
from __future__ import annotations

import concurrent.futures as cf
import gc
import hashlib
import multiprocessing as mp
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

from ...caches import release
from ...errors import ExecutorError
from ...settings import current as settings
from ...solvers.clock import WALL_FACTOR
from ..claims import Claim, Explicit
from ..loading import load_file
from ..methods import Levelled
from ..verdict import ERROR, UNKNOWN, VERIFIED, Verdict

CHUNKS_PER_WORKER = 8


# ------------------------------------------------------------------------------- executors
class Local:
    """Worker processes on this machine (forked: they start with the parent's loaded files)."""

    def __init__(self, workers: int | None = None):
        self.workers = max(1, workers or os.cpu_count() or 1)
        self._pool: cf.ProcessPoolExecutor | None = None

    def _get(self) -> cf.ProcessPoolExecutor:
        if self._pool is None:
            methods = mp.get_all_start_methods()
            ctx = mp.get_context("fork" if "fork" in methods else None)
            self._pool = cf.ProcessPoolExecutor(self.workers, mp_context=ctx)
        return self._pool

    def submit(self, fn: Callable, arg: Any) -> Any:
        return self._get().submit(fn, arg)

    def wait_first(self, pending: set, timeout: float | None) -> set:
        done, _ = cf.wait(pending, timeout=timeout, return_when=cf.FIRST_COMPLETED)
        return set(done)

    def cancel(self, futures: Iterable) -> None:
        for f in futures:
            f.cancel()

    def abandon(self) -> None:
        """Stop every worker now (a chunk that never returns); the next submit starts new ones."""
        if self._pool is not None:
            for p in list(getattr(self._pool, "_processes", {}).values()):   # no public kill before 3.14
                p.kill()
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def __enter__(self) -> "Local":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"local:{self.workers}"


class Dask:
    """The workers of a Dask cluster, through a ``dask.distributed`` client."""

    def __init__(self, address: str):
        try:
            from distributed import Client
        except ImportError:
            raise ExecutorError("--executor dask://...: dask is not installed "
                                "(pip install 'grundy[dask]')") from None
        self.address = address
        try:
            self.client = Client(address, timeout=10, set_as_default=False)
        except (OSError, TimeoutError) as e:
            raise ExecutorError(f"cannot reach the Dask scheduler at {address}: {e}") from None
        self.workers = max(1, sum(self.client.nthreads().values()))

    def submit(self, fn: Callable, arg: Any) -> Any:
        return self.client.submit(fn, arg, pure=False)

    def wait_first(self, pending: set, timeout: float | None) -> set:
        from distributed import wait
        try:
            with self.client.as_current():
                done, _ = wait(list(pending), timeout=timeout, return_when="FIRST_COMPLETED")
        except TimeoutError:
            return set()
        return set(done)

    def cancel(self, futures: Iterable) -> None:
        fs = list(futures)
        if fs:
            self.client.cancel(fs)

    def abandon(self) -> None:
        pass                                  # tasks stop at their own deadline on the workers

    def close(self) -> None:
        self.client.close()

    def __enter__(self) -> "Dask":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"dask://{self.address.split('://')[-1]}"


def executor(spec: str) -> Local | Dask:
    """The executor named by ``spec``: ``local``, ``local:N`` or ``dask://HOST:PORT``.

    >>> executor("local:2").workers
    2
    >>> executor("ssh:x")
    Traceback (most recent call last):
    ...
    grundy.errors.ExecutorError: unknown executor 'ssh:x' (use local, local:N or dask://HOST:PORT)
    """
    if spec == "local":
        return Local()
    if spec.startswith("local:"):
        n = spec[len("local:"):]
        if not n.isdigit() or int(n) < 1:
            raise ExecutorError(f"bad executor {spec!r}: local:N needs a number of processes N >= 1")
        return Local(int(n))
    if spec.startswith("dask://"):
        if not spec[len("dask://"):]:
            raise ExecutorError("bad executor 'dask://': give the scheduler as dask://HOST:PORT")
        return Dask("tcp://" + spec[len("dask://"):])
    raise ExecutorError(f"unknown executor {spec!r} (use local, local:N or dask://HOST:PORT)")


class ChunkFailed:
    """A chunk that gave no result: it raised (``error``) or never came back (``timeout``)."""

    def __init__(self, why: str, timeout: bool = False):
        self.why, self.timeout = why, timeout

    def __repr__(self) -> str:
        return f"ChunkFailed({self.why!r})"


class ChunkMap:
    """The results of :func:`map_chunks`: iterate for (index, result) as chunks finish;
    ``cancel(indices)`` drops chunks whose result is no longer needed."""

    def __init__(self, ex: Local | Dask, fn: Callable, chunks: Sequence, timeout: float | None):
        self.ex, self.timeout = ex, timeout
        self.futures = {ex.submit(fn, c): i for i, c in enumerate(chunks)}
        self.pending = set(self.futures)

    def cancel(self, indices: Iterable[int]) -> None:
        drop = set(indices)
        fs = [f for f in self.pending if self.futures[f] in drop]
        self.ex.cancel(fs)
        self.pending.difference_update(fs)

    def __iter__(self) -> Iterator[tuple[int, Any]]:
        try:
            while self.pending:
                done = self.ex.wait_first(self.pending, self.timeout)
                if not done:                                   # nothing came back in time
                    lost = sorted(self.futures[f] for f in self.pending)
                    self.ex.cancel(self.pending)
                    self.pending.clear()
                    self.ex.abandon()
                    for i in lost:
                        yield i, ChunkFailed(f"no result after {self.timeout:g} s", timeout=True)
                    return
                for f in sorted(done, key=lambda f: self.futures[f]):
                    self.pending.discard(f)
                    if f.cancelled():
                        continue
                    try:
                        r = f.result()
                    except Exception as e:                    # the task raised, or its worker died
                        r = ChunkFailed(f"{type(e).__name__}: {e}")
                    yield self.futures[f], r
        finally:
            if self.pending:
                self.ex.cancel(self.pending)


def map_chunks(ex: Local | Dask, fn: Callable[[Any], Any], chunks: Sequence[Any],
               timeout: float | None = None) -> ChunkMap:
    """Run ``fn(chunk)`` for every chunk on the executor; iterating the result yields
    ``(index, result)`` as chunks finish (a :class:`ChunkFailed` for one that raised). If no
    chunk finishes for ``timeout`` seconds, every unfinished one is a timed-out ChunkFailed.

    >>> with executor("local:2") as ex:
    ...     sorted(map_chunks(ex, abs, [-3, 1, -2]))
    [(0, 3), (1, 1), (2, 2)]
    """
    return ChunkMap(ex, fn, list(chunks), timeout)


# ------------------------------------------------------------------------------- the tasks
@dataclass(frozen=True)
class Task:
    """One chunk: claim ``claim`` of theorem file ``file`` on structures start..stop-1 of its
    family (None: the whole claim), with the profile and time limit."""

    file: str
    claim: str
    profile: str
    start: int | None
    stop: int | None
    limit: float
    recheck: str = "sample"
    text: str = ""        # the theorem file's content digest when the run began ("": not checked)


_LOADED: dict[str, dict[str, Claim]] = {}      # theorem file -> its claims, per worker process


def file_digest(file: str) -> str:
    """The content digest of a theorem file ("" when it cannot be read)."""
    try:
        return hashlib.sha256(Path(file).read_bytes()).hexdigest()
    except OSError:
        return ""


def _claim(file: str, cid: str, text: str = "") -> Claim:
    """The claim ``cid`` of ``file``: the object the run began with (forked workers), else loaded
    from the file, which must still say what it said then (a claim is found by its id only in
    the file whose content is the one the run read)."""
    if cid not in _LOADED.get(file, {}):
        if not file:
            raise RuntimeError(f"claim {cid!r} has no theorem file: a remote worker cannot load it")
        if text and file_digest(file) != text:
            raise RuntimeError(f"{file} changed while its claims were checked: {cid!r} is not checked on "
                               f"another text (run again)")
        _LOADED[file] = {c.id: c for c in load_file(Path(file))}
        if cid not in _LOADED[file]:
            raise RuntimeError(f"{file}: no claim {cid!r}")
    return _LOADED[file][cid]


def run_chunk(task: Task) -> dict:
    """Check one chunk (in a worker): the verdict (JSON), positions swept, start and end times.
    The in-memory caches are released at the end (:mod:`grundy.caches`) and collected (compiled
    functions and their namespaces are cycles): a long-lived worker holds one chunk's at most."""
    from ..check import check_claim, check_part
    t0 = time.time()
    claim = _claim(task.file, task.claim, task.text)
    try:
        if task.start is None:
            v, swept = check_claim(claim, profile=task.profile, timeout=task.limit, recheck=task.recheck), 0
        else:
            assert task.stop is not None         # a chunk has both ends
            v, swept = check_part(claim, task.start, task.stop, profile=task.profile, timeout=task.limit,
                                  recheck=task.recheck)
    finally:
        release()
        gc.collect()
    return {"verdict": v.to_json(), "swept": swept, "start": t0, "end": time.time(),
            "whole": task.start is None}


def chunkable(claim: Claim) -> bool:
    """True if the claim is one plain explicit sweep (its family can be cut into chunks) using no
    lemma (a claim with ``uses=`` is checked whole: its scope names what it read from them)."""
    return (len(claim.methods) == 1 and isinstance(claim.methods[0], Explicit)
            and not isinstance(claim.methods[0], Levelled)          # one levelled run per structure, whole
            and not getattr(claim.family, "open", False)      # an open family is checked whole
            and not claim.methods[0].samples and not getattr(claim, "uses", None))


def span(family: Any) -> int:
    """How many structures (indices) the family has for chunking."""
    return family.span() if hasattr(family, "span") else len(family.items())


def cut(n: int, pieces: int) -> list[tuple[int, int]]:
    """``0..n-1`` cut into ``pieces`` (at most n) ranges of nearly equal size.

    >>> cut(10, 3)
    [(0, 3), (3, 6), (6, 10)]
    """
    pieces = max(1, min(n, pieces))
    return [(n * k // pieces, n * (k + 1) // pieces) for k in range(pieces)]


# ------------------------------------------------------------------------------- the driver
def _levelled(claim: Claim, ex: Local | Dask, profile: str, timeout: float | None, recheck: str) -> Verdict:
    """A claim with the method ``levelled``, checked in this process, its levelled runs on the
    cluster of ``ex`` (its workers write the level store: they must see this process's files)."""
    from ..check import check_claim
    from ..check.levelled import levelled_client
    with levelled_client(getattr(ex, "client", None)):
        return check_claim(claim, profile=profile, timeout=claim.limit(timeout), recheck=recheck)


def _failed(claim: Claim, why: str, verdict: str, seconds: float = 0.0) -> Verdict:
    return Verdict(claim.id, claim.kind, verdict, claim.expect, scope="", seconds=seconds, detail=why,
                   paper=claim.paper, **claim.describe())


def merge(claim: Claim, profile: str, results: list[Any], recheck: str = "sample") -> Verdict:
    """The claim's verdict from its chunks' results, in family order (see the module's text)."""
    from ..check.scope import _bounds_text
    from ..recheck import BUDGET, pass_text
    starts: list[int] = []
    ends: list[int] = []
    swept, structures, cpu = 0, 0, 0.0
    crossed, beyond = 0, 0
    sources: dict[str, int] = {}
    violated: list[str] = []
    for k, r in enumerate(results):
        if isinstance(r, ChunkFailed):
            seconds = (max(ends) - min(starts)) if starts else 0.0
            return _failed(claim, f"chunk {k + 1} of {len(results)}: {r.why}",
                           UNKNOWN if r.timeout else ERROR, seconds)
        v = Verdict.from_json(r["verdict"])
        starts.append(r["start"])
        ends.append(r["end"])
        if v.verdict != VERIFIED or r.get("whole") or (len(results) == 1 and r["swept"] > 0):
            v.seconds = max(ends) - min(starts)
            return v
        swept += r["swept"]
        cpu += v.cpu
        structures += v.coverage.get("structures", 0)
        crossed += v.coverage.get("cross_checked", 0)
        beyond += v.coverage.get("cross_check_beyond", 0)
        for what, n in v.coverage.get("sources", {}).items():
            sources[what] = sources.get(what, 0) + n
        violated += [x for x in v.coverage.get("violated", []) if x not in violated]
    from ..check.scope import _conditions
    c = claim.at(profile)
    bounds = _bounds_text(claim.bounds_for(profile))
    text = f"{c.family.scope}{', ' + bounds if bounds else ''}{_conditions(c)}: {swept:,} positions"
    if swept == 0:                          # no chunk checked anything: the claim covers nothing
        return Verdict(claim.id, claim.kind, ERROR, claim.expect, scope=text, seconds=max(ends) - min(starts),
                       detail="no position within the bounds (where assume holds) on any structure: "
                              "the check covers nothing", paper=claim.paper, coverage={"positions": 0},
                       **claim.describe())
    from ...solvers.solver import sources_text
    cross = {"cross_checked": crossed, "cross_check_beyond": beyond} if recheck != "none" else {}
    coverage: dict[str, Any] = {"positions": swept, "structures": structures, "obligations": 0, **cross}
    text += " (each one evaluated)" + pass_text(recheck, crossed, beyond, BUDGET, " per chunk")
    if sources:                             # in the order of a claim checked whole (check.served)
        coverage["sources"] = dict(sorted(sources.items(), key=lambda kv: (-kv[1], kv[0])))
        text += f"; {sources_text(coverage['sources'])}"
    if violated:
        coverage["violated"] = violated
    merged = Verdict(claim.id, claim.kind, VERIFIED, claim.expect, scope=text,
                     seconds=max(ends) - min(starts), paper=claim.paper, coverage=coverage,
                     cpu=cpu, **claim.describe())
    from ..check.covered import record
    from ..kinds import kind_of
    if kind_of(claim).gives_values:
        coverage["covered"] = record(claim, merged, profile)    # as a claim checked whole records it
    return merged


def _plan(claims: list[Claim], ex: Local | Dask, profile: str, timeout: float | None, recheck: str,
          texts: dict[str, str]) -> tuple[list[Task], list[tuple[int, int]], list[int], dict[int, Verdict], list[int]]:
    """The chunks of every claim (tasks, task -> (claim, chunk), chunks per claim), the verdicts
    known already (a claim that cannot be cut: its error), and the claims checked in the driver."""
    tasks: list[Task] = []
    owner: list[tuple[int, int]] = []                  # task -> (claim, chunk)
    plans: list[int] = []                              # claim -> number of chunks
    ready: dict[int, Verdict] = {}
    driver: list[int] = []                             # levelled claims on a Dask cluster: checked here
    for ci, c in enumerate(claims):
        limit = c.limit(timeout)
        if isinstance(ex, Dask) and any(isinstance(m, Levelled) for m in c.methods):
            driver.append(ci)
            plans.append(0)
            continue
        try:
            ranges: list[tuple[int | None, int | None]] = (
                list(cut(span(c.at(profile).family), CHUNKS_PER_WORKER * ex.workers)) if chunkable(c) else [(None, None)])
        except Exception as e:                         # e.g. geng missing: the claim's error, one line
            ready[ci] = _failed(c, f"{type(e).__name__}: {e}", ERROR)
            ranges = []
        plans.append(len(ranges))
        for k, (a, b) in enumerate(ranges):
            tasks.append(Task(c.file, c.id, profile, a, b, limit, recheck, texts.get(c.file, "")))
            owner.append((ci, k))
    return tasks, owner, plans, ready, driver


def run(claims: list[Claim], ex: Local | Dask, *, timeout: float | None = None, profile: str = "quick",
        progress: Callable[[str], None] | None = None, recheck: str = "sample") -> Iterator[Verdict]:
    """Check the claims on the executor, each cut into chunks; yield verdicts in claim order."""
    texts: dict[str, str] = {}
    for c in claims:                                   # forked local workers start with these
        _LOADED.setdefault(c.file, {})[c.id] = c
        if c.file and c.file not in texts:
            texts[c.file] = file_digest(c.file)
    tasks, owner, plans, ready, driver = _plan(claims, ex, profile, timeout, recheck, texts)
    backstop = max([c.limit(timeout) for c in claims], default=0.0) * WALL_FACTOR + settings().chunk_grace
    results: list[list[Any]] = [[None] * n for n in plans]
    first_of: dict[int, int] = {}
    for t, (ci, _k) in enumerate(owner):
        first_of.setdefault(ci, t)
    done_chunks, emitted = 0, 0
    chunks = map_chunks(ex, run_chunk, tasks, timeout=backstop)
    for ci in driver:               # the levelled engine's Dask path on the cluster's client (the
        ready[ci] = _levelled(claims[ci], ex, profile, timeout, recheck)   # store on a shared file system)
    while emitted in ready:
        yield ready.pop(emitted)
        emitted += 1
    for t, r in chunks:
        ci, k = owner[t]
        done_chunks += 1
        if ci in ready:
            continue
        results[ci][k] = r
        row = results[ci]
        for j, x in enumerate(row):                    # decided once the chunks before are in
            if x is None:
                break
            if isinstance(x, ChunkFailed) or x["verdict"]["verdict"] != VERIFIED or j == len(row) - 1:
                ready[ci] = merge(claims[ci], profile, row[:j + 1], recheck)
                chunks.cancel(first_of[ci] + m for m in range(j + 1, len(row)))
                break
        if progress is not None:
            progress(f"[{done_chunks}/{len(tasks)} chunks, {emitted + len(ready)}/{len(claims)} claims] "
                     f"{claims[ci].id}: chunk {k + 1}/{len(row)} done")
        while emitted in ready:
            yield ready.pop(emitted)
            emitted += 1
    while emitted < len(claims):                       # (only if chunks were lost without a trace)
        yield ready.pop(emitted) if emitted in ready else _failed(claims[emitted], "no result from the executor", ERROR)
        emitted += 1
