"""Moved to :mod:`grundy.solvers.solver` (the policy over every value source); every name
stays importable from here, looked up when first asked for."""
from typing import Any


def __getattr__(name: str) -> Any:
    from .. import solver
    return getattr(solver, name)
