"""Euclid (Cole and Davie; selfref thesis, §2.1): subtract a multiple of the smaller heap.

"Suppose the stacks have sizes a and b with 0 <= b <= a. Then the only legal moves
are those of the form [a, b] -> [a - kb, b] for some positive integer k" (with
a - kb >= 0). With b = 0 that is no move at all, so a position with a heap at 0 is
terminal. The two heaps form a multiset, so the input may list them in any order:
the move is made on the larger one (either one when they are equal).

>>> from grundy import solve
>>> from grundy.solvers.solver import DEFAULT
>>> from grundy.spec import read_position
>>> [q.state for _, q in DEFAULT.options(read_position({"game": "euclid", "heaps": [51, 14]}))]
[(37, 14), (23, 14), (9, 14)]
>>> solve({"game": "euclid", "heaps": [5, 0]})
{'grundy': 0, 'outcome': 'P'}
"""
from typing import Iterator

from grundy.spec import Move, Structure, SymState, move
from grundy.spec.expr import product
from grundy.spec.heaps import HeapGame


class Euclid(HeapGame):
    name = "euclid"
    summary = ("Euclid: two heaps a >= b; move to [a - k*b, b] for any k >= 1 with a - k*b >= 0. "
               "No move once a heap is 0. Last mover wins.")
    heap_count = 2

    def moves(self, g: Structure, s: SymState) -> Iterator[Move]:
        for i, j in ((0, 1), (1, 0)):                      # a = heap i, b = heap j
            a, b = s.heap[i], s.heap[j]
            yield move(f"take {{k}} times heap {j + 1} from heap {i + 1}",
                       guard=lambda k, a=a, b=b: (b > 0) & (b <= a) & (product(k, b) <= a),
                       choose=[("k", 1, a)],               # k·b <= a bounds k by a
                       update=lambda k, i=i, a=a, b=b: s.set(heap={i: a - product(k, b)}))


GAME = Euclid()
