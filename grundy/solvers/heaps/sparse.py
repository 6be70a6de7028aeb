"""The sparse-space method for the one-heap values of a take-and-break code, in Python.

A heap of h has three kinds of options under a code d0.d1d2...: remove a whole heap of k
(d_k bit 1: value 0), remove k and leave one heap (bit 2: G(h - k)), remove k and leave two
non-empty heaps a + b = h - k (bit 4: G(a) ^ G(b); with ``unequal``, a != b). The breaks make
the plain method O(n^2).

**Sparse space.** Fix a bit mask M and a bit P (the *size parity*, 0 or 1). Call a heap r
*rare* if c(r) = parity(G(r) & M) ^ (P & r) is 0, *common* otherwise (parity: of the number
of bits; P & r: P times the parity of the size r). For a split a + b = m with value
v = G(a) ^ G(b): parity of a bit count is additive under XOR, and a + b has the parity of
a ^ b, so c(a) ^ c(b) = parity(v & M) ^ (P & m): the *class of v for m*, known from v and m
alone. When it is 1 (v *common for m*), one of a, b is rare: scanning only the rare indices
r < m (each pair r + (m - r)) finds *every* option value of the splits of m that is common
for m (for ``unequal`` the scan skips r = m - r, exactly the splits the rule forbids). The
mex is then found by walking g = 0, 1, 2, ...: a marked g is an option; an unmarked g common
for every m = h - k of the splitting moves k is certainly not one (so it is the mex); if g
is rare for some of them it may still come from two commons of those, so their full scans are
resumed (in turns, marking every value they meet) until g turns up or they run out. Correctness never
depends on how few the rares are, nor on M and P: with M = 0 and P = 0 every heap is rare and
this is the plain method. The cost per heap is (number of rare indices) plus the resumed
full scans, which stop at the last rare value below the mex (a few thousand splits for 0.6,
whose values reach 302) and run to the end only when G(h) itself is rare.

**Why the size parity.** Where a code splits a heap into two equal ones (4.07: a heap of 2j
into j + j, value 0), the values of even and odd heaps fall in different classes of every
value-only mask: half the heaps stay rare and the method is quadratic. With P = 1 the class
of a heap also counts its size's parity, and the rares are few again (4.07 up to 10^6:
mask 1 with P = 1, and no heap rare at all). P = 1 is chosen only when every splitting k has the same parity (a finite code,
or a tail without splits): then all the m = h - k of one heap share a parity, and "common
for every m" is one test, as with P = 0.

**The rare class.** The scan through the rare list finds every split whose parts' classes
differ, and such a split has one part in each class: listing the heaps of class 1 instead of
class 0 finds the same values. Which class to list is a matter of cost only: the mex G(h) is
found without resumed scans when it is common for m = h - k, i.e. when its class for m,
c(h) ^ (P & k & 1), is 1. With P = 1 and every splitting k odd (0.106 splits at k = 3 only;
0.6 at 1) the cheap heaps are therefore those with c(h) = 0, and the list holds the heaps of
class 1: heap h is listed when G(h) is rare for m = h - k (:func:`split_parity` gives the k's
parity). Listing class 0 there made most heaps rare or most mexes rare: 0.106 ran the plain
loop (2.5 * 10^9 splits to 10^5); listing class 1 it keeps 15 of 10^5 heaps rare
(3.1 * 10^6 splits).

**Choice of mask.** The scans through rares cost one split per rare index, so (M, P) is the
non-zero pair that makes the fewest of the heaps so far rare. Write E(r) = G(r) + 2^b (r & 1)
(b the bit width of the values) and M' = M + 2^b P: then c(r) = parity(E(r) & M'), and for
every M' at once the count of heaps of class 0 is (h + 1 + W[M']) / 2 (of class 1, the listed
ones when P = 1 and k is odd, (h + 1 - W[M']) / 2), where W is the Walsh-Hadamard
transform of the histogram of E (W[M'] = sum over e of count(e) * (-1)^popcount(e & M');
over b bits only when P = 1 is not allowed). The choice is revisited at h = 64, 128, 256,
... (then every 65,536) and the list of rare indices rebuilt when a pair makes fewer heaps
rare than the current one. For 0.6 up to 10^6 the mask
settles at 494 (0b111101110), P = 0: 1,583 of the 10^6 heaps are rare.

**The plain method** is the same loop with the mask fixed at 0 and every split of a heap
scanned at once (each split once: a <= b), nothing resumed. The adaptive sparse method also
runs the plain loop from a checkpoint to the next when even the best pair leaves more than a
quarter of the heaps rare (0.137, Dawson's chess, about 41%): the scan of the rares plus the
resumed scans would then cost more than scanning each split once. From h = PROBE_FROM on, it
also measures the sparse loop on the PROBE_LENGTH heaps after each check, and runs the plain
loop up to the next check if the sparse one scanned more than half the splits the plain one
would have (0.007, Treblecross: 17% rare, but the mex itself is rare so often that the resumed
scans run to the end: about 0.9 of the plain work, with worse locality). Either way only the
work changes, never a value.

The code's rule is stated here once for Python (the fallback without a C compiler) and once
in ``takebreak.c`` (the same loop, step for step: both report the same work counters, and
both can extend an earlier run from the state it returned, as if it had run to n at once); the
rule itself, as options, is :class:`~grundy.spec.heaprule.TakeAndBreak`'s.

>>> from grundy.spec.heaprule import TakeBreak
>>> run(TakeBreak((0, 7, 7)), 11)[0]              # code 0.77: Kayles
[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
>>> run(TakeBreak((0, 7, 7)), 11, plain=True)[0] == run(TakeBreak((0, 7, 7)), 11)[0]
True
"""
from __future__ import annotations

