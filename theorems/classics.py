"""classics: results every impartial-games text proves, checked for every heap below 2^32.

- Bouton (1901), "Nim, a game with a complete mathematical theory", Annals of Mathematics
  3(1/4), 35-39: a Nim position is a P-position iff the nim-sum (``^``, bitwise exclusive or)
  of its heaps is 0; the winning move brings one heap h down to h ^ x, x the nim-sum.
- The same paper, misère play (the last mover loses): P iff some heap exceeds 1 and the
  nim-sum is 0, or every heap is at most 1 and the nim-sum is 1 (an odd number of 1-heaps).

- Lasker's Nim (Berlekamp, Conway and Guy, *Winning Ways*, ch. 4; E. Lasker, *Brettspiele der
  Völker*, 1931): remove counters from a heap or split it in two; G(4k+1) = 4k+1,
  G(4k+2) = 4k+2, G(4k+3) = 4k+4, G(4k+4) = 4k+3. A grundy claim on one heap of a game whose
  positions are sums of heaps is proved on its one-heap rules: the mex condition at every heap
  below 2^32, each option's value being the XOR of the formula at its parts (every part a
  smaller heap), with witnesses naming the option of each smaller value.

Each is proved by Z3 on 32-bit vectors (the nim-sum has no unbounded-integer encoding) with
the winning strategy as the witness of (NP), and swept explicitly on small heaps. Each has a
planted false twin that differs from it at a single position with a heap of 2^20 + 3: Z3
finds that position (no sweep reaches it), and the refutation is a certificate checked on the
rule (the position is too large to solve).
"""
from grundy.spec import Play, all_of, ite
from grundy.spec.games.nim import nim_witnesses
from grundy.verify import Claim, Finding, Source, bitvec, heaps

BOUTON = "Bouton 1901"
BITS = 32
# Where the planted claims differ from the true ones: Z3 finds the position at any size below
# 2^32. A position this large is beyond the explicit solver (the line of play alone would solve
# every one of its 2^20 options), so the refutation is a certificate: the claim contradicts
# itself there (a move between two claimed P-positions; two options with the claimed value).
BIG = 2 ** 20 + 3
BIG_MISERE = 2 ** 20 + 3
BIG_LASKER = 2 ** 20 + 3


def nim_sum(s):
    return s.heap[0] ^ s.heap[1] ^ s.heap[2]


def bouton_p(g, s):
    """Normal play: P iff h0 ^ h1 ^ h2 == 0."""
    return nim_sum(s) == 0


def bouton_strategy(g, s, rules):
    """Bring a heap h with h ^ x < h down to h ^ x (x the nim-sum): one exists when x != 0
    (a heap with x's highest bit set)."""
    x = nim_sum(s)
    return [Play((s.heap[i] ^ x) < s.heap[i], i, {"k": s.heap[i] - (s.heap[i] ^ x)}) for i in g.elements]


def misere_p(g, s):
    """Misère play: P iff (some heap > 1 and nim-sum 0) or (every heap <= 1 and nim-sum 1)."""
    big = [s.heap[i] > 1 for i in g.elements]
    small = all_of(~b for b in big)
    return (~small & (nim_sum(s) == 0)) | (small & (nim_sum(s) == 1))


def misere_strategy(g, s, rules):
    """One heap above 1: leave it at 0 or 1 so that an odd number of 1-heaps remains; two or
    more: Bouton's move (a heap above 1 stays); every heap <= 1: take a 1-heap."""
    h = [s.heap[i] for i in g.elements]
    x = nim_sum(s)
    cases = []
    for i in g.elements:
        others = [j for j in g.elements if j != i]
        target = 1 ^ h[others[0]] ^ h[others[1]]      # the others are 0 or 1 here
        cases.append(Play((h[i] > 1) & all_of(h[j] <= 1 for j in others), i, {"k": h[i] - target}))
    cases += [Play((h[i] ^ x) < h[i], i, {"k": h[i] - (h[i] ^ x)}) for i in g.elements]
    cases += [Play(h[i] == 1, i, {"k": 1}) for i in g.elements]
    return cases


def at(s, n):
    """The one position where a planted claim differs: heaps [n, 0, 0]."""
    return (s.heap[0] == n) & (s.heap[1] == 0) & (s.heap[2] == 0)


def bouton_planted(g, s):
    # Bouton's statement, except that [2^20 + 3, 0, 0] is claimed P (it is N: take the heap)
    return bouton_p(g, s) | at(s, BIG)


def misere_planted(g, s):
    # the misère statement, except that [2^20 + 3, 0, 0] is claimed P (it is N: leave 1)
    return misere_p(g, s) | at(s, BIG_MISERE)


def lasker(n):
    """Lasker's formula (0 at the empty heap)."""
    r = n % 4
    return ite(n == 0, 0, ite(r == 3, n + 1, ite(r == 0, n - 1, n)))


def lasker_value(g, s):
    return lasker(s.heap[0])


