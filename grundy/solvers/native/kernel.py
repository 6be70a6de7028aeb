"""The C kernel: a game's IR compiled to C, with a table of values over packed positions.

The move code comes from the same plan as the Python solver's (``move_plan``): only the
syntax differs. A position is packed into one 64-bit integer by a mixed radix (a *box*:
for each slot its least value and number of values), so that the whole box can be swept
in index order with one byte per position (``dense``), or single positions solved with an
open-addressing hash table. Values: Grundy value + 1, or for outcomes 1 (mover loses) and
2 (mover wins); 0 is unknown. A successor outside the box stops the search with
:class:`OutOfBox` (the caller widens the box and starts again); nothing is ever truncated.

>>> from grundy.spec.games import get_game
>>> from grundy.spec import Structure
>>> from grundy.solvers.native import build
>>> rules = get_game("nim").rules(Structure.heaps(3))
>>> if build.available():
...     k = Kernel(rules, Box.around(rules, [(3, 5, 6)]))
...     print(k.grundy((3, 5, 6)), k.grundy((1, 2, 4)))
... else:
...     print(0, 7)
0 7
"""
from __future__ import annotations

import ctypes
import itertools
from array import array
from dataclasses import dataclass
from functools import cached_property, lru_cache
from math import prod
from operator import ge, mul, sub
from typing import Callable, Iterable, Sequence

from ...errors import GrundyError
from ...spec.fingerprint import rules_digest
from ...spec.game import Rules
from ...spec.ops import OPS
from .. import symmetric
from ..explicit.compile import (
    Emitter,
    conjuncts,
    dispatch_key,
    dispatch_var,
    emitter,
    move_plan,
    shared_nodes,
    slot_sources,
)
from ..symmetric import Plan
from . import build
from .sources import cached_text

State = tuple[int, ...]
GRUNDY, NORMAL, MISERE, MISERE_GRUNDY = 0, 1, 2, 3   # table modes (3: misère Grundy values)
UNKNOWN, LOSES, WINS = 0, 1, 2             # outcome values
MAX_KEY = 2 ** 63                          # box sizes stay below this
DENSE_LIMIT = 2 ** 28                      # boxes up to this many positions get a dense table


CYCLE, TOO_LARGE, LIMIT, NO_MEMORY, OVERFLOW = 2, 3, 4, 5, 6   # the C kernel's status codes
DOMAIN = 8                                 # a move took a field out of its domain
PAUSED = 9       # the kernel returned to Python to let it notice a signal; called again, it goes on
_STATUS = {CYCLE: "cycle", TOO_LARGE: "a Grundy value above 253", LIMIT: "position limit",
           NO_MEMORY: "out of memory", OVERFLOW: "a product overflowed 64 bits",
           DOMAIN: "a move left a field's domain"}


class KernelError(GrundyError, RuntimeError):
    """The kernel stopped; ``status`` says why (one of the codes above)."""

    def __init__(self, status: int, text: str | None = None, key: int | None = None):
        super().__init__(text or _STATUS.get(status, f"status {status}"))
        self.status = status
        self.key = key      # DOMAIN: the packed position whose move left a domain


class OutOfBox(KernelError):
    """A successor left the box: slot ``slot`` took ``value``."""

    def __init__(self, slot: int, value: int):
        super().__init__(1, f"slot {slot} took value {value}, outside the box")
        self.slot, self.value = slot, value


# ----------------------------------------------------------------------------- C syntax
class CSyntax(Emitter):
    """Expressions written in C (64-bit signed; overflow of * flagged, floor division and
    Python's modulo sign by helper functions, ``^`` on two's complement as Python's)."""

    def const(self, value, sort: str) -> str:
        return f"{int(value)}LL" if sort == "int" else ("1" if value else "0")

    def let(self, name: str, src: str) -> str:
        return f"const I {name} = {src};"

    def _infix(self, x, a: str, b: str) -> str:
        return f"({a} {OPS[x.op].infix} {b})"

    walk_add = walk_sub = walk_xor = walk_lt = walk_le = walk_eq = _infix

    def walk_mul(self, x, a: str, b: str) -> str:
        return f"mulc({a}, {b})"

    walk_nmul = walk_mul

    def walk_div(self, x, a: str, b: str) -> str:
        return f"fdiv({a}, {b})"

    def walk_mod(self, x, a: str, b: str) -> str:
        return f"fmd({a}, {b})"

    def walk_not(self, x, a: str) -> str:
        return f"(!{a})"

    def walk_and(self, x, *a: str) -> str:
        return "(" + " && ".join(a) + ")"

    def walk_or(self, x, *a: str) -> str:
        return "(" + " || ".join(a) + ")"

    def walk_ite(self, x, c: str, a: str, b: str) -> str:
        return f"({c} ? {a} : {b})"

    def _fold(self, fn: str, a: tuple[str, ...]) -> str:
        out = a[-1]
        for y in reversed(a[:-1]):
            out = f"{fn}({y}, {out})"
        return out

    def walk_min(self, x, *a: str) -> str:
        return self._fold("imin", a)

    def walk_max(self, x, *a: str) -> str:
        return self._fold("imax", a)


C = CSyntax


