"""The relearning's membership search in C: the misère outcome of a sum of heaps <= n by search,
as :class:`.recalibrate._Oracle` computes it in Python, built with the C compiler the kernels use
(:mod:`grundy.solvers.native.build`); the same answers (``tests/test_misere_relearn.py``).

A sum is its heaps sorted (at most 255 tokens a heap). A sum of heaps < n is answered by Q_{n-1}
(its table ``old[h][x] = x Phi(h)`` and P), a sum lighter than the certified bound by the
certified hypothesis (its action ``hyp[h][x]`` and P), any other by its options, each sum
searched once (a hash table kept between calls). A call stops after ``budget`` new sums and says
so (2): the caller looks at its clock and calls again (what was stored stays).

>>> from grundy.solvers.misere.check import search_outcomes
>>> from grundy.solvers.misere.quotient import code_options, quotient_of
>>> from grundy.spec.heaprule import parse_octal
>>> opts = code_options(parse_octal("0.77"))                       # Kayles, heaps <= 9
>>> parts = [[]] + [sorted({tuple(sorted(o)) for o in opts(h)}) for h in range(1, 10)]
>>> q8 = quotient_of(opts, 8)
>>> m = q8.q.monoid
>>> s = NativeSearch.make(parts, 9)
>>> if s is not None:
...     s.set_old([[m.times(x, e) for x in range(m.size)] for e in q8.phi], q8.q.p)
>>> truth = search_outcomes(opts, 24)
>>> s is None or all(s.outcome(p, lambda: None) == truth[p] for p in truth if p and p[-1] == 9)
True
"""
from __future__ import annotations

import ctypes
from typing import Callable, Sequence

from ...errors import BuildError
from ..native import build

__all__ = ["NativeSearch", "C_SOURCE"]

