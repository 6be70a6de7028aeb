"""A long sweep of one claim cut into parts by the values of its first slots, with a checkpoint.

:mod:`.chunks` cuts a family by its structures; a claim on one large structure (edge-nim on K_8,
2^28 x 8 starts) is one chunk there. Here the starts of each structure are cut instead: a *part*
pins the first ``k`` slots of a field (each to one of its values) and leaves the others to the
claim's bounds, so the 2^k parts of a field with two values cover every start exactly once.

Each part is checked as a claim of its own (:func:`~grundy.verify.check.check_claim`, its bound
on that field replaced by a :class:`Pinned` one), on an executor (``local:N``, ``dask://``).
A worker keeps its solver from part to part (the tables hold values of positions, whoever
asked; a part that hits the position limit on a solver earlier parts filled is checked again
on a fresh one, as :mod:`.pool` does). Parts with a settled verdict (``verified``, ``refuted``)
are appended to a **checkpoint**, one JSON line each, flushed as they finish, under a key made
of the claim's content (:func:`grundy.verify.cache.claim_key`: the rules as IR, the statement,
the bounds, grundy's code) and the part's pins: a run that resumes skips the parts whose key is
there, and a changed rule, claim or grundy reuses nothing (its keys differ). A part that timed
out or failed is not recorded: it is checked again.

The verdict (:func:`run_parts`) is the merge of :mod:`.chunks` over the parts, once every part
has one; a refuted part refutes the claim; until then the claim is ``unknown`` and says how
many parts are done.

>>> import tempfile, pathlib
>>> from grundy.verify.claims import Claim
>>> from grundy.verify.families import heaps
>>> c = Claim("demo/nim", game="nim", kind="char", family=heaps(3), bounds={"heap": (1, 2)},
...           statement=lambda g, s: s.heap[0] ^ s.heap[1] ^ s.heap[2] == 0)
>>> from grundy.verify.schedule.chunks import executor
>>> path = pathlib.Path(tempfile.mkdtemp()) / "demo.jsonl"
>>> with executor("local:2") as ex:
...     r = run_parts(c, ex, field="heap", k=2, path=path, stop_after=1)
...     r.verdict.verdict, r.done, r.total
...     r = run_parts(c, ex, field="heap", k=2, path=path)
...     r.verdict.verdict, r.reused, r.checked, r.verdict.swept
('unknown', 1, 4)
('verified', 1, 3, 8)
>>> bad = Claim("demo/nim", game="nim", kind="char", family=heaps(3), bounds={"heap": (1, 2)},
...             statement=lambda g, s: s.heap[0] == 1)          # changed: nothing reused
>>> with executor("local:2") as ex:
...     r = run_parts(bad, ex, field="heap", k=2, path=path)
>>> r.verdict.verdict, r.reused, r.stale
('refuted', 0, 4)
"""
from __future__ import annotations

import copy
import gc
import hashlib
import itertools
import json
import os
import resource
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from ...caches import release
from ..claims import Claim
from ..families import slot_values
from ..verdict import ERROR, REFUTED, UNKNOWN, VERIFIED, Verdict
from .chunks import ChunkFailed, Dask, Local, merge

__all__ = ["Pinned", "Part", "Checkpoint", "PartsResult", "parts", "run_part", "run_parts", "sample"]

SETTLED = (VERIFIED, REFUTED)


@dataclass(frozen=True)
class Pinned:
    """A bound function for one structure: the slots keyed in ``pins`` take their pinned value,
    the others the values the claim's own bound gives them there (``values``: key -> values,
    read once by :func:`~grundy.verify.families.slot_values`, so a part sweeps nothing the
    claim would not); ``text`` is what the claim's bound says."""

    values: tuple[tuple[Any, tuple[int, ...]], ...]
    pins: tuple[tuple[Any, int], ...]
    text: str = ""

    @property
    def __doc__(self) -> str:  # type: ignore[override]  # what a verdict's scope says of the bound
        pins = ", ".join(f"{k}: {v}" for k, v in self.pins)
        return f"{self.text} with the slots {{{pins}}} pinned"

    def __call__(self, g: Any, key: Any) -> list[int]:
        for k, v in self.pins:
            if k == key:
                return [v]
        for k, vs in self.values:
            if k == key:
                return list(vs)
        raise KeyError(f"no slot {key!r} in the part's structure")