from bisect import bisect_left

from ...spec.heaprule import TakeBreak

__all__ = ["run", "parity_allowed", "split_parity", "MAX_WHT_BITS", "FIRST_CHECK", "CHECK_STEP", "RESUME_STEP", "PROBE_FROM",
           "PROBE_LENGTH", "STATE_LEN"]

MAX_WHT_BITS = 20          # the mask is chosen only while values have at most 20 bits
FIRST_CHECK, CHECK_STEP = 64, 65_536
RESUME_STEP = 16           # splits per k and turn when full scans are resumed
PROBE_FROM, PROBE_LENGTH = 4096, 1024   # from which check the sparse loop's work is measured, on how many heaps


def _parity(x: int) -> int:
    return x.bit_count() & 1


def _grow(seen: list[int], vb: int) -> None:
    need = (1 << vb) + 1
    if need > len(seen):
        seen.extend([0] * (need - len(seen)))


def parity_allowed(code: TakeBreak) -> bool:
    """Whether the mask may count the heap size's parity (P = 1): every k whose digit splits
    has the same parity.

    >>> parity_allowed(TakeBreak((4, 0, 7))), parity_allowed(TakeBreak((0, 7, 7)))
    (True, False)
    """
    if code.tail & 4:
        return False
    return len({k & 1 for k, d in enumerate(code.digits) if d & 4}) <= 1


def split_parity(code: TakeBreak) -> int:
    """The parity of the k whose digit splits (bit 4), when they all share it; 0 when none
    splits or they differ (then it only picks the rare class, never a value: see the module's
    "The rare class").

    >>> split_parity(TakeBreak((0, 1, 0, 6))), split_parity(TakeBreak((4, 0, 7)))   # 0.106, 4.07
    (1, 0)
    """
    ks = {k & 1 for k, d in enumerate(code.digits) if d & 4}
    return 1 if ks == {1} and not code.tail & 4 else 0


def _ks(code: TakeBreak, h: int) -> range:
    """Every k worth a look for heap h."""
    return range(h + 1) if code.tail else range(len(code.digits))


def _mark_whole_heap_moves(G: list[int], seen: list[int], st: int, h: int, k: int, dk: int) -> None:
    """Mark the values of the moves taking k from heap h that leave no heap (digit bit 1) or
    one heap (bit 2); splits (bit 4) are scanned by the caller."""
    if k > 0 and dk & 1 and h == k:
        seen[0] = st
    if k > 0 and dk & 2 and h > k:
        seen[G[h - k]] = st


