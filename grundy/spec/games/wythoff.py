"""Wythoff's game (selfref thesis, §1.3): nim on two heaps, or the same amount from both.

"the board-state is equivalent to that of nim played on two stacks, but the list of
legal moves now includes the removal of the same number of chips from both stacks."
Last mover wins.

>>> from grundy import solve
>>> solve({"game": "wythoff", "heaps": [1, 2]}), solve({"game": "wythoff", "heaps": [2, 2]})["outcome"]
({'grundy': 0, 'outcome': 'P'}, 'N')
"""
from typing import Iterator

from grundy.spec import Move, Structure, SymState, minimum, move
from grundy.spec.heaps import HeapGame


class Wythoff(HeapGame):
    name = "wythoff"
    summary = "Wythoff: take k >= 1 from one of two heaps, or k from both. Last mover wins."
    heap_count = 2

    def moves(self, g: Structure, s: SymState) -> Iterator[Move]:
        for i in g.elements:                               # nim on one stack
            yield move(f"take {{k}} from heap {i + 1}",
                       choose=[("k", 1, s.heap[i])],
                       update=lambda k, i=i: s.set(heap={i: s.heap[i] - k}))
        yield move("take {k} from both",                   # the same number from both stacks
                   choose=[("k", 1, minimum(s.heap[0], s.heap[1]))],
                   update=lambda k: s.set(heap={0: s.heap[0] - k, 1: s.heap[1] - k}))


GAME = Wythoff()
