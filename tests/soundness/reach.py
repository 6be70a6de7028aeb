"""Errors that appear only where a check must reach (issue 9, item 8): only at weight 3, only
with 3 heaps, only on a larger table. The bounds reach them; a bound one smaller would not
(that is a bound too small, stated in the scope), but nothing inside the scope is skipped."""
from _seed import listed, wythoff_p, xor
from erickson import even_cycle_p, path_p

from grundy.spec import all_of
from grundy.verify import Claim, Source, cycles, heaps, paths

SRC = Source("soundness", "reach")

CLAIMS = [
    Claim("reach/paths-all-weights-3", source=SRC, game="edge-nim", kind="char", family=paths(3, 4),
          bounds={"weight": 3},
          statement=lambda g, s: xor(path_p(g, s), all_of(s.weight[e] == 3 for e in range(len(g.edges)))),
          methods=["explicit", "smt"], expect="refuted"),
    Claim("reach/cycle-two-edges-3", source=SRC, game="edge-nim", kind="char", family=cycles(4),
          bounds={"weight": 3},
          statement=lambda g, s: xor(even_cycle_p(g, s),
                                     (s.weight[0] == 3) & (s.weight[1] == 3) & (s.token == 2)),
          expect="refuted"),
    Claim("reach/third-heap", source=SRC, game="nim", kind="char", family=heaps(2, 3), bounds={"heap": 4},
          statement=lambda g, s: (s.heap[0] == s.heap[1]) & all_of(s.heap[i] == 0 for i in range(2, g.n)),
          methods=["explicit", "smt"], expect="refuted"),      # [1, 2, 3] is P
    Claim("reach/three-heaps-pairs", source=SRC, game="nim", kind="char", family=heaps(3), bounds={"heap": 3},
          statement=lambda g, s: (s.heap[0] == s.heap[1]) | (s.heap[1] == s.heap[2]) | (s.heap[0] == s.heap[2]),
          expect="refuted"),
    Claim("reach/wythoff-one-pair-missing", source=SRC, game="wythoff", kind="char", family=heaps(2),
          bounds={"heap": 12}, statement=lambda g, s: listed(s, [t for t in wythoff_p(12) if t != (10, 6)]),
          expect="refuted"),
    Claim("reach/grundy-beyond-8", source=SRC, game="nim", kind="grundy", family=heaps(1), bounds={"heap": 9},
          statement=lambda g, s: s.heap[0] % 9, methods=["explicit", "smt"], expect="refuted"),
    # controls
    Claim("reach/control-wythoff", source=SRC, game="wythoff", kind="char", family=heaps(2),
          bounds={"heap": 12}, statement=lambda g, s: listed(s, wythoff_p(12)), expect="verified"),
    Claim("reach/control-paths", source=SRC, game="edge-nim", kind="char", family=paths(3, 4),
          bounds={"weight": 3}, statement=path_p, methods=["explicit", "smt"], expect="proved"),
]