def choose_mask(G: list[int], vb: int, current: tuple[int, int], ext: bool, kodd: int = 0) -> tuple[int, int]:
    """The non-zero (mask, size parity) making the fewest heaps of ``G`` rare (ties: the
    smallest M + 2^vb P; P = 0 unless ``ext``), or ``current`` when none makes fewer rare than
    it does, or the values are too wide. With P = 1 and ``kodd`` the rare class is c = 1,
    (h + 1 - W[M']) / 2 heaps: scored by -W[M']."""
    if vb == 0 or vb > MAX_WHT_BITS:
        return current
    W = [0] * (1 << (vb + ext))
    for r, v in enumerate(G):
        W[v | ((r & 1 & ext) << vb)] += 1
    length = 1
    while length < len(W):
        for i in range(0, len(W), 2 * length):
            for j in range(i, i + length):
                a, b = W[j], W[j + length]
                W[j], W[j + length] = a + b, a - b
        length *= 2
    if kodd:
        W[1 << vb:] = [-w for w in W[1 << vb:]]
    best = min(range(1, len(W)), key=lambda M: (W[M], M))
    now = current[0] | (current[1] << vb)
    return (best & ((1 << vb) - 1), best >> vb) if now == 0 or W[best] < W[now] else current


def _rare(g: int, r: int, mask: int, par: int) -> bool:
    """Whether heap ``r`` of value ``g`` is rare (equivalently: whether an option value g of
    the splits of a heap of r is rare for r)."""
    return not (_parity(g & mask) ^ (par & r & 1))


def _rare_heap(g: int, h: int, mask: int, par: int, kodd: int) -> bool:
    """Whether heap ``h`` of value ``g`` goes to the rare list: g is rare for m = h - k, k of the
    splits' parity ``kodd``."""
    return _rare(g, h - kodd, mask, par)


def _scan_all(G: list[int], seen: list[int], st: int, m: int, uneq: bool) -> int:
    """Mark every split a + b = m (a <= b; a < b if ``uneq``); their number."""
    half = (m - 1) // 2 if uneq else m // 2
    for a in range(1, half + 1):
        seen[G[a] ^ G[m - a]] = st
    return half


def _scan_rares(G: list[int], seen: list[int], st: int, m: int, uneq: bool, R: list[int]) -> int:
    """Mark the splits r + (m - r) with heap r rare; their number."""
    i = bisect_left(R, m)
    for r in R[:i]:
        if not (uneq and 2 * r == m):
            seen[G[r] ^ G[m - r]] = st
    return i


def _resume(G: list[int], seen: list[int], st: int, h: int, g: int, uneq: bool, cur: dict[int, int],
            mask: int, par: int) -> tuple[bool, int]:
    """Resume the full scans of the splits of h - k (from ``cur[k]``) for every k for which
    ``g`` is rare, in turns of ``RESUME_STEP`` splits, until g turns up: whether it did, and
    the splits looked at. (In turns: g often comes early in one k's splits and never in
    another's; the order changes only the work, never what is marked before g is declared
    the mex: every split of every such k.)"""
    pairs = 0
    active = [k for k in cur if _rare(g, h - k, mask, par)]    # g common for h - k: the rares saw it
    while active:
        still = []
        for k in active:
            m = h - k
            half = (m - 1) // 2 if uneq else m // 2
            a = start = cur[k]
            stop = min(half, a + RESUME_STEP - 1)
            found = False
            while a <= stop:
                v = G[a] ^ G[m - a]
                seen[v] = st
                a += 1
                if v == g:
                    found = True
                    break
            pairs += max(a - start, 0)
            cur[k] = a
            if found:
                return True, pairs
            if a <= half:
                still.append(k)
        active = still
    return False, pairs


