"""The levelled algorithm in one process, on NumPy arrays (small instances: no engine overhead).

Forward, rank from the top down: level R is the starts of rank R and every child of the levels
above with rank R, de-duplicated (``np.unique``); its children go to the levels below, where
each pending level is de-duplicated as it grows. Only the levels a move can still reach from
the levels not yet expanded are pending. Backward, rank from 0 up: each position's children
(computed again by the C, never stored) are looked up in the values of the levels below
(``np.searchsorted``: each must be there, or the forward pass missed it: an error, never a
guess), and the mex (or the outcome) taken in C. Only the last ``drop`` levels of values are
kept in memory. Both passes work in slices of ``chunk`` parents, so that the children of one
level are never all in memory at once.

Both passes resume from the store: the forward pass at the level below the last one written
(the pending levels rebuilt by expanding again the finished levels a move can reach down
from), the backward pass at the level above its last one.
"""
from __future__ import annotations

import resource
import time
from dataclasses import dataclass
from typing import Callable

import numpy as np

from .ckernel import GRUNDY, LevelError, LevelKernel
from .store import LevelStore

__all__ = ["forward", "backward", "Stopped", "Until", "CHUNK"]

CHUNK = 1 << 17            # parents per slice


Until = Callable[[], "str | None"]    # asked after each level: a reason to stop there, or None


@dataclass(frozen=True)
class Stopped:
    """Why a pass stopped before its last level (a value, as the kernel's :class:`Halt`): after
    ``max_levels`` levels, or because the caller's ``until`` said so. The levels before it are
    finished and in the store: a run with the same arguments resumes at the next one.

    >>> Stopped("after 3 levels", "forward", 17).text
    'stopped after 3 levels (forward, at rank 17)'
    """

    why: str
    pass_: str          # "forward" or "backward"
    rank: int           # the next rank the pass would have made

    @property
    def text(self) -> str:
        return f"stopped {self.why} ({self.pass_}, at rank {self.rank})"


def stop_here(made: int, max_levels: int | None, until: Until | None, pass_: str, rank: int) -> Stopped | None:
    """Whether a pass stops before ``rank``, having made ``made`` levels (None: it goes on)."""
    if max_levels is not None and made >= max_levels:
        return Stopped(f"after {made} levels", pass_, rank)
    why = until() if until is not None else None
    return None if why is None else Stopped(why, pass_, rank)


def _rss() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _merge(pending: dict[int, np.ndarray], child: np.ndarray, crank: np.ndarray) -> None:
    """Add the children to the pending levels of their ranks, each kept unique."""
    if not len(child):
        return
    o = np.argsort(crank, kind="stable")
    child, crank = child[o], crank[o]
    ranks, starts = np.unique(crank, return_index=True)
    bounds = list(starts[1:]) + [len(crank)]
    for r, a, b in zip(ranks.tolist(), starts.tolist(), bounds):
        got = child[a:b]
        old = pending.get(r)
        pending[r] = np.unique(got if old is None else np.concatenate([old, got]))


def _expand_into(kern: LevelKernel, keys: np.ndarray, r: int, pending: dict[int, np.ndarray],
                 below: int, chunk: int) -> tuple[int, int]:
    """Expand the positions ``keys`` of rank ``r`` into ``pending`` (only children of rank <
    ``below``); the children generated and the largest drop seen."""
    rows, drop = 0, 0
    for a in range(0, len(keys), chunk):
        part = keys[a:a + chunk]
        child, crank, _ = kern.expand(part, np.full(len(part), r, np.int64))
        rows += len(child)
        if len(crank):
            drop = max(drop, r - int(crank.min()))
        keep = crank < below
        _merge(pending, child[keep], crank[keep])
    return rows, drop


