"""Planted: heap rules on too few slots (issue 18, found 2). A HeapRule game says what ONE heap
may become; on ``heaps(k)``, on listed ``(structure, state)`` pairs and in tables given as data,
a split whose second part found no empty slot used to be silently disabled, so that Z3, the
misère search and certificates checked another game. Now a move that does not fit is an error
in every backend (Z3 meets it as a violated domain obligation), and the explicit sweep solves a
heap rule's position on the slots its JSON is read into (the true game): each planted claim is
``error`` or ``refuted``. Every claim below is confirmed by the brute force of ``_words.py``
(tests/test_soundness_words.py): ``WRONG_AT`` is where a planted claim is false; the controls
are true at every position of their bounds."""
from grundy.spec import Structure, any_of, ite
from grundy.spec.heaprule import rule_heaps
from grundy.verify import Claim, Source, bitvec, heaps, positions
from grundy.verify.families import Family

SRC = Source("soundness", "heap rules on too few slots")

LASKER = [0, 1, 2, 4, 3, 5, 6, 8, 7]                  # Lasker's Nim, G(0..8) (Winning Ways, ch. 4)
GRUNDYS = [0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2]        # Grundy's game, G(0..11)
NIM_MISERE = [1, 0, 2, 3, 4, 5, 6]                    # misère Nim on one heap: 1, 0, then h


def lasker(n):
    """Lasker's formula: G(4k+1) = 4k+1, G(4k+2) = 4k+2, G(4k+3) = 4k+4, G(4k+4) = 4k+3."""
    r = n % 4
    return ite(n == 0, 0, ite(r == 3, n + 1, ite(r == 0, n - 1, n)))


def lasker_witnesses(g, s, rules, v):
    """One-heap witnesses of Lasker's formula (as theorems/classics.py): remove down to
    lasker(v), or for v = n = 4k+3 the split 1 + (4k+2)."""
    from grundy.spec import Play
    n = s.heap[0]
    return [Play((n % 4 == 3) & (v == n), 1, {"a": 1, "b": n - 1}), Play(True, 0, {"k": n - lasker(v)})]


def three_alone_or_empty(g, s):
    """The one-slot-per-heap reading of Grundy's game on two heaps of at most 3: a 3 beside a
    non-empty heap cannot split, so only [3, 0] and [0, 3] would be N ([1, 3] "P")."""
    h0, h1 = s.heap[0], s.heap[1]
    return ~(((h0 == 3) & (h1 == 0)) | ((h0 == 0) & (h1 == 3)))


def grundys_value_table(g, s):
    """G(h0) XOR G(h1) is 0: Grundy's game on two heaps, from its one-heap values."""
    return any_of((s.heap[0] == a) & (s.heap[1] == b) for a in range(12) for b in range(12)
                  if GRUNDYS[a] == GRUNDYS[b])


