"""The levelled algorithm on Dask DataFrames (a ``distributed`` cluster; a ``LocalCluster`` on one machine).

The same passes as :mod:`.local`, each level one shuffle (the p2p shuffle where ``distributed``
has it, else the task shuffle), the C inside ``map_partitions`` (each task carries the kernel's
text: :class:`~.ckernel.LevelKernel` pickles as its text, and a worker builds or finds the
library on disk):

- forward, level R: the children of the levels above with rank R and the starts of rank R,
  shuffled on the key into ``partitions`` parts, each made unique and sorted, written by the
  worker that holds it; then expanded (C) into (key, rank) rows, kept in the cluster's memory
  for the levels below they reach;
- backward, level R: the level's parts read back and expanded into (parent, child) rows (a row
  with no child for each parent, so that a position with no move is not lost), joined on the
  child with the values of the levels below (a hash join: both sides shuffled on the key), the
  result shuffled on the parent, and each part reduced to the parents' values (C), then written.

Parts are written by the workers into the store's directory, so the workers and the client
must share that file system (one machine, or a shared mount). Each level's record has the rows
shuffled, the bytes they take in memory (rows x row size: the data the shuffle moves, without
its framing) and the peak resident memory of each worker so far.
"""
from __future__ import annotations

import os
import resource
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

from .ckernel import GRUNDY, LevelError, LevelKernel
from .local import Stopped, Until, stop_here
from .store import LevelStore, write_part

__all__ = ["run", "local_cluster", "shuffle_method"]

NONE = np.uint64(2 ** 64 - 1)        # the child of a parent's own row (never a key: keys are below 2^63)


def _pd() -> Any:
    """pandas (imported where a task or a pass first needs it: the numpy path never does)."""
    import pandas  # type: ignore[import-untyped,unused-ignore]
    return pandas


def shuffle_method() -> str:
    """"p2p" where ``distributed`` provides it, else "tasks"."""
    try:
        import distributed.shuffle  # noqa: F401
        return os.environ.get("GRUNDY_LEVELLED_SHUFFLE", "p2p")
    except ImportError:
        return "tasks"


def local_cluster(workers: int = 2) -> Any:
    """A LocalCluster of single-threaded worker processes (no memory limit, no dashboard)."""
    import dask
    from distributed import LocalCluster
    dask.config.set({"distributed.worker.profile.enabled": False})
    return LocalCluster(n_workers=workers, threads_per_worker=1, processes=True, dashboard_address=None,
                        memory_limit=0)


# ------------------------------------------------------------------------ the tasks (in workers)
def _unique_write(df: Any, where: str, partition_info: Any = None) -> Any:
    pd = _pd()
    keys = np.unique(df["key"].to_numpy(np.uint64))
    write_part(Path(where), "fwd", partition_info["number"], keys)
    return pd.DataFrame({"key": keys})


def _expand(df: Any, kern: LevelKernel, r: int) -> Any:
    pd = _pd()
    keys = df["key"].to_numpy(np.uint64)
    child, crank, _ = kern.expand(keys, np.full(len(keys), r, np.int64))
    return pd.DataFrame({"key": child, "rank": crank})


def _pairs(df: Any, kern: LevelKernel, r: int) -> Any:
    pd = _pd()
    keys = df["key"].to_numpy(np.uint64)
    child, _, parent = kern.expand(keys, np.full(len(keys), r, np.int64))
    return pd.DataFrame({"parent": np.concatenate([keys[parent], keys]),
                         "child": np.concatenate([child, np.full(len(keys), NONE, np.uint64)])})


def _mex_write(df: Any, kern: LevelKernel, mode: int, where: str, partition_info: Any = None) -> Any:
    pd = _pd()
    parent = df["parent"].to_numpy(np.uint64)
    child = df["child"].to_numpy(np.uint64)
    val = df["val"].to_numpy(np.float64)
    own = child == NONE
    if np.isnan(val[~own]).any():
        raise LevelError("a child missing from the levels below (the forward pass is incomplete)")
    keys, idx = np.unique(parent, return_inverse=True)
    sel = ~own
    o = np.argsort(idx[sel], kind="stable")
    vals = kern.mex(idx[sel][o], val[sel][o].astype(np.uint8), len(keys), mode)
    write_part(Path(where), "val", partition_info["number"], (keys, vals))
    return pd.DataFrame({"n": [len(keys)], "zeros": [int((vals == 0).sum())], "rows": [int(sel.sum())]})


