"""Adjacent Nim (Duchêne–Renault, *Vertex Nim played on graphs*, Section 2).

"[...] play the game of Nim under the constraint that if your opponent has moved on heap
i, you must move on heap i + 1 (or on the smallest next non-empty heap, in a circular
way). [...] it can be expressed as an instance of directed vertexnim on an elementary
circuit C_N = (v1, v2, ..., vN) with the orientation (vi, vi+1) : 1 <= i < N and (vN, v1)
of the arcs. [...] we will assume that the starting position is always v1."

So the rule is directed vertexnim's, unchanged; only the input differs. JSON:
``"heaps": [w1, ..., wN]`` (each >= 1) is the circuit v1 -> v2 -> ... -> vN -> v1 with
w(vi) = wi and the token on v1 (N = 1: a loop on v1). A position is written back the same
way, the heaps listed around the circuit from the token (``[]``: the game is over).

>>> from grundy import solve
>>> solve({"game": "adjacent-nim", "heaps": [4]})["grundy"]
4
>>> solve({"game": "adjacent-nim", "heaps": [1, 1, 1]})
{'grundy': 1, 'outcome': 'N'}
"""
from __future__ import annotations

from typing import Any

from grundy.spec import Structure, read_heaps

from .directed_vertexnim import DirectedVertexNim, arcs_of


class AdjacentNim(DirectedVertexNim):
    name = "adjacent-nim"
    summary = ("Adjacent Nim (Duchene-Renault): Nim on heaps w1..wN where, after a move on heap i, the "
               "next player must move on the next non-empty heap after i, circularly; the first move is on "
               "heap 1. It is directed vertexnim on the circuit v1 -> ... -> vN -> v1, token on v1.")

    def read(self, obj):
        heaps = read_heaps(obj, lower=1)
        n = len(heaps)
        names = [f"v{i + 1}" for i in range(n)]
        g = Structure.graph(names, [(names[i], names[(i + 1) % n]) for i in range(n)], directed=True)
        return g, {"weight": heaps, "arc": arcs_of(g), "token": 0}

    def write(self, g: Structure, values: dict[str, Any]) -> dict[str, Any]:
        w, arc, t = values["weight"], values["arc"], values["token"]
        heaps: list[int] = []
        v = t
        for _ in range(sum(x > 0 for x in w.values())):   # around the circuit from the token
            heaps.append(w[v])
            v = next(q for q in g.vertices if arc[v, q])
        if heaps and (v != t or 0 in heaps):
            raise ValueError("adjacent-nim: this state is not a circuit through the token")
        return {"heaps": heaps}


GAME = AdjacentNim()
