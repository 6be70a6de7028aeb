"""Planted: games played on a fixed number of heaps, asked about other counts (issue 9, S4).

wythoff, wynnie, euclid and restricted-nim declare ``heap_count``: every path (families,
the explicit solver, Z3) refuses another count, so each claim below is an ``error``, never
a verdict about a game the rules do not define (3-heap wynnie used to give 168 of 216
values wrong, sorted as if its rule were symmetric in three heaps). Controls: the same
games on their own counts.
"""
from grundy.spec import any_of, maximum, minimum
from grundy.verify import Claim, Source, heaps

SRC = Source("soundness", "heap count")


def low_high(s):
    return minimum(s.heap[0], s.heap[1]), maximum(s.heap[0], s.heap[1])


def phi_floor(n: int) -> int:
    from math import isqrt
    return (n + isqrt(5 * n * n)) // 2


def wythoff_p(g, s):
    a, b = low_high(s)
    return any_of((a == phi_floor(n)) & (b == phi_floor(n) + n) for n in range(40))


def two_equal(g, s):          # any statement: the family is what is wrong
    return s.heap[0] == s.heap[1]


def power_of_two_or_zero(g, s):
    n = s.heap[0]
    return any_of([n == 0] + [n == 2 ** j for j in range(12)])


CLAIMS = [
    Claim("soundness/heapcount/wynnie-3-heaps", source=SRC, game="wynnie", kind="char", family=heaps(3),
          statement=two_equal, bounds={"heap": 5}, methods=["explicit"], expect="error"),
    Claim("soundness/heapcount/wynnie-3-heaps-smt", source=SRC, game="wynnie", kind="char", family=heaps(3),
          statement=two_equal, methods=["smt"], expect="error"),
    Claim("soundness/heapcount/wythoff-2-and-3", source=SRC, game="wythoff", kind="char", family=heaps(2, 3),
          statement=wythoff_p, bounds={"heap": 8}, methods=["explicit"], expect="error"),
    Claim("soundness/heapcount/euclid-3-heaps", source=SRC, game="euclid", kind="char", family=heaps(3),
          statement=two_equal, bounds={"heap": 6}, methods=["explicit"], expect="error"),
    Claim("soundness/heapcount/restricted-nim-2-heaps", source=SRC, game="restricted-nim", kind="char",
          family=heaps(2), statement=two_equal, bounds={"heap": 8}, methods=["explicit", "smt"],
          expect="error"),
    # controls: the games on their own counts
    Claim("soundness/heapcount/wythoff-control", source=SRC, game="wythoff", kind="char", family=heaps(2),
          statement=wythoff_p, bounds={"heap": 25}, methods=["explicit"], expect="verified"),
    Claim("soundness/heapcount/restricted-nim-control", source=SRC, game="restricted-nim", kind="char",
          family=heaps(1), statement=power_of_two_or_zero, bounds={"heap": 70}, methods=["explicit"],
          expect="verified"),
]
