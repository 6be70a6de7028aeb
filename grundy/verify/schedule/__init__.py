"""Scheduling the checks of many claims: :mod:`.pool` (each claim whole, in long-lived worker
processes that share a solver per group of claims) and :mod:`.chunks` (each claim's family cut
into chunks run by an executor: ``local:N`` processes or a Dask cluster)."""
from .chunks import ExecutorError, executor, map_chunks
from .pool import default_jobs, group_key, run, schedule

__all__ = ["run", "group_key", "schedule", "default_jobs", "executor", "ExecutorError", "map_chunks"]
