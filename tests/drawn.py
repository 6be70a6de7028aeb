"""Games and structures drawn for tests, shared by the test files that draw them (import as
``from drawn import ...``, as ``theorem_files``)."""
from __future__ import annotations

from hypothesis import strategies as st

from grundy.spec import Structure, move
from grundy.spec.heaps import HeapGame


def random_heap_game(take, both, halve, name: str = "random-heaps"):
    """A user's game on heaps from a few numbers: take k (k in ``take``) from one heap, or k (in
    ``both``) from the first two at once; ``halve``: halve the first heap too (a move on one heap
    only, though the game says it is symmetric: its premise is then violated)."""
    class Drawn(HeapGame):
        summary = "a random rule (tests/drawn.py)"

        def moves(self, g, s):
            for i in g.elements:
                for k in take:
                    yield move(f"take {k} from heap {i + 1}", guard=s.heap[i] >= k,
                               update=lambda i=i, k=k: s.set(heap={i: s.heap[i] - k}))
            if g.n >= 2:
                for k in both:
                    yield move(f"take {k} from heaps 1 and 2", guard=(s.heap[0] >= k) & (s.heap[1] >= k),
                               update=lambda k=k: s.set(heap={0: s.heap[0] - k, 1: s.heap[1] - k}))
            if halve:
                yield move("halve heap 1", guard=s.heap[0] >= 2, update=lambda: s.set(heap={0: s.heap[0] // 2}))
    Drawn.name = name
    return Drawn()


def draw_structure(draw, game) -> Structure:
    """A small structure of ``game``'s kind: heaps (1 to 3, or the game's count), or a graph on
    1 to 4 vertices with drawn edges (arcs for a digraph) and loops."""
    if game.structure == "heaps":
        return Structure.heaps(game.heap_count or draw(st.integers(1, 3)))
    n = draw(st.integers(1, 4))
    pairs = [(u, v) for u in range(n) for v in range(n) if u != v and (game.structure == "digraph" or u < v)]
    arcs = [p for p in pairs if draw(st.booleans())]
    loops = [v for v in range(n) if draw(st.booleans())]
    return Structure.graph(range(n), arcs, loops, directed=game.structure == "digraph")
