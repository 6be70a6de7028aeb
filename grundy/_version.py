"""grundy's version: the installed distribution's, read once (no other grundy module is
imported here, so that the base layer and ``grundy --version`` can read it cheaply).

>>> __version__ == version()
True
"""
from __future__ import annotations

from functools import lru_cache

FALLBACK = "0+unknown"      # a source tree that is not installed (no distribution metadata)


@lru_cache(maxsize=None)
def version() -> str:
    """The version of the installed ``grundy`` distribution, or :data:`FALLBACK`."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed
    try:
        return installed("grundy")
    except PackageNotFoundError:
        return FALLBACK


__version__ = version()