CLAIMS = [
    # Lasker's Nim: "G(n) = n" is false (G(3) = 4: 3 splits into 1 + 2, of value 1 ^ 2 = 3)
    Claim("heaprules/lasker-n-assume-smt", source=SRC, game="lasker-nim", kind="grundy", family=heaps(1),
          statement=lambda g, s: s.heap[0], assume=lambda g, s: s.heap[0] >= 0, methods=["smt"],
          expect="error", note="one slot: the split has nowhere to go; Z3's domain obligation finds it"),
    Claim("heaprules/lasker-n-one-heap-smt", source=SRC, game="lasker-nim", kind="grundy", family=heaps(1),
          statement=lambda g, s: s.heap[0], methods=[bitvec(16)], expect="refuted",
          note="no assume: the one-heap rules (mex over removals and splits) refute it"),
    Claim("heaprules/lasker-n-assume-explicit", source=SRC, game="lasker-nim", kind="grundy", family=heaps(1),
          statement=lambda g, s: s.heap[0], assume=lambda g, s: s.heap[0] >= 0, bounds={"heap": 8},
          expect="refuted"),
    Claim("heaprules/lasker-misere-one-slot", source=SRC, game="lasker-nim", kind="grundy", convention="misere",
          family=heaps(1), bounds={"heap": 6}, statement=lambda g, s: ite(s.heap[0] <= 1, 1 - s.heap[0], s.heap[0]),
          expect="refuted", note="misère Nim's values: what the one slot played (no split)"),
    Claim("heaprules/lasker-misere-one-heap-smt", source=SRC, game="lasker-nim", kind="grundy", convention="misere",
          family=heaps(1), statement=lambda g, s: ite(s.heap[0] <= 1, 1 - s.heap[0], s.heap[0]), methods=["smt"],
          expect="error", note="misère values are not XORs of parts: no one-heap form; the slots lack room"),
    # Grundy's game: "[1, 3] is P" is false ([1, 3] -> [1, 1, 2], which has no move)
    Claim("heaprules/grundys-13-is-P-smt", source=SRC, game="grundys-game", kind="char", family=heaps(2),
          statement=three_alone_or_empty, assume=lambda g, s: (s.heap[0] <= 3) & (s.heap[1] <= 3),
          methods=["smt"], expect="error"),
    Claim("heaprules/grundys-13-is-P-explicit", source=SRC, game="grundys-game", kind="char", family=heaps(2),
          statement=three_alone_or_empty, bounds={"heap": 3}, expect="refuted"),
    Claim("heaprules/grundys-one-slot-all-P-smt", source=SRC, game="grundys-game", kind="char", family=heaps(1),
          statement=lambda g, s: True, methods=["smt"], expect="error",
          note="one slot: no split fits, every heap looked terminal"),
    # listed (structure, state) pairs and tables given as data, on one slot
    Claim("heaprules/lasker-misere-pairs", source=SRC, game="lasker-nim", kind="grundy", convention="misere",
          family=positions([(Structure.heaps(1), (n,)) for n in range(7)], "one-slot pairs"),
          statement=lambda g, s: ite(s.heap[0] <= 1, 1 - s.heap[0], s.heap[0]), expect="refuted"),
    Claim("heaprules/lasker-misere-table", source=SRC, game="lasker-nim", kind="table", convention="misere",
          table=NIM_MISERE, expect="refuted"),
    Claim("heaprules/grundys-pairs-13", source=SRC, game="grundys-game", kind="char",
          family=positions([(Structure.heaps(2), (1, 3)), (Structure.heaps(2), (3, 1))], "[1, 3] and [3, 1]"),
          statement=lambda g, s: True, expect="refuted"),
    # controls: the true statements, by the one-heap rules and on sized slots
    Claim("heaprules/control-lasker-formula", source=SRC, game="lasker-nim", kind="grundy", family=heaps(1),
          statement=lambda g, s: lasker(s.heap[0]), witnesses=lasker_witnesses, bounds={"heap": 40},
          methods=["explicit", bitvec(16)], expect="proved"),
    Claim("heaprules/control-lasker-misere-pairs", source=SRC, game="lasker-nim", kind="grundy",
          convention="misere", family=positions([(Structure.heaps(1), (n,)) for n in range(7)], "one-slot pairs"),
          statement=lambda g, s: ite(s.heap[0] == 0, 1, ite(s.heap[0] == 1, 0, lasker(s.heap[0]))),
          expect="verified"),
    Claim("heaprules/control-grundys-two-heaps", source=SRC, game="grundys-game", kind="char", family=heaps(2),
          statement=grundys_value_table, bounds={"heap": 11}, expect="verified"),
    Claim("heaprules/control-subtraction-smt", source=SRC, game="subtraction", kind="char",
          family=Family([("2 heaps, S(1, 2, 3)", rule_heaps(2, {"set": (1, 2, 3)}))]),
          statement=lambda g, s: s.heap[0] % 4 == s.heap[1] % 4, bounds={"heap": 12},
          methods=["explicit", "smt"], expect="proved", note="no split: every move fits two slots"),
]

# where each planted claim is false (heaps; the brute force of _words.py gives the truth)
WRONG_AT = {
    "heaprules/lasker-n-assume-smt": (3,), "heaprules/lasker-n-one-heap-smt": (3,),
    "heaprules/lasker-n-assume-explicit": (3,), "heaprules/lasker-misere-one-slot": (3,),
    "heaprules/lasker-misere-one-heap-smt": (3,), "heaprules/grundys-13-is-P-smt": (1, 3),
    "heaprules/grundys-13-is-P-explicit": (1, 3), "heaprules/grundys-one-slot-all-P-smt": (3,),
    "heaprules/lasker-misere-pairs": (3,), "heaprules/lasker-misere-table": (3,),
    "heaprules/grundys-pairs-13": (1, 3),
}
RULE = {"lasker-nim": "lasker", "grundys-game": "grundys", "subtraction": "s123"}
