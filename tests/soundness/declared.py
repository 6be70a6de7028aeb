"""Planted: games whose declared symmetry, decomposition or rank is false (issue 9 item 3).

The solver reduces by a game's declared symmetries and splits positions into its declared
components; Z3's "all sizes" proofs rest on its declared rank. Each is checked before it is
relied on (grundy.solvers.gamecheck), so a claim about such a game is an ``error`` naming the
broken property — even a claim that is true of the game's real rule. The games are in
_bad_games.py. Controls: the same rules declared correctly.
"""
from grundy.verify import Claim, Source, heaps

import _bad_games  # noqa: F401  (registers the test games)

SRC = Source("soundness", "declared properties")


def chomp_p(g, s):            # two-row Chomp: P iff the top row is one shorter than the bottom row
    return s.heap[0] == s.heap[1] + 1


def chomp_family(g, s):
    return (s.heap[1] <= s.heap[0]) & (s.heap[0] >= 1)


def chomp_wrong(g, s):
    return s.heap[0] == s.heap[1]


def minnie_p(g, s):           # selfref Theorem 5.2 with its completion (true of minnie)
    from grundy.spec import maximum, minimum
    a, b = minimum(s.heap[0], s.heap[1]), maximum(s.heap[0], s.heap[1])
    return ((b == 0) | ((a == 1) & (b % 2 == 1)) | ((a == 2) & (b % 4 == 2))
            | ((a == 3) & (b % 4 == 0) & (b >= 8)) | ((a == 4) & (b == 4)))


def equal(g, s):
    return s.heap[0] == s.heap[1]


def mod4(g, s):
    return s.heap[0] % 4 == 0


CLAIMS = [
    # symmetry: two-row Chomp is not symmetric in its two rows
    Claim("soundness/declared/chomp-symmetric-true-claim", source=SRC, game="test-chomp-symmetric",
          kind="char", family=heaps(2), assume=chomp_family, statement=chomp_p, bounds={"heap": 10},
          methods=["explicit"], expect="error"),
    Claim("soundness/declared/chomp-symmetric-false-claim", source=SRC, game="test-chomp-symmetric",
          kind="char", family=heaps(2), assume=chomp_family, statement=chomp_wrong, bounds={"heap": 10},
          methods=["explicit"], expect="error"),
    # decomposition: minnie's heaps are not independent
    Claim("soundness/declared/minnie-split", source=SRC, game="test-minnie-split", kind="char",
          family=heaps(2), statement=minnie_p, bounds={"heap": 20}, methods=["explicit"], expect="error"),
    # rank: nim whose rank is one heap only
    Claim("soundness/declared/nim-bad-rank", source=SRC, game="test-nim-bad-rank", kind="char",
          family=heaps(2), statement=equal, bounds={"heap": 10}, methods=["explicit"], expect="error"),
    Claim("soundness/declared/nim-bad-rank-smt", source=SRC, game="test-nim-bad-rank", kind="char",
          family=heaps(2), statement=equal, methods=["smt"], expect="error"),
    # controls
    Claim("soundness/declared/chomp-control", source=SRC, game="test-chomp", kind="char",
          family=heaps(2), assume=chomp_family, statement=chomp_p, bounds={"heap": 12},
          methods=["explicit", "smt"], expect="proved"),
    Claim("soundness/declared/chomp-control-false", source=SRC, game="test-chomp", kind="char",
          family=heaps(2), assume=chomp_family, statement=chomp_wrong, bounds={"heap": 12},
          methods=["explicit", "smt"], expect="refuted"),
    Claim("soundness/declared/minnie-control", source=SRC, game="minnie", kind="char",
          family=heaps(2), statement=minnie_p, bounds={"heap": 20}, methods=["explicit"], expect="verified"),
]
