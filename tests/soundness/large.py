"""Large refutations (issue 18, item 8): claims false only at a position far beyond any sweep,
where the certificate needs that one position's every move: a position claimed N (not P)
whose moves all lead to positions also claimed N (an N-position has a move to a P-position).
Z3 finds the violation (first asked for a smaller witness: the sum of the heaps minimized);
the certificate is checked by enumerating the witness's moves (in C where the kernel serves,
else Python). Each must be ``refuted`` with a certificate, never ``unknown``.

Each planted claim is nim with one far position [H, H] claimed N. It is P (whatever the mover
takes from one heap, the other player takes as much from the other: equal heaps are P), and
``tests/test_recheck.py`` confirms the certificate by a brute force written from the rules in
words: every move from [H, H] ("take k >= 1 tokens from one heap") leads to unequal heaps.
"""
from grundy.spec import Play, all_of
from grundy.verify import Claim, Source, bitvec, heaps

SRC = Source("soundness", "large refutations (issue 18, item 8)")
H = 300_000
H_BITS = 400_000                         # below 2^20


def equal(g, s):
    return s.heap[0] == s.heap[1]


def at(s, h):
    return (s.heap[0] == h) & (s.heap[1] == h)


def mirror(g, s, rules):
    """Take the difference from the larger heap (equal heaps: P)."""
    return [Play(s.heap[0] > s.heap[1], 0, {"k": s.heap[0] - s.heap[1]}),
            Play(s.heap[1] > s.heap[0], 1, {"k": s.heap[1] - s.heap[0]})]


def misere_p(g, s):
    """Misère nim on two heaps: P iff the heaps are equal and one exceeds 1, or exactly one is 1
    and the other 0."""
    small = all_of(s.heap[i] <= 1 for i in g.elements)
    return (~small & equal(g, s)) | (small & (s.heap[0] + s.heap[1] == 1))


CLAIMS = [
    Claim("large/np-far", source=SRC, game="nim", kind="char", family=heaps(2), bounds={"heap": 10},
          statement=lambda g, s: equal(g, s) & ~at(s, H), methods=["explicit", "smt"], expect="refuted",
          text=f"Nim on two heaps: P iff the heaps are equal, except [{H}, {H}] (planted: it is P)."),
    Claim("large/np-far-20-bit", source=SRC, game="nim", kind="char", family=heaps(2), bounds={"heap": 10},
          statement=lambda g, s: equal(g, s) & (s.heap[0] != H_BITS), methods=["explicit", bitvec(20)],
          expect="refuted", text=f"The same below 2^20, except [{H_BITS}, {H_BITS}] (planted)."),
    Claim("large/np-far-strategy", source=SRC, game="nim", kind="char", family=heaps(2), bounds={"heap": 10},
          statement=lambda g, s: equal(g, s) & ~at(s, H), strategy=mirror, methods=["explicit", bitvec(20)],
          expect="refuted", text=f"The same with the mirror strategy as the witness of (NP) (planted at [{H}, {H}])."),
    Claim("large/np-far-misere", source=SRC, game="nim", kind="char", family=heaps(2), bounds={"heap": 10},
          statement=lambda g, s: misere_p(g, s) & ~at(s, H), convention="misere", methods=["explicit", "smt"],
          expect="refuted", text=f"Misère nim on two heaps, except [{H}, {H}] (planted: it is P)."),
    # controls
    Claim("large/control-equal", source=SRC, game="nim", kind="char", family=heaps(2), bounds={"heap": 10},
          statement=equal, strategy=mirror, methods=["explicit", "smt"], expect="proved"),
    Claim("large/control-misere", source=SRC, game="nim", kind="char", family=heaps(2), bounds={"heap": 10},
          statement=misere_p, convention="misere", methods=["explicit", "smt"], expect="proved"),
]
