"""A progress line on stderr, for the commands that run long (``grundy verify``, ``grundy solve``).

On a terminal the line is redrawn in place (``\\r``); elsewhere (a log) a line is written at
most every 5 seconds. :meth:`Progress.clear` wipes the line before other output.

>>> import io, sys
>>> saved, sys.stderr = sys.stderr, io.StringIO()
>>> p = Progress(tty=False)
>>> p("solve: 1 of 3 positions"); p("solve: 2 of 3 positions")      # the second: within 5 s
>>> text, sys.stderr = sys.stderr.getvalue(), saved
>>> text.splitlines()
['solve: 1 of 3 positions']
"""
from __future__ import annotations

import shutil
import sys
import time

__all__ = ["Progress"]


class Progress:
    """Call with the current text; ``tty``: redraw in place, else log every 5 s at most."""

    def __init__(self, tty: bool):
        self.tty, self.last, self.when = tty, "", 0.0
        self.width = shutil.get_terminal_size((100, 20)).columns - 1

    def __call__(self, text: str) -> None:
        if text == self.last:
            return
        now = time.monotonic()
        if not self.tty and now - self.when < 5:      # a log, not an animation: every 5 s at most
            return
        self.last, self.when = text, now
        if self.tty:
            sys.stderr.write("\r" + text[: self.width].ljust(self.width))
        else:
            sys.stderr.write(text + "\n")
        sys.stderr.flush()

    def clear(self) -> None:
        if self.tty and self.last:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()
