"""The game registry: built-in games, a user's game files, and installed plugins.

A game is known by its ``name``. The built-in games are the modules of
:mod:`grundy.spec.games` (each defines ``GAME`` or ``GAMES``). Others come from:

- :func:`load_games` (``--games PATH`` on the command line): a Python file, or every file
  of a folder (not starting with ``_``); every :class:`~grundy.spec.Game` object defined at
  module level there is registered by its name;
- the environment variable ``GRUNDY_GAMES``: such paths, separated by ``os.pathsep``;
- installed packages, through the entry-point group ``grundy.games`` (an entry point names a
  module, a game, or a list of games);
- :func:`register` (what ``Claim(game=obj)`` calls).

``GRUNDY_GAMES`` and entry points are read only when a name is not found among the games
already known, or when every game is listed: a broken file there is reported by the
lookups that need it (:attr:`Registry.problems`) and does not stop anything else.
A name may be registered once; a file loaded again replaces its own games.

>>> from grundy.spec.registry import GAMES, get_game
>>> get_game("nim").name, "nim" in GAMES
('nim', True)
>>> get_game("no-such-game")                      # doctest: +ELLIPSIS
Traceback (most recent call last):
...
grundy.errors.GameError: unknown game 'no-such-game' (one of: ...)
"""
from __future__ import annotations

import importlib
import importlib.util
import os
import pkgutil
import sys
import traceback
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path
from types import FrameType, ModuleType
from typing import Any

from ..errors import GameError, GrundyError
from .fingerprint import rules_digest
from .game import Game

__all__ = ["GAMES", "GameError", "Registry", "get_game", "load_games", "register", "RESERVED",
           "ENTRY_POINT_GROUP", "ENV_VAR"]

ENTRY_POINT_GROUP = "grundy.games"
ENV_VAR = "GRUNDY_GAMES"
BUILTIN = "built-in"
RESERVED = frozenset({"sum"})     # position kinds that are not games (``{"game": "sum", ...}``)


def origin_of(game: Game) -> str:
    """The file that defines the game's class (where a clash is reported)."""
    for attr in vars(type(game)).values():
        code = getattr(attr, "__code__", None)
        if code is not None:
            return str(Path(code.co_filename).resolve())
    mod = sys.modules.get(type(game).__module__)
    return str(getattr(mod, "__file__", None) or type(game).__module__)


def same_rules(a: Game, b: Game) -> bool:
    """Whether two game objects play the same game: the same class, convention and declarations,
    and rules of the same content on every structure ``grundy check`` tries (a name is no
    identity: two objects of one class with other parameters are two games)."""
    if type(a).__qualname__ != type(b).__qualname__:      # (a file loaded again makes its classes anew)
        return False
    decl = ("convention", "structure", "symmetric", "decompose_over", "heap_count")
    if any(getattr(a, k) != getattr(b, k) for k in decl):
        return False
    try:
        structures = a.check_structures()
    except Exception:                       # no structure to compare on: not known to be the same
        return False
    return [_content(a, g) for g in structures] == [_content(b, g) for g in structures]


def _content(game: Game, g: Any) -> str:
    """The digest of the game's rules on ``g``, or the kind of error building them raises there."""
    try:
        return rules_digest(game.rules(g))
    except Exception as e:                  # a structure the game is not played on: the same for both?
        return f"error: {type(e).__name__}"


def _defined(game: Game, where: str) -> str:
    """A game object, for a clash: its class, and where it was made or registered."""
    return f"one ({type(game).__qualname__}) at {where}"


def _registered_at() -> str | None:
    """The first file:line outside grundy on the stack (where the user's code registered a game)."""
    inside = str(Path(__file__).resolve().parent.parent)
    f: FrameType | None = sys._getframe(2)
    while f is not None:
        name = f.f_code.co_filename
        if not str(Path(name).resolve()).startswith(inside) and not name.startswith("<frozen"):
            return f"{name}:{f.f_lineno}"
        f = f.f_back
    return None


