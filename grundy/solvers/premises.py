"""Premises: what a value source of the solver relies on, established on a structure before use.

The solver has sources of values besides plain search over the moves, and each rests on a
property of the game's rule on the structure at hand:

- **symmetry** (the Python path's canonical forms, sorted heaps, the S_n plan of
  :mod:`grundy.solvers.symmetric`, the C kernel's canonical forms): the rule commutes with
  every map of the group the source reduces by. :func:`symmetry_group` names that group and a
  generating set of it (heaps: a swap and a cycle of S_n; graphs whose automorphisms are every
  vertex permutation: the same two, acting on the slots; other graphs: generators of the
  listed automorphism group). :func:`prove_symmetry` asks Z3, over unbounded integers (every
  size), that for each generator σ and each move m, σ(m(s)) is a move of σ(s). It first looks
  for the *matched* move (the move of σ(s) reaching σ(m(s)) with the same choice values, found
  by evaluating the rule on a few concrete states) and asks a quantifier-free query; the full
  query ("some move, some choices") only when that fails. If σ maps each move's results into
  the moves of the image, for a σ of finite order the two sets of options are equal, and so
  by induction on the rank are the values of s and σ(s), for every element of the group.
- **decomposition** (values as the XOR of components', in the Python search and the kernel):
  :func:`prove_decomposition` asks Z3 that the rule is a disjunctive sum on the structure: for
  every position s, every split of its present elements into two sides A and B with no link
  between them, the restrictions s|A and s|B (the other side's elements emptied, as the solver's
  components are) satisfy: (1) presence of an element in s|A is its presence in s on side A
  (so s|A splits further exactly as s does); (2) every move of s is the same move (same
  choices) of s|A or of s|B, and its result restricts to the result there and to the other
  side unchanged (so the split persists); (3) every move of s|A is a move of s with that
  effect. By induction on the rank, G(s) = G(s|A) XOR G(s|B): the options of s are the options
  of the sum. A check at the positions where the search splits would not do: the sum's
  positions that the search never visits (a component moved, the other not) are where a rule
  that reads several components would differ.

A premise is ``proved`` (the source may be used), ``violated`` (a one-line reason naming the
game, the move and the position, confirmed on the concrete rule), ``unknown`` (Z3 gave up
within its deterministic resource limit :data:`RLIMIT`, or cannot encode the rule) or ``not
declared``. Only ``proved`` admits the source: anything else means slower, never wrong.
Proofs are kept on disk (``$GRUNDY_CACHE/premises``) under a key of everything they depend
on: the rules' content digest (:func:`grundy.spec.fingerprint.rules_digest`), the generators,
the resource limit, the grundy package and Z3's version.

>>> from grundy.spec.games import get_game
>>> from grundy.spec import Structure
>>> rules = get_game("nim").rules(Structure.heaps(3))
>>> group = symmetry_group(rules)
>>> group.name, [g.what for g in group.generators]
('S_3 on heaps', ['swapping heaps 0 and 1', 'cycling heaps 0 -> 1 -> 2'])
>>> prove_symmetry(rules, cache=False).how
'symmetry (S_3 on heaps) proved by Z3, 2 generators'
>>> prove_decomposition(rules, cache=False).status
'proved'
"""
from __future__ import annotations

import hashlib
import json
import os
import random
from dataclasses import dataclass
from math import factorial
from typing import Any, Callable, Sequence

from ..digest import cache_root, package_digest
from ..spec.expr import BOOL, Expr, Var, all_of, any_of, evaluate, ite, lift, not_
from ..spec.fingerprint import rules_digest
from ..spec.game import Game, Rules
from .symmetric import Plan

__all__ = ["Generator", "Group", "Premise", "declared", "prove_decomposition", "prove_symmetry",
           "symmetry_group", "PROVED", "VIOLATED", "UNKNOWN", "NOT_DECLARED", "RLIMIT"]

PROVED, VIOLATED, UNKNOWN, NOT_DECLARED = "proved", "violated", "unknown", "not declared"
RLIMIT = 60_000_000        # Z3 resource units a premise may use (deterministic, unlike a timeout)
SAMPLES = 24               # concrete states the matched moves are looked for on
REPLAY = 100_000           # moves a violation's replay on the concrete rule may enumerate
FORMAT = 1                 # of the stored proofs (part of their key)

State = tuple[int, ...]


# ------------------------------------------------------------------------------ the groups
@dataclass(frozen=True)
class Generator:
    """A map of states: slot ``i`` goes to slot ``perm[i]``, its value through ``tables[i]``
    (vertex- and edge-valued slots, indexed from the slot's least value; None: unchanged)."""

    what: str
    perm: tuple[int, ...]
    tables: tuple[tuple[int, ...] | None, ...]
    lows: tuple[int, ...]

    def image(self, s: Sequence[int]) -> State:
        out = [0] * len(s)
        for i, v in enumerate(s):
            t = self.tables[i]
            out[self.perm[i]] = v if t is None else t[v - self.lows[i]]
        return tuple(out)

    def key(self) -> list:
        return [list(self.perm), [None if t is None else list(t) for t in self.tables]]


