"""Coin-turning games as a value source: a position is the nim-sum of its heads.

Where :func:`~grundy.solvers.premises.coin_turning.coin_turning` proves by Z3 that a game's
rule on a structure is a coin-turning game (one bool field; every move turns a fixed set of
coins, is legal exactly where its last coin shows heads, and reads no other coin), the value of
any position on that structure is the XOR of the single-head values, computed once per
structure by the mex recursion in the coins' order (Winning Ways, ch. 14). Normal play only,
and only where the solver may decompose (``Solver(decompose=False)`` never asks it). Anything
else (no bool field, a move of another shape, a premise not proved) is declined: the next
source answers, from the moves.

>>> from grundy.spec import Field, Game, Structure, ite, move, total
>>> from grundy.solvers.solver import Solver
>>> from grundy.spec.position import Position
>>> class Ruler(Game):                    # turn a run of coins ending at a head, leftwards
...     name, summary, structure = "doc-ruler", "doc", "heaps"
...     def fields(self, g): return [Field("coin", over="heaps", kind="bool")]
...     def moves(self, g, s):
...         for c in g.elements:
...             for a in range(c + 1):
...                 yield move(f"turn {a}..{c}", guard=s.coin[c],
...                            update=s.set(coin={i: ~s.coin[i] for i in range(a, c + 1)}))
...     def rank(self, g, s): return total(ite(s.coin[i], 2 ** i, 0) for i in g.elements)
>>> solver = Solver(native=False)
>>> [solver.grundy(Position(Ruler(), Structure.heaps(8), tuple(int(i == c) for i in range(8))))
...  for c in range(8)]                  # the ruler function: the largest power of 2 dividing c + 1
[1, 2, 1, 4, 1, 2, 1, 8]
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .explicit.compile import State
from .premises.coin_turning import CoinTurning, coin_turning

if TYPE_CHECKING:
    from .context import SourceContext
    from .sources import Query

__all__ = ["CoinTurningSource", "COIN_TURNING_SOURCE"]

COIN_TURNING_SOURCE = "coin-turning decomposition, proved by Z3 on the rule"
MAX_KNOWN = 4096         # structures whose analysis a source keeps (the last met)


class CoinTurningSource:
    """Coin-turning games (premise proved by Z3 per structure): the XOR of single-head values."""

    name = COIN_TURNING_SOURCE
    premises = "the coin-turning shape of the rule, proved by Z3 on the structure before any answer"

    def __init__(self) -> None:
        self._known: dict[tuple[int, Any], tuple[Any, CoinTurning | None]] = {}   # keeps the game: its id stays its own

    def analysis(self, q: "Query") -> CoinTurning | None:
        """The premise (and single-head values) of ``q``'s game on its structure, once each;
        None for a game whose position is not one bool field (asked nothing of Z3)."""
        key = (id(q.game), q.structure)
        hit = self._known.get(key)
        if hit is None:
            try:
                fields = q.game.fields(q.structure)
                coins = len(fields) == 1 and fields[0].kind == "bool"
                ct = coin_turning(q.game.rules(q.structure)) if coins else None
            except Exception:    # noqa: BLE001  (a rule that does not build: the next source says how, as before)
                ct = None
            if len(self._known) >= MAX_KNOWN:               # a sweep over many structures: the oldest go
                del self._known[next(iter(self._known))]
            hit = self._known[key] = (q.game, ct)
        return hit[1]

    def can_answer(self, ctx: "SourceContext", q: "Query") -> bool:
        if not ctx.decompose or q.convention != "normal":
            return False
        ct = self.analysis(q)
        return ct is not None and ct.holds

    def values(self, ctx: "SourceContext", q: "Query", states: list[State]) -> list[Any] | None:
        ct = self.analysis(q)
        if ct is None or not ct.holds or not ctx.decompose or q.convention != "normal":
            return None
        ctx.note(q.game, q.structure, COIN_TURNING_SOURCE)
        vals = [ct.value(tuple(s)) for s in states]
        return vals if q.question == "grundy" else [v != 0 for v in vals]