@dataclass(frozen=True)
class Part:
    """One part: the claim (``claim_of()`` builds it in the worker), the pins of ``field``, the
    time limit, the profile, the reference engine's share, and the solver's position limit."""

    claim_of: Callable[[], Claim]
    field: str
    pins: tuple[tuple[Any, int], ...]
    key: str
    limit: float
    profile: str = "quick"
    recheck: str = "sample"
    max_positions: int = 20_000_000


def parts(claim: Claim, field: str, k: int, profile: str = "quick") -> list[tuple[tuple[Any, int], ...]]:
    """The pins of every part: the first ``k`` slots of ``field`` on the claim's structure (one
    structure: a family of several is cut by :mod:`.chunks`), each to every value it takes.

    >>> from grundy.verify.claims import Claim
    >>> from grundy.verify.families import heaps
    >>> c = Claim("demo", game="nim", kind="char", family=heaps(3), bounds={"heap": (1, 2)},
    ...           statement=lambda g, s: True)
    >>> parts(c, "heap", 2)
    [((0, 1), (1, 1)), ((0, 1), (1, 2)), ((0, 2), (1, 1)), ((0, 2), (1, 2))]
    """
    from ...spec.games import GAMES
    c = claim.at(profile)
    items = list(c.family.items())
    if len(items) != 1:
        raise ValueError(f"claim {claim.id!r}: parts need a family of one structure ({len(items)} here)")
    rules = GAMES[c.game].rules(items[0][1])
    slots = [(i, key) for i, (name, key) in enumerate(rules.schema.slots) if name == field]
    if k > len(slots):
        raise ValueError(f"claim {claim.id!r}: {k} slots to pin, the field {field!r} has {len(slots)}")
    vals = slot_values(rules, c.bounds_for(profile))
    keys = [key for _, key in slots[:k]]
    return [tuple(zip(keys, combo, strict=True)) for combo in itertools.product(*(vals[i] for i, _ in slots[:k]))]


def pinned(claim: Claim, field: str, pins: tuple[tuple[Any, int], ...], profile: str = "quick") -> Claim:
    """The claim on the starts of one part only (its bound on ``field`` pinned)."""
    from ...spec.games import GAMES
    from ..check.scope import _bounds_text
    c = copy.copy(claim.at(profile))
    bounds = c.bounds_for(profile)
    rules = GAMES[c.game].rules(next(iter(c.family.items()))[1])
    vals = slot_values(rules, bounds)
    mine = tuple((key, tuple(v)) for (name, key), v in zip(rules.schema.slots, vals, strict=True) if name == field)
    text = _bounds_text({field: bounds[field]}) if field in bounds else f"{field}: every value"
    c.bounds = c.full = {**bounds, field: Pinned(mine, pins, text)}
    return c


# ------------------------------------------------------------------------------- the worker
_SOLVER: dict[str, Any] = {}            # per worker process: the solver its parts share
_CLAIM: dict[str, Claim] = {}           # ... and the claim they are parts of


