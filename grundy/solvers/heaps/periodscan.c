/* The least period of G(0..N) (with its least preperiod), proved by a periodicity theorem or only
   apparent: the C statement of grundy/solvers/heaps/period.py's period(), step for step (the
   same candidates in the same order, the same checks). Built once by grundy.solvers.native.build.

   The theorem is given by its bound, linear in n0 and p (PeriodTheorem.linear, checked against
   PeriodTheorem.needed where it is made): the largest heap the check of (n0, p) reads is
   a n0 + b p + c for n0 >= 1 and b p + c0 for n0 = 0; has_theorem 0: none applies. */
#include <stdint.h>

typedef uint32_t u32;
typedef int64_t i64;

/* G(n + p) = G(n) for every n from lo to N - p */
static int repeats_from(const u32 *G, i64 N, i64 p, i64 lo) {
    for (i64 i = lo > 0 ? lo : 0; i <= N - p; i++)
        if (G[i + p] != G[i]) return 0;
    return 1;
}

/* the least n0 from which G(n + p) = G(n) holds up to N */
static i64 least_n0(const u32 *G, i64 N, i64 p) {
    i64 n = N - p;
    while (n >= 0 && G[n + p] == G[n]) n--;
    return n + 1;
}

/* 0: no period to report; 1: proved; 2: apparent. *pp, *pn0: the period and its preperiod. */
int pd_period(const u32 *G, i64 N, int has_theorem, i64 a, i64 b, i64 c, i64 c0, i64 *pp, i64 *pn0) {
    if (N < 0) return 0;
    u32 last = G[N];
    if (has_theorem)
        for (i64 p = 1; p <= N; p++) {
            if (G[N - p] != last) continue;
            if (b * p + c0 > N) break;                      /* no larger p can be proved either */
            i64 top = a + b * p + c <= N ? (N - b * p - c) / a : 0;   /* the largest n0 it can prove */
            if (repeats_from(G, N, p, top)) { *pp = p; *pn0 = least_n0(G, N, p); return 1; }
        }
    for (i64 p = 1; p <= N; p++) {
        if (G[N - p] != last) continue;
        if (p > N / 3) break;
        /* three periods seen after n0, and the periodic part at least half of G(0..N) */
        i64 top = N + 1 - 3 * p < (N + 1) / 2 ? N + 1 - 3 * p : (N + 1) / 2;
        if (repeats_from(G, N, p, top)) { *pp = p; *pn0 = least_n0(G, N, p); return 2; }
    }
    return 0;
}
