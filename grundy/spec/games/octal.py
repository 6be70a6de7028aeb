"""Octal games (take-and-break), in CGSuite's notation "d0.d1d2d3...".

Digit d_k says what may be left after removing k tokens from one heap: bit 1,
nothing (the whole heap of k is removed); bit 2, one heap; bit 4, two non-empty
heaps. d0 (before the point, removing nothing) may only be 0 or 4 (split a heap
in two). Kayles is 0.77, Dawson's Kayles 0.07, Node Kayles 0.137 (and claim
grim/thm23 says grim on a path is 0.6). Last mover wins.

>>> from grundy import solve
>>> [solve({"game": "octal", "code": "0.77", "heaps": [n]})["grundy"] for n in range(8)]
[0, 1, 2, 3, 1, 4, 3, 2]
>>> solve({"game": "octal", "code": "0.8", "heaps": [3]})
Traceback (most recent call last):
...
grundy.errors.InputError: code: '0.8' is not an octal code: digits 0-7, as in "0.77" or "4.07"
"""
from typing import Any

from grundy.spec import Structure, TakeAndBreak, TakeBreak, need, parse_octal


class Octal(TakeAndBreak):
    name = "octal"
    summary = ("Octal game with code d0.d1d2... (\"code\" in the JSON): removing k tokens from a heap "
               "may leave no heap if d_k has bit 1, one heap if bit 2, two non-empty heaps if bit 4. "
               "Last mover wins.")

    def code(self, g: Structure) -> TakeBreak:
        return parse_octal(g.param("code"))

    def read_params(self, obj: dict[str, Any]) -> dict[str, Any]:
        return {"code": parse_octal(need(obj, "code")).text}     # the code without trailing zeros

    def check_positions(self) -> list[dict[str, Any]]:
        """A code of each sort (removal only, breaks, splits), on enough slots for every break."""
        return [{"code": "0.07", "heaps": [6, 4]}, {"code": "0.6", "heaps": [6, 4]},
                {"code": "4.07", "heaps": [5, 3]}, {"code": "0.137", "heaps": [7, 3]}]


GAME = Octal()
