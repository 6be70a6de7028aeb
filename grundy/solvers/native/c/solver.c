/* The C kernel's search and tables (k_new, k_solve, k_sweep, ...): fixed text, appended by
   grundy/solvers/native/codegen.py after the per-game parts (NS, LO, RADIX, STRIDE, successors,
   unpack, canon, components). */

#define BUSY 255
/* The hash table: one array of entries, each a key + 1 (0: an empty entry) and its value, so that
   a probe reads one cache line. Below 2^56 positions (PACKED, set by the generator) an entry is
   one 64-bit word with the value in its top byte; else a key and a byte side by side. Linear
   probing, at most 3/4 full (eight packed entries share a cache line: a longer run of probes
   costs little, and the table half the memory of one at most half full). */
#if PACKED
typedef K E;
#define E_KEY(e) ((e) & 0x00ffffffffffffffULL)
#define E_VAL(e) ((uint8_t)((e) >> 56))
#define E_SETVAL(e, v) ((e) = E_KEY(e) | (K)(v) << 56)
#define E_MAKE(k1, v) ((k1) | (K)(v) << 56)
#else
typedef struct { K key; uint8_t val; } E;
#define E_KEY(e) ((e).key)
#define E_VAL(e) ((e).val)
#define E_SETVAL(e, v) ((e).val = (v))
static inline E E_MAKE(K k1, uint8_t v) { E e = {k1, v}; return e; }
#endif
typedef struct { K key; int64_t start, end, idx; int sum; } Frame;
typedef struct {
    int mode;
    uint8_t *dense; K dense_size;
    E *tab; K hcap, hcount;
    int64_t stored, limit;
    Buf succ;
    Frame *stack; int64_t depth, stack_cap;
    int err_slot; I err_value;
    int64_t steps;                 /* steps since the last return to the caller */
    struct RK *rk; int64_t rk_cap; /* order_by_rank's room */
} T;

/* Zeroed memory for a table. A large one is mapped apart and asked for huge pages (the table is
   probed at random: with 4 KiB pages nearly every probe also misses the TLB). */
#include <sys/mman.h>
#define BIG_TABLE (1 << 21)
static void *zalloc(size_t bytes) {
    if (bytes < BIG_TABLE) return calloc(bytes, 1);
    void *p = mmap(0, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) return 0;
#ifdef MADV_HUGEPAGE
    madvise(p, bytes, MADV_HUGEPAGE);
#endif
    return p;
}
static void zfree(void *p, size_t bytes) {
    if (!p) return;
    if (bytes < BIG_TABLE) free(p); else munmap(p, bytes);
}

static inline K hmix(K x) { x ^= x >> 33; x *= 0xff51afd7ed558ccdULL; x ^= x >> 33; x *= 0xc4ceb9fe1a85ec53ULL; x ^= x >> 33; return x; }

static inline uint8_t get(T *t, K key) {
    if (t->dense) return t->dense[key];
    K m = t->hcap - 1, i = hmix(key) & m;
    while (E_KEY(t->tab[i])) { if (E_KEY(t->tab[i]) == key + 1) return E_VAL(t->tab[i]); i = (i + 1) & m; }
    return 0;
}

/* Ask the memory for key's entry ahead of its get (the successors of a position are probed
   together: their cache misses overlap). */
static inline void prefetch(T *t, K key) {
    if (t->dense) __builtin_prefetch(&t->dense[key]);
    else __builtin_prefetch(&t->tab[hmix(key) & (t->hcap - 1)]);
}

/* A table grows four times over from 2^20 entries up to 2^24 (8 MiB to 128 MiB), twice over
   elsewhere: a search that stores millions of positions probes a table less full for longer
   (erickson/lemma6.3-levels, 12 million positions: about 13% less time in C) for at most 64 MiB
   more than doubling would hold at some sizes. */
#define GROW4_FROM (1ULL << 20)
#define GROW4_TO (1ULL << 24)
static int grow(T *t) {
    K cap = t->hcap * (t->hcap >= GROW4_FROM && t->hcap < GROW4_TO ? 4 : 2), m = cap - 1;
    E *tab = zalloc(cap * sizeof(E));
    if (!tab) return 5;
    for (K j = 0; j < t->hcap; j++) if (E_KEY(t->tab[j])) {
        K i = hmix(E_KEY(t->tab[j]) - 1) & m;
        while (E_KEY(tab[i])) i = (i + 1) & m;
        tab[i] = t->tab[j];
    }
    zfree(t->tab, t->hcap * sizeof(E)); t->tab = tab; t->hcap = cap;
    return 0;
}

