"""The Z3 backend: a game's IR as Z3 formulas, and the proof obligations of claims.

``width=None`` proves for all sizes (unbounded integers); ``width=k`` uses k-bit vectors
with fields bounded, computed without wrap-around (see :mod:`.encode`).

>>> from grundy.spec.games import get_game
>>> from grundy.spec import Structure
>>> r = get_game("nim").rules(Structure.heaps(2))
>>> [x.status for x in check_rank(r)]
['holds', 'holds', 'holds']
"""
from .encode import EXPAND_LIMIT, Encoding, Exists, encoding, intervals, normalize, substitute
from .obligations import (
    SmtResult,
    check_grundy_formula,
    check_nonempty,
    check_partition,
    check_parts_smaller,
    check_rank,
    check_strategy,
)

__all__ = ["SmtResult", "check_rank", "check_partition", "check_grundy_formula", "check_strategy", "check_nonempty", "check_parts_smaller",
           "Encoding", "encoding", "Exists", "EXPAND_LIMIT", "intervals", "normalize", "substitute"]
