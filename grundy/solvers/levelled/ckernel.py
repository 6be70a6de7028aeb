"""The levelled solver's C: the kernel's generated moves and canonical form, driven by batches.

A :class:`LevelKernel` holds the C text of a kernel (:func:`grundy.solvers.native.codegen.kernel_source`:
the compiled rules, the box, the canonical form of the game's symmetry group when its premise
is proved) with four batch functions appended:

- ``lv_ranks``: the rules' rank at many keys (the rank expression compiled by the kernel's own
  C syntax);
- ``lv_canon``: the canonical keys of many keys;
- ``lv_expand``: every child of many positions, as (canonical child key, child rank, parent
  index); each child's rank is checked to be below its parent's and equal to its canonical
  form's (a canonical form that changed the rank would put a position in the wrong level:
  checked where it is used, status :data:`RANK_SYMMETRY`);
- ``lv_mex``: each parent's value from its children's (the mex, or the outcome: 1 if some
  child is 0).

The text is what a worker needs: :func:`library` builds (or finds on disk) and declares it in
any process, so a Dask task carries the text, never the rules.

>>> from grundy.spec.games import get_game
>>> from grundy.spec import Structure
>>> rules = get_game("nim").rules(Structure.heaps(2))
>>> if build.available():
...     k = LevelKernel.make(rules, [(2, 3)])
...     keys = k.keys([(2, 3)])
...     print(k.ranks(keys).tolist(), len(k.expand(keys, k.ranks(keys))[0]))
... else:
...     print([5], 5)
[5] 5
"""
from __future__ import annotations

import ctypes
from functools import lru_cache
from typing import Sequence

import numpy as np

from ...errors import GrundyError
from ...spec.game import Rules
from ..explicit.plan import emitter, shared_nodes, slot_sources
from ..native import build
from ..native.box import Box
from ..native.codegen import kernel_source
from ..native.csyntax import C
from ..native.kernel import batch_keys

__all__ = ["LevelKernel", "LevelError", "library", "extra_source", "GRUNDY", "OUTCOME", "RANK_ORDER",
           "RANK_SYMMETRY", "NEED_ROOM"]

GRUNDY, OUTCOME = 0, 1           # lv_mex's modes
RANK_ORDER, RANK_SYMMETRY, NEED_ROOM = 30, 31, 32     # lv_expand's own statuses

_WORDS = {1: "a child outside the box", 3: "a Grundy value above 253", 5: "out of memory",
          6: "a product overflowed 64 bits", 8: "a move left a field's domain",
          RANK_ORDER: "a move that does not lower the rank (or a negative rank)",
          RANK_SYMMETRY: "a canonical form with another rank than the position it stands for"}


class LevelError(GrundyError):
    """The levelled solver cannot go on (a status of its C, in words, and the key involved)."""


