/* The C kernel's runtime: integer helpers as Python computes, the successor buffer, OUT().
   Fixed text, read by grundy/solvers/native/codegen.py; the generated per-game parts follow it. */
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
