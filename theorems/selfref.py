"""selfref: the thesis on self-referential impartial games (nimb, wynnie, minnie, mine).

Each statement is written over the whole family of positions the moves can reach
(heaps at 0 included), so that the partition theorem (or the mex condition) applies:
the paper's statement is one part, the rest is completed from the thesis's lemmas
and marked "completion" below. Where the paper's statement speaks of a region the moves
leave (a lemma's hypothesis, the 3-heap theorems of ch. 5 with a fixed smallest heap) or is
not linear (φ, the Length function, the nim-sum digits, euclid's k·b), the claim is
explicit only, and says so. Claims found false carry their witness and a "-corrected" claim.
"""
import functools

from grundy.spec import Play, all_of, any_of, count, ite, lift, maximum, minimum, move_index, total
from grundy.spec.expr import product
from grundy.spec.heaps import distinct, smallest
from grundy.verify import Claim, Finding, Source, bitvec, heaps

THESIS = "selfref"


def low_high(s):
    """The smaller and the larger of two heaps (the thesis writes [a, b] with a <= b)."""
    return minimum(s.heap[0], s.heap[1]), maximum(s.heap[0], s.heap[1])


# ---------------------------------------------------------------- nimb (chapter 3)
def nimb_value(g, s):
    # Theorem 3.1: n >= 2 heaps, smallest a1 >= 1: G = a1 - 1.
    # Completion: heaps at 0 are gone ("Stacks of size 0 are eliminated"), so the theorem
    # applies to the non-zero heaps when there are at least two; one heap left is a nim
    # heap (every move changes its size, hence the minimum): G = its size; none left: 0.
    h = [s.heap[i] for i in g.elements]
    size = total(h)                                   # the only heap, when just one is left
    a1 = minimum([ite(x > 0, x, size) for x in h])    # the smallest non-zero heap
    return ite(count(x > 0 for x in h) >= 2, a1 - 1, size)


# ---------------------------------------------------------------- wynnie (chapter 4)
BITS = 32


def wynnie_p(g, s, bits=BITS):
    # Theorem 4.5: c > r: W[r, c] in P iff r = 2^n - 1 and c = 2^n a + 2^(n-1) - 1 (n >= 1;
    # c > r forces a >= 1). Completion: W[0, 0] is terminal (P); W[0, c], c > 0, is N
    # (Lemma 4.3, case 1: take all c); W[r, r], r > 0, is N (take r from both).
    # Below 2^bits, n ranges over 1..bits.
    r, c = low_high(s)
    return (c == 0) | ((r < c) & any_of((r == 2**n - 1) & (c % 2**n == 2**(n - 1) - 1)
                                        for n in range(1, bits + 1)))


def _mersenne_below(x, bits):
    """2^(v+1) - 1 where 2^v is the largest power of 2 dividing x > 0 (x < 2^bits)."""
    out = 2**bits - 1
    for v in reversed(range(bits)):
        out = ite(x % 2**(v + 1) == 2**v, 2**(v + 1) - 1, out)
    return out


def wynnie_strategy(g, s, rules, bits=BITS):
    # A move into P from every other position, as the witness for the partition theorem's
    # (NP) half (Z3 checks that each case is legal and lands in P; without a witness the
    # existential over k is out of Z3's reach at 32 bits). The heaps are [r, c], 0 < r < c.
    cases = []
    for i, j in ((0, 1), (1, 0)):                     # heap i is the smaller one
        r, c = s.heap[i], s.heap[j]
        one_i, one_j = (move_index(rules, f"take {{k}} from heap {x + 1}") for x in (i, j))
        both = move_index(rules, "take {k} from both")
        n = r < c
        d_target = _mersenne_below(c - r, bits)       # [r, c] -> [R, R + (c - r)], from both
        r_target = _mersenne_below(c + 1, bits)       # [r, c] -> [R', c]: c = 2^m a + 2^(m-1) - 1
        c_target = _mersenne_below(r + 1, bits)       # [r, c] -> [R'', r]: r = 2^m a + 2^(m-1) - 1
        cases += [
            Play((r == 0) & (c > 0), one_j, {"k": c}),                     # take the last heap
            Play(n & (r > 0) & (d_target < r), both, {"k": r - d_target}),
            Play(n & (r > 0) & (r_target < r), one_i, {"k": r - r_target}),
            Play(n & (r > 0) & (c_target < r) & (c - c_target <= r), one_j, {"k": c - c_target}),
        ]
        # r = 2^m - 1: lower c to the largest c' = 2^m a + 2^(m-1) - 1 below it (k < 2^m)
        k = 0
        for m in range(1, bits + 1):
            k = ite(r == 2**m - 1, (c + 2**m + 1 - 2**(m - 1)) % 2**m, k)
        cases.append(Play(n & (k > 0) & (c - k > r), one_j, {"k": k}))
    cases.append(Play(s.heap[0] == s.heap[1], move_index(rules, "take {k} from both"), {"k": s.heap[0]}))
    return cases


# ---------------------------------------------------------------- minnie and mine (chapter 5)
def minnie_p(g, s):
    # Theorem 5.2: a <= b positive: P iff [1, 2i+1], [2, 4i+2], [3, 4i] (i >= 2), [4, 4].
    # Completion: one heap left is a nim heap (Lemma 5.1: G(M[a]) = a), so [0, b] is P iff b = 0.
    a, b = low_high(s)
    return ((b == 0) | ((a == 1) & (b % 2 == 1)) | ((a == 2) & (b % 4 == 2))
            | ((a == 3) & (b % 4 == 0) & (b >= 8)) | ((a == 4) & (b == 4)))


def mine_p(g, s):
    # Theorem 5.8: a < b: P iff [1, 2k], [2, 4j+1], [3, 4i+3] (k, j, i >= 1).
    # Completion: [0, b] is P iff b = 0 (Lemma 5.7: G(Mn[a]) = a).
    a, b = low_high(s)
    return ((b == 0) | ((a == 1) & (b % 2 == 0)) | ((a == 2) & (b % 4 == 1))
            | ((a == 3) & (b % 4 == 3) & (b > 3)))


