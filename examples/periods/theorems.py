"""Periods, a theorem the solver uses, and the Sprague-Grundy theorem checked: a worked example.

    grundy verify examples/periods
    grundy solve nim 1000000 5 --theorems examples/periods/theorems.py
"""
from games import TAKE_1_TO_3

from grundy.spec.games.nim import nim_witnesses
from grundy.verify import Claim, Finding, Source, bitvec, heaps, positions, sums

KAYLES = {"code": "0.77"}          # Kayles: take 1 or 2 adjacent pins, leaving 0, 1 or 2 rows


def nim_sum(g, s):
    x = s.heap[0]
    for i in g.elements[1:]:
        x = x ^ s.heap[i]
    return x


NIM = [{"game": "nim", "heaps": [k]} for k in range(6)]
TAKE3 = [{"game": "take-1-to-3", "heaps": [k]} for k in range(8)]


def misere_nim(n):                # misère Grundy value of one Nim heap: 1, 0, 2, 3, 4, ...
    return 1 if n == 0 else 0 if n == 1 else n


CLAIMS = [
    Claim("periods/kayles", source=Source("Winning Ways", "ch. 4, Kayles"), game="octal", params=KAYLES,
          kind="period", period=(71, 12), expect="proved",
          text="Kayles' values have period 12 from n = 71 (Guy and Smith's theorem, from G(0..167))."),
    Claim("periods/kayles-from-70", source=Source("planted", "Kayles' preperiod, one too early"), game="octal",
          params=KAYLES, kind="period", period=(70, 12), expect="refuted", finding=Finding("planted"),
          text="Kayles' period 12 claimed from n = 70: G(70) = 6 but G(82) = 2."),
    Claim("periods/take-1-to-3", source=Source("folklore"), game=TAKE_1_TO_3, kind="period", period=(0, 4),
          expect="proved",
          text="A hand-written take-1-to-3 rule has period 4 from 0: its options are code 0.333's (Z3)."),
    Claim("periods/nim-sum", source=Source("Bouton 1901"), game="nim", kind="grundy", family=heaps(2),
          statement=nim_sum, witnesses=nim_witnesses, bounds={"heap": 5}, methods=["explicit", bitvec(32)],
          expect="proved", serves=True,
          text="Two Nim heaps: the value is h0 ^ h1; grundy solve --theorems answers Nim positions by it."),
    Claim("periods/sum-is-xor", source=Source("Sprague-Grundy"), game="sum", kind="grundy",
          family=sums(NIM, TAKE3), statement=lambda g, s: s[0].heap[0] ^ (s[1].heap[0] % 4), methods=["search"],
          text="A Nim heap plus a take-1-to-3 heap: the value of the sum, found by searching the sum, "
               "is the XOR of the parts' values."),
    Claim("periods/misere-sum-is-xor", source=Source("planted", "Sprague-Grundy in misère play"), game="sum",
          kind="grundy", convention="misere", expect="refuted", finding=Finding("planted"),
          family=positions(lambda: ({"game": "sum", "convention": "misere", "parts": [a, b]}
                                    for a in NIM for b in NIM), "misère sums of two Nim heaps"),
          statement=lambda g, s: misere_nim(s[0].heap[0]) ^ misere_nim(s[1].heap[0]), methods=["search"],
          text="Misère play: the sum's value is the XOR of the parts' misère values (false: 1 + 1 is 1, not 0)."),
]
