/* The strategy follower (f_new, f_follow_many, ...): fixed text, appended by
   grundy/solvers/native/follow.py after a kernel's source and the strategy's generated C. */
typedef struct { K x; int64_t start, end, idx; } SF;
typedef struct {
    uint64_t *won; int misere; Buf succ;
    SF *st; int64_t depth, cap; int64_t steps;
    int err_slot; I err_value;
} FW;

FW *f_new(K size, int misere) {
    FW *f = calloc(1, sizeof(FW));
    if (!f) return 0;
    f->won = calloc((size + 63) / 64, sizeof(uint64_t));
    if (!f->won) { free(f); return 0; }
    f->misere = misere;
    return f;
}
void f_free(FW *f) { if (f) { free(f->won); free(f->succ.keys); free(f->succ.rank); free(f->st); free(f); } }
void f_abort(FW *f) { f->depth = 0; f->succ.n = 0; f->steps = 0; }
int f_err_slot_of(FW *f) { return f->err_slot; }
int64_t f_err_value_of(FW *f) { return f->err_value; }
static inline int wonp(FW *f, K k) { return f->won[k >> 6] >> (k & 63) & 1; }
static inline void setwon(FW *f, K k) { f->won[k >> 6] |= 1ULL << (k & 63); }

/* The successors of key appended to f->succ; *n their number. */
static int gen(FW *f, K key, int64_t *n) {
    I s[NS];
    int64_t start = f->succ.n;
    unpack(key, s);
    successors(key, s, &f->succ);
    if (mul_overflow) { mul_overflow = 0; f->succ.n = start; return 6; }
    if (f->succ.err) {
        int e = f->succ.err; f->succ.err = 0;
        f->err_slot = f->succ.err_slot; f->err_value = f->succ.err_value;
        f->succ.n = start;
        return e;
    }
    *n = f->succ.n - start;
    return 0;
}

/* The strategy's turn at x: *r = 0 it wins here, 1 it fails, 2 go on (x's frame pushed:
   the replies to its move). As the Python follower's _node. */
static int node(FW *f, K x, int *r) {
    int64_t start = f->succ.n, n;
    int e;
    if ((e = gen(f, x, &n))) return e;
    f->succ.n = start;
    if (!n) { *r = f->misere ? 0 : 1; return 0; }
    I s[NS];
    K y = 0;
    unpack(x, s);
    e = strategy(x, s, &y);
    if (mul_overflow) { mul_overflow = 0; return 6; }
    if (e == NO_CASE || e == ILLEGAL) { *r = 1; return 0; }
    if (e == 1) { f->err_slot = f_err_slot; f->err_value = f_err_value; return 1; }
    if (e) return e;
    if ((e = gen(f, y, &n))) return e;
    if (!n) { *r = f->misere ? 1 : 0; return 0; }
    for (int64_t i = 0; i < f->depth; i++)
        if (f->st[i].x == x) { f->succ.n = start; return 2; }     /* a cycle: no rank */
    if (f->depth == f->cap) {
        int64_t cap = f->cap ? 2 * f->cap : 256;
        SF *p = realloc(f->st, cap * sizeof(SF));
        if (!p) { f->succ.n = start; return 5; }
        f->st = p; f->cap = cap;
    }
    SF *fr = &f->st[f->depth++];
    fr->x = x; fr->start = fr->idx = start; fr->end = start + n;
    *r = 2;
    return 0;
}

/* Play from root (or go on with the search PAUSED left, same root). *res: 1 wins, 0 fails,
   2 no move at root. A node is marked won only once every reply below it is won. */
static int follow_(FW *f, K root, int *res) {
    int e, r;
    if (!f->depth) {
        int64_t n;
        if ((e = gen(f, root, &n))) return e;
        f->succ.n = 0;
        if (!n) { *res = 2; return 0; }
        if (wonp(f, root)) { *res = 1; return 0; }
        if ((e = node(f, root, &r))) return e;
        if (r != 2) { if (!r) setwon(f, root); *res = !r; return 0; }
    }
    while (f->depth) {
        if (++f->steps >= POLL_STEPS) { f->steps = 0; return PAUSED; }
        SF *fr = &f->st[f->depth - 1];
        if (fr->idx == fr->end) { setwon(f, fr->x); f->succ.n = fr->start; f->depth--; continue; }
        K z = f->succ.keys[fr->idx++];
        if (wonp(f, z)) continue;
        if ((e = node(f, z, &r))) return e;
        if (r == 1) { f_abort(f); *res = 0; return 0; }
        if (r == 0) setwon(f, z);
    }
    *res = 1;
    return 0;
}

/* Follow from keys[*at..n); results into out. PAUSED: *at is where to go on. Any other
   status: the search is abandoned (the positions marked won stay so: each was shown). */
int f_follow_many(FW *f, const K *keys, int64_t n, uint8_t *out, int64_t *at) {
    for (int64_t i = *at; i < n; i++) {
        int res = 0, e = follow_(f, keys[i], &res);
        if (e) { *at = i; if (e != PAUSED) f_abort(f); return e; }
        out[i] = (uint8_t)res;
    }
    *at = n;
    return 0;
}
