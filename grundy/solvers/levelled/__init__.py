"""The levelled solver: level-synchronous retrograde analysis for games whose moves lower a proved rank.

Every position of the game is put in the level of its rank (the rules' ``rank``, e.g. the total
weight or the total heap size). Before anything runs, Z3 proves that every move lowers the rank
and that the rank is never negative (:func:`grundy.solvers.smt.obligations.check_rank`), and the
symmetry reduction is used only if its premise is proved (:func:`grundy.solvers.premises.prove_symmetry`);
the C checks besides, at every child, that its rank is below its parent's and that its canonical
form has its rank. Then:

- **forward**, from the highest rank of the starts down: the positions reachable from the
  starts, by canonical form, de-duplicated level by level;
- **backward**, from rank 0 up: each level's values (Grundy values, or outcomes) from the values
  of the levels below, which hold every child.

At most the levels a move can reach are kept live. Children and canonical forms come from the
kernel's C (:mod:`.ckernel`); nothing is game-specific. Each finished level is written to a
:class:`~.store.LevelStore` keyed by the run's content digest, so a run stopped anywhere resumes
at the level after the last one written. Two executions of the same algorithm: one process on
NumPy arrays (:mod:`.local`), or Dask DataFrames with a shuffle per level (:mod:`.cluster`);
``engine="auto"`` picks by a bound on the positions (:func:`choose`) and says which and why.

>>> from grundy.spec.games import get_game
>>> from grundy.spec import Structure
>>> import tempfile
>>> g = Structure.graph(range(3), [(0, 1), (0, 2), (1, 2)])
>>> st = solve_levelled(get_game("edge-nim"), g, [(1, 1, 1, 0), (2, 1, 1, 0)], root=tempfile.mkdtemp())
>>> st.note.split(":")[0], sorted(st.counts().items())[-2:]
('engine numpy', [(3, 2), (4, 1)])
>>> st.lookup([(1, 1, 1, 0), (2, 1, 1, 0)]).tolist()
[1, 2]
"""
from __future__ import annotations

import hashlib
import time
from dataclasses import dataclass
from math import factorial, prod
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import numpy as np

from ...spec.fingerprint import rules_digest
from ...spec.game import Game, Rules
from ...spec.structure import Structure
from . import local
from .ckernel import GRUNDY, OUTCOME, LevelError, LevelKernel
from .local import Stopped
from .store import LevelStore, default_root, run_digest

__all__ = ["solve_levelled", "LevelStore", "LevelError", "Grid", "choose", "AUTO_DASK", "prove_rank",
           "starts_by_rank", "Stopped", "run_parts"]

AUTO_DASK = 20_000_000      # "auto": Dask above this bound on the positions (box size / group order)
GRID_CHUNK = 1 << 20


@dataclass(frozen=True)
class Grid:
    """Starts given as a product: each slot's list of values (every combination is a start).

    >>> Grid(((1, 2), (1, 2), (0, 1, 2))).size
    12
    """

    values: tuple[tuple[int, ...], ...]

    @property
    def size(self) -> int:
        return prod(len(v) for v in self.values)

    def corners(self) -> list[tuple[int, ...]]:
        """The least and the largest state (the box around them holds the grid)."""
        return [tuple(min(v) for v in self.values), tuple(max(v) for v in self.values)]

    def keys(self, kern: LevelKernel, a: int, b: int) -> np.ndarray:
        """The keys of the grid's starts a..b-1 (the order of ``itertools.product``)."""
        idx = np.arange(a, b, dtype=np.int64)
        out = np.zeros(len(idx), np.uint64)
        box = kern.box
        for i in range(len(self.values) - 1, -1, -1):    # the last slot varies fastest
            vals = np.asarray(self.values[i], np.int64)
            digit = idx % len(vals)
            idx //= len(vals)
            out += ((vals[digit] - box.lo[i]).astype(np.uint64) * np.uint64(box.strides[i]))
        return out


def prove_rank(rules: Rules) -> None:
    """Z3's proof that every move lowers the rank and the rank stays >= 0; LevelError if not."""
    from ..smt.obligations import check_rank
    bad = [x for x in check_rank(rules) if x.status != "holds"]
    if bad:
        raise LevelError(f"the rank is not proved to fall at every move ({bad[0].obligation}: {bad[0].status}); "
                         f"the levelled solver needs it")


def _group_order(rules: Rules) -> int:
    from ..premises import symmetry_group
    g = symmetry_group(rules)
    if g is None:
        return 1
    head = g.name.split(" ", 1)[0]
    if head.startswith("S_"):
        return factorial(int(head[2:]))
    return int(head) if head.isdigit() else 1


def choose(rules: Rules, kern: LevelKernel, symmetry: bool, engine: str) -> tuple[str, str]:
    """The engine to use and why (``engine``: "numpy", "dask", or "auto": Dask when the box's
    positions over the group's order exceed :data:`AUTO_DASK`)."""
    order = _group_order(rules) if symmetry else 1
    bound = kern.box.size / order
    if engine != "auto":
        return engine, f"engine {engine}: as asked (bound {bound:.3g} positions)"
    pick = "dask" if bound > AUTO_DASK else "numpy"
    rel = ">" if pick == "dask" else "<="
    return pick, (f"engine {pick}: chosen by size (box {kern.box.size:.3g} / group {order:,} = {bound:.3g} "
                  f"positions {rel} {AUTO_DASK:.3g})")


