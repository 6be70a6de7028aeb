"""The decomposition premise's proof: the rule is a disjunctive sum on the structure (Z3, see
:mod:`grundy.solvers.premises`); violations replayed on the concrete rule."""
from __future__ import annotations

import hashlib
from typing import Any, Callable

from ...caches import register
from ...spec.expr import BOOL, Expr, Var, all_of, any_of, evaluate, ite, lift, not_
from ...spec.game import Rules
from ...spec.ops import dag_nodes
from .base import _Z3, PROVED, REPLAY, UNKNOWN, VIOLATED, Proof, State, _compiled, _encoding, _rlimit


# ------------------------------------------------------------------------------ decomposition
class _Derived(dict):
    """A state made from another (``parent``) by changing the variables named in ``delta``
    (at most those): what is derived from it is derived from its parent's again only where
    ``delta`` reaches, so that a move's query costs what the move touches, not the structure."""

    def __init__(self, parent: dict[str, Expr], delta: set[str]):
        super().__init__(parent)
        self.parent, self.delta = parent, delta


class _Split:
    """The formulas of the decomposition premise on one structure (see the module's docstring).
    A state is a map from slot variable names to expressions (``self.s``: the variables
    themselves); what is derived from a state is memoised by the map's identity, and an
    expression is rebuilt only when a variable it reads has another value there."""

    def __init__(self, rules: Rules, enc):
        from ...spec.expr import free_vars
        from ..smt.encode import substitute
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
        self.slot = {name: sl for sl, name in enumerate(self.names)}
        self.readers: dict[str, list[int]] = {}          # variable -> the elements whose presence reads it
        for x, p in enumerate(rules.present or ()):
            for name in free_vars(p):
                self.readers.setdefault(name, []).append(x)
        self.link_of: list[list[int]] = [[] for _ in range(n_el)]   # element -> its links' indices
        for i, (a, b) in enumerate(rules.links):
            self.link_of[a].append(i)
            self.link_of[b].append(i)
        sch = rules.schema
        self.empty = [lift(bool(sch.fields[f].empty)) if sch.fields[f].sort == BOOL else lift(sch.fields[f].empty)
                      for f, _ in sch.slots]
        self.s = dict(zip(self.names, self.var, strict=False))
        self._memo: dict[tuple, tuple[Any, Any]] = {}      # (what, id(state), ...) -> (state, value)

    def sub(self, e: Expr, state: dict[str, Expr]) -> Expr:
        """``e`` read at ``state`` (the substitution of the same variables by the same nodes is
        made once in the process: every structure that shares the move's terms reads it back)."""
        hit = _FREE.get(id(e))
        if hit is None:
            if len(_FREE) >= _REMEMBERED:
                _FREE.clear()
            hit = _FREE[id(e)] = (e, sorted(self._free(e)))
        s = self.s
        changed = {n: state[n] for n in hit[1] if n in state and state[n] is not s.get(n, _NONE)}
        if not changed:
            return e
        key = (id(e), *[(n, id(x)) for n, x in changed.items()])
        done = _SUBSTITUTED.get(key)
        if done is None:
            if len(_SUBSTITUTED) >= _REMEMBERED:
                _SUBSTITUTED.clear()
            done = _SUBSTITUTED[key] = (e, changed, self._substitute(e, changed))
        return done[2]

    def _cached(self, what: tuple, state: dict[str, Expr], make: Callable[[], Any]) -> Any:
        key = (what, id(state))
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = (state, make())
        return hit[1]

    def _changed(self, state: dict[str, Expr]) -> list[int]:
        """The elements whose presence at a derived state may differ from its parent's."""
        assert isinstance(state, _Derived)
        return sorted({x for n in state.delta for x in self.readers.get(n, ())})

    def present(self, state: dict[str, Expr]) -> list[Expr]:
        def make() -> list[Expr]:
            if not isinstance(state, _Derived):
                return [self.sub(p, state) for p in self.rules.present or ()]
            out = list(self.present(state.parent))
            for x in self._changed(state):
                out[x] = self.sub(self.rules.present[x], state)       # type: ignore[index]
            return out
        return self._cached(("present",), state, make)

    def decomposable(self, state: dict[str, Expr]) -> Expr:
        return self.sub(self.rules.decomposable, state)

    def links(self, state: dict[str, Expr]) -> list[Expr]:
        """Per link: no present element of one side linked to a present element of the other."""
        def one(i: int, p: list[Expr]) -> Expr:
            a, b = self.rules.links[i]
            return any_of([not_(p[a] & p[b]), self.side[a] == self.side[b]])

        def make() -> list[Expr]:
            p = self.present(state)
            if not isinstance(state, _Derived):
                return [one(i, p) for i in range(len(self.rules.links))]
            out = list(self.links(state.parent))
            for i in {i for x in self._changed(state) for i in self.link_of[x]}:
                out[i] = one(i, p)
            return out
        return self._cached(("links",), state, make)

    def valid(self, state: dict[str, Expr]) -> Expr:
        return all_of(self.links(state))

    def still_valid(self, state: dict[str, Expr]) -> Expr:
        """:meth:`valid` at a state after a move, without the links' conditions that are those
        at ``self.s`` (the same expressions, asserted by :meth:`base`): a move's query then
        reads the links it changes only, not every link of the structure."""
        known = self._cached(("known links",), self.s, lambda: {id(c) for c in self.links(self.s)})
        links = self.links(state)
        at: Any = range(len(links))
        if isinstance(state, _Derived) and state.parent is self.s:   # the links it changes, in order
            at = sorted({i for x in self._changed(state) for i in self.link_of[x]})
        return all_of(c for c in (links[i] for i in at) if id(c) not in known)

    def keeps(self, state: dict[str, Expr], a_side: bool) -> list[Expr]:
        def one(x: int, p: list[Expr]) -> Expr:
            return p[x] & (self.side[x] if a_side else not_(self.side[x]))

        def make() -> list[Expr]:
            p = self.present(state)
            if not isinstance(state, _Derived):
                return [one(x, p) for x in range(len(p))]
            out = list(self.keeps(state.parent, a_side))
            for x in self._changed(state):
                out[x] = one(x, p)
            return out
        return self._cached(("keeps", a_side), state, make)

    def _restricted(self, state: dict[str, Expr], keep: list[Expr], name: str) -> Expr:
        x = self.owner[self.slot[name]]
        return state[name] if x is None else ite(keep[x], state[name], self.empty[self.slot[name]])

    def restrict(self, state: dict[str, Expr], a_side: bool) -> dict[str, Expr]:
        """``state`` with every element not present on the side emptied (as a component is)."""
        def make() -> dict[str, Expr]:
            keep = self.keeps(state, a_side)
            if not isinstance(state, _Derived):
                return {name: self._restricted(state, keep, name) for name in self.names}
            base = self.restrict(state.parent, a_side)
            redo = set(state.delta)
            for x in self._changed(state):
                redo.update(self.names[sl] for sl in self.rules.element_slots[x])
            out = _Derived(base, redo)
            for name in redo:
                out[name] = self._restricted(state, keep, name)
            return out
        return self._cached(("restrict", a_side), state, make)

    def after(self, mv, state: dict[str, Expr]) -> dict[str, Expr]:
        """The state after move ``mv`` from ``state``."""
        def make() -> dict[str, Expr]:
            out = _Derived(state, set(mv.update))
            for name, e in mv.update.items():
                out[name] = self.sub(e, state)
            return out
        return self._cached(("after", mv.index), state, make)

    def same(self, a: dict[str, Expr], b: dict[str, Expr]) -> Expr:
        """``a`` and ``b`` agree (on the names where they hold other nodes; two states derived
        from one parent differ at most where their changes reach: only those are read)."""
        names: Any = self.names
        if isinstance(a, _Derived) and (a.parent is b or (isinstance(b, _Derived) and a.parent is b.parent)):
            reach = a.delta | b.delta if isinstance(b, _Derived) and a.parent is b.parent else a.delta
            names = sorted(reach, key=self.slot.__getitem__)     # in slot order, as the full scan
        return all_of(a[n] == b[n] for n in names if a[n] is not b[n])

    def base(self) -> list[Expr]:
        return [self.decomposable(self.s), self.valid(self.s)]

    def presence(self) -> list[Expr]:
        """Restricting keeps each element's presence on its side, and the split allowed."""
        out = []
        for a_side in (True, False):
            r = self.restrict(self.s, a_side)
            want = self.keeps(self.s, a_side)
            out += [q == w for q, w in zip(self.present(r), want, strict=False)] + [self.decomposable(r)]
        return out

    def moved(self, mv, a_side: bool) -> Expr:
        """The move, made at the restriction to one side, is the move made at s: the result of s
        restricts to its result on that side and to the other side unchanged."""
        s, r = self.s, self.restrict(self.s, a_side)
        other = self.restrict(s, not a_side)
        s2 = self.after(mv, s)
        return all_of([self.decomposable(s2), self.still_valid(s2),
                       self.same(self.restrict(s2, a_side), self.after(mv, r)),
                       self.same(self.restrict(s2, not a_side), other)])

    def queries(self):
        """The premise's queries, each a formula whose models violate it: each element's presence
        on each side, then each move (its two directions). Each reads what it is about only, so
        that most are proved from the assumptions near it (:class:`_Local`)."""
        for p in self.presence():
            yield not_(p)
        ra, rb = self.restrict(self.s, True), self.restrict(self.s, False)
        for mv in self.enc.moves:
            legal_a, legal_b = self.sub(mv.legal, ra), self.sub(mv.legal, rb)
            fwd = any_of([legal_a & self.moved(mv, True), legal_b & self.moved(mv, False)])
            yield any_of([mv.legal & not_(fwd),                             # a move of s is one side's
                          legal_a & not_(mv.legal & self.moved(mv, True))])  # a move of one side is s's