def _mark_splits(code: TakeBreak, G: list[int], seen: list[int], h: int, whole: bool, R: list[int],
                 every_rare: bool) -> tuple[dict[int, int], int, int, int]:
    """Mark the options of heap h but the splits' rare values: every split when ``whole``, else
    those through the rare heaps ``R``. (Where each k's full scan resumes, rare pairs, full
    pairs, the splits the plain loop would scan.)"""
    st, uneq = h + 1, code.unequal
    cur: dict[int, int] = {}               # per k with splits: where its full scan resumes
    rare_pairs = full_pairs = plain_pairs = 0
    for k in _ks(code, h):
        dk = code.digit(k)
        _mark_whole_heap_moves(G, seen, st, h, k, dk)
        if dk & 4 and h - k >= 2:
            plain_pairs += (h - k - 1) // 2 if uneq else (h - k) // 2
            if whole:
                full_pairs += _scan_all(G, seen, st, h - k, uneq)
            else:
                rare_pairs += _scan_rares(G, seen, st, h - k, uneq, R)
                cur[k] = (h - k) // 2 + 1 if every_rare else 1
    return cur, rare_pairs, full_pairs, plain_pairs


STATE_LEN = 11    # run()'s state between heaps: mask, parity, changes, rare pairs, full pairs, plain pairs,
# next check, probe end, work and plain work at the probe's start, whole


def run(code: TakeBreak, n: int, fixed: tuple[int, int] | None = None, plain: bool = False,
        start: list[int] | None = None, state: list[int] | None = None) -> tuple[list[int], list[int], list[int]]:
    """G(0..n), the work counters (mask, rares, mask changes, rare pairs, full pairs, size
    parity) and the loop's state: ``fixed`` a (mask, size parity) (None: chosen as the values
    come), ``plain`` the plain method; ``start`` G(0..f - 1) of an earlier run (same code and
    options) to extend, with the ``state`` it returned: heaps f..n are computed as the run to n
    would have, step for step."""
    G = list(start or [])
    mask, par = (0, 0) if plain or fixed is None else fixed
    S = [mask, par, 0, 0, 0, 0, FIRST_CHECK, -1, 0, 0, int(plain)] if not G else list(state or [])
    (mask, par, changes, rare_pairs, full_pairs, plain_pairs, next_check, probe_end, since0, since1, whole) = S
    ext, kodd = parity_allowed(code), split_parity(code)
    R = [i for i in range(1, len(G)) if _rare_heap(G[i], i, mask, par, kodd)]
    maxg = max(G, default=0)
    vb = maxg.bit_length()
    seen = [0] * ((1 << vb) + 1)
    for h in range(len(G), n + 1):
        cur, rp, fp, pp = _mark_splits(code, G, seen, h, bool(whole), R, mask == par == 0)
        rare_pairs, full_pairs, plain_pairs = rare_pairs + rp, full_pairs + fp, plain_pairs + pp
        g = 0
        while True:
            if seen[g] == h + 1:
                g += 1
                continue
            if whole:
                break
            found, pairs = _resume(G, seen, h + 1, h, g, code.unequal, cur, mask, par)
            full_pairs += pairs
            if not found:
                break                                   # unmarked, every split that could give it seen
            g += 1
        G.append(g)
        if h >= 1 and _rare_heap(g, h, mask, par, kodd):
            R.append(h)
        if g > maxg:
            maxg = g
            vb = maxg.bit_length()
            _grow(seen, vb)
        if fixed is None and not plain and h == next_check:
            nm = choose_mask(G, vb, (mask, par), ext, kodd)
            if nm != (mask, par):
                (mask, par), changes = nm, changes + 1
                R = [i for i in range(1, h + 1) if _rare_heap(G[i], i, mask, par, kodd)]
            whole = 4 * len(R) > h
            next_check = 2 * next_check if next_check < CHECK_STEP else next_check + CHECK_STEP
            if not whole and h >= PROBE_FROM:       # measure the sparse loop on the next heaps
                probe_end, since0, since1 = h + PROBE_LENGTH, rare_pairs + full_pairs, plain_pairs
        elif h == probe_end:                        # over half the plain work: plain until the next check
            whole = 2 * (rare_pairs + full_pairs - since0) > plain_pairs - since1
    state = [mask, par, changes, rare_pairs, full_pairs, plain_pairs, next_check, probe_end, since0, since1, int(whole)]
    return G, [mask, len(R), changes, rare_pairs, full_pairs, par], state
