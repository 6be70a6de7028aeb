"""Certificates of verdicts: bundles a third party re-checks without grundy's solvers
(:mod:`.bundle`: every SMT query as SMT-LIB 2; :mod:`.explicit`: an explicit verdict's positions,
values and the game's rules as data, for ``checker/grundy_check.py``), and their re-check by a
second SMT solver and the stand-alone checker (:mod:`.recheck`)."""
from .bundle import bundle_name, certify, verdict_digest, write_bundle
from .explicit import run_checker, write_explicit

__all__ = ["bundle_name", "certify", "verdict_digest", "write_bundle", "write_explicit", "run_checker"]
