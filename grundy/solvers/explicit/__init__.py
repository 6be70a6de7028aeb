"""The explicit-state solver, compiled from the rules' IR."""
from .compile import Compiled, compile_expr, compile_rules
from .solver import DEFAULT, CycleError, Solver, SolverLimit

__all__ = ["Compiled", "compile_expr", "compile_rules", "DEFAULT", "CycleError", "Solver", "SolverLimit"]
