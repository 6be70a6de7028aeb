"""The game registry: every module here defines ``GAME`` (or ``GAMES``), one file per game."""
from __future__ import annotations

import importlib
import pkgutil

from ..game import Game



class Registry(dict):
    """Name -> game. Games added with ``register(game, listed=False)`` (test games, a user's
    games for one session) are found by name (``GAMES[name]``, ``name in GAMES``, ``get``) but
    not listed: iterating the registry gives the games of this package and listed ones only."""

    def __init__(self) -> None:
        super().__init__()
        self.unlisted: dict[str, Game] = {}

    def __missing__(self, key: str) -> Game:
        return self.unlisted[key]

    def __contains__(self, key: object) -> bool:
        return dict.__contains__(self, key) or key in self.unlisted

    def get(self, key: str, default: Game | None = None) -> Game | None:  # type: ignore[override]
        return self[key] if key in self else default


GAMES: Registry = Registry()


def register(game: Game, *, listed: bool = True) -> None:
    """Add a game to the registry (``listed=False``: findable by name, but left out of listings
    such as ``grundy games``). Registering the same object twice is harmless; another game of
    a taken name is a RuntimeError."""
    have = GAMES.get(game.name)
    if have is game:
        return
    if have is not None:
        raise RuntimeError(f"two games named {game.name!r}")
    (GAMES if listed else GAMES.unlisted)[game.name] = game


def _load() -> None:
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        mod = importlib.import_module(f"{__name__}.{info.name}")
        for g in getattr(mod, "GAMES", [getattr(mod, "GAME", None)]):
            if g is not None:
                if g.name in GAMES:
                    raise RuntimeError(f"two games named {g.name!r}")
                GAMES[g.name] = g


def get_game(name: str) -> Game:
    """The registered game called ``name``."""
    try:
        return GAMES[name]
    except KeyError:
        raise KeyError(f"unknown game {name!r} (one of: {', '.join(sorted(GAMES))})") from None


_load()
