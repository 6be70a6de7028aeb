"""Grundy values of octal games on one heap, G(0..n), by the sparse-space (rare/common) method.

A heap of h has three kinds of options under the code d0.d1d2... (see
:mod:`grundy.spec.games.octal`): remove a whole heap of k (d_k bit 1: value 0), remove k
and leave one heap (bit 2: G(h - k)), remove k and leave two non-empty heaps a + b = h - k
(bit 4: G(a) ^ G(b)). The breaks make the plain method O(n^2).

**Sparse space.** Fix a bit mask M. Call a value v *rare* if v & M has an even number of
bits, *common* otherwise. Parity of v & M is additive under XOR, so rare ^ rare and
common ^ common are rare, and rare ^ common is common. Hence every common option value
G(a) ^ G(b) has a rare side: scanning only the indices r with G(r) rare finds *all* common
option values. The mex is then found by walking g = 0, 1, 2, ...: a marked g is an option;
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

The loops run in C (:mod:`grundy.solvers.native.build`; one kernel, the code's digits are
its arguments) when a compiler is available, else in Python; both run the same algorithm
and also report the same work counters.

>>> octal_values("0.77", 11)                        # Kayles
[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
>>> octal_values("0.6", 12) == octal_values("0.6", 12, method="plain", native=False)
True
>>> octal_period("0.77", octal_values("0.77", 200))   # Kayles: period 12 from n = 71
(71, 12)
"""
from __future__ import annotations

import ctypes
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache

from grundy.solvers.native import build
from grundy.spec.games.octal import OctalHeaps, parse_code, slot_bound
from grundy.spec.position import InputError

MAX_N = 2**31 - 2          # stamps are h + 1 in 32 bits
MAX_WHT_BITS = 20          # the mask is chosen only while values have at most 20 bits
FIRST_CHECK, CHECK_STEP = 64, 65_536


@dataclass
class OctalRun:
    """Values G(0..n) and what the computation did.

    ``mask``: the final mask (0 for the plain method); ``rares``: heaps 1..n whose value is
    rare under it; ``mask_changes``: how often the mask was replaced; ``rare_pairs``: splits
    looked at through the rare list; ``full_pairs``: splits looked at by the resumed full
    scans (for the plain method, every split).
    """

    code: str
    values: list[int]
    method: str
    native: bool
    mask: int = 0
    rares: int = 0
    mask_changes: int = 0
    rare_pairs: int = 0
    full_pairs: int = 0

    def counters(self) -> tuple[int, int, int, int, int]:
        return (self.mask, self.rares, self.mask_changes, self.rare_pairs, self.full_pairs)


# ------------------------------------------------------------------------------------ C kernel

