/* The generated part's side of a kernel built in two parts (c/core_head.c): its box, switches and
   functions under the hidden names the fixed search calls. Fixed text, appended by
   grundy/solvers/native/codegen.py (split_source) after the generated part and S_EVAL (1: a
   claim's s_eval is defined above). */
#define HIDDEN __attribute__((visibility("hidden")))
HIDDEN const int64_t g_ns = NS;
HIDDEN const I *const g_lo = LO, *const g_radix = RADIX;
HIDDEN const K *const g_stride = STRIDE;
HIDDEN const int g_canonical = CANONICAL, g_ranked = RANKED, g_decompose = DECOMPOSE;
HIDDEN void g_successors(K key, const I *s, Buf *b) { successors(key, s, b); }
HIDDEN void g_unpack(K key, I *s) { unpack(key, s); }
HIDDEN K g_canon(K key) { return canon(key); }
HIDDEN int g_components(K key, const I *s, Buf *b) { return components(key, s, b); }
#if S_EVAL
HIDDEN int g_s_eval(const I *s, I *claimed) { return s_eval(s, claimed); }
#else
HIDDEN int g_s_eval(const I *s, I *claimed) { (void)s; (void)claimed; return 0; }
#endif