# ----------------------------------------------------------------------------- the box
@dataclass(frozen=True)
class Box:
    """For each slot its least value and its number of values; index = mixed radix, the slots
    taken in ``order`` (least significant first: the single-valued fields such as a token, so
    that lowering any indexed value lowers the index)."""

    lo: tuple[int, ...]
    radix: tuple[int, ...]
    order: tuple[int, ...] = ()

    def __post_init__(self):
        if not self.order:
            object.__setattr__(self, "order", tuple(range(len(self.lo))))

    @property
    def size(self) -> int:
        return prod(self.radix)

    @cached_property
    def strides(self) -> list[int]:
        out, m = [0] * len(self.radix), 1
        for i in self.order:
            out[i] = m
            m *= self.radix[i]
        return out

    @cached_property
    def _digits(self) -> list[tuple[int, int, int]]:
        return list(zip(self.lo, self.radix, self.strides))

    def index(self, s: Sequence[int]) -> int:
        """The position's index (ValueError if it is outside the box)."""
        d = list(map(sub, s, self.lo))
        if min(d, default=0) < 0 or any(map(ge, d, self.radix)):
            raise ValueError("outside the box")
        return sum(map(mul, d, self.strides))

    def state(self, index: int) -> State:
        out = [0] * len(self.lo)
        for i in self.order:
            index, d = divmod(index, self.radix[i])
            out[i] = self.lo[i] + d
        return tuple(out)

    def contains(self, s: Sequence[int]) -> bool:
        d = list(map(sub, s, self.lo))
        return min(d, default=0) >= 0 and not any(map(ge, d, self.radix))

    @staticmethod
    def around(rules: Rules, states: Iterable[Sequence[int]]) -> "Box":
        """The least box of the game's slot domains holding ``states``: vertex, edge and bool
        slots take their whole domain; the int slots of one field share the field's largest value."""
        sch, g = rules.schema, rules.structure
        states = list(states)
        top: dict[str, int] = {}
        low_of: dict[str, int] = {}
        by_field: dict[str, list[int]] = {}
        for i, (nm, _) in enumerate(sch.slots):
            by_field.setdefault(nm, []).append(i)
        cols = list(zip(*states)) or [()] * len(sch.slots)     # each slot's values
        for name, slots in by_field.items():
            f = sch.fields[name]
            if f.kind == "int":
                top[name] = max([f.lower, *(max(cols[i], default=f.lower) for i in slots)])
                low_of[name] = min([f.lower, *(min(cols[i], default=f.lower) for i in slots)])
        lo, radix = [], []
        for name, _ in sch.slots:
            f = sch.fields[name]
            if f.kind == "bool":
                lo.append(0), radix.append(2)
            elif f.kind == "vertex":
                lo.append(0), radix.append(max(g.n, 1))
            elif f.kind == "edge":
                lo.append(-1), radix.append(len(g.edges) + 1)
            else:
                lo.append(low_of[name]), radix.append(top[name] - low_of[name] + 1)
        order = sorted(range(len(lo)), key=lambda i: (sch.fields[sch.slots[i][0]].over is not None, i))
        return Box(tuple(lo), tuple(radix), tuple(order))

    def join(self, other: "Box") -> "Box":
        """The least box holding both."""
        lo = [min(a, b) for a, b in zip(self.lo, other.lo)]
        hi = [max(a + r, b + s) for a, r, b, s in zip(self.lo, self.radix, other.lo, other.radix)]
        return Box(tuple(lo), tuple(h - low for h, low in zip(hi, lo)), self.order)

    def widened(self, slot_name_slots: list[int], value: int) -> "Box":
        """The box with the given slots (one field's) grown to hold ``value`` (at least doubled)."""
        lo, radix = list(self.lo), list(self.radix)
        for i in slot_name_slots:
            hi = max(lo[i] + 2 * radix[i] - 1, value)
            low = min(lo[i], value)
            lo[i], radix[i] = low, hi - low + 1
        return Box(tuple(lo), tuple(radix), self.order)


# ----------------------------------------------------------------------------- C source
_RUNTIME = r"""
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
typedef int64_t I;
typedef uint64_t K;
static int mul_overflow;
static inline I mulc(I a, I b) { I r; if (__builtin_mul_overflow(a, b, &r)) { mul_overflow = 1; return 0; } return r; }
static inline I fdiv(I a, I b) { I q = a / b; if ((a % b) && ((a < 0) != (b < 0))) q--; return q; }
static inline I fmd(I a, I b) { I r = a % b; if (r && ((r < 0) != (b < 0))) r += b; return r; }
static inline I imin(I a, I b) { return a < b ? a : b; }
static inline I imax(I a, I b) { return a > b ? a : b; }

typedef struct { K *keys; int64_t n, cap; int err; int err_slot; I err_value; } Buf;
static inline void push(Buf *b, K k) {
    if (b->n == b->cap) {
        int64_t cap = b->cap ? 2 * b->cap : 1024;
        K *p = realloc(b->keys, cap * sizeof(K));
        if (!p) { b->err = 5; return; }
        b->keys = p; b->cap = cap;
    }
    b->keys[b->n++] = k;
}
#define OUT(slot, v) do { I v_ = (v); if ((K)(v_ - LO[slot]) >= (K)RADIX[slot]) { b->err = 1; b->err_slot = slot; b->err_value = v_; } nk += (K)(v_ - s[slot]) * STRIDE[slot]; } while (0)
"""

