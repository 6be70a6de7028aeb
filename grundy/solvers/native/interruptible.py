"""A long C call that Ctrl-C can stop: the call runs in a helper thread (ctypes releases the
GIL while C runs) and the main thread waits on it in short slices, so that Python's signal
handlers run. On a KeyboardInterrupt the C loop's stop flag (a ``volatile int`` it reads at
each step) is set, the helper thread ends, and the caller gets :class:`Interrupted` with how
far the call had filled its output: no C loop is left running behind a notebook's Ctrl-C.

>>> import ctypes
>>> out, stop = (ctypes.c_uint32 * 4)(), ctypes.c_int(0)
>>> call_filling(lambda: [out.__setitem__(i, i) for i in range(4)] and 0, out, stop)
0
"""
from __future__ import annotations

import ctypes
import threading
import time
from typing import Any, Callable

__all__ = ["Interrupted", "call_filling", "UNSET"]

UNSET = 0xFFFFFFFF          # an entry the call has not written yet (values are far below it)
SLICE = 0.05                # seconds the main thread waits between looks at its signals


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a long call: ``done`` entries of its output were written (a prefix)."""

    def __init__(self, done: list[int]):
        super().__init__(f"interrupted after {len(done)} values")
        self.done = done


def call_filling(fn: Callable[[], Any], out: Any, stop: Any) -> Any:
    """``fn()`` (a C call that writes the ctypes array ``out`` in order, from its start),
    interruptible by Ctrl-C.
    ``out`` is first set to :data:`UNSET`, so that the prefix written is known when it stops;
    ``stop``: the C loop's stop flag (a ``ctypes.c_int``, e.g. ``c_int.in_dll(lib, "rv_stop")``)."""
    stop.value = 0
    ctypes.memset(out, 0xFF, ctypes.sizeof(out))           # every entry UNSET
    result: list[Any] = []
    failed: list[BaseException] = []
    done = threading.Event()

    def run() -> None:
        try:
            result.append(fn())
        except BaseException as e:          # handed to the caller
            failed.append(e)
        finally:
            done.set()

    worker = threading.Thread(target=run, name="grundy-c-call", daemon=True)
    worker.start()
    try:
        # time.sleep, not Thread.join: a KeyboardInterrupt inside join's lock wait can leave the
        # thread's lock so that a later join never returns (CPython)
        while not done.is_set():
            time.sleep(SLICE)
    except KeyboardInterrupt:
        stop.value = 1                      # the loop returns at its next step
        while not done.is_set():
            time.sleep(0.005)
        lo, hi = 0, len(out)                # the entries written are a prefix: the first UNSET ends it
        while lo < hi:
            mid = (lo + hi) // 2
            if out[mid] == UNSET:
                hi = mid
            else:
                lo = mid + 1
        raise Interrupted(list(out[:lo])) from None
    if failed:
        raise failed[0]
    return result[0]
