"""The verdict cache of ``grundy verify``: an unchanged claim is not checked again.

A verdict is stored under a key that covers everything it may depend on, conservatively:
the text of every file of the grundy package and its version, the versions of Python, Z3
and networkx, the theorem file's text and that of every ``.py`` file beside it (what it may
import), the source files of every registered game defined outside the package (and the
``.py`` files beside them), the claim's id, and the options that change checking (profile,
time limit, executor). Changing any of them is a miss: the claim is checked again.

Only settled verdicts are stored (``proved``, ``verified``, ``refuted``): an ``unknown`` or an
``error`` may come from the machine (a time limit, a missing program) and is always checked
again. The cache lives in ``$GRUNDY_CACHE/verdicts`` (default ``~/.cache/grundy``);
``grundy verify --no-cache`` neither reads nor writes it.

Beside them, ``$GRUNDY_CACHE/times.json`` keeps how long each claim took last time (per profile):
the runner starts the longest claims first. It is a hint for scheduling only (a wrong or
missing time costs wall time, never a verdict), so it is kept with ``--no-cache`` too.

>>> import os, pathlib, tempfile
>>> saved = os.environ.get("GRUNDY_CACHE")
>>> os.environ["GRUNDY_CACHE"] = tempfile.mkdtemp()
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = (d / "demo.py").write_text('''
... from grundy.verify import Claim, heaps
... CLAIMS = [Claim("demo/nim", game="nim", kind="char", family=heaps(2), bounds={"heap": 4},
...                 statement=lambda g, s: s.heap[0] == s.heap[1])]
... ''')
>>> from grundy.verify.runner import load, run
>>> claims = load([str(d)])
>>> checked = []
>>> def check(cs):
...     checked.extend(c.id for c in cs)
...     return run(cs, jobs=1)
>>> [v.verdict for v in cached_run(claims, check, {"profile": "quick"})], checked
(['verified'], ['demo/nim'])
>>> [v.verdict for v in cached_run(claims, check, {"profile": "quick"})], checked   # from the cache
(['verified'], ['demo/nim'])
>>> _ = (d / "demo.py").write_text((d / "demo.py").read_text() + "# changed\\n")
>>> [v.verdict for v in cached_run(claims, check, {"profile": "quick"})], checked   # checked again
(['verified'], ['demo/nim', 'demo/nim'])
>>> _ = os.environ.pop("GRUNDY_CACHE") if saved is None else os.environ.update(GRUNDY_CACHE=saved)
"""
from __future__ import annotations

import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from ..digest import PACKAGE as _PACKAGE, files_digest, package_digest, source_file
from .claims import Claim
from .verdict import Verdict

__all__ = ["SETTLED", "cache_dir", "cached_run", "claim_key", "read_times", "record_times"]

SETTLED = ("proved", "verified", "refuted")   # the verdicts stored; any other is checked again


def cache_dir() -> Path:
    """Where verdicts are stored: ``$GRUNDY_CACHE/verdicts`` (default ``~/.cache/grundy``)."""
    return Path(os.environ.get("GRUNDY_CACHE") or Path.home() / ".cache" / "grundy") / "verdicts"


_files_digest = files_digest        # one hashing of files, shared with the solver's vetting cache


@lru_cache(maxsize=None)
def _package_digest() -> str:
    """Every file of the grundy package, its version and the versions of what checking runs on
    (:func:`grundy.digest.package_digest`, and Z3's)."""
    import z3
    return hashlib.sha256(f"{package_digest()} z3 {z3.get_version_string()}".encode()).hexdigest()


def _folder_digest(path: Path) -> str:
    """A file and every .py file beside it."""
    h = hashlib.sha256()
    path = path.resolve()
    _files_digest([path, *path.parent.glob("*.py")], h)
    return h.hexdigest()


_source_file = source_file


def _games_digest() -> str | None:
    """The source files of the registered games defined outside the package (``--games``
    files, plugins) and the .py files beside them; None when one cannot be found (then
    nothing is cached)."""
    from ..spec.games import GAMES
    every = getattr(GAMES, "_games", GAMES)      # listed or not
    files = []
    for name in sorted(every):
        f = _source_file(type(every[name]))
        if f is None or not f.is_file():
            return None
        if _PACKAGE not in f.parents:
            files.extend([f, *f.parent.glob("*.py")])
    h = hashlib.sha256()
    h.update(" ".join(sorted(every)).encode())
    _files_digest(files, h)
    return h.hexdigest()


def claim_key(claim: Claim, options: dict[str, Any], games: str | None = None) -> str | None:
    """The key of a claim's verdict (see the module's docstring); None when it cannot be made."""
    games = games or _games_digest()
    if games is None:
        return None
    h = hashlib.sha256()
    file = Path(claim.file) if getattr(claim, "file", None) else None
    h.update(json.dumps({"package": _package_digest(), "games": games,
                         "theorems": _folder_digest(file) if file is not None else None,
                         "claim": claim.id, "options": options}, sort_keys=True, default=str).encode())
    return h.hexdigest()