def _peak() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _cpu() -> float:
    return time.process_time()


def _load_keys(path: str) -> Any:
    pd = _pd()
    return pd.DataFrame({"key": np.load(path)})


def _load_vals(path: str) -> Any:
    pd = _pd()
    return pd.DataFrame({"key": np.load(path), "val": np.load(path.replace(".keys.npy", ".vals.npy"))})


# ------------------------------------------------------------------------ the passes (the client)
class _Run:
    def __init__(self, kern: LevelKernel, store: LevelStore, client: Any, partitions: int,
                 progress: Callable[[str], None] | None, max_levels: int | None, until: Until | None = None):
        pd = _pd()
        self.kern, self.store, self.client, self.p = kern, store, client, partitions
        self.progress, self.max_levels, self.until, self.made = progress, max_levels, until, 0
        self.method = shuffle_method()
        self.meta_keys = pd.DataFrame({"key": np.zeros(0, np.uint64)})
        self.meta_rows = pd.DataFrame({"key": np.zeros(0, np.uint64), "rank": np.zeros(0, np.int64)})

    def peaks(self) -> dict[str, float]:
        return {str(k): round(v, 1) for k, v in self.client.run(_peak).items()}

    def cpu(self) -> float:
        """CPU seconds so far of the workers and this process (a level's cost: the difference)."""
        return sum(self.client.run(_cpu).values()) + time.process_time()

    def tick(self, what: str, r: int) -> Stopped | None:
        """Whether to stop before rank ``r`` of pass ``what`` (else one more level is counted)."""
        halt = stop_here(self.made, self.max_levels, self.until, what, r)
        if halt is None:
            self.made += 1
        return halt

    def say(self, line: str) -> None:
        if self.progress:
            self.progress(line)

    def expand(self, level: Any, r: int) -> Any:
        """The children of a level, persisted: (key, rank) rows."""
        return level.map_partitions(_expand, self.kern, r, meta=self.meta_rows).persist()

    def forward(self, starts: dict[int, np.ndarray]) -> Stopped | None:
        import dask.dataframe as dd
        pd = _pd()
        store = self.store
        top = max(starts) if starts else -1
        done = store.done("fwd")
        low = min(done) if done else top + 1
        pending: dict[int, list[Any]] = {}

        def spread(rows: Any, r: int, below: int) -> None:
            for q in range(max(0, r - store.drop), min(r, below)):
                pending.setdefault(q, []).append(rows[rows["rank"] == q][["key"]])

        for r in range(low, min(low + store.drop, top + 1)):
            lv = dd.from_map(_load_keys, [str(f) for f in store.part_files("fwd", r)], meta=self.meta_keys)
            spread(self.expand(lv, r), r, low)
        for r in range(low - 1, -1, -1):
            halt = self.tick("forward", r)
            if halt is not None:
                return halt
            t0, c0 = time.perf_counter(), self.cpu()
            frames = pending.pop(r, [])
            if r in starts:
                frames.append(dd.from_pandas(pd.DataFrame({"key": starts[r]}), npartitions=1))
            tmp = store.begin("fwd", r)
            if not frames:
                store.commit("fwd", r, 0, 0, {"rows": 0, "shuffled_rows": 0, "engine": "dask"})
                continue
            df = (dd.concat(frames) if len(frames) > 1 else frames[0]).persist()   # the shuffle's input, in memory
            level = df.shuffle("key", npartitions=self.p, shuffle_method=self.method)
            level = level.map_partitions(_unique_write, str(tmp), meta=self.meta_keys).persist()
            rows = self.expand(level, r)
            shuffled, count, n, least = self.client.compute(
                [df.key.count(), level.key.count(), rows.key.count(), rows["rank"].min()], sync=True)
            n = int(n)
            store.set_drop((r - int(least)) if n else 0)
            spread(rows, r, r)
            store.commit("fwd", r, count, self.p, {
                "rows": n, "shuffled_rows": int(shuffled), "shuffled_bytes": 8 * int(shuffled),
                "seconds": time.perf_counter() - t0, "cpu": self.cpu() - c0, "worker_peak_mib": self.peaks(),
                "engine": "dask"})
            self.say(f"forward rank {r}: {count:,} positions, {n:,} children, {shuffled:,} rows shuffled, "
                     f"{time.perf_counter() - t0:.2f} s")
        return None

    def backward(self, mode: int) -> Stopped | None:
        import dask.dataframe as dd
        pd = _pd()
        store = self.store
        done = set(store.done("val"))
        meta_pairs = pd.DataFrame({"parent": np.zeros(0, np.uint64), "child": np.zeros(0, np.uint64)})
        meta_vals = pd.DataFrame({"key": np.zeros(0, np.uint64), "val": np.zeros(0, np.uint8)})
        meta_out = pd.DataFrame({"n": np.zeros(0, np.int64), "zeros": np.zeros(0, np.int64),
                                 "rows": np.zeros(0, np.int64)})
        for r in store.done("fwd"):
            if r in done:
                continue
            halt = self.tick("backward", r)
            if halt is not None:
                return halt
            t0, c0 = time.perf_counter(), self.cpu()
            files = [str(f) for f in store.part_files("fwd", r)]
            tmp = store.begin("val", r)
            if not files:
                store.commit("val", r, 0, 0, {"rows": 0, "engine": "dask"})
                continue
            keys = dd.from_map(_load_keys, files, meta=self.meta_keys)
            pairs = keys.map_partitions(_pairs, self.kern, r, meta=meta_pairs)
            lower = [str(f) for q in range(max(0, r - store.drop), r) for f in store.part_files("val", q)]
            if lower:
                vals = dd.from_map(_load_vals, lower, meta=meta_vals)
                joined = pairs.merge(vals, how="left", left_on="child", right_on="key", npartitions=self.p,
                                     shuffle_method=self.method)[["parent", "child", "val"]]
            else:
                joined = pairs.assign(val=np.float64("nan"))
            byparent = joined.shuffle("parent", npartitions=self.p, shuffle_method=self.method)
            out = byparent.map_partitions(_mex_write, self.kern, mode, str(tmp), meta=meta_out)
            got = self.client.compute(out, sync=True)
            count, zeros, nrows = int(got["n"].sum()), int(got["zeros"].sum()), int(got["rows"].sum())
            npairs = nrows + count
            nlow = sum(store.counts("val").get(q, 0) for q in range(max(0, r - store.drop), r))
            store.commit("val", r, count, self.p, {
                "rows": nrows, "shuffled_rows": 2 * int(npairs) + nlow,
                "shuffled_bytes": 16 * int(npairs) + 9 * nlow + 17 * int(npairs),
                "seconds": time.perf_counter() - t0, "cpu": self.cpu() - c0, "zeros": zeros,
                "worker_peak_mib": self.peaks(), "engine": "dask"})
            self.say(f"backward rank {r}: {count:,} positions, {zeros:,} of value 0, {npairs:,} rows, "
                     f"{time.perf_counter() - t0:.2f} s")
        return None


