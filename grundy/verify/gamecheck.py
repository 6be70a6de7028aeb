"""Moved to :mod:`grundy.solvers.gamecheck` (solvers do not import ``verify``); this name stays
for code that imported it from here."""
from ..solvers.gamecheck import *  # noqa: F401,F403
from ..solvers.gamecheck import __all__, parse_structure  # noqa: F401
