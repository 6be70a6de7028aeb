"""Digests for the on-disk caches: what a cached result depends on, hashed.

:func:`package_digest` is the version of grundy's own code in every on-disk key (the verdicts
of ``grundy verify``, the kernels' C text); those caches key the rest by content
(:mod:`grundy.spec.fingerprint`: what a rule or a claim says, not where it came from).
:func:`game_digest` keys only the solver's record of the games it has vetted
(:func:`grundy.solvers.gamecheck.vet`). A key must change whenever anything the result
depends on changes, conservatively:

- :func:`package_digest`: the text of every file of the grundy package, its version, and the
  versions of Python and networkx (on the machine's architecture);
- :func:`game_digest`: one game's own definition: its name, each of its classes (module,
  name, and the code of every method and the value of every attribute, so that a class
  changed in memory changes the key), the source files of those classes defined outside the
  package and every ``.py`` file beside them (what they may import), and the game object's
  own plain attributes. None when it cannot be made (a class with no source file, an
  attribute that is no plain value): then nothing is cached.

Every cache lives under :func:`cache_root`: ``$GRUNDY_CACHE``, default ``~/.cache/grundy``.

>>> len(package_digest()) == 64 and package_digest() == package_digest()
True
>>> from grundy.spec.games import get_game
>>> game_digest(get_game("nim")) == game_digest(get_game("nim")) != game_digest(get_game("wythoff"))
True
"""
from __future__ import annotations

import hashlib
import json
import os
import sys
import time
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, Iterable

__all__ = ["cache_root", "files_digest", "game_digest", "package_digest", "source_file"]

PACKAGE = Path(__file__).resolve().parent
_PLAIN = (int, float, str, bool, bytes, type(None))


def cache_root() -> Path:
    """``$GRUNDY_CACHE`` (default ``~/.cache/grundy``): where every cache of grundy lives."""
    return Path(os.environ.get("GRUNDY_CACHE") or Path.home() / ".cache" / "grundy")


def files_digest(files: Iterable[Path | str], h: Any) -> None:
    """Feed each file's path and the SHA-256 of its bytes to the hash ``h`` (in path order; an
    unreadable file as such). A file's SHA-256 is remembered on disk (:class:`_FileMemo`)."""
    memo = _FileMemo.at(cache_root())
    for f in sorted(set(map(str, files))):
        h.update(f.encode() + b"\0" + memo.sha(f) + b"\0")
    memo.save()