@dataclass(frozen=True)
class Group:
    """The group a symmetry source reduces by, and a generating set of it."""

    name: str
    generators: tuple[Generator, ...]


def _generator(rules: Rules, what: str, perm: Sequence[int], vmaps: Sequence[Callable | None]) -> Generator:
    doms = rules.slot_domains
    lows = tuple(0 if d is None else d[0] for d in doms)
    tables = tuple(None if f is None or d is None else tuple(f(v) for v in range(d[0], d[1] + 1))
                   for f, d in zip(vmaps, doms))
    return Generator(what, tuple(perm), tables, lows)


def _heap_generators(rules: Rules) -> Group:
    n = len(rules.schema)
    swap = list(range(n))
    swap[0], swap[1] = 1, 0
    gens = [_generator(rules, "swapping heaps 0 and 1", swap, [None] * n)]
    if n > 2:
        cycle = [(i + 1) % n for i in range(n)]
        gens.append(_generator(rules, "cycling heaps " + " -> ".join(map(str, range(n))), cycle, [None] * n))
    return Group(f"S_{n} on heaps", tuple(gens))


def _vertex_generators(rules: Rules) -> Group:
    g = rules.structure
    names = g.names
    swap = tuple([1, 0] + list(range(2, g.n)))
    gens = [_generator(rules, f"the automorphism {names[0]}<->{names[1]}", *rules.slot_action(swap))]
    if g.n > 2:
        cycle = tuple((v + 1) % g.n for v in range(g.n))
        what = "the automorphism " + ", ".join(f"{names[v]}->{names[cycle[v]]}" for v in range(g.n))
        gens.append(_generator(rules, what, *rules.slot_action(cycle)))
    return Group(f"S_{g.n} on vertices", tuple(gens))


def _listed_generators(rules: Rules) -> Group:
    """Automorphisms of the listed group, each outside the group generated by those before it."""
    g = rules.structure
    auts = rules.automorphisms
    group: set[tuple[int, ...]] = {tuple(range(g.n))}
    chosen: list[tuple[int, ...]] = []
    for sigma in auts:
        sigma = tuple(sigma)
        if sigma in group:
            continue
        chosen.append(sigma)
        frontier = list(group)
        while frontier:                               # the group generated so far (<= 256 maps)
            nxt = []
            for x in frontier:
                for s in chosen:
                    y = tuple(s[x[v]] for v in range(g.n))
                    if y not in group:
                        group.add(y)
                        nxt.append(y)
            frontier = nxt
    gens = []
    for sigma in chosen:
        what = "the automorphism " + ", ".join(f"{g.names[v]}->{g.names[sigma[v]]}" for v in range(g.n)
                                               if sigma[v] != v)
        gens.append(_generator(rules, what, *rules.slot_action(sigma)))
    return Group(f"{len(auts)} automorphisms", tuple(gens))


def symmetry_group(rules: Rules) -> Group | None:
    """The group the solver's symmetry sources reduce by on this structure (sorted heaps; every
    vertex permutation, as the S_n plan; the listed automorphisms), or None when none is used
    (the game says ``symmetric = False``, or the structure has no symmetry the solver uses).

    >>> from grundy.spec.games import get_game
    >>> from grundy.spec import Structure
    >>> k6 = Structure.graph(range(6), [(u, v) for u in range(6) for v in range(u)])
    >>> symmetry_group(get_game("edge-nim").rules(k6)).name
    'S_6 on vertices'
    >>> c4 = Structure.graph(range(4), [(0, 1), (1, 2), (2, 3), (3, 0)])
    >>> grp = symmetry_group(get_game("grim").rules(c4)); grp.name, len(grp.generators)
    ('8 automorphisms', 2)
    """
    g = rules.structure
    if not rules.game.symmetric or g.n < 2:
        return None
    if rules.heap_sorting:
        return _heap_generators(rules)
    if g.kind == "heaps":
        return None
    if Plan.of(rules, force=True) is not None:
        return _vertex_generators(rules)
    if len(rules.automorphisms) <= 1:
        return None
    return _listed_generators(rules)


def group_order(group: Group) -> int | None:
    """The order of S_n named by the group, None otherwise."""
    head = group.name.split(" ", 1)[0]
    return factorial(int(head[2:])) if head.startswith("S_") else None


# ------------------------------------------------------------------------------ declarations
def declared(game: Game, attr: str) -> bool:
    """Whether the game's author set ``attr`` (``symmetric``, ``decompose_over``): on the object
    or in a class of its own, not left at a default of grundy's base classes.

    >>> from grundy.spec.games import get_game
    >>> declared(get_game("grim"), "decompose_over"), declared(get_game("grim"), "symmetric")
    (True, False)
    """
    if attr in vars(game):
        return True
    for cls in type(game).__mro__:
        if attr in vars(cls):
            mod = cls.__module__
            return not (mod in _BASE_MODULES or mod.startswith("grundy.spec.games._"))
    return False


