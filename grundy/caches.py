"""The in-memory caches of one sweep, in one place: each module that keeps one registers it
(a name, its size, how to empty it), and :func:`release` empties them all.

A chunk of a parallel sweep (:func:`grundy.verify.schedule.chunks.run_chunk`) releases them when it
ends, so a long-lived worker (a Dask worker runs chunk after chunk, sweep after sweep) holds
at most one chunk's caches, each within its own bound; nothing learnt on one chunk is needed
by the next (a cache only saves work, never changes a result).

>>> import grundy.solvers.explicit.compile, grundy.spec.position
>>> {"code", "intern", "shapes"} <= set(sizes())
True
>>> release(); sizes()["shapes"]
0
"""
from __future__ import annotations

from typing import Callable

_CACHES: dict[str, tuple[Callable[[], int], Callable[[], None]]] = {}


def register(name: str, size: Callable[[], int], clear: Callable[[], None]) -> None:
    """Register a cache: ``size()`` counts its entries, ``clear()`` empties it."""
    _CACHES[name] = (size, clear)


def sizes() -> dict[str, int]:
    """The number of entries in each registered cache, by name."""
    return {name: size() for name, (size, _) in _CACHES.items()}


def release() -> None:
    """Empty every registered cache (the end of a chunk)."""
    for _, clear in _CACHES.values():
        clear()
