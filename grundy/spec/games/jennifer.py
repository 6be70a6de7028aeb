"""jennifer (selfref thesis, §2.5): subtract any amount except a heap size.

"jennifer is a variant of susen in which the subtraction set is every value except
for a stack size." A move takes k >= 1 chips from one stack, where k is not the
size of any existing stack (stacks at 0 have ceased to exist; k >= 1 never equals
0 anyway). Last mover wins: the game can end before every stack is empty.

>>> from grundy import solve
>>> solve({"game": "jennifer", "heaps": [1, 1, 2]})
{'grundy': 0, 'outcome': 'P'}
>>> solve({"game": "jennifer", "heaps": [5]}, winning_moves=True)["winning_moves"][0]["move"]
'take 4 from heap 1'
"""
from typing import Iterator

from grundy.spec import Move, Structure, SymState, all_of, move
from grundy.spec.heaps import HeapGame


class Jennifer(HeapGame):
    name = "jennifer"
    summary = ("jennifer: take k >= 1 from one heap, where k is not the size of any current heap. "
               "Last mover wins.")

    def moves(self, g: Structure, s: SymState) -> Iterator[Move]:
        for i in g.elements:
            yield move(f"take {{k}} from heap {i + 1}",
                       choose=[("k", 1, s.heap[i])],
                       guard=lambda k: all_of(g.elements, lambda j: s.heap[j] != k),  # not a stack size
                       update=lambda k, i=i: s.set(heap={i: s.heap[i] - k}))


GAME = Jennifer()
