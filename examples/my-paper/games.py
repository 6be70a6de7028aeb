"""The games of "my paper": written with grundy's public API only, outside the package.

Run them with ``grundy solve --games games.py`` (or ``GRUNDY_GAMES=games.py``); a theorem
file beside this one may also ``from games import ...`` and pass the objects to ``Claim``.
"""
from grundy.spec import Field, GraphGame, HeapGame, HeapRule, InputError, move, option, read_graph, write_graph


class NodeKayles(GraphGame):
    """Node Kayles: delete a vertex together with all its neighbours. Last mover wins."""

    name = "node-kayles"
    summary = "Node Kayles: delete a vertex and its neighbours. Last mover wins."

    def moves(self, g, s):
        for v in g.vertices:                                  # "choose a vertex ..."
            yield move(f"take {g.names[v]}",
                       guard=s.alive[v],
                       update=s.set(alive={v: False,          # "... delete it and its neighbours"
                                           **{u: False for u in g.neighbours(v)}}))


class VertexGeography(GraphGame):
    """Undirected vertex geography: move the token to an unvisited neighbour; the vertex it
    leaves is deleted. A player who cannot move loses."""

    name = "vertex-geography"
    summary = ("Undirected vertex geography: move the token along an edge to a vertex not visited "
               "yet; the vertex left is deleted. Last mover wins.")
    decompose_over = None                                     # one token: not a sum of components

    def fields(self, g):
        return [Field("alive", over="vertices", kind="bool"), Field("token", kind="vertex")]

    def moves(self, g, s):
        for u, v in g.arcs:                                   # structural choice: the edge taken
            yield move(f"{g.names[u]}->{g.names[v]}",
                       guard=(s.token == u) & s.alive[u] & s.alive[v],
                       update=s.set(alive={u: False}, token=v))

    def read(self, obj):
        gi = read_graph(obj, nodes_required=False)
        return gi.structure, {"alive": [True] * gi.structure.n, "token": gi.vertex(obj)}

    def write(self, g, values):
        alive = values["alive"]
        keep = lambda v: alive[v] or v == values["token"]     # noqa: E731
        out = write_graph(g, keep_node=keep, edges=[(u, v) for u, v in g.edges if keep(u) and keep(v)])
        return {**out, "token": g.names[values["token"]]}


class MooreNim(HeapGame):
    """Moore's Nim_k: take at least one token from each of at most k heaps (any amounts)."""

    summary = "Moore's Nim_k: remove tokens from at least one and at most k heaps. Last mover wins."

    def __init__(self, k: int):
        self.k = k
        self.name = f"moore-nim-{k}"

    def moves(self, g, s):
        heaps = g.elements
        for size in range(1, self.k + 1):
            for chosen in _subsets(heaps, size):               # structural choice: which heaps
                names = [f"t{i}" for i in chosen]
                yield move(" and ".join(f"take {{{n}}} from heap {i}" for n, i in zip(names, chosen)),
                           choose=[(n, 1, s.heap[i]) for n, i in zip(names, chosen)],
                           update=lambda *ts, chosen=chosen: s.set(
                               heap={i: s.heap[i] - t for i, t in zip(chosen, ts)}))

    def check(self, heaps):
        if not heaps:
            raise InputError("heaps", "give at least one heap")


class TakeAway(HeapRule):
    """A take-away game, written as a rule on one heap: remove one of ``amounts`` tokens."""

    def __init__(self, name: str, amounts: tuple[int, ...]):
        self.name, self.amounts = name, amounts
        self.summary = f"take {', '.join(map(str, amounts))} tokens from one heap. Last mover wins."

    def options(self, g, n):                                   # what a heap of n may become
        for a in self.amounts:
            yield option(f"take {a} from heap {{heap}}", guard=n >= a, parts=[n - a])


class PathKayles(HeapRule):
    """Node Kayles on a path of n vertices, as a rule on a heap of n: taking a vertex removes
    it and its neighbours, and what is left of the path is one or two shorter paths."""

    name = "path-kayles"
    summary = "Node Kayles on a path of n vertices, as a heap of n (Dawson's Kayles, octal 0.137)."

    def options(self, g, n):
        yield option("take the lone vertex of heap {heap}", guard=n == 1, parts=[])
        yield option("take an end of heap {heap}", guard=n >= 2, parts=[n - 2])
        yield option("take an inner vertex of heap {heap}, leaving {a} and {b}",
                     choose=[("a", 0, n - 3), ("b", lambda a: n - 3 - a, lambda a: n - 3 - a)],
                     guard=n >= 3, parts=lambda a, b: [a, b])


def _subsets(items, size):
    if size == 0:
        yield ()
        return
    for j, x in enumerate(items):
        for rest in _subsets(items[j + 1:], size - 1):
            yield (x,) + rest


NODE_KAYLES = NodeKayles()
GEOGRAPHY = VertexGeography()
MOORE2 = MooreNim(2)
TAKE134 = TakeAway("take-1-3-4", (1, 3, 4))
PATH_KAYLES = PathKayles()