class Registry(Mapping[str, Game]):
    """Name -> game, filled on first use (built-ins first, then the lazy sources)."""

    def __init__(self) -> None:
        self._games: dict[str, Game] = {}
        self._origin: dict[str, str] = {}
        self._where: dict[str, str] = {}        # where each was registered (file:line), for a clash
        self._builtins_loaded = False
        self._lazy_loaded = False
        self.problems: list[str] = []          # broken lazy sources, one line each
        self.files: set[str] = set()           # game files loaded (resolved paths)
        self._unlisted: set[str] = set()       # found by name, left out of listings (test games)

    # the lazy sources ------------------------------------------------------------
    def _builtins(self) -> None:
        if self._builtins_loaded:
            return
        self._builtins_loaded = True
        pkg = importlib.import_module("grundy.spec.games")   # discovery, as for a plugin
        for info in sorted(pkgutil.iter_modules(pkg.__path__), key=lambda m: m.name):
            if info.name.startswith("_"):
                continue
            mod = importlib.import_module(f"{pkg.__name__}.{info.name}")
            for g in getattr(mod, "GAMES", [getattr(mod, "GAME", None)]):
                if g is not None:
                    if g.name in self._games:
                        raise RuntimeError(f"two built-in games named {g.name!r}")
                    self._games[g.name], self._origin[g.name] = g, BUILTIN

    def _lazy(self) -> None:
        """Read ``GRUNDY_GAMES`` and the ``grundy.games`` entry points (once)."""
        self._builtins()
        if self._lazy_loaded:
            return
        self._lazy_loaded = True
        for part in os.environ.get(ENV_VAR, "").split(os.pathsep):
            if part.strip() and not (Path(part.strip()).is_file()
                                     and str(Path(part.strip()).resolve()) in self.files):
                try:
                    load_games(part.strip(), registry=self)
                except GrundyError as e:
                    self.problems.append(f"{ENV_VAR}: {e}")
        from importlib.metadata import entry_points
        for ep in entry_points(group=ENTRY_POINT_GROUP):
            try:
                obj = ep.load()
                games = _games_in(obj) if isinstance(obj, ModuleType) else (
                    [obj] if isinstance(obj, Game) else list(obj))
                for g in games:
                    if not isinstance(g, Game):
                        raise TypeError(f"{g!r} is not a Game")
                    self.add(g, origin=f"entry point {ep.name} ({ep.value})")
            except GrundyError as e:
                self.problems.append(f"entry point {ENTRY_POINT_GROUP}:{ep.name}: {e}")
            except Exception as e:
                self.problems.append(f"entry point {ENTRY_POINT_GROUP}:{ep.name} ({ep.value}): "
                                     f"{type(e).__name__}: {e}")

    # registering -----------------------------------------------------------------
    def add(self, game: Game, origin: str | None = None, listed: bool = True) -> Game:
        """Register ``game`` under its name; GameError on a clash with another source.
        ``listed=False``: found by name but left out of listings (``grundy games``)."""
        self._builtins()
        if not isinstance(game, Game):
            raise GameError(f"{game!r} is not a Game")
        name = game.name
        if not isinstance(name, str) or not name:
            raise GameError(f"{type(game).__name__} (in {origin_of(game)}) has no name")
        if name in RESERVED:
            raise GameError(f"game name {name!r} is reserved ({{\"game\": {name!r}, ...}} is a sum of positions)")
        origin_given, origin = origin, origin or origin_of(game)
        old = self._games.get(name)
        if old is game:
            return game
        if old is not None:
            was = self._origin[name]
            if was == BUILTIN:
                raise GameError(f"two games named {name!r}: one in {origin} clashes with the built-in game")
            if was != origin or not same_rules(old, game):
                here = _registered_at() if origin_given is None else origin
                raise GameError(f"two games named {name!r}"
                                + (" with other rules" if was == origin else "")
                                + f": {_defined(game, here or origin)}, {_defined(old, self._where.get(name, was))}"
                                + "; give each its own name")
        self._games[name], self._origin[name] = game, origin
        self._where[name] = (_registered_at() if origin_given is None else origin) or origin
        if not listed:
            self._unlisted.add(name)
        else:
            self._unlisted.discard(name)
        return game

    @contextmanager
    def scoped(self) -> Iterator["Registry"]:
        """Games registered inside the ``with`` block are forgotten after it (for tests).

        >>> with GAMES.scoped():
        ...     _ = GAMES.add(type("T", (Game,), {"name": "scoped-demo"})())
        ...     "scoped-demo" in GAMES
        True
        >>> "scoped-demo" in GAMES
        False
        """
        self._builtins()
        saved = (dict(self._games), dict(self._origin), set(self.files), list(self.problems), self._lazy_loaded,
                 set(self._unlisted), dict(self._where))
        try:
            yield self
        finally:
            (self._games, self._origin, self.files, self.problems, self._lazy_loaded,
             self._unlisted, self._where) = saved

    def origin(self, name: str) -> str:
        """Where the game called ``name`` comes from (``built-in``, a file, an entry point)."""
        self[name]
        return self._origin[name]

    # Mapping ---------------------------------------------------------------------
    def __getitem__(self, name: str) -> Game:
        if self._builtins_loaded:                 # (the common case first: read per position)
            g = self._games.get(name)
            if g is not None:
                return g
        self._builtins()
        g = self._games.get(name)
        if g is None and not self._lazy_loaded:
            self._lazy()
            g = self._games.get(name)
        if g is None:
            raise GameError(self.unknown(name))
        return g

    def __setitem__(self, name: str, game: Game) -> None:
        """``GAMES[name] = game`` (deprecated in 0.2) was removed in 0.3: a one-line error says
        what replaces it."""
        raise GameError(f"GAMES[{name!r}] = game was removed in 0.3: use grundy.register(game)")

    def __contains__(self, name: object) -> bool:
        try:
            self[name]  # type: ignore[index]
            return True
        except (GameError, TypeError):
            return False

    def __iter__(self) -> Iterator[str]:
        self._lazy()
        return iter([n for n in self._games if n not in self._unlisted])

    def __len__(self) -> int:
        self._lazy()
        return len(self._games) - len(self._unlisted)

    def unknown(self, name: Any) -> str:
        """The message for an unknown game name (with any broken source that may define it)."""
        text = f"unknown game {name!r} (one of: {', '.join(sorted(set(self._games) - self._unlisted))})"
        if self.problems:
            text += "; not loaded: " + "; ".join(self.problems)
        return text