def _read(key: str) -> Verdict | None:
    try:
        with open(cache_dir() / f"{key}.json", encoding="utf-8") as f:
            d = json.load(f)
        v = Verdict.from_json(d["verdict"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return v if v.verdict in SETTLED and d.get("key") == key else None


def _write(key: str, v: Verdict) -> None:
    d = cache_dir()
    try:
        d.mkdir(parents=True, exist_ok=True)
        tmp = d / f".{key}.{os.getpid()}.tmp"
        tmp.write_text(json.dumps({"key": key, "verdict": v.to_json()}), encoding="utf-8")
        os.replace(tmp, d / f"{key}.json")
    except OSError:
        pass                                  # a cache that cannot be written is no cache


def cached_run(claims: list[Claim], check: Callable[[list[Claim]], Iterable[Verdict]],
               options: dict[str, Any], enabled: bool = True,
               note: Callable[[int], None] | None = None) -> Iterator[Verdict]:
    """The verdicts of ``claims`` in order: a stored one for each claim whose key is in the
    cache, the others from ``check`` (called once, on the claims missing, in order) and
    stored when settled. ``options``: what changes checking (profile, time limit, executor).
    ``note(n)``: told how many verdicts came from the cache, before any is yielded."""
    if not enabled:
        return iter(check(claims))
    games = _games_digest()
    if games is None:                  # a game whose source cannot be read: nothing is cached
        return iter(check(claims))
    keys = [claim_key(c, options, games) for c in claims]
    stored = [_read(k) for k in keys]
    if note is not None:
        note(sum(v is not None for v in stored))
    missing = [c for c, v in zip(claims, stored) if v is None]
    return _Merged(list(zip(keys, stored)), iter(check(missing)) if missing else iter(()))


class _Merged:
    """Stored and fresh verdicts in claim order; an interrupt thrown in (``throw``) goes on
    to the runner, so that the verdicts it had finished are still given out."""

    def __init__(self, items: list[tuple[str, Verdict | None]], fresh: Iterator[Verdict]):
        self.items, self.fresh, self.i, self.pending = items, fresh, 0, None

    def __iter__(self) -> "_Merged":
        return self

    def __next__(self) -> Verdict:
        if self.i >= len(self.items):
            raise StopIteration
        key, v = self.items[self.i]
        if v is None:
            v = self.pending if self.pending is not None else next(self.fresh)
            self.pending = None
            if v.verdict in SETTLED:
                _write(key, v)
        self.i += 1
        return v

    def throw(self, exc: BaseException) -> Verdict:
        thrower = getattr(self.fresh, "throw", None)
        if thrower is None or self.pending is not None or all(v is not None for _, v in self.items[self.i:]):
            raise exc
        self.pending = thrower(exc)
        return next(self)


# ------------------------------------------------------------------------------- claim times
def _times_file() -> Path:
    return cache_dir().parent / "times.json"        # beside the verdicts, not among them


def _read_times_file() -> dict[str, dict[str, float]]:
    try:
        d = json.loads(_times_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return d if isinstance(d, dict) else {}


def read_times(profile: str) -> dict[str, float]:
    """The seconds each claim took when it was last checked under ``profile`` (by claim id;
    empty when nothing was recorded). A scheduling hint only.

    >>> import os, tempfile
    >>> saved = os.environ.get("GRUNDY_CACHE")
    >>> os.environ["GRUNDY_CACHE"] = tempfile.mkdtemp()
    >>> read_times("quick")
    {}
    >>> record_times("quick", {"demo/a": 2.5, "demo/b": 0.1})
    >>> record_times("quick", {"demo/b": 0.2})
    >>> read_times("quick"), read_times("full")
    ({'demo/a': 2.5, 'demo/b': 0.2}, {})
    >>> _ = os.environ.pop("GRUNDY_CACHE") if saved is None else os.environ.update(GRUNDY_CACHE=saved)
    """
    got = _read_times_file().get(profile)
    if not isinstance(got, dict):
        return {}
    return {k: float(v) for k, v in got.items() if isinstance(k, str) and isinstance(v, (int, float))}


def record_times(profile: str, seconds: dict[str, float]) -> None:
    """Remember the seconds of the claims just checked under ``profile`` (others are kept)."""
    if not seconds:
        return
    d = _read_times_file()
    mine = d.get(profile) if isinstance(d.get(profile), dict) else {}
    mine.update({k: round(float(v), 3) for k, v in seconds.items()})
    d[profile] = mine
    folder = _times_file().parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".times.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(d, sort_keys=True), encoding="utf-8")
        os.replace(tmp, _times_file())
    except OSError:
        pass                                  # no place to write: the next run keeps file order
