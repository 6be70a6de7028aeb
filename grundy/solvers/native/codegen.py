"""The C source of a kernel: the fixed runtime and search (``c/runtime.c``, ``c/solver.c``)
around the parts generated per game and box: the box's constants, ``successors`` (every move,
from the same plans as the Python solver's, grouped by the value of the slot most guards test),
``unpack``, ``canon`` (the symmetry reduction) and ``components``.

>>> from grundy.spec.games import get_game
>>> from grundy.spec.structure import Structure
>>> rules = get_game("nim").rules(Structure.heaps(2))
>>> src = c_source(rules, Box.around(rules, [(3, 4)]))
>>> "static void successors(" in src and "#define NS 2" in src
True
"""
from __future__ import annotations

import ctypes
import re
from typing import Callable, Sequence

from ...errors import GrundyError
from ...spec.expr import Expr, free_vars
from ...spec.fingerprint import rules_digest
from ...spec.game import Rules
from .. import symmetric
from ..explicit.plan import conjuncts, dispatch_key, dispatch_var, emitter, move_plan, shared_nodes, slot_sources
from ..symmetric import Plan
from . import build
from .box import Box
from .csyntax import C
from .source_cache import cached_text

__all__ = ["c_source", "moves_source", "kernel_source", "split_source", "load_kernel", "CYCLE", "TOO_LARGE", "LIMIT", "NO_MEMORY", "OVERFLOW", "DOMAIN",
           "PAUSED"]

# the status codes of the C (the fixed search returns them; the generated moves set DOMAIN)
CYCLE, TOO_LARGE, LIMIT, NO_MEMORY, OVERFLOW = 2, 3, 4, 5, 6
DOMAIN = 8                                 # a move took a field out of its domain
PAUSED = 9       # the kernel returned to Python to let it notice a signal; called again, it goes on


def _c_array(ctype: str, name: str, values: Sequence[int], suffix: str = "LL") -> str:
    body = ", ".join(f"{int(v)}{suffix}" for v in values) or "0"
    return f"static const {ctype} {name}[NS > 0 ? NS : 1] = {{{body}}};"


def c_source(rules: Rules, box: Box, symmetry: bool = False, decompose: bool = False) -> str:
    """The C source of the kernel for these rules and this box (``symmetry``: positions are
    stored by a canonical representative of their class: sorted heaps, or the least index
    over the automorphisms that send the token to the least vertex of its orbit; ``decompose``:
    Grundy values of positions that split into independent components are the XOR of the
    components' values, as in the Python path)."""
    head = _head(rules, box) + [_components_source(rules, box, decompose)]
    terms = rank_terms(rules)
    head.append(f"#define RANKED {int(terms is not None)}")   # successors pushed with their rank's change
    packed = f"#define PACKED {int(box.size < 2 ** 56)}"     # a table entry holds key + 1 and a byte in 64 bits
    return "\n".join(head + _successors(rules, terms) + _unpack(box) + [_canonical_source(rules, box, symmetry), packed,
                                                                  build.fixed_c(__package__, "c/solver.c")])


def moves_source(rules: Rules, box: Box) -> str:
    """The moves alone, as in :func:`c_source` (the runtime, the box's constants,
    ``successors`` and ``unpack``): the part of a kernel another fixed C file can drive (the
    one-heap values of a heap rule, :mod:`grundy.solvers.heaps.rulevalues`).

    >>> from grundy.spec.games import get_game
    >>> from grundy.spec.structure import Structure
    >>> rules = get_game("nim").rules(Structure.heaps(2))
    >>> src = moves_source(rules, Box.around(rules, [(3, 4)]))
    >>> "static void successors(" in src and "solve(" not in src
    True
    """
    return "\n".join(_head(rules, box) + _successors(rules) + _unpack(box))


def _head(rules: Rules, box: Box) -> list[str]:
    return [build.fixed_c(__package__, "c/runtime.c"), f"#define NS {len(rules.schema)}",
            _c_array("I", "LO", box.lo), _c_array("I", "RADIX", box.radix),
            _c_array("K", "STRIDE", box.strides, "ULL")]