class _FileMemo:
    """Each file's SHA-256, remembered in ``$GRUNDY_CACHE/file-digests.json`` by its path,
    size, inode, and modification and change times (ns), as git's index trusts them. The
    change time (ctime) moves on every write and every change of the other times, and no
    user command sets it back. An entry is stored only for a file last changed over
    ``SETTLED_NS`` before it was read (git's "racy" rule): a file written again within the
    clock's tick after being read is never trusted by its time stamps. Any other change of
    the file changes one of them: it is read again."""

    SETTLED_NS = 2_000_000_000
    MAX_ENTRIES = 20_000
    _by_root: "dict[str, _FileMemo]" = {}

    def __init__(self, path: Path):
        self.path, self.changed = path, False
        try:
            with open(path, encoding="utf-8") as f:
                d = json.load(f)
            self.entries: dict[str, list] = d if isinstance(d, dict) else {}
        except (OSError, ValueError):
            self.entries = {}

    @classmethod
    def at(cls, root: Path) -> "_FileMemo":
        key = str(root)
        if key not in cls._by_root:
            cls._by_root[key] = cls(root / "file-digests.json")
        return cls._by_root[key]

    def sha(self, f: str) -> bytes:
        try:
            st = os.stat(f)
        except OSError:
            return b"\0unreadable"
        stamp = [st.st_size, st.st_ino, st.st_mtime_ns, st.st_ctime_ns]
        e = self.entries.get(f)
        if isinstance(e, list) and len(e) == 5 and e[:4] == stamp and isinstance(e[4], str):
            return e[4].encode()
        try:
            with open(f, "rb") as fh:
                data = fh.read()
        except OSError:
            return b"\0unreadable"
        sha = hashlib.sha256(data).hexdigest()
        if len(data) == st.st_size and max(st.st_mtime_ns, st.st_ctime_ns) < time.time_ns() - self.SETTLED_NS:
            if len(self.entries) >= self.MAX_ENTRIES:
                self.entries.clear()
            self.entries[f] = [*stamp, sha]
            self.changed = True
        return sha.encode()

    def save(self) -> None:
        if not self.changed:
            return
        self.changed = False
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_name(f".{self.path.name}.{os.getpid()}.tmp")
            tmp.write_text(json.dumps(self.entries), encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError:
            pass                                  # a cache that cannot be written is no cache


def _package_files(top: str = str(PACKAGE)) -> list[str]:
    out = []
    with os.scandir(top) as it:
        for e in it:
            if e.is_dir():
                if e.name != "__pycache__":
                    out += _package_files(e.path)
            elif not e.name.endswith((".pyc", ".so")):
                out.append(e.path)
    return out


@lru_cache(maxsize=None)
def package_digest() -> str:
    """Every file of the grundy package (compiled caches aside), its version, and the versions
    of Python and networkx (read once per process: networkx's from the loaded module, else from
    its installed distribution, which costs a tenth of importing it)."""
    from ._version import __version__
    loaded = sys.modules.get("networkx")
    if loaded is not None:
        nx_version = loaded.__version__
    else:
        from importlib.metadata import version
        nx_version = version("networkx")
    h = hashlib.sha256()
    h.update(json.dumps([__version__, sys.version, os.uname().machine if hasattr(os, "uname") else "",
                         nx_version]).encode())
    files_digest(_package_files(), h)
    return h.hexdigest()


def source_file(cls: type) -> Path | None:
    """The file a class is defined in (by its module, else by its methods' code); None if none."""
    import inspect
    try:
        return Path(inspect.getfile(cls)).resolve()
    except (TypeError, OSError):
        pass
    for x in vars(cls).values():
        code = getattr(x, "__code__", None)
        if code is not None:
            return Path(code.co_filename).resolve()
    return None


def _code(code: Any, h: Any) -> None:
    """Feed a code object to ``h``: its bytecode, names and constants (nested code too). Not
    ``marshal``: its output depends on reference counts, so it differs between processes."""
    h.update(code.co_code)
    h.update(repr((code.co_name, code.co_names, code.co_varnames, code.co_freevars, code.co_cellvars,
                   code.co_argcount, code.co_kwonlyargcount, code.co_flags)).encode())
    for c in code.co_consts:
        if hasattr(c, "co_code"):
            _code(c, h)
        elif isinstance(c, frozenset):            # its repr's order depends on string hashing
            h.update(repr(sorted(map(repr, c))).encode() + b"\0")
        else:
            h.update(repr(c).encode() + b"\0")


def _value(x: Any, h: Any, depth: int = 0) -> bool:
    """Feed an attribute's value to ``h``: a function by its code (and plain defaults), a
    plain value (or a tuple, list, set or dict of them) by its repr. False if it cannot."""
    if depth > 8:
        return False
    for attr in ("fget", "func", "__func__", "__wrapped__"):   # property, cached_property, static/
        # classmethod, functools wrappers (lru_cache): the function inside
        inner = getattr(x, attr, None)
        if inner is not None and hasattr(inner, "__code__"):
            x = inner
            break
    code = getattr(x, "__code__", None)
    if code is not None:
        _code(code, h)
        cells = [c.cell_contents for c in (getattr(x, "__closure__", None) or ()) if _filled(c)]
        return all(_value(d, h, depth + 1) for d in [*(getattr(x, "__defaults__", None) or ()), *cells])
    if isinstance(x, _PLAIN):
        h.update(repr(x).encode())
        return True
    if isinstance(x, (tuple, list, frozenset, set)):
        h.update(type(x).__name__.encode())
        items = sorted(x, key=repr) if isinstance(x, (set, frozenset)) else x
        return all(_value(v, h, depth + 1) for v in items)
    if isinstance(x, dict):
        return all(_value(k, h, depth + 1) and _value(v, h, depth + 1) for k, v in sorted(x.items(), key=repr))
    if isinstance(x, type):
        h.update(f"{x.__module__}.{x.__qualname__}".encode())
        return True
    if type(x).__name__ in ("method_descriptor", "wrapper_descriptor", "builtin_function_or_method"):
        h.update(f"{type(x).__name__}:{getattr(x, '__qualname__', '')}".encode())
        return True
    return False


def _filled(cell: Any) -> bool:
    try:
        cell.cell_contents  # noqa: B018  (reading an empty cell raises: that is the test)
    except ValueError:
        return False
    return True


def game_digest(game: Any) -> str | None:
    """A digest of one game's definition (see the module's docstring); None when one of its
    classes or attributes cannot be read back (nothing is then cached for it)."""
    h = hashlib.sha256()
    h.update(str(getattr(game, "name", "")).encode() + b"\0")
    files: list[Path] = []
    for cls in type(game).__mro__:
        if cls is object:
            continue
        h.update(f"{cls.__module__}.{cls.__qualname__}\0".encode())
        for k, v in sorted(vars(cls).items()):
            if k in ("__dict__", "__weakref__", "__doc__", "__module__", "__qualname__", "__annotations__"):
                continue
            h.update(k.encode() + b"=")
            if not _value(v, h):
                return None
        f = source_file(cls)
        if f is None or not f.is_file():
            return None
        if PACKAGE not in f.parents:                 # the package's own files: in package_digest
            files += [f, *f.parent.glob("*.py")]
    for k, v in sorted(vars(game).items()):          # the object's own settings (caches aside)
        if k.startswith("_") or isinstance(getattr(type(game), k, None), cached_property):
            continue
        h.update(k.encode() + b"=")
        if not _value(v, h):
            return None
    files_digest(files, h)
    return h.hexdigest()
