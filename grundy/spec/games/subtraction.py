"""Subtraction games S(s1, s2, ...): remove s tokens from one heap, s in a finite set
(``"set"`` in the JSON). Last mover wins. S(1, 3, 4) has period 7: 0, 1, 0, 1, 2, 3, 2.

As a take-and-break code, digit 3 ("leave one heap or none") at every k in the set.

>>> from grundy import solve
>>> [solve({"game": "subtraction", "set": [1, 3, 4], "heaps": [n]})["grundy"] for n in range(8)]
[0, 1, 0, 1, 2, 3, 2, 0]
"""
from typing import Any

from grundy.spec import InputError, Structure, TakeAndBreak, TakeBreak, natural, need

MAX_MOVE = 100_000     # the code has one digit per k up to max(set)


class Subtraction(TakeAndBreak):
    name = "subtraction"
    summary = "Subtraction game: remove s tokens from one heap, s in the finite set \"set\"."

    def code(self, g: Structure) -> TakeBreak:
        s = g.param("set")
        return TakeBreak(tuple(3 if k in s else 0 for k in range(max(s) + 1)))

    def check_positions(self) -> list[dict[str, Any]]:
        return [{"set": [1, 3, 4], "heaps": [6, 4]}, {"set": [2, 5], "heaps": [7, 3, 2]}]

    def read_params(self, obj: dict[str, Any]) -> dict[str, Any]:
        s = need(obj, "set")
        if not isinstance(s, list) or not s:
            raise InputError("set", f"must be a non-empty list of positive integers, got {s!r}")
        out = tuple(sorted({natural(x, f"set[{i}]", 1) for i, x in enumerate(s)}))
        if out[-1] > MAX_MOVE:
            raise InputError("set", f"{out[-1]} is too large (at most {MAX_MOVE})")
        return {"set": out}


GAME = Subtraction()
