"""grundy: state an impartial game's rules once; solve it and check claims about it.

>>> import grundy
>>> grundy.solve({"game": "nim", "heaps": [1, 2, 3]})
{'grundy': 0, 'outcome': 'P'}

The names of ``grundy.__all__`` load when first used: ``import grundy`` alone loads
neither networkx, nor Z3, nor matplotlib. The rest of the API lives in its layer:
``grundy.spec`` (rules, expressions, positions), ``grundy.verify`` (claims, families),
``grundy.tools`` (tables, plots, pictures), ``grundy.errors`` (every error grundy raises).
"""
from __future__ import annotations

import importlib
import sys
import warnings
from typing import TYPE_CHECKING, Any

from . import hooks
from ._version import __version__ as __version__

__all__ = ["solve", "as_position", "Position", "SumPosition", "Structure", "Game", "GraphGame",
           "HeapGame", "HeapRule", "TakeAndBreak", "Field", "move", "option", "register", "load_games",
           "Solver", "check_game", "table", "Session", "GrundyError", "explore"]

_HOME = {  # name -> the module that defines it
    **dict.fromkeys(["solve", "as_position"], "grundy.api"),
    **dict.fromkeys(["Position", "SumPosition", "Structure", "Game", "GraphGame", "HeapGame", "HeapRule",
                     "TakeAndBreak", "Field", "move", "option", "register", "load_games"], "grundy.spec"),
    "Solver": "grundy.solvers.solver", "check_game": "grundy.solvers.gamecheck",
    "explore": "grundy.tools.explorer",
    **dict.fromkeys(["table", "Session"], "grundy.tools"), "GrundyError": "grundy.errors",
}

_MOVED = {  # exported here before 0.3: still served, with a DeprecationWarning naming their home
    **dict.fromkeys(["RuleError", "CycleError", "SolverLimit", "InputError", "GameError"], "grundy.errors"),
    **dict.fromkeys(["TakeBreak", "all_of", "any_of", "count", "ite", "make_position", "maximum", "minimum",
                     "read_graph", "read_heaps", "read_position", "total", "write_graph", "GAMES", "get_game"],
                    "grundy.spec"),
    **dict.fromkeys(["ValueTable", "named_graph", "plot_ppositions", "plot_values", "short_position"],
                    "grundy.tools"),
}

_SUBPACKAGES = frozenset({"api", "caches", "cli", "digest", "errors", "settings", "solvers", "spec", "tools", "verify"})

# what lower layers ask of upper ones (see grundy.hooks): imported when first asked for
hooks.provide("solve", "grundy.api:solve")
hooks.provide("make_solver", "grundy.solvers.solver:Solver")

# how a notebook shows grundy's objects: renderers in grundy.tools.display, registered with
# IPython's formatters by class name (nothing imported until an object is shown), so that the
# lower layers carry no _repr_ hook and no edge back up to tools
_RENDERERS = [("image/svg+xml", "grundy.spec.position", "Position", "position_svg"),
              ("text/html", "grundy.spec.position", "Position", "position_html"),
              ("text/html", "grundy.spec.position", "SumPosition", "position_html"),
              ("text/html", "grundy.api", "SolveResult", "result_html"),
              ("text/html", "grundy.verify.verdict", "Verdict", "verdict_html")]


def _renderer(name: str) -> Any:
    def render(obj: Any) -> Any:
        from .tools import display
        return getattr(display, name)(obj)
    return render


def register_notebook_renderers(shell: Any = None) -> bool:
    """Register grundy's pictures and tables with IPython's display formatters (done when
    ``grundy`` is imported inside IPython or Jupyter; call it yourself after starting IPython
    later). False when there is no IPython shell."""
    if shell is None:
        ipython = sys.modules.get("IPython")
        shell = ipython.get_ipython() if ipython is not None else None
    if shell is None:
        return False
    for mime, module, cls, name in _RENDERERS:
        shell.display_formatter.formatters[mime].for_type_by_name(module, cls, _renderer(name))
    return True


register_notebook_renderers()


def octal_values(code: str, n: int) -> list[int]:
    """Deprecated: ``grundy.solvers.heaps.takebreak_run(parse_octal(code), n).values``."""
    warnings.warn("grundy.octal_values is deprecated: use grundy.solvers.heaps.takebreak_run("
                  "grundy.spec.parse_octal(code), n).values, or grundy values octal N --code CODE",
                  DeprecationWarning, stacklevel=2)
    from .solvers.heaps import takebreak_run
    from .spec.heaprule import parse_octal
    return takebreak_run(parse_octal(code), n).values


def __getattr__(name: str) -> Any:
    if name in _HOME:
        value = globals()[name] = getattr(importlib.import_module(_HOME[name]), name)
        return value
    if name in _MOVED:
        warnings.warn(f"grundy.{name} is deprecated: import it from {_MOVED[name]}", DeprecationWarning,
                      stacklevel=2)
        return getattr(importlib.import_module(_MOVED[name]), name)
    if name in _SUBPACKAGES:             # grundy.spec, grundy.tools, ... without importing them first
        return importlib.import_module(f"grundy.{name}")
    if name == "Play":
        warnings.warn("grundy.Play is deprecated: it is grundy.Session (grundy.spec.Play is a strategy's case)",
                      DeprecationWarning, stacklevel=2)
        return __getattr__("Session")
    raise AttributeError(f"module 'grundy' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted([*__all__, "__version__"])


if TYPE_CHECKING:  # type checkers and editors see the same names, imported eagerly
    from .api import as_position, solve
    from .errors import GrundyError
    from .solvers.gamecheck import check_game
    from .solvers.solver import Solver
    from .spec import (
        Field,
        Game,
        GraphGame,
        HeapGame,
        HeapRule,
        Position,
        Structure,
        SumPosition,
        TakeAndBreak,
        load_games,
        move,
        option,
        register,
    )
    from .tools.explorer import explore
    from .tools.play import Session
    from .tools.table import table
