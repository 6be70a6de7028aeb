/* The one-heap values of a take-and-break code: the sparse-space method (and the plain one),
   the C statement of grundy/solvers/heaps/sparse.py. Built once by grundy.solvers.native.build. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint32_t u32;
typedef int64_t i64;

/* FIRST_CHECK, CHECK_STEP, RESUME_STEP, MAX_WHT_BITS, PROBE_FROM and PROBE_LENGTH are defined by the loader
   (grundy/solvers/heaps/takebreak.py), from the constants the Python method uses too. */
#ifndef MAX_WHT_BITS
#error "load this file through grundy.solvers.heaps.takebreak"
#endif

static int bitlen(u32 x) { int b = 0; while (x) { b++; x >>= 1; } return b; }
static int parity(u32 x) { return __builtin_parity(x); }
/* heap r of value g is rare (equally: an option value g of the splits of r is rare for r) */
static inline int rare(u32 g, i64 r, u32 mask, int par) { return !(parity(g & mask) ^ (par & (int)(r & 1))); }
/* heap h of value g goes to the rare list: g is rare for m = h - k, k of the splits' parity kodd
   (with par = 1 the class c(h) ^ (k & 1): see sparse.py, "The rare class") */
static inline int rare_heap(u32 g, i64 h, u32 mask, int par, int kodd) { return rare(g, h - kodd, mask, par); }

/* seen[v] == stamp: v is an option of the current heap. Grown to 2^bits(max value) + 1,
   which bounds every XOR of values and the mex. */
static int grow(u32 **seen, i64 *cap, i64 need) {
    if (need <= *cap) return 0;
    i64 nc = *cap ? *cap : 1024;
    while (nc < need) nc *= 2;
    u32 *p = (u32 *)realloc(*seen, (size_t)nc * sizeof(u32));
    if (!p) return -1;
    memset(p + *cap, 0, (size_t)(nc - *cap) * sizeof(u32));
    *seen = p; *cap = nc;
    return 0;
}

#define DIG(k) ((k) < L ? d[k] : tail)

/* the highest k worth a look for heap h: every k with a digit, or (tail) every k <= h */
static i64 kmax(int L, int tail, i64 h) { return tail ? h : (i64)L - 1; }

/* Mark every split a + b = m (a <= b; a < b if uneq) of the current heap; their number. */
static i64 scan_all(u32 *restrict seen, const u32 *restrict G, i64 m, int uneq, u32 st) {
    i64 half = uneq ? (m - 1) / 2 : m / 2;
    for (i64 a = 1; a <= half; a++) seen[G[a] ^ G[m - a]] = st;
    return half;
}

/* The non-zero (mask, size parity) making the fewest heaps of G[0..h] rare (ties: the
   smallest mask + 2^vb parity; parity 0 unless ext), kept in *out / *opar unless it makes
   fewer rare than the current pair does; nothing when the values are too wide. With parity 1
   and kodd the rare class is c = 1, of (h + 1 - W) / 2 heaps: its score is -W. */
static i64 choose_mask(const u32 *G, i64 h, int vb, int ext, int kodd, u32 *out, int *opar) {
    if (vb == 0 || vb > MAX_WHT_BITS) return 0;
    i64 size = (i64)1 << (vb + ext);
    i64 *W = (i64 *)calloc((size_t)size, sizeof(i64));
    if (!W) return -1;
    for (i64 i = 0; i <= h; i++) W[G[i] | ((u32)(i & 1 & ext) << vb)]++;
    for (i64 len = 1; len < size; len <<= 1)
        for (i64 i = 0; i < size; i += 2 * len)
            for (i64 j = i; j < i + len; j++) {
                i64 a = W[j], b = W[j + len];
                W[j] = a + b; W[j + len] = a - b;
            }
    for (i64 M = (i64)1 << vb; kodd && M < size; M++) W[M] = -W[M];
    i64 best = 0, bw = 0, now = (i64)*out | ((i64)*opar << vb);
    for (i64 M = 1; M < size; M++)
        if (best == 0 || W[M] < bw) { best = M; bw = W[M]; }
    if (now == 0 || bw < W[now]) { *out = (u32)(best & (((i64)1 << vb) - 1)); *opar = (int)(best >> vb); }
    free(W);
    return 0;
}

/* G(0..n) under the code (digits d[0..L), tail digit, unequal splits) by the sparse-space
   method (see grundy/solvers/heaps/sparse.py, its Python statement, step for step): `fixed` a
   mask (-1: chosen as the values come) and `fpar` its size parity; `ext`: the size parity may
   be chosen (sparse.parity_allowed); `kodd`: the parity of the splitting k (sparse.split_parity);
   `plain`: mask 0 and every split scanned at once (the
   plain method). stats: mask, rares, mask changes, rare pairs, full pairs, size parity.
   G[0..from) given (from > 0: a run to from - 1 extended; its `state` as that run left it):
   heaps from..n computed as the run to n would have, step for step; `state` (STATE_LEN entries)
   is left as the next extension needs it. */
volatile int tb_stop = 0;    /* set from Python (Ctrl-C): the run returns 2 at the next heap */

