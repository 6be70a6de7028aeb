"""STUB, replaced at merge by the explicit part of the certificates (another branch builds it).

``write_explicit(bundle, claim, verdict)`` writes ``explicit.json`` (the explicit sweep as
data) into the bundle directory and returns the names of the files it wrote;
``run_checker(bundle)`` runs the stand-alone checker on a bundle. Here: nothing written, and
the checker ``skipped`` (said so by ``grundy recheck``).

>>> run_checker(None)["status"]
'skipped'
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

__all__ = ["write_explicit", "run_checker"]


def write_explicit(bundle: Path, claim: Any, verdict: Any) -> list[str]:
    """Stub: writes nothing."""
    return []


def run_checker(bundle: Path | None) -> dict:
    """Stub: the stand-alone checker is not part of this build."""
    return {"status": "skipped", "detail": "the stand-alone checker is not installed in this build"}