_BASE_MODULES = {"grundy.spec.game", "grundy.spec.heaprule", "grundy.spec.heaps", "grundy.spec.graphs"}


# ------------------------------------------------------------------------------ premises
@dataclass(frozen=True)
class Premise:
    """What is known of one premise on one structure: ``status`` (proved, violated, unknown,
    not declared), ``how`` (a short phrase for the scope), ``violation`` (one line naming the
    game, the move and the position, when violated) and whether the author ``declared`` it."""

    name: str
    status: str
    how: str
    violation: str = ""
    declared: bool = False
    state: tuple[int, ...] | None = None      # the position the violation names

    @property
    def holds(self) -> bool:
        return self.status == PROVED

    def to_json(self) -> dict:
        return {"name": self.name, "status": self.status, "how": self.how, "violation": self.violation}


def _key(kind: str, rules: Rules, extra: Any) -> str | None:
    try:
        text = json.dumps([FORMAT, kind, rules_digest(rules), extra, package_digest(), _z3_version()])
    except TypeError:            # something in the rules that cannot be read back as content
        return None
    return hashlib.sha256(text.encode()).hexdigest()


def _z3_version() -> str:
    """Z3's version, without importing it (a stored proof costs no import)."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("z3-solver")
    except PackageNotFoundError:
        import z3
        return z3.get_version_string()


def _stored(key: str | None) -> dict | None:
    if key is None:
        return None
    try:
        with open(cache_root() / "premises" / f"{key}.json", encoding="utf-8") as f:
            d = json.load(f)
    except (OSError, ValueError):
        return None
    return d if isinstance(d, dict) and d.get("key") == key else None


def _store(key: str | None, d: dict) -> None:
    if key is None:
        return
    path = cache_root() / "premises" / f"{key}.json"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{key}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(dict(d, key=key)), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass                                  # a cache that cannot be written is no cache


Proof = tuple[str, str, str, "State | None"]      # status, how, violation, its position


def _cached(kind: str, rules: Rules, extra: Any, cache: bool, prove: Callable[[], Proof],
            declared_: bool) -> Premise:
    key = _key(kind, rules, extra) if cache else None
    d = _stored(key)
    if d is None:
        status, how, violation, state = prove()
        d = {"status": status, "how": how, "violation": violation, "state": state}
        _store(key, d)
    state = d.get("state")
    return Premise(kind, d["status"], d["how"], d["violation"], declared_, None if state is None else tuple(state))


class _Z3:
    """One Z3 solver for a premise's queries (push/pop), with the premise's resource budget."""

    def __init__(self, enc, budget: int):
        import z3
        self.z3, self.enc = z3, enc
        self.tr = enc.translator(None)
        # a context of its own: Z3's answers (its models) then depend on this premise's queries
        # only, not on what the process asked Z3 before (terms are translated into it)
        self.ctx = z3.Context()
        self.s = z3.Solver(ctx=self.ctx)
        self.budget, self.used = budget, 0
        self.s.add(self.tr(enc.family).translate(self.ctx))

    def assume(self, items: list) -> None:
        """Assert ``items`` for every later query (added once, before any push)."""
        for it in items:
            self.s.add(self.tr.part(self.enc.prepare(it)).translate(self.ctx))

    def value(self, model, term) -> Any:
        return model.eval(term.translate(self.ctx), model_completion=True)

    def state(self, model) -> State:
        """The state (schema order) in a model."""
        vals = [self.value(model, v) for v in self.enc.state_vars]
        return tuple(int(self.z3.is_true(x)) if k == "bool" else x.as_long() for x, k in zip(vals, self.enc.kinds))

    def integer(self, model, name: str) -> int:
        return self.value(model, self.tr.var(name, "int")).as_long()

    def truth(self, model, name: str) -> bool:
        return bool(self.z3.is_true(self.value(model, self.tr.var(name, BOOL))))

    def check(self, items: list, shrink: bool = False) -> tuple[str, Any]:
        """sat (with the model), unsat or unknown, for the conjunction of ``items`` (IR
        formulas or :class:`~grundy.solvers.smt.encode.Exists`). ``shrink``: a model whose int
        fields total as little as a few more queries find (a violation is shown small)."""
        z3 = self.z3
        s = self.s
        s.push()
        try:
            for it in items:
                s.add(self.tr.part(self.enc.prepare(it)).translate(self.ctx))
            r = self._check()
            if r == z3.sat:
                model = s.model()
                return "sat", self._shrink(model) if shrink else model
            return ("unsat", None) if r == z3.unsat else ("unknown", None)
        finally:
            s.pop()

    def _check(self) -> Any:
        left = self.budget - self.used
        if left <= 0:
            return self.z3.unknown
        s = self.s
        s.set("rlimit", left)
        before = _rlimit(s)
        r = s.check()
        self.used += max(0, _rlimit(s) - before)
        return r

    def _shrink(self, model: Any) -> Any:
        """Halve the bound on the int fields' total while Z3 finds a model within it (at most
        12 queries, within the budget)."""
        sch = self.enc.rules.schema
        size = [v - sch.fields[f].lower for v, (f, _) in zip(sch.variables, sch.slots) if sch.fields[f].kind == "int"]
        if not size:
            return model
        total = self.tr(lift(sum(size[1:], size[0]))).translate(self.ctx)
        lo, hi = 0, model.eval(total, model_completion=True).as_long()
        for _ in range(12):
            if lo >= hi:
                break
            mid = (lo + hi) // 2
            self.s.push()
            self.s.add(total <= mid)
            r = self._check()
            if r == self.z3.sat:
                model = self.s.model()
                hi = model.eval(total, model_completion=True).as_long()
            self.s.pop()
            if r == self.z3.unsat:
                lo = mid + 1
            elif r != self.z3.sat:
                break
        return model


def _rlimit(s) -> int:
    try:
        return int(s.statistics().get_key_value("rlimit count"))
    except Exception:            # noqa: BLE001  (no statistics yet)
        return 0


def _encoding(rules: Rules):
    from .smt.encode import encoding
    return encoding(rules)


def _compiled(rules: Rules):
    from .explicit.compile import compile_rules
    return compile_rules(rules, symmetry=False, decompose=False)


def _samples(rules: Rules, n: int = SAMPLES) -> list[State]:
    """A few concrete states within the field domains (seeded: the same every time), from full
    (every int field 3 above its least value, every bool true) to sparse (most at their least:
    moves that need emptiness are legal there)."""
    rnd = random.Random(1729)
    out = []
    for k in range(n):
        sparse = k / n                          # the share of int fields at their least value
        s = []
        for d in rules.slot_domains:
            if d is None:
                s.append(rnd.randint(0, 1) if k else 1)
            elif d[1] is None:
                s.append(d[0] if rnd.random() < sparse else d[0] + (rnd.randint(1, 6) if k else 3))
            else:
                s.append(rnd.randint(d[0], d[1]))
        out.append(tuple(s))
    return out


# ------------------------------------------------------------------------------ symmetry
def prove_symmetry(rules: Rules, group: Group | None = None, *, cache: bool = True,
                   budget: int | None = None) -> Premise:
    """Whether the rule commutes with every generator of ``group`` (default: the group the
    solver would reduce by, :func:`symmetry_group`) at every position, proved by Z3 within
    ``budget`` resource units (default :data:`RLIMIT`)."""
    budget = RLIMIT if budget is None else budget
    game = rules.game
    group = group if group is not None else symmetry_group(rules)
    dec = declared(game, "symmetric")
    if not game.symmetric:
        return Premise("symmetry", NOT_DECLARED, "no symmetry (symmetric = False)", declared=dec)
    if group is None or not group.generators:
        return Premise("symmetry", NOT_DECLARED, "no symmetry on this structure", declared=dec)
    if rules.heap_sorting and _uniform_heap_rule(rules):
        return Premise("symmetry", PROVED, f"symmetry ({group.name}) by construction (one rule for every heap)",
                       declared=dec)
    extra = [group.name, [g.key() for g in group.generators], budget]
    return _cached("symmetry", rules, extra, cache, lambda: _symmetry(rules, group, budget), dec)


def _uniform_heap_rule(rules: Rules) -> bool:
    """Whether the moves are :class:`~grundy.spec.HeapRule`'s own derivation (see
    :func:`grundy.solvers.heaps.sum_of_heaps`) and its ``options`` give every heap the same
    options (the one-heap form with ``n`` read as that heap). Then a permutation of the heaps
    permutes the positions the moves reach, up to the order of the heaps: the options of a
    position depend on its multiset of heaps only (parts go to empty slots, whichever), which
    is what sorted heaps, the canonical form, keep."""
    from ..spec.fingerprint import expr_digest
    from .heaps import sum_of_heaps
    game, g = rules.game, rules.structure
    if sum_of_heaps(game, g) is None:
        return False
    from ..spec.expr import free_vars
    try:
        base = list(game.options(g, Var.int("n")))
        for o in base:              # an option reads its heap and its own choices, nothing else
            names = {"n"} | {c.name for c in o.choices}
            exprs = [o.guard, *o.update.values(), *(x for c in o.choices for x in (c.lo, c.hi))]
            if any(not free_vars(lift(e)) <= names for e in exprs):
                return False
        for i in g.elements:
            h = rules.state.heap[i]
            mine = list(game.options(g, h))
            if len(mine) != len(base):
                return False
            for a, b in zip(base, mine):
                if a.label != b.label or sorted(a.update) != sorted(b.update) or len(a.choices) != len(b.choices):
                    return False
                pairs = [(a.guard, b.guard)] + [(a.update[k], b.update[k]) for k in a.update]
                pairs += [(x, y) for ca, cb in zip(a.choices, b.choices) if ca.name == cb.name
                          for x, y in ((ca.lo, cb.lo), (ca.hi, cb.hi))]
                if any(ca.name != cb.name for ca, cb in zip(a.choices, b.choices)):
                    return False
                from .smt.encode import substitute
                if any(expr_digest(substitute(lift(x), {"n": h})) != expr_digest(y) for x, y in pairs):
                    return False
    except Exception:            # noqa: BLE001  (options that cannot be built so: not by construction)
        return False
    return True


def _symmetry(rules: Rules, group: Group, budget: int) -> Proof:
    try:
        enc = _encoding(rules)
        z = _Z3(enc, budget)
        code = _compiled(rules)
    except Exception as e:       # noqa: BLE001  (a rule Z3 cannot take: not proved, not used)
        return UNKNOWN, f"symmetry ({group.name}) not proved ({type(e).__name__}): not used", "", None
    n = len(group.generators)
    for gen in group.generators:
        try:
            status, detail, state = _commutes(rules, enc, z, code, gen)
        except Exception as e:   # noqa: BLE001  (an expression Z3 cannot take)
            return UNKNOWN, f"symmetry ({group.name}) not proved ({type(e).__name__}): not used", "", None
        if status == VIOLATED:
            return VIOLATED, f"symmetry ({group.name}) violated: not used", detail, state
        if status != PROVED:
            return UNKNOWN, f"symmetry ({group.name}) not proved ({detail}): not used", "", None
    return PROVED, f"symmetry ({group.name}) proved by Z3, {n} generator{'s' * (n != 1)}", "", None


def _value_map(x: Expr, table: Sequence[int], lo: int) -> Expr:
    out = lift(table[-1])
    for v in range(len(table) - 2, -1, -1):
        out = ite(x == v + lo, table[v], out)
    return out


def _image_exprs(gen: Generator, vals: list[Expr]) -> list[Expr]:
    """The state σ(vals): slot perm[i] holds table_i(vals[i])."""
    out: list[Expr] = [lift(0)] * len(vals)
    for i, v in enumerate(vals):
        t = gen.tables[i]
        out[gen.perm[i]] = v if t is None else _value_map(v, t, gen.lows[i])
    return out


def _matches(rules: Rules, code, gen: Generator) -> dict[int, list[int]]:
    """For each move, the moves of the image position that reach the image of its result with
    the same choice values on every sample where it is legal (the candidates to prove)."""
    out: dict[int, set[int]] = {}
    for s in _samples(rules):
        for mi, found in _matched_at(code, gen, s).items():
            out[mi] = out[mi] & found if mi in out else found
    return {mi: sorted(c) for mi, c in out.items()}


def _matched_at(code, gen: Generator, s: State, only: tuple[int, tuple] | None = None) -> dict[int, set[int]]:
    """At one concrete state: for each move legal there (``only``: this move with these choices),
    the moves of the image position reaching the image of its result with the same choices."""
    try:
        mine = code.options(s)
        theirs: dict[tuple, set[int]] = {}
        for mj, cv, t in code.options(gen.image(s)):
            theirs.setdefault((tuple(cv), t), set()).add(mj)
    except Exception:            # noqa: BLE001  (a state the rule does not take: no information)
        return {}
    out: dict[int, set[int]] = {}
    for mi, cv, t in mine:
        if only is not None and (mi, tuple(cv)) != only:
            continue
        found = theirs.get((tuple(cv), gen.image(t)), set())
        out[mi] = out[mi] & found if mi in out else set(found)
    return out


def _commutes(rules: Rules, enc, z: _Z3, code, gen: Generator) -> tuple[str, str, State | None]:
    """Whether σ maps the result of every move into the moves of the image (see the module's
    docstring): the matched moves first, all in one quantifier-free query (then move by move if
    that fails), the full query for a move whose match is not proved."""
    from .smt.encode import substitute
    names, var = enc.names, rules.schema.variables
    n = len(names)
    at_image = dict(zip(names, _image_exprs(gen, list(var))))
    candidates = _matches(rules, code, gen)
    todo = []                   # (move, legal, target, candidates)
    for mv in enc.moves:
        ren = {new: Var.int(new + "!") for _, new, _, _ in mv.choices}
        legal = substitute(mv.legal, ren)
        target = _image_exprs(gen, [substitute(mv.update.get(names[k], var[k]), ren) for k in range(n)])
        cands = candidates.get(mv.index)
        if not cands:            # never legal on the samples: a state where it is, from Z3
            status, model = z.check([legal])
            if status == "unsat":
                continue         # never legal: nothing to map
            if status == "sat":
                cv = tuple(z.integer(model, new + "!") for _, new, _, _ in mv.choices)
                cands = sorted(_matched_at(code, gen, z.state(model), (mv.index, cv)).get(mv.index, ()))
        todo.append((mv, legal, target, list(cands or ())))
    first = [(legal, _match(enc, at_image, mv, enc.moves[c[0]], target, substitute))
             for mv, legal, target, c in todo if c]
    if len(first) == len(todo) and all(ok is not None for _, ok in first):
        if z.check([any_of([legal & not_(ok) for legal, ok in first])])[0] == "unsat":
            return PROVED, "", None           # every move matched, in one query
    image_moves: list[tuple[Expr, list[Expr]]] | None = None      # each move at the image (full queries)
    for mv, legal, target, cands in todo:
        if any(_matched(z, enc, at_image, mv, enc.moves[j], legal, target, substitute) for j in cands):
            continue
        if image_moves is None:
            image_moves = [(substitute(mj.legal, at_image),
                            [substitute(mj.update.get(names[k], var[k]), at_image) for k in range(n)])
                           for mj in enc.moves]
        found = _full(rules, z, code, gen, mv, legal, target, image_moves)
        if found is not None:
            return found
    return PROVED, "", None


def _full(rules: Rules, z: _Z3, code, gen: Generator, mv, legal: Expr, target: list[Expr],
          image_moves: list[tuple[Expr, list[Expr]]]) -> tuple[str, str, State | None] | None:
    """The full query for one move: no move from the image reaches the image of its result, for
    any choices. None when Z3 proves it cannot happen, else (status, violation, position)."""
    from .smt.encode import Exists
    n = len(target)
    items: list = [legal]
    for mj, (lg, up) in zip(z.enc.moves, image_moves):
        body = all_of([lg] + [up[k] == target[k] for k in range(n)])
        items.append(~Exists(mj.names, body) if mj.names else not_(body))
    status, model = z.check(items, shrink=True)
    if status == "unsat":
        return None
    if status == "unknown":
        return UNKNOWN, "Z3 unknown within its resource limit", None
    state = z.state(model)
    cv = tuple(z.integer(model, new + "!") for _, new, _, _ in mv.choices)
    why = _symmetry_violation(rules, code, gen, state, mv.index, cv)
    if why is None:              # Z3's model is no violation of the concrete rule: not proved
        return UNKNOWN, "Z3's counterexample does not replay", None
    return VIOLATED, why, state


def _match(enc, at_image: dict, mv, mj, target: list[Expr], substitute) -> Expr | None:
    """The formula "``mj`` with the same choices as ``mv`` is legal at the image and reaches the
    image of ``mv``'s result" (None: their choices do not correspond)."""
    if len(mj.choices) != len(mv.choices):
        return None
    names, var = enc.names, enc.rules.schema.variables
    sub = dict(at_image)
    sub.update({new: Var.int(mine + "!") for (_, new, _, _), (_, mine, _, _) in zip(mj.choices, mv.choices)})
    return all_of([substitute(mj.legal, sub)] +
                  [substitute(mj.update.get(names[k], var[k]), sub) == target[k] for k in range(len(names))])


