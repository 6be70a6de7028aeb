"""The level store: a levelled run's positions and values on disk, level by level, and its manifest.

One directory per run, named by the run's content digest (:func:`run_digest`: the rules' IR
digest, the box, whether the canonical form is used, the C text that generates the children and
the canonical forms, the mode and the canonical start keys), so that a run
of the same question finds and resumes it, and a changed rule, start or mode finds nothing:

- ``fwd/R/part-I.npy``: the canonical keys of rank R (the forward pass), sorted in each part;
- ``val/R/part-I.keys.npy`` and ``part-I.vals.npy``: the keys of rank R and their values (the
  backward pass; Grundy values, or outcomes 0 = P and 1 = N), sorted by key in each part;
- ``manifest.json``: the levels finished in each pass, with their counts and costs, the largest
  rank a move was seen to drop (the levels a pass keeps live), and what the run is: under
  ``parts`` what its digest was computed from but the starts (the rules' IR digest, the box, the
  canonical form used or not, the mode, the SHA-256 of the C text);
- ``starts.npy``: the canonical start keys, sorted (with ``parts``: the digest again, so that a
  reader can check what the store was computed for: :meth:`LevelStore.check_digest`).

A level's directory is written under a temporary name and renamed, then the manifest is
replaced: a run stopped anywhere leaves every level the manifest names complete.

>>> import tempfile
>>> s = LevelStore(Path(tempfile.mkdtemp()), "d" * 64, {"what": "test"})
>>> s.put("fwd", 3, [np.array([5, 7], np.uint64)], {"rows": 9})
>>> s.done("fwd"), s.keys(3).tolist(), s.counts("fwd")
([3], [5, 7], {3: 2})
"""
from __future__ import annotations

import hashlib
import json
import os
import shutil
from pathlib import Path
from typing import Any, Iterator

import numpy as np

from ...digest import cache_root

__all__ = ["LevelStore", "run_digest", "write_part", "FORMAT", "default_root"]

FORMAT = 1        # the layout and meaning of the files (a change makes every store stale)


def default_root() -> Path:
    """``$GRUNDY_CACHE/levelled``."""
    return cache_root() / "levelled"


def run_digest(parts: dict[str, Any], starts: np.ndarray) -> str:
    """The SHA-256 of ``parts`` (JSON, sorted keys) and the sorted unique start keys."""
    h = hashlib.sha256(json.dumps({"format": FORMAT, **parts}, sort_keys=True, default=str).encode())
    h.update(np.unique(np.asarray(starts, np.uint64)).tobytes())
    return h.hexdigest()


def write_part(where: Path, kind: str, i: int, part: Any) -> int:
    """Write part ``i`` of a level into the directory ``where``; its length."""
    if kind == "fwd":
        np.save(Path(where) / f"part-{i:05d}.npy", np.asarray(part, np.uint64))
        return len(part)
    np.save(Path(where) / f"part-{i:05d}.keys.npy", np.asarray(part[0], np.uint64))
    np.save(Path(where) / f"part-{i:05d}.vals.npy", np.asarray(part[1], np.uint8))
    return len(part[0])


