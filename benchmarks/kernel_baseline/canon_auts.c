/* canon(key): the least index over the listed automorphisms (those that send the token, TOK's
   slot, to the least vertex of its orbit; every one when TOK is -1). Fixed text, after the
   tables the generator writes (NSYM, PERM, KIND, VMAP, EMAP, COSET, COSET_START, NCOSET, TOK)
   and the kernel's NS, LO, STRIDE and unpack(). */
static K canon(K key) {
    I s[NS]; unpack(key, s);
    int lo = 0, hi = NCOSET;
#if TOK >= 0
    lo = COSET_START[s[TOK]]; hi = COSET_START[s[TOK] + 1];
#endif
    K best = ~0ULL;
    for (int j = lo; j < hi; j++) {
        const int h = COSET[j];
        K k = 0;
        for (int i = 0; i < NS; i++) {
            I v = s[i];
            if (KIND[i] == 1) v = VMAP[h][v]; else if (KIND[i] == 2) v = EMAP[h][v + 1];
            const int p = PERM[h][i];
            k += (K)(v - LO[p]) * STRIDE[p];
        }
        if (k < best) best = k;
    }
    return best;
}