_SOLVER = r"""

#define BUSY 255
typedef struct { K key; int64_t start, end, idx; int sum; } Frame;
typedef struct {
    int mode;
    uint8_t *dense; K dense_size;
    K *hkeys; uint8_t *hvals; K hcap, hcount;
    int64_t stored, limit;
    Buf succ;
    Frame *stack; int64_t depth, stack_cap;
    int err_slot; I err_value;
    int64_t steps;                 /* steps since the last return to the caller */
} T;
#define PAUSED 9                   /* k_solve returns to its caller every POLL_STEPS steps */
#define POLL_STEPS (1 << 16)

static inline K hmix(K x) { x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33; return x; }

static inline uint8_t get(T *t, K key) {
    if (t->dense) return t->dense[key];
    K m = t->hcap - 1, i = hmix(key) & m;
    while (t->hkeys[i]) { if (t->hkeys[i] == key + 1) return t->hvals[i]; i = (i + 1) & m; }
    return 0;
}

static int grow(T *t) {
    K cap = t->hcap * 2, m = cap - 1;
    K *keys = calloc(cap, sizeof(K)); uint8_t *vals = calloc(cap, 1);
    if (!keys || !vals) { free(keys); free(vals); return 5; }
    for (K j = 0; j < t->hcap; j++) if (t->hkeys[j]) {
        K i = hmix(t->hkeys[j] - 1) & m;
        while (keys[i]) i = (i + 1) & m;
        keys[i] = t->hkeys[j]; vals[i] = t->hvals[j];
    }
    free(t->hkeys); free(t->hvals); t->hkeys = keys; t->hvals = vals; t->hcap = cap;
    return 0;
}

static inline int put(T *t, K key, uint8_t v) {
    if (t->dense) { t->dense[key] = v; return 0; }
    K m = t->hcap - 1, i = hmix(key) & m;
    while (t->hkeys[i]) { if (t->hkeys[i] == key + 1) { t->hvals[i] = v; return 0; } i = (i + 1) & m; }
    t->hkeys[i] = key + 1; t->hvals[i] = v; t->hcount++;
    if (2 * t->hcount > t->hcap) return grow(t);
    return 0;
}

T *k_new(int mode, K dense_size, int64_t limit) {
    T *t = calloc(1, sizeof(T));
    if (!t) return 0;
    t->mode = mode; t->limit = limit; t->dense_size = dense_size;
    if (dense_size) { t->dense = calloc(dense_size, 1); if (!t->dense) { free(t); return 0; } }
    else { t->hcap = 1 << 16; t->hkeys = calloc(t->hcap, sizeof(K)); t->hvals = calloc(t->hcap, 1);
           if (!t->hkeys || !t->hvals) { free(t->hkeys); free(t->hvals); free(t); return 0; } }
    return t;
}

void k_free(T *t) {
    if (!t) return;
    free(t->dense); free(t->hkeys); free(t->hvals); free(t->succ.keys); free(t->stack); free(t);
}

int64_t k_stored(T *t) { return t->stored; }
K k_canon(K key) { return canon(key); }
int k_err_slot(T *t) { return t->err_slot; }
int64_t k_err_value(T *t) { return t->err_value; }
int k_value(T *t, K key) { return get(t, canon(key)); }
uint8_t *k_dense(T *t) { return t->dense; }

static int push_frame(T *t, K key) {
    if (t->depth == t->stack_cap) {
        int64_t cap = t->stack_cap ? 2 * t->stack_cap : 256;
        Frame *p = realloc(t->stack, cap * sizeof(Frame));
        if (!p) return 5;
        t->stack = p; t->stack_cap = cap;
    }
    Frame *f = &t->stack[t->depth++];
    f->key = key; f->idx = -1; f->start = f->end = 0; f->sum = 0;
    return put(t, key, BUSY);
}

static int expand(T *t, Frame *f) {
    I s[NS];
    unpack(f->key, s);
    f->start = t->succ.n;
    f->sum = DECOMPOSE && t->mode == 0 && components(f->key, s, &t->succ);  /* a sum: its parts */
    if (!f->sum) successors(f->key, s, &t->succ);
    if (CANONICAL) for (int64_t i = f->start; i < t->succ.n; i++) {
        K k = t->succ.keys[i];
        if (t->dense) {              /* a dense table also keeps a solved value at its raw key */
            uint8_t v = t->dense[k];
            if (v && v != BUSY) continue;                    /* (the value of an isomorph) */
            K c = canon(k);
            uint8_t w = t->dense[c];
            if (!v && w && w != BUSY) t->dense[k] = w;       /* (never over a position under way) */
            t->succ.keys[i] = c;
        } else t->succ.keys[i] = canon(k);
    }
    if (mul_overflow) { mul_overflow = 0; return 6; }
    if (t->succ.err) {
        int e = t->succ.err; t->succ.err = 0;
        t->err_slot = t->succ.err_slot; t->err_value = t->succ.err_value;
        return e;
    }
    f->end = t->succ.n; f->idx = f->start;
    return 0;
}

static int finish(T *t, Frame *f, uint8_t v) {
    int e = put(t, f->key, v);
    if (e) return e;
    t->succ.n = f->start;
    t->depth--;
    if (++t->stored > t->limit) return 4;
    return 0;
}

/* Abandon a search under way: the positions on its stack become unknown again. */
void k_abort(T *t) {
    for (int64_t i = 0; i < t->depth; i++)
        if (get(t, t->stack[i].key) == BUSY) put(t, t->stack[i].key, 0);
    t->depth = 0; t->succ.n = 0; t->steps = 0;
}

/* Solve one position (its key), or go on with the search PAUSED left under way (same key).
   0: done; PAUSED: call again (the caller can notice a signal in between); else the status
   (the search is abandoned). */
static int solve_(T *t, K root) {      /* root: a canonical key (canon(key), once) */
    int e;
    if (!t->depth) {
        uint8_t v0 = get(t, root);
        if (v0 == BUSY) return 2;
        if (v0) return 0;
        t->succ.n = 0;
        if ((e = push_frame(t, root))) return e;
    }
    const int grundy = t->mode == 0 || t->mode == 3;   /* 3: misère values, 1 at a terminal */
    while (t->depth) {
        if (++t->steps >= POLL_STEPS) { t->steps = 0; return PAUSED; }
        Frame *f = &t->stack[t->depth - 1];
        if (f->idx < 0) {
            if ((e = expand(t, f))) return e;
            if (!grundy) {                        /* a known losing successor decides at once */
                for (int64_t i = f->start; i < f->end; i++) {
                    uint8_t v = get(t, t->succ.keys[i]);
                    if (v == 1) { if ((e = finish(t, f, 2))) return e; goto next; }
                }
            }
        }
        while (f->idx < f->end) {
            uint8_t v = get(t, t->succ.keys[f->idx]);
            if (v == 0) break;
            if (v == BUSY) return 2;
            if (!grundy && v == 1) { if ((e = finish(t, f, 2))) return e; goto next; }
            f->idx++;
        }
        if (f->idx < f->end) {
            if ((e = push_frame(t, t->succ.keys[f->idx]))) return e;
            continue;
        }
        if (f->sum) {                             /* Sprague-Grundy: the XOR of the parts */
            int x = 0;
            for (int64_t i = f->start; i < f->end; i++) x ^= get(t, t->succ.keys[i]) - 1;
            if (x > 253) return 3;
            if ((e = finish(t, f, (uint8_t)(x + 1)))) return e;
        } else if (grundy) {
            uint64_t seen[4] = {0, 0, 0, 0};
            for (int64_t i = f->start; i < f->end; i++) {
                int g = get(t, t->succ.keys[i]) - 1;
                seen[g >> 6] |= 1ULL << (g & 63);
            }
            int m = 0;
            while (m < 256 && (seen[m >> 6] >> (m & 63) & 1)) m++;
            if (t->mode == 3 && f->end == f->start) m = 1;
            if (m > 253) return 3;
            if ((e = finish(t, f, (uint8_t)(m + 1)))) return e;
        } else {
            uint8_t v = f->end > f->start ? 1 : (t->mode == 2 ? 2 : 1);
            if ((e = finish(t, f, v))) return e;
        }
      next:;
    }
    return 0;
}

static int solve_canonical(T *t, K c) {
    int e = solve_(t, c);
    if (e && e != PAUSED) k_abort(t);
    return e;
}

int k_solve(T *t, K root) { return solve_canonical(t, t->depth ? 0 : canon(root)); }

/* The keys of n states (NS values each, one after another) into out: -1, or the first state
   outside the box. */
int64_t k_keys(const I *flat, int64_t n, K *out) {
    for (int64_t i = 0; i < n; i++) {
        const I *s = flat + i * NS;
        K k = 0;
        for (int j = 0; j < NS; j++) {
            if ((K)(s[j] - LO[j]) >= (K)RADIX[j]) return i;
            k += (K)(s[j] - LO[j]) * STRIDE[j];
        }
        out[i] = k;
    }
    return -1;
}

/* Solve keys[*at..n); their values into out. PAUSED: *at is where to go on. */
int k_solve_many(T *t, const K *keys, int64_t n, uint8_t *out, int64_t *at) {
    for (int64_t i = *at; i < n; i++) {
        K c = canon(keys[i]);                      /* once (it is the costly step) */
        int e = solve_canonical(t, t->depth ? 0 : c);
        if (e) { *at = i; return e; }
        out[i] = get(t, c);
    }
    *at = n;
    return 0;
}

/* Solve every position of a dense box with index in [*at, to). PAUSED: *at is where to go on. */
int k_sweep(T *t, K *at, K to) {
    if (!t->dense) return 7;
    for (K k = *at; k < to; k++) {
        if (!t->dense[k]) {
            K c = canon(k);
            if (!t->dense[c]) { int e = solve_canonical(t, t->depth ? 0 : c); if (e) { *at = k; return e; } }
            t->dense[k] = t->dense[c];            /* every index readable, canonical or not */
        }
    }
    *at = to;
    return 0;
}

/* The successors' keys of one position (for tests): their number, or -status. */
int64_t k_successors(K key, K *out, int64_t cap) {
    Buf b = {0};
    I s[NS];
    unpack(key, s);
    successors(key, s, &b);
    int64_t n = b.n;
    if (b.err) n = -b.err;
    else for (int64_t i = 0; i < n && i < cap; i++) out[i] = b.keys[i];
    free(b.keys);
    return n;
}
"""


