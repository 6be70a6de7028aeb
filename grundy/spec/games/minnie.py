"""minnie (selfref thesis, ch. 5): take at most the smallest heap from one heap.

"the player chooses an integer greater than 0 and less than or equal to the
smallest stack size ... and removes that number of chips from a single stack."
"once a stack is reduced to 0 chips, it ceases to exist" (so the smallest stack
is the smallest non-zero one). Last mover wins.

>>> from grundy import solve
>>> solve({"game": "minnie", "heaps": [1, 1]})["outcome"], solve({"game": "minnie", "heaps": [7]})["grundy"]
('P', 7)
"""
from typing import Iterator

from grundy.spec import Move, Structure, SymState, move
from grundy.spec.heaps import HeapGame, smallest


class Minnie(HeapGame):
    name = "minnie"
    summary = ("minnie: choose 1 <= k <= the smallest existing heap and take k from one heap. "
               "A heap at 0 ceases to exist. Last mover wins.")

    def moves(self, g: Structure, s: SymState) -> Iterator[Move]:
        low = smallest([s.heap[j] for j in g.elements])  # the smallest existing heap
        for i in g.elements:                               # a single stack
            yield move(f"take {{k}} from heap {i + 1}",
                       guard=s.heap[i] > 0,
                       choose=[("k", 1, low)],             # 0 < k <= smallest stack
                       update=lambda k: s.set(heap={i: s.heap[i] - k}))


GAME = Minnie()