C_SOURCE = r"""
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
typedef struct {
  int n, maxlen;
  const int32_t *optoff, *opts;      /* options of heap h: opts[optoff[h] .. optoff[h+1]) as (k, parts...) */
  const int32_t *old; int qs; const uint8_t *oldp;       /* Q_{n-1}: old[h*qs + x], P */
  const int32_t *hyp; int hs; const uint8_t *hypp;      /* certified hypothesis: hyp[(h-1)*hs + x], P */
  const int32_t *weight; int64_t bound;
  uint8_t *keys; int64_t keycap, keylen;                /* memo: keys (len byte + heaps), values */
  int64_t *slot; uint8_t *val; int64_t cap, used;
  int64_t budget;
} Ctx;

static uint64_t hsh(const uint8_t *p, int len) {
  uint64_t h = 1469598103934665603ULL ^ (uint64_t)len;
  for (int i = 0; i < len; i++) { h ^= p[i]; h *= 1099511628211ULL; }
  return h ^ (h >> 29);
}

static int grow(Ctx *c) {
  int64_t ncap = c->cap ? 2 * c->cap : 1 << 16;
  int64_t *ns = malloc(ncap * sizeof(int64_t));
  uint8_t *nv = malloc(ncap);
  if (!ns || !nv) { free(ns); free(nv); return -1; }
  for (int64_t i = 0; i < ncap; i++) ns[i] = -1;
  for (int64_t i = 0; i < c->cap; i++) if (c->slot[i] >= 0) {
    const uint8_t *k = c->keys + c->slot[i];
    uint64_t j = hsh(k + 1, k[0]) & (ncap - 1);
    while (ns[j] >= 0) j = (j + 1) & (ncap - 1);
    ns[j] = c->slot[i]; nv[j] = c->val[i];
  }
  free(c->slot); free(c->val);
  c->slot = ns; c->val = nv; c->cap = ncap;
  return 0;
}

/* the slot of a sum (its key found or the empty slot where it goes) */
static int64_t find(Ctx *c, const uint8_t *p, int len) {
  uint64_t j = hsh(p, len) & (c->cap - 1);
  while (c->slot[j] >= 0) {
    const uint8_t *k = c->keys + c->slot[j];
    if (k[0] == len && !memcmp(k + 1, p, len)) return (int64_t)j;
    j = (j + 1) & (c->cap - 1);
  }
  return (int64_t)j;
}

static int store(Ctx *c, const uint8_t *p, int len, int v) {
  if (4 * (c->used + 1) > 3 * c->cap && grow(c)) return -1;
  if (c->keylen + len + 1 > c->keycap) {
    int64_t nk = c->keycap ? 2 * c->keycap : 1 << 20;
    while (nk < c->keylen + len + 1) nk *= 2;
    uint8_t *k = realloc(c->keys, nk);
    if (!k) return -1;
    c->keys = k; c->keycap = nk;
  }
  int64_t j = find(c, p, len);
  c->keys[c->keylen] = (uint8_t)len;
  memcpy(c->keys + c->keylen + 1, p, len);
  c->slot[j] = c->keylen; c->val[j] = (uint8_t)v;
  c->keylen += len + 1; c->used++;
  return 0;
}

/* 1: P, 0: N, 2: out of budget, 3: out of memory, 4: a sum of more than 255 heaps */
static int search(Ctx *c, const uint8_t *p, int len) {
  if (len == 0 || p[len - 1] < c->n) {
    int x = 0;
    for (int i = 0; i < len; i++) x = c->old[p[i] * c->qs + x];
    return c->oldp[x];
  }
  int64_t w = 0;
  for (int i = 0; i < len; i++) w += c->weight[p[i]];
  if (w < c->bound) {
    int x = 0;
    for (int i = 0; i < len; i++) x = c->hyp[(p[i] - 1) * c->hs + x];
    return c->hypp[x];
  }
  if (c->cap == 0 && grow(c)) return 3;
  int64_t j = find(c, p, len);
  if (c->slot[j] >= 0) return c->val[j];
  if (c->budget-- <= 0) return 2;
  uint8_t q[256];
  int moved = 0, res = 1;
  for (int i = 0; i < len && res; i++) {
    if (i && p[i - 1] == p[i]) continue;
    int h = p[i];
    for (int o = c->optoff[h]; o < c->optoff[h + 1] && res; ) {
      int k = c->opts[o];
      const int32_t *ps = c->opts + o + 1;
      o += 1 + k;
      moved = 1;
      if (len - 1 + k > 255) return 4;
      /* rest (p without index i) merged with the parts ps (sorted) */
      int a = 0, b = 0, m = 0;
      while (a < len || b < k) {
        if (a == i) { a++; continue; }
        if (b >= k || (a < len && p[a] <= ps[b])) q[m++] = p[a++];
        else q[m++] = (uint8_t)ps[b++];
      }
      int r = search(c, q, m);
      if (r >= 2) return r;
      if (r == 1) res = 0;
    }
  }
  int v = moved && res;
  if (store(c, p, len, v)) return 3;
  return v;
}

Ctx *oracle_new(void) { Ctx *c = calloc(1, sizeof(Ctx)); return c; }
void oracle_free(Ctx *c) { if (c) { free(c->keys); free(c->slot); free(c->val); free(c); } }
int64_t oracle_size(Ctx *c) { return c->used; }

int oracle_ask(Ctx *c, int n, const int32_t *optoff, const int32_t *opts,
               const int32_t *old, int qs, const uint8_t *oldp,
               const int32_t *hyp, int hs, const uint8_t *hypp, const int32_t *weight, int64_t bound,
               const uint8_t *pos, int len, int64_t budget) {
  c->n = n; c->optoff = optoff; c->opts = opts; c->old = old; c->qs = qs; c->oldp = oldp;
  c->hyp = hyp; c->hs = hs; c->hypp = hypp; c->weight = weight; c->bound = bound; c->budget = budget;
  return search(c, pos, len);
}
"""

_I32 = ctypes.POINTER(ctypes.c_int32)
_U8 = ctypes.POINTER(ctypes.c_uint8)


