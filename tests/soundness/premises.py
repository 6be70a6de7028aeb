"""Planted: games whose symmetry or decomposition fails only at heaps >= 4 or 5, on a path's
reversal, or on a structure the old vet never checked (issue 18, class 1).

Before issue 18 the solver vetted a game's declarations once per process on heaps <= 3 (or, when
the game's check structures did not build, on the first structure solved) and then reduced by
them everywhere: every false claim below was ``verified`` (its statement is what the wrong
reduction computes) and every control ``refuted``. Now each reduction is used on a structure only
where Z3 proves its premise there (grundy.solvers.premises); the sweeps are large enough (over
2,000 positions a structure) that the solver asks. Each planted claim's falsity is confirmed by
the brute forces of _premise_games.py, written from the rules in words (and checked by
tests/test_premises.py): e.g. [7, 2] of test-nim-and-sub5 has value 7 ^ (2 mod 5) = 5, the
symmetric reduction's 2 ^ (7 mod 5) = 0; [4, 4] of test-nim-plus4 has value 1 (the joint move
reaches [0, 0]), the XOR of its heaps' values 0.
"""
from _premise_games import nim_plus, upward_walk_table

from grundy.spec import maximum, minimum
from grundy.verify import Claim, Source, heaps, paths

SRC = Source("soundness", "premises (issue 18, class 1)")
PATH = [(0, 1), (1, 2), (2, 3), (3, 4)]


def sorted3(s):
    a, b, c = s.heap[0], s.heap[1], s.heap[2]
    lo, hi = minimum(a, b, c), maximum(a, b, c)
    return lo, a + b + c - lo - hi, hi


CLAIMS = [
    # symmetry left at its default, false from a heap of 5: what sorting the heaps computes
    Claim("premises/nim-and-sub5-sorted-value", source=SRC, game="test-nim-and-sub5", kind="grundy",
          family=heaps(2), bounds={"heap": 60}, methods=["explicit"], expect="refuted",
          statement=lambda g, s: minimum(s.heap[0], s.heap[1]) ^ (maximum(s.heap[0], s.heap[1]) % 5)),
    Claim("premises/nim-and-sub5-sorted-p", source=SRC, game="test-nim-and-sub5", kind="char",
          family=heaps(2), bounds={"heap": 60}, methods=["explicit"], expect="refuted",
          statement=lambda g, s: minimum(s.heap[0], s.heap[1]) == maximum(s.heap[0], s.heap[1]) % 5),
    # symmetry declared by the author, false from a heap of 4
    Claim("premises/nim-and-sub4-sorted-value", source=SRC, game="test-nim-and-sub4", kind="grundy",
          family=heaps(2), bounds={"heap": 60}, methods=["explicit"], expect="refuted",
          statement=lambda g, s: minimum(s.heap[0], s.heap[1]) ^ (maximum(s.heap[0], s.heap[1]) % 4)),
    # decomposition declared, false from heaps of 4 / 5: what the XOR of the heaps' values computes
    Claim("premises/nim-plus4-xor", source=SRC, game="test-nim-plus4", kind="grundy", family=heaps(2),
          bounds={"heap": 60}, methods=["explicit"], expect="refuted",
          statement=lambda g, s: s.heap[0] ^ s.heap[1]),
    Claim("premises/nim-plus4-xor-p-3-heaps", source=SRC, game="test-nim-plus4", kind="char", family=heaps(3),
          bounds={"heap": 15}, methods=["explicit"], expect="refuted",
          statement=lambda g, s: (s.heap[0] ^ s.heap[1] ^ s.heap[2]) == 0),
    Claim("premises/nim-plus5-xor", source=SRC, game="test-nim-plus5", kind="grundy", family=heaps(2),
          bounds={"heap": 60}, methods=["explicit"], expect="refuted",
          statement=lambda g, s: s.heap[0] ^ s.heap[1]),
    # a rule that reads vertex numbers: the path's reversal is no symmetry of it
    Claim("premises/upward-walk-reversed", source=SRC, game="test-upward-walk", kind="grundy", family=paths(5),
          table=upward_walk_table(5, PATH, 3, reversed_=True), expect="refuted"),
    # check structures that do not build: 3 heaps are not symmetric (heap 3 plays S(1..2))
    Claim("premises/no-check-structures-sorted", source=SRC, game="test-no-check-structures", kind="grundy",
          family=heaps(3), bounds={"heap": 15}, methods=["explicit"], expect="refuted",
          statement=lambda g, s: sorted3(s)[0] ^ sorted3(s)[1] ^ (sorted3(s)[2] % 3)),
    # controls: the true values (the brute forces' formulas, or their tables)
    Claim("premises/control-nim-and-sub5", source=SRC, game="test-nim-and-sub5", kind="grundy",
          family=heaps(2), bounds={"heap": 60}, methods=["explicit"], expect="verified",
          statement=lambda g, s: s.heap[0] ^ (s.heap[1] % 5)),
    Claim("premises/control-nim-and-sub4", source=SRC, game="test-nim-and-sub4", kind="grundy",
          family=heaps(2), bounds={"heap": 60}, methods=["explicit"], expect="verified",
          statement=lambda g, s: s.heap[0] ^ (s.heap[1] % 4)),
    Claim("premises/control-nim-plus4-below-4", source=SRC, game="test-nim-plus4", kind="grundy",
          family=heaps(2), bounds={"heap": 60}, methods=["explicit"], expect="verified",
          assume=lambda g, s: (s.heap[0] < 4) | (s.heap[1] < 4),       # no joint move is ever reachable
          statement=lambda g, s: s.heap[0] ^ s.heap[1]),
    Claim("premises/control-nim-plus4-table", source=SRC, game="test-nim-plus4", kind="grundy",
          table={(a, b): nim_plus((a, b), 4) for a in range(25) for b in range(25)}, expect="verified"),
    Claim("premises/control-upward-walk", source=SRC, game="test-upward-walk", kind="grundy", family=paths(5),
          table=upward_walk_table(5, PATH, 3), expect="verified"),
    Claim("premises/control-no-check-structures-2", source=SRC, game="test-no-check-structures",
          kind="grundy", family=heaps(2), bounds={"heap": 60}, methods=["explicit"], expect="verified",
          statement=lambda g, s: s.heap[0] ^ s.heap[1]),
    Claim("premises/control-no-check-structures-3", source=SRC, game="test-no-check-structures",
          kind="grundy", family=heaps(3), bounds={"heap": 15}, methods=["explicit"], expect="verified",
          statement=lambda g, s: s.heap[0] ^ s.heap[1] ^ (s.heap[2] % 3)),
]
