"""Test games whose declarations are wrong (and correct twins), for the soundness suite and
tests/test_game_checks.py. Not seed games: importing this module registers them, unlisted
(found by name, left out of ``GAMES``' listing), under names starting with ``test-``.

Each bad game breaks exactly one declared property:

- ``test-chomp-symmetric``: two-row Chomp written as a heap game, left ``symmetric`` (the
  default): its rule does not commute with swapping the heaps; ``test-chomp`` says
  ``symmetric = False``.
- ``test-take-unguarded``: take 1, 2 or 3 from a heap with no ``heap >= k`` guard (a heap goes
  negative); ``test-subtraction`` has the guard.
- ``test-minnie-split``: minnie declared a sum of its heaps (``decompose_over = "heaps"``): a
  move's bound is the smallest heap, so a heap's moves depend on the others.
- ``test-nim-bad-rank``: nim whose declared rank is the first heap only (a move on another
  heap does not lower it).
"""
from __future__ import annotations

from grundy.spec import minimum, move
from grundy.spec.games import GAMES
from grundy.spec.games import register as register_game
from grundy.spec.heaps import HeapGame, smallest


class TwoRowChomp(HeapGame):
    """Heaps [a, b]: bottom row a (its first square poisoned), top row b <= a. Take the square
    at column j of the top row (b -> j < b), or of the bottom row, 1 <= j < a (a -> j and
    b -> min(b, j)). Eating the poison is not a move: [1, 0] is terminal."""

    name = "test-chomp"
    summary = "two-row Chomp on heaps [bottom, top] (a test game)"
    heap_count = 2
    symmetric = False

    def moves(self, g, s):
        a, b = s.heap[0], s.heap[1]
        yield move("top row to {j}", choose=[("j", 0, b - 1)], update=lambda j: s.set(heap={1: j}))
        yield move("bottom row to {j}", choose=[("j", 1, a - 1)],
                   update=lambda j: s.set(heap={0: j, 1: minimum(b, j)}))


class TwoRowChompSymmetric(TwoRowChomp):
    name = "test-chomp-symmetric"
    summary = "two-row Chomp on heaps, wrongly declared symmetric (a test game)"
    symmetric = True


class Subtraction(HeapGame):
    name = "test-subtraction"
    summary = "take 1, 2 or 3 from one heap (a test game)"

    def moves(self, g, s):
        for i in g.elements:
            yield move(f"take {{k}} from heap {i}", choose=[("k", 1, 3)], guard=lambda k, i=i: s.heap[i] >= k,
                       update=lambda k, i=i: s.set(heap={i: s.heap[i] - k}))


class TakeUnguarded(HeapGame):
    name = "test-take-unguarded"
    summary = "take 1, 2 or 3 from one heap, with no guard: a heap goes negative (a test game)"

    def moves(self, g, s):
        for i in g.elements:
            yield move(f"take {{k}} from heap {i}", choose=[("k", 1, 3)],
                       update=lambda k, i=i: s.set(heap={i: s.heap[i] - k}))


class MinnieSplit(HeapGame):
    name = "test-minnie-split"
    summary = "minnie, wrongly declared a sum of its heaps (a test game)"
    decompose_over = "heaps"

    def moves(self, g, s):
        low = smallest([s.heap[j] for j in g.elements])
        for i in g.elements:
            yield move(f"take {{k}} from heap {i}", guard=s.heap[i] > 0, choose=[("k", 1, low)],
                       update=lambda k, i=i: s.set(heap={i: s.heap[i] - k}))

    def present(self, g, s, i):
        return s.heap[i] > 0


class NimBadRank(HeapGame):
    name = "test-nim-bad-rank"
    summary = "nim whose declared rank is the first heap only (a test game)"

    def moves(self, g, s):
        for i in g.elements:
            yield move(f"take {{k}} from heap {i}", choose=[("k", 1, s.heap[i])],
                       update=lambda k, i=i: s.set(heap={i: s.heap[i] - k}))

    def rank(self, g, s):
        return s.heap[0]


BAD = {"symmetry": TwoRowChompSymmetric(), "domains": TakeUnguarded(),
       "decomposition": MinnieSplit(), "rank": NimBadRank()}
GOOD = [TwoRowChomp(), Subtraction()]


def register() -> None:
    """Register the test games (once, unlisted: found by name, left out of the seed listing)."""
    for game in [*BAD.values(), *GOOD]:
        have = GAMES.get(game.name)
        if have is None:
            register_game(game, listed=False)
        elif type(have).__name__ != type(game).__name__:
            raise RuntimeError(f"a game named {game.name!r} is already registered")
        else:                            # this module imported twice (two names): keep the first
            BAD.update({k: have for k, v in BAD.items() if v.name == game.name})


register()