def lasker_witnesses(g, s, rules, v):
    """The option of value v < G(n) (on the one-heap rules: move 0 removes k, move 1 splits into
    a + b). The formula is an involution, so removing down to lasker(v) has value v, and that heap
    is smaller than n except for v = n = 4k+3, reached by the split 1 + (4k+2): 1 ^ (4k+2) = 4k+3."""
    n = s.heap[0]
    return [Play((n % 4 == 3) & (v == n), 1, {"a": 1, "b": n - 1}),
            Play(True, 0, {"k": n - lasker(v)})]


def lasker_planted(g, s):
    # Lasker's formula, except G(2^20 + 3) = 2^20 + 3 (it is 2^20 + 4)
    n = s.heap[0]
    return ite(n == BIG_LASKER, BIG_LASKER, lasker(n))


def nim_sum_value(g, s):
    """The nim-sum of every heap: the Grundy value of a Nim position."""
    x = s.heap[0]
    for i in g.elements[1:]:
        x = x ^ s.heap[i]
    return x


CLAIMS = [
    Claim("classics/nim-sum", source=Source(BOUTON, "Grundy values (2 to 4 heaps)"),
          game="nim", kind="grundy", family=heaps(2, 3, 4), statement=nim_sum_value, witnesses=nim_witnesses,
          bounds={"heap": 5}, full={"heap": 9}, methods=["explicit", bitvec(BITS)], expect="proved", serves=True,
          text="Nim on 2, 3 or 4 heaps: the Grundy value is the nim-sum of the heaps (registered as a value "
               "source: grundy solve --theorems answers Nim positions by it)."),
    Claim("classics/bouton-3", source=Source(BOUTON, "Theorem (3 heaps)"),
          game="nim", kind="char", family=heaps(3), statement=bouton_p, strategy=bouton_strategy,
          bounds={"heap": 7}, full={"heap": 15}, methods=["explicit", bitvec(BITS)], expect="proved", serves=True,
          text="Nim on three heaps: a position is P exactly when the nim-sum h0 ^ h1 ^ h2 is 0."),
    Claim("classics/misere-nim-3", source=Source(BOUTON, "misère Nim (3 heaps)"),
          game="nim", kind="char", family=heaps(3), statement=misere_p, strategy=misere_strategy,
          convention="misere", bounds={"heap": 7}, full={"heap": 15},
          methods=["explicit", bitvec(BITS)], expect="proved", serves=True,
          text=("Misère Nim on three heaps: P exactly when some heap exceeds 1 and the nim-sum is 0, "
                "or every heap is at most 1 and the nim-sum is 1 (an odd number of heaps of size 1).")),
    Claim("planted/bouton-3-far", source=Source("planted", "Bouton's theorem, one position changed"),
          game="nim", kind="char", family=heaps(3), statement=bouton_planted, strategy=bouton_strategy,
          bounds={"heap": 7}, methods=["explicit", bitvec(BITS)], expect="refuted",
          note="differs only at [2^20 + 3, 0, 0]: beyond any sweep, found by Z3",
          text="Bouton's characterization with one far position [2^20 + 3, 0, 0] wrongly declared P.",
          reading="planted to show that Z3 finds an error no sweep reaches; it must stay refuted",
          finding=Finding("planted")),
    Claim("planted/misere-nim-3-far", source=Source("planted", "misère Nim, one position changed"),
          game="nim", kind="char", family=heaps(3), statement=misere_planted, strategy=misere_strategy,
          convention="misere", bounds={"heap": 7}, methods=["explicit", bitvec(BITS)], expect="refuted",
          note="differs only at [2^20 + 3, 0, 0]: beyond any sweep, found by Z3",
          text="The misère Nim characterization with one far position [2^20 + 3, 0, 0] wrongly declared P.",
          reading="planted to show that Z3 finds an error no sweep reaches; it must stay refuted",
          finding=Finding("planted")),
    Claim("classics/lasker-nim", source=Source("Winning Ways", "ch. 4, Lasker's Nim"),
          game="lasker-nim", kind="grundy", family=heaps(1), statement=lasker_value,
          witnesses=lasker_witnesses, bounds={"heap": 200}, full={"heap": 1000},
          methods=["explicit", bitvec(BITS)], expect="proved", serves=True,
          text=("Lasker's Nim (remove any number from a heap, or split a heap into two non-empty heaps): "
                "G(4k+1) = 4k+1, G(4k+2) = 4k+2, G(4k+3) = 4k+4, G(4k+4) = 4k+3.")),
    Claim("planted/lasker-nim-far", source=Source("planted", "Lasker's formula, one value changed"),
          game="lasker-nim", kind="grundy", family=heaps(1), statement=lasker_planted,
          witnesses=lasker_witnesses, bounds={"heap": 200}, methods=["explicit", bitvec(BITS)],
          expect="refuted", note="differs only at heap 2^20 + 3: beyond the sweep, found by Z3",
          text="Lasker's formula with one far value changed: G(2^20 + 3) claimed 2^20 + 3 (it is 2^20 + 4).",
          reading="planted to show that Z3 finds an error no sweep reaches; it must stay refuted",
          finding=Finding("planted")),
]
