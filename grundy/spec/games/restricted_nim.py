"""Restricted nim (Levine 2006; selfref thesis, §2.2): remove less than half the heap.

"if players are restricted to removing strictly less than half of the stack size":
from a heap of n, remove k with 1 <= k and 2k < n. Played on one heap. Last mover wins.

>>> from grundy import solve
>>> [solve({"game": "restricted-nim", "heaps": [n]})["grundy"] for n in range(1, 9)]
[0, 0, 1, 0, 2, 1, 3, 0]
"""
from typing import Iterator

from grundy.spec import Move, Structure, SymState, move
from grundy.spec.heaps import HeapGame


class RestrictedNim(HeapGame):
    name = "restricted-nim"
    summary = "Restricted nim: one heap n; remove k with 1 <= k and 2k < n. Last mover wins."
    heap_count = 1

    def moves(self, g: Structure, s: SymState) -> Iterator[Move]:
        n = s.heap[0]
        yield move("take {k}",
                   choose=[("k", 1, (n - 1) // 2)],        # 2k < n, i.e. k <= (n - 1) // 2
                   update=lambda k: s.set(heap={0: n - k}))


GAME = RestrictedNim()
