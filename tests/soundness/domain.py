"""Planted: a rule without a guard (issue 9 item 3: field domains).

"take 1, 2 or 3" with no ``heap >= k``: a heap goes negative. The explicit solver (Python
path and C kernel, from one move plan) stops at the first move that leaves the field's
domain, naming the game, the move, the field and the position; Z3's domain obligation finds
the same. So every claim on it is an ``error`` (it used to run until memory ran out).
Controls: the guarded rule.
"""
import _bad_games  # noqa: F401  (registers the test games)

from grundy.verify import Claim, Source, heaps

SRC = Source("soundness", "field domains")


def mod4(g, s):
    return s.heap[0] % 4 == 0


def mod4_pair(g, s):
    return s.heap[0] % 4 == s.heap[1] % 4


CLAIMS = [
    Claim("soundness/domain/unguarded-1-heap", source=SRC, game="test-take-unguarded", kind="char",
          family=heaps(1), statement=mod4, bounds={"heap": 40}, methods=["explicit"], expect="error"),
    Claim("soundness/domain/unguarded-2-heaps", source=SRC, game="test-take-unguarded", kind="char",
          family=heaps(2), statement=mod4_pair, bounds={"heap": 12}, methods=["explicit"], expect="error"),
    Claim("soundness/domain/unguarded-smt", source=SRC, game="test-take-unguarded", kind="char",
          family=heaps(1), statement=mod4, methods=["smt"], expect="error"),
    # controls
    Claim("soundness/domain/guarded-control", source=SRC, game="test-subtraction", kind="char",
          family=heaps(1), statement=mod4, bounds={"heap": 40}, methods=["explicit", "smt"], expect="proved"),
    Claim("soundness/domain/guarded-control-2", source=SRC, game="test-subtraction", kind="char",
          family=heaps(2), statement=mod4_pair, bounds={"heap": 12}, methods=["explicit", "smt"],
          expect="proved"),
]
