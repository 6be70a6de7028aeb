"""The small public API: ``solve`` positions given as the CLI takes them (a dict, a JSON
string, a list of positions) or as :class:`~grundy.spec.position.Position` objects."""
from __future__ import annotations

import warnings
from typing import Any

from .errors import DeclarationWarning
from .solvers.solver import DEFAULT, Solver
from .spec.reader import PositionLike, as_position, decode_json

__all__ = ["solve", "as_position", "value_key", "SolveResult"]



class SolveResult(dict[str, Any]):
    """What :func:`solve` returns: a plain dict (``grundy``, ``outcome``, ...) that a notebook
    shows as a small table (the renderer is registered with IPython by :mod:`grundy`)."""


def value_key(convention: str) -> str:
    """The name of the value in a result: ``grundy`` (normal play) or ``misere_grundy``."""
    return "grundy" if convention == "normal" else "misere_grundy"


def solve(position: PositionLike | list[Any], *, winning_moves: bool = False, outcome_only: bool = False,
          line: bool = False, solver: Solver | None = None, value_budget: int | None = None) -> Any:
    """Solve one position, or a list of them (a list of results): its Grundy value and its
    ``outcome``, both in the position's convention. In misère play the value is the misère
    Grundy value (the mex of the options' values, 1 at a terminal position: P iff it is 0),
    under the key ``misere_grundy``, never ``grundy``.

    Parameters
    ----------
    position : dict, str, Position, SumPosition or list
        A position as the CLI takes it (``{"game": "nim", "heaps": [1, 2]}``, its JSON text,
        a :class:`~grundy.spec.position.Position`), or a list of them (or JSON text of a list).
    winning_moves : bool
        Also list every winning move (``"winning_moves"``: the move's label and the position
        it leads to).
    outcome_only : bool
        Only the outcome (no value: cheaper where the outcome kernel serves).
    line : bool
        Also a line of play winning for the player who wins (``"line"``).
    solver : Solver, optional
        The solver to ask (default: one shared by the process, keeping its tables).
    value_budget : int, optional
        For a position whose outcome a source answering outcomes only answers (the misère
        quotient, for a misère sum of heaps; ``Solver.outcome_alone``): the most positions
        a search for its misère Grundy value may store (about). Beyond it the value is not
        searched for: ``misere_grundy`` is None and ``value_not_computed`` says why (the
        outcome stays exact). None (the default): the value is always searched for.

    Returns
    -------
    SolveResult or list of SolveResult
        A dict: ``grundy`` (``misere_grundy`` in misère play), ``outcome`` (``"P"`` or
        ``"N"``), ``convention`` when not normal, and the lists asked for (and
        ``value_not_computed``, see ``value_budget``).

    Raises
    ------
    grundy.errors.InputError
        A position that cannot be read (one line naming the field).
    grundy.errors.SolverLimit
        More positions to store than the solver's ``max_positions``.
    grundy.errors.CycleError
        A move returns to a position on the current line (the game has no rank).

    Examples
    --------
    >>> solve({"game": "wythoff", "heaps": [3, 5]})
    {'grundy': 0, 'outcome': 'P'}
    >>> solve({"game": "nim", "heaps": [1, 2]}, winning_moves=True)["winning_moves"]
    [{'move': 'take 1 from heap 2', 'to': {'game': 'nim', 'heaps': [1, 1]}}]
    >>> solve({"game": "sum", "parts": [{"game": "nim", "heaps": [2]}, {"game": "wythoff", "heaps": [1, 2]}]})
    {'grundy': 2, 'outcome': 'N'}
    >>> solve('{"game": "nim", "heaps": [1, 1], "convention": "misere"}')
    {'misere_grundy': 1, 'outcome': 'N', 'convention': 'misere'}
    >>> [r["grundy"] for r in solve('[{"game": "nim", "heaps": [1]}, {"game": "nim", "heaps": [2, 2]}]')]
    [1, 0]
    >>> big = solve({"game": "octal", "code": "0.75", "heaps": [10**4, 9999], "convention": "misere"},
    ...             value_budget=10**6)
    >>> big["misere_grundy"], big["outcome"], big["value_not_computed"].split(":")[0]
    (None, 'N', 'misère Grundy value not computed')
    """
    if isinstance(position, str) and position.lstrip().startswith("["):
        position = decode_json(position)
    if isinstance(position, list):
        return [solve(p, winning_moves=winning_moves, outcome_only=outcome_only, line=line, solver=solver)
                for p in position]
    solver = solver or DEFAULT
    pos = as_position(position)
    seen = len(solver.violations)
    out: dict[str, Any] = SolveResult()
    skipped = None
    if not outcome_only:
        if value_budget is not None:            # a source answering outcomes only may answer alone
            skipped = solver.outcome_alone(pos, value_budget)
        out[value_key(pos.convention)] = solver.grundy(pos) if skipped is None else None
    out["outcome"] = solver.outcome(pos) if skipped is None else skipped[0]
    if pos.convention != "normal":
        out["convention"] = pos.convention
    if skipped is not None:
        out["value_not_computed"] = skipped[1]
    if winning_moves:
        out["winning_moves"] = [{"move": lab, "to": q.to_json()} for lab, q in solver.winning_moves(pos)]
    if line:
        out["line"] = [{"move": lab, "to": q.to_json()} for lab, q in solver.winning_line(pos)]
    for text in solver.violations[seen:]:      # a declaration found false: not used, and said
        warnings.warn(text, DeclarationWarning, stacklevel=2)
    return out