def _matched(z: _Z3, enc, at_image: dict, mv, mj, legal: Expr, target: list[Expr], substitute) -> bool:
    """Proved: wherever ``mv`` is legal, ``mj`` with the same choices is legal at the image and
    reaches the image of its result (one quantifier-free query)."""
    ok = _match(enc, at_image, mv, mj, target, substitute)
    return ok is not None and z.check([legal, not_(ok)])[0] == "unsat"


def _symmetry_violation(rules: Rules, code, gen: Generator, s: State, mi: int, cv: tuple) -> str | None:
    """The one-line violation at ``s`` (move ``mi`` with choices ``cv``), checked on the rule: its
    result, and the image's successors (at most :data:`REPLAY` of them: past that, not
    confirmed, None)."""
    try:
        t = _made(rules, mi, cv, s)
        img = gen.image(s)
        want = gen.image(t) if t is not None else None
        if want is None:
            return None
        for k, u in enumerate(code.successors_lazy(img)):
            if u == want or k >= REPLAY:
                return None
    except Exception:            # noqa: BLE001  (a position the rule does not take: not confirmed)
        return None
    return (f"{rules.game.name}: the rule does not commute with {gen.what}: at {rules.describe(s)} "
            f"move {rules.move_text(mi, cv)!r} reaches {rules.describe(t)}, but no move from "
            f"{rules.describe(img)} reaches its image (found by Z3)")


