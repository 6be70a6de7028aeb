/* The interpreter of the IR (grundy/solvers/native/vm.py): one fixed C text, compiled once per
   machine, that runs a game's moves and a claim's statement given as data (a program of
   registers and jumps) instead of as generated C. Put between c/runtime.c and c/solver.c: it
   defines what the generated parts of a kernel define (NS, LO, RADIX, STRIDE, successors, unpack,
   canon, components, s_eval) from the program in force, P_ (set by every entry point of
   c/vm_tail.c). canon is the identity; a position splits into components (c/components.c) only
   where the program says so (decompose: set once the decomposition premise is proved, vm.py).
   Every sum, difference and product is checked: one past 64 bits (or a division by a divisor
   that is not positive, which the IR never writes) raises the overflow flag, and the caller
   takes the Python path (so a statement needs no proof of its ranges beforehand). */
typedef struct {                     /* a piece of code and its registers: slots 0..ns-1, then */
    int64_t nreg, nconst;            /* nconst constants (from consts), then the temporaries */
    const I *consts;
    const int64_t *code;
    int64_t pc, reg, pc2, reg2;      /* the moves: pc; a statement: the assumption's pc (-1: none)
                                        and register, the statement's */
    int64_t nflag;                   /* a statement: its nodes computed once, when first needed (NEED) */
} Code;
typedef struct {
    int64_t ns;
    const I *lo, *radix;             /* the box */
    const K *stride;
    const int64_t *order;            /* the digits of a key, least significant first (Box.order) */
    Code moves, stmt;
    int64_t decompose;               /* 1: positions split into components (the Grundy search only) */
    int64_t probe, probed, split;    /* probe (decompose 0): positions expanded, those that would split */
    Code pres;                       /* ... the code of decomposable (register reg) and each element's */
    int64_t nel, nlinks;             /* presence (registers preg[x]), and what split_components reads */
    const int64_t *preg, *links, *el_off, *el_slots;
    const I *empty;
} Prog;
static __thread const Prog *P_;
#define NS (P_->ns)
#define LO (P_->lo)
#define RADIX (P_->radix)
#define STRIDE (P_->stride)
#define RANKED 0
#define CANONICAL 0
#define DECOMPOSE (P_->decompose)
#define PACKED 1                     /* vm.py builds programs on boxes below 2^56 positions only */
#define SW_NS                        /* SW's best_s: a flexible array (the caller's has NS entries) */

/* the opcodes (vm.py's OPCODES, in this order) */
enum { V_END, V_JZ, V_JMP, V_FORCHK, V_DEC, V_CHECK, V_EMIT, V_MOV, V_NOT, V_POPC, V_ITE,
       V_ADD, V_SUB, V_MUL, V_DIV, V_MOD, V_XOR, V_BAND, V_BOR, V_NIMMUL, V_LT, V_LE, V_EQ, V_MIN, V_MAX,
       V_SWITCH, V_JNZ, V_NEED, V_RET };

/* Run the code from pc to its END on the registers r; the moves push their successors into b
   (key, s: the position), a move leaving a field's domain stops with DOMAIN (8). A statement's
   node used more than once is computed by a piece of code of its own, ending with RET, run where
   the node is first needed: NEED [flag, target] runs it unless fl[flag] says it has run (each
   flag set once, so at most nflag pieces are under way: stk holds their return places). */
