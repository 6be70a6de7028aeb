"""Planted: games that are coin-turning games on short rows only (issue 39, item 3).

``test-coins-peek5``: coins in a row; a move turns over the coin c (heads -> tails) and at most
one coin b < c (Turning Turtles: a head in place c is worth c + 1); but from place 5 on, c may
be turned only while coin 0 shows tails. On rows of at most 5 coins that clause is never read and
the game is coin-turning (the premise is proved by Z3 there, and the decomposition is used); on
rows of 6 or more the guard reads another coin, the premise is refused, and the values come from
the moves. The planted claim is what the decomposition would compute on a row of 7 (the nim-sum
of c + 1 over the heads): false at HTTTTHT (value 0 there, not 1 ^ 6 = 7: coin 5 cannot be turned
while coin 0 shows heads; tests/test_coin_turning.py checks it by a brute force from the rule in
words). Controls: the same statement on rows of 5 (true), and the brute force's values on 7.
``test-coins-set6`` is Turning Turtles whose two-coin moves from place 6 on *set* the other coin to
heads instead of turning it: coin-turning on rows of at most 6 only (an update that is no turn).
"""
from grundy.spec import Field, Game, InputError, Structure, ite, move, register, total
from grundy.verify import Claim, Source, heaps

SRC = Source("soundness", "coin-turning premise (issue 39, item 3)")


class CoinsPeek5(Game):
    name = "test-coins-peek5"
    summary = "Turning Turtles, but a coin from place 5 on turns only while coin 0 shows tails."
    structure = "heaps"
    symmetric = False

    def fields(self, g):
        return [Field("coin", over="heaps", kind="bool")]

    def moves(self, g, s):
        for c in g.elements:
            guard = s.coin[c] if c < 5 else s.coin[c] & ~s.coin[0]
            for b in (None, *range(c)):
                turned = (c,) if b is None else (b, c)
                yield move(f"turn {turned}", guard=guard, update=s.set(coin={i: ~s.coin[i] for i in turned}))

    def rank(self, g, s):
        return total(ite(s.coin[i], 2 ** i, 0) for i in g.elements)

    def read(self, obj):
        row = obj.get("coins")
        if not isinstance(row, str) or not row or set(row) - set("HT"):
            raise InputError("coins", 'a row of coins as a string of H and T, e.g. "THHT"')
        return Structure.heaps(len(row)), {"coin": [c == "H" for c in row]}

    def write(self, g, values):
        return {"coins": "".join("H" if values["coin"][i] else "T" for i in g.elements)}


class CoinsSet6(CoinsPeek5):
    name = "test-coins-set6"
    summary = "Turning Turtles, but a move from place 6 on sets its other coin to heads instead of turning it."

    def moves(self, g, s):
        for c in g.elements:
            for b in (None, *range(c)):
                turned = (c,) if b is None else (b, c)
                up = {i: ~s.coin[i] for i in turned}
                if b is not None and c >= 6:
                    up[b] = True
                yield move(f"turn {turned}", guard=s.coin[c], update=s.set(coin=up))


PEEK5, SET6 = (register(g, listed=False) for g in (CoinsPeek5(), CoinsSet6()))   # test games: left out of listings


def heads_sum(g, s):
    out = 0
    for c in g.elements:
        out = out ^ ite(s.coin[c], c + 1, 0)
    return out


def peek5_value(coins: tuple[int, ...]) -> int:
    """The value by the rule in words: mex over the legal turns (a brute force, no reduction)."""
    memo: dict[tuple[int, ...], int] = {}

    def g(s: tuple[int, ...]) -> int:
        if s not in memo:
            opts = set()
            for c, up in enumerate(s):
                if up and (c < 5 or not s[0]):
                    for b in (None, *range(c)):
                        t = list(s)
                        for i in (c,) if b is None else (b, c):
                            t[i] ^= 1
                        opts.add(g(tuple(t)))
            v = 0
            while v in opts:
                v += 1
            memo[s] = v
        return memo[s]
    return g(tuple(coins))


def _table(n: int) -> dict:
    return {tuple((k >> i) & 1 for i in range(n)): peek5_value(tuple((k >> i) & 1 for i in range(n)))
            for k in range(1 << n)}


CLAIMS = [
    Claim("coins/peek5-decomposed-7", source=SRC, game=PEEK5, kind="grundy", family=heaps(7),
          statement=heads_sum, expect="refuted",
          text="Planted: rows of 7 valued as if coin-turning (the nim-sum of c + 1 over the heads)."),
    Claim("coins/peek5-decomposed-7-p", source=SRC, game=PEEK5, kind="char", family=heaps(7),
          statement=lambda g, s: heads_sum(g, s) == 0, expect="refuted",
          text="Planted: the P-positions of rows of 7 as if coin-turning (the nim-sum is 0)."),
    Claim("coins/set6-decomposed-8", source=SRC, game=SET6, kind="grundy", family=heaps(8),
          statement=heads_sum, expect="refuted",
          text="Planted: rows of 8 of a rule that sets a coin (not a turn) valued as if coin-turning."),
    Claim("coins/control-set6-6", source=SRC, game=SET6, kind="grundy", family=heaps(6),
          statement=heads_sum, expect="verified",
          text="Control: on rows of 6 the setting move never occurs; coin-turning, the nim-sum holds."),
    Claim("coins/control-peek5-5", source=SRC, game=PEEK5, kind="grundy", family=heaps(5),
          statement=heads_sum, expect="verified",
          text="Control: on rows of 5 the game is coin-turning, and the nim-sum holds."),
    Claim("coins/control-peek5-7-table", source=SRC, game=PEEK5, kind="grundy", family=heaps(7),
          table=_table(7), expect="verified",
          text="Control: the brute force's values on rows of 7."),
]
