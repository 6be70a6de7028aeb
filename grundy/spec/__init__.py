"""The declarative layer: expressions, structures, schemas, games and positions."""
from ..errors import InputError
from .bits import bit_and, bit_or, nim_product, popcount, shift_left, shift_right
from .expr import Expr, Var, all_of, any_of, count, evaluate, implies, ite, lift, maximum, minimum, not_, show, total
from .game import Choice, Game, Move, Rules, move
from .graphs import GraphGame
from .heaprule import HeapRule, OneHeap, RuleHeaps, TakeAndBreak, TakeBreak, option, parse_octal
from .heaps import HeapGame, check_distinct, distinct, smallest
from .position import (
    GraphInput,
    Position,
    SumPosition,
    make_position,
    natural,
    need,
    read_graph,
    read_heaps,
    read_position,
    write_graph,
)
from .registry import GAMES, GameError, get_game, load_games, register
from .schema import Field, Schema, SymState
from .strategy import Play, Strategy, move_index, plays
from .structure import Structure

__all__ = ["Expr", "Var", "all_of", "any_of", "count", "evaluate", "implies", "ite", "lift",
           "maximum", "minimum", "not_", "show", "total", "Structure", "Field", "Schema", "SymState",
           "Choice", "Game", "HeapRule", "OneHeap", "RuleHeaps", "TakeAndBreak", "TakeBreak", "option",
           "parse_octal", "Move", "Rules", "move", "Play", "Strategy", "move_index", "plays", "InputError",
           "Position", "make_position", "natural", "need", "read_graph", "read_heaps", "read_position",
           "write_graph", "GraphInput", "SumPosition", "GAMES", "GameError", "get_game", "load_games", "register",
           "HeapGame", "check_distinct", "distinct", "smallest", "GraphGame",
           "nim_product", "popcount", "bit_and", "bit_or", "shift_left", "shift_right"]
