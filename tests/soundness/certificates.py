"""Refutations that need no solving (issue 9, item 5): false only at positions far beyond the
sweep's bounds, found by Z3 and confirmed on the rule itself (a partition certificate: a move
between two claimed P-positions, a terminal position outside the set, a non-terminal position
outside the set whose moves all stay outside; for values, a move between equal values) when
the position is too large to solve. Each must be ``refuted``, never ``unknown``."""
from _seed import xor  # noqa: F401
from erickson import path_p

from grundy.spec import ite
from grundy.verify import Claim, Source, bitvec, heaps, paths

SRC = Source("soundness", "certificates (item 5)")
equal = lambda g, s: s.heap[0] == s.heap[1]        # noqa: E731

CLAIMS = [
    Claim("certificates/issue-2001", source=SRC, game="nim", kind="char", family=heaps(2), bounds={"heap": 10},
          statement=lambda g, s: equal(g, s) | ((s.heap[0] == 1) & (s.heap[1] == 2001)),
          methods=["explicit", "smt"], expect="refuted"),
    Claim("certificates/pn-32-bit", source=SRC, game="nim", kind="char", family=heaps(2), bounds={"heap": 10},
          statement=lambda g, s: equal(g, s) | ((s.heap[0] == 100000) & (s.heap[1] > 3000000000)),
          methods=["explicit", bitvec(32)], expect="refuted"),
    Claim("certificates/np-missing", source=SRC, game="nim", kind="char", family=heaps(2), bounds={"heap": 10},
          statement=lambda g, s: equal(g, s) & ~((s.heap[0] == 3000) & (s.heap[1] == 3000)),
          methods=["explicit", "smt"], expect="refuted"),
    Claim("certificates/np-16-bit", source=SRC, game="nim", kind="char", family=heaps(2), bounds={"heap": 10},
          statement=lambda g, s: equal(g, s) & (s.heap[0] != 40000),
          methods=["explicit", bitvec(16)], expect="refuted"),
    Claim("certificates/terminal-heavy-edge", source=SRC, game="edge-nim", kind="char", family=paths(3),
          bounds={"weight": 2},     # token stuck at an end, the far edge >= 10^9: terminal, P
          statement=lambda g, s: path_p(g, s) & ~(s.weight[1] >= 10**9),
          methods=["explicit", "smt"], expect="refuted"),
    Claim("certificates/mex-equal-32-bit", source=SRC, game="nim", kind="grundy", family=heaps(1),
          bounds={"heap": 10}, statement=lambda g, s: ite(s.heap[0] == 3000000000, s.heap[0] - 1, s.heap[0]),
          methods=["explicit", bitvec(32)], expect="refuted"),
    # control
    Claim("certificates/control-nim", source=SRC, game="nim", kind="char", family=heaps(2), bounds={"heap": 10},
          statement=equal, methods=["explicit", bitvec(32), "smt"], expect="proved"),
]