def extra_source(rules: Rules) -> str:
    """The batch functions appended to the kernel's text (see the module's docstring)."""
    em = emitter(slot_sources(rules), shared_nodes([rules.rank]), C)
    r = em.expr(rules.rank)
    body = "\n".join("    " + ln for ln in em.take_lines())
    return f"""
/* ---- the levelled solver's batches (grundy/solvers/levelled/ckernel.py) ---- */
static I lv_rank_s(const I *s) {{
{body}
    return (I)({r});
}}
int64_t lv_ranks(const K *keys, int64_t n, I *out) {{
    I s[NS > 0 ? NS : 1];
    for (int64_t i = 0; i < n; i++) {{ unpack(keys[i], s); out[i] = lv_rank_s(s); }}
    if (mul_overflow) {{ mul_overflow = 0; return -6; }}
    return 0;
}}
int64_t lv_canon(const K *keys, int64_t n, K *out) {{
    for (int64_t i = 0; i < n; i++) out[i] = canon(keys[i]);
    return 0;
}}
int64_t lv_expand(const K *keys, const I *ranks, int64_t n, int64_t *at, int64_t cap,
                  K *child, I *crank, int64_t *parent, K *bad) {{
    Buf b = {{0}};
    I s[NS > 0 ? NS : 1], c[NS > 0 ? NS : 1];
    int64_t m = 0, i, st = 0;
    for (i = *at; i < n; i++) {{
        b.n = 0;
        unpack(keys[i], s);
        successors(keys[i], s, &b);
        if (mul_overflow) {{ mul_overflow = 0; st = 6; break; }}
        if (b.err) {{ st = b.err; break; }}
        if (m + b.n > cap) {{ if (!m) {{ st = {NEED_ROOM}; *bad = (K)b.n; }} break; }}
        for (int64_t j = 0; j < b.n; j++) {{
            K k = b.keys[j], k2 = canon(k);
            unpack(k, c);
            I r = lv_rank_s(c);
            if (k2 != k) {{ unpack(k2, c); if (lv_rank_s(c) != r) {{ st = {RANK_SYMMETRY}; break; }} }}
            if (r >= ranks[i] || r < 0) {{ st = {RANK_ORDER}; break; }}
            child[m] = k2; crank[m] = r; parent[m] = i; m++;
        }}
        if (mul_overflow) {{ mul_overflow = 0; st = 6; }}
        if (st) break;
    }}
    if (st && st != {NEED_ROOM}) *bad = keys[i];
    *at = i;
    free(b.keys); free(b.rank);
    return st ? -st : m;
}}
/* parents 0..np-1; pairs (parent[j], cval[j]) sorted by parent; out[p]: the mex of p's children's
   values (mode 0), or 1 if one of them is 0 (mode 1); no children: 0. */
int64_t lv_mex(const int64_t *parent, const uint8_t *cval, int64_t m, uint8_t *out, int64_t np, int mode) {{
    int64_t j = 0;
    for (int64_t p = 0; p < np; p++) {{
        uint64_t seen[4] = {{0, 0, 0, 0}};
        for (; j < m && parent[j] == p; j++) seen[cval[j] >> 6] |= 1ULL << (cval[j] & 63);
        int v = 0;
        if (mode) v = (int)(seen[0] & 1);
        else {{ while (v < 256 && (seen[v >> 6] >> (v & 63) & 1)) v++; }}
        if (v > 253) return -3;
        out[p] = (uint8_t)v;
    }}
    return j == m ? 0 : -{RANK_ORDER};
}}
"""


P64, PI64, PU8 = ctypes.POINTER(ctypes.c_uint64), ctypes.POINTER(ctypes.c_int64), ctypes.POINTER(ctypes.c_uint8)


@lru_cache(maxsize=16)
def library(text: str) -> ctypes.CDLL:
    """The library of ``text`` (a kernel's source with :func:`extra_source`), built with -O2
    unless on disk already, its batch functions declared."""
    lib = build.load(text)
    lib.lv_ranks.argtypes = [P64, ctypes.c_int64, PI64]
    lib.lv_ranks.restype = ctypes.c_int64
    lib.lv_canon.argtypes = [P64, ctypes.c_int64, P64]
    lib.lv_canon.restype = ctypes.c_int64
    lib.lv_expand.argtypes = [P64, PI64, ctypes.c_int64, PI64, ctypes.c_int64, P64, PI64, PI64, P64]
    lib.lv_expand.restype = ctypes.c_int64
    lib.lv_mex.argtypes = [PI64, PU8, ctypes.c_int64, PU8, ctypes.c_int64, ctypes.c_int]
    lib.lv_mex.restype = ctypes.c_int64
    lib.k_keys.argtypes = [ctypes.c_void_p, ctypes.c_int64, P64]
    lib.k_keys.restype = ctypes.c_int64
    return lib


def _p(a: np.ndarray, t):   # a contiguous array's pointer
    return a.ctypes.data_as(t)


