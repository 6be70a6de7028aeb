"""What the solvers' checkers get from above without importing it: the solver factory of
:func:`grundy.solvers.gamecheck.check_game` (installed by ``grundy/__init__.py``:
:class:`grundy.Solver`). A module of its own, so that installing it imports no checker."""
from __future__ import annotations

from typing import Any, Callable

__all__ = ["MAKE_SOLVER"]

MAKE_SOLVER: Callable[..., Any] | None = None
"""A solver factory (``max_positions``, ``symmetry``, ``decompose``, ``native`` keywords)."""
