"""Kept for the built-in game files: the heap helpers live in :mod:`grundy.spec.heaps` (public)."""
from grundy.spec.heaps import HeapGame, check_distinct, distinct, smallest

__all__ = ["HeapGame", "check_distinct", "distinct", "smallest"]
