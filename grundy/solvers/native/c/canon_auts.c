/* canon(key): the least index over the listed automorphisms (those that send the token, TOK's
   slot, to the least vertex of its orbit; every one when TOK is -1). Fixed text, after the
   tables the generator writes (NSYM, KIND, VMAP, EMAP, COSET, COSET_START, NCOSET, TOK, and
   DORD: the slots from the most significant digit down; SRC[h][r]: the slot whose value
   automorphism h sends to slot DORD[r]) and the kernel's NS, LO, STRIDE and unpack().

   The images' keys are built together, digit by digit from the most significant: at each
   digit only the automorphisms whose image is least so far stay (the lower digits of a key
   add less than one unit of the digit above, so an image larger in a digit can never be the
   least), and once one is left its remaining digits are read off without comparing. */
/* always_inline: at -Og (the quick kernels) a call per automorphism and digit otherwise, a fifth
   of erickson/prop5.5's search (3.03 -> 2.62 CPU s on the Petersen workload of
   benchmarks/kernel_canon.py, the kernel at -Og) */
static inline __attribute__((always_inline)) I canon_digit(const I *s, int h, int r) {
    const int i = SRC[h][r];
    I v = s[i];
    if (KIND[i] == 1) v = VMAP[h][v]; else if (KIND[i] == 2) v = EMAP[h][v + 1];
    return v - LO[DORD[r]];
}
static K canon(K key) {
    I s[NS]; unpack(key, s);
    int lo = 0, hi = NCOSET;
#if TOK >= 0
    lo = COSET_START[s[TOK]]; hi = COSET_START[s[TOK] + 1];
#endif
    int alive[NCOSET], n = 0;
    for (int j = lo; j < hi; j++) alive[n++] = COSET[j];
    K k = 0;
    int r = 0;
    for (; r < NS && n > 1; r++) {
        I least = canon_digit(s, alive[0], r);
        int m = 1;
        for (int a = 1; a < n; a++) {          /* alive[0..m): the images least in digits 0..r */
            const int h = alive[a];
            const I d = canon_digit(s, h, r);
            if (d > least) continue;
            if (d < least) { least = d; m = 0; }
            alive[m++] = h;
        }
        n = m;
        k += (K)least * STRIDE[DORD[r]];
    }
    for (; r < NS; r++) k += (K)canon_digit(s, alive[0], r) * STRIDE[DORD[r]];
    return k;
}
