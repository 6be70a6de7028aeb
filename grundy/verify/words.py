"""A claim's statement in words when the claim gives no ``text=``: the statement function's
docstring, else its own source text (the lambda's body, or the whole ``def``), read from the user's
file. What reports show in their statement column.

>>> statement_words(lambda g, s: s.heap[0] == s.heap[1])
's.heap[0] == s.heap[1]'
>>> def nim_p(g, s):
...     '''P iff the two heaps are equal.'''
...     return s.heap[0] == s.heap[1]
>>> statement_words(nim_p)
'P iff the two heaps are equal.'
"""
from __future__ import annotations

import inspect
import linecache
import textwrap
from pathlib import Path
from typing import Any, cast

__all__ = ["statement_words", "lambda_text"]

_PACKAGE = Path(__file__).resolve().parent.parent       # grundy's own code: never shown as a statement


def statement_words(fn: Any) -> str:
    """The docstring of ``fn`` (a function written by the user), else its source text; "" when
    there is neither (a builtin, a statement grundy made, e.g. from ``table=``)."""
    if not inspect.isfunction(fn):
        return ""
    code = fn.__code__
    try:
        if Path(code.co_filename).resolve().is_relative_to(_PACKAGE):
            return ""
    except (OSError, ValueError):
        return ""
    doc = inspect.getdoc(fn)
    if doc:
        return " ".join(doc.split())
    if fn.__name__ == "<lambda>":
        return lambda_text(fn)
    try:
        return textwrap.dedent(inspect.getsource(fn)).strip()
    except (OSError, TypeError):
        return ""


def lambda_text(fn: Any) -> str:
    """The body of the lambda ``fn`` as written in its file (on one line, never cut), read from
    its code's source positions; "" where the file cannot be read."""
    code = fn.__code__
    known = [cast("tuple[int, int, int, int]", p) for p in code.co_positions() if None not in p]
    spans = [p for p in known if p[0] >= code.co_firstlineno and (p[2], p[3]) != (0, 0)]
    if not spans:
        return ""
    (l0, c0), (l1, c1) = min((p[0], p[2]) for p in spans), max((p[1], p[3]) for p in spans)
    lines = [linecache.getline(code.co_filename, n) for n in range(l0, l1 + 1)]
    if not all(lines):
        return ""
    lines[-1] = lines[-1][:c1]
    lines[0] = lines[0][c0:]
    return " ".join(" ".join(lines).split())
