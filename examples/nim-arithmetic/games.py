"""Two coin-turning games (Berlekamp, Conway and Guy, *Winning Ways*, ch. 14), written with the
public API only. A position is a row (or a board) of coins; a move turns over some coins, the
last (rightmost, or farthest) of which must go from heads to tails. The theory of coin-turning
games says a position is worth the nim-sum of the values of its heads, each valued as if it
were the only one: the claims in ``paper.py`` state those values with ``popcount`` and
``nim_product``.
"""
from itertools import combinations

from grundy import HeapRule, option
from grundy.spec import Field, Game, InputError, Structure, ite, move, total


def _cells(obj):
    heads = obj.get("heads")
    if not isinstance(heads, list):
        raise InputError("heads", "a list of the [x, y] cells showing heads")
    return heads


class MockTurtles(Game):
    """Mock Turtles: turn over one, two or three coins of a row, the rightmost from heads to tails."""

    name = "mock-turtles"
    summary = ("Mock Turtles: turn over one, two or three coins of a row; the rightmost of them "
               "must go from heads to tails. Last mover wins.")
    structure = "heaps"                 # one element per coin of the row

    def fields(self, g):
        return [Field("coin", over="heaps", kind="bool")]

    def moves(self, g, s):
        for right in g.elements:
            for k in range(3):
                for others in combinations(range(right), k):
                    turned = (*others, right)
                    yield move(f"turn {', '.join(map(str, turned))}", guard=s.coin[right],
                               update=s.set(coin={c: ~s.coin[c] for c in turned}))

    def rank(self, g, s):               # the row read as a binary number: the rightmost turned goes to tails
        return total(ite(s.coin[i], 2 ** i, 0) for i in g.elements)

    def read(self, obj):
        row = obj.get("coins")
        if not isinstance(row, str) or not row or set(row) - set("HT"):
            raise InputError("coins", 'a row of coins as a string of H and T, e.g. "THHT"')
        return Structure.heaps(len(row)), {"coin": [c == "H" for c in row]}

    def write(self, g, values):
        return {"coins": "".join("H" if values["coin"][i] else "T" for i in g.elements)}


class TurningCorners(Game):
    """Turning Corners on a ``size`` x ``size`` board; cell ``i`` is the coin at
    ``(i % size, i // size)``."""

    structure = "heaps"                 # one element per cell of the board

    def __init__(self, size):
        self.size = size
        self.name = f"turning-corners-{size}"
        self.summary = (f"Turning Corners on a {size}x{size} board: choose a rectangle whose far corner "
                        "(largest x and y) shows heads and turn over its four corners. Last mover wins.")

    def fields(self, g):
        return [Field("coin", over="heaps", kind="bool")]

    def moves(self, g, s):
        n = self.size
        for x2 in range(1, n):
            for y2 in range(1, n):
                for x1 in range(x2):
                    for y1 in range(y2):
                        cells = [y2 * n + x2, y2 * n + x1, y1 * n + x2, y1 * n + x1]
                        yield move(f"turn ({x1},{y1}) ({x2},{y2})", guard=s.coin[cells[0]],
                                   update=s.set(coin={c: ~s.coin[c] for c in cells}))

    def rank(self, g, s):
        # a coin at (x, y) weighs 3^(x + y): the far corner outweighs the three others together
        n = self.size
        return total(ite(s.coin[i], 3 ** (i % n + i // n), 0) for i in g.elements)

    def read(self, obj):
        n = self.size
        heads = _cells(obj)
        coins = [False] * n * n
        for k, c in enumerate(heads):
            if not (isinstance(c, list) and len(c) == 2
                    and all(isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n for v in c)):
                raise InputError(f"heads[{k}]", f"an [x, y] cell with 0 <= x, y < {n}")
            coins[c[1] * n + c[0]] = not coins[c[1] * n + c[0]]
        return Structure.heaps(n * n), {"coin": coins}

    def write(self, g, values):
        n = self.size
        return {"heads": [[i % n, i // n] for i in g.elements if values["coin"][i]]}


class CornerCoin(HeapRule):
    """Turning Corners on the 16x16 board, one coin at a time: a heap ``n = 16x + y`` (n < 256)
    is a coin showing heads at (x, y). A move turns over the four corners of a rectangle whose
    far corner is (x, y): the coin there goes to tails and the three others, (x1, y1), (x1, y) and
    (x, y1) with x1 < x, y1 < y, are turned over. By the theory of coin-turning games a board is
    the sum of its coins (a coin turned twice is two equal heaps, worth 0 together), so a move
    leaves three heaps, one per turned coin; a coin on row or column 0 has no move (a heap of
    value 0, and part 0, the coin at (0, 0), is no heap, as it is worth 0 too).

    Unlike a take-and-break rule, a move may leave more tokens than the heap had (three parts,
    each smaller than the heap): the rank is the board game's, a coin at (x, y) weighing
    3^(x + y), which the three turned coins never reach together. So the one-heap values are for
    Z3 (``grundy verify``), not for the explicit solver, which checks that a rule makes no tokens."""

    name = "corner-coin"
    summary = ("One coin of Turning Corners on the 16x16 board: a heap n < 256 is a coin at "
               "(n // 16, n % 16); a move leaves the three other corners of a rectangle as heaps.")

    def options(self, g, n):
        x, y = n // 16, n % 16
        yield option("turn corners from ({a},{b}) in heap {heap}", guard=n < 256,
                     choose=[("a", 0, x - 1), ("b", 0, y - 1)],
                     parts=lambda a, b: [16 * a + b, 16 * a + y, 16 * x + b])

    def rank(self, g, s):
        def weight(h):
            d = h // 16 + h % 16
            return total(ite(d == k, 3 ** k, 0) for k in range(31))
        return total(ite(s.heap[i] > 0, weight(s.heap[i]), 0) for i in g.elements)


MOCK_TURTLES = MockTurtles()
CORNERS_4, CORNERS_8 = TurningCorners(4), TurningCorners(8)
CORNER_COIN = CornerCoin()