def _made(rules: Rules, mi: int, cv: tuple, s: State) -> State | None:
    """The position move ``mi`` with choices ``cv`` reaches from ``s`` (None: not legal there),
    evaluated on the rule's IR."""
    m = rules.moves[mi]
    env: dict[str, Any] = {rules.schema.var_name(i): v for i, v in enumerate(s)}
    for c, v in zip(m.choices, cv):
        if not evaluate(c.lo, env) <= v <= evaluate(c.hi, env):
            return None
        env[c.name] = v
    if not evaluate(m.guard, env):
        return None
    t = list(s)
    for slot, e in m.update.items():
        t[slot] = int(evaluate(e, env))
    return tuple(t)


# ------------------------------------------------------------------------------ decomposition
def prove_decomposition(rules: Rules, *, cache: bool = True, budget: int | None = None) -> Premise:
    """Whether positions split into independent components as the game declares
    (``decompose_over``), proved by Z3 on this structure (see the module's docstring) within
    ``budget`` resource units (default :data:`RLIMIT`)."""
    budget = RLIMIT if budget is None else budget
    game = rules.game
    dec = declared(game, "decompose_over")
    if rules.present is None:
        return Premise("decomposition", NOT_DECLARED, "no decomposition declared", declared=dec)
    return _cached("decomposition", rules, [budget], cache, lambda: _decomposition(rules, budget), dec)


