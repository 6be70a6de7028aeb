"""Far counterexamples (issue 37, found 3): claims false only at heaps of 10^5 to 10^6, far
beyond any sweep, on unbounded integers and on 18- to 21-bit vectors. Z3 finds the violation;
it is confirmed by a certificate checked on the rule at that one position (a move between two
positions of equal claimed value or two claimed P-positions: one move applied; a value or a
P-position missing among the options: that position's options enumerated), never by solving
a position of 10^6 from scratch. Each must be ``refuted`` within seconds, never ``unknown``.

The truth, from the rules in words: take 1 to 5 tokens has G(n) = n mod 6 (every residue
below n mod 6 is one to five tokens away, n mod 6 itself is not); a nim heap of n is worth n;
three nim heaps are P iff their nim-sum is 0 (Bouton 1901); Lasker's formula (Winning Ways,
ch. 4). ``tests/test_far_counterexamples.py`` checks each planted position by a brute force
written from those words.
"""
import _seed  # noqa: F401  (puts theorems/ on the path)
from classics import bouton_p, bouton_strategy, lasker, lasker_witnesses

from grundy.spec import HeapRule, ite, option, register
from grundy.spec.heaprule import rule_heaps
from grundy.verify import Claim, Source, bitvec, heaps
from grundy.verify.families import Family

SRC = Source("soundness", "far counterexamples (issue 37, found 3)")
M = 10 ** 6                 # the subtraction claims change from here on
B = 300_000                 # the Bouton variants: positions of 600,000 tokens (below 2^20)
N18 = 200_000               # nim's one heap (below 2^18)
L18 = 100_003               # Lasker's Nim (below 2^18; 4k + 3: its value is 4k + 4)


class TakeAway(HeapRule):
    """Take one of ``amounts`` tokens from one heap, as a user writes it (docs/writing-games.md)."""

    def __init__(self, name, amounts):
        self.name, self.amounts = name, amounts
        self.summary = f"take {', '.join(map(str, amounts))} tokens from one heap. Last mover wins."

    def options(self, g, n):
        for a in self.amounts:
            yield option(f"take {a} from heap {{heap}}", guard=n >= a, parts=[n - a])


TAKE_1_5 = register(TakeAway("far-take-1-5", (1, 2, 3, 4, 5)), listed=False)   # a test game: left out of listings
S_1_5 = Family([("1 heap, S(1, 2, 3, 4, 5)", rule_heaps(1, {"set": (1, 2, 3, 4, 5)}))])


def shifted(g, s):
    """n mod 6 below 10^6, (n + 1) mod 6 from 10^6 on (false from 10^6: G(10^6) = 4)."""
    n = s.heap[0]
    return ite(n < M, n % 6, (n + 1) % 6)


def at3(s, a, b, c):
    return (s.heap[0] == a) & (s.heap[1] == b) & (s.heap[2] == c)


CLAIMS = [
    Claim("far/subtraction-1-5", source=SRC, game=TAKE_1_5, kind="grundy", family=heaps(1),
          statement=shifted, bounds={"heap": 2000}, methods=["explicit", "smt"], expect="refuted",
          text="subtraction {1..5}: G(n) = n mod 6 below 10^6 and (n + 1) mod 6 from 10^6 on"),
    Claim("far/subtraction-1-5-21-bit", source=SRC, game="subtraction", kind="grundy", family=S_1_5,
          statement=shifted, bounds={"heap": 2000}, methods=["explicit", bitvec(21)], expect="refuted",
          text="The same on the built-in subtraction game S(1..5), every heap below 2^21."),
    Claim("far/bouton-np-20-bit", source=SRC, game="nim", kind="char", family=heaps(3),
          statement=lambda g, s: bouton_p(g, s) & ~at3(s, B, B, 0), bounds={"heap": 7},
          methods=["explicit", bitvec(20)], expect="refuted", timeout=600,   # Z3's quantified (NP): qsat,
          # 7 to 8 CPU s in all (the default solver took 2 to 280 s, by the process's history)
          text=f"Bouton's theorem on three heaps below 2^20, except [{B}, {B}, 0] claimed N (it is P); no strategy."),
    Claim("far/bouton-np-strategy-20-bit", source=SRC, game="nim", kind="char", family=heaps(3),
          statement=lambda g, s: bouton_p(g, s) & ~at3(s, B, B, 0), strategy=bouton_strategy,
          bounds={"heap": 7}, methods=["explicit", bitvec(20)], expect="refuted",
          text=f"Bouton's theorem on three heaps below 2^20 with Bouton's move as the witness of (NP), except "
               f"[{B}, {B}, 0] claimed N (it is P)."),
    Claim("far/bouton-pn-20-bit", source=SRC, game="nim", kind="char", family=heaps(3),
          statement=lambda g, s: bouton_p(g, s) | at3(s, B, 0, B + 1), bounds={"heap": 7},
          methods=["explicit", bitvec(20)], expect="refuted",
          text=f"Bouton's theorem on three heaps below 2^20, except [{B}, 0, {B + 1}] claimed P (it is N)."),
    Claim("far/nim-heap-18-bit", source=SRC, game="nim", kind="grundy", family=heaps(1),
          statement=lambda g, s: ite(s.heap[0] == N18, N18 + 1, s.heap[0]), bounds={"heap": 50},
          methods=["explicit", bitvec(18)], expect="refuted",
          text=f"A nim heap of n is worth n below 2^18, except G({N18}) = {N18 + 1}."),
    Claim("far/lasker-18-bit", source=SRC, game="lasker-nim", kind="grundy", family=heaps(1),
          statement=lambda g, s: ite(s.heap[0] == L18, L18, lasker(s.heap[0])), witnesses=lasker_witnesses,
          bounds={"heap": 200}, methods=["explicit", bitvec(18)], expect="refuted",
          text=f"Lasker's formula below 2^18 with one value changed: G({L18}) claimed {L18} (it is {L18 + 1})."),
    Claim("far/nim-pairs-int", source=SRC, game="nim", kind="char", family=heaps(2),
          statement=lambda g, s: (s.heap[0] == s.heap[1]) | ((s.heap[0] == 123_456) & (s.heap[1] == 23_456)),
          bounds={"heap": 10}, methods=["explicit", "smt"], expect="refuted",
          text="Two nim heaps: P iff equal, and [123456, 23456] (planted: it is N)."),
    # controls: the true statements
    Claim("far/control-subtraction-1-5", source=SRC, game=TAKE_1_5, kind="grundy", family=heaps(1),
          statement=lambda g, s: s.heap[0] % 6, bounds={"heap": 200}, methods=["explicit", "smt"],
          expect="proved"),
    Claim("far/control-nim-heap-18-bit", source=SRC, game="nim", kind="grundy", family=heaps(1),
          statement=lambda g, s: s.heap[0], bounds={"heap": 50}, methods=["explicit", bitvec(18)],
          expect="proved"),
]
