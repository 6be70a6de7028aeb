"""Where the loader and the scheduler were before 0.3 (kept importable): the loader is
:mod:`grundy.verify.loading`, the scheduler :mod:`grundy.verify.schedule.pool`."""
from .loading import LoadError, load, load_file, theorem_files
from .schedule.pool import default_jobs, group_key, run, schedule

__all__ = ["LoadError", "load", "load_file", "theorem_files", "run", "group_key", "schedule", "default_jobs"]
