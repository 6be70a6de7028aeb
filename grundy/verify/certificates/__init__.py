"""Certificates of verdicts: bundles a third party can re-check without grundy's solvers."""
from .explicit import run_checker, write_explicit

__all__ = ["write_explicit", "run_checker"]