GAMES = Registry()


def get_game(name: "str | Game") -> Game:
    """The registered game called ``name`` (a :class:`Game` is registered and returned).

    >>> get_game("wythoff").summary.split(":")[0]
    'Wythoff'
    """
    if isinstance(name, Game):
        return GAMES.add(name)
    return GAMES[name]


def register(game: Game, *, listed: bool = True) -> Game:
    """Register a game object by its name (GameError if another game has that name; the same
    object again is harmless). ``listed=False``: found by name, left out of listings.

    Parameters
    ----------
    game : Game
        The game; positions, claims and the CLI then find it by ``game.name``.
    listed : bool
        Whether ``grundy games`` and other listings show it.

    Returns
    -------
    Game
        The game given (so that ``register`` may be used as a decorator).

    Raises
    ------
    grundy.errors.GameError
        Another game already has that name.

    Examples
    --------
    >>> from grundy.spec import get_game
    >>> register(get_game("nim")) is get_game("nim")      # the same object again: harmless
    True
    """
    return GAMES.add(game, listed=listed)


def _games_in(mod: ModuleType) -> list[Game]:
    """The Game objects defined at module level, in definition order (duplicates once)."""
    out: list[Game] = []
    for v in list(vars(mod).values()):
        items = v if isinstance(v, (list, tuple)) and v and all(isinstance(x, Game) for x in v) else [v]
        for g in items:
            if isinstance(g, Game) and not any(g is h for h in out):
                out.append(g)
    return out


def _module_name(path: Path) -> str:
    return "grundy_user_games_" + "".join(ch if ch.isalnum() else "_" for ch in str(path))