_C_SOURCE = r"""
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint32_t u32;
typedef int64_t i64;

#define FIRST_CHECK %(first)d
#define CHECK_STEP %(step)d
#define MAX_WHT_BITS %(whtbits)d

static int bitlen(u32 x) { int b = 0; while (x) { b++; x >>= 1; } return b; }
static int parity(u32 x) { return __builtin_parity(x); }

/* seen[v] == stamp: v is an option of the current heap. Grown to 2^bits(max value) + 1,
   which bounds every XOR of values and the mex. */
static int grow(u32 **seen, i64 *cap, i64 need) {
    if (need <= *cap) return 0;
    i64 nc = *cap ? *cap : 1024;
    while (nc < need) nc *= 2;
    u32 *p = (u32 *)realloc(*seen, (size_t)nc * sizeof(u32));
    if (!p) return -1;
    memset(p + *cap, 0, (size_t)(nc - *cap) * sizeof(u32));
    *seen = p; *cap = nc;
    return 0;
}

/* stats: mask, rares, mask changes, rare pairs, full pairs */
int octal_plain(const int *d, int L, i64 n, u32 *G, i64 *stats) {
    u32 *seen = NULL; i64 cap = 0; u32 maxg = 0; i64 pairs = 0;
    if (grow(&seen, &cap, 2)) return -1;
    for (i64 h = 0; h <= n; h++) {
        u32 st = (u32)(h + 1);
        for (int k = 0; k < L; k++) {
            int dk = d[k];
            if (k > 0 && (dk & 1) && h == k) seen[0] = st;
            if (k > 0 && (dk & 2) && h > k) seen[G[h - k]] = st;
            if ((dk & 4) && h - k >= 2) {
                i64 m = h - k, half = m / 2;
                for (i64 a = 1; a <= half; a++) seen[G[a] ^ G[m - a]] = st;
                pairs += half;
            }
        }
        u32 g = 0;
        while (seen[g] == st) g++;
        G[h] = g;
        if (g > maxg) {
            maxg = g;
            if (grow(&seen, &cap, ((i64)1 << bitlen(maxg)) + 1)) { free(seen); return -1; }
        }
    }
    free(seen);
    stats[0] = 0; stats[1] = n; stats[2] = 0; stats[3] = 0; stats[4] = pairs;
    return 0;
}

/* The non-zero mask making the fewest of G[0..h] rare (ties: the smallest), or 0 when none
   makes fewer rare than `current` does, or the values are too wide. */
static i64 choose_mask(const u32 *G, i64 h, int vb, u32 current, u32 *out) {
    *out = current;
    if (vb == 0 || vb > MAX_WHT_BITS) return 0;
    i64 size = (i64)1 << vb;
    i64 *W = (i64 *)calloc((size_t)size, sizeof(i64));
    if (!W) return -1;
    for (i64 i = 0; i <= h; i++) W[G[i]]++;
    for (i64 len = 1; len < size; len <<= 1)
        for (i64 i = 0; i < size; i += 2 * len)
            for (i64 j = i; j < i + len; j++) {
                i64 a = W[j], b = W[j + len];
                W[j] = a + b; W[j + len] = a - b;
            }
    u32 best = 0; i64 bw = 0;
    for (i64 M = 1; M < size; M++)
        if (best == 0 || W[M] < bw) { best = (u32)M; bw = W[M]; }
    if (current == 0 || bw < W[current]) *out = best;
    free(W);
    return 0;
}

int octal_sparse(const int *d, int L, i64 n, i64 fixed, u32 *G, i64 *stats) {
    u32 *seen = NULL; i64 cap = 0; u32 maxg = 0; int vb = 0;
    u32 mask = fixed >= 0 ? (u32)fixed : 0;
    int adaptive = fixed < 0;
    i64 nr = 0, rare_pairs = 0, full_pairs = 0, changes = 0, next_check = FIRST_CHECK;
    u32 *R = (u32 *)malloc((size_t)(n + 1) * sizeof(u32));   /* heaps >= 1 with a rare value */
    i64 *cur = (i64 *)malloc((size_t)L * sizeof(i64));       /* resumed full scan, per digit */
    if (!R || !cur || grow(&seen, &cap, 2)) { free(R); free(cur); free(seen); return -1; }
    for (i64 h = 0; h <= n; h++) {
        u32 st = (u32)(h + 1);
        for (int k = 0; k < L; k++) {
            int dk = d[k];
            cur[k] = 1;
            if (k > 0 && (dk & 1) && h == k) seen[0] = st;
            if (k > 0 && (dk & 2) && h > k) seen[G[h - k]] = st;
            if ((dk & 4) && h - k >= 2) {
                i64 m = h - k, i = 0;
                for (; i < nr && R[i] < m; i++) seen[G[R[i]] ^ G[m - R[i]]] = st;
                rare_pairs += i;
                if (mask == 0) cur[k] = m / 2 + 1;   /* every heap is rare: nothing left */
            }
        }
        u32 g = 0;
        for (;;) {
            if (seen[g] == st) { g++; continue; }
            if (parity(g & mask)) break;            /* common and unmarked: not an option */
            int found = 0;
            for (int k = 0; k < L && !found; k++) {
                if (!(d[k] & 4) || h - k < 2) continue;
                i64 m = h - k, half = m / 2, a = cur[k];
                while (a <= half) {
                    u32 v = G[a] ^ G[m - a];
                    seen[v] = st; a++;
                    if (v == g) { found = 1; break; }
                }
                full_pairs += a - cur[k];
                cur[k] = a;
            }
            if (!found) break;                      /* every split seen: g is the mex */
            g++;
        }
        G[h] = g;
        if (h >= 1 && !parity(g & mask)) R[nr++] = (u32)h;
        if (g > maxg) {
            maxg = g; vb = bitlen(maxg);
            if (grow(&seen, &cap, ((i64)1 << vb) + 1)) { free(R); free(cur); free(seen); return -1; }
        }
        if (adaptive && h == next_check) {
            u32 nm;
            if (choose_mask(G, h, vb, mask, &nm)) { free(R); free(cur); free(seen); return -1; }
            if (nm != mask) {
                mask = nm; changes++; nr = 0;
                for (i64 i = 1; i <= h; i++) if (!parity(G[i] & mask)) R[nr++] = (u32)i;
            }
            next_check = next_check < CHECK_STEP ? 2 * next_check : next_check + CHECK_STEP;
        }
    }
    stats[0] = mask; stats[1] = nr; stats[2] = changes; stats[3] = rare_pairs; stats[4] = full_pairs;
    free(R); free(cur); free(seen);
    return 0;
}
""" % {"first": FIRST_CHECK, "step": CHECK_STEP, "whtbits": MAX_WHT_BITS}