def distinct_heaps(g, s):
    # mine never has two equal existing heaps: the family the moves stay in
    return (s.heap[0] != s.heap[1]) | (s.heap[0] == 0)


# ---------------------------------------------------------------- chapter 1 and 2: the known games
def floor_n_phi(n: int) -> int:
    """floor(n·φ) exactly: n·φ = (n + sqrt(5 n²)) / 2."""
    from math import isqrt
    return (n + isqrt(5 * n * n)) // 2


WYTHOFF_N = 400                                      # pairs (floor(nφ), floor(nφ²)) for n <= 400


def wythoff_p(g, s):
    # §1.3: the n-th P-position is [a_n, b_n], a_n = floor(nφ), b_n = floor(nφ²) = a_n + n
    # (n >= 0), and mirrors. A table over n, computed exactly in Python (covers heaps < 640).
    a, b = low_high(s)
    return any_of((a == floor_n_phi(n)) & (b == floor_n_phi(n) + n) for n in range(WYTHOFF_N + 1))


def nim_p(g, s, bits=10):
    # Theorem 1.4: P iff the nim-sum is 0, i.e. every binary digit has an even count of ones.
    # Digit i of x is (x // 2^i) % 2; written for heaps below 2^bits.
    h = [s.heap[i] for i in g.elements]
    return all_of(total((x // 2**i) % 2 for x in h) % 2 == 0 for i in range(bits))


def euclid_printed(g, s):
    # Theorem 2.1 as printed: "[a, b] ∈ P ⇔ a/b < τ" (0 <= b <= a). For a, b > 0,
    # a/b < φ ⇔ a² < ab + b² (φ is the positive root of x² - x - 1). b = 0 (a/0): the
    # position is terminal, so we read it as P.
    b, a = low_high(s)
    return (b == 0) | (product(a, a) < product(a, b) + product(b, b))


def euclid_corrected(g, s):
    # [a, a] (a > 0) is N (take a·1, leaving [0, a], a terminal position), though a/b = 1 < φ.
    b, a = low_high(s)
    return (b == 0) | ((b < a) & (product(a, a) < product(a, b) + product(b, b)))


def greedy_p(g, s):
    # Theorem 2.3: P iff the number of stacks of the largest size is even (no stacks: 0, even).
    h = [s.heap[i] for i in g.elements]
    top = maximum(h)
    return count((x == top) & (x > 0) for x in h) % 2 == 0


def length(a: int, b: int) -> int:
    """The Length function of §2.4: L(0,0) = 0, L(a,0) = L(0,b) = 1, L(a,b) = 1 + L(a-b, b), a >= b > 0."""
    n = 0
    while a and b:
        a, b = (a - b, b) if a >= b else (a, b - a)
        n += 1
    return n + (1 if a or b else 0)


# Table 2.1 as printed (row b = 8 down to 1; columns a = 0..8); row 0 is 0 1 1 1 ...
TABLE_2_1 = {8: "1 9 5 6 3 6 5 9 2", 7: "1 8 6 6 6 6 8 2 9", 6: "1 7 4 3 4 7 2 8 5",
             5: "1 6 5 5 6 2 7 6 6", 4: "1 5 3 5 2 6 4 6 3", 3: "1 4 4 2 5 5 3 6 6",
             2: "1 3 2 4 3 5 4 6 5", 1: "1 2 3 4 5 6 7 8 9", 0: "0 1 1 1 1 1 1 1 1"}
assert all(length(a, b) == int(v) for b, row in TABLE_2_1.items() for a, v in enumerate(row.split())), \
    "our Length function differs from the printed Table 2.1"

SUSEN_MAX = 150                                      # the Length table covers heaps <= 150


@functools.lru_cache(maxsize=1)
def _even_table() -> tuple[tuple[int, tuple[int, ...]], ...]:
    """For each b <= SUSEN_MAX, the a in b..SUSEN_MAX with L(a, b) even (computed once: each
    statement reads it several times a structure)."""
    return tuple((b, tuple(a for a in range(b, SUSEN_MAX + 1) if length(a, b) % 2 == 0))
                 for b in range(SUSEN_MAX + 1))


def _even_length(x, y):
    """L(x, y) is even, as a table lookup over x, y <= SUSEN_MAX (by the smaller heap)."""
    lo, hi = minimum(x, y), maximum(x, y)
    return any_of((lo == b) & any_of(hi == a for a in evens) for b, evens in _even_table())


def susen2_p(g, s):
    # Theorem 2.4: S[a, b] ∈ P ⇔ L(a, b) is even.
    return _even_length(s.heap[0], s.heap[1])


def susen3_p(g, s):
    # Theorem 2.5: a, b, c > 0: P iff [a,b], [a,c], [b,c] are all N (L odd).
    # Completion: with a heap at 0 the game is susen on the other two (Theorem 2.4).
    a, b, c = (s.heap[i] for i in g.elements)
    pos = (a > 0) & (b > 0) & (c > 0)
    return ite(pos, ~_even_length(a, b) & ~_even_length(a, c) & ~_even_length(b, c),
               ite(a == 0, _even_length(b, c), ite(b == 0, _even_length(a, c), _even_length(a, b))))


RESTRICTED_PRINTED = [0, 0, 1, 0, 2, 1, 3, 0, 4, 2, 5, 1, 6, 3, 7, 0, 8, 4, 9, 2, 10]   # n = 1..21


def restricted_value(g, s, bits=16):
    # §2.2: the printed Grundy values for n = 1..21; beyond them, the fractal rule the printed
    # sequence follows (our reading of Levine): G(2m+1) = m, G(2m) = G(m), i.e. G(n) = (the odd
    # part of n - 1) / 2, so that G(n) = 0 iff n = 2^k. n = 0 (no move): 0. Heaps < 2^bits.
    n = s.heap[0]
    odd = lift(0)
    for v in reversed(range(bits)):
        odd = ite(n % 2**(v + 1) == 2**v, (n // 2**(v + 1)), odd)   # n = 2^v (2q + 1): G = q
    out = odd
    for i, val in enumerate(RESTRICTED_PRINTED, start=1):
        out = ite(n == i, val, out)
    return out


def nimtb_value(g, s):
    # Theorem 3.2: distinct heaps a1 < ... < an, n >= 2, G = a1 - 1. Completion as for nimb:
    # one heap left is a nim heap (any move changes both its minimum and maximum).
    return nimb_value(g, s)


def nimtb_distinct(g, s):
    from grundy.spec.heaps import distinct
    return distinct([s.heap[i] for i in g.elements])


# ---------------------------------------------------------------- wynnie lemmas
def wynnie_lemma42(g, s):
    # Lemma 4.2: W[1, k] (k > 0) ∈ P iff k even. Completion: W[0, k] ∈ P iff k = 0 (one stack:
    # take it all). The set {min <= 1} is closed under moves.
    r, c = low_high(s)
    return ite(r == 1, c % 2 == 0, c == 0)


def min_at_most_one(g, s):
    return minimum(s.heap[0], s.heap[1]) <= 1


def wynnie_lemma43_44_region(g, s):
    # the hypotheses of Lemmas 4.3 and 4.4 (W[r, c] with c > r): the claim is "N" there
    r, c = low_high(s)
    return (c > r) & ((r % 2 == 0) | ((r > 1) & (c % 2 == 0)))


def never_p(g, s):
    return lift(False)


def misere_lemmas_region(g, s):
    # Lemmas 4.6-4.9 speak of: W-[0, n] (n >= 1), W-[1, n], 1 < m <= n with m even or n odd,
    # W-[m, m+1] (m > 0)
    m, n = low_high(s)
    return (((m == 0) & (n >= 1)) | ((m == 1) & (n >= 1)) | ((m > 1) & ((m % 2 == 0) | (n % 2 == 1)))
            | ((m > 0) & (n == m + 1)))


def misere_lemmas_p(g, s):
    # 4.6: W-[0,1] ∈ P, W-[0,n] ∈ N (n > 1); 4.7: W-[1,n] ∈ P iff n odd; 4.8, 4.9: N
    m, n = low_high(s)
    return ((m == 0) & (n == 1)) | ((m == 1) & (n % 2 == 1))


def misere_wynnie_p(g, s, bits=BITS):
    # Theorem 4.10: m <= n: W-[m, n] ∈ P iff m = 2^j - 1 and n = 2^j k + 2^(j-1) (j, k ∈ ℕ).
    # Completion (Lemma 4.6): a single stack W-[0, n] is P iff n = 1; W-[0, 0] is terminal,
    # hence N in misère play. Note k >= 1 forces n > m. Heaps < 2^bits.
    m, n = low_high(s)
    return (((m == 0) & (n == 1))
            | ((m < n) & any_of((m == 2**j - 1) & (n % 2**j == 2**(j - 1)) for j in range(1, bits + 1))))


def misere_lemmas_corrected(g, s):
    m, n = low_high(s)
    return ((m == 0) & (n == 1)) | ((m == 1) & (n % 2 == 1) & (n > 1)) | ((m == 2) & (n == 2))


def misere_wynnie_corrected(g, s, bits=BITS):
    m, n = low_high(s)
    return misere_wynnie_p(g, s, bits) | ((m == 2) & (n == 2))


def misere_wynnie_strategy(g, s, rules, bits=BITS):
    # A move into P from every other position (the witness for the (NP) half, as for
    # wynnie_strategy): misère P-positions [2^j - 1, c] have c ≡ 2^(j-1) (mod 2^j), i.e. the
    # normal-play condition with c shifted by one; plus [0, 1] and [2, 2].
    cases = []
    for i, j in ((0, 1), (1, 0)):                     # heap i is the smaller one
        r, c = s.heap[i], s.heap[j]
        one_i, one_j = (move_index(rules, f"take {{k}} from heap {x + 1}") for x in (i, j))
        both = move_index(rules, "take {k} from both")
        n = r < c
        d_target = _mersenne_below(c - r - 1, bits)   # [r, c] -> [R, R + (c - r)], from both
        r_target = _mersenne_below(c, bits)           # [r, c] -> [R', c]
        c_target = _mersenne_below(r, bits)           # [r, c] -> [R'', r]
        cases += [
            Play((r == 0) & (c > 1), one_j, {"k": c - 1}),                 # leave W-[0, 1]
            Play(n & (r > 0) & (c == r + 1), both, {"k": r}),             # Lemma 4.9: to [0, 1]
            Play(n & (r == 2) & (c <= 4), one_j, {"k": c - 2}),           # to [2, 2]
            Play(n & (r > 0) & (c - r > 1) & (d_target < r), both, {"k": r - d_target}),
            Play(n & (r > 0) & (r_target < r), one_i, {"k": r - r_target}),
            Play(n & (r > 0) & (c_target < r) & (c - c_target <= r), one_j, {"k": c - c_target}),
        ]
        # r = 2^m - 1: lower c to the largest c' ≡ 2^(m-1) (mod 2^m) below it (k < 2^m)
        k = 0
        for m in range(1, bits + 1):
            k = ite(r == 2**m - 1, (c + 2**m - 2**(m - 1)) % 2**m, k)
        cases.append(Play(n & (k > 0) & (c - k > r), one_j, {"k": k}))
    a = s.heap[0]
    cases.append(Play((a == s.heap[1]) & (a == 1), move_index(rules, "take {k} from heap 1"), {"k": 1}))
    cases.append(Play((a == s.heap[1]) & (a > 2), move_index(rules, "take {k} from both"), {"k": a - 2}))
    return cases


# ---------------------------------------------------------------- minnie and mine on 3 heaps
def _sort3(x, y, z):
    """Three heap expressions sorted: (smallest, middle, largest)."""
    lo, hi = minimum(x, y, z), maximum(x, y, z)
    return lo, x + y + z - lo - hi, hi


def sorted3(s):
    """l <= m <= n: the three heaps of the state sorted."""
    return _sort3(s.heap[0], s.heap[1], s.heap[2])


def minnie_one(g, s):
    # Lemma 5.1: G(M[a]) = a (a >= 0; M[0] has no move)
    return s.heap[0]


def minnie3_region(g, s):
    lo, m, n = sorted3(s)
    return (lo >= 1) & (lo <= 3)


def minnie3_p(g, s, neq=True):
    # Theorem 5.3 (l <= m <= n, 1 <= l <= 3), with the "≠" the extraction lost restored
    # (neq=True: our reading) or read literally as "=" (neq=False).
    lo, m, n = sorted3(s)
    ne = (lambda x, v: x != v) if neq else (lambda x, v: x == v)
    return (((lo == 1) & ((m + n) % 2 == 1) & ne(m, 3))
            | ((lo == 1) & (m == 3) & (n == 4))
            | ((lo == 1) & (m == 3) & (n % 4 == 2))
            | ((lo == 2) & ne(m, 3) & ((m + n) % 4 == 2))
            | ((lo == 3) & (m == 3) & (n % 4 == 3))
            | ((lo == 3) & (m > 3) & ne(m, 5) & (n > 4) & ((m + n) % 4 == 0)))


def minnie_4mn_region(g, s):
    lo, m, n = sorted3(s)
    return (lo == 4) & (m >= 6)


def conj56_region(g, s):
    # every stack > 3 (all stacks exist), at most one stack <= 5 (the second smallest > 5)
    h = [s.heap[i] for i in g.elements]
    return all_of(x >= 4 for x in h) & (count(x <= 5 for x in h) <= 1)


def mine_59_512_region(g, s):
    a, b, c = sorted3(s)
    return ((a == 1) & (b == 2) & (c > 4)) | ((a == 1) & (b == 3) & (c > 5)) | \
        ((a == 1) & (b > 3) & (c > b)) | ((a == 2) & (b == 3) & (c > 3))


def mine_59_512_p(g, s):
    # 5.9: [1,2,c], c > 4: P iff c even. 5.10: [1,3,c], c > 5: P iff c ≡ 1 (mod 4).
    # 5.11: [1,b,c], 3 < b < c: P iff c = b+1, c = b+3, or c > b+4 and b+c even.
    # 5.12: [2,3,c], c > 3: P iff c = 5.
    a, b, c = sorted3(s)
    return (((a == 1) & (b == 2) & (c % 2 == 0)) | ((a == 1) & (b == 3) & (c % 4 == 1))
            | ((a == 1) & (b > 3) & ((c == b + 1) | (c == b + 3) | ((c > b + 4) & ((b + c) % 2 == 0))))
            | ((a == 2) & (b == 3) & (c == 5)))


def mine_region(lo_value, b_min):
    def region(g, s):
        a, b, c = sorted3(s)
        return (a == lo_value) & (b > b_min) & (c > b)
    return region


def mine_513_p(g, s):
    # Theorem 5.13 (statement lost in extraction; our reading):
    # [2,b,c], 3 < b < c: P iff c = b+2, or c > b+2, b even, b+c ≡ 1 (mod 4),
    # or c > b+2, b odd, b+c ≡ 3 (mod 4).
    a, b, c = sorted3(s)
    return ((c == b + 2) | ((c > b + 2) & (b % 2 == 0) & ((b + c) % 4 == 1))
            | ((c > b + 2) & (b % 2 == 1) & ((b + c) % 4 == 3)))


def mine_514_p(g, s, neq=True):
    # Theorem 5.14: "c = b+4 / c = b+3 and c = b+7 and b ≡ 1 (mod 2) and b+c ≡ 1 (mod 4) /
    # c = b+3 and c = b+7 and b ≡ 0 (mod 2) and b+c ≡ 3 (mod 4)": "c ≠ b+3 and c ≠ b+7"
    # restored (neq=False: literal, which is contradictory, so only c = b+4 remains).
    a, b, c = sorted3(s)
    excl = ((c != b + 3) & (c != b + 7)) if neq else ((c == b + 3) & (c == b + 7))
    return ((c == b + 4) | (excl & (b % 2 == 1) & ((b + c) % 4 == 1))
            | (excl & (b % 2 == 0) & ((b + c) % 4 == 3)))


def mine_515_p(g, s, neq=True):
    # Theorem 5.15: "c = b+7 and b = 5 and b = 6": "b ≠ 5 and b ≠ 6" restored.
    a, b, c = sorted3(s)
    if neq:
        return (c == b + 7) & (b != 5) & (b != 6)
    return (c == b + 7) & (b == 5) & (b == 6)


# ---------------------------------------------------------------- 5.5: the mine strategy table
def mine_full_p(hs):
    """P-positions of mine on <= 3 heaps with smallest existing heap <= 4 (two heaps: Theorem 5.8;
    three: Theorems 5.9-5.15 and the small cases of their proofs, [1,2,3], [1,3,4] in P,
    [1,2,4], [1,3,5], [2,3,4] in N). Used only as the fallback of the strategy below, after
    the table's first move: if it were wrong, the strategy would fail and say so."""
    x, y, z = hs
    a, b, c = _sort3(x, y, z)
    two = mine_p(None, _Heaps2(b, c))                # a = 0: two heaps (or fewer)
    excl = (c != b + 3) & (c != b + 7)
    odd_even = ((b % 2 == 1) & ((b + c) % 4 == 1)) | ((b % 2 == 0) & ((b + c) % 4 == 3))
    three = (((a == 1) & (b == 2) & ((c == 3) | ((c > 4) & (c % 2 == 0))))
             | ((a == 1) & (b == 3) & ((c == 4) | ((c > 5) & (c % 4 == 1))))
             | ((a == 1) & (b > 3) & ((c == b + 1) | (c == b + 3) | ((c > b + 4) & ((b + c) % 2 == 0))))
             | ((a == 2) & (b == 3) & (c == 5))
             | ((a == 2) & (b > 3) & ((c == b + 2) | ((c > b + 2) & (b % 2 == 0) & ((b + c) % 4 == 1))
                                      | ((c > b + 2) & (b % 2 == 1) & ((b + c) % 4 == 3))))
             | ((a == 3) & (b > 3) & ((c == b + 4) | (excl & odd_even)))
             | ((a == 4) & (b > 4) & (c == b + 7) & (b != 5) & (b != 6)))
    return ite(a == 0, two, three)


class _Heaps2:
    """Two heap expressions dressed as a state (for mine_p)."""

    def __init__(self, b, c):
        self.heap = [b, c]


def mine_table_region(g, s):
    a, b, c = sorted3(s)
    return (a > 4) & (b > a) & (c > b)


def mine_table_region_corrected(g, s):
    a, b, c = sorted3(s)
    return mine_table_region(g, s) & ~((a == 5) & (b == 6) & (c == 13))


def mine_table_strategy(g, s, rules):
    # The printed table (after Theorem 5.15) for Mn[a, b, c], 4 < a < b < c: reduce the smallest
    # heap a to t (Mn[t, b, c]) by the difference d = c - b. After the first move the play leaves
    # the table's region (the smallest heap is <= 4, or a heap is gone); from there the strategy's
    # player moves to a P-position of mine_full_p (any legal move into P, lowest heap index and
    # value first): the table is checked as a strategy, the fallback by the sweep itself.
    h = [s.heap[i] for i in g.elements]
    a, b, c = sorted3(s)
    d = c - b
    t = ite(d == 1, 1, ite(d == 2, 2, ite(d == 3, 1, ite(d == 4, 3, ite(d == 5, 2, ite(d == 6, 1, ite(
        d == 7, 4, ite(d % 2 == 0, 1, ite(d % 4 == 1, 2, 3)))))))))
    low = smallest(h)
    cases = []
    for i in g.elements:
        take = move_index(rules, f"take {{k}} from heap {i + 1}")
        cases.append(Play(mine_table_region(g, s) & (h[i] == a), take, {"k": a - t}))
    for i in g.elements:
        take = move_index(rules, f"take {{k}} from heap {i + 1}")
        ks = [h[i] - v for v in range(5)] + list(range(1, 5))
        for k in ks:
            after = [x - k if j == i else x for j, x in enumerate(h)]
            legal = (h[i] > 0) & (k >= 1) & (k <= low) & distinct(after)
            cases.append(Play(legal & mine_full_p(after), take, {"k": k}))
    return cases


def mine3_all_p(g, s):
    # Theorems 5.8-5.15 with the strategy table: every 3-heap position of mine (heaps at 0 included)
    h = [s.heap[i] for i in g.elements]
    a, b, c = sorted3(s)
    return (a <= 4) & mine_full_p(h)


def mine3_distinct(g, s):
    return distinct([s.heap[i] for i in g.elements])


CLAIMS = [
    Claim("selfref/thm3.1",
          text="Nimb with n >= 2 heaps whose smallest heap a1 is at least 1: the Grundy value is a1 - 1.",
          source=Source(THESIS, "Theorem 3.1", "ch. 3"),
          game="nimb", kind="grundy", family=heaps(2, 3),
          statement=nimb_value, bounds={"heap": 14}, full={"heap": 25},
          methods=["explicit", "smt"], expect="proved"),
    Claim("selfref/thm4.5",
          text=("Wynnie on two heaps r < c: P iff r = 2^n - 1 and c = 2^n a + 2^(n-1) - 1 for some n >= 1 "
                "and a >= 0."),
          source=Source(THESIS, "Theorem 4.5", "§4.1"),
          game="wynnie", kind="char", family=heaps(2),
          statement=wynnie_p, strategy=wynnie_strategy, bounds={"heap": 64}, full={"heap": 300},
          methods=["explicit", bitvec(BITS)], expect="proved"),
    Claim("selfref/thm5.2",
          text=("Minnie on two positive heaps a <= b: P iff the position is [1, 2i+1] or [2, 4i+2] (i >= 0), "
                "[3, 4i] (i >= 2), or [4, 4]."),
          source=Source(THESIS, "Theorem 5.2", "§5.1"),
          game="minnie", kind="char", family=heaps(2),
          statement=minnie_p, bounds={"heap": 60}, full={"heap": 300},
          methods=["explicit", "smt"], expect="proved"),
    Claim("selfref/thm5.8",
          text=("Mine on two heaps a < b: P iff the position is [1, 2k], [2, 4j+1] or [3, 4i+3] (k, j, i >= "
                "1)."),
          source=Source(THESIS, "Theorem 5.8", "§5.4"),
          game="mine", kind="char", family=heaps(2), assume=distinct_heaps,
          statement=mine_p, bounds={"heap": 60}, full={"heap": 300},
          methods=["explicit", "smt"], expect="proved"),
    # ------------------------------------------------------------ chapter 1
    Claim("selfref/thm1.4",
          text="Nim: a position is P iff the nim-sum (bitwise XOR) of its heaps is 0.",
          source=Source(THESIS, "Theorem 1.4", "§1.2"),
          game="nim", kind="char", family=heaps(2, 3, 4), statement=nim_p,
          bounds={"heap": 15}, full={"heap": 40}, expect="verified",
          note="explicit only: Z3 on the digit-wise nim-sum (bitvec(10)) timed out at 120 s"),
    Claim("selfref/1.3-wythoff",
          text=("Wythoff's game: the P-positions are (floor(n phi), floor(n phi^2)), n >= 0, and their "
                "mirror images (Table 1.2)."),
          source=Source(THESIS, "§1.3, Table 1.2", "§1.3"),
          game="wythoff", kind="char", family=heaps(2), statement=wythoff_p,
          bounds={"heap": 40}, full={"heap": 150}, expect="verified"),
    # ------------------------------------------------------------ chapter 2
    # As printed, refuted: witness {"game": "euclid", "heaps": [1, 1]}: claimed P (1/1 < φ),
    # actually N (take 1·1 from a heap: [0, 1] has no move).
    Claim("selfref/thm2.1",
          text="Euclid on two heaps a >= b >= 0: [a, b] is P iff a/b < phi (as printed).",
          reading=("The thesis allows 0 <= b <= a. As printed it fails exactly at equal heaps: [a, a] has "
                   "a/b = 1 < phi, yet the move to [0, a] ends the game, so it is N (b = 0, where a/b is "
                   "undefined, is read as the terminal P). Only these degenerate positions fail: degenerate "
                   "instance only; without them the statement holds (selfref/thm2.1-corrected)."),
          finding=Finding("degenerate", corrected="selfref/thm2.1-corrected"),
          source=Source(THESIS, "Theorem 2.1", "§2.1"),
          game="euclid", kind="char", family=heaps(2), statement=euclid_printed,
          bounds={"heap": 30}, full={"heap": 150}, expect="refuted",
          note="as printed; nmul (k·b, a²) keeps it explicit only"),
    Claim("selfref/thm2.1-corrected",
          text="Euclid on two heaps a >= b: P iff b = 0, or b < a < phi b.",
          reading="The printed a/b < phi without the equal heaps.",
          source=Source(THESIS, "Theorem 2.1, a > b", "§2.1"),
          game="euclid", kind="char", family=heaps(2), statement=euclid_corrected,
          bounds={"heap": 40}, full={"heap": 150}, expect="verified",
          note="P iff b = 0 or b < a < φb: the printed a/b < φ without the equal heaps"),
    Claim("selfref/thm2.3",
          text="Greedy nim: P iff the number of heaps of the largest size is even.",
          source=Source(THESIS, "Theorem 2.3", "§2.3"),
          game="greedy-nim", kind="char", family=heaps(2, 3), statement=greedy_p,
          bounds={"heap": 12}, full={"heap": 25},
          methods=["explicit", "smt"], expect="proved"),
    # Theorem 2.4 holds (heaps <= 150); Table 2.1 as printed agrees with our Length function
    # (asserted at import, above).
    Claim("selfref/thm2.4",
          text=("Susen on two heaps [a, b]: P iff the Length function L(a, b) defined in the thesis is even "
                "(Table 2.1)."),
          source=Source(THESIS, "Theorem 2.4, Table 2.1", "§2.4"),
          game="susen", kind="char", family=heaps(2), statement=susen2_p,
          bounds={"heap": 40}, full={"heap": SUSEN_MAX}, expect="verified",
          note="L as a table (Table 2.1 checked in Python at import)"),
    Claim("selfref/thm2.5",
          text=("Susen on three positive heaps [a, b, c]: P iff the two-heap positions [a, b], [a, c] and "
                "[b, c] are all N."),
          source=Source(THESIS, "Theorem 2.5", "§2.4"),
          game="susen", kind="char", family=heaps(3), statement=susen3_p,
          bounds={"heap": 14}, full={"heap": 30}, expect="verified"),
    Claim("selfref/2.2-restricted",
          text=("Restricted nim (remove k with 2k < n) on one heap n: the Grundy values are 0, 0, 1, 0, 2, "
                "1, 3, 0, 4, 2, 5, 1, 6, 3, 7, 0, 8, 4, 9, 2, 10 for n = 1, 2, ...; n is P iff it is a power"
                " of 2."),
          reading="Beyond the printed values, the rule they follow: G(2m + 1) = m, G(2m) = G(m).",
          source=Source(THESIS, "§2.2 (Levine)", "§2.2"),
          game="restricted-nim", kind="table", family=heaps(1), statement=restricted_value,
          bounds={"heap": 200}, full={"heap": 2000}, expect="verified",
          note="explicit only: Z3 (16-bit vectors, mex condition) timed out at 120 s"),
    # ------------------------------------------------------------ chapter 3
    Claim("selfref/thm3.2",
          text="Nimtb on distinct heaps a1 < ... < an, n >= 2: the Grundy value is a1 - 1.",
          source=Source(THESIS, "Theorem 3.2", "ch. 3"),
          game="nimtb", kind="grundy", family=heaps(2, 3), assume=nimtb_distinct,
          statement=nimtb_value, bounds={"heap": 14}, full={"heap": 25},
          methods=["explicit", "smt"], expect="proved"),
    # ------------------------------------------------------------ chapter 4
    Claim("selfref/lemma4.2",
          text="Wynnie W[1, k], k > 0: P iff k is even.",
          source=Source(THESIS, "Lemma 4.2", "§4.1"),
          game="wynnie", kind="char", family=heaps(2), assume=min_at_most_one,
          statement=wynnie_lemma42, bounds={"heap": 60}, full={"heap": 400},
          methods=["explicit", "smt"], expect="proved"),
    Claim("selfref/lemma4.3-4.4",
          text="Wynnie W[r, c] is N when c > r and r is even, and when c > r > 1 and c is even.",
          source=Source(THESIS, "Lemmas 4.3, 4.4", "§4.1"),
          game="wynnie", kind="outcome", family=heaps(2), assume=wynnie_lemma43_44_region,
          statement=never_p, bounds={"heap": 60}, full={"heap": 300}, expect="verified",
          note="N on the lemmas' hypotheses (one-sided: explicit only; Theorem 4.5's proof covers all sizes)"),
    Claim("selfref/lemma4.6-4.9",
          text=("Misere wynnie: W-[0, 1] is P and W-[0, n] is N for n > 1 (4.6); W-[1, n] is P iff n is odd "
                "(4.7); W-[m, n] is N when 1 < m <= n and m is even or n is odd (4.8); W-[m, m+1] is N for m"
                " > 0 (4.9)."),
          reading=("Lemma 4.7 fails at its smallest case W-[1, 1] (N: take one chip, leaving W-[0, 1], P), "
                   "which its proof overlooks; Lemma 4.8 fails at W-[2, 2] (P), whose proof moves to W-[1, "
                   "1] believing it P. The error carries into Theorem 4.10 (a missing P-position), so it is "
                   "an error of the paper rather than a degenerate case."),
          finding=Finding("paper-error", corrected="selfref/lemma4.6-4.9-corrected"),
          source=Source(THESIS, "Lemmas 4.6-4.9", "§4.2"),
          game="wynnie", kind="outcome", family=heaps(2), assume=misere_lemmas_region,
          statement=misere_lemmas_p, convention="misere",
          bounds={"heap": 60}, full={"heap": 300}, expect="refuted"),
    # Refuted: witness {"game": "wynnie", "heaps": [1, 1], "convention": "misere"}: claimed P
    # (Lemma 4.7, n = 1 odd), actually N: take 1 from one heap, leaving W-[0, 1] ∈ P (Lemma 4.6).
    # Lemma 4.8 fails too, at W-[2, 2] (m = 2 even; its proof moves to W-[1, 1], "∈ P", which is N):
    # W-[2, 2] ∈ P (its options [1, 2], [0, 2], [1, 1] are N, [0, 0] loses in misère play).
    # Corrected: Lemma 4.7 for n > 1, Lemma 4.8 without [2, 2]:
    Claim("selfref/lemma4.6-4.9-corrected",
          text="Lemmas 4.6-4.9 corrected: Lemma 4.7 for n > 1 only, and Lemma 4.8 without W-[2, 2].",
          reading="Our correction.",
          source=Source(THESIS, "Lemmas 4.6-4.9", "§4.2"),
          game="wynnie", kind="outcome", family=heaps(2), assume=misere_lemmas_region,
          statement=misere_lemmas_corrected, convention="misere",
          bounds={"heap": 60}, full={"heap": 300}, expect="verified"),
    Claim("selfref/thm4.10",
          text="Misere wynnie, m <= n: W-[m, n] is P iff m = 2^j - 1 and n = 2^j k + 2^(j-1) (j, k >= 1).",
          reading=("It misses the P-position W-[2, 2]: the proof's case m = 2 rests on Lemma 4.8, which is "
                   "wrong there. An error of the paper."),
          finding=Finding("paper-error", corrected="selfref/thm4.10-corrected"),
          source=Source(THESIS, "Theorem 4.10", "§4.2"),
          game="wynnie", kind="char", family=heaps(2), statement=misere_wynnie_p,
          convention="misere", bounds={"heap": 64}, full={"heap": 300}, expect="refuted"),
    # Refuted: witness {"game": "wynnie", "heaps": [2, 2], "convention": "misere"}: claimed N,
    # actually P (the proof's "m = 2 ... by Lemma 4.8, W-[m, n] ∈ N" inherits Lemma 4.8's error).
    # Corrected: the same set plus W-[2, 2] (no other exception up to heap 300):
    Claim("selfref/thm4.10-corrected",
          text=("Misere wynnie, m <= n: W-[m, n] is P iff it is W-[2, 2], or m = 2^j - 1 and n = 2^j k + "
                "2^(j-1) (j, k >= 1)."),
          reading="Our correction: the printed set plus W-[2, 2] (no other exception up to heap 300).",
          source=Source(THESIS, "Theorem 4.10", "§4.2"),
          game="wynnie", kind="char", family=heaps(2), statement=misere_wynnie_corrected,
          strategy=misere_wynnie_strategy, convention="misere", bounds={"heap": 64}, full={"heap": 300},
          methods=["explicit", bitvec(BITS)], expect="proved"),
    # ------------------------------------------------------------ chapter 5: minnie
    Claim("selfref/lemma5.1",
          text="Minnie on one heap a: the Grundy value is a.",
          source=Source(THESIS, "Lemma 5.1", "§5.1"),
          game="minnie", kind="grundy", family=heaps(1), statement=minnie_one,
          bounds={"heap": 100}, full={"heap": 1000},
          methods=["explicit", "smt"], expect="proved"),
    # Our reading restores the lost "≠" (m ≠ 3, m ≠ 5); the literal "=" reading is refuted at
    # [1, 1, 2] (claimed N, actually P), so the "≠" reading is the paper's.
    Claim("selfref/thm5.3",
          text=("Minnie [l, m, n], l <= m <= n, 1 <= l <= 3: P iff [1, m, n] with m + n odd and m != 3; [1, "
                "3, 4]; [1, 3, n] with n = 2 (mod 4); [2, m, n] with m != 3 and m + n = 2 (mod 4); [3, 3, n]"
                " with n = 3 (mod 4); or [3, m, n] with m > 3, m != 5, n > 4 and m + n = 0 (mod 4)."),
          reading=("The extraction turned each '!=' into '='; restored (the literal '=' reading fails at [1,"
                   " 1, 2])."),
          source=Source(THESIS, "Theorem 5.3", "§5.2"),
          game="minnie", kind="char", family=heaps(3), assume=minnie3_region,
          statement=minnie3_p, bounds={"heap": 20}, full={"heap": 100}, expect="verified"),
    Claim("selfref/thm5.4",
          text="Minnie [4, m, n] with 6 <= m <= n: N.",
          source=Source(THESIS, "Theorem 5.4", "§5.2"),
          game="minnie", kind="outcome", family=heaps(3), assume=minnie_4mn_region,
          statement=never_p, bounds={"heap": 20}, full={"heap": 100}, expect="verified"),
    # Conjecture 5.6 ("k stacks, the smallest > 3, the second smallest > 5: N"; §6: ">= 4 and
    # >= 6"): no counterexample. Full profile: 2, 3, 4 and 5 heaps, every heap <= 40, 822,472
    # positions of the region, all N (quick: heap <= 14).
    Claim("selfref/conj5.6",
          text=("Conjecture: minnie with the smallest heap above 3 and the second smallest above 5 is N "
                "(Chapter 6: at least 4 and at least 6)."),
          source=Source(THESIS, "Conjecture 5.6 (and §6)", "§5.2"),
          game="minnie", kind="conj", family=heaps(2, 3, 4, 5), assume=conj56_region,
          statement=never_p, bounds={"heap": 14}, full={"heap": 40}, expect="verified",
          timeout=600),     # the full profile sweeps about 64 million positions: about 120 CPU s
    # ------------------------------------------------------------ chapter 5: mine
    Claim("selfref/thm5.9-5.12",
          text=("Mine on three heaps: [1, 2, c], c > 4: P iff c is even; [1, 3, c], c > 5: P iff c = 1 (mod "
                "4); [1, b, c], 3 < b < c: P iff c = b + 1, c = b + 3, or c > b + 4 with b + c even; [2, 3, "
                "c], c > 3: P iff c = 5."),
          source=Source(THESIS, "Theorems 5.9-5.12", "§5.5"),
          game="mine", kind="char", family=heaps(3), assume=mine_59_512_region,
          statement=mine_59_512_p, bounds={"heap": 20}, full={"heap": 100}, expect="verified"),
    # Reconstruction: the printed statement of Theorem 5.13 is lost (only "M(2, b, c) =" and a
    # brace survive); our reading agrees with the proof's cases (Mn[2, j, j+2] ∈ P,
    # Mn[2, j, j+5] ∈ P for ..., "If i = j + 4k + 1 ...") and is checked here as such.
    Claim("selfref/thm5.13",
          text=("Mine [2, b, c], 3 < b < c: P iff c = b + 2; or c > b + 2, b even and b + c = 1 (mod 4); or "
                "c > b + 2, b odd and b + c = 3 (mod 4)."),
          reading=("The printed statement was lost in extraction (only 'M(2, b, c) =' and a brace remain); "
                   "this reading agrees with the cases of the proof."),
          source=Source(THESIS, "Theorem 5.13 (statement lost in extraction: our reading)", "§5.5"),
          game="mine", kind="char", family=heaps(3), assume=mine_region(2, 3),
          statement=mine_513_p, bounds={"heap": 20}, full={"heap": 100}, expect="verified"),
    # Literal reading ("c = b+3 and c = b+7", contradictory) refuted at [3, 4, 15] (claimed N,
    # actually P); the "≠" reading (ours) holds.
    Claim("selfref/thm5.14",
          text=("Mine [3, b, c], 3 < b < c: P iff c = b + 4; or c not in {b + 3, b + 7}, b odd and b + c = 1"
                " (mod 4); or c not in {b + 3, b + 7}, b even and b + c = 3 (mod 4)."),
          reading=("The '!=' lost in extraction is restored (the literal 'c = b + 3 and c = b + 7' is "
                   "contradictory and fails at [3, 4, 15])."),
          source=Source(THESIS, "Theorem 5.14", "§5.5"),
          game="mine", kind="char", family=heaps(3), assume=mine_region(3, 3),
          statement=mine_514_p, bounds={"heap": 20}, full={"heap": 100}, expect="verified"),
    # Literal reading ("b = 5 and b = 6") refuted at [4, 7, 14] (claimed N, actually P).
    Claim("selfref/thm5.15",
          text="Mine [4, b, c], 4 < b < c: P iff c = b + 7 and b is not 5 or 6.",
          reading=("The '!=' lost in extraction is restored (the literal 'b = 5 and b = 6' fails at [4, 7, "
                   "14])."),
          source=Source(THESIS, "Theorem 5.15", "§5.5"),
          game="mine", kind="char", family=heaps(3), assume=mine_region(4, 4),
          statement=mine_515_p, bounds={"heap": 20}, full={"heap": 100}, expect="verified"),
    Claim("selfref/5.5-mine-strategy",
          text=("Mine [a, b, c] with 4 < a < b < c is N, and the thesis's table of moves (c = b + 1 -> [1, "
                "b, c], ...) always moves to a P-position."),
          reading=("At [5, 6, 13] (c = b + 7) the table moves to [4, 6, 13], which Theorem 5.15 itself "
                   "excludes (b = 6): an N-position, from which the reply to [4, 2, 13] wins. The winning "
                   "move there is to [1, 5, 13]. A wrong entry of the paper's table at an ordinary position:"
                   " an error of the paper."),
          finding=Finding("paper-error", corrected="selfref/5.5-mine-strategy-corrected"),
          source=Source(THESIS, "strategy table after Theorem 5.15", "§5.5"),
          game="mine", kind="strategy", family=heaps(3), assume=mine_table_region,
          statement=never_p, strategy=mine_table_strategy,
          bounds={"heap": 20}, full={"heap": 60}, expect="refuted"),
    # Refuted: witness {"game": "mine", "heaps": [5, 6, 13]}: c = b + 7, the table moves to
    # Mn[4, 6, 13], which Theorem 5.15 itself excludes (b = 6): N, the reply "take 4 from heap 2"
    # leaves [4, 2, 13] ∈ P (Theorem 5.13). The winning move there is 6 -> 1: Mn[1, 5, 13] ∈ P.
    # Corrected: the table with that one position excluded (a < b forces b >= 6, so [5, 6, 13]
    # is the only position where c = b + 7 and b ∈ {5, 6}).
    Claim("selfref/5.5-mine-strategy-corrected",
          text=("The table of winning moves for mine [a, b, c], 4 < a < b < c, everywhere but [5, 6, 13] "
                "(the only position with c = b + 7 and b in {5, 6})."),
          reading="Our correction: the one wrong position excluded.",
          source=Source(THESIS, "strategy table after Theorem 5.15",
                                                              "§5.5"),
          game="mine", kind="strategy", family=heaps(3), assume=mine_table_region_corrected,
          statement=never_p, strategy=mine_table_strategy,
          bounds={"heap": 20}, full={"heap": 60}, expect="verified"),
    # Not a published claim: all of mine on 3 heaps at once (Theorems 5.8-5.15, the small
    # cases of their proofs, and "a >= 5: N" from the table), i.e. the P-set the strategy's
    # fallback relies on.
    Claim("selfref/mine-3heaps-combined",
          text=("Mine on three distinct heaps: the P-positions are exactly those of Theorems 5.8-5.15 and "
                "the small cases of their proofs (smallest heap at most 4); every position whose smallest "
                "heap is 5 or more is N, as the table says."),
          reading="Not a claim of the thesis as such: its results on three heaps put together.",
          source=Source(THESIS, "Theorems 5.8-5.15 and the table", "§5.5"),
          game="mine", kind="char", family=heaps(3), assume=mine3_distinct,
          statement=mine3_all_p, bounds={"heap": 20}, full={"heap": 100}, expect="verified",
          note="explicit only: Z3 with the table strategy as witness timed out at 600 s"),
]

# §4.3 (wynnie on graphs, edge-delete) and §6 live in _selfref_graphs.py (same paper, same ids scheme)
from _selfref_graphs import CLAIMS as _GRAPH_CLAIMS  # noqa: E402

CLAIMS += _GRAPH_CLAIMS
