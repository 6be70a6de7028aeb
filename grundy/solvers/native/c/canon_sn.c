/* canon(key) under every permutation of the vertices (complete and edgeless graphs), for the
   C kernel: the statement of grundy/solvers/symmetric.py's Plan in C. Fixed text; Plan.c_source
   defines SN, SNVF, SNEF, SNT, SCAP, the hash constants (SGOLD, SMULT, SSEED, SESEED) and the
   tables SVS, SES, STOK before it, and the kernel NS, LO, STRIDE and unpack(). */
static inline K mixk(K h, K x) { h = (h ^ (x + SGOLD)) * SMULT; return h ^ (h >> 31); }
static int ndistinct(const K *a) {
    K b[SN]; int c = 0;
    for (int i = 0; i < SN; i++) { int j = 0; while (j < c && b[j] != a[i]) j++; if (j == c) b[c++] = a[i]; }
    return c;
}
static int next_perm(int *a, int lo, int hi) {
    int i = hi - 2;
    while (i >= lo && a[i] >= a[i + 1]) i--;
    if (i < lo) { for (int x = lo, y = hi - 1; x < y; x++, y--) { int t = a[x]; a[x] = a[y]; a[y] = t; } return 0; }
    int j = hi - 1;
    while (a[j] <= a[i]) j--;
    int t = a[i]; a[i] = a[j]; a[j] = t;
    for (int x = i + 1, y = hi - 1; x < y; x++, y--) { t = a[x]; a[x] = a[y]; a[y] = t; }
    return 1;
}
static K image_key(const I *s, K base, const int *perm) {
    int pinv[SN];
    for (int i = 0; i < SN; i++) pinv[perm[i]] = i;
    K k = base;
    for (int i = 0; i < SN; i++) {
        for (int f = 0; f < SNVF; f++) { int a = SVS[i][f]; k += (K)(s[SVS[perm[i]][f]] - LO[a]) * STRIDE[a]; }
        for (int j = i + 1; j < SN; j++)
            for (int f = 0; f < SNEF; f++) { int a = SES[i][j][f]; k += (K)(s[SES[perm[i]][perm[j]][f]] - LO[a]) * STRIDE[a]; }
    }
    for (int t = 0; t < SNT; t++) { int a = STOK[t]; k += (K)(pinv[s[a]] - LO[a]) * STRIDE[a]; }
    return k;
}
static K canon(K key) {
    I s[NS]; unpack(key, s);
    K inv[SN], emat[SN][SN];
    for (int v = 0; v < SN; v++) {
        K h = SSEED, acc = 0;
        for (int f = 0; f < SNVF; f++) h = mixk(h, (K)s[SVS[v][f]]);
        for (int t = 0; t < SNT; t++) h = mixk(h, (K)(s[STOK[t]] == v));
        for (int w = 0; w < SN; w++) if (w != v) {
            K e = SESEED;
            for (int f = 0; f < SNEF; f++) e = mixk(e, (K)s[SES[v][w][f]]);
            emat[v][w] = e; acc += mixk(e, 0);
        }
        inv[v] = mixk(h, acc);
    }
    if (SNEF > 0) {
        int cells = ndistinct(inv);
        while (cells < SN) {
            K nw[SN];
            for (int v = 0; v < SN; v++) {
                K acc = 0;
                for (int w = 0; w < SN; w++) if (w != v) acc += mixk(emat[v][w], inv[w]);
                nw[v] = mixk(inv[v], acc);
            }
            int c = ndistinct(nw);
            if (c <= cells) break;
            memcpy(inv, nw, sizeof inv); cells = c;
        }
    }
    int perm[SN];
    for (int v = 0; v < SN; v++) {          /* by (invariant, vertex) */
        int j = v;
        while (j > 0 && inv[perm[j - 1]] > inv[v]) { perm[j] = perm[j - 1]; j--; }
        perm[j] = v;
    }
    int ca[SN], cb[SN], nc = 0; K count = 1;
    for (int a = 0, b = 1; b <= SN; b++)
        if (b == SN || inv[perm[b]] != inv[perm[a]]) {
            ca[nc] = a; cb[nc++] = b;
            for (int x = 2; x <= b - a && count <= SCAP; x++) count *= x;
            a = b;
        }
    K base = 0;                              /* the slots no permutation moves */
    for (int i = 0; i < NS; i++) base += (K)(s[i] - LO[i]) * STRIDE[i];
    for (int v = 0; v < SN; v++) {
        for (int f = 0; f < SNVF; f++) { int a = SVS[v][f]; base -= (K)(s[a] - LO[a]) * STRIDE[a]; }
        for (int w = v + 1; w < SN; w++)
            for (int f = 0; f < SNEF; f++) { int a = SES[v][w][f]; base -= (K)(s[a] - LO[a]) * STRIDE[a]; }
    }
    for (int t = 0; t < SNT; t++) { int a = STOK[t]; base -= (K)(s[a] - LO[a]) * STRIDE[a]; }
    if (count > SCAP) return image_key(s, base, perm);
    K best = ~0ULL;
    for (;;) {
        K k = image_key(s, base, perm);
        if (k < best) best = k;
        int c = nc - 1;
        for (; c >= 0; c--) if (cb[c] - ca[c] > 1 && next_perm(perm, ca[c], cb[c])) break;
        if (c < 0) return best;
    }
}
