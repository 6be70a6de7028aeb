"""The built-in games: every module here defines ``GAME`` (or ``GAMES``), one file per game.

The registry itself (games from a user's files and installed plugins too) is
:mod:`grundy.spec.registry`; ``GAMES`` and ``get_game`` are re-exported here.
"""
from ..registry import GAMES, get_game, register

__all__ = ["GAMES", "get_game", "register"]
