"""The explicit-state search compiled from the rules' IR (:mod:`.compile`), and sums of
positions (:mod:`.sums`). The solver policy over every value source is
:mod:`grundy.solvers.solver` (``grundy.Solver``); ``Solver``, ``DEFAULT``, ``CycleError`` and
``SolverLimit`` are still served from here, with a DeprecationWarning.
"""
import importlib
import warnings
from typing import Any

from .compile import Compiled, compile_expr, compile_rules

__all__ = ["Compiled", "compile_expr", "compile_rules"]

_MOVED = {"DEFAULT", "CycleError", "Solver", "SolverLimit"}     # in grundy.solvers.solver since 0.3


def __getattr__(name: str) -> Any:
    if name in _MOVED:
        warnings.warn(f"grundy.solvers.explicit.{name} is deprecated: import it from grundy.solvers.solver",
                      DeprecationWarning, stacklevel=2)
        return getattr(importlib.import_module("grundy.solvers.solver"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
