"""Test games whose symmetry or decomposition holds on small positions and fails on larger ones
(issue 18, class 1), with brute forces written from their rules in words. Not a theorem file
(its name starts with "_"); importing it registers the games, unlisted, under names starting
with ``test-``.

- ``test-nim-and-sub5``: two heaps; heap 1 plays Nim (take any number), heap 2 plays the
  subtraction game S(1..4) (take 1 to 4). ``symmetric`` left at its default: swapping the
  heaps is no symmetry, but the two rules agree on heaps <= 4 (the old vet's box was <= 3).
- ``test-nim-and-sub4``: the same with S(1..3) on heap 2 (differs from Nim from a heap of 4),
  ``symmetric = True`` written by its author (a declaration: reported when found false).
- ``test-nim-plus4``: Nim, or take 4 from each of two heaps of at least 4; declared a sum of its
  heaps (``decompose_over = "heaps"``): the heaps are independent only below 4.
- ``test-nim-plus5``: the same with 5.
- ``test-upward-walk``: a graph game whose rule reads vertex numbers: the token on v moves to a
  neighbour u with a larger number, taking 1 to w(u) from u's weight. On a path, the reversal is
  an automorphism of the graph but not of the rule.
- ``test-no-check-structures``: Nim on heaps 1 and 2, S(1..2) on heap 3 (when there is one);
  ``check_structures()`` fails. The old vet then checked the first structure solved (2 heaps:
  symmetric) and trusted that pass on 3 heaps too: a verdict depended on the order of claims.
"""
from __future__ import annotations

from functools import lru_cache
from itertools import product

from grundy.spec import Field, Game, move, read_graph, write_graph
from grundy.spec.games import GAMES
from grundy.spec.games import register as register_game
from grundy.spec.heaps import HeapGame


def _take(s, i: int, top):
    """Take 1..top from heap i (top: an expression)."""
    return move(f"take {{k}} from heap {i + 1}", choose=[("k", 1, top)], guard=lambda k: s.heap[i] >= k,
                update=lambda k: s.set(heap={i: s.heap[i] - k}))


class NimAndSub5(HeapGame):
    name = "test-nim-and-sub5"
    summary = "heap 1 plays Nim, heap 2 plays S(1..4) (a test game; not symmetric)"
    heap_count = 2

    def moves(self, g, s):
        yield _take(s, 0, s.heap[0])
        yield _take(s, 1, 4)


class NimAndSub4(NimAndSub5):
    name = "test-nim-and-sub4"
    summary = "heap 1 plays Nim, heap 2 plays S(1..3), declared symmetric (a test game)"
    symmetric = True

    def moves(self, g, s):
        yield _take(s, 0, s.heap[0])
        yield _take(s, 1, 3)


class NimPlus4(HeapGame):
    name = "test-nim-plus4"
    summary = "Nim, or take 4 from each of two heaps of at least 4; declared a sum of heaps (a test game)"
    decompose_over = "heaps"
    both = 4

    def moves(self, g, s):
        h, b = s.heap, self.both
        for i in g.elements:
            yield _take(s, i, h[i])
        for i in g.elements:
            for j in g.elements:
                if i < j:
                    yield move(f"take {b} from heaps {i + 1} and {j + 1}", guard=(h[i] >= b) & (h[j] >= b),
                               update=s.set(heap={i: h[i] - b, j: h[j] - b}))

    def present(self, g, s, i):
        return s.heap[i] > 0


class NimPlus5(NimPlus4):
    name = "test-nim-plus5"
    summary = "Nim, or take 5 from each of two heaps of at least 5; declared a sum of heaps (a test game)"
    both = 5


