/* The one-heap values G(0..n) of a heap rule, by the plain method (every option of every
   heap), driving the moves generated from the rule's IR (grundy/solvers/native/codegen.py,
   moves_source: successors and unpack of the one-heap rules, which this text follows).
   Slot 0 holds the heap, slots 1.. start empty and receive the other parts; an option's value
   is the XOR of its parts' values. Any surprise (a part not smaller than the heap, parts
   adding up to more than it, a move out of the box or its domain, an overflow) stops the run
   with its heap: the Python method then says what is wrong, naming the option. */

volatile int rv_stop = 0;    /* set from Python (Ctrl-C): the run returns 2 at the next heap */

/* returns 0, -1 (out of memory), 1 (*bad = the heap where a rule's option is not as a
   heap rule's options must be) or 2 (stopped) */
int rv_run(int64_t n, uint32_t *G, int64_t *bad) {
    Buf b = {0};
    uint32_t *seen = NULL, maxg = 0;
    int64_t cap = 0;
    I s[NS > 0 ? NS : 1], t[NS > 0 ? NS : 1];
    int status = 0;
    for (int64_t h = 0; h <= n && status == 0; h++) {
        if (rv_stop) { status = 2; break; }
        K key = 0;
        for (int i = 0; i < NS; i++) s[i] = 0;
        s[0] = (I)h;
        for (int i = 0; i < NS; i++) key += (K)(s[i] - LO[i]) * STRIDE[i];
        b.n = 0; b.err = 0; mul_overflow = 0;
        successors(key, s, &b);
        if (b.err == 5) { status = -1; break; }
        if (b.err || mul_overflow) { *bad = h; status = 1; break; }
        /* every XOR of values below 2^bits(maxg) is below that power of two */
        int64_t need = 2;
        while (need <= (int64_t)maxg) need <<= 1;
        if (need + 1 > cap) {
            int64_t nc = cap ? cap : 1024;
            while (nc < need + 1) nc *= 2;
            uint32_t *p = (uint32_t *)realloc(seen, (size_t)nc * sizeof(uint32_t));
            if (!p) { status = -1; break; }
            memset(p + cap, 0, (size_t)(nc - cap) * sizeof(uint32_t));
            seen = p; cap = nc;
        }
        uint32_t st = (uint32_t)h + 1;
        for (int64_t j = 0; j < b.n; j++) {
            unpack(b.keys[j], t);
            uint32_t x = 0;
            I total = 0;
            for (int i = 0; i < NS; i++) {
                if (t[i] < 0 || t[i] >= h) { if (t[i] == 0) continue; *bad = h; status = 1; break; }
                x ^= G[t[i]];
                total += t[i];
            }
            if (status) break;
            if (total > h) { *bad = h; status = 1; break; }
            seen[x] = st;
        }
        if (status) break;
        uint32_t g = 0;
        while (seen[g] == st) g++;
        G[h] = g;
        if (g > maxg) maxg = g;
    }
    free(b.keys);
    free(seen);
    return status;
}