def rank_terms(rules: Rules) -> dict[int, list[tuple[int, Expr]]] | None:
    """The rules' rank as a sum of terms that each read one slot: {slot: [(sign, term), ...]}
    (constant terms left out), or None when a term reads two slots (or the sum is too large to
    unfold). A move's successor is then pushed with its rank less the position's, from the
    terms of the slots it changes alone (the outcome search tries the successors least rank
    first).

    >>> from grundy.spec.games import get_game
    >>> from grundy.spec.structure import Structure
    >>> sorted(rank_terms(get_game("nim").rules(Structure.heaps(3))))
    [0, 1, 2]
    """
    slot_by_var = rules.schema.slot_by_var
    out: dict[int, list[tuple[int, Expr]]] = {}
    todo = [(1, rules.rank)]
    budget = 64 * (len(rules.schema) + 16)        # a sum whose shared nodes unfold too far: no terms
    while todo:
        budget -= 1
        if budget < 0:
            return None
        sign, x = todo.pop()
        if x.op in ("add", "sub"):
            todo += [(sign, x.args[0]), (sign if x.op == "add" else -sign, x.args[1])]
            continue
        names = free_vars(x)
        if len(names) > 1 or not names <= slot_by_var.keys():
            return None
        if names:
            out.setdefault(slot_by_var[next(iter(names))], []).append((sign, x))
    return out


def _rank_delta(terms: dict[int, list[tuple[int, Expr]]], changed: dict[int, str]) -> list[str]:
    """C lines adding to ``dr`` the rank's change by a move setting the slots ``changed``
    (slot -> the C source of its new value); the rank's arithmetic never flags an overflow of the move."""
    out = []
    for i, src in changed.items():
        for sign, term in terms.get(i, []):
            (name,) = free_vars(term)
            new, old = emitter({name: f"({src})"}, set(), C), emitter({name: f"s[{i}]"}, set(), C)
            a, b = new.expr(term), old.expr(term)
            out += new.take_lines() + old.take_lines() + [f"dr {'+' if sign > 0 else '-'}= ({a}) - ({b});"]
    if any("mulc(" in ln or "nimmul(" in ln for ln in out):
        out = ["int mo = mul_overflow;"] + out + ["mul_overflow = mo;"]
    return out


def _successors(rules: Rules, terms: dict[int, list[tuple[int, Expr]]] | None = None) -> list[str]:
    state_names = slot_sources(rules)
    var = dispatch_var(rules)
    plain: list[str] = []
    groups: dict[int, list[str]] = {}
    for mi, m in enumerate(rules.moves):
        key = next(((c, k[1]) for c in conjuncts(m.guard)
                    if (k := dispatch_key(c)) and k[0] == var), None)
        lines = _c_move(rules, mi, m, state_names, skip=key[0] if key else None, terms=terms)
        (plain if key is None else groups.setdefault(key[1], [])).extend(lines)
    body = ["static void successors(K key, const I *s, Buf *b) {", "    (void)key; (void)s; (void)b;"]
    body += ["    " + ln for ln in plain]
    if groups:
        assert var is not None                    # groups exist only with a dispatch variable
        slot = rules.schema.slot_by_var[var]
        body.append(f"    switch (s[{slot}]) {{")
        for value in sorted(groups):
            body.append(f"    case {value}LL: {{")
            body += ["        " + ln for ln in groups[value]]
            body.append("    } break;")
        body.append("    default: break;")
        body.append("    }")
    body.append("}")
    return body


def _unpack(box: Box) -> list[str]:
    # unrolled, so that each division is by a literal constant (a multiply and a shift)
    unpack = ["static void unpack(K key, I *s) {"]
    unpack += [f"    s[{i}] = (I)(key % {box.radix[i]}ULL) + ({box.lo[i]}LL); key /= {box.radix[i]}ULL;"
               for i in box.order]
    return unpack + ["    (void)key;", "}"]