class LevelStore:
    """The files of one levelled run (see the module's docstring)."""

    def __init__(self, root: Path, digest: str, about: dict[str, Any]):
        self.digest = digest
        self.note = ""                  # the engine used and why (set by the solver)
        self.kernel: Any = None         # the LevelKernel of the run (set by the solver): lookup's keys
        self.stopped: Any = None        # why the last run stopped before its end (a local.Stopped), or None
        self.path = Path(root) / digest[:32]
        self.path.mkdir(parents=True, exist_ok=True)
        mf = self.path / "manifest.json"
        self.manifest: dict[str, Any] = json.loads(mf.read_text()) if mf.exists() else {}
        if self.manifest.get("digest") != digest:
            self.manifest = {"digest": digest, "format": FORMAT, "about": about, "drop": 0,
                             "fwd": {}, "val": {}}
            self._save()

    @classmethod
    def open(cls, path: str | Path) -> "LevelStore":
        """The store in the directory ``path`` as it is (nothing reset); LookupError if it has no
        manifest, or its manifest is not this format's or not for this directory's digest."""
        d = Path(path)
        try:
            mf = json.loads((d / "manifest.json").read_text())
        except (OSError, ValueError) as e:
            raise LookupError(f"{d}: not a level store (no readable manifest.json: {e})") from None
        digest = mf.get("digest")
        if mf.get("format") != FORMAT or not isinstance(digest, str) or d.name != digest[:32]:
            raise LookupError(f"{d}: not a level store of format {FORMAT} named by its digest")
        return cls(d.parent, digest, mf.get("about", {}))

    def __repr__(self) -> str:
        return f"LevelStore({str(self.path)!r}, levels={len(self.done('fwd'))}, positions={self.positions:,})"

    # the manifest ---------------------------------------------------------------------------
    def _save(self) -> None:
        tmp = self.path / f"manifest.json.{os.getpid()}.tmp"     # a name of its own: another process may save too
        tmp.write_text(json.dumps(self.manifest, indent=1, sort_keys=True))
        os.replace(tmp, self.path / "manifest.json")

    def done(self, kind: str) -> list[int]:
        """The ranks finished in pass ``kind`` ("fwd" or "val"), ascending."""
        return sorted(int(r) for r in self.manifest[kind])

    def counts(self, kind: str = "fwd") -> dict[int, int]:
        """Positions per finished level."""
        return {int(r): v["count"] for r, v in sorted(self.manifest[kind].items(), key=lambda x: int(x[0]))}

    def stats(self, kind: str) -> dict[int, dict[str, Any]]:
        """Each finished level's record: count, rows (children generated), seconds, ..."""
        return {int(r): v for r, v in self.manifest[kind].items()}

    @property
    def drop(self) -> int:
        """The largest rank drop a move was seen to make (from the levels expanded so far)."""
        return int(self.manifest["drop"])

    def set_drop(self, d: int) -> None:
        if d > self.drop:
            self.manifest["drop"] = int(d)
            self._save()

    def record_parts(self, parts: dict[str, Any], starts: np.ndarray) -> None:
        """Record what the run is computed for (``parts`` and its start keys: :func:`run_digest`'s
        arguments), unless recorded already."""
        if self.manifest.get("parts") == parts and (self.path / "starts.npy").exists():
            return
        tmp = self.path / f"starts.{os.getpid()}.tmp.npy"
        np.save(tmp, np.unique(np.asarray(starts, np.uint64)))
        os.replace(tmp, self.path / "starts.npy")
        self.manifest["parts"] = parts
        self._save()

    def check_digest(self) -> str | None:
        """Why the recorded parts and starts do not give the store's digest (None: they do)."""
        parts = self.manifest.get("parts")
        if not isinstance(parts, dict) or not (self.path / "starts.npy").exists():
            return "it does not record what it was computed for (written before the record was kept)"
        if run_digest(parts, np.load(self.path / "starts.npy")) != self.digest:
            return "its record of what it was computed for does not give its digest"
        return None

    @property
    def finished(self) -> bool:
        """Every level of the forward pass has its values, and the run recorded its starts' values."""
        return "starts_zero" in self.manifest and set(self.done("fwd")) <= set(self.done("val"))

    @property
    def positions(self) -> int:
        return sum(self.counts("fwd").values())

    def counts_digest(self) -> str:
        """The SHA-256 (16 hex digits) of the forward counts, rank by rank: two runs compare by it."""
        return hashlib.sha256(json.dumps(sorted(self.counts("fwd").items())).encode()).hexdigest()[:16]

    def clear(self) -> None:
        """Forget every level (the files and the manifest's records)."""
        for kind in ("fwd", "val"):
            shutil.rmtree(self.path / kind, ignore_errors=True)
            self.manifest[kind] = {}
        self.manifest["drop"] = 0
        for k in ("starts_zero", "starts_canonical"):
            self.manifest.pop(k, None)
        self._save()

    # the levels -----------------------------------------------------------------------------
    def _dir(self, kind: str, r: int) -> Path:
        return self.path / kind / str(r)

    def begin(self, kind: str, r: int) -> Path:
        """A fresh temporary directory for level ``r`` of pass ``kind`` (its parts are written there,
        by any process that sees this file system, then :meth:`commit` makes it the level)."""
        tmp = self._dir(kind, r).with_name(f".{r}.tmp")
        shutil.rmtree(tmp, ignore_errors=True)
        tmp.mkdir(parents=True)
        return tmp

    def commit(self, kind: str, r: int, count: int, parts: int, record: dict[str, Any]) -> None:
        """Make the temporary directory level ``r`` and record it finished."""
        final = self._dir(kind, r)
        shutil.rmtree(final, ignore_errors=True)
        os.replace(final.with_name(f".{r}.tmp"), final)
        self.manifest[kind][str(r)] = {**record, "count": int(count), "parts": int(parts)}
        self._save()

    def put(self, kind: str, r: int, parts: list[Any], record: dict[str, Any]) -> None:
        """Write level ``r`` of pass ``kind`` (parts: key arrays for "fwd", (keys, values) pairs
        for "val") and record it finished with ``record`` (its count is added)."""
        tmp = self.begin(kind, r)
        count = sum(write_part(tmp, kind, i, p) for i, p in enumerate(parts))
        self.commit(kind, r, count, len(parts), record)

    def record_run(self, **more: Any) -> None:
        """Add to the run's own record (the manifest's top level)."""
        self.manifest.update(more)
        self._save()

    def record(self, kind: str, r: int, **more: Any) -> None:
        """Add to a finished level's record (costs measured after it was written)."""
        self.manifest[kind][str(r)].update(more)
        self._save()

    def part_files(self, kind: str, r: int) -> list[Path]:
        """The files of level ``r``: key arrays ("fwd"), or the key arrays of (keys, values) ("val")."""
        d = self._dir(kind, r)
        pat = "part-*.npy" if kind == "fwd" else "part-*.keys.npy"
        return sorted(d.glob(pat)) if d.exists() else []

    def keys(self, r: int) -> np.ndarray:
        """The canonical keys of rank ``r``, sorted (every part)."""
        parts = [np.load(f) for f in self.part_files("fwd", r)]
        if not parts:
            return np.zeros(0, np.uint64)
        out = np.concatenate(parts)
        return out if len(parts) == 1 else np.sort(out)

    def values(self, r: int) -> tuple[np.ndarray, np.ndarray]:
        """The keys of rank ``r`` and their values, sorted by key."""
        ks, vs = [], []
        for f in self.part_files("val", r):
            ks.append(np.load(f))
            vs.append(np.load(str(f).replace(".keys.npy", ".vals.npy")))
        if not ks:
            return np.zeros(0, np.uint64), np.zeros(0, np.uint8)
        k, v = np.concatenate(ks), np.concatenate(vs)
        if len(ks) > 1:
            o = np.argsort(k, kind="stable")
            k, v = k[o], v[o]
        return k, v

    def lookup(self, states: list[Any]) -> np.ndarray:
        """The values of ``states`` (each reachable from the starts; LookupError if one is not stored)."""
        k = self.kernel
        keys = k.canon(k.keys(states))
        ranks = k.ranks(keys)
        out = np.zeros(len(keys), np.uint8)
        for r in np.unique(ranks).tolist():
            m = ranks == r
            ks, vs = self.values(r)
            i = np.minimum(np.searchsorted(ks, keys[m]), max(len(ks) - 1, 0))
            if not len(ks) or not np.array_equal(ks[i], keys[m]):
                raise LookupError(f"a position of rank {r} not in the store (not reachable from the starts)")
            out[m] = vs[i]
        return out

    def levels(self) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
        """(rank, keys, values) of every level with values, rank ascending."""
        for r in self.done("val"):
            k, v = self.values(r)
            yield r, k, v