def _c_array(ctype: str, name: str, values: Sequence[int], suffix: str = "LL") -> str:
    body = ", ".join(f"{int(v)}{suffix}" for v in values) or "0"
    return f"static const {ctype} {name}[NS > 0 ? NS : 1] = {{{body}}};"


def c_source(rules: Rules, box: Box, symmetry: bool = False, decompose: bool = False) -> str:
    """The C source of the kernel for these rules and this box (``symmetry``: positions are
    stored by a canonical representative of their class: sorted heaps, or the least index
    over the automorphisms that send the token to the least vertex of its orbit; ``decompose``:
    Grundy values of positions that split into independent components are the XOR of the
    components' values, as in the Python path)."""
    n = len(rules.schema)
    state_names = slot_sources(rules)
    var = dispatch_var(rules)
    plain: list[str] = []
    groups: dict[int, list[str]] = {}
    for mi, m in enumerate(rules.moves):
        key = next(((c, k[1]) for c in conjuncts(m.guard)
                    if (k := dispatch_key(c)) and k[0] == var), None)
        lines = _c_move(rules, mi, m, state_names, skip=key[0] if key else None)
        (plain if key is None else groups.setdefault(key[1], [])).extend(lines)
    body = ["static void successors(K key, const I *s, Buf *b) {", "    (void)key; (void)s; (void)b;"]
    body += ["    " + ln for ln in plain]
    if groups:
        slot = rules.schema.slot_by_var[var]
        body.append(f"    switch (s[{slot}]) {{")
        for value in sorted(groups):
            body.append(f"    case {value}LL: {{")
            body += ["        " + ln for ln in groups[value]]
            body.append("    } break;")
        body.append("    default: break;")
        body.append("    }")
    body.append("}")
    head = [_RUNTIME, f"#define NS {n}",
            _c_array("I", "LO", box.lo), _c_array("I", "RADIX", box.radix),
            _c_array("K", "STRIDE", box.strides, "ULL")]
    head.append(_components_source(rules, box, decompose))
    head.append(_canonical_source(rules, box, symmetry))
    # unrolled, so that each division is by a literal constant (a multiply and a shift)
    unpack = ["static void unpack(K key, I *s) {"]
    unpack += [f"    s[{i}] = (I)(key % {box.radix[i]}ULL) + ({box.lo[i]}LL); key /= {box.radix[i]}ULL;"
               for i in box.order]
    unpack += ["    (void)key;", "}"]
    return "\n".join(head[:-1] + body + unpack + head[-1:] + [_SOLVER])