def forward(kern: LevelKernel, store: LevelStore, starts: dict[int, np.ndarray], chunk: int = CHUNK,
            progress: Callable[[str], None] | None = None, max_levels: int | None = None,
            until: Until | None = None) -> Stopped | None:
    """The forward pass (see the module's docstring), from where the store left it; why it
    stopped early (``max_levels`` levels made, or ``until`` said so after a level), else None."""
    top = max(starts) if starts else -1
    done = store.done("fwd")
    low = min(done) if done else top + 1        # the forward pass finishes levels from the top down
    pending: dict[int, np.ndarray] = {}
    for r in range(low, min(low + store.drop, top + 1)):   # the finished levels that reach below `low`
        _expand_into(kern, store.keys(r), r, pending, low, chunk)
    made = 0
    for r in range(low - 1, -1, -1):
        halt = stop_here(made, max_levels, until, "forward", r)
        if halt is not None:
            return halt
        t0, c0 = time.perf_counter(), time.process_time()
        got = [x for x in (pending.pop(r, None), starts.get(r)) if x is not None]
        keys = np.unique(np.concatenate(got)) if got else np.zeros(0, np.uint64)
        rows, drop = _expand_into(kern, keys, r, pending, r, chunk)
        store.set_drop(drop)
        store.put("fwd", r, [keys], {"rows": rows, "seconds": time.perf_counter() - t0,
                                     "cpu": time.process_time() - c0, "rss_mib": _rss(), "engine": "numpy"})
        made += 1
        if progress:
            progress(f"forward rank {r}: {len(keys):,} positions, {rows:,} children, "
                     f"{time.perf_counter() - t0:.2f} s")
    return None


def _lookup(live: dict[int, tuple[np.ndarray, np.ndarray]], child: np.ndarray, crank: np.ndarray) -> np.ndarray:
    """The values of the children, each found in the level of its rank (LevelError if one is not)."""
    out = np.empty(len(child), np.uint8)
    for r in np.unique(crank).tolist():
        m = crank == r
        ks, vs = live.get(r, (np.zeros(0, np.uint64), np.zeros(0, np.uint8)))
        c = child[m]
        i = np.searchsorted(ks, c)
        i[i >= len(ks)] = 0
        if not len(ks) or not np.array_equal(ks[i], c):
            raise LevelError(f"a child of rank {r} missing from its level (the forward pass is incomplete)")
        out[m] = vs[i]
    return out


def level_values(kern: LevelKernel, keys: np.ndarray, r: int, live: dict[int, tuple[np.ndarray, np.ndarray]],
                 mode: int = GRUNDY, chunk: int = CHUNK) -> tuple[np.ndarray, int]:
    """The values of the positions ``keys`` of rank ``r`` from the levels below (``live``), and the
    children generated."""
    vals = np.zeros(len(keys), np.uint8)
    rows = 0
    for a in range(0, len(keys), chunk):
        part = keys[a:a + chunk]
        child, crank, parent = kern.expand(part, np.full(len(part), r, np.int64))
        rows += len(child)
        vals[a:a + len(part)] = kern.mex(parent, _lookup(live, child, crank), len(part), mode)
    return vals, rows


def backward(kern: LevelKernel, store: LevelStore, mode: int = GRUNDY, chunk: int = CHUNK,
             progress: Callable[[str], None] | None = None, max_levels: int | None = None,
             until: Until | None = None) -> Stopped | None:
    """The backward pass (see the module's docstring), from where the store left it; why it
    stopped early, as :func:`forward`'s."""
    levels = store.done("fwd")
    done = set(store.done("val"))
    live: dict[int, tuple[np.ndarray, np.ndarray]] = {}
    made = 0
    for r in levels:
        if r in done:
            continue
        halt = stop_here(made, max_levels, until, "backward", r)
        if halt is not None:
            return halt
        for q in list(live):
            if q < r - store.drop:
                del live[q]
        for q in range(max(0, r - store.drop), r):
            if q not in live:
                live[q] = store.values(q)
        t0, c0 = time.perf_counter(), time.process_time()
        keys = store.keys(r)
        vals, rows = level_values(kern, keys, r, live, mode, chunk)
        store.put("val", r, [(keys, vals)], {"rows": rows, "seconds": time.perf_counter() - t0,
                                             "cpu": time.process_time() - c0, "rss_mib": _rss(), "engine": "numpy",
                                             "zeros": int((vals == 0).sum())})
        live[r] = (keys, vals)
        made += 1
        if progress:
            progress(f"backward rank {r}: {len(keys):,} positions, {int((vals == 0).sum()):,} of value 0, "
                     f"{time.perf_counter() - t0:.2f} s")
    return None