def _c_move(rules: Rules, mi: int, m, state_names, skip, terms=None) -> list[str]:
    cnames, steps = move_plan(rules, m, state_names, C, skip)
    label = m.label.replace("*/", "* /")
    out = [f"/* move {mi}: {label} */", "{"]
    depth, closes = 1, 1
    for st in steps:
        pad = "    " * depth
        if st.kind == "let":
            out.append(pad + st.args[0])
        elif st.kind == "if":
            out.append(pad + f"if ({' && '.join(st.args)}) {{")
            depth += 1
            closes += 1
        elif st.kind == "for":
            cn, lo, hi = st.args   # the largest choice first, as the Python solver's successors
            out.append(pad + f"for (I {cn} = {hi}; {cn} >= {lo}; {cn}--) {{")
            depth += 1
            closes += 1
        elif st.kind == "check":   # the position's key, for the Python path to name the move
            out.append(pad + f"if ({st.args[0]}) {{ b->err = {DOMAIN}; b->err_value = (I)key; return; }}")
        else:
            changed = st.args[0]
            out.append(pad + "{ K nk = key;")
            for i, src in changed.items():
                out.append(pad + f"  OUT({i}, {src});")
            if terms is None:
                out.append(pad + "  push(b, nk); }")
            else:
                out.append(pad + "  I dr = 0;")
                out += [pad + "  " + ln for ln in _rank_delta(terms, changed)]
                out.append(pad + "  push_ranked(b, nk, dr); }")
    for d in range(closes, 0, -1):
        out.append("    " * (d - 1) + "}")
    return out


def _components_source(rules: Rules, box: Box, decompose: bool) -> str:
    """``components(key, s, b)``: push the keys of the position's components (each: the position
    with every element outside it emptied) and return 1, or return 0 if it does not split: the
    presence of each element computed here, the union-find and the emptying the fixed
    ``c/components.c`` (the interpreter's too), on the rules' links and elements as arrays."""
    if not decompose or rules.present is None:
        return "#define DECOMPOSE 0\nstatic inline int components(K key, const I *s, Buf *b) { (void)key; (void)s; (void)b; return 0; }"
    sch = rules.schema
    names = slot_sources(rules)
    roots = [rules.decomposable] + list(rules.present)
    em = emitter(names, shared_nodes(roots), C)
    d = em.expr(rules.decomposable)
    pres = [em.expr(x) for x in rules.present]
    n_el = len(rules.component_elements)
    empty = [sch.fields[name].empty for name, _ in sch.slots]
    links = [v for ab in rules.links for v in ab]
    off, slots = [0], []
    for sl in rules.element_slots:
        slots += sl
        off.append(len(slots))

    def arr(ctype: str, name: str, values: Sequence[int]) -> str:
        return f"static const {ctype} {name}[] = {{{', '.join(f'{int(v)}LL' for v in values) or '0'}}};"
    lines = ["#define DECOMPOSE 1", build.fixed_c(__package__, "c/components.c"),
             arr("int64_t", "EL_LINKS", links), arr("int64_t", "EL_OFF", off), arr("int64_t", "EL_SLOTS", slots),
             arr("I", "EL_EMPTY", empty),
             "static int components(K key, const I *s, Buf *b) {"]
    lines += ["    " + ln for ln in em.take_lines()]
    lines += [f"    if (!({d})) return 0;",
              f"    I pres[{max(n_el, 1)}];"]
    lines += [f"    pres[{x}] = {src};" for x, src in enumerate(pres)]
    lines += [f"    return split_components(key, s, b, {n_el}, pres, {len(rules.links)}, EL_LINKS, EL_OFF, EL_SLOTS, "
              "EL_EMPTY);", "}"]
    return "\n".join(lines)


