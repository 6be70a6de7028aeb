"""One-heap Grundy values of heap rules, and positions of many heaps as sums of them.

Every :class:`~grundy.spec.heaprule.HeapRule` game is a sum of single heaps: the value of
a position is the XOR of its heaps' values G(h) (:class:`HeapTables`, asked by the solver
for every game alike through :meth:`~grundy.spec.Game.heap_rule`). G(0..n) comes from the
rule itself (:func:`rule_values`: the rule's options compiled once, on a heap alone) or, for
a take-and-break code (:class:`~grundy.spec.heaprule.TakeBreak`: finite codes, infinite
codes, unequal splits), from the sparse-space method below (:func:`takebreak_run`).

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

The loops run in C (:mod:`grundy.solvers.native.build`; one kernel, the code's digits,
tail digit and ``unequal`` flag are its arguments) when a compiler is available, else in
Python; both run the same algorithm and also report the same work counters.

>>> takebreak_run(TakeBreak((0, 7, 7)), 11).values          # code 0.77
[0, 1, 2, 3, 1, 4, 3, 2, 1, 4, 2, 6]
>>> takebreak_run(TakeBreak((4,), unequal=True), 12, native=False).values   # unequal splits
[0, 0, 0, 1, 0, 2, 1, 0, 2, 1, 0, 2, 1]
>>> period(TakeBreak((0, 7, 7)), takebreak_run(TakeBreak((0, 7, 7)), 200).values)
Period(preperiod=71, period=12, proved=True)
"""
from __future__ import annotations

import ctypes
import json
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from grundy.caches import register
from grundy.errors import RuleError
from grundy.solvers.native import build
from grundy.spec.heaprule import NO_ROOM_WHY, HeapRule, OneHeap, TakeBreak
from grundy.spec.position import InputError, Position
from grundy.spec.structure import Structure

__all__ = ["HeapRun", "HeapTables", "Period", "heap_values", "period", "rule_values", "sum_of_heaps",
           "takebreak_run"]

MAX_N = 2**31 - 2          # stamps are h + 1 in 32 bits
MAX_WHT_BITS = 20          # the mask is chosen only while values have at most 20 bits
FIRST_CHECK, CHECK_STEP = 64, 65_536


@dataclass
class HeapRun:
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

#define DIG(k) ((k) < L ? d[k] : tail)

/* the highest k worth a look for heap h: every k with a digit, or (tail) every k <= h */
static i64 kmax(int L, int tail, i64 h) { return tail ? h : (i64)L - 1; }