_LOCALLY: dict[str, int] = {}      # canonical text (SHA-256) of a query proved with the assumptions near
_REMEMBERED = 200_000              # it -> the Z3 resource units it took; past this many, start again
# the same, keyed by the nodes themselves (the query's and its assumptions' ids: hash-consed, so
# a structure that shares a query with one proved before, e.g. the middle of a longer path, finds
# it without its canonical text); the nodes are kept in the value, so that their ids stay theirs
_EXACTLY: dict[tuple[int, ...], tuple[int, list[Expr]]] = {}
_READS: dict[int, tuple[Expr, frozenset[str]]] = {}     # a prepared query's id -> (it, its free variables)
_FREE: dict[int, tuple[Expr, list[str]]] = {}          # an expression's id -> (it, its free variables, sorted)
# (an expression's id, (name, the id of its value) for each variable it reads that a state
# changes) -> (the expression, the values, the substitution's result): kept alive with their ids
_SUBSTITUTED: dict[tuple, tuple[Expr, dict[str, Expr], Expr]] = {}
_NONE = object()


def _forget() -> None:
    _SUBSTITUTED.clear()
    _FREE.clear()


register("premise-substitutions", lambda: len(_SUBSTITUTED) + len(_FREE), _forget)   # a chunk's end empties them
# the normal form's memo (:func:`~grundy.solvers.smt.rewrite.normalize`, what ``enc.prepare``
# does to a formula in int mode: a function of the node alone), shared by every structure
_NORMAL: dict[int, tuple[Expr, Expr]] = {}