static void vm_run(const int64_t *c, int64_t pc, I *r, K key, const I *s, Buf *b, uint8_t *fl, int64_t *stk) {
    int64_t sp = 0;
    for (;;) {
        const int64_t *x = c + pc;
        switch (x[0]) {
        case V_END: return;
        case V_JZ: pc = r[x[1]] ? pc + 3 : x[2]; break;
        case V_JNZ: pc = r[x[1]] ? x[2] : pc + 3; break;
        case V_JMP: pc = x[1]; break;
        case V_NEED:
            if (fl[x[1]]) pc += 3;
            else { fl[x[1]] = 1; stk[sp++] = pc + 3; pc = x[2]; }
            break;
        case V_RET: pc = stk[--sp]; break;
        case V_FORCHK: pc = r[x[1]] < r[x[2]] ? x[3] : pc + 4; break;
        case V_DEC: r[x[1]]--; pc += 2; break;
        case V_CHECK: if (r[x[1]]) { b->err = 8; b->err_value = (I)key; return; } pc += 2; break;
        case V_EMIT: {
            K nk = key;
            for (int64_t j = 0; j < x[1]; j++) OUT(x[2 + 2 * j], r[x[3 + 2 * j]]);
            push(b, nk);
            pc += 2 + 2 * x[1];
        } break;
        case V_MOV: r[x[1]] = r[x[2]]; pc += 3; break;
        case V_NOT: r[x[1]] = !r[x[2]]; pc += 3; break;
        case V_POPC: r[x[1]] = popc(r[x[2]]); pc += 3; break;
        case V_ITE: r[x[1]] = r[x[2]] ? r[x[3]] : r[x[4]]; pc += 5; break;
        case V_SWITCH: {             /* [reg, lo, n, n targets, the default]: the moves of one value */
            I v = r[x[1]] - x[2];
            pc = v >= 0 && v < x[3] ? x[4 + v] : x[4 + x[3]];
        } break;
        default: {
            I a = r[x[2]], v = r[x[3]], out;
            switch (x[0]) {
            case V_ADD: if (__builtin_add_overflow(a, v, &out)) { mul_overflow = 1; out = 0; } break;
            case V_SUB: if (__builtin_sub_overflow(a, v, &out)) { mul_overflow = 1; out = 0; } break;
            case V_MUL: out = mulc(a, v); break;
            case V_DIV: if (v > 0) out = fdiv(a, v); else { mul_overflow = 1; out = 0; } break;
            case V_MOD: if (v > 0) out = fmd(a, v); else { mul_overflow = 1; out = 0; } break;
            case V_XOR: out = a ^ v; break;
            case V_BAND: out = a & v; break;
            case V_BOR: out = a | v; break;
            case V_NIMMUL: out = nimmul(a, v); break;
            case V_LT: out = a < v; break;
            case V_LE: out = a <= v; break;
            case V_EQ: out = a == v; break;
            case V_MIN: out = imin(a, v); break;
            case V_MAX: out = imax(a, v); break;
            default: b->err = 7; return;     /* not an opcode: vm.py's bug */
            }
            r[x[1]] = out;
            pc += 4;
        }
        }
    }
}

static inline void vm_regs(I *r, const I *s, const Code *c) {
    memcpy(r, s, NS * sizeof(I));
    memcpy(r + NS, c->consts, c->nconst * sizeof(I));
}

static void probe(K key, const I *s, Buf *b);     /* c/vm_tail.c */
static void successors(K key, const I *s, Buf *b) {
    if (P_->probe) probe(key, s, b);
    I r[P_->moves.nreg];
    vm_regs(r, s, &P_->moves);
    vm_run(P_->moves.code, P_->moves.pc, r, key, s, b, 0, 0);
}

static void unpack(K key, I *s) {
    for (int64_t j = 0; j < NS; j++) {
        int64_t i = P_->order[j];
        s[i] = (I)(key % (K)RADIX[i]) + LO[i]; key /= (K)RADIX[i];
    }
}

static inline K canon(K key) { return key; }
static int components(K key, const I *s, Buf *b);    /* c/vm_tail.c */

/* The claim's assumption and statement at s (as sweep.py's generated s_eval). */
static int s_eval(const I *s, I *claimed) {
    const Code *c = &P_->stmt;
    I r[c->nreg];
    int64_t nf = c->nflag > 0 ? c->nflag : 1, stk[nf];
    uint8_t fl[nf];                  /* the assumption's nodes computed stay computed for the statement */
    Buf b = {0};
    vm_regs(r, s, c);
    memset(fl, 0, nf);
    if (c->pc >= 0) {
        vm_run(c->code, c->pc, r, 0, s, &b, fl, stk);
        if (!r[c->reg]) return 0;
    }
    vm_run(c->code, c->pc2, r, 0, s, &b, fl, stk);
    *claimed = r[c->reg2];
    return 1;
}

/* solver.c's and sweep.c's entry points under other names: c/vm_tail.c wraps them */
#define k_new k_new_in
#define k_free k_free_in
#define k_stored k_stored_in
#define k_canon k_canon_in
#define k_err_slot k_err_slot_in
#define k_err_value k_err_value_in
#define k_value k_value_in
#define k_dense k_dense_in
#define k_abort k_abort_in
#define k_solve k_solve_in
#define k_keys k_keys_in
#define k_solve_many k_solve_many_in
#define k_sweep k_sweep_in
#define k_successors k_successors_in
#define s_run s_run_in
