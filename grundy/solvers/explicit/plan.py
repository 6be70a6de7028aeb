"""The code-generation API shared by the Python solver and the C kernel: a move's plan (its
guard's conjuncts, its choice loops and updates, in the order they can be decided), written by
an :class:`Emitter` of a target syntax (:class:`PythonSyntax` here; the kernel's ``CSyntax``).
Nothing here knows any particular game.
"""
from __future__ import annotations

from collections import ChainMap, Counter
from dataclasses import dataclass
from typing import Mapping, cast

from ...spec.expr import Expr, Term, Var, any_of, lift, nodes
from ...spec.game import Move, Rules
from ...spec.nimber import nim_multiply
from ...spec.ops import OPS, Walker

__all__ = ["Emitter", "PythonSyntax", "PYTHON", "emitter", "shared_nodes", "conjuncts", "dispatch_key",
           "dispatch_var", "slot_sources", "Step", "move_plan"]

State = tuple[int, ...]


MAX_NESTING = 40
"""A node whose source would nest deeper than this is bound to a local: Python's parser refuses
some 200 nested parentheses, and a deep expression (a long ``ite`` chain) must still compile."""


class Emitter(Walker, abstract=True):
    """Source text for expressions in one target language: a DAG walker whose ``walk_<op>``
    methods (one per operator of the catalogue, :data:`grundy.spec.ops.OPS`) render a node from
    its operands' source. Nodes in ``shared`` (ids) are bound once to a local (``let``) and
    referred to by name, and so is a node nested :data:`MAX_NESTING` deep; the pending local
    definitions are taken with :meth:`take_lines`."""

    def __init__(self, names: Mapping[str, str], shared: set[int]):
        super().__init__()
        self.names = names          # variable name -> source
        self.shared = shared        # ids of nodes worth a local
        self.lines: list[str] = []  # pending local definitions
        self.counter = 0
        self.depth: dict[int, int] = {}   # node id -> the nesting of its source (0: a name or constant)

    def const(self, value, sort: str) -> str:
        raise NotImplementedError

    def let(self, name: str, src: str) -> str:
        raise NotImplementedError

    def expr(self, e: Term) -> str:
        """The source of ``e`` (its shared subterms bound by lines now pending)."""
        return self.walk(lift(e))

    def take_lines(self) -> list[str]:
        out, self.lines = self.lines, []
        return out

    def visit(self, x: Expr) -> str:
        src = super().visit(x)
        depth = self.depth
        d = 1 + max((depth.get(id(a), 0) for a in x.args), default=0) if x.op not in ("const", "var") else 0
        if id(x) not in self.shared and d < MAX_NESTING:
            depth[id(x)] = d
            return src
        name = f"t{self.counter}"
        self.counter += 1
        self.lines.append(self.let(name, src))
        return name

    def walk_const(self, x: Expr) -> str:
        return self.const(x.args[0], x.sort)

    def walk_var(self, x: Expr) -> str:
        return self.names[x.args[0]]


class PythonSyntax(Emitter):
    """Expressions written in Python (the C kernel has its own emitter, ``CSyntax``); the
    functions the text calls are in :attr:`RUNTIME` (the namespace to execute it in)."""

    RUNTIME: dict = {"min": min, "max": max, "_nim_product": nim_multiply}

    def const(self, value, sort: str) -> str:
        return repr(int(value)) if sort == "int" else repr(bool(value))

    def let(self, name: str, src: str) -> str:
        return f"{name} = {src}"

    def _infix(self, x: Expr, a: str, b: str) -> str:
        return f"({a} {OPS[x.op].infix} {b})"

    walk_add = walk_sub = walk_mul = walk_div = walk_mod = walk_xor = walk_lt = walk_le = walk_eq = _infix

    def walk_nmul(self, x: Expr, a: str, b: str) -> str:
        return f"({a} * {b})"

    def walk_bit_and(self, x: Expr, a: str, b: str) -> str:
        return f"({a} & {b})"

    def walk_bit_or(self, x: Expr, a: str, b: str) -> str:
        return f"({a} | {b})"

    def walk_popcount(self, x: Expr, a: str) -> str:
        return f"abs({a}).bit_count()"

    def walk_nim_product(self, x: Expr, a: str, b: str) -> str:
        return f"_nim_product({a}, {b})"

    def walk_not(self, x: Expr, a: str) -> str:
        return f"(not {a})"

    def walk_and(self, x: Expr, *a: str) -> str:
        return "(" + " and ".join(a) + ")"

    def walk_or(self, x: Expr, *a: str) -> str:
        return "(" + " or ".join(a) + ")"

    def walk_ite(self, x: Expr, c: str, a: str, b: str) -> str:
        return f"({a} if {c} else {b})"

    def walk_min(self, x: Expr, *a: str) -> str:
        return f"min({', '.join(a)})"

    def walk_max(self, x: Expr, *a: str) -> str:
        return f"max({', '.join(a)})"


