"""nimb, "nim bottom" (selfref thesis, ch. 3): a nim move that changes the smallest heap.

"the rules are identical to those of nim except that when comparing a board state
to an option, that option is only a legal move if the minimum non-zero stack size
of the option is not equal to the minimum non-zero stack size of the board-state."
"Stacks of size 0 are eliminated. The game ends when every stack is empty." So
emptying the last stack is legal (no stack is left, hence no equal minimum).

>>> from grundy import solve
>>> from grundy.solvers.solver import DEFAULT
>>> from grundy.spec import read_position
>>> [q.state for _, q in DEFAULT.options(read_position({"game": "nimb", "heaps": [3, 4, 6]}))]
[(2, 4, 6), (1, 4, 6), (0, 4, 6), (3, 2, 6), (3, 1, 6), (3, 4, 2), (3, 4, 1)]
>>> solve({"game": "nimb", "heaps": [1, 1]})
{'grundy': 0, 'outcome': 'P'}
"""
from typing import Iterator

from grundy.spec import Expr, Move, Structure, SymState, move
from grundy.spec.heaps import HeapGame, smallest


class Nimb(HeapGame):
    name = "nimb"
    summary = ("nimb: take k >= 1 from one heap, provided the smallest non-zero heap afterwards "
               "differs from the smallest non-zero heap before. Heaps at 0 are eliminated. "
               "Last mover wins.")

    def moves(self, g: Structure, s: SymState) -> Iterator[Move]:
        before = smallest([s.heap[j] for j in g.elements])
        for i in g.elements:                               # a nim move on heap i ...
            def after(k: Expr, i: int = i) -> Expr:
                return smallest([s.heap[j] - k if j == i else s.heap[j] for j in g.elements])
            yield move(f"take {{k}} from heap {i + 1}",
                       choose=[("k", 1, s.heap[i])],
                       guard=lambda k: after(k) != before,  # ... with a new minimum stack size
                       update=lambda k: s.set(heap={i: s.heap[i] - k}))


GAME = Nimb()
