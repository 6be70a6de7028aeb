"""What every certificate of this package shares: the bundle's format, the digests, and the
exception for a verdict that has no certificate in it."""
from __future__ import annotations

import hashlib
import json
from typing import Any

__all__ = ["FORMAT", "GAME_KEYS", "STRATEGY_KEYS", "Unsupported", "digest", "game_digest", "with_game_digest"]

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
STRATEGY_KEYS = ("strategy", "exact")       # in the digest of a strategy claim's instance only


def game_digest(inst: dict[str, Any]) -> str:
    """The digest of an instance's rules, statement and assume (and strategy, where it has one):
    their identity."""
    keys = GAME_KEYS + (STRATEGY_KEYS if "strategy" in inst else ())
    return digest([inst.get(k) for k in keys])


def with_game_digest(inst: dict[str, Any]) -> dict[str, Any]:
    """``inst`` with ``game_digest`` (:func:`game_digest`)."""
    return {**inst, "game_digest": game_digest(inst)}
