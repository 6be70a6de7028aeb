"""mine (selfref thesis, §5.3): minnie in which no two stacks may ever be equal.

"Let the rules of mine be the same as minnie except that at no point can any two
stacks have the same number of chips." "mine is equivalent to minnie except that
no legal move leaves multiple stacks with the same number of chips." A stack at 0
has ceased to exist, so emptied stacks are not compared. Since "at no point" includes
the start, the existing heaps of an input must be pairwise distinct (else InputError).

>>> from grundy import solve
>>> solve({"game": "mine", "heaps": [1, 2]})["outcome"], solve({"game": "mine", "heaps": [2, 3]})["outcome"]
('P', 'N')
>>> solve({"game": "mine", "heaps": [3, 3]})
Traceback (most recent call last):
...
grundy.errors.InputError: heaps[1]: equals heaps[0] = 3: the existing heaps must be pairwise distinct
"""
from typing import Iterator

from grundy.spec import Move, Structure, SymState, move
from grundy.spec.heaps import HeapGame, check_distinct, distinct, smallest


class Mine(HeapGame):
    name = "mine"
    summary = ("mine: as minnie (take 1 <= k <= the smallest existing heap from one heap; heaps at 0 "
               "cease to exist), but no move may leave two existing heaps equal. Last mover wins.")

    def moves(self, g: Structure, s: SymState) -> Iterator[Move]:
        low = smallest([s.heap[j] for j in g.elements])  # the smallest existing heap
        for i in g.elements:
            yield move(f"take {{k}} from heap {i + 1}",
                       guard=lambda k, i=i: (s.heap[i] > 0) & distinct(
                           [s.heap[j] - k if j == i else s.heap[j] for j in g.elements]),
                       choose=[("k", 1, low)],
                       update=lambda k, i=i: s.set(heap={i: s.heap[i] - k}))

    def check(self, heaps: list[int]) -> None:
        check_distinct(heaps)


GAME = Mine()
