"""The sparse-space method for the one-heap values of a take-and-break code, in Python.

A heap of h has three kinds of options under a code d0.d1d2...: remove a whole heap of k
(d_k bit 1: value 0), remove k and leave one heap (bit 2: G(h - k)), remove k and leave two
non-empty heaps a + b = h - k (bit 4: G(a) ^ G(b); with ``unequal``, a != b). The breaks make
the plain method O(n^2).

**Sparse space.** Fix a bit mask M. Call a value v *rare* if v & M has an even number of
bits, *common* otherwise. Parity of v & M is additive under XOR, so rare ^ rare and
common ^ common are rare, and rare ^ common is common. Hence every common option value
G(a) ^ G(b) has a rare side: scanning only the indices r with G(r) rare finds *all* common
option values (for ``unequal`` the scan skips r = m - r, exactly the splits the rule
forbids). The mex is then found by walking g = 0, 1, 2, ...: a marked g is an option;
an unmarked common g is certainly not one (so it is the mex); an unmarked rare g may still
come from two commons, so the full scan of the splits is resumed (marking every value it
meets) until g turns up or the splits run out. Correctness never depends on how few the
rares are: with M = 0 every value is rare and this is the plain method. The cost per heap
is (number of rare indices) plus the resumed full scans, which stop at the last rare value
below the mex (a few thousand splits for 0.6, whose values reach 302) and run to the end
only when G(h) itself is rare.

**Choice of mask.** The scans through rares cost one split per rare index, so M is the
non-zero mask that makes the fewest of the values found so far rare. For every M at once
this count is (h + 1 + W[M]) / 2, where W is the Walsh-Hadamard transform of the histogram
of values (W[M] = sum over v of count(v) * (-1)^popcount(v & M)). The choice is revisited at
h = 64, 128, 256, ... (then every 65,536) and the list of rare indices rebuilt when a mask
makes fewer values rare than the current one. Only the class containing 0 can be the
rare one (a subgroup: the scan of rares must cover every pair whose XOR is common). For
0.6 up to 10^6 the mask settles at 494 (0b111101110): 1,583 of the 10^6 heaps are rare.

**The plain method** is the same loop with the mask fixed at 0 and every split of a heap
scanned at once (each split once: a <= b), nothing resumed.

The code's rule is stated here once for Python (the fallback without a C compiler) and once
in ``takebreak.c`` (the same loop, step for step: both report the same work counters); the
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

__all__ = ["run", "MAX_WHT_BITS", "FIRST_CHECK", "CHECK_STEP"]

MAX_WHT_BITS = 20          # the mask is chosen only while values have at most 20 bits
FIRST_CHECK, CHECK_STEP = 64, 65_536


def _parity(x: int) -> int:
    return x.bit_count() & 1


def _grow(seen: list[int], vb: int) -> None:
    need = (1 << vb) + 1
    if need > len(seen):
        seen.extend([0] * (need - len(seen)))


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


def choose_mask(G: list[int], vb: int, current: int) -> int:
    """The non-zero mask making the fewest of ``G`` rare (ties: the smallest), or ``current``
    when none makes fewer rare than it does, or the values are too wide."""
    if vb == 0 or vb > MAX_WHT_BITS:
        return current
    W = [0] * (1 << vb)
    for v in G:
        W[v] += 1
    length = 1
    while length < len(W):
        for i in range(0, len(W), 2 * length):
            for j in range(i, i + length):
                a, b = W[j], W[j + length]
                W[j], W[j + length] = a + b, a - b
        length *= 2
    best = min(range(1, len(W)), key=lambda M: (W[M], M))
    return best if current == 0 or W[best] < W[current] else current


def _scan_all(G: list[int], seen: list[int], st: int, m: int, uneq: bool) -> int:
    """Mark every split a + b = m (a <= b; a < b if ``uneq``); their number."""
    half = (m - 1) // 2 if uneq else m // 2
    for a in range(1, half + 1):
        seen[G[a] ^ G[m - a]] = st
    return half


def _scan_rares(G: list[int], seen: list[int], st: int, m: int, uneq: bool, R: list[int]) -> int:
    """Mark the splits r + (m - r) with G(r) rare; their number."""
    i = bisect_left(R, m)
    for r in R[:i]:
        if not (uneq and 2 * r == m):
            seen[G[r] ^ G[m - r]] = st
    return i


def _resume(G: list[int], seen: list[int], st: int, h: int, g: int, uneq: bool, cur: dict[int, int]) -> tuple[bool, int]:
    """Resume the full scans of the splits (from ``cur[k]``, per k) until the value ``g`` turns
    up: whether it did, and the splits looked at."""
    pairs = 0
    for k in cur:
        m = h - k
        half = (m - 1) // 2 if uneq else m // 2
        a = start = cur[k]
        found = False
        while a <= half:
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
    return False, pairs


def run(code: TakeBreak, n: int, fixed: int | None = None, plain: bool = False) -> tuple[list[int], list[int]]:
    """G(0..n) and the work counters (mask, rares, mask changes, rare pairs, full pairs):
    ``fixed`` a mask (None: chosen as the values come), ``plain`` the plain method."""
    G: list[int] = []
    seen = [0, 0]
    mask = 0 if plain else fixed or 0
    R: list[int] = []
    rare_pairs = full_pairs = changes = 0
    maxg = vb = 0
    next_check = FIRST_CHECK
    uneq = code.unequal
    for h in range(n + 1):
        st = h + 1
        cur: dict[int, int] = {}           # per k with splits: where its full scan resumes
        for k in _ks(code, h):
            dk = code.digit(k)
            _mark_whole_heap_moves(G, seen, st, h, k, dk)
            if dk & 4 and h - k >= 2:
                if plain:
                    full_pairs += _scan_all(G, seen, st, h - k, uneq)
                else:
                    rare_pairs += _scan_rares(G, seen, st, h - k, uneq, R)
                    cur[k] = (h - k) // 2 + 1 if mask == 0 else 1
        g = 0
        while True:
            if seen[g] == st:
                g += 1
                continue
            if plain or _parity(g & mask):
                break                                   # common and unmarked: not an option
            found, pairs = _resume(G, seen, st, h, g, uneq, cur)
            full_pairs += pairs
            if not found:
                break                                   # every split seen: g is the mex
            g += 1
        G.append(g)
        if h >= 1 and not _parity(g & mask):
            R.append(h)
        if g > maxg:
            maxg = g
            vb = maxg.bit_length()
            _grow(seen, vb)
        if fixed is None and not plain and h == next_check:
            nm = choose_mask(G, vb, mask)
            if nm != mask:
                mask, changes = nm, changes + 1
                R = [i for i in range(1, h + 1) if not _parity(G[i] & mask)]
            next_check = 2 * next_check if next_check < CHECK_STEP else next_check + CHECK_STEP
    return G, [mask, len(R), changes, rare_pairs, full_pairs]