class UpwardWalk(Game):
    name = "test-upward-walk"
    summary = ("the token on v moves to a neighbour u with a larger number, taking 1 to w(u) from u "
               "(a test game; its rule reads vertex numbers)")
    structure = "graph"

    def fields(self, g):
        return [Field("weight", over="vertices"), Field("token", kind="vertex")]

    def moves(self, g, s):
        for v in g.vertices:
            for u in g.neighbours(v):
                if u > v:
                    yield move(f"take {{k}} at {g.names[u]}, token to {g.names[u]}", choose=[("k", 1, s.weight[u])],
                               guard=s.token == v, update=lambda k, u=u: s.set(weight={u: s.weight[u] - k}, token=u))

    def rank(self, g, s):
        from grundy.spec import total
        return total(s.weight[v] for v in g.vertices)

    def read(self, obj):
        gi = read_graph(obj, node_weights=True)
        return gi.structure, {"weight": gi.node_weight, "token": gi.vertex(obj)}

    def write(self, g, values):
        return {**write_graph(g, node_weight=values["weight"]), "token": g.names[values["token"]]}


class NoCheckStructures(HeapGame):
    name = "test-no-check-structures"
    summary = "Nim on heaps 1 and 2, S(1..2) on heap 3; its check structures fail (a test game)"

    def moves(self, g, s):
        for i in g.elements:
            yield _take(s, i, s.heap[i] if i < 2 else 2)

    def check_structures(self):
        raise RuntimeError("test-no-check-structures has no check structures")


GAMES_HERE = [NimAndSub5(), NimAndSub4(), NimPlus4(), NimPlus5(), UpwardWalk(), NoCheckStructures()]


def register() -> None:
    """Register the test games (once, unlisted)."""
    for game in GAMES_HERE:
        if GAMES.get(game.name) is None:
            register_game(game, listed=False)


register()


# ------------------------------------------------------------------ brute forces, from the words
def mex(values) -> int:
    s, m = set(values), 0
    while m in s:
        m += 1
    return m


@lru_cache(maxsize=None)
def nim_and_sub(a: int, b: int, most: int) -> int:
    """Heap 1: take any 1..a; heap 2: take 1..min(most, b)."""
    return mex([nim_and_sub(a - k, b, most) for k in range(1, a + 1)]
               + [nim_and_sub(a, b - k, most) for k in range(1, min(most, b) + 1)])


@lru_cache(maxsize=None)
def nim_plus(heaps: tuple[int, ...], both: int) -> int:
    """Take any number from one heap, or ``both`` from each of two heaps of at least ``both``."""
    opts = [heaps[:i] + (heaps[i] - k,) + heaps[i + 1:] for i in range(len(heaps)) for k in range(1, heaps[i] + 1)]
    for i in range(len(heaps)):
        for j in range(i + 1, len(heaps)):
            if heaps[i] >= both and heaps[j] >= both:
                t = list(heaps)
                t[i] -= both
                t[j] -= both
                opts.append(tuple(t))
    return mex(nim_plus(t, both) for t in opts)


def upward_walk(n: int, edges: list[tuple[int, int]], weights: tuple[int, ...], token: int) -> int:
    """The Grundy value: from the token on v, to a neighbour u > v, taking 1..w(u) from u."""
    nbrs = {v: sorted({b for a, b in edges if a == v} | {a for a, b in edges if b == v}) for v in range(n)}

    @lru_cache(maxsize=None)
    def g(w: tuple[int, ...], t: int) -> int:
        return mex(g(w[:u] + (w[u] - k,) + w[u + 1:], u) for u in nbrs[t] if u > t for k in range(1, w[u] + 1))
    return g(tuple(weights), token)


def upward_walk_table(n: int, edges: list[tuple[int, int]], top: int, reversed_: bool = False) -> dict:
    """Every state (weights <= top, then the token) -> its Grundy value; ``reversed_``: the value of
    the position with the vertices numbered backwards (what reducing by the path's reversal gives)."""
    out = {}
    for w in product(range(top + 1), repeat=n):
        for t in range(n):
            if reversed_:
                out[w + (t,)] = upward_walk(n, edges, tuple(reversed(w)), n - 1 - t)
            else:
                out[w + (t,)] = upward_walk(n, edges, w, t)
    return out


@lru_cache(maxsize=None)
def no_checks(heaps: tuple[int, ...]) -> int:
    """Heaps 1 and 2: take any number; heap 3: take 1 or 2."""
    opts = [heaps[:i] + (heaps[i] - k,) + heaps[i + 1:] for i in range(len(heaps))
            for k in range(1, (heaps[i] if i < 2 else min(2, heaps[i])) + 1)]
    return mex(no_checks(t) for t in opts)
