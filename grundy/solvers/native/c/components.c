/* A position's components (Sprague-Grundy: its value is the XOR of theirs): the present elements
   joined by the links (a union-find), each group pushed into b as the position with every element
   outside it emptied (its slots set to their fields' empty values). 1: pushed; 0: the position
   does not split (at most one group). Fixed text, after c/runtime.c and the box's constants (LO,
   RADIX, STRIDE): the interpreter's components (c/vm_tail.c) reads its arguments from the program
   in force. pres: per element, nonzero where present; links: nlinks pairs of elements; the slots
   of element x: el_slots[el_off[x] .. el_off[x + 1]). b NULL: whether it splits, nothing pushed. */
static int split_components(K key, const I *s, Buf *b, int64_t nel, const I *pres, int64_t nlinks,
                            const int64_t *links, const int64_t *el_off, const int64_t *el_slots,
                            const I *empty) {
    int64_t parent[nel > 0 ? nel : 1], root[nel > 0 ? nel : 1], groups = 0;
    for (int64_t x = 0; x < nel; x++) parent[x] = x;
    for (int64_t i = 0; i < nlinks; i++) {
        int64_t ra = links[2 * i], rb = links[2 * i + 1];
        if (!pres[ra] || !pres[rb]) continue;
        while (parent[ra] != ra) ra = parent[ra];
        while (parent[rb] != rb) rb = parent[rb];
        if (ra != rb) parent[ra] = rb;
    }
    for (int64_t x = 0; x < nel; x++) {
        int64_t r = x;
        while (parent[r] != r) r = parent[r];
        root[x] = pres[x] ? r : -1;
        groups += root[x] == x;
    }
    if (groups <= 1) return 0;
    if (!b) return 1;
    for (int64_t g = 0; g < nel; g++) {
        if (root[g] != g) continue;
        K nk = key;
        for (int64_t x = 0; x < nel; x++) {
            if (root[x] == g) continue;
            for (int64_t j = el_off[x]; j < el_off[x + 1]; j++) OUT(el_slots[j], empty[el_slots[j]]);
        }
        push(b, nk);
    }
    return 1;
}
