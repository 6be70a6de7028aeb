"""The researcher's workbench: positions typed as people write them, tables of values,
plots, playing a position, and how results display in a notebook.

>>> import grundy
>>> grundy.table("wythoff", range(3), range(3), outcome=True).values()
['P', 'N', 'N', 'N', 'N', 'P', 'N', 'P', 'N']
>>> grundy.solve(grundy.tools.short_position(["grim", "C4"]))
{'grundy': 0, 'outcome': 'P'}
"""
from __future__ import annotations

import importlib
from typing import Any

from . import display  # noqa: F401  (fills the verdicts' notebook renderer)
from .table import ValueTable, table  # eager: the module's name is the function's, which must win

# Each public name and the module that defines it, imported when first asked for (a command
# that needs a table does not load the explorer, the player or the plots).
_HOME = {"named_graph": "graphs", "family_graph": "graphs", "Session": "play", "Option": "play",
         "plot_ppositions": "plot", "plot_values": "plot", "find_period": "plot", "MissingDependency": "plot",
         "short_position": "positions", "graph_position": "positions", "draw": "positions", "explore": "explorer", "Explorer": "explorer"}

__all__ = ["named_graph", "family_graph", "Session", "Option", "plot_ppositions", "plot_values",
           "find_period", "MissingDependency", "short_position", "graph_position", "draw", "table",
           "ValueTable", "explore", "Explorer"]


def __getattr__(name: str) -> Any:
    if name in _HOME:
        value = getattr(importlib.import_module(f".{_HOME[name]}", __name__), name)
        globals()[name] = value
        return value
    if name == "Play":             # renamed in 0.3: grundy.spec.Play is a strategy's case
        import warnings
        warnings.warn("grundy.tools.Play is deprecated: it is grundy.Session now", DeprecationWarning,
                      stacklevel=2)
        return __getattr__("Session")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
