"""The thresholds of the package in one record: where a path changes (C from Python, a batch
from one by one, a sample from every position), how much a check may spend, when the
progress line shows.

Every one is a size or a time that chooses *how* an answer is computed, never *what* it is
(the answers are the same on both sides of each; tests move them to reach both sides). The
code reads them where it uses them, from :func:`current`; a test (or a script) changes them
for a block with :func:`override`, which restores them after, and rejects a misspelt name.

>>> current().native_after
20000
>>> with override(native_after=40, batch_from=10):
...     current().native_after, current().batch_from
(40, 10)
>>> current().native_after
20000
>>> with override(native_afterr=1):
...     pass
Traceback (most recent call last):
...
TypeError: no setting named 'native_afterr' (grundy.settings.Settings)
"""
from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, fields, replace
from typing import Any, Iterator

__all__ = ["Settings", "current", "override", "DEFAULTS"]


@dataclass(frozen=True)
class Settings:
    """The thresholds (the defaults are the package's; see each field's comment)."""

    # -- the solver (grundy.solvers): which engine answers
    native_after: int = 20_000   # positions the Python path stores on a table before its kernel is built
                                 # (building one costs about half a second; small tables never pay for it)
    reduce_after: int = 2_000    # positions the Python path stores on a table before it asks for the
                                 # premises of its reductions (a Z3 proof costs some 10-100 ms)
    quick_box: int = 2 ** 17     # kernels on boxes up to this many positions are compiled with -Og: they
                                 # solve at most this many positions, where 1.4-1.9x slower code costs
                                 # less than the optimizer's 0.3 s (many small structures, each its own kernel)
    upgrade_after: int | None = None   # a kernel on a larger box starts with -Og too, and is compiled with
                                 # -O2 once a search has paused this many times (65,536 steps each); None:
                                 # as many as the optimizer's estimated time asks (kernel.upgrade_pauses)
    premise_rlimit: int = 60_000_000   # Z3 resource units a premise may use (deterministic)
    # -- the checks (grundy.verify): how a claim's sweep runs
    batch_from: int = 20_000     # a sweep batches its starts on structures with at least this many
    c_always: int = 20_000       # structures with at least this many starts are swept in C (where it serves)
    c_from: int = 5_000          # ... from this many, only where the kernel is worth it (csweep.worth)
    pilot: int = 256             # starts judged in Python first, whose work tells what the rest would cost
    py_store: float = 15e-6      # seconds the Python path spends per position its solver stores ...
    py_judge: float = 2e-6       # ... and per start judged; set against the kernel's compiler time
    c_quick: int = 2 ** 19       # below this many starts a sweep's kernel is compiled with -Og (the
                                 # compiler time of -O0, 1.7-1.9x less than -O1's). 2^19, not 2^17 as with
                                 # -O0: on the main job's 11 claims with sweeps of 2^17 to 2^20 starts,
                                 # 9.3-9.7 s -> 8.3-8.6 s (docs/performance.md)
    sample_above: int = 200_000  # an explicit certificate with more positions is written as a seeded sample
    sample_size: int = 2_000     # ... of about this many positions
    max_structures: int = 2_000  # a family with more structures is not cached (its key would cost too much)
    worker_grace: float = 2.0    # CPU seconds a worker gets past its limit before it is killed
    chunk_grace: float = 10.0    # seconds without any finished chunk, past WALL_FACTOR times the longest
                                 # limit, before a chunked run gives up
    # -- the command line (grundy.cli): when a solve is estimated first, the progress line
    large_box: int = 2_000_000   # positions in the box below a position: a solve worth an estimate first
    large_heap: int = 5_000      # one heap's values up to here: worth an estimate first
    progress_delay: float = 1.0  # seconds before the progress line shows on a terminal
    progress_tick: float = 0.5   # seconds between two redraws of the progress line


DEFAULTS = Settings()
_current = DEFAULTS


def current() -> Settings:
    """The settings in force."""
    return _current


@contextmanager
def override(**changes: Any) -> Iterator[Settings]:
    """The settings with ``changes`` in force for the block (nested blocks stack; the previous
    ones come back on leaving, an error included). TypeError: a name that is no setting."""
    global _current
    known = {f.name for f in fields(Settings)}
    for name in changes:
        if name not in known:
            raise TypeError(f"no setting named {name!r} (grundy.settings.Settings)")
    before = _current
    _current = replace(before, **changes)
    try:
        yield _current
    finally:
        _current = before