class _Split:
    """The formulas of the decomposition premise on one structure (see the module's docstring).
    A state is a map from slot variable names to expressions (``self.s``: the variables
    themselves); what is derived from a state is memoised by the map's identity, and an
    expression is rebuilt only when a variable it reads has another value there."""

    def __init__(self, rules: Rules, enc):
        from ..spec.expr import free_vars
        from .smt.encode import substitute
        self._substitute, self._free = substitute, free_vars
        self.rules, self.enc = rules, enc
        self.names = enc.names
        self.var = rules.schema.variables
        n_el = len(rules.component_elements)
        self.side = [Var.bool(f"side#{x}") for x in range(n_el)]
        self.owner: list[int | None] = [None] * len(self.names)
        for x, slots in enumerate(rules.element_slots):
            for sl in slots:
                self.owner[sl] = x
        sch = rules.schema
        self.empty = [lift(bool(sch.fields[f].empty)) if sch.fields[f].sort == BOOL else lift(sch.fields[f].empty)
                      for f, _ in sch.slots]
        self.s = dict(zip(self.names, self.var))
        self._vars: dict[int, tuple[Expr, list[str]]] = {}
        self._memo: dict[tuple, tuple[Any, Any]] = {}      # (what, id(state), ...) -> (state, value)

    def sub(self, e: Expr, state: dict[str, Expr]) -> Expr:
        """``e`` read at ``state``."""
        hit = self._vars.get(id(e))
        if hit is None:
            hit = self._vars[id(e)] = (e, sorted(self._free(e)))
        changed = {n: state[n] for n in hit[1] if n in state and state[n] is not self.s.get(n)}
        return self._substitute(e, changed) if changed else e

    def _cached(self, what: tuple, state: dict[str, Expr], make: Callable[[], Any]) -> Any:
        key = (what, id(state))
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = (state, make())
        return hit[1]

    def present(self, state: dict[str, Expr]) -> list[Expr]:
        return self._cached(("present",), state, lambda: [self.sub(p, state) for p in self.rules.present])

    def decomposable(self, state: dict[str, Expr]) -> Expr:
        return self.sub(self.rules.decomposable, state)

    def valid(self, state: dict[str, Expr]) -> Expr:
        """No link between a present element of one side and a present element of the other."""
        def make() -> Expr:
            p = self.present(state)
            return all_of(any_of([not_(p[a] & p[b]), self.side[a] == self.side[b]]) for a, b in self.rules.links)
        return self._cached(("valid",), state, make)

    def keeps(self, state: dict[str, Expr], a_side: bool) -> list[Expr]:
        p = self.present(state)
        return [p[x] & (self.side[x] if a_side else not_(self.side[x])) for x in range(len(p))]

    def restrict(self, state: dict[str, Expr], a_side: bool) -> dict[str, Expr]:
        """``state`` with every element not present on the side emptied (as a component is)."""
        def make() -> dict[str, Expr]:
            keep = self.keeps(state, a_side)
            out = {}
            for sl, name in enumerate(self.names):
                x = self.owner[sl]
                out[name] = state[name] if x is None else ite(keep[x], state[name], self.empty[sl])
            return out
        return self._cached(("restrict", a_side), state, make)

    def after(self, mv, state: dict[str, Expr]) -> dict[str, Expr]:
        """The state after move ``mv`` from ``state``."""
        def make() -> dict[str, Expr]:
            out = dict(state)
            for name, e in mv.update.items():
                out[name] = self.sub(e, state)
            return out
        return self._cached(("after", mv.index), state, make)

    def same(self, a: dict[str, Expr], b: dict[str, Expr]) -> Expr:
        return all_of(a[n] == b[n] for n in self.names if a[n] is not b[n])

    def base(self) -> list[Expr]:
        return [self.decomposable(self.s), self.valid(self.s)]

    def presence(self) -> Expr:
        """Restricting keeps each element's presence on its side, and the split allowed."""
        out = []
        for a_side in (True, False):
            r = self.restrict(self.s, a_side)
            want = self.keeps(self.s, a_side)
            out += [q == w for q, w in zip(self.present(r), want)] + [self.decomposable(r)]
        return all_of(out)

    def moved(self, mv, a_side: bool) -> Expr:
        """The move, made at the restriction to one side, is the move made at s: the result of s
        restricts to its result on that side and to the other side unchanged."""
        s, r = self.s, self.restrict(self.s, a_side)
        other = self.restrict(s, not a_side)
        s2 = self.after(mv, s)
        return all_of([self.decomposable(s2), self.valid(s2),
                       self.same(self.restrict(s2, a_side), self.after(mv, r)),
                       self.same(self.restrict(s2, not a_side), other)])

    def queries(self, per_query: int = 4):
        """The premise's queries, each a formula whose models violate it: presence, then the
        moves, ``per_query`` in one disjunction (fewer calls on long sparse structures, easier
        queries on dense ones: measured)."""
        yield not_(self.presence())
        ra, rb = self.restrict(self.s, True), self.restrict(self.s, False)
        bad = []
        for mv in self.enc.moves:
            legal_a, legal_b = self.sub(mv.legal, ra), self.sub(mv.legal, rb)
            fwd = any_of([legal_a & self.moved(mv, True), legal_b & self.moved(mv, False)])
            bad.append(mv.legal & not_(fwd))                            # a move of s is one side's
            bad.append(legal_a & not_(mv.legal & self.moved(mv, True)))  # a move of one side is s's
            if len(bad) >= 2 * per_query:
                yield any_of(bad)
                bad = []
        if bad:
            yield any_of(bad)


