"""susen (selfref thesis, §2.4): the heap sizes are the subtraction set.

"susen is a variant of nim in which the stack sizes of a board-state are the
subtraction set for that board-state ... once a stack reaches 0, it ceases to
exist rather than allowing future turns to be "passed" by removing 0 chips."
A move subtracts from one stack the size of some existing stack (itself included:
that removes it). Last mover wins.

>>> from grundy import solve
>>> from grundy.solvers.solver import DEFAULT
>>> from grundy.spec import read_position
>>> sorted(q.state for _, q in DEFAULT.options(read_position({"game": "susen", "heaps": [7, 3]})))
[(0, 3), (4, 3), (7, 0)]
"""
from typing import Iterator

from grundy.spec import Move, Structure, SymState, move
from grundy.spec.heaps import HeapGame


class Susen(HeapGame):
    name = "susen"
    summary = ("susen: subtract from one heap the size of some existing heap (possibly itself). "
               "Heaps at 0 vanish. Last mover wins.")

    def moves(self, g: Structure, s: SymState) -> Iterator[Move]:
        for i in g.elements:                               # the stack to subtract from
            for j in g.elements:                           # the stack whose size is subtracted
                yield move(f"take heap {j + 1} from heap {i + 1}",
                           guard=(s.heap[j] > 0) & (s.heap[j] <= s.heap[i]),
                           update=s.set(heap={i: s.heap[i] - s.heap[j]}))


GAME = Susen()
