/* The C kernel's search and tables (k_new, k_solve, k_sweep, ...): fixed text, appended by
   grundy/solvers/native/codegen.py after the per-game parts (NS, LO, RADIX, STRIDE, successors,
   unpack, canon, components). */

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
