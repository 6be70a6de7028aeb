"""Loading theorem files and running their claims, each in a worker process with a time limit.

>>> import pathlib, tempfile
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> _ = (d / "demo.py").write_text('''
... from grundy.verify import Claim, heaps
... CLAIMS = [Claim("demo/nim", game="nim", kind="char", family=heaps(2), bounds={"heap": 4},
...                 statement=lambda g, s: s.heap[0] == s.heap[1])]
... ''')
>>> claims = load([str(d)])
>>> [c.id for c in claims]
['demo/nim']
>>> [v.verdict for v in run(claims, jobs=1)]
['verified']
"""
from __future__ import annotations

from ..errors import GrundyError
import fnmatch
import multiprocessing as mp
import os
import signal
import time
from multiprocessing.connection import wait
from pathlib import Path
from typing import Callable, Iterable, Iterator

from ..spec.game import Game
from ..spec.registry import GAMES, import_file
from .claims import Claim, ClaimError, check_findings
from .families import Positions
from .verdict import ERROR, UNKNOWN, Verdict

DEFAULT_TIMEOUT = 120.0
GRACE = 2.0          # seconds a worker gets past its limit before it is killed


class LoadError(GrundyError):
    """A theorem file that cannot be used: the message names the file (and claim)."""


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


def load_file(path: Path, scanned: bool = False) -> list[Claim]:
    """The CLAIMS of one theorem file, checked: known games, well-formed claims.

    The file may import modules beside it (its folder is importable while it runs, and the
    modules it imports from there are forgotten afterwards, so folders do not leak into each
    other). ``scanned``: the file was found in a folder, where a games module (one that
    defines games and no CLAIMS, or one loaded with ``--games``) is skipped."""
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
    from .claims import _eager
    for fam in (c.family, c.full_family):
        if fam is not None and not isinstance(fam, Positions) and _eager(fam) and len(fam):
            g = fam.items()[0][1]
            c.check_fields([f.name for f in GAMES[c.game].fields(g)])


def _line_in(e: BaseException, path: Path) -> str:
    import traceback
    for fr in reversed(traceback.extract_tb(e.__traceback__)):
        if Path(fr.filename).resolve() == path.resolve():
            return f":{fr.lineno}"
    return ""


def load(paths: Iterable[str], only: list[str] | None = None) -> list[Claim]:
    """Every claim in the theorem files (``only``: ids or glob patterns such as ``selfref/*``)."""
    claims: list[Claim] = []
    seen: dict[str, str] = {}
    for f, scanned in _theorem_files(paths):
        for c in load_file(f, scanned):
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


# ------------------------------------------------------------------------------- running
_CLAIMS: list[Claim] = []          # what forked workers read


def _limit(claim: Claim, timeout: float | None) -> float:
    return timeout if timeout is not None else (claim.timeout or DEFAULT_TIMEOUT)


def _worker(i: int, conn, profile: str, limit: float) -> None:
    from .check import check_claim
    signal.signal(signal.SIGINT, signal.SIG_IGN)     # Ctrl-C is the parent's: it stops the workers

    def progress(text: str) -> None:
        try:
            conn.send(("progress", text))
        except (BrokenPipeError, OSError):
            pass

    v = check_claim(_CLAIMS[i], profile=profile, timeout=limit, progress=progress)
    conn.send(("done", v.to_json()))
    conn.close()


def run(claims: list[Claim], *, jobs: int = 1, timeout: float | None = None, profile: str = "quick",
        progress: Callable[[str], None] | None = None, executor: str | None = None) -> Iterator[Verdict]:
    """Check the claims in up to ``jobs`` worker processes; yield verdicts in claim order.

    On KeyboardInterrupt (Ctrl-C, or SIGTERM turned into one by the command line) the
    verdicts already finished but held back for the claim order are yielded, in order, before
    the interrupt goes on; the workers still running are killed.

    A claim gets ``timeout`` seconds (default: its own ``timeout``, else 120); a worker that
    runs past it (and a short grace) is killed and its claim is ``unknown``. With ``executor``
    (``local:N``, ``dask://HOST:PORT``) each claim's family is cut into chunks run there
    instead (see :mod:`grundy.verify.executor`; ``jobs`` is then unused). Each verdict carries
    its claim's text, source, reading and finding (:meth:`Claim.describe`).
    """
    if executor is not None:
        from . import executor as chunked
        with chunked.executor(executor) as ex:
            yield from chunked.run(claims, ex, timeout=timeout, profile=profile, progress=progress)
        return
    global _CLAIMS
    _CLAIMS = list(claims)
    if "fork" not in mp.get_all_start_methods():      # pragma: no cover - not on Linux
        from .check import check_claim
        for c in claims:
            yield check_claim(c, profile=profile, timeout=_limit(c, timeout))
        return
    ctx = mp.get_context("fork")
    done: dict[int, Verdict] = {}
    running: dict[int, tuple] = {}        # index -> (process, conn, start, limit)
    status: dict[int, str] = {}
    pending = list(range(len(claims)))
    emitted = 0
    jobs = max(1, jobs)
    try:
        while pending or running:
            while pending and len(running) < jobs:
                i = pending.pop(0)
                a, b = ctx.Pipe(duplex=False)
                limit = _limit(claims[i], timeout)
                p = ctx.Process(target=_worker, args=(i, b, profile, limit), daemon=True)
                p.start()
                b.close()
                running[i] = (p, a, time.monotonic(), limit)
                status[i] = "starting"
            wait([r[1] for r in running.values()] + [r[0].sentinel for r in running.values()],
                         timeout=0.2)
            now = time.monotonic()
            for i, (p, conn, start, limit) in list(running.items()):
                result = None
                try:
                    while conn.poll():
                        kind, data = conn.recv()
                        if kind == "progress":
                            status[i] = data
                        else:
                            result = Verdict.from_json(data)
                except (EOFError, OSError):
                    if result is None:
                        p.join(1)
                        result = _lost(claims[i], now - start, f"the worker died (exit code {p.exitcode})")
                if result is None and now - start > limit + GRACE:
                    p.kill()
                    result = _lost(claims[i], now - start, f"timed out after {limit:g} s", UNKNOWN)
                if result is not None:
                    p.join(1)
                    conn.close()
                    del running[i]
                    done[i] = result
            if progress is not None and running:
                progress(_status_line(claims, emitted + len(done), running, status))
            while emitted in done:
                yield done.pop(emitted)
                emitted += 1
    except KeyboardInterrupt:
        for p, conn, _, _ in running.values():
            p.kill()
        for i in sorted(done):                # finished while an earlier claim still ran
            yield done.pop(i)
        raise
    finally:
        for p, conn, _, _ in running.values():
            p.kill()
            conn.close()


def _lost(c: Claim, seconds: float, why: str, verdict: str = ERROR) -> Verdict:
    return Verdict(c.id, c.kind, verdict, c.expect, scope="", seconds=seconds, detail=why, paper=c.paper,
                   **c.describe())


def _status_line(claims: list[Claim], finished: int, running: dict, status: dict) -> str:
    now = time.monotonic()
    parts = [f"{claims[i].id} ({now - r[2]:.0f} s{': ' + status[i] if status.get(i) else ''})"
             for i, r in running.items()]
    return f"[{finished}/{len(claims)}] " + " | ".join(parts)


def default_jobs() -> int:
    return max(1, min(os.cpu_count() or 1, 8))
