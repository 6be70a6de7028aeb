"""What stops a solver: a limit on the positions it stores, a rank that does not decrease.

Raised by every solver (:class:`grundy.solvers.solver.Solver`; both are defined in :mod:`grundy.errors`) and
caught by what runs one (:mod:`grundy.solvers.gamecheck`) without importing a solver class.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ..errors import CycleError, SolverLimit

if TYPE_CHECKING:
    from ..spec.game import Rules

__all__ = ["SolverLimit", "CycleError", "cycle_error"]


def cycle_error(rules: "Rules") -> CycleError:
    """The error of a move back to a position on the current line, naming the game."""
    return CycleError(f"{rules.game.name}: a move returns to an earlier position; its rank does not decrease")
