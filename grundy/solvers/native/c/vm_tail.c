/* The interpreter's entry points (after c/solver.c and c/sweep.c): each takes a VT, a table with
   the program it runs, sets the program in force (P_) and calls the fixed search. */
#undef k_new
#undef k_free
#undef k_stored
#undef k_canon
#undef k_err_slot
#undef k_err_value
#undef k_value
#undef k_dense
#undef k_abort
#undef k_solve
#undef k_keys
#undef k_solve_many
#undef k_sweep
#undef k_successors
#undef s_run
typedef struct { T *t; const Prog *p; } VT;

/* The components of the position (c/components.c) where the program decomposes (DECOMPOSE) and
   the position is decomposable; the presence code's overflow is the caller's (expand: status 6).
   Counted, at each position expanded: whether it splits (probed, split), and where a program
   probes (not decomposing), whether it would (vm_head.c's successors). */
static int split_here(K key, const I *s, Buf *b) {
    Prog *p = (Prog *)P_;
    const Code *c = &p->pres;
    I r[c->nreg > 0 ? c->nreg : 1], pres[p->nel > 0 ? p->nel : 1];
    Buf none = {0};
    vm_regs(r, s, c);
    vm_run(c->code, c->pc, r, key, s, b ? b : &none, 0, 0);
    if (!r[c->reg]) return 0;
    for (int64_t x = 0; x < p->nel; x++) pres[x] = r[p->preg[x]];
    return split_components(key, s, b, p->nel, pres, p->nlinks, p->links, p->el_off, p->el_slots, p->empty);
}
static int components(K key, const I *s, Buf *b) {
    Prog *p = (Prog *)P_;
    int split = split_here(key, s, b);
    p->probed++;
    p->split += split;
    return split;
}
static void probe(K key, const I *s, Buf *b) {
    Prog *p = (Prog *)P_;
    p->probed++;
    p->split += split_here(key, s, 0);
    (void)b;
}

VT *v_new(const Prog *p, int mode, K dense_size, int64_t limit) {
    VT *v = calloc(1, sizeof(VT));
    if (!v) return 0;
    P_ = p;
    v->p = p;
    v->t = k_new_in(mode, dense_size, limit);
    if (!v->t) { free(v); return 0; }
    return v;
}
void k_free(VT *v) { if (v) { P_ = v->p; k_free_in(v->t); free(v); } }
int64_t k_stored(VT *v) { return k_stored_in(v->t); }
void v_limit(VT *v, int64_t limit) { v->t->limit = limit; }
/* a new table of mode in place of v's (the program stays) */
int v_renew(VT *v, int mode, K dense_size, int64_t limit) {
    P_ = v->p;
    T *t = k_new_in(mode, dense_size, limit);
    if (!t) return 5;
    k_free_in(v->t);
    v->t = t;
    return 0;
}
int k_err_slot(VT *v) { return k_err_slot_in(v->t); }
int64_t k_err_value(VT *v) { return k_err_value_in(v->t); }
int k_value(VT *v, K key) { P_ = v->p; return k_value_in(v->t, key); }
void k_abort(VT *v) { P_ = v->p; k_abort_in(v->t); }
int k_solve(VT *v, K root) { P_ = v->p; return k_solve_in(v->t, root); }
int k_solve_many(VT *v, const K *keys, int64_t n, uint8_t *out, int64_t *at) {
    P_ = v->p; return k_solve_many_in(v->t, keys, n, out, at);
}
int64_t v_keys(const Prog *p, const I *flat, int64_t n, K *out) { P_ = p; return k_keys_in(flat, n, out); }
int64_t v_successors(const Prog *p, K key, K *out, int64_t cap) { P_ = p; return k_successors_in(key, out, cap); }
/* s_run (c/sweep.c) on a VT: the same arguments as a generated kernel's, so that a SweepRun
   drives either (grundy/solvers/native/sweep.py) */
int s_run(VT *v, const I *vals, const int64_t *nv, const int8_t *nums, int by_value,
          int64_t *at, int64_t to, SW *w, int64_t *idx, I *tot) {
    P_ = v->p;
    return s_run_in(v->t, vals, nv, nums, by_value, at, to, w, idx, tot);
}
/* the statement alone at one state (for tests): 1 and *claimed where the assumption holds, else 0 */
int v_eval(const Prog *p, const I *s, I *claimed) { P_ = p; return s_eval(s, claimed); }