def starts_by_rank(kern: LevelKernel, starts: Sequence[Sequence[int]] | Grid) -> dict[int, np.ndarray]:
    """The canonical keys of the starts, unique, by rank."""
    out: dict[int, np.ndarray] = {}
    batches: Iterator[np.ndarray]
    if isinstance(starts, Grid):
        chunks = ((a, min(a + GRID_CHUNK, starts.size)) for a in range(0, starts.size, GRID_CHUNK))
        batches = (kern.canon(starts.keys(kern, a, b)) for a, b in chunks)
    else:
        batches = iter([kern.canon(kern.keys(list(starts)))])
    for keys in batches:
        local._merge(out, keys, kern.ranks(keys))
    return out


def run_parts(rules: Rules, kern: LevelKernel, symmetry: bool, mode: str) -> dict[str, Any]:
    """What a run was computed for, but its starts (with them, :func:`~.store.run_digest`): the
    rules' IR digest, the box, whether the canonical form is used, the mode, and the SHA-256 of
    the C text that generates the children and the canonical forms."""
    return {"rules": rules_digest(rules), "box": [list(kern.box.lo), list(kern.box.radix), list(kern.box.order)],
            "symmetry": symmetry, "mode": mode, "c": hashlib.sha256(kern.text.encode()).hexdigest()}


def solve_levelled(game: Game, structure: Structure, starts: Sequence[Sequence[int]] | Grid, *,
                   mode: str = "grundy", engine: str = "auto", root: str | Path | None = None,
                   partitions: int | None = None, client: Any = None, symmetry: bool = True,
                   progress: Callable[[str], None] | None = None, max_levels: int | None = None,
                   chunk: int = local.CHUNK, until: Callable[[], str | None] | None = None) -> LevelStore:
    """Every position reachable from ``starts`` (states in the schema's order, or a :class:`Grid`)
    solved level by level; the store holding them (``store.note``: the engine and why).

    ``mode``: "grundy" (values) or "outcome" (0: P, 1: N). ``engine``: "numpy", "dask" or
    "auto" (:func:`choose`). ``root``: where stores live (default ``$GRUNDY_CACHE/levelled``).
    ``partitions``: Dask's partitions per level; ``client``: a ``distributed.Client`` (default: a
    ``LocalCluster`` for the run). A run cut short, to resume: ``max_levels``, stop after that
    many levels made (the two passes counted together); ``until()``, asked before each level, stops there when it gives a
    reason; the store is then returned with ``store.stopped`` (a :class:`Stopped`: why, and
    where), else ``store.stopped`` is None and every level is done. LevelError: the rank or the C
    check failed."""
    if mode not in ("grundy", "outcome"):
        raise ValueError(f"mode {mode!r}: 'grundy' or 'outcome'")
    rules = game.rules(structure)
    prove_rank(rules)
    if symmetry:
        from ..premises import prove_symmetry
        symmetry = prove_symmetry(rules).holds
    corners = starts.corners() if isinstance(starts, Grid) else list(starts)
    kern = LevelKernel.make(rules, corners, symmetry)
    c0 = time.process_time()
    by_rank = starts_by_rank(kern, starts)
    starts_cpu = time.process_time() - c0
    allstarts = np.concatenate(list(by_rank.values())) if by_rank else np.zeros(0, np.uint64)
    about = {"game": game.name, "structure": repr(structure)[:200], "mode": mode, "symmetry": symmetry,
             "starts": int(len(allstarts))}
    parts = run_parts(rules, kern, symmetry, mode)
    digest = run_digest(parts, allstarts)
    store = LevelStore(Path(root) if root is not None else default_root(), digest, about)
    store.record_parts(parts, allstarts)          # what it was computed for: a value source checks it
    pick, store.note = choose(rules, kern, symmetry, engine)
    store.kernel = kern
    if progress:
        progress(store.note)
    store.manifest["starts_cpu"] = starts_cpu
    m = OUTCOME if mode == "outcome" else GRUNDY
    if pick == "dask":
        from . import cluster
        store.stopped = cluster.run(kern, store, by_rank, m, partitions=partitions, client=client,
                                    progress=progress, max_levels=max_levels, until=until)
    else:
        before = len(store.done("fwd"))
        store.stopped = local.forward(kern, store, by_rank, chunk, progress, max_levels, until)
        if store.stopped is None:      # max_levels counts the levels of both passes (as the Dask path's)
            left = None if max_levels is None else max_levels - (len(store.done("fwd")) - before)
            store.stopped = local.backward(kern, store, m, chunk, progress, left, until)
    if store.stopped is None:
        _starts_values(store, by_rank)
    return store


def _starts_values(store: LevelStore, by_rank: dict[int, np.ndarray]) -> None:
    """Record the canonical starts and how many of them have value 0 (P)."""
    zero = 0
    for r, keys in by_rank.items():
        ks, vs = store.values(r)
        i = np.minimum(np.searchsorted(ks, keys), max(len(ks) - 1, 0))
        if not len(ks) or not np.array_equal(ks[i], keys):
            raise LevelError(f"a start of rank {r} missing from its level")
        zero += int((vs[i] == 0).sum())
    store.record_run(starts_canonical=int(sum(len(k) for k in by_rank.values())), starts_zero=zero)