def _decomposition(rules: Rules, budget: int) -> Proof:
    try:
        enc = _encoding(rules)
        z = _Z3(enc, budget)
        sp = _Split(rules, enc)
        code = _compiled(rules)
        z.assume(sp.base())
        for query in sp.queries():
            status, model = z.check([query], shrink=True)
            if status == "unsat":
                continue
            if status == "unknown":
                return UNKNOWN, "decomposition not proved (Z3 unknown within its resource limit): not used", "", None
            state = z.state(model)
            sides = [z.truth(model, v.name) for v in sp.side]
            why = _split_violation(rules, code, state, sides)
            if why is None:
                return UNKNOWN, "decomposition not proved (Z3's counterexample does not replay): not used", "", None
            return VIOLATED, "decomposition violated: not used", why, state
    except Exception as e:       # noqa: BLE001  (a rule Z3 cannot take: not proved, not used)
        return UNKNOWN, f"decomposition not proved ({type(e).__name__}): not used", "", None
    return PROVED, "decomposition proved by Z3", "", None


def _concrete_restrict(rules: Rules, s: State, keep: list[bool]) -> State:
    sch = rules.schema
    t = list(s)
    for x, slots in enumerate(rules.element_slots):
        if not keep[x]:
            for sl in slots:
                t[sl] = sch.fields[sch.slots[sl][0]].empty
    return tuple(t)