def _c_move(rules: Rules, mi: int, m, state_names, skip) -> list[str]:
    cnames, steps = move_plan(rules, m, state_names, C, skip)
    label = m.label.replace("*/", "* /")
    out = [f"/* move {mi}: {label} */", "{"]
    depth, closes = 1, 1
    for st in steps:
        pad = "    " * depth
        if st.kind == "let":
            out.append(pad + st.args[0])
        elif st.kind == "if":
            out.append(pad + f"if ({' && '.join(st.args)}) {{")
            depth += 1
            closes += 1
        elif st.kind == "for":
            cn, lo, hi = st.args   # the largest choice first, as the Python solver's successors
            out.append(pad + f"for (I {cn} = {hi}; {cn} >= {lo}; {cn}--) {{")
            depth += 1
            closes += 1
        elif st.kind == "check":   # the position's key, for the Python path to name the move
            out.append(pad + f"if ({st.args[0]}) {{ b->err = {DOMAIN}; b->err_value = (I)key; return; }}")
        else:
            changed = st.args[0]
            out.append(pad + "{ K nk = key;")
            for i, src in changed.items():
                out.append(pad + f"  OUT({i}, {src});")
            out.append(pad + "  push(b, nk); }")
    for d in range(closes, 0, -1):
        out.append("    " * (d - 1) + "}")
    return out


