"""Build C source into a shared library with the system C compiler, once per source text.

Generated kernels are plain C99 with no dependencies; they are compiled with ``cc -O2`` (hot loops aligned;
``-Og`` on small boxes, ``-O1`` for a claim's sweep of moderate size; a kernel on a large box starts
with ``-Og`` and gets ``-O2`` once its searches have done enough steps to pay for the optimizer,
``grundy.solvers.native.kernel.upgrade_pauses``) the first time they are
needed and cached by the hash of their source and flags in ``$GRUNDY_CACHE``
(default ``~/.cache/grundy``). Without a compiler (or with ``GRUNDY_NATIVE=0``),
:func:`available` is False and callers use the pure-Python path.

>>> lib = load("int twice(int x) { return 2 * x; }") if available() else None
>>> lib is None or lib.twice(21) == 42
True
"""
from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile
from contextlib import contextmanager
from functools import lru_cache
from importlib.resources import files
from pathlib import Path
from typing import Callable, Iterator, Sequence

from ...errors import BuildError

# -falign-loops=32: a hot loop that straddles two 32-byte fetch windows runs up to 1.5x slower
# (the octal split scan: 0.137 at 10^5, 1.45 -> 0.94 CPU s; benchmarks/octal_peers.py)
FLAGS = ["-O2", "-falign-loops=32", "-std=gnu99", "-shared", "-fPIC", "-fno-strict-aliasing"]
# a library whose work is small (a kernel on a small box): -Og, the compile time of -O0 (2.4-3.2x less
# than -O2) for code 2.2-2.5x faster than -O0's and 1.2-1.8x slower than -O1's (benchmarks/quick_build.py)
QUICK_FLAGS = ["-Og", "-std=gnu99", "-shared", "-fPIC", "-fno-strict-aliasing"]
# a library whose work is moderate (a claim's sweep of 2^19 to 2M starts): -O1 takes 1.4-1.6x
# less compile time than -O2 (a 59 KB Petersen kernel: 0.43 -> 0.27 s) for code 2-7% slower
# (benchmarks/quick_build.py)
LIGHT_FLAGS = ["-O1", "-std=gnu99", "-shared", "-fPIC", "-fno-strict-aliasing"]


def cache_dir() -> Path:
    d = Path(os.environ.get("GRUNDY_CACHE") or Path.home() / ".cache" / "grundy")
    d.mkdir(parents=True, exist_ok=True)
    return d


@lru_cache(maxsize=None)
def compiler() -> str | None:
    """The C compiler's path, or None (no compiler, or native code switched off)."""
    if os.environ.get("GRUNDY_NATIVE", "1") == "0":
        return None
    for cc in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if cc and shutil.which(cc):
            return shutil.which(cc)
    return None


def available() -> bool:
    """True when C kernels can be built here."""
    return compiler() is not None


_loaded: dict[str, ctypes.CDLL] = {}


def compile_cost(source: str, quick: bool = False) -> float:
    """An estimate of the seconds :func:`load` spends compiling ``source`` on a machine like
    ours, from the text's length alone (so that what is decided from it never depends on the
    machine or on what is cached): a fit of GCC's time at -O0 (-Og takes as long; 24 KB 0.07 s,
    77 KB 0.4 s, 198 KB 1.9 s: one long ``successors`` costs more than its length), and 4
    times that optimized.

    >>> round(compile_cost("x" * 77_000, quick=True), 2)
    0.41
    """
    n = len(source)
    seconds = 0.02 + 2e-6 * n + 4e-11 * n * n
    return seconds if quick else 4 * seconds


def load(source: str, quick: bool = False, light: bool = False, core: str | None = None) -> ctypes.CDLL:
    """The library built from ``source`` (built now unless cached) with :data:`FLAGS`;
    ``quick``: :data:`QUICK_FLAGS` (-Og); ``light``: :data:`LIGHT_FLAGS` (-O1). ``core``: C
    compiled apart with the same flags into an object (:func:`obj`, built once for every
    library that links it) and linked with ``source``'s (a kernel's fixed search:
    :func:`grundy.solvers.native.codegen.split_source`). Raises :class:`BuildError`."""
    flags = _flags(quick, light)
    linked = "" if core is None else "\0" + core        # the object's text is part of the key
    key = hashlib.sha256((" ".join(flags) + "\n" + source + linked).encode()).hexdigest()[:24]
    if key in _loaded:
        return _loaded[key]
    target = _built(flags, source, f"k{key}.so", lambda: [] if core is None else [obj(core, quick, light)])
    lib = ctypes.CDLL(str(target))
    _loaded[key] = lib
    return lib


