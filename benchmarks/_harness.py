"""What the benchmark scripts share: peak memory, and a run in a child process with a time limit."""
from __future__ import annotations

import multiprocessing
import resource
from typing import Any, Callable


def rss(who: int = resource.RUSAGE_SELF) -> float:
    """Peak resident memory in MiB (of this process, or of its finished children)."""
    return resource.getrusage(who).ru_maxrss / 1024


def in_child(fn: Callable[[], Any], timeout: float) -> Any | None:
    """``fn()`` in a forked process (its memory apart from ours), killed after ``timeout``
    seconds: its result, or None."""
    ctx = multiprocessing.get_context("fork")
    recv, send = ctx.Pipe(duplex=False)
    child = ctx.Process(target=lambda: send.send(fn()))
    child.start()
    send.close()
    out = None
    if recv.poll(timeout):
        try:
            out = recv.recv()
        except EOFError:
            raise SystemExit("the child process failed") from None
    else:
        child.kill()
    child.join()
    return out