static inline int put(T *t, K key, uint8_t v) {
    if (t->dense) { t->dense[key] = v; return 0; }
    K m = t->hcap - 1, i = hmix(key) & m;
    while (E_KEY(t->tab[i])) { if (E_KEY(t->tab[i]) == key + 1) { E_SETVAL(t->tab[i], v); return 0; } i = (i + 1) & m; }
    t->tab[i] = E_MAKE(key + 1, v); t->hcount++;
    if (4 * t->hcount > 3 * t->hcap) return grow(t);
    return 0;
}

T *k_new(int mode, K dense_size, int64_t limit) {
    T *t = calloc(1, sizeof(T));
    if (!t) return 0;
    t->mode = mode; t->limit = limit; t->dense_size = dense_size;
    if (dense_size) { t->dense = zalloc(dense_size); if (!t->dense) { free(t); return 0; } }
    else { t->hcap = 1 << 16; t->tab = zalloc(t->hcap * sizeof(E)); if (!t->tab) { free(t); return 0; } }
    return t;
}

void k_free(T *t) {
    if (!t) return;
    zfree(t->dense, t->dense_size); zfree(t->tab, t->hcap * sizeof(E)); free(t->succ.keys); free(t->succ.rank); free(t->stack); free(t->rk); free(t);
}

int64_t k_stored(T *t) { return t->stored; }
void k_set_limit(T *t, int64_t limit) { t->limit = limit; }
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
        prefetch(t, t->succ.keys[i]);
    }
    else for (int64_t i = f->start; i < t->succ.n; i++) prefetch(t, t->succ.keys[i]);
    if (mul_overflow) { mul_overflow = 0; return 6; }
    if (t->succ.err) {
        int e = t->succ.err; t->succ.err = 0;
        t->err_slot = t->succ.err_slot; t->err_value = t->succ.err_value;
        return e;
    }
    f->end = t->succ.n; f->idx = f->start;
    return 0;
}

/* The outcome search tries a position's unknown successors least rank first (the rules' rank
   bounds the length of the lines left: the shortest first), in the order they were generated
   among equal ranks. The moves push each successor with its rank less the position's (RANKED:
   the generator found the rank a sum of terms of one slot each). Only the order of the search
   changes, never a value. */
typedef struct RK { I r; int64_t i; K k; } RK;
static int rk_cmp(const void *a, const void *b) {
    const RK *x = a, *y = b;
    return x->r < y->r ? -1 : x->r > y->r ? 1 : (x->i > y->i) - (x->i < y->i);
}
static void order_by_rank(T *t, Frame *f) {
    const int64_t n = f->end - f->start;
    if (!RANKED || t->succ.rcap < f->end) return;
    if (n > t->rk_cap) {
        RK *p = realloc(t->rk, n * sizeof(RK));
        if (!p) return;                           /* no room: the order stays as generated */
        t->rk = p; t->rk_cap = n;
    }
    RK *a = t->rk;
    K *keys = t->succ.keys + f->start;
    const I *rank = t->succ.rank + f->start;
    int sorted = 1;
    for (int64_t i = 0; i < n; i++) {
        RK x = {rank[i], i, keys[i]};
        int64_t j = i;
        if (j > 0 && a[j - 1].r > x.r) sorted = 0;
        if (n <= 32) for (; j > 0 && a[j - 1].r > x.r; j--) a[j] = a[j - 1];
        a[j] = x;
    }
    if (sorted) return;
    if (n > 32) qsort(a, n, sizeof(RK), rk_cmp);
    for (int64_t i = 0; i < n; i++) keys[i] = a[i].k;
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
                int unknown = 0;
                for (int64_t i = f->start; i < f->end; i++) {
                    uint8_t v = get(t, t->succ.keys[i]);
                    if (v == 1) { if ((e = finish(t, f, 2))) return e; goto next; }
                    unknown += !v;
                }
                if (unknown > 1) order_by_rank(t, f);
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
    free(b.keys); free(b.rank);
    return n;
}
