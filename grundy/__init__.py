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

_SUBPACKAGES = frozenset({"api", "caches", "cli", "digest", "errors", "solvers", "spec", "tools", "verify"})

# what lower layers ask of upper ones (see grundy.hooks): imported when first asked for
hooks.provide("position.svg", "grundy.tools.display:position_svg")
hooks.provide("position.html", "grundy.tools.display:position_html")
hooks.provide("result.html", "grundy.tools.display:result_html")
hooks.provide("verdict.html", "grundy.tools.display:verdict_html")
hooks.provide("solve", "grundy.api:solve")
hooks.provide("make_solver", "grundy.solvers.solver:Solver")


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
