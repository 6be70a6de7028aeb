"""Lasker's Nim (Berlekamp, Conway and Guy, *Winning Ways*, ch. 4): "remove any number of
counters from a heap, or split a heap into two non-empty heaps". Last mover wins.

Its Grundy values follow Lasker's formula: G(4k+1) = 4k+1, G(4k+2) = 4k+2,
G(4k+3) = 4k+4, G(4k+4) = 4k+3.

>>> from grundy import solve
>>> [solve({"game": "lasker-nim", "heaps": [n]})["grundy"] for n in range(9)]
[0, 1, 2, 4, 3, 5, 6, 8, 7]
"""
from typing import Iterator

from grundy.spec import Expr, HeapRule, Move, Structure, option


class LaskerNim(HeapRule):
    name = "lasker-nim"
    summary = "Lasker's Nim: remove k >= 1 tokens from a heap, or split a heap into two non-empty heaps."

    def options(self, g: Structure, n: Expr) -> Iterator[Move]:
        yield option("remove {k} from heap {heap}", choose=[("k", 1, n)],
                     parts=lambda k: [n - k])
        yield option("split heap {heap} into {a} + {b}",
                     choose=[("a", 1, n // 2), ("b", lambda a: n - a, lambda a: n - a)],
                     parts=lambda a, b: [a, b])


GAME = LaskerNim()
