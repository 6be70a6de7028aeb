/* The fixed search of every kernel (c/solver.c, c/sweep.c) compiled once, apart from the generated
   part, and linked with it (grundy/solvers/native/codegen.py, split_source): what the generated
   part defines in a kernel built whole (NS, LO, RADIX, STRIDE, CANONICAL, RANKED, DECOMPOSE,
   successors, unpack, canon, components, s_eval) is read here from it at run time, through the
   hidden g_* names of c/kernel_glue.c. PACKED, the layout of the table's entries, is defined
   before this text (one object per value). */
#define HIDDEN __attribute__((visibility("hidden")))
HIDDEN int mul_overflow;
extern HIDDEN const int64_t g_ns;
extern HIDDEN const I *const g_lo, *const g_radix;
extern HIDDEN const K *const g_stride;
extern HIDDEN const int g_canonical, g_ranked, g_decompose;
HIDDEN void g_successors(K key, const I *s, Buf *b);
HIDDEN void g_unpack(K key, I *s);
HIDDEN K g_canon(K key);
HIDDEN int g_components(K key, const I *s, Buf *b);
HIDDEN int g_s_eval(const I *s, I *claimed);
#define NS g_ns
#define LO g_lo
#define RADIX g_radix
#define STRIDE g_stride
#define CANONICAL g_canonical
#define RANKED g_ranked
#define DECOMPOSE g_decompose
#define SW_NS                        /* SW's best_s: a flexible array (the caller's has NS entries) */
#define successors g_successors
#define unpack g_unpack
#define components g_components
#define s_eval g_s_eval
static inline K canon(K key) { return CANONICAL ? g_canon(key) : key; }