def _components_source(rules: Rules, box: Box, decompose: bool) -> str:
    """``components(key, s, b)``: push the keys of the position's components (each: the position
    with every element outside it emptied) and return 1, or return 0 if it does not split."""
    if not decompose or rules.present is None:
        return "#define DECOMPOSE 0\nstatic inline int components(K key, const I *s, Buf *b) { (void)key; (void)s; (void)b; return 0; }"
    sch = rules.schema
    names = slot_sources(rules)
    roots = [rules.decomposable] + list(rules.present)
    em = emitter(names, shared_nodes(roots), C)
    d = em.expr(rules.decomposable)
    pres = [em.expr(x) for x in rules.present]
    n_el = len(rules.component_elements)
    empty = [sch.fields[name].empty for name, _ in sch.slots]
    lines = ["#define DECOMPOSE 1",
             "static int components(K key, const I *s, Buf *b) {"]
    lines += ["    " + ln for ln in em.take_lines()]
    lines += [f"    if (!({d})) return 0;",
              f"    int pres[{n_el}], parent[{n_el}], groups = 0;"]
    lines += [f"    pres[{x}] = {src};" for x, src in enumerate(pres)]
    lines += [f"    for (int x = 0; x < {n_el}; x++) parent[x] = x;"]
    for a, b in rules.links:
        lines.append(f"    if (pres[{a}] && pres[{b}]) {{ int ra = {a}, rb = {b}; "
                     f"while (parent[ra] != ra) ra = parent[ra]; while (parent[rb] != rb) rb = parent[rb]; "
                     f"if (ra != rb) parent[ra] = rb; }}")
    lines += [f"    int root[{n_el}];",
              f"    for (int x = 0; x < {n_el}; x++) {{ int r = x; while (parent[r] != r) r = parent[r]; root[x] = pres[x] ? r : -1; }}",
              f"    for (int x = 0; x < {n_el}; x++) if (root[x] == x) groups++;",
              "    if (groups <= 1) return 0;",
              f"    for (int g = 0; g < {n_el}; g++) {{",
              "        if (root[g] != g) continue;",
              "        K nk = key;",
              f"        for (int x = 0; x < {n_el}; x++) {{",
              "            if (root[x] == g) continue;"]
    for x, slots in enumerate(rules.element_slots):
        if slots:
            outs = " ".join(f"OUT({i}, {empty[i]}LL);" for i in slots)
            lines.append(f"            if (x == {x}) {{ {outs} }}")
    lines += ["        }", "        push(b, nk);", "    }", "    return 1;", "}"]
    return "\n".join(lines)


def _canonical_source(rules: Rules, box: Box, symmetry: bool) -> str:
    if symmetry and rules.heap_sorting:
        return f"""#define CANONICAL 1
static K canon(K key) {{
    I s[NS]; unpack(key, s);
    for (int i = 1; i < NS; i++) {{ I v = s[i]; int j = i - 1; while (j >= 0 && s[j] > v) {{ s[j + 1] = s[j]; j--; }} s[j + 1] = v; }}
    K k = 0;
    for (int i = 0; i < NS; i++) k += (K)(s[i] - LO[i]) * STRIDE[i];
    return k;
}}"""
    plan = Plan.for_kernel(rules) if symmetry else None
    if plan is not None:        # every permutation of the vertices: see grundy/solvers/symmetric.py
        return plan.c_source()
    syms = rules.symmetries if symmetry else []
    if len(syms) <= 1:
        return "#define CANONICAL 0\nstatic inline K canon(K key) { return key; }"
    sch, g = rules.schema, rules.structure
    kinds = []
    for name, _ in sch.slots:
        kind = sch.fields[name].kind
        kinds.append(1 if kind == "vertex" else 2 if kind == "edge" else 0)
    tokens = [i for i, (name, key) in enumerate(sch.slots) if key is None and sch.fields[name].kind == "vertex"]
    tok = tokens[0] if len(tokens) == 1 else -1
    m = len(g.edges)
    auts = rules.automorphisms                     # in the order of rules.symmetries
    vmap = [list(sigma) or [0] for sigma in auts]
    edge_slot = kinds.index(2) if 2 in kinds else None
    emap = [[v[edge_slot](e) for e in range(-1, m)] if edge_slot is not None else list(range(-1, m))
            for _, v in syms]
    sigma = vmap
    if tok >= 0:
        order, starts = [], [0]
        for x in range(g.n):
            least = min(sg[x] for sg in sigma)
            order += [j for j, sg in enumerate(sigma) if sg[x] == least]
            starts.append(len(order))
    else:
        order, starts = list(range(len(syms))), [0, len(syms)]
    rows = lambda table: "{" + ", ".join("{" + ", ".join(map(str, r)) + "}" for r in table) + "}"  # noqa: E731
    return "\n".join([
        "#define CANONICAL 1",
        f"#define NSYM {len(syms)}",
        f"static const int16_t PERM[NSYM][NS] = {rows([p for p, _ in syms])};",
        f"static const int8_t KIND[NS] = {{{', '.join(map(str, kinds))}}};",
        f"static const int32_t VMAP[NSYM][{max(g.n, 1)}] = {rows(vmap)};",
        f"static const int32_t EMAP[NSYM][{m + 1}] = {rows(emap)};",
        f"static const int32_t COSET[{len(order)}] = {{{', '.join(map(str, order))}}};",
        f"static const int32_t COSET_START[{len(starts)}] = {{{', '.join(map(str, starts))}}};",
        "static K canon(K key) {",
        "    I s[NS]; unpack(key, s);",
        f"    int lo = 0, hi = {len(order)};",
        (f"    lo = COSET_START[s[{tok}]]; hi = COSET_START[s[{tok}] + 1];" if tok >= 0 else ""),
        "    K best = ~0ULL;",
        "    for (int j = lo; j < hi; j++) {",
        "        const int h = COSET[j];",
        "        K k = 0;",
        "        for (int i = 0; i < NS; i++) {",
        "            I v = s[i];",
        "            if (KIND[i] == 1) v = VMAP[h][v]; else if (KIND[i] == 2) v = EMAP[h][v + 1];",
        "            const int p = PERM[h][i];",
        "            k += (K)(v - LO[p]) * STRIDE[p];",
        "        }",
        "        if (k < best) best = k;",
        "    }",
        "    return best;",
        "}"])


