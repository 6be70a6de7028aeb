"""grundy's version, written here once (``pyproject.toml`` reads it for the distribution's
metadata); no other grundy module is imported here, so that the base layer and
``grundy --version`` read it cheaply (importing ``importlib.metadata`` alone costs about 20 ms).

>>> __version__ == version()
True
"""
from __future__ import annotations

__version__ = "0.2.0"


def version() -> str:
    """The version of grundy."""
    return __version__
