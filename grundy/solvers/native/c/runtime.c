/* The C kernel's runtime: integer helpers as Python computes, the successor buffer, OUT().
   Fixed text, read by grundy/solvers/native/codegen.py; the generated per-game parts follow it. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
typedef int64_t I;
typedef uint64_t K;
#ifdef K_SPLIT                     /* a kernel built in two parts (c/core_head.c): one flag for both */
extern int mul_overflow __attribute__((visibility("hidden")));
#else
static int mul_overflow;
#endif
static inline I mulc(I a, I b) { I r; if (__builtin_mul_overflow(a, b, &r)) { mul_overflow = 1; return 0; } return r; }
static inline I fdiv(I a, I b) { I q = a / b; if ((a % b) && ((a < 0) != (b < 0))) q--; return q; }
static inline I fmd(I a, I b) { I r = a % b; if (r && ((r < 0) != (b < 0))) r += b; return r; }
static inline I imin(I a, I b) { return a < b ? a : b; }
static inline I imax(I a, I b) { return a > b ? a : b; }
/* popcount of |a| (Python's int.bit_count); the nim product of non-negative numbers (grundy/spec/nimber.py:
   halves below and above F = 2^h, with F (x) F = F ^ F/2); a negative operand or a product past 63 bits is
   flagged as an overflow */
static inline I popc(I a) { unsigned long long u = a < 0 ? 0ULL - (unsigned long long)a : (unsigned long long)a;
                            return (I)__builtin_popcountll(u); }
static unsigned long long nimmul_u(unsigned long long a, unsigned long long b, int L) {
    if (a < 2 || b < 2) return a * b;
    int h = L / 2;
    unsigned long long mask = (1ULL << h) - 1, a1 = a >> h, a0 = a & mask, b1 = b >> h, b0 = b & mask;
    unsigned long long hi = nimmul_u(a1, b1, h), lo = nimmul_u(a0, b0, h);
    unsigned long long mid = nimmul_u(a1 ^ a0, b1 ^ b0, h) ^ lo;
    return (mid << h) ^ lo ^ nimmul_u(hi, 1ULL << (h - 1), h);
}
static inline I nimmul(I a, I b) {
    if (a < 0 || b < 0) { mul_overflow = 1; return 0; }
    unsigned long long m = (unsigned long long)(a > b ? a : b);
    int L = 1;
    while (L < 64 && (m >> L)) L *= 2;
    unsigned long long r = nimmul_u((unsigned long long)a, (unsigned long long)b, L);
    if (r >> 63) { mul_overflow = 1; return 0; }
    return (I)r;
}

#define PAUSED 9                   /* a search returns to its caller every POLL_STEPS steps (c/solver.c, c/follow.c) */
#define POLL_STEPS (1 << 16)
typedef struct { K *keys; int64_t n, cap; int err; int err_slot; I err_value; I *rank; int64_t rcap; } Buf;
static inline void push(Buf *b, K k) {
    if (b->n == b->cap) {
        int64_t cap = b->cap ? 2 * b->cap : 1024;
        K *p = realloc(b->keys, cap * sizeof(K));
        if (!p) { b->err = 5; return; }
        b->keys = p; b->cap = cap;
    }
    b->keys[b->n++] = k;
}
/* push with the successor's rank less the position's (a kernel's moves, RANKED: see solver.c) */
static inline void push_ranked(Buf *b, K k, I r) {
    if (b->n >= b->rcap) {
        int64_t cap = b->rcap ? 2 * b->rcap : 1024;
        I *p = realloc(b->rank, cap * sizeof(I));
        if (!p) { b->err = 5; return; }
        b->rank = p; b->rcap = cap;
    }
    b->rank[b->n] = r;
    push(b, k);
}
#define OUT(slot, v) do { I v_ = (v); if ((K)(v_ - LO[slot]) >= (K)RADIX[slot]) { b->err = 1; b->err_slot = slot; b->err_value = v_; } nk += (K)(v_ - s[slot]) * STRIDE[slot]; } while (0)