def _source_key(rules: Rules, box: Box, symmetry: bool, decompose: bool) -> list | None:
    """What :func:`c_source`'s text is generated from, as :func:`cached_text`'s key parts; None
    when the rules' content cannot be read back (then the text is generated, as without a cache)."""
    try:
        content = rules_digest(rules)
    except (TypeError, ValueError, GrundyError):  # a value that cannot be read back as content
        return None
    # the switches of grundy.solvers.symmetric choose the canonical form c_source emits
    return [content, list(box.lo), list(box.radix), list(box.order), bool(symmetry), bool(decompose),
            [symmetric.ENABLED, symmetric.FORCE, symmetric.CAP] if symmetry else None]


def kernel_source(rules: Rules, box: Box, symmetry: bool = False, decompose: bool = False) -> str:
    """``c_source(rules, box, symmetry, decompose)``, kept on disk (:func:`cached_text`: 1-5 ms
    of generation saved per process and structure, before the compiled library can be found).

    The key is what the text is generated from: the rules' content
    (:func:`grundy.spec.fingerprint.rules_digest`: the structure with its vertex names, the
    fields, every move's guard and update as IR, the rank, the components and the
    declarations), the box and the options, the switches of :mod:`grundy.solvers.symmetric`.
    So a rule whose IR changes gets a new kernel whatever changed it: the game's code, a module
    global it reads, a parameter; the game's name or where its class is defined is not in the
    key. Digesting the IR costs a third to a fifth of generating the text.

    >>> from grundy.spec.games import get_game
    >>> from grundy.spec.structure import Structure
    >>> rules = get_game("nim").rules(Structure.heaps(2))
    >>> box = Box.around(rules, [(3, 4)])
    >>> kernel_source(rules, box, True, True) == c_source(rules, box, True, True)
    True
    """
    return cached_text(_source_key(rules, box, symmetry, decompose),
                       lambda: c_source(rules, box, symmetry, decompose))


# ----------------------------------------------------------------------------- the kernel
@lru_cache(maxsize=256)
def _library(source: str) -> ctypes.CDLL:
    lib = build.load(source)
    lib.k_new.restype = ctypes.c_void_p
    lib.k_new.argtypes = [ctypes.c_int, ctypes.c_uint64, ctypes.c_int64]
    lib.k_free.argtypes = [ctypes.c_void_p]
    for f in ("k_solve",):
        getattr(lib, f).argtypes = [ctypes.c_void_p, ctypes.c_uint64]
    lib.k_solve_many.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint64), ctypes.c_int64,
                                 ctypes.POINTER(ctypes.c_uint8), ctypes.POINTER(ctypes.c_int64)]
    lib.k_sweep.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint64), ctypes.c_uint64]
    lib.k_abort.argtypes = [ctypes.c_void_p]
    lib.k_value.argtypes = [ctypes.c_void_p, ctypes.c_uint64]
    lib.k_stored.argtypes = [ctypes.c_void_p]
    lib.k_stored.restype = ctypes.c_int64
    _declare_keys(lib)
    lib.k_canon.argtypes = [ctypes.c_uint64]
    lib.k_canon.restype = ctypes.c_uint64
    lib.k_err_slot.argtypes = [ctypes.c_void_p]
    lib.k_err_value.argtypes = [ctypes.c_void_p]
    lib.k_err_value.restype = ctypes.c_int64
    lib.k_dense.argtypes = [ctypes.c_void_p]
    lib.k_dense.restype = ctypes.c_void_p
    lib.k_successors.argtypes = [ctypes.c_uint64, ctypes.POINTER(ctypes.c_uint64), ctypes.c_int64]
    lib.k_successors.restype = ctypes.c_int64
    return lib


def run_paused(call: Callable[[], int], abort: Callable[[], None]) -> int:
    """Call a search in C until it is done; its status. The search returns every few
    milliseconds (PAUSED) so that Python's signal handlers run between calls: Ctrl-C (or a
    handler raising on SIGTERM) stops it within a second, after ``abort()``."""
    try:
        status = call()
        while status == PAUSED:
            status = call()
    except BaseException:
        abort()
        raise
    return status


def batch_keys(lib: ctypes.CDLL, box: Box, states: Sequence[Sequence[int]]) -> "ctypes.Array":
    """The keys of many states, computed by the library's ``k_keys`` from the states packed in
    one array: ValueError if one is outside the box (or beyond 64 bits), TypeError if one has
    the wrong length."""
    n = len(states)
    keys = (ctypes.c_uint64 * n)()
    try:
        flat = array("q", itertools.chain.from_iterable(states))
    except OverflowError:
        raise ValueError("outside the box") from None
    if len(flat) != n * len(box.lo):
        raise TypeError("a state of the wrong length for the box")
    if n and lib.k_keys(flat.buffer_info()[0], n, keys) >= 0:
        raise ValueError("outside the box")
    return keys


