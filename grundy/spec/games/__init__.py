"""The game registry: every module here defines ``GAME`` (or ``GAMES``), one file per game."""
from __future__ import annotations

import importlib
import pkgutil

from ..game import Game

GAMES: dict[str, Game] = {}


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
