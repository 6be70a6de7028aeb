"""The researcher's workbench: positions typed as people write them, tables of values,
plots, playing a position, and how results display in a notebook.

>>> import grundy
>>> grundy.table("wythoff", range(3), range(3), outcome=True).values()
['P', 'N', 'N', 'N', 'N', 'P', 'N', 'P', 'N']
>>> grundy.solve(grundy.tools.short_position(["grim", "C4"]))
{'grundy': 0, 'outcome': 'P'}
"""
from . import display  # noqa: F401  (fills the verdicts' notebook renderer)
from .explorer import Explorer, explore
from .graphs import family_graph, named_graph
from .play import Option, Session
from .plot import MissingDependency, find_period, plot_ppositions, plot_values
from .positions import draw, graph_position, short_position
from .table import ValueTable, table

__all__ = ["named_graph", "family_graph", "Session", "Option", "plot_ppositions", "plot_values",
           "find_period", "MissingDependency", "short_position", "graph_position", "draw", "table",
           "ValueTable", "explore", "Explorer"]


def __getattr__(name: str) -> type:
    if name == "Play":             # renamed in 0.3: grundy.spec.Play is a strategy's case
        import warnings
        warnings.warn("grundy.tools.Play is deprecated: it is grundy.Session now", DeprecationWarning,
                      stacklevel=2)
        return Session
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
