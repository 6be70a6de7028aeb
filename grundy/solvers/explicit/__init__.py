"""The explicit-state search compiled from the rules' IR (:mod:`.compile`), and sums of
positions (:mod:`.sums`). The solver policy over every value source is
:mod:`grundy.solvers.solver`; ``Solver``, ``DEFAULT``, ``CycleError`` and ``SolverLimit`` stay
importable from here (looked up when first asked for: this package imports nothing above it).
"""
from typing import Any

from .compile import Compiled, compile_expr, compile_rules

__all__ = ["Compiled", "compile_expr", "compile_rules", "DEFAULT", "CycleError", "Solver", "SolverLimit"]

_MOVED = {"DEFAULT", "CycleError", "Solver", "SolverLimit"}     # now in grundy.solvers.solver


def __getattr__(name: str) -> Any:
    if name in _MOVED:
        from .. import solver
        return getattr(solver, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