def _canonical_source(rules: Rules, box: Box, symmetry: bool) -> str:
    if symmetry and rules.heap_sorting:
        return build.fixed_c(__package__, "c/canon_sort.c")
    plan = Plan.for_kernel(rules) if symmetry else None
    if plan is not None:        # every permutation of the vertices: see grundy/solvers/symmetric.py
        return plan.c_source() + build.fixed_c(__package__, "c/canon_sn.c")
    syms = rules.symmetries if symmetry else []
    if len(syms) <= 1:
        return build.fixed_c(__package__, "c/canon_none.c")
    sch, g = rules.schema, rules.structure
    kinds = []
    for name, _ in sch.slots:
        kind = sch.fields[name].kind
        kinds.append(1 if kind == "vertex" else 2 if kind == "edge" else 0)
    tokens = [i for i, (name, key) in enumerate(sch.slots) if key is None and sch.fields[name].kind == "vertex"]
    tok = tokens[0] if len(tokens) == 1 else -1
    m = len(g.edges)
    auts = rules.automorphisms                     # in the order of rules.symmetries
    vmap = [list(sigma) or [0] for sigma in auts]
    edge_slot = kinds.index(2) if 2 in kinds else None

    def edge_images(v: list[Callable[[int], int] | None]) -> list[int]:
        if edge_slot is None:
            return list(range(-1, m))
        f = v[edge_slot]
        assert f is not None        # an edge-valued slot always has a value map (Rules.symmetries)
        return [f(e) for e in range(-1, m)]
    emap = [edge_images(v) for _, v in syms]
    sigma = vmap
    if tok >= 0:
        order, starts = [], [0]
        for x in range(g.n):
            least = min(sg[x] for sg in sigma)
            order += [j for j, sg in enumerate(sigma) if sg[x] == least]
            starts.append(len(order))
    else:
        order, starts = list(range(len(syms))), [0, len(syms)]
    dord = list(reversed(box.order))               # the slots from the most significant digit down
    src = []                                       # per automorphism: the slot sent to each of dord
    for perm, _ in syms:
        inv = {p: i for i, p in enumerate(perm)}
        src.append([inv[p] for p in dord])
    rows = lambda table: "{" + ", ".join("{" + ", ".join(map(str, r)) + "}" for r in table) + "}"  # noqa: E731
    return "\n".join([
        "#define CANONICAL 1",
        f"#define NSYM {len(syms)}",
        f"static const int16_t DORD[NS] = {{{', '.join(map(str, dord))}}};",
        f"static const int16_t SRC[NSYM][NS] = {rows(src)};",
        f"static const int8_t KIND[NS] = {{{', '.join(map(str, kinds))}}};",
        f"static const int32_t VMAP[NSYM][{max(g.n, 1)}] = {rows(vmap)};",
        f"static const int32_t EMAP[NSYM][{m + 1}] = {rows(emap)};",
        f"static const int32_t COSET[{len(order)}] = {{{', '.join(map(str, order))}}};",
        f"static const int32_t COSET_START[{len(starts)}] = {{{', '.join(map(str, starts))}}};",
        f"#define NCOSET {len(order)}",
        f"#define TOK {tok}",                      # the token's slot, or -1
        build.fixed_c(__package__, "c/canon_auts.c")])


def _source_key(rules: Rules, box: Box, symmetry: bool, decompose: bool) -> list | None:
    """What :func:`c_source`'s text is generated from, as :func:`cached_text`'s key parts; None
    when the rules' content cannot be read back (then the text is generated, as without a cache)."""
    try:
        content = rules_digest(rules)
    except (TypeError, ValueError, GrundyError):  # a value that cannot be read back as content
        return None
    # the switches of grundy.solvers.symmetric choose the canonical form c_source emits
    return [content, list(box.lo), list(box.radix), list(box.order), bool(symmetry), bool(decompose),
            [symmetric.ENABLED, symmetric.FORCE, symmetric.CAP] if symmetry else None]