def _split_violation(rules: Rules, code, s: State, sides: list[bool]) -> str | None:
    """The one-line violation of independence at ``s`` split by ``sides``, checked on the rule
    (a move of the whole position that is no move of one side, or the reverse; or an element
    whose presence changes when the other side is emptied), or None."""
    env = {rules.schema.var_name(i): v for i, v in enumerate(s)}
    if sum(abs(v) for v in s) > REPLAY:       # too large to enumerate the moves: not confirmed
        return None
    try:
        pres = [bool(evaluate(p, env)) for p in rules.present]
        name = rules.game.name
        parts = []
        for a_side in (True, False):
            keep = [p and (sd == a_side) for p, sd in zip(pres, sides)]
            r = _concrete_restrict(rules, s, keep)
            renv = {rules.schema.var_name(i): v for i, v in enumerate(r)}
            for x, p in enumerate(rules.present):
                if bool(evaluate(p, renv)) != keep[x]:
                    return (f"{name}: whether element {x} takes part depends on another component, at "
                            f"{rules.describe(s)}")
            parts.append((keep, r))
        whole = {t: (mi, cv) for mi, cv, t in code.options(s)}
        lifted: dict[State, tuple[int, tuple]] = {}
        for keep, r in parts:
            for mi, cv, t in code.options(r):
                u = list(s)
                for x, slots in enumerate(rules.element_slots):
                    for sl in slots:
                        if keep[x] or t[sl] != r[sl]:
                            u[sl] = t[sl]
                owned = {sl for slots in rules.element_slots for sl in slots}
                for sl in range(len(s)):
                    if sl not in owned:
                        u[sl] = t[sl]
                lifted[tuple(u)] = (mi, cv)
    except Exception:            # noqa: BLE001
        return None
    for t, (mi, cv) in whole.items():
        if t not in lifted:
            return (f"{name}: at {rules.describe(s)} move {rules.move_text(mi, cv)!r} of the whole position "
                    f"is no move of a single component (found by Z3)")
    for t, (mi, cv) in lifted.items():
        if t not in whole:
            return (f"{name}: at {rules.describe(s)} move {rules.move_text(mi, cv)!r} of a component is no "
                    f"move of the whole position (found by Z3)")
    return None
