"""wynnie (selfref thesis, §4.1): Wythoff's game with amounts up to the smaller stack.

"the player chooses an integer k > 0 and less than or equal to the smallest stack
size ... That player then either removes k chips from one stack or removes k chips
from both stacks." "once a stack is reduced to 0 chips, it ceases to exist" (the
smallest stack is then the one left, and "both" is no longer possible). Played on
two stacks. Last mover wins; misère wynnie (convention "misere"): last mover loses.

>>> from grundy import solve
>>> solve({"game": "wynnie", "heaps": [1, 2]})["outcome"], solve({"game": "wynnie", "heaps": [1, 1]})["outcome"]
('P', 'N')
>>> solve({"game": "wynnie", "heaps": [0, 1], "convention": "misere"})["outcome"]
'P'
"""
from typing import Iterator

from grundy.spec import Move, Structure, SymState, move
from grundy.spec.heaps import HeapGame, smallest


class Wynnie(HeapGame):
    name = "wynnie"
    summary = ("wynnie: two heaps; choose 1 <= k <= the smallest existing heap and take k from one "
               "heap or from both. A heap at 0 ceases to exist. Last mover wins (misère: loses).")
    heap_count = 2

    def moves(self, g: Structure, s: SymState) -> Iterator[Move]:
        low = smallest([s.heap[0], s.heap[1]])           # the smallest existing stack
        for i in g.elements:                               # k chips from one stack
            yield move(f"take {{k}} from heap {i + 1}",
                       guard=s.heap[i] > 0,
                       choose=[("k", 1, low)],
                       update=lambda k, i=i: s.set(heap={i: s.heap[i] - k}))
        yield move("take {k} from both",                   # k chips from both stacks
                   guard=(s.heap[0] > 0) & (s.heap[1] > 0),
                   choose=[("k", 1, low)],
                   update=lambda k: s.set(heap={0: s.heap[0] - k, 1: s.heap[1] - k}))


GAME = Wynnie()