def obj(source: str, quick: bool = False, light: bool = False) -> Path:
    """The object file (``cc -c``, position-independent) built from ``source`` with :func:`load`'s
    flags, kept in the cache like a library (built now unless there; one build across processes).

    >>> obj("int thrice(int x) { return 3 * x; }", quick=True).suffix if available() else ".o"
    '.o'
    """
    flags = [f for f in _flags(quick, light) if f != "-shared"] + ["-c"]
    key = hashlib.sha256((" ".join(flags) + "\n" + source).encode()).hexdigest()[:24]
    return _built(flags, source, f"o{key}.o", list)


def _flags(quick: bool, light: bool) -> list[str]:
    return QUICK_FLAGS if quick else LIGHT_FLAGS if light else FLAGS


def _built(flags: list[str], source: str, name: str, objects: Callable[[], list[Path]]) -> Path:
    """The file ``name`` of the cache, compiled from ``source`` with ``flags`` (linked with
    ``objects()``, asked only when it is built) unless it is there: one build across processes."""
    cc = compiler()
    if cc is None:
        raise BuildError("no C compiler (or GRUNDY_NATIVE=0)")
    target = cache_dir() / name
    if not target.exists():
        linked = objects()
        with _building(name):               # one build per file: another process waits
            if not target.exists():         # built while this one waited: loaded, not built
                _compile(cc, flags, source, target, linked)
    return target


def _compile(cc: str, flags: list[str], source: str, target: Path, objects: Sequence[Path] = ()) -> None:
    """Compile ``source`` (linked with ``objects``) into ``target`` (written whole or not at all)."""
    with tempfile.TemporaryDirectory(dir=cache_dir()) as tmp:
        c = Path(tmp) / "k.c"
        c.write_text(source)
        so = Path(tmp) / "k.so"
        args = ["-o", str(so), str(c), *map(str, objects)]
        r = subprocess.run([cc, *flags, *args], capture_output=True, text=True)
        if r.returncode != 0 and "align-loops" in r.stderr:       # a compiler without the option
            plain = [f for f in flags if not f.startswith("-falign-loops")]
            r = subprocess.run([cc, *plain, *args], capture_output=True, text=True)
        if r.returncode != 0:
            raise BuildError(f"C compiler failed:\n{r.stderr[-4000:]}")
        os.replace(so, target)  # atomic: a process that does not lock still sees a whole file


@contextmanager
def _building(key: str) -> Iterator[None]:
    """Held while the library ``key`` is built: an exclusive lock on ``$GRUNDY_CACHE/locks/KEY``
    (two workers that need the same library, e.g. the interpreter's, build it once: the second
    waits, then loads the first one's file). Where files cannot be locked (no ``fcntl``, or a
    cache on a file system without locks), nothing is held: each process may build it, as
    before (the file is replaced whole, so either build is the one loaded).

    >>> with _building("demo"):
    ...     pass
    """
    try:
        import fcntl
        d = cache_dir() / "locks"
        d.mkdir(exist_ok=True)
        f = open(d / key, "a")
    except (ImportError, OSError):          # pragma: no cover - not on Linux
        yield
        return
    with f:
        try:
            fcntl.flock(f, fcntl.LOCK_EX)
        except OSError:                     # pragma: no cover - a file system without locks
            pass
        yield                               # closing the file releases the lock


@lru_cache(maxsize=None)
def fixed_c(package: str, name: str) -> str:
    """The text of a C file shipped in ``package`` (package data: the fixed C a generator
    puts around its per-game parts, or a whole kernel).

    >>> "typedef int64_t I;" in fixed_c("grundy.solvers.native", "c/runtime.c")
    True
    """
    return files(package).joinpath(name).read_text(encoding="utf-8")
