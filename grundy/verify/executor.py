"""Where the chunked executors were before 0.3 (kept importable): :mod:`grundy.verify.schedule.chunks`."""
from .schedule.chunks import (
    CHUNKS_PER_WORKER,
    ChunkFailed,
    ChunkMap,
    Dask,
    ExecutorError,
    Local,
    Task,
    chunkable,
    cut,
    executor,
    map_chunks,
    merge,
    run,
    run_chunk,
    span,
)

__all__ = ["CHUNKS_PER_WORKER", "ChunkFailed", "ChunkMap", "Dask", "ExecutorError", "Local", "Task", "chunkable",
           "cut", "executor", "map_chunks", "merge", "run", "run_chunk", "span"]