PYTHON = PythonSyntax


def emitter(names: Mapping[str, str], shared: set[int], syntax: type[Emitter] = PYTHON) -> Emitter:
    """An emitter of the target language ``syntax`` (an :class:`Emitter` subclass)."""
    return syntax(names, shared)


def shared_nodes(exprs: list[Expr], orders: list[list[Expr]] | None = None) -> set[int]:
    """Ids of the inner nodes used more than once among ``exprs`` (worth a local, ``let``).
    ``orders`` (a list, extended): per root, its nodes not under an earlier root, children
    first (:func:`~grundy.spec.expr.nodes` with one ``seen`` for all), for a caller that walks
    them again."""
    used: list[int] = []                # the ids of every node's operands, then of the roots
    seen: set[int] = set()
    leaves: set[int] = set()
    for root in exprs:
        order = nodes(root, seen)
        if orders is not None:
            orders.append(order)
        for x in order:
            if x.op == "const" or x.op == "var":
                leaves.add(id(x))
            else:
                used.extend(map(id, x.args))
    used.extend(map(id, exprs))
    refs = Counter(used)
    return {i for i, c in refs.items() if c > 1} - leaves


def conjuncts(e: Expr) -> list[Expr]:
    """The conjuncts of a guard (none for ``True``)."""
    if e.op == "const" and e.args[0] is True:
        return []
    return list(e.args) if e.op == "and" else [e]


def dispatch_key(e: Expr) -> tuple[str, int] | None:
    """(variable name, constant) when ``e`` is ``var == constant``."""
    if e.op == "eq":
        a, b = e.args
        if a.op == "var" and b.op == "const" and b.sort == "int":
            return a.args[0], b.args[0]
        if b.op == "var" and a.op == "const" and a.sort == "int":
            return b.args[0], a.args[0]
    return None


def dispatch_var(rules: Rules) -> str | None:
    """The variable most moves test against a constant (typically the token): moves are
    grouped by its value so that a position only runs the moves that can apply."""
    votes: Counter[str] = Counter()
    slots = rules.schema.slot_by_var       # a state slot only: never a move's numeric choice (k == 2)
    for m in rules.moves:
        keys = {k[0] for c in conjuncts(m.guard) if (k := dispatch_key(c)) and k[0] in slots}
        votes.update(keys)
    if not votes:
        return None
    var, n = votes.most_common(1)[0]
    return var if n >= 2 else None


def slot_sources(rules: Rules) -> dict[str, str]:
    """IR variable name -> its source, ``s[i]``, for every state slot (Python and C alike)."""
    return {name: f"s[{i}]" for name, i in rules.schema.slot_by_var.items()}


@dataclass
class Step:
    """One step of a move's code, in the target language: ``let`` (a local definition),
    ``if`` (conditions, all to hold), ``for`` (a choice variable over lo..hi), ``check`` (a
    condition true when a new value leaves its field's domain: stop with a RuleError),
    ``emit`` (the next state: slot -> new value for the slots that change)."""

    kind: str
    args: tuple


