"""Compile a game's IR (its :class:`~grundy.spec.game.Rules`) into Python functions.

The generated code is the rule text, specialised to one structure: every
structural choice unrolled, every numeric choice a ``range`` loop, shared
subexpressions computed once. Nothing here knows any particular game.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from types import CodeType
from typing import Callable, Iterator, TypeVar, cast

from ...caches import register
from ...spec.expr import Expr, nodes
from ...spec.game import Move, Rules
from ..symmetric import Plan
from .plan import (
    PYTHON,
    Emitter,
    PythonSyntax,
    Step,
    conjuncts,
    dispatch_key,
    dispatch_var,
    emitter,
    move_plan,
    shared_nodes,
    slot_sources,
)
from .reductions import permuting, splitter, unchanged, whole

__all__ = ["Compiled", "compile_rules", "compile_expr", "State", "unchanged",   # and, kept importable from here, .plan's:
           "Emitter", "PythonSyntax", "PYTHON", "Step", "emitter", "shared_nodes", "conjuncts", "dispatch_key",
           "dispatch_var", "slot_sources", "move_plan"]

State = tuple[int, ...]

def _move_block(rules: Rules, mi: int, m: Move, state_names: dict[str, str],
                skip: Expr | None) -> tuple[list[str], list[str]]:
    """The Python code of one move, twice: appending next states, and appending labelled options
    (the move's plan made once per move and what it reads of the rules, :func:`_plan`)."""
    cnames, steps = _plan(rules, mi, m, state_names, skip)
    out: list[str] = [f"# move {mi}: {m.label}"]
    labelled: list[str] = out[:]
    depth = 0
    n = len(rules.schema)

    def put(line: str, plain: str | None = None):
        out.append("    " * depth + (line if plain is None else plain))
        labelled.append("    " * depth + line)

    for st in steps:
        if st.kind == "let":
            put(st.args[0])
        elif st.kind == "if":
            put(f"if {' and '.join(st.args)}:")
            depth += 1
        elif st.kind == "check":
            choices = "(" + "".join(f"{c}, " for c in cnames) + ")"
            put(f"if {st.args[0]}: raise _domain({mi}, {choices}, s)")
        elif st.kind == "for":
            cn, lo, hi = st.args
            # options list choices in increasing order; successors try the largest first, which
            # reaches short lines (and so the first winning move of an outcome search) soonest
            put(f"for {cn} in range({lo}, {hi} + 1):", plain=f"for {cn} in range({hi}, {lo} - 1, -1):")
            depth += 1
        else:
            tup = state_text(n, st.args[0])
            put(f"append(({mi}, ({', '.join(cnames)}{',' if len(cnames) == 1 else ''}), {tup}))",
                plain=f"append({tup})")
    return out, labelled


_SLICE = 3          # unchanged slots in a row that the state after a move takes as one slice of s


_SLICED = re.compile(r"\bs\[\d*:\d*\]|[(,] ?s\)")   # a slice of s in a state's text, or s itself


def state_text(n: int, changed: dict[int, str]) -> str:
    """The Python expression of the state after a move, from ``changed``: each slot the move sets
    and its new value's text (each reads the old state ``s``, a tuple of ``n`` slots). Runs of at
    least :data:`_SLICE` unchanged slots are slices of ``s``, the rest one tuple literal: the same
    tuple as listing every slot, in less text to compile and fewer steps to run.

    >>> state_text(9, {3: "a", 4: "b"})
    's[:3] + (a, b) + s[5:]'
    >>> state_text(8, {2: "a", 3: "b"})
    '(s[0], s[1], a, b) + s[4:]'
    >>> state_text(4, {0: "a", 3: "b"}), state_text(1, {0: "a"}), state_text(3, {})
    ('(a, s[1], s[2], b)', '(a,)', 's')
    """
    parts: list[str] = []
    items: list[str] = []
    i = 0
    while i < n:
        if i in changed:
            items.append(changed[i])
            i += 1
            continue
        j = i
        while j < n and j not in changed:
            j += 1
        if j - i < _SLICE:
            items.extend(f"s[{k}]" for k in range(i, j))
        else:
            if items:
                parts.append("(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")")
                items = []
            parts.append("s" if (i, j) == (0, n) else f"s[{i or ''}:{j if j < n else ''}]")
        i = j
    if items or not parts:
        parts.append("(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")")
    return " + ".join(parts)


_CODE: dict[tuple[str, str], CodeType] = {}
_CODE_CHARS = [0]                 # the characters of source held by _CODE
_CODE_LIMIT = 1_000_000           # past this many, the cache starts again (memory stays flat)


def _clear_code() -> None:
    _CODE.clear()
    _CODE_CHARS[0] = 0


def _code(src: str, filename: str) -> CodeType:
    """``compile(src, filename, "exec")``, once per distinct source: the structures of a sweep
    mostly generate the same text (e.g. one game on every graph with n vertices), and a code
    object is immutable, so executing the cached one in a fresh namespace is the same as
    compiling the text again."""
    key = (filename, src)
    code = _CODE.get(key)
    if code is None:
        if _CODE_CHARS[0] + len(src) > _CODE_LIMIT:
            _clear_code()
        code = compile(src, filename, "exec")
        if len(src) <= _CODE_LIMIT:
            _CODE[key] = code
            _CODE_CHARS[0] += len(src)
    return code


_BY_ID: dict[tuple, tuple[object, object]] = {}
_T = TypeVar("_T")
_BY_ID_CHARS = [0]                # the characters of generated text held by _BY_ID
_BY_ID_LIMIT = 1_000_000          # past this many, the cache starts again (memory stays flat)


def _clear_by_id() -> None:
    _BY_ID.clear()
    _BY_ID_CHARS[0] = 0


register("code", lambda: len(_CODE), _clear_code)
register("generated", lambda: len(_BY_ID), _clear_by_id)


def _by_identity(key: tuple, keep: object, make: Callable[[], _T], chars: Callable[[_T], int]) -> _T:
    """``make()``, once per ``key``: a key of node ids (with everything else the generated text
    depends on). Nodes are hash-consed and immutable (:mod:`grundy.spec.expr`), so the same ids
    mean the same expressions, hence the same text; ``keep`` (the nodes named by the key) stays
    alive with the entry, so no id in a key is reused while the entry exists. Bounded: past
    ``_BY_ID_LIMIT`` characters of text (``chars(value)``), the cache starts again."""
    hit = _BY_ID.get(key)
    if hit is None:
        value = make()
        size = chars(value)
        if _BY_ID_CHARS[0] + size > _BY_ID_LIMIT:
            _clear_by_id()
        hit = (keep, value)
        if size <= _BY_ID_LIMIT:
            _BY_ID[key] = hit
            _BY_ID_CHARS[0] += size
    return cast(_T, hit[1])     # the value make() gave for this key: the key fixes what make builds


def _def(name: str, body: list[str], params: str = "s") -> str:
    return f"def {name}({params}):\n" + "\n".join("    " + ln for ln in body) + "\n"


def _function(name: str, body: list[str], env: dict, params: str = "s") -> Callable:
    src = _def(name, body, params)
    exec(_code(src, f"<grundy {name}>"), env)
    fn = env[name]
    fn.__source__ = src
    return fn


@dataclass
class Compiled:
    """Python functions for one game on one structure."""

    rules: Rules
    successors: Callable[[State], list[State]]
    options: Callable[[State], list[tuple[int, tuple[int, ...], State]]]
    rank: Callable[[State], int]
    canonical: Callable[[State], State]
    components: Callable[[State], list[State] | None]
    successors_lazy: Callable[[State], Iterator[State]]  # the same successors, one at a time


def compile_rules(rules: Rules, symmetry: bool = True, decompose: bool = True,
                  max_group: int = 256, full_group: bool = True) -> Compiled:
    """Generate the solver's functions from the rules' IR. ``full_group``: on a structure
    whose every vertex permutation is an automorphism (K_n, the edgeless graph; more than
    ``max_group`` of them), canonicalize by :class:`~grundy.solvers.symmetric.Plan` (in Python,
    some 100 µs a position on K_7: the solver leaves it to the C kernel when it has one)."""
    env: dict = {**PythonSyntax.RUNTIME, "range": range}
    moves = _move_functions(rules, env)
    names = slot_sources(rules)
    (r,), lines = _expr_sources([rules.rank], names)
    rank = _function("rank", lines + [f"return {r}"], env)
    canonical = _canonical(rules, env) if symmetry else unchanged
    if symmetry and len(rules.symmetries) > max_group:
        canonical = unchanged             # too large a group to pay for on every position
    plan = Plan.of(rules) if symmetry and full_group else None
    if plan is not None:     # every permutation of the vertices (K_n, edgeless): invariants, cells
        canonical = plan.canonical
    components = _components(rules, env) if decompose and rules.present is not None else whole
    out = Compiled(rules, _none, _none, rank, canonical, components, _none)
    for name, make in moves.items():        # each move function compiled when first called
        setattr(out, name, _in_place(out, name, make))
    return out


def _expr_sources(exprs: list[Expr], names: dict[str, str]) -> tuple[list[str], list[str]]:
    """The Python source of each expression (one emitter: shared subterms bound once) and the
    local definitions they need: generated once per (expressions, variable names)."""
    def make() -> tuple[list[str], list[str]]:
        em = emitter(names, shared_nodes(exprs))
        srcs = [em.expr(e) for e in exprs]
        return srcs, em.take_lines()
    return _by_identity(("exprs", *map(id, exprs), tuple(names.items())), exprs, make,
                        lambda v: sum(map(len, v[0])) + sum(map(len, v[1])))


@dataclass
class _MoveSources:
    """The move functions' text for one set of moves (and schema): per function family
    (``successors``, ``successors_lazy``, ``options``) its functions as (name, dispatch value
    or None for the entry point, source), and their module compiled once."""

    groups: bool
    functions: dict[str, list[tuple[str, int | None, str]]]
    modules: dict[str, CodeType]

    def chars(self) -> int:
        return sum(len(src) for fns in self.functions.values() for _, _, src in fns)

    def bind(self, name: str, env: dict) -> Callable:
        """The entry point ``name`` defined in ``env`` (its dispatch table too)."""
        fns = self.functions[name]
        code = self.modules.get(name)
        if code is None:
            code = self.modules[name] = _code("".join(src for _, _, src in fns), f"<grundy {name}>")
        exec(code, env)
        table = {}
        for fname, value, src in fns:
            env[fname].__source__ = src
            if value is not None:
                table[value] = env[fname]
        if self.groups:
            env[f"{name.upper()}_BY_VALUE"] = table
            env["_none"] = _none
        return env[name]


def _none(s, append=None):
    return ()


def _moves_key(rules: Rules) -> tuple[tuple, list]:
    """What the moves' text depends on, by node identity, and the nodes that key names
    (:attr:`Rules.moves_key`: made once per rules)."""
    return rules.moves_key


def _move_functions(rules: Rules, env: dict) -> dict[str, Callable[[], Callable]]:
    """How to make ``successors(s)``, its generator form ``successors_lazy(s)`` and
    ``options(s)``: every move's block, grouped by the dispatch variable (the text generated
    once per set of moves, see :func:`_by_identity`; each function compiled when first asked:
    the Grundy search uses the first, the outcome search the second)."""
    env["_domain"] = rules.domain_error
    key, keep = _moves_key(rules)
    ms: _MoveSources = _by_identity(key, keep, lambda: _move_sources(rules),
                                    lambda v: 2 * v.chars())  # text and code
    def maker(name: str) -> Callable[[], Callable]:
        return lambda: ms.bind(name, env)
    return {name: maker(name) for name in ("successors", "successors_lazy", "options")}


def _in_place(holder: object, name: str, make: Callable[[], Callable]) -> Callable:
    """A function that, on its first call, makes the real one and puts it on ``holder`` in its
    place (later callers reading ``holder.name`` call it directly). A caller that kept this
    function (read ``holder.name`` before the first call) gets the one made, not a new one per
    call."""
    made: list[Callable] = []

    def first(*args):
        if not made:
            made.append(make())
            setattr(holder, name, made[0])
        return made[0](*args)
    return first


def _move_reads(m: Move) -> tuple[str, ...]:
    """The variables move ``m`` reads (its guard, its choices' bounds, its new values), sorted."""
    seen: set[int] = set()
    out: set[str] = set()
    for e in [m.guard, *(c.lo for c in m.choices), *(c.hi for c in m.choices), *m.update.values()]:
        out.update(x.args[0] for x in nodes(e, seen) if x.op == "var")
    return tuple(sorted(out))


def _plan(rules: Rules, mi: int, m: Move, state_names: dict[str, str],
          skip: Expr | None) -> tuple[list[str], list[Step]]:
    """:func:`move_plan` in Python, once per move (its guard, choices and updates, by node
    identity: its entry in :attr:`Rules.moves_key` but the label) and what the plan reads of its
    rules besides the move: for each variable the move reads, its source, slot and that slot's
    domain, and the domains of the slots it sets. A game on many structures repeats most moves
    (grim removing a vertex with the same neighbourhood, on P_n for every n; vertexnim on every
    graph of n vertices), and the slots a move reads keep their place where the others differ."""
    mkey = rules.moves_key[0][1][mi][1:]
    reads = _by_identity(("reads", mkey), m, lambda: _move_reads(m), lambda v: sum(map(len, v)))
    slot_of, doms = rules.schema.slot_by_var, rules.slot_domains
    layout = tuple((v, state_names.get(v), i, None if i is None else doms[i])
                   for v in reads for i in (slot_of.get(v),))
    key = ("plan", mkey, id(skip), layout, tuple((i, doms[i]) for i in sorted(m.update)))
    return _by_identity(key, (m, skip), lambda: move_plan(rules, m, state_names, PYTHON, skip),
                        lambda v: 40 * len(v[1]))


def _move_sources(rules: Rules) -> _MoveSources:
    var = dispatch_var(rules)
    state_names = slot_sources(rules)
    head = ["out = []", "append = out.append"]
    bodies: tuple[list[str], list[str]] = (head[:], head[:])
    groups: dict[int, tuple[list[str], list[str]]] = {}
    for mi, m in enumerate(rules.moves):
        key = next(((c, k[1]) for c in conjuncts(m.guard)
                    if (k := dispatch_key(c)) and k[0] == var), None)
        plain, labelled = _move_block(rules, mi, m, state_names, key[0] if key else None)
        dest = bodies if key is None else groups.setdefault(key[1], ([], []))
        dest[0].extend(plain)
        dest[1].extend(labelled)

    sliced = any(_SLICED.search(ln) for b in (bodies, *groups.values()) for ln in b[0])

    def build(which: int, name: str, lazy: bool = False) -> list[tuple[str, int | None, str]]:
        """The list-building function, or (``lazy``) a generator yielding one successor at a time
        (after the functions of its dispatch table)."""
        def code(lines: list[str]) -> list[str]:
            return [re.sub(r"^(\s*)append\((.*)\)$", r"\1yield \2", ln) for ln in lines] if lazy else lines
        body = code(bodies[which][len(head):] if lazy else bodies[which][:])
        if sliced:                # the states after a move add slices of s to tuples: s a tuple
            body.insert(0, "s = tuple(s)")     # (a tuple's tuple() is itself, no copy)
        out: list[tuple[str, int | None, str]] = []
        if groups:
            for value, lines in groups.items():
                fname = f"{name}_{value}".replace("-", "m")
                out.append((fname, value, _def(fname, code(lines[which]) or ["pass"], "s" if lazy else "s, append")))
            assert var is not None                # groups exist only with a dispatch variable
            slot = rules.schema.slot_by_var[var]
            call = f"{name.upper()}_BY_VALUE.get(s[{slot}], _none)"
            body.append(f"yield from {call}(s)" if lazy else f"{call}(s, append)")
        if not lazy:
            body.append("return out")
        if lazy and not any("yield" in ln for ln in body):
            body.append("yield from ()")
        out.append((name, None, _def(name, body)))
        return out

    return _MoveSources(bool(groups), {"successors": build(0, "successors"),
                                       "successors_lazy": build(0, "successors_lazy", lazy=True),
                                       "options": build(1, "options")}, {})


def compile_expr(rules: Rules, expr: Expr, extra: dict[str, str] | None = None) -> Callable:
    """A Python function ``f(s)`` evaluating an expression over the rules' state variables
    (``extra`` names further variables as Python parameters: ``f(s, **extra)``).

    >>> from grundy.spec.games import get_game
    >>> from grundy.spec import Structure
    >>> r = get_game("nim").rules(Structure.heaps(2))
    >>> compile_expr(r, r.state.heap[0] + r.state.heap[1])((3, 4))
    7
    """
    names = slot_sources(rules)
    params = sorted(extra or {})
    names.update({n: f"x_{i}" for i, n in enumerate(params)})

    def make() -> tuple[CodeType, str]:
        (r,), lines = _expr_sources([expr], names)
        sig = ", ".join(["s"] + [f"x_{i}=None" for i in range(len(params))])
        src = f"def f({sig}):\n" + "".join(f"    {ln}\n" for ln in lines) + f"    return {r}\n"
        return _code(src, "<grundy expr>"), src
    code, src = _by_identity(("expr", id(expr), tuple(names.items())), expr, make,
                             lambda v: 2 * len(v[1]))
    env: dict = dict(PythonSyntax.RUNTIME)
    exec(code, env)
    fn = env["f"]
    fn.__source__ = src
    if not params:
        return fn
    return lambda s, **kw: fn(s, *(kw[n] for n in params))


def _canonical(rules: Rules, env: dict) -> Callable[[State], State]:
    """The least image of a state under the symmetry group.

    When the state has a single vertex-valued slot (a token), only the automorphisms that
    send the token to the least vertex of its orbit are tried: the least image among those
    is still a function of the orbit alone, and the stabiliser is much smaller than the group.
    """
    if rules.heap_sorting:
        return lambda s: tuple(sorted(s))
    syms = rules.symmetries
    if len(syms) <= 1:
        return unchanged
    n = len(rules.schema)
    if n >= 2 and all(v is None for _, vmaps in syms for v in vmaps):
        return permuting(n, [perm for perm, _ in syms])
    images = []
    for k, (perm, vmaps) in enumerate(syms):
        src = [""] * n
        for i in range(n):
            if vmaps[i] is None:
                src[perm[i]] = f"s[{i}]"
            else:
                table = f"V{k}_{i}"
                env[table] = _value_table(rules, i, vmaps[i])
                src[perm[i]] = f"{table}[s[{i}]]"
        images.append("(" + ", ".join(src) + ("," if n == 1 else "") + ")")
    tokens = [i for i, (name, key) in enumerate(rules.schema.slots)
              if key is None and rules.schema.fields[name].kind == "vertex"]
    if len(tokens) != 1:
        return _function("canonical", ["return min(" + ", ".join(images) + ")"], env)
    tok = tokens[0]
    auts = rules.automorphisms                    # in the order of rules.symmetries (listed once)

    def make(v: int) -> Callable[[State], State]:
        best = min(sigma[v] for sigma in auts)
        chosen = [img for img, sigma in zip(images, auts, strict=False) if sigma[v] == best]
        return _function(f"canonical_{v}", ["return min(" + ", ".join(chosen) + ("," if len(chosen) == 1 else "") + ")"] if len(chosen) > 1
                         else [f"return {chosen[0]}"], env)
    canon: list[Callable[[State], State]] = []

    def lazy(v: int) -> Callable[[State], State]:
        def first(s: State) -> State:       # compiled when the token is first on v, then in its place
            fn = canon[v] = make(v)
            return fn(s)
        return first
    canon.extend(lazy(v) for v in range(rules.structure.n))
    return lambda s: canon[s[tok]](s)


def _value_table(rules: Rules, slot: int, vmap) -> list[int]:
    f = rules.schema.fields[rules.schema.slots[slot][0]]
    g = rules.structure
    size = g.n if f.kind == "vertex" else len(g.edges)
    table = [vmap(x) for x in range(size)]
    if f.kind == "edge":
        table.append(-1)  # index -1: no edge
    return table


def _components(rules: Rules, env: dict) -> Callable[[State], list[State] | None]:
    """``components(s)``: the states of the position's components (each keeps its own elements'
    slots; every other element's slots are emptied), ordered by their first element; None when
    the position does not split (one component or none). Components are grown as bit sets of
    elements over the links between present elements (each element's slots are its own: a slot
    belongs to the one element its key names)."""
    sch = rules.schema
    names = slot_sources(rules)
    (d, *pres), lines = _expr_sources([rules.decomposable] + list(rules.present or []), names)
    body = lines + [f"if not {d}: return None", "m = 0"]
    body += [f"if {p}: m |= {1 << i}" for i, p in enumerate(pres)]
    presence = _function("presence", body + ["return m"], env)     # the present elements, a bit set
    n_el = len(rules.component_elements)
    adjacent = [0] * n_el
    for a, b in rules.links:
        adjacent[a] |= 1 << b
        adjacent[b] |= 1 << a
    return splitter(presence, adjacent, [tuple(slots) for slots in rules.element_slots],
                     [sch.fields[name].empty for name, _ in sch.slots])