def _declare_keys(lib: ctypes.CDLL) -> None:
    lib.k_keys.argtypes = [ctypes.c_void_p, ctypes.c_int64, ctypes.POINTER(ctypes.c_uint64)]
    lib.k_keys.restype = ctypes.c_int64


class Kernel:
    """The compiled rules on one box, with one value table (``mode``: GRUNDY, NORMAL or MISERE
    outcomes, MISERE_GRUNDY: misère Grundy values, never split into components). ``limit`` bounds the positions stored (:class:`KernelError` "position limit")."""

    def __init__(self, rules: Rules, box: Box, mode: int = GRUNDY, limit: int = 2 ** 62,
                 dense: bool | None = None, symmetry: bool = False, decompose: bool = False):
        if box.size >= MAX_KEY:
            raise ValueError(f"the box has {box.size} positions: more than a 64-bit key holds")
        self.rules, self.box, self.mode = rules, box, mode
        self.symmetry = symmetry
        self.decompose = decompose
        self.lib = _library(kernel_source(rules, box, symmetry, decompose))   # c_source's text, kept on disk
        if dense is None:
            dense = box.size <= DENSE_LIMIT
        self.dense = dense
        self._t = self.lib.k_new(mode, box.size if dense else 0, limit)
        if not self._t:
            raise MemoryError(f"no memory for a table of {box.size:,} positions")
        self._strides = box.strides

    def __del__(self):
        t, self._t = getattr(self, "_t", None), None
        if t:
            self.lib.k_free(t)

    @property
    def stored(self) -> int:
        return self.lib.k_stored(self._t)

    def _run(self, call) -> None:
        """Call the kernel until it is done. It returns every few milliseconds (PAUSED) so that
        Python's signal handlers run between calls: Ctrl-C (or a handler raising on SIGTERM)
        stops a long solve within a second. The search under way is then abandoned: the
        positions it had marked become unknown again, and the table stays usable."""
        self._check(run_paused(call, lambda: self.lib.k_abort(self._t)))

    def _check(self, status: int) -> None:
        if status == 0:
            return
        if status == 1:
            raise OutOfBox(self.lib.k_err_slot(self._t), self.lib.k_err_value(self._t))
        if status == DOMAIN:
            raise KernelError(status, key=self.lib.k_err_value(self._t) & (2 ** 64 - 1))
        raise KernelError(status)

    def value(self, state: Sequence[int]) -> int:
        """The stored byte for ``state``, solving it first."""
        key = self.box.index(state)
        self._run(lambda: self.lib.k_solve(self._t, key))
        return self.lib.k_value(self._t, key)

    def values(self, states: Sequence[Sequence[int]]) -> bytes:
        """The stored bytes of many positions, solved in one call (ValueError: one is outside
        the box)."""
        n = len(states)
        keys = batch_keys(self.lib, self.box, states)
        out = (ctypes.c_uint8 * n)()
        at = ctypes.c_int64(0)
        self._run(lambda: self.lib.k_solve_many(self._t, keys, n, out, ctypes.byref(at)))
        return bytes(out)

    def grundy(self, state: Sequence[int]) -> int:
        assert self.mode in (GRUNDY, MISERE_GRUNDY)
        return self.value(state) - 1

    def mover_wins(self, state: Sequence[int]) -> bool:
        if self.mode in (GRUNDY, MISERE_GRUNDY):
            return self.value(state) != 1
        return self.value(state) == WINS

    def sweep(self) -> memoryview:
        """Solve every position of the (dense) box; the table, one byte per index."""
        if not self.dense:
            raise ValueError("a sweep needs a dense table")
        at = ctypes.c_uint64(0)
        self._run(lambda: self.lib.k_sweep(self._t, ctypes.byref(at), self.box.size))
        return self.table()

    def table(self) -> memoryview:
        ptr = self.lib.k_dense(self._t)
        return memoryview((ctypes.c_uint8 * self.box.size).from_address(ptr)).cast("B")

    def canonical(self, state: Sequence[int]) -> State:
        """The representative the kernel stores ``state`` under (itself without symmetry)."""
        return self.box.state(self.lib.k_canon(self.box.index(state)))

    def all_successors(self, state: Sequence[int], cap: int) -> list[State] | None:
        """Every successor of ``state`` as the kernel generates them (with repeats), or None if
        there are more than ``cap`` (a certificate enumerating one large position's moves)."""
        key = self.box.index(state)
        n = self.lib.k_successors(key, None, 0)
        if n < 0:
            if -n == 1:
                raise OutOfBox(-1, 0)
            self._check(-n)
        if n > cap:
            return None
        buf = (ctypes.c_uint64 * max(n, 1))()
        self.lib.k_successors(key, buf, n)
        return [self.box.state(buf[i]) for i in range(n)]

    def successors(self, state: Sequence[int]) -> list[State]:
        """The successors as the kernel generates them (for differential tests)."""
        cap = 1 << 16
        buf = (ctypes.c_uint64 * cap)()
        n = self.lib.k_successors(self.box.index(state), buf, cap)
        if n < 0:
            if -n == 1:
                raise OutOfBox(-1, 0)
            self._check(-n)
        return [self.box.state(buf[i]) for i in range(min(n, cap))]
