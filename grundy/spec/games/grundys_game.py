"""Grundy's game (Berlekamp, Conway and Guy, *Winning Ways*, ch. 4): "split a heap into two
heaps of different sizes". Heaps of 1 and 2 cannot be split. Last mover wins.

Written as the take-and-break code "4.0" with unequal splits, so one-heap values come from
the sparse-space method.

>>> from grundy import solve
>>> [solve({"game": "grundys-game", "heaps": [n]})["grundy"] for n in range(12)]
[0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2]
"""
from grundy.spec import Structure, TakeAndBreak, TakeBreak


class GrundysGame(TakeAndBreak):
    name = "grundys-game"
    summary = "Grundy's game: split a heap into two non-empty heaps of different sizes."

    def code(self, g: Structure) -> TakeBreak:
        return TakeBreak((4,), unequal=True)      # remove nothing, leave two unequal heaps


GAME = GrundysGame()
