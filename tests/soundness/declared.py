"""Planted: games whose declared symmetry, decomposition or rank is false (issue 9 item 3).

The solver reduces by a game's symmetries and splits positions into its components only where
Z3 proves those premises on the structure (issue 18: grundy.solvers.premises); a premise that
fails is not used, so the values are the moves' own: a claim that is true of the game's real
rule is ``verified``, a false one ``refuted`` (before issue 18 both were an ``error``, from the
vet's check of the declaration). Z3's "all sizes" proofs rest on the declared rank: an
``error`` naming it. The games are in _bad_games.py. Controls: the same rules declared
correctly. tests/soundness/premises.py plants games whose declarations fail only at larger
heaps, and tests/test_premises.py checks that the violated declaration is reported.
"""
import _bad_games  # noqa: F401  (registers the test games)

from grundy.verify import Claim, Source, heaps

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
          methods=["explicit"], expect="verified"),
    Claim("soundness/declared/chomp-symmetric-false-claim", source=SRC, game="test-chomp-symmetric",
          kind="char", family=heaps(2), assume=chomp_family, statement=chomp_wrong, bounds={"heap": 10},
          methods=["explicit"], expect="refuted"),
    # decomposition: minnie's heaps are not independent
    Claim("soundness/declared/minnie-split", source=SRC, game="test-minnie-split", kind="char",
          family=heaps(2), statement=minnie_p, bounds={"heap": 20}, methods=["explicit"], expect="verified"),
    # rank: nim whose rank is one heap only
    Claim("soundness/declared/nim-bad-rank", source=SRC, game="test-nim-bad-rank", kind="char",
          family=heaps(2), statement=equal, bounds={"heap": 10}, methods=["explicit"],
          expect="verified"),      # the sweep's values need no rank: play ends (a cycle is an error)
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