def run_part(part: Part) -> dict:
    """Check one part (in a worker) on the worker's solver: the verdict (JSON), the positions
    swept, its start and end, the worker's CPU seconds, positions stored and peak RSS (MiB)."""
    from ...solvers.solver import Solver
    from ..check import check_claim
    t0, c0 = time.time(), time.process_time()
    base = part.key.split(":")[0]
    if base not in _CLAIM:              # built once per worker and claim
        from ..cache import claim_key
        _CLAIM.clear()
        built = part.claim_of()
        if claim_key(built, _options(part.profile, part.recheck, part.field)) != base:
            raise RuntimeError(f"claim {built.id!r} as built in this worker is not the claim of the run "
                               "(its content key differs)")
        _CLAIM[base] = built
    claim = pinned(_CLAIM[base], part.field, part.pins, part.profile)
    solver = _SOLVER.get(base)
    if solver is None or solver.stored >= solver.max_positions:
        _SOLVER.clear()
        release()
        gc.collect()
        solver = _SOLVER[base] = Solver(native="always", max_positions=part.max_positions)
    filled = solver.stored > 0
    v = check_claim(claim, profile=part.profile, timeout=part.limit, solver=solver, recheck=part.recheck)
    if v.verdict == ERROR and filled and "positions" in v.detail and "limit" in v.detail:
        _SOLVER.clear()                 # the limit of a solver earlier parts filled: again, alone
        release()
        gc.collect()
        solver = _SOLVER[base] = Solver(native="always", max_positions=part.max_positions)
        v = check_claim(claim, profile=part.profile, timeout=part.limit, solver=solver, recheck=part.recheck)
    return {"verdict": v.to_json(), "swept": v.swept, "start": t0, "end": time.time(),
            "cpu": time.process_time() - c0, "stored": solver.stored, "pid": os.getpid(),
            "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}


def sample() -> dict:
    """What this worker holds now (read while a part runs, e.g. through Dask's ``client.run``):
    its solver's positions stored, its CPU seconds, its resident and peak memory (MiB)."""
    rss = 0.0
    try:
        with open("/proc/self/statm") as f:
            rss = int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2 ** 20
    except OSError:
        pass
    return {"stored": sum(s.stored for s in _SOLVER.values()), "cpu": time.process_time(), "rss": rss,
            "peak": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, "pid": os.getpid()}


# ------------------------------------------------------------------------------- the store
class Checkpoint:
    """The parts done, one JSON line each ``{"key", "pins", "result"}``, appended and flushed
    as they finish. A line cut short (the run killed while writing) is ignored."""

    def __init__(self, path: str | os.PathLike[str] | None):
        self.path = Path(path) if path is not None else None
        self.done: dict[str, dict] = {}
        self.stale = 0                    # lines under keys this run does not have
        if self.path is not None and self.path.exists():
            with open(self.path, encoding="utf-8") as f:
                for line in f:
                    try:
                        d = json.loads(line)
                        self.done[d["key"]] = d["result"]
                    except (ValueError, KeyError, TypeError):
                        continue

    def settle(self, keys: set[str]) -> None:
        """Keep only the parts of this run (count the others as stale)."""
        self.stale = sum(k not in keys for k in self.done)
        self.done = {k: r for k, r in self.done.items() if k in keys}

    def add(self, key: str, pins: Any, result: dict) -> None:
        self.done[key] = result
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with open(self.path, "a", encoding="utf-8") as f:
            f.write(json.dumps({"key": key, "pins": pins, "result": result}) + "\n")
            f.flush()
            os.fsync(f.fileno())


def part_key(base: str, pins: tuple[tuple[Any, int], ...]) -> str:
    """The key of one part: the claim's content key and the pins."""
    return base + ":" + hashlib.sha256(json.dumps([list(p) for p in pins]).encode()).hexdigest()[:32]


@dataclass
class PartsResult:
    """What :func:`run_parts` established: the verdict, the parts done (reused from the
    checkpoint, checked now), the total, the stale lines, the results of the parts checked now,
    and the parts that ran without a settled verdict."""

    verdict: Verdict
    done: int
    total: int
    reused: int
    checked: int
    stale: int
    results: list[dict] = field(default_factory=list)
    failed: int = 0                       # parts that ran and settled nothing (timed out, failed)
    why: str = ""                         # the first one's reason
    abandoned: int = 0                    # parts still running at the budget's end


_HELD: dict[str, Claim] = {}           # claims held here, by key: forked local workers inherit them


@dataclass(frozen=True)
class _Held:
    """The claim of key ``key`` held by the process that forked the worker (pickles as its key)."""

    key: str

    def __call__(self) -> Claim:
        return _HELD[self.key]


def _options(profile: str, recheck: str, field: str) -> dict[str, Any]:
    return {"profile": profile, "recheck": recheck, "parts": field}


def _settle(f: Any, out: PartsResult, store: "Checkpoint", key: str, pin: Any) -> bool:
    """One finished part: stored and counted when settled (counted as failed otherwise: checked
    again next time); True when it refutes the claim."""
    try:
        r = f.result()
    except Exception as e:      # noqa: BLE001  (the part raised, or its worker died)
        r = ChunkFailed(f"{type(e).__name__}: {e}")
    if isinstance(r, ChunkFailed) or r["verdict"]["verdict"] not in SETTLED:
        out.failed += 1
        out.why = out.why or (r.why if isinstance(r, ChunkFailed) else
                              f"{r['verdict']['verdict']}: {r['verdict'].get('detail', '')}")
        return False
    store.add(key, [list(p) for p in pin], r)
    out.results.append(r)
    out.checked += 1
    out.done += 1
    return bool(r["verdict"]["verdict"] == REFUTED)


def run_parts(claim: Claim, ex: Local | Dask, *, field: str, k: int, path: str | os.PathLike[str] | None = None,
              budget: float | None = None, limit: float | None = None, profile: str = "quick",
              recheck: str = "sample", claim_of: Callable[[], Claim] | None = None,
              max_positions: int = 20_000_000, stop_after: int | None = None,
              progress: Callable[[PartsResult], None] | None = None) -> PartsResult:
    """Check the claim part by part on the executor, skipping the parts the checkpoint at
    ``path`` holds under this claim's key, for at most ``budget`` seconds (parts still running
    then are abandoned: checked again next time) and at most ``stop_after`` new parts (a run
    stopped early, as if interrupted). ``claim_of`` builds the claim in the worker (a Dask
    worker cannot load a claim built in this process; default: the claim, held by its key in
    this process, which forks the local workers again to hand it over). ``progress`` is given
    the result so far as parts finish, and every 30 s. A claim whose key cannot be built
    (:class:`~grundy.verify.cache.NotCacheable`) cannot be checkpointed: it raises."""
    from ..cache import claim_key
    t0 = time.monotonic()
    pins = parts(claim, field, k, profile)
    base = claim_key(claim, _options(profile, recheck, field))
    keys = [part_key(base, p) for p in pins]
    store = Checkpoint(path)
    store.settle(set(keys))
    reused = sum(key in store.done for key in keys)
    todo = [i for i, key in enumerate(keys) if key not in store.done]
    if stop_after is not None:
        todo = todo[:stop_after]
    each = claim.limit(limit)
    out = PartsResult(Verdict(claim.id, claim.kind, UNKNOWN, claim.expect), reused, len(pins), reused, 0, store.stale)
    if claim_of is None and base not in _HELD:
        _HELD[base] = claim
        if isinstance(ex, Local):
            ex.close()                    # its workers are forked again, holding this claim
    make = claim_of or _Held(base)
    window = 2 * ex.workers               # parts in flight: each gets the time left when it starts
    pending: dict[Any, int] = {}
    queue: Iterator[int] = iter(todo)
    refuted = False

    def left() -> float:
        return each if budget is None else min(each, budget - (time.monotonic() - t0))

    try:
        while True:
            while len(pending) < window and not refuted and left() > 1:
                i = next(queue, None)
                if i is None:
                    break
                pending[ex.submit(run_part, Part(make, field, pins[i], keys[i], left(), profile, recheck,
                                                 max_positions))] = i
            if not pending:
                break
            over = None if budget is None else budget - (time.monotonic() - t0) + 30
            if over is not None and over <= 0:          # past the budget and its grace: abandoned
                break
            done = ex.wait_first(set(pending), min(over, 30.0) if over is not None else 30.0)
            for f in done:
                i = pending.pop(f)
                refuted = _settle(f, out, store, keys[i], pins[i]) or refuted
            if progress is not None:
                progress(out)
    finally:
        out.abandoned = len(pending)
        if pending:
            ex.cancel(pending)
            ex.abandon()
    results = [store.done.get(key) for key in keys]
    bad = next((r for r in results if r is not None and r["verdict"]["verdict"] == REFUTED), None)
    if bad is not None:
        out.verdict = merge(claim, profile, [bad], recheck)
    elif all(r is not None for r in results):
        out.verdict = merge(claim, profile, [r for r in results if r is not None], recheck)
    else:
        out.verdict.detail = (f"{out.done:,} of {len(pins):,} parts done ({out.reused:,} from the checkpoint); "
                              "the others not yet checked"
                              + (f"; {out.failed:,} ran without a settled verdict (the first: {out.why})"
                                 if out.failed else "")
                              + (f"; {out.abandoned:,} still running at the end of the budget, abandoned"
                                 if out.abandoned else ""))
    out.verdict.seconds = time.monotonic() - t0
    return out