def _canonical(roots: list[Expr]) -> str:
    """The text of the DAG under ``roots`` with its variables named by first appearance (sorts
    kept): formulas of the same text are the same up to renaming their variables, so they are
    satisfiable alike."""
    names: dict[str, int] = {}
    index: dict[int, int] = {}
    out: list[tuple] = []
    seen: set[int] = set()
    for root in roots:
        for x in dag_nodes(root, seen):
            op = x.op
            if op == "var":
                out.append(("var", x.sort, names.setdefault(x.args[0], len(names))))
            elif op == "const":
                out.append(("const", x.sort, x.args[0]))
            else:
                out.append((op, x.sort, *[index[id(a)] for a in x.args]))
            index[id(x)] = len(index)
        out.append(("root", index[id(root)]))
    return repr(out)            # ints, bools and strings: the text says each of them exactly


class _Local:
    """A query checked with only the assumptions that share a variable with it (those of a
    link near a move, the domains of its fields), in a solver of its own: unsat there is unsat
    with every assumption (fewer assumptions allow more models). A query proved so before in
    this process, up to renaming its variables (:func:`_canonical`: the middle of every path),
    is not asked again; its resource units are charged as if it were. Anything else (sat,
    unknown) is left to the check with every assumption."""

    def __init__(self, enc, assumptions: list[Expr]):
        from ...spec.expr import free_vars
        assert enc.width is None and enc.bound is None     # the texts remembered are of unbounded integers
        self.enc, self._free = enc, free_vars
        self.items = [self.prepare(c) for a in assumptions for c in _conjuncts(lift(a))]
        self.reads = [free_vars(c) for c in self.items]
        self.readers: dict[str, list[int]] = {}          # a variable -> the assumptions reading it
        for i, r in enumerate(self.reads):
            for name in r:
                self.readers.setdefault(name, []).append(i)
        self.used = 0
        self.ctx: Any = None

    @staticmethod
    def prepare(e: Expr) -> Expr:
        """``enc.prepare(e)`` for an int-mode encoding, with one memo for every structure."""
        from ..smt.rewrite import normalize
        if len(_NORMAL) >= 4 * _REMEMBERED:
            _NORMAL.clear()
        return normalize(lift(e), _NORMAL)

    def proved(self, q: Expr, left: int) -> bool:
        """Whether ``q`` (a query, through :meth:`prepare`) is unsatisfiable with the assumptions near
        it, within ``left`` resource units."""
        import z3
        hit = _READS.get(id(q))
        if hit is None:
            if len(_READS) >= _REMEMBERED:
                _READS.clear()
            hit = _READS[id(q)] = (q, frozenset(self._free(q)))
        reads = hit[1]
        at: set[int] = set()
        for name in reads:
            at.update(self.readers.get(name, ()))
        near = [self.items[i] for i in sorted(at)]     # in order, as a scan of every assumption
        if 2 * len(near) > len(self.items):
            return False                  # not much nearer than every assumption (a dense structure)
        nodes = [q, *near]
        exact = tuple(map(id, nodes))
        known = _EXACTLY.get(exact)
        if known is not None and known[0] <= left:
            self.used += known[0]         # the very same formulas, proved before
            return True
        key = hashlib.sha256(_canonical(nodes).encode()).hexdigest()
        cost = _LOCALLY.get(key)
        if cost is not None and cost <= left:
            self.used += cost
            _remember(exact, cost, nodes)
            return True
        if left <= 0:
            return False
        if self.ctx is None:
            self.ctx = z3.Context()
        s = z3.Solver(ctx=self.ctx)
        s.set("rlimit", left)
        tr = self.enc.translator(None)
        for item in [q, *near]:
            s.add(tr.part(item).translate(self.ctx))
        before = _rlimit(s)
        r = s.check()
        cost = max(0, _rlimit(s) - before)
        self.used += cost
        if r != z3.unsat:
            return False
        if len(_LOCALLY) >= _REMEMBERED:
            _LOCALLY.clear()
        _LOCALLY[key] = cost
        _remember(exact, cost, nodes)
        return True