def kernel_source(rules: Rules, box: Box, symmetry: bool = False, decompose: bool = False) -> str:
    """``c_source(rules, box, symmetry, decompose)``, kept on disk (:func:`cached_text`: 1-5 ms
    of generation saved per process and structure, before the compiled library can be found).

    The key is what the text is generated from: the rules' content
    (:func:`grundy.spec.fingerprint.rules_digest`: the structure with its vertex names, the
    fields, every move's guard and update as IR, the rank, the components and the
    declarations), the box and the options, the switches of :mod:`grundy.solvers.symmetric`.
    So a rule whose IR changes gets a new kernel whatever changed it: the game's code, a module
    global it reads, a parameter; the game's name or where its class is defined is not in the
    key. Digesting the IR costs a third to a fifth of generating the text.

    >>> from grundy.spec.games import get_game
    >>> from grundy.spec.structure import Structure
    >>> rules = get_game("nim").rules(Structure.heaps(2))
    >>> box = Box.around(rules, [(3, 4)])
    >>> kernel_source(rules, box, True, True) == c_source(rules, box, True, True)
    True
    """
    return cached_text(_source_key(rules, box, symmetry, decompose),
                       lambda: c_source(rules, box, symmetry, decompose))


def split_source(text: str) -> tuple[str, str] | None:
    """A kernel's text (:func:`c_source`'s, with a claim's sweep appended or not:
    :func:`grundy.solvers.native.sweep.sweep_source`; or a strategy's follower:
    :mod:`grundy.solvers.native.follow`) as two parts linked into one library,
    ``(generated, core)``: the fixed search (``c/solver.c``, ``c/sweep.c``: a kernel without a
    sweep has an ``s_eval`` that is never called) is the core, the same text for every kernel of
    one table layout (``PACKED``), so that it is compiled once
    (:func:`grundy.solvers.native.build.obj`) instead of with every kernel (about 0.09 of a
    kernel's 0.2 CPU s at -Og); the generated part keeps the rest (a follower's
    ``c/follow.c`` reads only the moves) and gives the core its box, switches and functions
    (``c/kernel_glue.c``, ``c/core_head.c``). The library answers as the whole text's: the same
    C, whose calls between the parts are not inlined. None where the text is not of that form
    (other C appended, which may read the search's internals: built whole).

    >>> from grundy.spec.games import get_game
    >>> from grundy.spec.structure import Structure
    >>> rules = get_game("nim").rules(Structure.heaps(2))
    >>> gen, core = split_source(c_source(rules, Box.around(rules, [(3, 4)])))
    >>> "static void successors(" in gen and "solve_(" not in gen, "solve_(" in core
    (True, True)
    """
    runtime, solver, sweep, follow = (build.fixed_c(__package__, f"c/{n}.c") for n in ("runtime", "solver", "sweep", "follow"))
    packed = re.search(r"^#define PACKED ([01])\n\Z", text[:text.find(solver)], re.M)
    if not text.startswith(runtime) or text.count(solver) != 1 or packed is None:
        return None
    head, rest = text.split(solver)
    has_sweep = rest.endswith(sweep) and rest.count(sweep) == 1
    if rest.strip() and not has_sweep and not (rest.endswith(follow) and rest.count(follow) == 1):
        return None
    rest = rest[:len(rest) - len(sweep)] if has_sweep else rest
    gen = "\n".join(["#define K_SPLIT 1", head + rest, f"#define S_EVAL {int(has_sweep)}",
                     build.fixed_c(__package__, "c/kernel_glue.c")])
    core = "\n".join(["#define K_SPLIT 1", f"#define PACKED {packed.group(1)}", runtime,
                      build.fixed_c(__package__, "c/core_head.c"), solver, sweep])   # one core with or without a sweep
    return gen, core


def load_kernel(text: str, quick: bool = False, light: bool = False) -> ctypes.CDLL:
    """The library of a kernel's ``text`` (:func:`grundy.solvers.native.build.load`'s flags):
    in two parts (:func:`split_source`) where it splits, else built whole."""
    parts = split_source(text)
    return build.load(text, quick, light) if parts is None else build.load(parts[0], quick, light, core=parts[1])
