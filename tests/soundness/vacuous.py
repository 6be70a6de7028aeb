"""Vacuous checks (issue 9, S1): a claim whose check covers nothing is ``error``, never a pass.

Every claim here is false (its statement is wrong somewhere) but its check, as written, would
look at no position: an ``assume`` nothing satisfies, bounds that allow no position, a family
without a structure. Empty bounds written as constants ((5, 3), -5, []) and empty families
built eagerly are refused when the file loads (tests/test_soundness.py checks that apart)."""
from _seed import xor  # noqa: F401  (also puts theorems/ on the path)

from grundy.spec import lift
from grundy.verify import Claim, Lazy, Source, bitvec, heaps, paths

SRC = Source("soundness", "vacuous checks (S1)")
wrong = lambda g, s: s.heap[0] <= s.heap[1]        # noqa: E731  false: [1, 2] is N

CLAIMS = [
    Claim("vacuous/assume-negative", source=SRC, game="nim", kind="char", family=heaps(2),
          bounds={"heap": 10}, statement=wrong, assume=lambda g, s: s.heap[0] < 0,
          methods=["explicit", "smt"], expect="error"),
    Claim("vacuous/assume-negative-smt-only", source=SRC, game="nim", kind="char", family=heaps(2),
          statement=wrong, assume=lambda g, s: s.heap[0] < 0, methods=["smt"], expect="error"),
    Claim("vacuous/assume-beyond-bounds", source=SRC, game="nim", kind="char", family=heaps(2),
          bounds={"heap": 10}, statement=wrong, assume=lambda g, s: s.heap[0] > 20, expect="error"),
    Claim("vacuous/lazy-empty-family", source=SRC, game="nim", kind="char",
          family=Lazy(lambda: [], "no structure (a lazy family that makes none)"),
          bounds={"heap": 5}, statement=wrong, expect="error"),
    Claim("vacuous/bounds-function-empty", source=SRC, game="nim", kind="char", family=heaps(2),
          bounds={"heap": lambda g, key: []}, statement=wrong, expect="error"),
    Claim("vacuous/contradiction-bitvec", source=SRC, game="nim", kind="char", family=heaps(2),
          bounds={"heap": 6}, statement=wrong,
          assume=lambda g, s: (s.heap[0] == s.heap[1]) & (s.heap[0] != s.heap[1]),
          methods=["explicit", bitvec(8)], expect="error"),
    Claim("vacuous/token-off-graph", source=SRC, game="edge-nim", kind="char", family=paths(3, 4),
          bounds={"weight": 2}, statement=lambda g, s: s.token == 0,
          assume=lambda g, s: s.token == 99, methods=["explicit", "smt"], expect="error"),
    Claim("vacuous/misere-table-empty", source=SRC, game="nim", kind="table", convention="misere",
          family=heaps(1), bounds={"heap": 10}, statement=lambda g, s: s.heap[0],
          assume=lambda g, s: s.heap[0] > s.heap[0], methods=["explicit", "smt"], expect="error"),
    Claim("vacuous/grundy-assume-false", source=SRC, game="nim", kind="grundy", family=heaps(1),
          bounds={"heap": 10}, statement=lambda g, s: s.heap[0] + 1,
          assume=lambda g, s: lift(False), methods=["explicit", "smt"], expect="error"),
    Claim("vacuous/weight-above-itself", source=SRC, game="edge-nim", kind="char", family=paths(3),
          bounds={"weight": 2}, statement=lambda g, s: s.token == 1,
          assume=lambda g, s: s.weight[0] > s.weight[0], methods=["smt"], expect="error"),
    # controls: a satisfiable assume, closed under moves
    Claim("vacuous/control-pinned-heap", source=SRC, game="nim", kind="char", family=heaps(2),
          bounds={"heap": 10}, statement=lambda g, s: s.heap[1] == 0,
          assume=lambda g, s: s.heap[0] == 0, methods=["explicit", "smt"], expect="proved"),
    Claim("vacuous/control-explicit", source=SRC, game="nim", kind="char", family=heaps(2),
          bounds={"heap": 8}, statement=lambda g, s: s.heap[0] == s.heap[1], expect="verified"),
]
