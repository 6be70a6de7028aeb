"""Certificates of verdicts: bundles a third party re-checks without grundy's solvers
(:mod:`.bundle`), and their re-check by a second SMT solver (:mod:`.recheck`)."""
from .bundle import bundle_name, certify, verdict_digest, write_bundle

__all__ = ["bundle_name", "certify", "verdict_digest", "write_bundle"]
