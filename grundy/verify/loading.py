"""Loading theorem files: the ``CLAIMS`` of each file, checked (known games, well-formed
claims, unique ids, findings that name claims loaded with them).

>>> import pathlib, tempfile
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = (d / "demo.py").write_text('''
... from grundy.verify import Claim, heaps
... CLAIMS = [Claim("demo/nim", game="nim", kind="char", family=heaps(2), bounds={"heap": 4},
...                 statement=lambda g, s: s.heap[0] == s.heap[1])]
... ''')
>>> [c.id for c in load([str(d)])]
['demo/nim']
>>> load([str(d / "missing.py")])
Traceback (most recent call last):
...
grundy.errors.LoadError: ...missing.py: no such file or directory
"""
from __future__ import annotations

import fnmatch
import traceback
from pathlib import Path
from typing import Iterable

from ..errors import LoadError
from ..spec.game import Game
from ..spec.registry import GAMES, import_file
from .claims import Claim, ClaimError, _eager
from .families import Positions

__all__ = ["LoadError", "theorem_files", "load_file", "load", "check_findings", "check_ids"]


def theorem_files(paths: Iterable[str]) -> list[Path]:
    """The .py files named, or found (not starting with "_") in the directories named."""
    return [f for f, _ in _theorem_files(paths)]


def _theorem_files(paths: Iterable[str]) -> list[tuple[Path, bool]]:
    """(file, found in a directory scan) for each theorem file."""
    out: list[tuple[Path, bool]] = []
    for p in map(Path, paths):
        if p.is_dir():
            out.extend((f, True) for f in sorted(p.glob("*.py")) if not f.name.startswith("_"))
        elif p.is_file():
            out.append((p, False))
        else:
            raise LoadError(f"{p}: no such file or directory")
    return out


def _holds_claims(value: object) -> bool:
    """A Claim, or a list or tuple with one in it (``CLAIM = [Claim(...)]`` is a typo, not a helper)."""
    if isinstance(value, (list, tuple)):
        return any(isinstance(v, Claim) for v in value)
    return isinstance(value, Claim)


def load_file(path: Path, scanned: bool = False, notes: list[str] | None = None) -> list[Claim]:
    """The CLAIMS of one theorem file, checked: known games, well-formed claims.

    The file may import modules beside it (its folder is importable while it runs, and the
    modules it imports from there are forgotten afterwards, so folders do not leak into each
    other). ``scanned``: the file was found in a folder, where a games module (one that
    defines games and no CLAIMS, or one loaded with ``--games``) is skipped, and so is any
    other file that defines no ``CLAIMS`` (a helper), with a one-line note put in ``notes``
    (name a helper ``_x.py`` to have it skipped unread)."""
    if scanned and str(path.resolve()) in GAMES.files:
        return []
    name = "grundy_theorems_" + "".join(ch if ch.isalnum() else "_" for ch in str(path.resolve()))
    try:
        mod = import_file(path, name, LoadError, passthrough=(ClaimError,))
    except ClaimError as e:
        msg = str(e)                             # a Claim names its file:line; a Finding is found here
        raise LoadError(_relative(msg, path) if msg.startswith("/") else f"{path}{_line_in(e, path)}: {msg}") from None
    claims = getattr(mod, "CLAIMS", None)
    if claims is None and scanned and any(isinstance(v, Game) for v in vars(mod).values()):
        return []                                  # a games module beside the theorem files
    if claims is None and scanned and any(_holds_claims(v) for v in vars(mod).values()):
        raise LoadError(f"{path}: defines claims but no list CLAIMS (a theorem file lists its "
                        f"claims in CLAIMS)")      # a typo such as CLAIM = [...] is never skipped
    if claims is None and scanned:                 # a helper module beside the theorem files
        if notes is not None:
            notes.append(f"{path}: defines no CLAIMS, skipped (a helper module; a name starting "
                         f"with '_' skips it unread)")
        return []
    if not isinstance(claims, list):
        raise LoadError(f"{path}: defines no list CLAIMS")
    for i, c in enumerate(claims):
        if not isinstance(c, Claim):
            raise LoadError(f"{path}: CLAIMS[{i}] is not a Claim")
        if c.game != "sum" and c.game not in GAMES:
            raise LoadError(f"{path}: claim {c.id!r}: {GAMES.unknown(c.game)}")
        c.file = str(path)
        try:
            _check_fields(c)
        except ClaimError as e:
            raise LoadError(_relative(str(e), path)) from None
    return claims


def _relative(msg: str, path: Path) -> str:
    """The message with the theorem file's absolute path written as given (and named once)."""
    full = str(path.resolve())
    if msg.startswith(full):
        return str(path) + msg[len(full):]
    return msg if msg.startswith("/") else f"{path}: {msg}"


def _check_fields(c: Claim) -> None:
    """Bounds keys that are not fields of the game (families already built: the first structure)."""
    for fam in (c.family, c.full_family):
        if fam is not None and not isinstance(fam, Positions) and _eager(fam) and len(fam):
            g = fam.items()[0][1]
            c.check_fields([f.name for f in GAMES[c.game].fields(g)])


def _line_in(e: BaseException, path: Path) -> str:
    for fr in reversed(traceback.extract_tb(e.__traceback__)):
        if Path(fr.filename).resolve() == path.resolve():
            return f":{fr.lineno}"
    return ""


def load(paths: Iterable[str], only: list[str] | None = None, notes: list[str] | None = None) -> list[Claim]:
    """Every claim in the theorem files (``only``: ids or glob patterns such as ``selfref/*``);
    ``notes``: one line for each file of a folder skipped for defining no ``CLAIMS``."""
    claims: list[Claim] = []
    seen: dict[str, str] = {}
    for f, scanned in _theorem_files(paths):
        for c in load_file(f, scanned, notes):
            if c.id in seen:
                raise LoadError(f"{f}: claim {c.id!r} is already defined in {seen[c.id]}")
            seen[c.id] = str(f)
            claims.append(c)
    try:
        check_findings(claims)                   # before --only: a finding may name a claim left out
    except ClaimError as e:
        where = next(c.file for c in claims if repr(c.id) in str(e))
        raise LoadError(_relative(str(e), Path(where))) from None
    if only:
        for pat in only:
            if not any(fnmatch.fnmatchcase(c.id, pat) for c in claims):
                raise LoadError(f"--only {pat}: no such claim")
        claims = [c for c in claims if any(fnmatch.fnmatchcase(c.id, p) for p in only)]
    return claims


def check_findings(claims: Iterable[Claim]) -> None:
    """ClaimError if a finding names a claim that is not among ``claims``.

    >>> from grundy.verify.claims import Claim, Finding
    >>> from grundy.verify.families import heaps
    >>> c = Claim("demo/a", game="nim", kind="char", family=heaps(1), statement=lambda g, s: True,
    ...           expect="refuted", finding=Finding("paper-error", corrected="demo/a-fixed"))
    >>> check_findings([c])  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    grundy.errors.ClaimError: ...claim 'demo/a': its finding names 'demo/a-fixed', which is not a claim
    """
    claims = list(claims)
    ids = {c.id for c in claims}
    for c in claims:
        if c.finding is not None and c.finding.corrected and c.finding.corrected not in ids:
            raise c.fail(f"its finding names {c.finding.corrected!r}, which is not a claim")


def check_ids(claims: Iterable[Claim]) -> None:
    """ClaimError if two claims share an id."""
    seen: set[str] = set()
    for c in claims:
        if c.id in seen:
            raise ClaimError(f"claim {c.id!r} is defined twice")
        seen.add(c.id)