class LevelKernel:
    """The batch functions of one C text (see the module's docstring); picklable (the text)."""

    def __init__(self, text: str, box: Box):
        self.text, self.box = text, box

    @classmethod
    def make(cls, rules: Rules, states: Sequence[Sequence[int]], symmetry: bool = False) -> "LevelKernel":
        """The kernel on the least box holding ``states`` (``symmetry``: positions by their
        canonical form under the group whose premise the caller proved)."""
        box = Box.around(rules, states)
        return cls(kernel_source(rules, box, symmetry) + extra_source(rules), box)

    def __getstate__(self) -> dict:
        return {"text": self.text, "box": self.box}

    def __setstate__(self, d: dict) -> None:
        self.text, self.box = d["text"], d["box"]

    @property
    def lib(self) -> ctypes.CDLL:
        return library(self.text)

    def keys(self, states: Sequence[Sequence[int]]) -> np.ndarray:
        """The keys of ``states`` (ValueError: one is outside the box)."""
        got = batch_keys(self.lib, self.box, states)
        return np.ctypeslib.as_array(got).astype(np.uint64) if len(states) else np.zeros(0, np.uint64)

    def ranks(self, keys: np.ndarray) -> np.ndarray:
        keys = np.ascontiguousarray(keys, dtype=np.uint64)
        out = np.empty(len(keys), np.int64)
        if self.lib.lv_ranks(_p(keys, P64), len(keys), _p(out, PI64)) < 0:
            raise LevelError(_WORDS[6])
        return out

    def canon(self, keys: np.ndarray) -> np.ndarray:
        keys = np.ascontiguousarray(keys, dtype=np.uint64)
        out = np.empty(len(keys), np.uint64)
        self.lib.lv_canon(_p(keys, P64), len(keys), _p(out, P64))
        return out

    def expand(self, keys: np.ndarray, ranks: np.ndarray, room: int = 1 << 20
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every child of the positions ``keys`` (of ranks ``ranks``): canonical child keys,
        their ranks, and the index of the parent in ``keys`` (ascending)."""
        keys = np.ascontiguousarray(keys, dtype=np.uint64)
        ranks = np.ascontiguousarray(ranks, dtype=np.int64)
        parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
        at, bad = ctypes.c_int64(0), ctypes.c_uint64(0)
        while at.value < len(keys):
            child, crank, parent = np.empty(room, np.uint64), np.empty(room, np.int64), np.empty(room, np.int64)
            m = self.lib.lv_expand(_p(keys, P64), _p(ranks, PI64), len(keys), ctypes.byref(at), room,
                                   _p(child, P64), _p(crank, PI64), _p(parent, PI64), ctypes.byref(bad))
            if m == -NEED_ROOM:
                room = 2 * max(room, bad.value)
                continue
            if m < 0:
                raise LevelError(f"{_WORDS.get(-m, f'status {-m}')} at {self.box.state(bad.value)}")
            parts.append((child[:m], crank[:m], parent[:m]))
        if not parts:
            return np.zeros(0, np.uint64), np.zeros(0, np.int64), np.zeros(0, np.int64)
        return tuple(np.concatenate(x) for x in zip(*parts))  # type: ignore[return-value]

    def mex(self, parent: np.ndarray, cval: np.ndarray, np_: int, mode: int = GRUNDY) -> np.ndarray:
        """Each of ``np_`` parents' value from the pairs (``parent``, child value), sorted by parent."""
        parent = np.ascontiguousarray(parent, dtype=np.int64)
        cval = np.ascontiguousarray(cval, dtype=np.uint8)
        out = np.zeros(np_, np.uint8)
        st = self.lib.lv_mex(_p(parent, PI64), _p(cval, PU8), len(parent), _p(out, PU8), np_, mode)
        if st < 0:
            raise LevelError(_WORDS.get(-st, f"status {-st}"))
        return out
