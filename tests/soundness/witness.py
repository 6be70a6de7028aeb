"""Witnesses (issue 9, item 5): a counterexample shows the full state that was checked (every
field, not only what the game's ``write()`` prints), and is called "the smallest" only when a
sweep established it (tests/test_soundness.py reads the witnesses of these claims)."""
from grundy.spec import count
from grundy.verify import Claim, Source, heaps, paths

SRC = Source("soundness", "witnesses")

CLAIMS = [
    Claim("witness/grim-removed-vertices", source=SRC, game="grim", kind="char", family=paths(3, 4),
          statement=lambda g, s: count(s.alive[v] for v in g.vertices) % 2 == 0,
          expect="refuted"),      # the witness's dead vertices are in its state, not in its JSON
    Claim("witness/edge-nim-zero-edge", source=SRC, game="edge-nim", kind="char", family=paths(3),
          bounds={"weight": 2}, statement=lambda g, s: s.weight[0] == 0, expect="refuted"),
    Claim("witness/z3-not-smallest", source=SRC, game="nim", kind="char", family=heaps(2),
          statement=lambda g, s: (s.heap[0] == s.heap[1]) | ((s.heap[0] >= 2001) & (s.heap[1] == 1)),
          methods=["smt"], expect="refuted"),
]
