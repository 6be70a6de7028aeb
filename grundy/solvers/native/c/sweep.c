/* A claim's sweep beside the kernel (s_run): fixed text, appended by grundy/solvers/native/sweep.py
   after a kernel's source and the claim's generated s_eval (the assumption and the statement).
   The positions are the product of the slots' value lists, in the order of Python's
   itertools.product (the last slot fastest): each index is a position of the sweep. */
#define OUTSIDE 20                 /* a position of the sweep outside the kernel's box */
#ifndef SW_NS
#define SW_NS NS > 0 ? NS : 1      /* best_s's length (the interpreter, c/vm.c: a flexible array) */
#endif
typedef struct {
    int64_t checked, agreed;       /* positions where the assumption held; those the claim held at */
    int64_t best;                  /* the index of the least position the claim failed at, or -1 */
    I best_sum, best_max;          /* its size: the sum and the largest of its numeric slots */
    int64_t capped;                /* 1: a failure of sum cap is known (found before this range) */
    I cap;
    I best_s[SW_NS];               /* ... then the state itself */
} SW;

/* (sum, max, s) below the best kept (the order of size_key on one structure). */
static int s_less(const SW *w, I sum, I mx, const I *s) {
    if (w->best < 0) return 1;
    if (sum != w->best_sum) return sum < w->best_sum;
    if (mx != w->best_max) return mx < w->best_max;
    for (int j = 0; j < NS; j++) if (s[j] != w->best_s[j]) return s[j] < w->best_s[j];
    return 0;
}

/* The positions of index [*at, to): the assumption, the kernel's value (as k_solve_many: the
   canonical key solved, its stored byte read), the statement; counts and the least failure into
   w, the indices of the positions the claim held at and their sums into idx and tot (room for
   to - *at). Once a failure is known (found here, or w->capped: before this range, of sum
   w->cap), a position of larger sum is passed over (not solved, not counted): it cannot be the
   least failure. nums[j]: slot j is numeric (counted in the size). by_value: the statement is a
   Grundy value (else true at the P-positions). Returns 0, PAUSED (call again: *at is where to go
   on), OUTSIDE, 6 (a product overflowed in the statement) or a kernel status; on a status other
   than PAUSED the caller discards w (the range is checked another way). */
int s_run(T *t, const I *vals, const int64_t *nv, const int8_t *nums, int by_value,
          int64_t *at, int64_t to, SW *w, int64_t *idx, I *tot) {
    if (NS == 0) return 7;
    const I *base[NS > 0 ? NS : 1];
    int64_t d[NS > 0 ? NS : 1];
    I s[NS > 0 ? NS : 1];
    int64_t off = 0;
    for (int j = 0; j < NS; j++) { base[j] = vals + off; off += nv[j]; }
    int64_t r = *at;
    for (int j = NS - 1; j >= 0; j--) { d[j] = r % nv[j]; r /= nv[j]; s[j] = base[j][d[j]]; }
    for (int64_t i = *at; i < to; i++) {
        if (i > *at) {                        /* the next position: an odometer, last slot fastest */
            int j = NS - 1;
            while (++d[j] == nv[j] && j > 0) { d[j] = 0; s[j] = base[j][0]; j--; }
            s[j] = base[j][d[j]];
        }
        I claimed = 0;
        int mo = mul_overflow;
        mul_overflow = 0;
        int held = s_eval(s, &claimed);
        if (mul_overflow) { mul_overflow = mo; *at = i; return 6; }   /* reported: not left for the next search */
        mul_overflow = mo;
        if (!held) continue;
        I sum = 0, mx = 0;
        int any = 0;
        for (int j = 0; j < NS; j++) if (nums[j]) { sum += s[j]; mx = any && mx > s[j] ? mx : s[j]; any = 1; }
        if ((w->capped && sum > w->cap) || (w->best >= 0 && sum > w->best_sum))
            continue;                         /* larger than a failure known: not the least one */
        K key = 0;
        for (int j = 0; j < NS; j++) {
            if ((K)(s[j] - LO[j]) >= (K)RADIX[j]) { *at = i; return OUTSIDE; }
            key += (K)(s[j] - LO[j]) * STRIDE[j];
        }
        K c = canon(key);
        int e = solve_canonical(t, t->depth ? 0 : c);
        if (e) { *at = i; return e; }
        uint8_t v = get(t, c);
        int wrong = by_value ? claimed != (I)v - 1 : (claimed != 0) == (v != 1);
        w->checked++;
        if (wrong) {
            if (s_less(w, sum, mx, s)) {
                w->best = i; w->best_sum = sum; w->best_max = mx;
                for (int j = 0; j < NS; j++) w->best_s[j] = s[j];
            }
        } else {
            idx[w->agreed] = i; tot[w->agreed] = sum; w->agreed++;
        }
    }
    *at = to;
    return 0;
}
