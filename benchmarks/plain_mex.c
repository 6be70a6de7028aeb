/* The baseline of benchmarks/octal_peers.py: the plain mex loop for a finite octal code, as
   tight as it is simply written (no sparse space): G(0..N), every option of every heap.

       cc -O2 -o plain_mex plain_mex.c && ./plain_mex 0.6 100000

   prints "seconds <cpu seconds of the loop>" and "checksum <sum of (h + 1) * G(h) mod 2^64>". */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define VMAX (1u << 20)                /* values and XORs of values below 2^20 */

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: plain_mex CODE N\n"); return 2; }
    int d[64], L = 0;
    const char *c = argv[1];
    if (c[0] < '0' || c[0] > '7' || c[1] != '.') { fprintf(stderr, "code: d0.d1d2...\n"); return 2; }
    d[L++] = c[0] - '0';
    for (const char *p = c + 2; *p && L < 64; p++) {
        if (*p < '0' || *p > '7') { fprintf(stderr, "code: octal digits only\n"); return 2; }
        d[L++] = *p - '0';
    }
    long n = atol(argv[2]);
    uint32_t *G = malloc((size_t)(n + 1) * sizeof *G), *seen = calloc(VMAX, sizeof *seen);
    if (!G || !seen || n < 0) { fprintf(stderr, "out of memory\n"); return 1; }
    clock_t t0 = clock();
    for (long h = 0; h <= n; h++) {
        uint32_t st = (uint32_t)h + 1;
        for (int k = 0; k < L; k++) {
            if (k > 0 && (d[k] & 1) && h == k) seen[0] = st;
            if (k > 0 && (d[k] & 2) && h > k) seen[G[h - k]] = st;
            if ((d[k] & 4) && h - k >= 2) {
                long m = h - k;
                for (long a = 1; a <= m / 2; a++) seen[G[a] ^ G[m - a]] = st;
            }
        }
        uint32_t g = 0;
        while (seen[g] == st) g++;
        if (g >= VMAX / 2) { fprintf(stderr, "values too large\n"); return 1; }
        G[h] = g;
    }
    double secs = (double)(clock() - t0) / CLOCKS_PER_SEC;
    uint64_t sum = 0;
    for (long h = 0; h <= n; h++) sum += (uint64_t)(h + 1) * G[h];
    printf("seconds %.6f\nchecksum %llu\n", secs, (unsigned long long)sum);
    return 0;
}
