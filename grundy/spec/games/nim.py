"""Nim: take any positive number of tokens from one heap; the last mover wins.

>>> from grundy import solve
>>> solve({"game": "nim", "heaps": [1, 2, 3]})["outcome"]
'P'
"""
from grundy.spec import Field, Game, Structure, move, read_heaps, total


class Nim(Game):
    name = "nim"
    summary = "Nim: take k >= 1 tokens from one heap. Last mover wins."
    structure = "heaps"
    decompose_over = "heaps"

    def fields(self, g):
        return [Field("heap", over="heaps")]

    def moves(self, g, s):
        for i in g.elements:                              # which heap
            yield move(f"take {{k}} from heap {i}",
                       choose=[("k", 1, s.heap[i])],       # how many
                       update=lambda k: s.set(heap={i: s.heap[i] - k}))

    def rank(self, g, s):
        return total(s.heap[i] for i in g.elements)

    def present(self, g, s, i):
        return s.heap[i] > 0

    def read(self, obj):
        heaps = read_heaps(obj)
        return Structure.heaps(len(heaps)), {"heap": heaps}

    def write(self, g, values):
        return {"heaps": [values["heap"][i] for i in g.elements]}


GAME = Nim()
