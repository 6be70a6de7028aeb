/* canon(key) with the heaps sorted (a game whose heaps may be permuted): fixed text, after the
   kernel's NS, LO, STRIDE and unpack(). */
#define CANONICAL 1
static K canon(K key) {
    I s[NS]; unpack(key, s);
    for (int i = 1; i < NS; i++) { I v = s[i]; int j = i - 1; while (j >= 0 && s[j] > v) { s[j + 1] = s[j]; j--; } s[j + 1] = v; }
    K k = 0;
    for (int i = 0; i < NS; i++) k += (K)(s[i] - LO[i]) * STRIDE[i];
    return k;
}
