"""nimtb, "nim top bottom" (selfref thesis, ch. 3): nim moves that change both extremes.

"that option is only a legal move if it fulfills three criteria: 1. The minimum
non-zero stack size of the option is not equal to the minimum non-zero stack size
of the board-state. 2. The maximum stack size of the option is not equal to the
maximum stack size of the board-state. 3. No two stacks in the option can have the
same number of chips and no two stacks in the board-state can have the same number
of chips." Stacks at 0 are eliminated, so only existing stacks must be distinct; the
input's must be too (else InputError). With no stack left, minimum and maximum are
"none", unequal to any size.

>>> from grundy.solvers.solver import DEFAULT
>>> from grundy.spec import read_position
>>> [q.state for _, q in DEFAULT.options(read_position({"game": "nimtb", "heaps": [3, 4, 6]}))]
[(3, 4, 2), (3, 4, 1)]
"""
from typing import Iterator

from grundy.spec import Expr, Move, Structure, SymState, maximum, move
from grundy.spec.heaps import HeapGame, check_distinct, distinct, smallest


class Nimtb(HeapGame):
    name = "nimtb"
    summary = ("nimtb: heaps pairwise distinct; take k >= 1 from one heap so that the smallest "
               "non-zero heap and the largest heap both change and the heaps stay pairwise "
               "distinct. Last mover wins.")

    def moves(self, g: Structure, s: SymState) -> Iterator[Move]:
        heaps = [s.heap[j] for j in g.elements]
        for i in g.elements:
            def option(k: Expr, i: int = i) -> list[Expr]:
                return [s.heap[j] - k if j == i else s.heap[j] for j in g.elements]
            yield move(f"take {{k}} from heap {i + 1}",
                       choose=[("k", 1, s.heap[i])],
                       guard=lambda k: ((smallest(option(k)) != smallest(heaps))      # 1.
                                        & (maximum(option(k)) != maximum(heaps))      # 2.
                                        & distinct(option(k)) & distinct(heaps)),     # 3.
                       update=lambda k, i=i: s.set(heap={i: s.heap[i] - k}))

    def check(self, heaps: list[int]) -> None:
        check_distinct(heaps)


GAME = Nimtb()
