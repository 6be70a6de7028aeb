"""One-heap value tables, and the positions of a sum of heaps answered from them.

>>> from grundy.spec import TakeAndBreak, make_position
>>> from grundy.spec.heaprule import TakeBreak
>>> class Code(TakeAndBreak):
...     name = "doc-0.6"
...     def code(self, g):
...         return TakeBreak((0, 6))
>>> game = Code()
>>> p = make_position(game, *game.read({"heaps": [1000, 3]}))
>>> g = heap_values(game.heap_rule(p.structure), 1000)
>>> HeapTables().value(p) == g[1000] ^ g[3]
True
"""
from __future__ import annotations

import json

from ...errors import RuleError
from ...spec.game import Game
from ...spec.heaprule import NO_ROOM_WHY, OneHeap
from ...spec.position import Position
from .rules import heap_values, rule_options, sum_of_heaps

__all__ = ["HeapTables"]


class HeapTables:
    """One-heap values per rule (a game and its parameters), grown on demand (doubling): the
    Grundy value of a position of a heap-rule game is the XOR of its heaps' values."""

    def __init__(self) -> None:
        self.tables: dict[tuple, tuple[Game | None, list[int]]] = {}   # (id of the game, parameters) -> (game, G)

    def table(self, rule: OneHeap, top: int) -> list[int]:
        key = (id(rule.game), rule.key)       # by the game object (kept with its table): two games
        table = self.tables.get(key, (None, []))[1]        # of one name never share a table
        if top >= len(table):
            table = heap_values(rule, max(top, 2 * len(table), 64 if rule.code is not None else 16))
            self.tables[key] = (rule.game, table)
        return table

    def value(self, pos: Position) -> int | None:
        """The position's Grundy value, or None if the game is not a sum of heaps by construction
        (:func:`~grundy.solvers.heaps.rules.sum_of_heaps`)."""
        if pos.convention != "normal":
            return None
        rule = sum_of_heaps(pos.game, pos.structure)
        return None if rule is None else self.values(rule, [pos.state])[0]

    def values(self, rule: OneHeap, states: list[tuple[int, ...]]) -> list[int]:
        """The Grundy values (normal play) of many positions of one heap rule on one structure:
        the XOR of their heaps' values."""
        rows = [rule.heaps(s) for s in states]
        table = self.table(rule, max((max(h, default=0) for h in rows), default=0))
        out = []
        for heaps in rows:
            x = 0
            for h in heaps:
                x ^= table[h]
            out.append(x)
        return out

    def options(self, pos: Position) -> list[tuple[str, Position]] | None:
        """The moves of a position of a heap-rule game (one option in one heap), or None.
        The first part stays in the heap's slot, the others go to the first empty slots: the
        same positions as the game's moves on its slots."""
        return self._moves(pos, winning=False)

    def winning_moves(self, pos: Position) -> list[tuple[str, Position]] | None:
        """The moves to a position of value 0 (normal play), found from the one-heap values
        without building the other options; None if the game is not a sum of heaps."""
        if pos.convention != "normal":
            return None
        return self._moves(pos, winning=True)

    def _moves(self, pos: Position, winning: bool) -> list[tuple[str, Position]] | None:
        rule = sum_of_heaps(pos.game, pos.structure)
        if rule is None:
            return None
        state = pos.state
        empty = [j for j, h in enumerate(state) if h == 0]
        total = self.values(rule, [state])[0] if winning else 0
        table = self.table(rule, max(state, default=0)) if winning else []
        out = []
        for i, h in enumerate(state):
            if h == 0:
                continue
            for label, parts in rule_options(rule, h):
                if winning:
                    x = total ^ table[h]          # parts are smaller than h: in the table
                    for p in parts:
                        x ^= table[p]
                    if x != 0:
                        continue
                if len(parts) - 1 > len(empty):
                    raise RuleError(f"{rule.game.name}: move {label.replace('{heap}', str(i + 1))!r} at "
                                    f"{json.dumps(pos.game.write(pos.structure, pos.values()))} does not "
                                    f"fit heaps on {len(state)}: {NO_ROOM_WHY}")
                new = list(state)
                new[i] = parts[0] if parts else 0
                for j, p in zip(empty, parts[1:], strict=False):
                    new[j] = p
                out.append((label.replace("{heap}", str(i + 1)), pos.with_state(tuple(new))))
        return out
