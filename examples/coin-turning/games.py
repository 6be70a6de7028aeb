"""Coin-turning games (Berlekamp, Conway and Guy, *Winning Ways*, ch. 14) written as a user
would, with the public API only: coins on the vertices of a graph (one bool field, true =
heads), a move turns over a set of vertices. grundy recognises the shape on the rule and
proves it by Z3 (docs/coin-turning.md): a position is then worth the nim-sum of its heads.

- ``TURNING_CORNERS``: coins on an m x n grid, vertex (a, b) = row a, column b; a move picks a
  rectangle's corners (a', b'), (a', b), (a, b'), (a, b) with a' < a and b' < b, the corner
  (a, b) showing heads, and turns all four.
- ``RULER``: coins in a row; a move turns over a run of consecutive coins, the rightmost from
  heads to tails.
- ``PEEK``: looks like Turning Corners, but a rectangle may be turned only while its near
  corner (a', b') shows tails: the guard reads a coin other than the one going to tails, so it
  is *not* a coin-turning game, and grundy refuses the decomposition (one line naming a move).
"""
from grundy.spec import Field, Game, InputError, Structure, ite, move, total


def _board(obj):
    """The grid of a JSON position ``{"rows": m, "cols": n, "heads": [[a, b], ...]}``."""
    m, n = obj.get("rows"), obj.get("cols")
    for key, v in (("rows", m), ("cols", n)):
        if not isinstance(v, int) or isinstance(v, bool) or not 1 <= v <= 16:
            raise InputError(key, "a board size from 1 to 16")
    heads = obj.get("heads", [])
    if not isinstance(heads, list):
        raise InputError("heads", "a list of the [row, column] cells showing heads")
    cells = [(a, b) for a in range(m) for b in range(n)]
    edges = [((a, b), (a + 1, b)) for a in range(m - 1) for b in range(n)] + \
            [((a, b), (a, b + 1)) for a in range(m) for b in range(n - 1)]
    g = Structure.graph(cells, edges)
    up = [False] * len(cells)
    for k, c in enumerate(heads):
        if not (isinstance(c, list) and len(c) == 2 and tuple(c) in cells):
            raise InputError(f"heads[{k}]", f"a [row, column] cell of the {m}x{n} board")
        up[cells.index(tuple(c))] = True
    return g, {"heads": up}


class TurningCorners(Game):
    name = "turning-corners"
    summary = ("Turning Corners: coins on a grid; turn over the four corners of a rectangle whose "
               "far corner (largest row and column) shows heads. Last mover wins.")
    symmetric = False                 # (the transpose is a symmetry of square boards only)

    def fields(self, g):
        return [Field("heads", over="vertices", kind="bool")]

    def corners(self, g):
        """Per rectangle: its far corner and the three others (vertices), in the board's names."""
        at = {name: v for v, name in enumerate(g.names)}
        for (a, b), far in at.items():
            for a1 in range(a):
                for b1 in range(b):
                    yield far, [at[(a1, b1)], at[(a1, b)], at[(a, b1)]], (a1, b1)

    def guard(self, g, s, far, near):
        return s.heads[far]

    def moves(self, g, s):
        for far, others, (a1, b1) in self.corners(g):
            a, b = g.names[far]
            yield move(f"turn ({a1},{b1})-({a},{b})", guard=self.guard(g, s, far, others[0]),
                       update=s.set(heads={v: ~s.heads[v] for v in (far, *others)}))

    def rank(self, g, s):
        # a coin at (a, b) weighs 3^(a + b): the far corner outweighs the three others together
        return total(ite(s.heads[v], 3 ** sum(g.names[v]), 0) for v in g.vertices)

    def read(self, obj):
        return _board(obj)

    def write(self, g, values):
        m, n = (max(x for x, _ in g.names) + 1, max(y for _, y in g.names) + 1) if g.n else (0, 0)
        return {"rows": m, "cols": n, "heads": [list(g.names[v]) for v in g.vertices if values["heads"][v]]}

    def check_structures(self):
        return [_board({"rows": m, "cols": n})[0] for m, n in ((2, 2), (2, 3))]


class Peek(TurningCorners):
    name = "turning-corners-peek"
    summary = ("Turning Corners, but a rectangle may be turned only while its near corner shows "
               "tails (not a coin-turning game). Last mover wins.")

    def guard(self, g, s, far, near):
        return s.heads[far] & ~s.heads[near]


class Ruler(Game):
    name = "ruler"
    summary = ("Ruler: coins in a row; turn over a run of consecutive coins whose rightmost shows "
               "heads. Last mover wins.")
    symmetric = False

    def fields(self, g):
        return [Field("heads", over="vertices", kind="bool")]

    def moves(self, g, s):
        for c in g.vertices:
            for a in range(c + 1):
                yield move(f"turn {a}..{c}", guard=s.heads[c],
                           update=s.set(heads={i: ~s.heads[i] for i in range(a, c + 1)}))

    def rank(self, g, s):               # the row read as a binary number, the rightmost coin highest
        return total(ite(s.heads[v], 2 ** v, 0) for v in g.vertices)

    def read(self, obj):
        row = obj.get("coins")
        if not isinstance(row, str) or not row or set(row) - set("HT"):
            raise InputError("coins", 'a row of coins as a string of H and T, e.g. "THHT"')
        g = Structure.graph(range(len(row)), [(i, i + 1) for i in range(len(row) - 1)])
        return g, {"heads": [c == "H" for c in row]}

    def write(self, g, values):
        return {"coins": "".join("H" if values["heads"][v] else "T" for v in g.vertices)}


TURNING_CORNERS = TurningCorners()
PEEK = Peek()
RULER = Ruler()