def _lib() -> ctypes.CDLL | None:
    if not build.available():
        return None
    try:
        lib = build.load(C_SOURCE)
    except BuildError:
        return None
    lib.oracle_new.restype = ctypes.c_void_p
    lib.oracle_free.argtypes = [ctypes.c_void_p]
    lib.oracle_size.restype = ctypes.c_int64
    lib.oracle_size.argtypes = [ctypes.c_void_p]
    lib.oracle_ask.restype = ctypes.c_int
    lib.oracle_ask.argtypes = [ctypes.c_void_p, ctypes.c_int, _I32, _I32, _I32, ctypes.c_int, _U8,
                               _I32, ctypes.c_int, _U8, _I32, ctypes.c_int64, _U8, ctypes.c_int, ctypes.c_int64]
    return lib


def _i32(xs: Sequence[int]) -> ctypes.Array:
    return (ctypes.c_int32 * max(1, len(xs)))(*xs)


def _u8(xs: Sequence[int]) -> ctypes.Array:
    return (ctypes.c_uint8 * max(1, len(xs)))(*xs)


class NativeSearch:
    """Misère outcomes of sums of heaps <= n by search in C (see the module's text)."""

    BUDGET = 1 << 16            # new sums searched between two looks at the clock

    def __init__(self, lib: ctypes.CDLL, parts: list[list[tuple[int, ...]]], n: int):
        self.lib, self.n = lib, n
        off, flat = [0], []
        for h in range(n + 1):
            for ps in (parts[h] if h < len(parts) else []):
                flat += [len(ps), *ps]
            off.append(len(flat))
        self.optoff, self.opts = _i32(off), _i32(flat)
        self.ctx: ctypes.c_void_p | None = ctypes.c_void_p(lib.oracle_new())
        self.old: tuple[ctypes.Array, int, ctypes.Array] = (_i32([0]), 1, _u8([0]))
        self.hyp: tuple[ctypes.Array, int, ctypes.Array] = (_i32([0]), 1, _u8([0]))
        self.weight = _i32(range(n + 1))
        self.bound = 0

    @classmethod
    def make(cls, parts: list[list[tuple[int, ...]]], n: int) -> "NativeSearch | None":
        """The search for heaps <= n (``parts[h]``: the options of heap h, sorted parts), or None
        where no C compiler serves, a heap has more than 255 tokens or a sum could exceed 255 heaps."""
        lib = _lib()
        if lib is None or n > 255:
            return None
        return cls(lib, parts, n)

    def __del__(self) -> None:
        if getattr(self, "ctx", None) is not None:
            self.lib.oracle_free(self.ctx)
            self.ctx = None

    def set_old(self, cols: list[list[int]], p: frozenset[int]) -> None:
        """Q_{n-1}: ``cols[h][x]`` = x Phi(h) for h < n, its P."""
        qs = len(cols[0]) if cols else 1
        self.old = (_i32([v for col in cols for v in col]), qs, _u8([x in p for x in range(qs)]))

    def certify(self, act: list[list[int]], p: frozenset[int], weight: Sequence[int], bound: int) -> None:
        """A hypothesis right on every sum weighing less than ``bound`` (``act[h - 1][x]``)."""
        hs = len(act[0]) if act else 1
        self.hyp = (_i32([v for row in act for v in row]), hs, _u8([x in p for x in range(hs)]))
        self.weight, self.bound = _i32(weight), bound

    @property
    def size(self) -> int:
        """The sums stored (searched in C)."""
        return int(self.lib.oracle_size(self.ctx)) if self.ctx is not None else 0

    def outcome(self, pos: tuple[int, ...], tick: Callable[[], None]) -> bool:
        """True iff the sum ``pos`` (sorted) is a misère P-position; ``tick()`` between budgets."""
        if len(pos) > 255:
            raise ValueError("more than 255 heaps")
        arr = _u8(pos)
        old, qs, oldp = self.old
        hyp, hs, hypp = self.hyp
        while True:
            r = self.lib.oracle_ask(self.ctx, self.n, self.optoff, self.opts, old, qs, oldp, hyp, hs, hypp,
                                    self.weight, self.bound, arr, len(pos), self.BUDGET)
            if r < 2:
                return bool(r)
            if r == 3:
                raise MemoryError("the relearning's search ran out of memory")
            if r == 4:
                raise ValueError("a sum of more than 255 heaps")
            tick()