def move_plan(rules: Rules, m: Move, state_names: Mapping[str, str], syntax=PYTHON,
              skip: Expr | None = None) -> tuple[list[str], list[Step]]:
    """The code of one move as steps, for any backend: (choice variable names, steps).
    ``skip``: a guard conjunct already decided by the dispatch."""
    cnames = [f"c{j}" for j in range(len(m.choices))]
    names: ChainMap[str, str] = ChainMap({c.name: cn for c, cn in zip(m.choices, cnames, strict=False)},
                                         cast(dict, state_names))     # read only
    choice_vars = {c.name for c in m.choices}
    conj = [c for c in conjuncts(m.guard) if c is not skip]

    dep: dict[int, bool] = {}  # node id -> mentions a choice variable
    walked: set[int] = set()

    def uses_choice(e: Expr) -> bool:
        if not choice_vars:                   # no choice to mention: no walk
            return False
        for x in nodes(e, walked):
            dep[id(x)] = (x.args[0] in choice_vars if x.op == "var" else
                          x.op != "const" and any(dep[id(a)] for a in x.args))
        return dep[id(e)]

    state_guard = [c for c in conj if not uses_choice(c)]
    choice_guard = [c for c in conj if uses_choice(c)]
    updates = sorted(m.update.items())
    roots = conj + [c.lo for c in m.choices] + [c.hi for c in m.choices] + [u for _, u in updates]
    em = emitter(names, shared_nodes(roots), syntax)
    steps: list[Step] = []

    def lets():
        steps.extend(Step("let", (ln,)) for ln in em.take_lines())

    # the first state-only conjunct alone (typically the cheap "token is here"), then the rest
    for grp in ([state_guard[:1], state_guard[1:]] if state_guard else []):
        if grp:
            srcs = [em.expr(c) for c in grp]
            lets()
            steps.append(Step("if", tuple(srcs)))
    for c, cn in zip(m.choices, cnames, strict=False):
        lo, hi = em.expr(c.lo), em.expr(c.hi)
        lets()
        steps.append(Step("for", (cn, lo, hi)))
    if choice_guard:
        srcs = [em.expr(c) for c in choice_guard]
        lets()
        steps.append(Step("if", tuple(srcs)))
    changed = {i: em.expr(u) for i, u in updates
               if not (u.op == "var" and u.args[0] not in choice_vars
                       and rules.schema.slot_by_var.get(u.args[0]) == i)}  # unchanged slots
    lets()
    # every new value must lie in its field's domain: a rule that breaks one stops at the first
    # offending move (``check``: a condition true when some new value is outside its domain)
    bad: list[Expr] = []
    for i in list(changed):
        dom = rules.slot_domains[i]
        if dom is None or _within(rules, m, m.update[i], dom):
            continue
        name = f"_dom{i}"
        steps.append(Step("let", (em.let(name, changed[i]),)))
        changed[i] = name
        names[name] = name            # the new value, bound once, read by the check below
        v = Var.int(name)
        bad.append(v < dom[0])
        if dom[1] is not None:
            bad.append(lift(dom[1]) < v)
    if bad:
        src = em.expr(bad[0] if len(bad) == 1 else any_of(bad))
        lets()
        steps.append(Step("check", (src,)))
    steps.append(Step("emit", (changed,)))
    return cnames, steps


def _within(rules: Rules, m: Move, e: Expr, dom: tuple[int, int | None]) -> bool:
    """Whether ``e`` is plainly inside ``dom``: a constant in it, a slot with a domain inside
    it, a choice whose constant bounds are inside it, an ``ite`` of such, or a slot less a
    choice of at most the slot (anything else is checked when the move is made)."""
    lo, hi = dom

    def inside(d: tuple[int | None, int | None]) -> bool:
        return d[0] is not None and d[0] >= lo and (hi is None or (d[1] is not None and d[1] <= hi))

    if e.op == "const":
        return inside((e.args[0], e.args[0]))
    if e.op == "var":
        slot = rules.schema.slot_by_var.get(e.args[0])
        if slot is not None:
            d = rules.slot_domains[slot]
            return d is not None and inside(d)
        c = next((c for c in m.choices if c.name == e.args[0]), None)
        return c is not None and inside((c.lo.args[0] if c.lo.op == "const" else None,
                                         c.hi.args[0] if c.hi.op == "const" else None))
    if e.op == "ite":
        return _within(rules, m, e.args[1], dom) and _within(rules, m, e.args[2], dom)
    if e.op == "sub" and e.args[0].op == "var" and e.args[1].op == "var" and lo <= 0:
        # x - k, k a choice at most x (its upper bound is x, or a minimum of x and more), at
        # least 0 (a constant lower bound): 0 <= x - k <= x, inside where x's domain is
        x, k = e.args
        c = next((c for c in m.choices if c.name == k.args[0]), None)
        return (c is not None and c.lo.op == "const" and c.lo.args[0] >= 0
                and (c.hi is x or (c.hi.op == "min" and any(a is x for a in c.hi.args)))
                and (hi is None or _within(rules, m, x, dom)))
    return False