def load_games(path: "str | os.PathLike[str]", *, registry: Registry | None = None) -> list[Game]:
    r"""Import a game file (or every ``*.py`` of a folder not starting with ``_``) and register
    every Game object defined at module level there; the games, in order.

    The file may import modules beside it. Errors are one line naming the file (and line).

    Parameters
    ----------
    path : str or os.PathLike
        A game file, or a folder of them.
    registry : Registry, optional
        Where to register them (default: the package's :data:`GAMES`).

    Returns
    -------
    list of Game
        The games the file (or folder) defines, in the order defined.

    Raises
    ------
    grundy.errors.GameError
        No such file; an import that fails; two games of one name (one line naming the file).

    Examples
    --------
    >>> import pathlib, tempfile
    >>> d = pathlib.Path(tempfile.mkdtemp())
    >>> _ = (d / "mine.py").write_text(
    ...     "from grundy import HeapRule, option\n"
    ...     "class Take13(HeapRule):\n"
    ...     "    name = 'take-1-3-demo'\n"
    ...     "    summary = 'remove 1 or 3 tokens from a heap'\n"
    ...     "    def options(self, g, n):\n"
    ...     "        yield option('take 1', guard=n >= 1, parts=[n - 1])\n"
    ...     "        yield option('take 3', guard=n >= 3, parts=[n - 3])\n"
    ...     "GAME = Take13()\n")
    >>> [g.name for g in load_games(d / "mine.py")]
    ['take-1-3-demo']
    """
    reg = registry if registry is not None else GAMES
    reg._builtins()
    p = Path(path)
    if p.is_dir():
        files = sorted(f for f in p.glob("*.py") if not f.name.startswith("_"))
    elif p.is_file():
        files = [p]
    else:
        raise GameError(f"{p}: no such file or directory")
    out: list[Game] = []
    for f in files:
        reg.files.add(str(f.resolve()))
        mod = import_file(f, _module_name(f.resolve()), GameError)
        own = [g for g in _games_in(mod) if reg._origin.get(g.name) != BUILTIN or reg._games[g.name] is not g]
        names: dict[str, Game] = {}
        for g in own:
            if reg._games.get(g.name) is g:          # imported from another file already loaded
                continue
            if g.name in names:
                raise GameError(f"{f}: two games named {g.name!r}")
            names[g.name] = g
        for g in names.values():
            origin = origin_of(g)
            try:
                reg.add(g, origin=origin)
            except GameError as e:
                raise GameError(f"{f}: {e}") from None
            out.append(g)
    return out


def import_file(path: Path, name: str, error: type[GrundyError],
                passthrough: tuple[type[BaseException], ...] = ()) -> ModuleType:
    """Execute a Python file as module ``name`` with its folder importable while it runs.

    A module of another folder that has the name of a module of this one (``games``) is
    dropped from ``sys.modules`` first, so that this folder's own module is imported: folders
    do not leak into each other. Any exception
    becomes ``error("FILE:LINE: ...")``, except those of the ``passthrough`` types (re-raised
    for the caller, whose messages already name their line).
    """
    folder = str(path.resolve().parent)
    _forget_other_folders(Path(folder))
    try:
        spec = importlib.util.spec_from_file_location(name, path)
        if spec is None or spec.loader is None:
            raise error(f"{path}: not a Python file")
        mod = importlib.util.module_from_spec(spec)
        sys.modules[name] = mod
        sys.path.insert(0, folder)
        try:
            spec.loader.exec_module(mod)
        finally:
            sys.path.remove(folder)
    except passthrough:
        sys.modules.pop(name, None)
        raise
    except GrundyError as e:
        if isinstance(e, error) and str(e).startswith(str(path)):
            raise
        sys.modules.pop(name, None)
        raise error(f"{path}{_line_in(e, path)}: {e}") from None
    except SyntaxError as e:
        sys.modules.pop(name, None)
        where = Path(e.filename or path)
        raise error(f"{where}:{e.lineno}: syntax error: {e.msg}") from None
    except Exception as e:
        sys.modules.pop(name, None)
        raise error(f"{path}{_line_in(e, path)}: {type(e).__name__}: {e}") from None
    return mod


def _forget_other_folders(folder: Path) -> None:
    """Drop from ``sys.modules`` the modules named like a module of ``folder`` (``x.py`` or a
    package ``x/``) that were imported from somewhere else."""
    names = [f.stem for f in folder.glob("*.py")] + [d.name for d in folder.iterdir()
                                                     if (d / "__init__.py").is_file()]
    for n in names:
        m = sys.modules.get(n)
        f = getattr(m, "__file__", None) if m is not None else None
        if f and folder.resolve() not in Path(f).resolve().parents:
            del sys.modules[n]


def _line_in(e: BaseException, path: Path) -> str:
    """``:LINE`` of the innermost frame in ``path``, and ``(at FILE:LINE)`` of the innermost
    frame when that is in another file of the user's (a sibling module); or ``""``."""
    frames = traceback.extract_tb(e.__traceback__)
    here = path.resolve()
    mine = next((fr for fr in reversed(frames) if Path(fr.filename).resolve() == here), None)
    if mine is None:
        return ""
    inner = frames[-1]
    grundy_dir = Path(__file__).resolve().parent.parent
    if (inner is not mine and Path(inner.filename).is_file()
            and grundy_dir not in Path(inner.filename).resolve().parents):
        return f":{mine.lineno} (at {inner.filename}:{inner.lineno})"
    return f":{mine.lineno}"
