"""Nim: take any positive number of tokens from one heap; the last mover wins.

>>> from grundy import solve
>>> solve({"game": "nim", "heaps": [1, 2, 3]})["outcome"]
'P'
"""
from typing import Iterator, cast

from grundy.spec import Expr, Move, Structure, SymState, move
from grundy.spec.expr import Term
from grundy.spec.heaps import HeapGame
from grundy.spec.strategy import Play


class Nim(HeapGame):
    name = "nim"
    summary = "Nim: take k >= 1 tokens from one heap. Last mover wins."
    decompose_over = "heaps"                              # heaps are independent: a sum of one-heap games

    def moves(self, g: Structure, s: SymState) -> Iterator[Move]:
        for i in g.elements:                              # which heap
            yield move(f"take {{k}} from heap {i + 1}",
                       choose=[("k", 1, s.heap[i])],       # how many
                       update=lambda k: s.set(heap={i: s.heap[i] - k}))

    def present(self, g: Structure, s: SymState, i: int) -> Term:
        return cast(Expr, s.heap[i] > 0)          # s.heap is Any to a type checker (SymState.__getattr__)


def nim_witnesses(g: Structure, s: SymState, rules: object, v: Expr) -> list[Play]:
    """Witnesses of the nim-sum's mex condition on any number of heaps: for a value v below the
    nim-sum x, a heap h with h ^ v ^ x < h goes down to h ^ v ^ x (one exists: the heap with
    the highest bit of v ^ x)."""
    x = s.heap[0]
    for i in g.elements[1:]:
        x = x ^ s.heap[i]
    return [Play((s.heap[i] ^ v ^ x) < s.heap[i], i, {"k": s.heap[i] - (s.heap[i] ^ v ^ x)}) for i in g.elements]


GAME = Nim()
