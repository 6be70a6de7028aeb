"""Coin-turning claims (Winning Ways, ch. 14), checked through the coin-turning premise: grundy
proves by Z3 on each board that the rule is a coin-turning game, then values a position as the
nim-sum of its heads, each head by the mex recursion. Check with
``grundy verify examples/coin-turning``.
"""
from itertools import combinations

from games import PEEK, RULER, TURNING_CORNERS

from grundy.spec import ite, nim_product
from grundy.verify import Claim, Source, positions

WW = Source("Winning Ways", "ch. 14, coin-turning games")


def board(m, n, heads):
    return {"game": "turning-corners", "rows": m, "cols": n, "heads": [list(c) for c in heads]}


def cells(m, n):
    return [(a, b) for a in range(m) for b in range(n)]


def single_heads(m, n, game="turning-corners"):
    return positions(lambda: ({**board(m, n, [c]), "game": game} for c in cells(m, n)),
                     f"every single head on the {m}x{n} board")


def two_heads(m, n):
    return positions(lambda: (board(m, n, pair) for pair in combinations(cells(m, n), 2)),
                     f"every two heads on the {m}x{n} board")


def corners_value(wrong=None):
    """The nim-sum of a (x) b over the heads (a, b); ``wrong``: a cell claimed one more."""
    def value(g, s):
        out = 0
        for v in g.vertices:
            a, b = g.names[v]
            x = nim_product(a, b) + (1 if (a, b) == wrong else 0)
            out = out ^ ite(s.heads[v], x, 0)
        return out
    return value


def ruler_value(g, s):
    # a head in place c (from 1) is worth the largest power of 2 dividing c
    out = 0
    for v in g.vertices:
        c = v + 1
        out = out ^ ite(s.heads[v], c & -c, 0)
    return out


CLAIMS = [
    Claim("coin-turning/corners-8-single", source=WW, game=TURNING_CORNERS, kind="grundy",
          family=single_heads(8, 8), statement=corners_value(),
          text="Turning Corners on an 8x8 board: a single head at (a, b) is worth the nim product a (x) b."),
    Claim("coin-turning/corners-8-pairs", source=WW, game=TURNING_CORNERS, kind="grundy",
          family=two_heads(8, 8), statement=corners_value(),
          text="Turning Corners on an 8x8 board: two heads are worth the nim-sum of their nim products."),
    Claim("coin-turning/corners-8-planted", source=WW, game=TURNING_CORNERS, kind="grundy",
          family=single_heads(8, 8), statement=corners_value(wrong=(2, 3)), expect="refuted",
          text="Planted false: the head at (2, 3) claimed worth 2 (x) 3 + 1 (the first counterexample in the family's order)."),
    Claim("coin-turning/ruler-16", source=WW, game=RULER, kind="grundy",
          family=positions(lambda: ({"game": "ruler", "coins": "".join("HT"[(k >> i) & 1 ^ 1] for i in range(16))}
                                    for k in range(0, 1 << 16, 97)), "every 97th row of 16 coins"),
          statement=ruler_value,
          text="Ruler: a row of coins is worth the nim-sum over its heads of the ruler function of their places."),
    Claim("coin-turning/peek-3", source=WW, game=PEEK, kind="grundy",
          family=single_heads(3, 3, "turning-corners-peek"), statement=corners_value(),
          text="Not a coin-turning game (the guard peeks at the near corner): no decomposition, "
               "solved from the moves; on single heads its values are still the nim products."),
]


def peek_pairs(m, n):
    return positions(lambda: ({**board(m, n, pair), "game": "turning-corners-peek"}
                              for pair in combinations(cells(m, n), 2)), f"every two heads on the {m}x{n} board")


CLAIMS.append(
    Claim("coin-turning/peek-3-pairs", source=WW, game=PEEK, kind="grundy", family=peek_pairs(3, 3),
          statement=corners_value(), expect="refuted",
          text="The nim-sum rule read as if the peeking game were coin-turning: false (no decomposition "
               "is used, so the values come from the moves)."))
