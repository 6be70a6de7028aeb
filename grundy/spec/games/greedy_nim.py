"""Greedy nim (selfref thesis, §2.3): nim, but only on a largest heap.

"players can only remove chips from the largest stack on their respective turns"
(when several stacks share the largest size, any of them). Last mover wins.

>>> from grundy import solve
>>> solve({"game": "greedy-nim", "heaps": [1, 3]}, winning_moves=True)["winning_moves"][0]["move"]
'take 2 from heap 2'
"""
from typing import Iterator

from grundy.spec import Move, Structure, SymState, maximum, move
from grundy.spec.heaps import HeapGame


class GreedyNim(HeapGame):
    name = "greedy-nim"
    summary = "Greedy nim: take k >= 1 from a largest heap. Last mover wins."

    def moves(self, g: Structure, s: SymState) -> Iterator[Move]:
        for i in g.elements:
            top = maximum([s.heap[j] for j in g.elements])  # the largest stack size
            yield move(f"take {{k}} from heap {i + 1}",
                       guard=(s.heap[i] > 0) & (s.heap[i] == top),
                       choose=[("k", 1, s.heap[i])],
                       update=lambda k, i=i: s.set(heap={i: s.heap[i] - k}))


GAME = GreedyNim()
