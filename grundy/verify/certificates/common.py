"""What every certificate of this package shares: the bundle's format, the digests, and the
exception for a verdict that has no certificate in it."""
from __future__ import annotations

import hashlib
import json
from typing import Any

__all__ = ["FORMAT", "GAME_KEYS", "Unsupported", "digest", "with_game_digest"]

FORMAT = "grundy-explicit/1"


class Unsupported(Exception):
    """The verdict has no explicit certificate this format can state (the reason)."""


def digest(data: Any) -> str:
    """The SHA-256 of ``data`` as compact JSON with sorted keys (as the checker computes it).

    >>> digest([[0, 1], [1, 1]])[:12]
    '31bfc7399576'
    """
    return hashlib.sha256(json.dumps(data, separators=(",", ":"), sort_keys=True).encode()).hexdigest()


GAME_KEYS = ("structure", "rules", "heap_rule", "nodes", "statement", "assume")


def with_game_digest(inst: dict[str, Any]) -> dict[str, Any]:
    """``inst`` with ``game_digest``: the digest of its rules, statement and assume (their identity)."""
    return {**inst, "game_digest": digest([inst.get(k) for k in GAME_KEYS])}
