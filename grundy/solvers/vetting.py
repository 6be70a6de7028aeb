"""Vetting: the solver checks what a game declares once before relying on it (:func:`vet`),
and remembers a pass in the process and on disk.

This module is small on purpose: the solver imports it at start-up, and a game already known
to pass costs only the key's digest and one file read; the checks themselves
(:mod:`grundy.solvers.gamecheck`) are imported only when a game must be checked.
"""
from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

from ..digest import cache_root, game_digest, package_digest
from ..errors import RuleError
from ..spec.game import Game
from ..spec.structure import Structure

__all__ = ["vet"]

_VETTED: dict[int, RuleError | None] = {}
_VET_OPTIONS = {"bound": 3, "max_states": 400, "smt": False}     # the light check vet runs


def _vet_key(game: Game) -> str | None:
    """The key of a passed vet on disk: the package's files and versions, the game's own
    definition (:func:`grundy.digest.game_digest`) and the check's options; None when the
    game's definition cannot be read back (nothing is then stored)."""
    g = game_digest(game)
    if g is None:
        return None
    text = json.dumps([package_digest(), g, _VET_OPTIONS], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()


def _vet_file(key: str) -> Path:
    return cache_root() / "vetted" / f"{key}.json"


def _vet_stored(key: str, name: str) -> bool:
    try:
        with open(_vet_file(key), encoding="utf-8") as f:
            d = json.load(f)
    except (OSError, ValueError):
        return False
    return isinstance(d, dict) and d.get("key") == key and d.get("game") == name and d.get("vet") == "passed"


def _vet_store(key: str, name: str) -> None:
    f = _vet_file(key)
    try:
        f.parent.mkdir(parents=True, exist_ok=True)
        tmp = f.with_name(f".{key}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps({"key": key, "game": name, "vet": "passed"}), encoding="utf-8")
        os.replace(tmp, f)
    except OSError:
        pass                                  # a cache that cannot be written is no cache


def vet(game: Game, structure: Structure | None = None, *, cache: bool = True) -> None:
    """Raise the first violation (a RuleError) of a property ``game`` declares, checked once per
    game and process on its small check structures (a light :func:`check_game`: no Z3, at most
    a few hundred positions each). The solver calls this before relying on a game's declared
    symmetries and decompositions, so that a bad declaration is an error, not a wrong value.
    The check is :func:`grundy.solvers.gamecheck.check_game`. A game whose check structures
    it cannot be built on (a bug of the game's, or structures it does not take) is checked on
    ``structure``, the one about to be solved, instead (such a pass is not stored).

    A pass on the game's own check structures is remembered on disk too
    (``$GRUNDY_CACHE/vetted``, ``cache=False`` to neither read nor write it), keyed by
    everything it depends on: the grundy package's files and versions, and the game's own
    definition (its classes' code and attributes, its source file and the ``.py`` files
    beside it: see :mod:`grundy.digest`); any change is a new key, so the game is checked
    again. A failure is never stored: it is checked again in every process.

    >>> from grundy.spec.games import get_game
    >>> vet(get_game("nim")) is None
    True
    """
    key = id(game)
    if key in _VETTED:
        if _VETTED[key] is not None:
            raise _VETTED[key]
        return
    _VETTED[key] = None            # re-entry while checking: the check's own solvers do not vet
    disk = None
    try:
        disk = _vet_key(game) if cache else None
        if disk is not None and _vet_stored(disk, game.name):
            return
        from . import gamecheck    # (only when the game is not known to pass: a large module)
        try:       # (violations are in the report: what raises here is a structure not built)
            report = gamecheck.check_game(game, **_VET_OPTIONS)
        except Exception:     # noqa: BLE001  (the game's own structures do not build: use this one)
            if structure is None:
                raise
            disk = None       # a pass on this structure only: not stored
            report = gamecheck.check_game(game, [structure], **_VET_OPTIONS)
    except RuleError as e:
        _VETTED[key] = e
        raise
    except BaseException:
        del _VETTED[key]      # not checked (an interrupt, a bug): checked again next time
        raise
    bad = report.violations
    if bad:
        _VETTED[key] = RuleError(f"{bad[0].detail} ({bad[0].property} on {bad[0].structure}; "
                                 f"see grundy check {game.name})")
        raise _VETTED[key]
    if disk is not None and report.ok:
        _vet_store(disk, game.name)