def run(kern: LevelKernel, store: LevelStore, starts: dict[int, np.ndarray], mode: int = GRUNDY, *,
        partitions: int | None = None, client: Any = None, progress: Callable[[str], None] | None = None,
        max_levels: int | None = None, until: Until | None = None) -> Stopped | None:
    """Both passes on ``client`` (default: a :func:`local_cluster` of 2 workers for the run), from
    where the store left them; ``partitions`` per level (default: 2 per worker thread). Why the
    run stopped early (``max_levels``, ``until``: as :func:`.local.forward`'s), else None."""
    own = None
    if client is None:
        from distributed import Client
        own = local_cluster(int(os.environ.get("GRUNDY_LEVELLED_WORKERS", "2")))
        client = Client(own)
    try:
        p = partitions or max(2, 2 * sum(client.nthreads().values()))
        store.note += f"; {len(client.nthreads())} Dask workers, {p} partitions, {shuffle_method()} shuffle"
        r = _Run(kern, store, client, p, progress, max_levels, until)
        # persist() and the shuffles on this client (a client made with set_as_default=False, as
        # --executor dask:// makes it, is not the default one: they would run on the threaded scheduler)
        with client.as_current():
            halt = r.forward(starts)
            return halt if halt is not None else r.backward(mode)
    finally:
        if own is not None:
            client.close()
            own.close()