@lru_cache(maxsize=1)
def _kernel() -> ctypes.CDLL:
    lib = build.load(_C_SOURCE)
    args = [ctypes.POINTER(ctypes.c_int), ctypes.c_int, ctypes.c_int64]
    lib.octal_plain.argtypes = args + [ctypes.POINTER(ctypes.c_uint32), ctypes.POINTER(ctypes.c_int64)]
    lib.octal_sparse.argtypes = args + [ctypes.c_int64, ctypes.POINTER(ctypes.c_uint32),
                                        ctypes.POINTER(ctypes.c_int64)]
    lib.octal_plain.restype = lib.octal_sparse.restype = ctypes.c_int
    return lib


def _native(digits: tuple[int, ...], n: int, method: str, mask: int | None) -> tuple[list[int], list[int]]:
    lib = _kernel()
    d = (ctypes.c_int * len(digits))(*digits)
    out = (ctypes.c_uint32 * (n + 1))()
    stats = (ctypes.c_int64 * 5)()
    if method == "plain":
        rc = lib.octal_plain(d, len(digits), n, out, stats)
    else:
        rc = lib.octal_sparse(d, len(digits), n, -1 if mask is None else mask, out, stats)
    if rc != 0:
        raise MemoryError(f"octal values up to {n}: out of memory")
    return list(out), list(stats)


# ------------------------------------------------------------------------------- Python twins

def _parity(x: int) -> int:
    return x.bit_count() & 1


def _grow(seen: list[int], vb: int) -> None:
    need = (1 << vb) + 1
    if need > len(seen):
        seen.extend([0] * (need - len(seen)))


