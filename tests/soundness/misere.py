"""Misère values are misère values (issue 9, S3): in misère play an integer claim (grundy,
table) means the misère Grundy value (the mex of the options, 1 at a terminal position), and a
boolean claim the misère P-positions. Every false claim here is right in normal play."""
from _seed import listed, nim_p

from grundy.spec import Play, ite
from grundy.verify import Claim, Source, heaps

SRC = Source("soundness", "misère play (S3)")
h0 = lambda s: s.heap[0]                            # noqa: E731
misere_nim_1 = lambda g, s: ite(h0(s) <= 1, 1 - h0(s), h0(s))   # noqa: E731  1, 0, 2, 3, ...
misere_nim_2 = lambda g, s: (((s.heap[0] == s.heap[1]) & (s.heap[0] >= 2))  # noqa: E731
                             | (s.heap[0] + s.heap[1] == 1))


def misere_nim_3(hi: int) -> list[tuple[int, ...]]:
    """Misère nim's P-positions on 3 heaps: XOR 0 with a heap above 1, or an odd count of 1s."""
    small = [t for t in __import__("itertools").product(range(hi + 1), repeat=3) if max(t) <= 1
             and sum(t) % 2 == 1]
    return [t for t in nim_p(3, hi) if max(t) > 1] + small


CLAIMS = [
    Claim("misere/issue-table", source=SRC, game="nim", kind="table", convention="misere", family=heaps(1),
          bounds={"heap": 20}, statement=lambda g, s: s.heap[0], methods=["explicit", "smt"],
          expect="refuted"),
    Claim("misere/table-smt-only", source=SRC, game="nim", kind="table", convention="misere",
          family=heaps(1), statement=lambda g, s: s.heap[0], methods=["smt"], expect="refuted"),
    Claim("misere/normal-play-answer", source=SRC, game="nim", kind="char", convention="misere",
          family=heaps(2), bounds={"heap": 8}, statement=lambda g, s: s.heap[0] == s.heap[1],
          methods=["explicit", "smt"], expect="refuted"),
    Claim("misere/ones-as-equal", source=SRC, game="nim", kind="char", convention="misere",
          family=heaps(2), bounds={"heap": 8},
          statement=lambda g, s: ((s.heap[0] == s.heap[1]) & (s.heap[0] >= 1)) | (s.heap[0] + s.heap[1] == 1),
          methods=["explicit", "smt"], expect="refuted"),
    Claim("misere/grundy-off-at-2", source=SRC, game="nim", kind="grundy", convention="misere",
          family=heaps(1), bounds={"heap": 10},
          statement=lambda g, s: ite(h0(s) == 2, 3, misere_nim_1(g, s)), methods=["explicit", "smt"],
          expect="refuted"),
    Claim("misere/empty-heap-P", source=SRC, game="nim", kind="char", convention="misere",
          family=heaps(1), bounds={"heap": 10}, statement=lambda g, s: s.heap[0] == 0, expect="refuted"),
    Claim("misere/large-only", source=SRC, game="nim", kind="char", convention="misere",
          family=heaps(2), bounds={"heap": 10},      # wrong only at [3000, 3000]: Z3 finds it
          statement=lambda g, s: misere_nim_2(g, s) & ~((s.heap[0] == 3000) & (s.heap[1] == 3000)),
          methods=["explicit", "smt"], expect="refuted"),
    Claim("misere/strategy-takes-all", source=SRC, game="nim", kind="strategy", convention="misere",
          family=heaps(1), bounds={"heap": 10}, statement=lambda g, s: s.heap[0] == 1,
          strategy=lambda g, s, rules: [Play(True, 0, {"k": s.heap[0]})],     # normal play's move
          methods=["explicit", "smt"], expect="refuted"),
    Claim("misere/three-heaps-xor", source=SRC, game="nim", kind="char", convention="misere",
          family=heaps(3), bounds={"heap": 3}, statement=lambda g, s: listed(s, nim_p(3, 3)),
          expect="refuted"),
    # controls
    Claim("misere/control-table", source=SRC, game="nim", kind="table", convention="misere",
          family=heaps(1), bounds={"heap": 20}, statement=misere_nim_1, methods=["explicit", "smt"],
          expect="proved"),
    Claim("misere/control-two-heaps", source=SRC, game="nim", kind="char", convention="misere",
          family=heaps(2), bounds={"heap": 8}, statement=misere_nim_2, methods=["explicit", "smt"],
          expect="proved"),
    Claim("misere/control-strategy", source=SRC, game="nim", kind="strategy", convention="misere",
          family=heaps(1), bounds={"heap": 10}, statement=lambda g, s: s.heap[0] == 1,
          strategy=lambda g, s, rules: [Play(True, 0, {"k": s.heap[0] - 1})],  # leave one
          methods=["explicit", "smt"], expect="proved"),
    Claim("misere/control-three-heaps", source=SRC, game="nim", kind="char", convention="misere",
          family=heaps(3), bounds={"heap": 3}, statement=lambda g, s: listed(s, misere_nim_3(3)),
          expect="verified"),
]
