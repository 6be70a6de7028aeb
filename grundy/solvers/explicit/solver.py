"""Moved to :mod:`grundy.solvers.solver` in 0.3 (the policy over every value source): every
name is still served from here, with a DeprecationWarning."""
import importlib
import warnings
from typing import Any


def __getattr__(name: str) -> Any:
    warnings.warn(f"grundy.solvers.explicit.solver.{name} is deprecated: import it from grundy.solvers.solver",
                  DeprecationWarning, stacklevel=2)
    return getattr(importlib.import_module("grundy.solvers.solver"), name)