def _py_plain(digits: tuple[int, ...], n: int) -> tuple[list[int], list[int]]:
    G: list[int] = []
    seen = [0, 0]
    pairs = 0
    maxg = 0
    for h in range(n + 1):
        st = h + 1
        for k, dk in enumerate(digits):
            if k > 0 and dk & 1 and h == k:
                seen[0] = st
            if k > 0 and dk & 2 and h > k:
                seen[G[h - k]] = st
            if dk & 4 and h - k >= 2:
                m = h - k
                for a in range(1, m // 2 + 1):
                    seen[G[a] ^ G[m - a]] = st
                pairs += m // 2
        g = 0
        while seen[g] == st:
            g += 1
        G.append(g)
        if g > maxg:
            maxg = g
            _grow(seen, maxg.bit_length())
    return G, [0, n, 0, 0, pairs]


def _py_choose_mask(G: list[int], vb: int, current: int) -> int:
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


def _py_sparse(digits: tuple[int, ...], n: int, fixed: int | None) -> tuple[list[int], list[int]]:
    G: list[int] = []
    seen = [0, 0]
    mask = fixed or 0
    R: list[int] = []
    rare_pairs = full_pairs = changes = 0
    maxg = vb = 0
    next_check = FIRST_CHECK
    breaks = [k for k, dk in enumerate(digits) if dk & 4]
    for h in range(n + 1):
        st = h + 1
        cur: dict[int, int] = {}
        for k, dk in enumerate(digits):
            if k > 0 and dk & 1 and h == k:
                seen[0] = st
            if k > 0 and dk & 2 and h > k:
                seen[G[h - k]] = st
            if dk & 4 and h - k >= 2:
                m = h - k
                i = bisect_left(R, m)
                for r in R[:i]:
                    seen[G[r] ^ G[m - r]] = st
                rare_pairs += i
                cur[k] = m // 2 + 1 if mask == 0 else 1
        g = 0
        while True:
            if seen[g] == st:
                g += 1
                continue
            if _parity(g & mask):
                break                                   # common and unmarked: not an option
            found = False
            for k in breaks:
                if h - k < 2:
                    continue
                m = h - k
                a = start = cur[k]
                while a <= m // 2:
                    v = G[a] ^ G[m - a]
                    seen[v] = st
                    a += 1
                    if v == g:
                        found = True
                        break
                full_pairs += a - start
                cur[k] = a
                if found:
                    break
            if not found:
                break
            g += 1
        G.append(g)
        if h >= 1 and not _parity(g & mask):
            R.append(h)
        if g > maxg:
            maxg = g
            vb = maxg.bit_length()
            _grow(seen, vb)
        if fixed is None and h == next_check:
            nm = _py_choose_mask(G, vb, mask)
            if nm != mask:
                mask, changes = nm, changes + 1
                R = [i for i in range(1, h + 1) if not _parity(G[i] & mask)]
            next_check = 2 * next_check if next_check < CHECK_STEP else next_check + CHECK_STEP
    return G, [mask, len(R), changes, rare_pairs, full_pairs]


# ------------------------------------------------------------------------------------ the API

def octal_run(code: str, n: int, *, method: str = "sparse", native: bool | None = None,
              mask: int | None = None) -> OctalRun:
    """G(0..n) of one heap under ``code``, with the work counters (see :class:`OctalRun`).

    ``method``: "sparse" or "plain". ``native``: None uses C when a compiler is available;
    False forces Python; True requires C. ``mask`` fixes the sparse method's mask (any
    mask gives the same values; None chooses it as the module docstring says).

    >>> r = octal_run("0.07", 20, native=False); r.values[:10], r.method
    ([0, 0, 1, 1, 2, 0, 3, 1, 1, 0], 'sparse')
    >>> octal_run("0.07", 20, mask=5).values == r.values
    True
    """
    digits = parse_code(code)
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise InputError("n", f"must be a natural number, got {n!r}")
    if n > MAX_N:
        raise InputError("n", f"{n} is too large (at most {MAX_N})")
    if method not in ("sparse", "plain"):
        raise ValueError(f"method must be 'sparse' or 'plain', got {method!r}")
    if mask is not None and not 0 <= mask < 2**32:
        raise ValueError(f"mask must be in 0..2^32 - 1, got {mask}")
    use_c = build.available() if native is None else native
    if use_c:
        values, stats = _native(digits, n, method, mask)
    elif method == "plain":
        values, stats = _py_plain(digits, n)
    else:
        values, stats = _py_sparse(digits, n, mask)
    return OctalRun(code, values, method, bool(use_c), *stats)


def octal_values(code: str, n: int, *, method: str = "sparse", native: bool | None = None) -> list[int]:
    """The Grundy values G(0), ..., G(n) of a single heap under the octal ``code``.

    >>> octal_values("0.137", 16)                     # Dawson's chess
    [0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2]
    >>> octal_values("4.0", 8)                        # split a heap in two, nothing else
    [0, 0, 1, 0, 1, 0, 1, 0, 1]
    """
    return octal_run(code, n, method=method, native=native).values


def last_digit(code: str) -> int:
    """The position t of the code's last non-zero digit (the most tokens a move removes); 0 if none.

    >>> last_digit("0.137"), last_digit("4.0"), last_digit("0.070")
    (3, 0, 2)
    """
    digits = parse_code(code)
    return max((k for k, d in enumerate(digits) if d), default=0)


def octal_period(code: str, values: list[int]) -> tuple[int, int] | None:
    """(preperiod n0, period p) that ``values`` = G(0..N) prove by the octal periodicity theorem.

    Guy-Smith: with t the code's last non-zero digit, if G(n + p) = G(n) for every n with
    n0 <= n < 2 n0 + p + t, then for every n >= n0. (For n0 = 0 we check one more n, up to
    p + t: at N = p + t the theorem's induction would match the split p + p of N + p with the
    "split" p + 0 of N, which is not a break; one more checked value closes that gap.) The
    least p is returned with the least n0 for it; None if no period is proved by these values.

    >>> octal_period("0.07", octal_values("0.07", 200))     # Dawson's Kayles
    (53, 34)
    >>> octal_period("0.6", octal_values("0.6", 200)) is None
    True
    """
    t = last_digit(code)
    N = len(values) - 1
    for p in range(1, N + 1):
        # the least n0 for p: one past the last n with G(n + p) != G(n)
        n = N - p
        while n >= 0 and values[n + p] == values[n]:
            n -= 1
        n0 = n + 1
        end = 2 * n0 + p + t + (1 if n0 == 0 else 0)   # check n0 <= n < end: needs G up to end - 1 + p
        if end - 1 + p <= N:
            return n0, p
        if 2 * p + t > N:                               # no larger p can be proved either
            return None
    return None


class HeapTables:
    """One-heap values per octal code, grown on demand (doubling): the Grundy value of an octal
    position whose structure has room for every break is the XOR of its heaps' values.

    >>> from grundy.spec import read_position
    >>> p = read_position({"game": "octal", "code": "0.6", "heaps": [100000, 3]})
    >>> g = octal_values("0.6", 100000)
    >>> HeapTables().value(p) == g[100000] ^ g[3]
    True
    """

    def __init__(self) -> None:
        self.tables: dict[str, list[int]] = {}

    def value(self, pos) -> int | None:
        """The position's Grundy value, or None if it is not an octal position this applies to."""
        g = pos.structure
        if not isinstance(g, OctalHeaps) or pos.convention != "normal":
            return None
        heaps = list(pos.state)
        if slot_bound(g.digits, heaps) > g.n:       # a break could lack a slot: not a plain sum
            return None
        top = max(heaps, default=0)
        table = self.tables.get(g.code, [])
        if top >= len(table):
            table = octal_values(g.code, max(top, 2 * len(table), 64))
            self.tables[g.code] = table
        x = 0
        for h in heaps:
            x ^= table[h]
        return x
