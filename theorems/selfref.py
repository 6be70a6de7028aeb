"""selfref: the thesis on self-referential impartial games (nimb, wynnie, minnie, mine).

Each statement is written over the whole family of positions the moves can reach
(heaps at 0 included), so that the partition theorem (or the mex condition) applies:
the paper's statement is one part, the rest is completed from the thesis's lemmas
and marked "completion" below.
"""
from grundy.spec import Play, any_of, count, ite, maximum, minimum, move_index, total
from grundy.verify import Claim, Source, bitvec, heaps

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
        one_i, one_j = (move_index(rules, f"take {{k}} from heap {x}") for x in (i, j))
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


CLAIMS = [
    Claim("selfref/thm3.1", source=Source(THESIS, "Theorem 3.1", "ch. 3"),
          game="nimb", kind="grundy", family=heaps(2, 3),
          statement=nimb_value, bounds={"heap": 14}, full={"heap": 25},
          methods=["explicit", "smt"], expect="proved"),
    Claim("selfref/thm4.5", source=Source(THESIS, "Theorem 4.5", "§4.1"),
          game="wynnie", kind="char", family=heaps(2),
          statement=wynnie_p, strategy=wynnie_strategy, bounds={"heap": 64}, full={"heap": 300},
          methods=["explicit", bitvec(BITS)], expect="proved"),
    Claim("selfref/thm5.2", source=Source(THESIS, "Theorem 5.2", "§5.1"),
          game="minnie", kind="char", family=heaps(2),
          statement=minnie_p, bounds={"heap": 60}, full={"heap": 300},
          methods=["explicit", "smt"], expect="proved"),
    Claim("selfref/thm5.8", source=Source(THESIS, "Theorem 5.8", "§5.4"),
          game="mine", kind="char", family=heaps(2), assume=distinct_heaps,
          statement=mine_p, bounds={"heap": 60}, full={"heap": 300},
          methods=["explicit", "smt"], expect="proved"),
]

# §4.3 (wynnie on graphs, edge-delete) and §6 live in _selfref_graphs.py (same paper, same ids scheme)
from _selfref_graphs import CLAIMS as _GRAPH_CLAIMS  # noqa: E402

CLAIMS += _GRAPH_CLAIMS