#define STATE_LEN 11
int tb_run(const int *d, int L, int tail, int uneq, i64 n, i64 fixed, int fpar, int ext, int kodd, int plain, u32 *G,
           i64 *stats, i64 from, i64 *state) {
    u32 *seen = NULL; i64 cap = 0; u32 maxg = 0; int vb = 0;
    u32 mask = fixed >= 0 && !plain ? (u32)fixed : 0;
    int par = fixed >= 0 && !plain ? fpar : 0;
    int adaptive = fixed < 0 && !plain;
    int whole = plain;                     /* every split scanned at once: the plain loop */
    i64 nr = 0, rare_pairs = 0, full_pairs = 0, changes = 0, next_check = FIRST_CHECK;
    i64 plain_pairs = 0;                   /* the splits the plain loop would have scanned so far */
    i64 probe_end = -1, since_work = 0, since_plain = 0;   /* the probe's last heap; counters at its start */
    i64 ncur = tail ? n + 1 : L;
    u32 *R = (u32 *)malloc((size_t)(n + 1) * sizeof(u32));   /* heaps >= 1 with a rare value */
    i64 *cur = (i64 *)malloc((size_t)ncur * sizeof(i64));    /* resumed full scan, per k */
    if (!R || !cur || grow(&seen, &cap, 2)) { free(R); free(cur); free(seen); return -1; }
    if (from > 0) {                        /* the loop's state at heap `from`, as the run left it */
        mask = (u32)state[0]; par = (int)state[1]; changes = state[2]; rare_pairs = state[3]; full_pairs = state[4];
        plain_pairs = state[5]; next_check = state[6]; probe_end = state[7]; since_work = state[8];
        since_plain = state[9]; whole = (int)state[10];
        for (i64 i = 0; i < from; i++) {
            if (G[i] > maxg) maxg = G[i];
            if (i >= 1 && rare_heap(G[i], i, mask, par, kodd)) R[nr++] = (u32)i;
        }
        vb = bitlen(maxg);
        if (grow(&seen, &cap, ((i64)1 << vb) + 1)) { free(R); free(cur); free(seen); return -1; }
    }
    for (i64 h = from; h <= n; h++) {
        if (tb_stop) { free(R); free(cur); free(seen); return 2; }
        u32 st = (u32)(h + 1);
        i64 K = kmax(L, tail, h);
        for (i64 k = 0; k <= K; k++) {
            int dk = DIG(k);
            cur[k] = 1;
            if (k > 0 && (dk & 1) && h == k) seen[0] = st;
            if (k > 0 && (dk & 2) && h > k) seen[G[h - k]] = st;
            if ((dk & 4) && h - k >= 2) {
                i64 m = h - k, i = 0;
                plain_pairs += uneq ? (m - 1) / 2 : m / 2;
                if (whole) {                            /* every split, now */
                    full_pairs += scan_all(seen, G, m, uneq, st);
                    continue;
                }
                for (; i < nr && R[i] < m; i++)
                    if (!(uneq && 2 * (i64)R[i] == m)) seen[G[R[i]] ^ G[m - R[i]]] = st;
                rare_pairs += i;
                if (mask == 0 && par == 0) cur[k] = m / 2 + 1;   /* every heap is rare: nothing left */
            }
        }
        u32 g = 0;
        for (;;) {
            if (seen[g] == st) { g++; continue; }
            if (whole) break;
            /* resume, in turns of RESUME_STEP splits, the full scans of every k for which g is
               rare for h - k (common for h - k: the rares saw it) */
            int found = 0, active = 1;
            while (active && !found) {
                active = 0;
                for (i64 k = 0; k <= K && !found; k++) {
                    if (!(DIG(k) & 4) || h - k < 2) continue;
                    if (!rare(g, h - k, mask, par)) continue;
                    i64 m = h - k, half = uneq ? (m - 1) / 2 : m / 2, a = cur[k];
                    i64 stop = a + RESUME_STEP - 1 < half ? a + RESUME_STEP - 1 : half;
                    while (a <= stop) {
                        u32 v = G[a] ^ G[m - a];
                        seen[v] = st; a++;
                        if (v == g) { found = 1; break; }
                    }
                    if (a > cur[k]) full_pairs += a - cur[k];
                    cur[k] = a;
                    if (a <= half) active = 1;
                }
            }
            if (!found) break;                      /* every split that could give g seen: the mex */
            g++;
        }
        G[h] = g;
        if (h >= 1 && rare_heap(g, h, mask, par, kodd)) R[nr++] = (u32)h;
        if (g > maxg) {
            maxg = g; vb = bitlen(maxg);
            if (grow(&seen, &cap, ((i64)1 << vb) + 1)) { free(R); free(cur); free(seen); return -1; }
        }
        if (adaptive && h == next_check) {
            u32 nm = mask; int np = par;
            if (choose_mask(G, h, vb, ext, kodd, &nm, &np)) { free(R); free(cur); free(seen); return -1; }
            if (nm != mask || np != par) {
                mask = nm; par = np; changes++; nr = 0;
                for (i64 i = 1; i <= h; i++) if (rare_heap(G[i], i, mask, par, kodd)) R[nr++] = (u32)i;
            }
            whole = 4 * nr > h;     /* rares too many: the plain loop until the next check */
            next_check = next_check < CHECK_STEP ? 2 * next_check : next_check + CHECK_STEP;
            if (!whole && h >= PROBE_FROM) {   /* measure the sparse loop on the next heaps */
                probe_end = h + PROBE_LENGTH; since_work = rare_pairs + full_pairs; since_plain = plain_pairs;
            }
        } else if (h == probe_end)  /* over half the plain work: the plain loop until the next check */
            whole = 2 * (rare_pairs + full_pairs - since_work) > plain_pairs - since_plain;
    }
    stats[0] = mask; stats[1] = nr; stats[2] = changes; stats[3] = rare_pairs; stats[4] = full_pairs;
    stats[5] = par;
    state[0] = mask; state[1] = par; state[2] = changes; state[3] = rare_pairs; state[4] = full_pairs;
    state[5] = plain_pairs; state[6] = next_check; state[7] = probe_end; state[8] = since_work;
    state[9] = since_plain; state[10] = whole;
    free(R); free(cur); free(seen);
    return 0;
}
