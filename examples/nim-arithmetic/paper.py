"""Nim arithmetic in claims: Mock Turtles with ``popcount``, Turning Corners with ``nim_product``
(Winning Ways, ch. 14). Check with ``grundy verify examples/nim-arithmetic``.

Turning Corners is proved by Z3 on the 4x4 and 8x8 boards (every position of the board: a
coin at (x, y) with x, y < 8 is worth x (x) y). The 16x16 board as one game (14,400 moves, 256
coins) is beyond what Z3 decides in 20 minutes; there it is proved one coin at a time, as a heap
rule (``CORNER_COIN``: a heap 16x + y is a coin at (x, y)), with the formula in x = n // 16 and
y = n % 16 for every heap n < 256, i.e. a ⊗ b for all a, b < 16. (That a board is the sum of
its coins is the coin-turning theorem of Winning Ways, which the heap rule takes as its model:
the proof is of the heap game.)
"""
from games import CORNER_COIN, CORNERS_4, CORNERS_8, MOCK_TURTLES

from grundy.spec import ite, maximum, nim_product, popcount
from grundy.verify import Claim, Source, bitvec, heaps

WW = Source("Winning Ways", "ch. 14, coin-turning games")


def odious(x):
    """The odious number of 2x and 2x + 1 (odious: an odd number of 1 bits)."""
    return 2 * x + 1 - popcount(x) % 2


def mock_turtles_value(g, s):
    # a row of coins is worth the nim-sum of the odious numbers of its heads' places (from 0)
    out = 0
    for x in g.elements:
        out = out ^ ite(s.coin[x], odious(x), 0)
    return out


def corners_value(size):
    def value(g, s):
        # a board is worth the nim-sum of x (x) y over its heads at (x, y)
        out = 0
        for i in g.elements:
            out = out ^ ite(s.coin[i], nim_product(i % size, i // size), 0)
        return out
    return value


def coin_value(g, s):
    # the heap n = 16x + y is worth x (x) y. The one-heap proof also reads the statement at the
    # parts of a move, whose first is written ite(room, part, -1) ("no room", never reached: a
    # domain obligation), so n is read as max(n, 0): the same number at every heap, and
    # nim_product's operands are then known to be non-negative, as its bit-vector encoding needs.
    n = maximum(s.heap[0], 0)
    return nim_product(n // 16, n % 16)


CLAIMS = [
    Claim("nim-arithmetic/mock-turtles", source=WW, game=MOCK_TURTLES, kind="grundy",
          family=heaps(range(1, 15)), statement=mock_turtles_value, expect="verified",
          text="Mock Turtles: a coin in place x (from 0) is worth the odious number 2x or 2x + 1."),
    Claim("nim-arithmetic/turning-corners-4", source=WW, game=CORNERS_4, kind="grundy",
          family=heaps(16), statement=corners_value(4), methods=[bitvec(8)], expect="proved",
          text="Turning Corners on a 4x4 board: a coin at (x, y) is worth the nim product x (x) y."),
    Claim("nim-arithmetic/turning-corners-8", source=WW, game=CORNERS_8, kind="grundy",
          family=heaps(64), statement=corners_value(8), methods=[bitvec(8)], expect="proved",
          text="Turning Corners on an 8x8 board: a coin at (x, y) is worth the nim product x (x) y."),
    Claim("nim-arithmetic/turning-corners-16", source=WW, game=CORNER_COIN, kind="grundy",
          family=heaps(1), statement=coin_value, methods=[bitvec(8)], timeout=1200, expect="proved",
          text="Turning Corners on a 16x16 board: a coin at (x, y) is worth the nim product x (x) y."),
]