def _remember(exact: tuple[int, ...], cost: int, nodes: list[Expr]) -> None:
    if len(_EXACTLY) >= _REMEMBERED:
        _EXACTLY.clear()
    _EXACTLY[exact] = (cost, nodes)


def _conjuncts(e: Expr) -> list[Expr]:
    if e.op == "and":
        return list(e.args)
    return [] if e.op == "const" and e.args[0] is True else [e]


def _decomposition(rules: Rules, budget: int) -> Proof:
    try:
        enc = _encoding(rules)
        sp = _Split(rules, enc)
        local = _Local(enc, [enc.family, *sp.base()])
        z: _Z3 | None = None                    # every assumption: made when a query needs it
        for query in sp.queries():
            q = local.prepare(query)            # prepared once, for both checks
            if local.proved(q, budget - local.used - (z.used if z is not None else 0)):
                continue
            if z is None:
                z = _Z3(enc, budget - local.used)
                z.assume(sp.base())
            status, model = z.check([q], shrink=True, prepared=True)
            if status == "unsat":
                continue
            if status == "unknown":
                return UNKNOWN, "decomposition not proved (Z3 unknown within its resource limit): not used", "", None
            state = z.state(model)
            sides = [z.truth(model, v.name) for v in sp.side]
            why = _split_violation(rules, _compiled(rules), state, sides)
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
    (a move of the whole position that is no move of one side, or the reverse, or one that
    changes the other side; or an element whose presence changes when the other side is
    emptied), or None."""
    assert rules.present is not None           # asked only of a rule that declares components
    env = {rules.schema.var_name(i): v for i, v in enumerate(s)}
    if sum(abs(v) for v in s) > REPLAY:       # too large to enumerate the moves: not confirmed
        return None
    name = rules.game.name
    try:
        pres = [bool(evaluate(p, env)) for p in rules.present]
        parts = []
        for a_side in (True, False):
            keep = [p and (sd == a_side) for p, sd in zip(pres, sides, strict=False)]
            r = _concrete_restrict(rules, s, keep)
            renv = {rules.schema.var_name(i): v for i, v in enumerate(r)}
            for x, p in enumerate(rules.present):
                if bool(evaluate(p, renv)) != keep[x]:
                    return (f"{name}: whether element {x} takes part depends on another component, at "
                            f"{rules.describe(s)}")
            mine = {sl for x, slots in enumerate(rules.element_slots) if keep[x] for sl in slots}
            parts.append((r, mine))
        why = component_moves_differ(rules, code, s, parts)
    except Exception:            # noqa: BLE001
        return None
    return f"{name}: at {rules.describe(s)} {why} (found by Z3)" if why else None


def component_moves_differ(rules: Rules, code, s: State, parts: list[tuple[State, set[int]]]) -> str:
    """Why the moves of ``s`` are not the moves of its components (each a state and the slots it
    owns) lifted back into ``s``, in one phrase; "" when they are the same. A component's move
    may fill a slot no present element holds (a split's part in an empty heap slot); one that
    changes a slot another component holds is itself the answer. Both checks of a declared
    decomposition (Z3's premise and ``grundy check``) read a split by this one function."""
    owned = {sl for slots in rules.element_slots for sl in slots}
    whole = {t: (mi, cv) for mi, cv, t in code.options(s)}
    lifted: dict[State, tuple[int, tuple]] = {}
    for p, mine in parts:
        for mi, cv, t in code.options(p):
            u = list(s)
            for sl in range(len(s)):
                if sl in mine or sl not in owned or s[sl] == p[sl]:   # its own, or nobody's (a free slot)
                    u[sl] = t[sl]
                elif t[sl] != p[sl]:
                    return (f"move {rules.move_text(mi, cv)!r} of the component {rules.describe(p)} "
                            f"changes {rules.schema.var_name(sl)}, outside it")
            lifted[tuple(u)] = (mi, cv)
    for t, (mi, cv) in whole.items():
        if t not in lifted:
            return f"move {rules.move_text(mi, cv)!r} of the whole position is no move of a single component"
    for t, (mi, cv) in lifted.items():
        if t not in whole:
            return (f"move {rules.move_text(mi, cv)!r} of a component is not legal in the whole "
                    f"position (its legality depends on another component)")
    return ""
