"""The small public API: ``solve`` one position given as JSON (a dict) or a Position."""
from __future__ import annotations

from typing import Any

from .solvers.explicit import DEFAULT, Solver
from .spec.position import Position, read_position


def as_position(position: dict | Position) -> Position:
    return position if isinstance(position, Position) else read_position(position)


def solve(position: dict | Position, *, winning_moves: bool = False, outcome_only: bool = False,
          line: bool = False, solver: Solver | None = None) -> dict[str, Any]:
    """Solve one position: normal-play ``grundy`` value and ``outcome`` in its convention.

    >>> solve({"game": "wythoff", "heaps": [3, 5]})
    {'grundy': 0, 'outcome': 'P'}
    >>> solve({"game": "nim", "heaps": [1, 2]}, winning_moves=True)["winning_moves"]
    [{'move': 'take 1 from heap 1', 'to': {'game': 'nim', 'heaps': [1, 1]}}]
    """
    solver = solver or DEFAULT
    pos = as_position(position)
    out: dict[str, Any] = {}
    if not outcome_only:
        out["grundy"] = solver.grundy(pos)
    out["outcome"] = solver.outcome(pos)
    if pos.convention != "normal":
        out["convention"] = pos.convention
    if winning_moves:
        out["winning_moves"] = [{"move": lab, "to": q.to_json()} for lab, q in solver.winning_moves(pos)]
    if line:
        out["line"] = [{"move": lab, "to": q.to_json()} for lab, q in solver.winning_line(pos)]
    return out
