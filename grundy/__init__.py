"""grundy: state an impartial game's rules once; solve it and check claims about it.

>>> import grundy
>>> grundy.solve({"game": "nim", "heaps": [1, 2, 3]})
{'grundy': 0, 'outcome': 'P'}
"""
from typing import TYPE_CHECKING, Any

from .api import as_position, solve
from .errors import GrundyError, RuleError
from .solvers import hooks as _hooks
from .solvers.octal import octal_values
from .solvers.solver import CycleError, Solver, SolverLimit
from .spec import (
    Field,
    Game,
    GameError,
    GraphGame,
    HeapGame,
    HeapRule,
    InputError,
    Position,
    Structure,
    SumPosition,
    TakeAndBreak,
    TakeBreak,
    all_of,
    any_of,
    count,
    ite,
    load_games,
    make_position,
    maximum,
    minimum,
    move,
    option,
    read_graph,
    read_heaps,
    read_position,
    register,
    total,
    write_graph,
)
from .spec import heaprule as _heaprule
from .spec.position import RENDERERS as _RENDERERS
from .spec.registry import GAMES, get_game
from .tools import Session, ValueTable, named_graph, plot_ppositions, plot_values, short_position, table


def _display() -> "Any":
    from .tools import display  # when a notebook first draws a position: no cost at start-up
    return display


# spec imports nothing above it: what it needs from above is installed here (for now)
_RENDERERS.update(svg=lambda pos: _display().position_svg(pos),    # notebooks draw positions
                  html=lambda pos: _display().position_html(pos))
_heaprule.SOLVE = solve                                      # the deprecated HeapRule.solve_heaps
_hooks.MAKE_SOLVER = Solver                                  # check_game's decomposition check

if TYPE_CHECKING:
    from .solvers.gamecheck import GameReport

from ._version import __version__  # noqa: E402
from .api import RENDERERS as _RESULT_RENDERERS  # noqa: E402
from .tools.display import result_html as _result_html  # noqa: E402

_RESULT_RENDERERS["html"] = _result_html      # wired here, the one module that knows api and tools


def check_game(game: "Game | str", structures: "list[Structure] | None" = None, **kw: "Any") -> "GameReport":
    """Check the properties ``game`` (a Game or a registered name) declares — heap count,
    field domains, rank, symmetries, components — on ``structures`` (default: small ones suited
    to it); see :func:`grundy.solvers.gamecheck.check_game` for the options.

    >>> check_game("wythoff", smt=False).ok
    True
    """
    from .solvers.gamecheck import check_game as run
    return run(game, structures, **kw)


__all__ = ["solve", "as_position", "GrundyError", "RuleError", "CycleError", "Solver", "SolverLimit", "Field", "Game", "HeapRule", "TakeAndBreak", "TakeBreak", "option", "InputError", "Position",
           "Structure", "all_of", "any_of", "ite", "make_position", "maximum", "minimum", "move",
           "read_position", "total", "GAMES", "get_game", "octal_values", "check_game", "GameError", "GraphGame",
           "HeapGame", "SumPosition", "count", "load_games", "read_graph", "read_heaps", "register", "write_graph",
           "Session", "ValueTable", "named_graph", "plot_ppositions", "plot_values", "short_position", "table"]
