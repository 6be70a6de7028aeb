"""Positions written as text, read before they are read as positions: one JSON value, a
JSON list of them, or JSON lines (what ``grundy solve FILE`` and :func:`grundy.solve` take),
and :func:`as_position`, a position from any of the forms users give one in.
Malformed JSON is reported the same way everywhere: what is wrong, and the column.
"""
from __future__ import annotations

import json
from typing import Any, Iterator, Union

from ..errors import InputError
from .position import Position, SumPosition, read_position

__all__ = ["malformed_json", "decode_json", "positions_from_text", "as_position", "PositionLike"]

PositionLike = Union[dict[str, Any], str, Position, SumPosition]


def malformed_json(e: json.JSONDecodeError) -> str:
    """How bad JSON is reported: what is wrong and the column where it is."""
    return f"malformed JSON ({e.msg} at column {e.colno})"


def decode_json(text: str) -> Any:
    """The JSON value of ``text``; InputError (saying where) if it is malformed.

    >>> decode_json('{"game": "nim"')
    Traceback (most recent call last):
    ...
    grundy.errors.InputError: malformed JSON (Expecting ',' delimiter at column 15)
    """
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise InputError("", malformed_json(e)) from None


def positions_from_text(text: str) -> Iterator[tuple[int, Any, str | None]]:
    """(index, decoded JSON object, error or None) for each position written in ``text``: one
    JSON value, a JSON list of them, or JSON lines (one per line; a malformed line is an error
    of its own, the others are read). Objects are not read as positions here.

    >>> list(positions_from_text('[{"game": "nim", "heaps": [1]}, {"game": "nim", "heaps": [2]}]'))
    [(0, {'game': 'nim', 'heaps': [1]}, None), (1, {'game': 'nim', 'heaps': [2]}, None)]
    >>> list(positions_from_text('{"game": "nim", "heaps": [1]}\\n{"game": "nim"'))
    [(0, {'game': 'nim', 'heaps': [1]}, None), (1, None, "line 2: malformed JSON (Expecting ',' delimiter at column 15)")]
    """
    stripped = text.strip()
    if not stripped:
        return
    try:
        data = json.loads(stripped)
    except json.JSONDecodeError:
        lines = [ln for ln in stripped.splitlines() if ln.strip()]
        for i, ln in enumerate(lines):
            try:
                yield i, json.loads(ln), None
            except json.JSONDecodeError as e:
                yield i, None, f"line {i + 1}: {malformed_json(e)}"
        return
    if isinstance(data, list):
        yield from ((i, obj, None) for i, obj in enumerate(data))
    else:
        yield 0, data, None


def as_position(position: PositionLike) -> Position | SumPosition:
    """A :class:`Position` from a dict, a JSON string of one object, or a Position.

    Parameters
    ----------
    position : dict, str, Position or SumPosition
        The position as the CLI reads it (``{"game": ..., "heaps": [...]}``), its JSON text,
        or a position object (returned as it is).

    Returns
    -------
    Position or SumPosition

    Raises
    ------
    grundy.errors.InputError
        Text that is not JSON, or a field the game does not take (one line naming it).

    Examples
    --------
    >>> as_position('{"game": "nim", "heaps": [1, 2]}').state
    (1, 2)
    """
    if isinstance(position, (Position, SumPosition)):
        return position
    if isinstance(position, str):
        position = decode_json(position)
    return read_position(position)