/* stats: mask, rares, mask changes, rare pairs, full pairs */
int tb_plain(const int *d, int L, int tail, int uneq, i64 n, u32 *G, i64 *stats) {
    u32 *seen = NULL; i64 cap = 0; u32 maxg = 0; i64 pairs = 0;
    if (grow(&seen, &cap, 2)) return -1;
    for (i64 h = 0; h <= n; h++) {
        u32 st = (u32)(h + 1);
        i64 K = kmax(L, tail, h);
        for (i64 k = 0; k <= K; k++) {
            int dk = DIG(k);
            if (k > 0 && (dk & 1) && h == k) seen[0] = st;
            if (k > 0 && (dk & 2) && h > k) seen[G[h - k]] = st;
            if ((dk & 4) && h - k >= 2) {
                i64 m = h - k, half = uneq ? (m - 1) / 2 : m / 2;
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

int tb_sparse(const int *d, int L, int tail, int uneq, i64 n, i64 fixed, u32 *G, i64 *stats) {
    u32 *seen = NULL; i64 cap = 0; u32 maxg = 0; int vb = 0;
    u32 mask = fixed >= 0 ? (u32)fixed : 0;
    int adaptive = fixed < 0;
    i64 nr = 0, rare_pairs = 0, full_pairs = 0, changes = 0, next_check = FIRST_CHECK;
    i64 ncur = tail ? n + 1 : L;
    u32 *R = (u32 *)malloc((size_t)(n + 1) * sizeof(u32));   /* heaps >= 1 with a rare value */
    i64 *cur = (i64 *)malloc((size_t)ncur * sizeof(i64));    /* resumed full scan, per k */
    if (!R || !cur || grow(&seen, &cap, 2)) { free(R); free(cur); free(seen); return -1; }
    for (i64 h = 0; h <= n; h++) {
        u32 st = (u32)(h + 1);
        i64 K = kmax(L, tail, h);
        for (i64 k = 0; k <= K; k++) {
            int dk = DIG(k);
            cur[k] = 1;
            if (k > 0 && (dk & 1) && h == k) seen[0] = st;
            if (k > 0 && (dk & 2) && h > k) seen[G[h - k]] = st;
            if ((dk & 4) && h - k >= 2) {
                i64 m = h - k, i = 0;
                for (; i < nr && R[i] < m; i++)
                    if (!(uneq && 2 * (i64)R[i] == m)) seen[G[R[i]] ^ G[m - R[i]]] = st;
                rare_pairs += i;
                if (mask == 0) cur[k] = m / 2 + 1;   /* every heap is rare: nothing left */
            }
        }
        u32 g = 0;
        for (;;) {
            if (seen[g] == st) { g++; continue; }
            if (parity(g & mask)) break;            /* common and unmarked: not an option */
            int found = 0;
            for (i64 k = 0; k <= K && !found; k++) {
                if (!(DIG(k) & 4) || h - k < 2) continue;
                i64 m = h - k, half = uneq ? (m - 1) / 2 : m / 2, a = cur[k];
                while (a <= half) {
                    u32 v = G[a] ^ G[m - a];
                    seen[v] = st; a++;
                    if (v == g) { found = 1; break; }
                }
                if (a > cur[k]) full_pairs += a - cur[k];
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
    args = [ctypes.POINTER(ctypes.c_int), ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_int64]
    lib.tb_plain.argtypes = args + [ctypes.POINTER(ctypes.c_uint32), ctypes.POINTER(ctypes.c_int64)]
    lib.tb_sparse.argtypes = args + [ctypes.c_int64, ctypes.POINTER(ctypes.c_uint32),
                                     ctypes.POINTER(ctypes.c_int64)]
    lib.tb_plain.restype = lib.tb_sparse.restype = ctypes.c_int
    return lib


def _native(code: TakeBreak, n: int, method: str, mask: int | None) -> tuple[list[int], list[int]]:
    lib = _kernel()
    digits = code.digits
    d = (ctypes.c_int * len(digits))(*digits)
    args = (d, len(digits), code.tail, int(code.unequal), n)
    out = (ctypes.c_uint32 * (n + 1))()
    stats = (ctypes.c_int64 * 5)()
    if method == "plain":
        rc = lib.tb_plain(*args, out, stats)
    else:
        rc = lib.tb_sparse(*args, -1 if mask is None else mask, out, stats)
    if rc != 0:
        raise MemoryError(f"one-heap values up to {n}: out of memory")
    return list(out), list(stats)


# ------------------------------------------------------------------------------- Python twins

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
    one heap (bit 2); splits (bit 4) are each method's own."""
    if k > 0 and dk & 1 and h == k:
        seen[0] = st
    if k > 0 and dk & 2 and h > k:
        seen[G[h - k]] = st


def _py_plain(code: TakeBreak, n: int) -> tuple[list[int], list[int]]:
    G: list[int] = []
    seen = [0, 0]
    pairs = 0
    maxg = 0
    uneq = code.unequal
    for h in range(n + 1):
        st = h + 1
        for k in _ks(code, h):
            dk = code.digit(k)
            _mark_whole_heap_moves(G, seen, st, h, k, dk)
            if dk & 4 and h - k >= 2:
                m = h - k
                half = (m - 1) // 2 if uneq else m // 2
                for a in range(1, half + 1):
                    seen[G[a] ^ G[m - a]] = st
                pairs += half
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


def _py_sparse(code: TakeBreak, n: int, fixed: int | None) -> tuple[list[int], list[int]]:
    G: list[int] = []
    seen = [0, 0]
    mask = fixed or 0
    R: list[int] = []
    rare_pairs = full_pairs = changes = 0
    maxg = vb = 0
    next_check = FIRST_CHECK
    uneq = code.unequal
    for h in range(n + 1):
        st = h + 1
        cur: dict[int, int] = {}
        breaks = []
        for k in _ks(code, h):
            dk = code.digit(k)
            _mark_whole_heap_moves(G, seen, st, h, k, dk)
            if dk & 4 and h - k >= 2:
                m = h - k
                i = bisect_left(R, m)
                for r in R[:i]:
                    if not (uneq and 2 * r == m):
                        seen[G[r] ^ G[m - r]] = st
                rare_pairs += i
                cur[k] = m // 2 + 1 if mask == 0 else 1
                breaks.append(k)
        g = 0
        while True:
            if seen[g] == st:
                g += 1
                continue
            if _parity(g & mask):
                break                                   # common and unmarked: not an option
            found = False
            for k in breaks:
                m = h - k
                half = (m - 1) // 2 if uneq else m // 2
                a = start = cur[k]
                while a <= half:
                    v = G[a] ^ G[m - a]
                    seen[v] = st
                    a += 1
                    if v == g:
                        found = True
                        break
                full_pairs += max(a - start, 0)
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

def _check_n(n: Any) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise InputError("n", f"must be a natural number, got {n!r}")
    if n > MAX_N:
        raise InputError("n", f"{n} is too large (at most {MAX_N})")


def takebreak_run(code: TakeBreak, n: int, *, method: str = "sparse", native: bool | None = None,
                  mask: int | None = None) -> HeapRun:
    """G(0..n) of one heap under a take-and-break ``code``, with the work counters (see
    :class:`HeapRun`).

    ``method``: "sparse" or "plain". ``native``: None uses C when a compiler is available;
    False forces Python; True requires C. ``mask`` fixes the sparse method's mask (any
    mask gives the same values; None chooses it as the module docstring says).

    >>> r = takebreak_run(TakeBreak((0, 0, 7)), 20, native=False); r.values[:10], r.method
    ([0, 0, 1, 1, 2, 0, 3, 1, 1, 0], 'sparse')
    >>> takebreak_run(TakeBreak((0, 0, 7)), 20, mask=5).values == r.values
    True
    """
    _check_n(n)
    if method not in ("sparse", "plain"):
        raise ValueError(f"method must be 'sparse' or 'plain', got {method!r}")
    if mask is not None and not 0 <= mask < 2**32:
        raise ValueError(f"mask must be in 0..2^32 - 1, got {mask}")
    use_c = build.available() if native is None else native
    if use_c:
        values, stats = _native(code, n, method, mask)
    elif method == "plain":
        values, stats = _py_plain(code, n)
    else:
        values, stats = _py_sparse(code, n, mask)
    return HeapRun(code.text, values, method, bool(use_c), *stats)


_DERIVED = ("fields", "moves", "heap_rule", "one_heap", "one_heap_rules", "max_parts")


def sum_of_heaps(game: Any, g: Structure) -> OneHeap | None:
    """The game's one-heap rule on ``g`` when its positions are sums of heaps *by construction*:
    a :class:`~grundy.spec.HeapRule` whose moves (and what they are made from: fields, the
    one-heap form) are HeapRule's own derivation from its ``options``. None for any other game:
    a ``heap_rule`` capability another game claims, or a HeapRule overriding its derivation, is
    not used (its positions are solved from their moves).

    >>> from grundy.spec.games import get_game
    >>> from grundy.spec.heaprule import rule_heaps
    >>> sum_of_heaps(get_game("lasker-nim"), rule_heaps(2)) is not None
    True
    >>> class Claimed(HeapRule):           # a HeapRule whose moves are its own: no tables
    ...     name = "doc-claimed"
    ...     def moves(self, g, s):
    ...         return HeapRule.moves(self, g, s)
    >>> sum_of_heaps(Claimed(), rule_heaps(2)) is None
    True
    """
    if not isinstance(game, HeapRule):
        return None
    cls = type(game)
    if any(name in vars(game) or getattr(cls, name) is not getattr(HeapRule, name) for name in _DERIVED):
        return None
    return game.heap_rule(g)


_ENUMERATORS: dict[tuple, Any] = {}
register("heap-options", lambda: len(_ENUMERATORS), lambda: _ENUMERATORS.clear())


def _enumerator(rule: OneHeap):
    """The rule's options on a heap alone, compiled once per game object and parameters: ``f(h)``
    lists (option index, choice values, parts)."""
    from .explicit.compile import compile_rules
    key = (id(rule.game), rule.key)            # the entry keeps the game alive: its id is not reused
    if key not in _ENUMERATORS:
        game, g = rule.game, rule.structure
        rules = game.one_heap_rules(g)
        options = compile_rules(rules, symmetry=False, decompose=False).options
        zeros = (0,) * (len(rules.schema) - 1)
        _ENUMERATORS[key] = (lambda h: options((h,) + zeros), game.one_heap(g)[1], game)
    return _ENUMERATORS[key][:2]


def rule_options(rule: OneHeap, h: int) -> list[tuple[str, list[int]]]:
    """The options of one heap of ``h`` under the rule: (label, non-zero parts), checked
    (a RuleError if an option makes tokens or leaves the heap as it was)."""
    enum, opts = _enumerator(rule)
    out = []
    for mi, cv, parts in enum(h):
        o = opts[mi]
        label = o.label.format(heap="{heap}", **{c.name: v for c, v in zip(o.choices, cv)})
        ps = [p for p in parts if p != 0]
        if any(p < 0 for p in parts) or sum(parts) > h or ps == [h]:
            raise RuleError(f"{rule.game.name}: option {label!r} of a heap of {h} leaves {list(parts)}: "
                            f"the parts of a heap must be >= 0, total at most the heap, and not be the heap itself")
        out.append((label, ps))
    return out


def rule_values(rule: OneHeap, n: int, start: list[int] | None = None) -> list[int]:
    """G(0..n) of one heap, from the rule's own options (mex of the XOR of the parts' values).

    >>> from grundy.spec import HeapRule, option
    >>> from grundy.spec.heaprule import rule_heaps
    >>> class TakeOneOrHalve(HeapRule):
    ...     name = "doc-take-or-halve"
    ...     def options(self, g, n):
    ...         yield option("take 1", parts=[n - 1])
    ...         yield option("halve", guard=n % 2 == 0, parts=[n // 2, n // 2])
    >>> rule_values(TakeOneOrHalve().heap_rule(rule_heaps(1)), 8)
    [0, 1, 2, 0, 1, 0, 1, 0, 1]
    """
    _check_n(n)
    G = list(start or [])
    enum, _ = _enumerator(rule)
    for h in range(len(G), n + 1):
        seen = set()
        for _, _, parts in enum(h):
            x = total = big = 0
            for p in parts:
                if p < 0 or p >= h:
                    big += 1
                    break
                x ^= G[p]
                total += p
            if big or total > h:
                rule_options(rule, h)                   # raises the RuleError, naming the option
                raise RuleError(f"{rule.game.name}: an option of a heap of {h} leaves {list(parts)}")
            seen.add(x)
        g = 0
        while g in seen:
            g += 1
        G.append(g)
    return G


def heap_values(rule: OneHeap, n: int, *, native: bool | None = None) -> list[int]:
    """G(0..n) of one heap: the sparse-space method for a take-and-break code, else the rule's
    options."""
    if rule.code is not None:
        return takebreak_run(rule.code, n, native=native).values
    return rule_values(rule, n)


@dataclass(frozen=True)
class Period:
    """G(n + period) = G(n) for every n >= preperiod: ``proved`` by a periodicity theorem for
    the rule (codes without breaks: a window of the longest move repeats; finite codes: Guy and
    Smith), or only *apparent* (it holds for every value computed, at least twice over)."""

    preperiod: int
    period: int
    proved: bool

    def describe(self, name: str, n: int) -> str:
        how = f"proved by G(0..{n})" if self.proved else f"apparent in G(0..{n}), not proved"
        return f"{name}: period {self.period} from n = {self.preperiod} ({how})"


def _least_n0(values: list[int], p: int) -> int:
    n = len(values) - 1 - p
    while n >= 0 and values[n + p] == values[n]:
        n -= 1
    return n + 1


def period(code: TakeBreak | None, values: list[int]) -> Period | None:
    """The least period (with its least preperiod) of ``values`` = G(0..N): proved when a
    theorem covers the code, else apparent; None if there is none to report.

    A code without breaks and with a last digit t: G(n) for n > t
    depends only on G(n - t..n - 1), so a window of t values repeating p later, starting at
    n0, repeats forever (checked for n0 <= n < max(n0, 1) + t, the max keeping the heap of
    exactly t, whose "take all" is special, out of the induction). Finite codes with breaks:
    the periodicity theorem of Guy and Smith: if G(n + p) = G(n) for
    n0 <= n < 2 n0 + p + t, then for every n >= n0 (for n0 = 0 one more n is checked: at
    N = p + t the induction would match the split p + p of N + p with the "split" p + 0 of N). Otherwise (an infinite code,
    unequal splits, a rule without a code), the least p whose repetition covers G(n0..N) at
    least twice over is reported as apparent.

    >>> period(TakeBreak((0, 3, 0, 3, 3)), takebreak_run(TakeBreak((0, 3, 0, 3, 3)), 30).values)
    Period(preperiod=0, period=7, proved=True)
    """
    N = len(values) - 1
    if code is not None and code.last is not None and not code.unequal:
        t = code.last
        for p in range(1, N + 1):
            if (2 * p + t if code.breaks else p + t) > N:
                break                               # no larger p can be proved either
            n0 = _least_n0(values, p)
            end = 2 * n0 + p + t + (1 if n0 == 0 else 0) if code.breaks else max(n0, 1) + t
            if end - 1 + p <= N:                    # G(n + p) = G(n) checked for n0 <= n < end
                return Period(n0, p, True)
    for p in range(1, N // 3 + 1):
        n0 = _least_n0(values, p)
        if N + 1 - n0 >= 3 * p:                     # three periods seen after n0
            return Period(n0, p, False)
    return None


class HeapTables:
    """One-heap values per rule (a game and its parameters), grown on demand (doubling): the
    Grundy value of a position of a heap-rule game is the XOR of its heaps' values.

    >>> from grundy.spec import TakeAndBreak, make_position
    >>> class Code(TakeAndBreak):
    ...     name = "doc-0.6"
    ...     def code(self, g):
    ...         return TakeBreak((0, 6))
    >>> game = Code()
    >>> p = make_position(game, *game.read({"heaps": [100000, 3]}))
    >>> g = heap_values(game.heap_rule(p.structure), 100000)
    >>> HeapTables().value(p) == g[100000] ^ g[3]
    True
    """

    def __init__(self) -> None:
        self.tables: dict[tuple, tuple[Any, list[int]]] = {}   # (id of the game, parameters) -> (game, G)

    def table(self, rule: OneHeap, top: int) -> list[int]:
        key = (id(rule.game), rule.key)       # by the game object (kept with its table): two games
        table = self.tables.get(key, (None, []))[1]        # of one name never share a table
        if top >= len(table):
            if rule.code is not None:
                table = heap_values(rule, max(top, 2 * len(table), 64))
            else:
                table = rule_values(rule, max(top, 2 * len(table), 16), start=table)
            self.tables[key] = (rule.game, table)
        return table

    def value(self, pos: Position) -> int | None:
        """The position's Grundy value, or None if the game is not a sum of heaps by construction
        (:func:`sum_of_heaps`)."""
        if pos.convention != "normal":
            return None
        rule = sum_of_heaps(pos.game, pos.structure)
        if rule is None:
            return None
        heaps = rule.heaps(pos.state)
        table = self.table(rule, max(heaps, default=0))
        x = 0
        for h in heaps:
            x ^= table[h]
        return x

    def options(self, pos: Position) -> list[tuple[str, Position]] | None:
        """The moves of a position of a heap-rule game (one option in one heap), or None.
        The first part stays in the heap's slot, the others go to the first empty slots: the
        same positions as the game's moves on its slots."""
        return self._moves(pos, winning=False)

    def winning_moves(self, pos: Position) -> list[tuple[str, Position]] | None:
        """The moves to a position of value 0 (normal play), found from the one-heap values
        without building the other options; None if the game is not a sum of heaps."""
        if pos.convention != "normal":
            return None
        return self._moves(pos, winning=True)

    def _moves(self, pos: Position, winning: bool) -> list[tuple[str, Position]] | None:
        rule = sum_of_heaps(pos.game, pos.structure)
        if rule is None:
            return None
        state = pos.state
        empty = [j for j, h in enumerate(state) if h == 0]
        names = pos.structure.names
        total = self.value(pos) if winning else 0
        table = self.table(rule, max(state, default=0)) if winning else []
        out = []
        for i, h in enumerate(state):
            if h == 0:
                continue
            for label, parts in rule_options(rule, h):
                if winning:
                    x = total ^ table[h]          # parts are smaller than h: in the table
                    for p in parts:
                        x ^= table[p]
                    if x != 0:
                        continue
                if len(parts) - 1 > len(empty):
                    raise RuleError(f"{rule.game.name}: move {label.replace('{heap}', str(i + 1))!r} at "
                                    f"{json.dumps(pos.game.write(pos.structure, pos.values()))} does not "
                                    f"fit heaps on {len(state)}: {NO_ROOM_WHY}")
                new = list(state)
                new[i] = parts[0] if parts else 0
                for j, p in zip(empty, parts[1:]):
                    new[j] = p
                out.append((label.replace("{heap}", str(i + 1)), pos.with_state(tuple(new))))
        return out
