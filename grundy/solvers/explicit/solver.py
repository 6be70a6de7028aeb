"""Moved to :mod:`grundy.solvers.solver` in 0.3 (the policy over every value source): its
names are still served from here, with a DeprecationWarning."""
import importlib
import warnings
from typing import Any


def __getattr__(name: str) -> Any:
    home = importlib.import_module("grundy.solvers.solver")
    if name.startswith("__") or not hasattr(home, name):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    warnings.warn(f"grundy.solvers.explicit.solver.{name} is deprecated: import it from grundy.solvers.solver",
                  DeprecationWarning, stacklevel=2)
    return getattr(home, name)
