"""Symmetry only where it is sound (issue 9, S2): the sweep evaluates the statement and the
assumption at every position within the bounds; symmetry serves the solver only.

Every false claim here is wrong only at positions that are not the canonical representatives
of their symmetry class (unsorted heaps, a token away from vertex 0): a sweep that checked one
position per class would pass them. Explicit method only: this is the sweep's soundness."""
from _seed import listed, nim_p, xor
from erickson import even_cycle_p

from grundy.verify import Claim, Source, cycles, heaps

SRC = Source("soundness", "symmetry (S2)")
equal = lambda g, s: s.heap[0] == s.heap[1]        # noqa: E731

CLAIMS = [
    Claim("symmetry/issue-reproduction", source=SRC, game="nim", kind="char", family=heaps(2),
          bounds={"heap": 10},
          statement=lambda g, s: (s.heap[0] == s.heap[1]) | (s.heap[0] > s.heap[1] + 3), expect="refuted"),
    Claim("symmetry/paper-order-a-b", source=SRC, game="nim", kind="char", family=heaps(2),
          bounds={"heap": 10},      # a paper's [a, b] read as heap[0], heap[1]: [5, 2] is N
          statement=lambda g, s: equal(g, s) | ((s.heap[0] == 5) & (s.heap[1] == 2)), expect="refuted"),
    Claim("symmetry/unsorted-only", source=SRC, game="nim", kind="char", family=heaps(2),
          bounds={"heap": 10},
          statement=lambda g, s: equal(g, s) | ((s.heap[0] == s.heap[1] + 1) & (s.heap[0] > 4)),
          expect="refuted"),
    Claim("symmetry/three-heaps-one-order", source=SRC, game="nim", kind="char", family=heaps(3),
          bounds={"heap": 3},       # nim's P-positions up to 3, less the unsorted [3, 1, 2]
          statement=lambda g, s: listed(s, [t for t in nim_p(3, 3) if t != (3, 1, 2)]), expect="refuted"),
    Claim("symmetry/token-flipped-off-0", source=SRC, game="edge-nim", kind="char", family=cycles(4),
          bounds={"weight": 2},     # right with the token on 0, wrong everywhere on 1
          statement=lambda g, s: xor(even_cycle_p(g, s), s.token == 1), expect="refuted"),
    Claim("symmetry/token-pinned-by-assume", source=SRC, game="edge-nim", kind="char", family=cycles(4),
          bounds={"weight": 2}, assume=lambda g, s: s.token == 2,
          statement=lambda g, s: xor(even_cycle_p(g, s), (s.weight[0] == 1) & (s.weight[1] == 2)),
          expect="refuted"),
    # controls
    Claim("symmetry/control-three-heaps", source=SRC, game="nim", kind="char", family=heaps(3),
          bounds={"heap": 3}, statement=lambda g, s: listed(s, nim_p(3, 3)), expect="verified"),
    Claim("symmetry/control-even-cycle", source=SRC, game="edge-nim", kind="char", family=cycles(4, 6),
          bounds={"weight": 2}, statement=even_cycle_p, expect="verified"),
]
