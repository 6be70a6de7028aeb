"""Locality: a vertex game on paths, played on the lengths of its runs of present vertices, as a
heap game.

The reduction applies to a game with one bool field per vertex and one move per vertex,
without choices, whose moves read and write only vertices within a distance ``r`` of their own
(the radius, read from the IR of a template path; refused above :data:`MAX_RADIUS`). A run of
L present vertices is a heap of L: the move at position i of P_L leaves the runs of what stays.

- L < 2r + 3: the options are read on P_L itself, one by one;
- L >= 2r + 3: a move within r of an end sees that end only, a move further in sees neither:
  read on P_{2r+3}, its far side grows with L. The heap rule says so with the heap's size n
  symbolic (:class:`PathHeaps`), so Z3 can compare it with a take-and-break code on every heap
  (:func:`grundy.solvers.heaps.codeproof.rule_is_code`).

:func:`path_agrees` compares the heap rule with the rule on P_L (a first member of an open
family): the runs each move leaves, as multisets. As for counting, what no finite check reaches
is a rule whose code does something else on longer paths.

>>> from grundy.spec.games import get_game
>>> heaps = path_heaps(get_game("grim"))
>>> heaps.radius, sorted(heaps.options_at(5))
(2, [(2, 2), (3,), (3,), (4,), (4,)])
"""
from __future__ import annotations

from typing import Any, Callable, Iterator, Sequence

from ..spec.expr import Expr, evaluate, free_vars
from ..spec.game import Game, Rules
from ..spec.heaprule import HeapRule, option
from ..spec.structure import Structure
from .counting import Refused

__all__ = ["PathHeaps", "path_heaps", "path_agrees", "path", "runs", "MAX_RADIUS", "inert_sizes", "rule_is_code_up_to",
           "cycle", "arcs", "cycle_step"]

MAX_RADIUS = 3


def path(n: int) -> Structure:
    """P_n: vertices 0..n-1 in order."""
    return Structure.graph(range(n), [(i, i + 1) for i in range(n - 1)])


def runs(state: Sequence[int]) -> list[tuple[int, int]]:
    """The maximal runs of present vertices, as (first, length).

    >>> runs([1, 1, 0, 1, 0, 0, 1, 1, 1])
    [(0, 2), (3, 1), (6, 3)]
    """
    out: list[tuple[int, int]] = []
    for i, x in enumerate(state):
        if x and out and out[-1][0] + out[-1][1] == i:
            out[-1] = (out[-1][0], out[-1][1] + 1)
        elif x:
            out.append((i, 1))
    return out


def _rules(game: Game, n: int) -> Rules:
    from .counting import _check_form
    return _check_form(game, path(n))


def _radius(rules: Rules) -> int:
    """The farthest vertex a move reads or writes, from its own (slot i is vertex i)."""
    slot = rules.schema.slot_by_var
    r = 0
    for v, m in enumerate(rules.moves):
        names = set(free_vars(m.guard)) | {rules.schema.var_name(i) for i in m.update}
        for e in m.update.values():
            names |= free_vars(e)
        r = max([r] + [abs(slot[x] - v) for x in names if x in slot])
    return r


def _after(rules: Rules, i: int) -> tuple[int, ...] | None:
    """The state after the move at i from the full path (None: not legal)."""
    state = [1] * rules.structure.n
    env: dict[str, Any] = {rules.schema.var_name(k): True for k in range(len(state))}
    m = rules.moves[i]
    if not evaluate(m.guard, env):
        return None
    for slot, e in m.update.items():
        state[slot] = int(bool(evaluate(e, env)))
    if any(state[k] and not env[rules.schema.var_name(k)] for k in range(len(state))):
        raise Refused("a move makes a removed vertex present")
    return tuple(state)


class PathHeaps(HeapRule):
    """The heap game of a vertex game's runs on paths (see the module's text)."""

    symmetric = True

    def __init__(self, game: Game, radius: int, small: dict[int, list[tuple[int, ...]]],
                 left: list[tuple[tuple[int, ...], int] | None], right: list[tuple[tuple[int, ...], int] | None],
                 inner: tuple[int, tuple[int, ...], int] | None):
        self.name = f"runs of {game.name} on paths"
        self.summary = f"{game.name} on a path of n present vertices, as a heap of n"
        self.radius, self.small, self.left, self.right, self.inner = radius, small, left, right, inner
        self.big = 2 * radius + 3
        self.source_game = game

    def options(self, g: Structure, n: Expr) -> Iterator[Any]:
        r, big = self.radius, self.big
        for length, opts in sorted(self.small.items()):
            for k, parts in enumerate(opts):
                yield option(f"option {k} of a run of {length}", guard=n == length, parts=list(parts) or [0])
        for i, got in enumerate(self.left):            # at i from the first end: the last run grows
            if got is not None:
                fixed, start = got
                yield option(f"at {i} from an end", guard=n >= big, parts=list(fixed) + [n - start])
        for j, got in enumerate(self.right):           # at j from the last end: the first run grows
            if got is not None:
                fixed, cut = got
                yield option(f"at {j} from the other end", guard=n >= big, parts=[n - cut] + list(fixed))
        if self.inner is not None:                     # far from both ends: both outer runs grow
            h, mids, t = self.inner
            yield option("inside", choose=[("i", r + 1, n - r - 2)], guard=n >= big,
                         parts=lambda i: [i - r - 1 + h] + list(mids) + [n - i - r - 2 + t])

    def options_at(self, length: int) -> list[tuple[int, ...]]:
        """The options of a heap of ``length``, each as the sorted non-empty parts it leaves."""
        from ..spec.expr import Var
        n = Var.int("n")
        out = []
        for o in self.options(None, n):  # type: ignore[arg-type]
            env: dict[str, Any] = {"n": length}
            ranges = [range(int(evaluate(c.lo, env)), int(evaluate(c.hi, env)) + 1) for c in o.choices]
            for vals in _product(ranges):
                env2 = {**env, **{c.name: v for c, v in zip(o.choices, vals, strict=True)}}
                if evaluate(o.guard, env2):
                    parts = [int(evaluate(e, env2)) for e in o.update.values()]
                    out.append(tuple(sorted(p for p in parts if p > 0)))
        return out


def _product(ranges: list[range]) -> Iterator[tuple[int, ...]]:
    import itertools
    return itertools.product(*ranges)


def _rule_options(rules: Rules) -> list[tuple[int, ...]]:
    out = []
    for i in range(rules.structure.n):
        after = _after(rules, i)
        if after is not None:
            out.append(tuple(sorted(length for _, length in runs(after))))
    return out


def path_heaps(game: Game) -> PathHeaps:
    """The heap game of ``game``'s runs on paths, or :class:`Refused` with the reason."""
    tmpl = _rules(game, 4 * MAX_RADIUS + 7)
    r = _radius(tmpl)
    if r > MAX_RADIUS:
        raise Refused(f"the moves reach vertices at distance {r} (more than {MAX_RADIUS}): not local")
    big = 2 * r + 3
    small = {length: _rule_options(_rules(game, length)) for length in range(1, big)}
    rules = _rules(game, big)
    left: list[tuple[tuple[int, ...], int] | None] = []
    right: list[tuple[tuple[int, ...], int] | None] = []
    for i in range(r + 1):
        after = _after(rules, i)
        if after is None:
            left.append(None)
        else:
            rs = runs(after)
            if not rs or rs[-1][0] + rs[-1][1] != big:
                raise Refused(f"the move at {i} of P_{big} removes the far end of the path: not local")
            left.append((tuple(length for _, length in rs[:-1]), rs[-1][0]))
        after = _after(rules, big - 1 - i)
        if after is None:
            right.append(None)
        else:
            rs = runs(after)
            if not rs or rs[0][0] != 0:
                raise Refused(f"the move at {i} from the end of P_{big} removes its first vertex: not local")
            right.append((tuple(length for _, length in rs[1:]), big - rs[0][1]))
    after = _after(rules, r + 1)
    inner = None
    if after is not None:
        rs = runs(after)
        if len(rs) < 2 or rs[0][0] != 0 or rs[-1][0] + rs[-1][1] != big:
            raise Refused(f"the move at the middle of P_{big} does not keep both ends: not local")
        inner = (rs[0][1], tuple(length for _, length in rs[1:-1]), rs[-1][1])
    heaps = PathHeaps(game, r, small, left, right, inner)
    for length in range(big, big + 2 * r + 4):
        bad = path_agrees(heaps, length)
        if bad is not None:
            raise Refused(f"the heap rule read on P_{big} {bad}")
    return heaps


def path_agrees(heaps: PathHeaps, length: int) -> str | None:
    """None if the heap rule's options on a heap of ``length`` are the runs the rule's moves leave
    on P_length (as multisets), else where they differ."""
    got = sorted(_rule_options(_rules(heaps.source_game, length)))
    want = sorted(heaps.options_at(length))
    return None if got == want else f"differs on P_{length}: the rule leaves runs {got}, the heap rule {want}"



def inert_sizes(heaps: PathHeaps, code: Any, most: int = 3) -> tuple[int, ...]:
    """The heap sizes 1..``most`` with no option in the heap rule nor in the take-and-break
    ``code``: such a heap has value 0 in both (normal play) and leaves any sum's value alone."""
    def code_moves(x: int) -> bool:
        for k in range(0, x + 1):
            d = code.digit(k) if k <= (code.last or 0) else 0
            if (d & 1 and k == x and k > 0) or (d & 2 and k >= 1 and x - k >= 1) or (d & 4 and x - k >= 2):
                return True
        return False
    return tuple(x for x in range(1, most + 1) if not heaps.options_at(x) and not code_moves(x))


def rule_is_code_up_to(rule: Any, code: Any, inert: Sequence[int]) -> tuple[bool, str]:
    """(True, "") when Z3 proves, over unbounded integers, that on every heap the rule's options
    and the code's are the same once the heaps of the ``inert`` sizes are dropped from both
    (those heaps have no option in either: :func:`inert_sizes`). Then, by induction on the heap,
    the two games have the same values in normal play. With no inert size it is
    :func:`~grundy.solvers.heaps.codeproof.rule_is_code`'s question; at most two parts a side."""
    import z3

    from ..spec.expr import Var, any_of, ite, lift
    from ..spec.heaprule import rule_heaps
    from .smt.encode import Encoding, Exists
    from .smt.rewrite import substitute
    from .smt.runner import check_within
    if code.last is None or code.unequal:
        return False, "the code is infinite or has unequal splits"
    game = rule.game
    if game.max_parts(rule_heaps(1)) > 2:
        return False, "an option leaves more than two parts"
    enc = Encoding(game.rules(rule_heaps(2)))
    names = enc.names
    n = Var.int(names[0])
    empty = {nm: lift(0) for nm in names[1:]}
    tr = enc.translator(None)

    def z(e: Any) -> Any:
        if isinstance(e, Exists):
            return tr.part(Exists(e.names, substitute(e.body, empty), e.negated))
        return tr.part(substitute(lift(e), empty))

    def norm(p: Any) -> Any:
        return ite(any_of([p == x for x in inert]), 0, p)

    def same(ps: list, qs: list) -> Any:
        return ((ps[0] == qs[0]) & (ps[1] == qs[1])) | ((ps[0] == qs[1]) & (ps[1] == qs[0]))

    ks = {b: [k for k in range(code.last + 1) if code.digit(k) & b] for b in (1, 2, 4)}

    def code_options(a: Any) -> list[tuple[Any, list, str]]:
        out = [(n == k, [lift(0), lift(0)], f"emptying a heap of {k}") for k in ks[1] if k > 0]
        out += [(n - k >= 1, [norm(n - k), lift(0)], f"taking {k} and leaving one heap") for k in ks[2] if k > 0]
        out += [((a >= 1) & (n - k - a >= 1), [norm(a), norm(n - k - a)], f"taking {k} and splitting the rest")
                for k in ks[4]]
        return out

    def ask(*query: Any) -> str:
        s = z3.Solver()
        s.add(*query)
        return str(check_within(s, 10.0)[0])    # CPU seconds: the same answer on a busy machine

    base = z(n >= 0)
    rule_options = []
    for i, mv in enumerate(enc.moves):           # every option of the rule is one of the code's
        ps = [norm(substitute(enc.next(Var.int(nm), i), empty)) for nm in names]
        match = any_of([cond & same(ps, qs) for a in [ps[0], ps[1], *map(lift, inert)]
                        for cond, qs, _ in code_options(a)])
        rule_options.append((mv.label, [z(mv.legal), z3.Not(z(match))]))
    bad = _first_not_unsat(ask, base, rule_options)
    if bad is not None:
        label, r = bad
        return False, (f"option {label!r} leaves parts no move of code {code.text} leaves (up to "
                       f"heaps of {', '.join(map(str, inert)) or 'no size'})" if r == "sat" else f"Z3: {r}")
    a = Var.int("a#code")
    code_moves = []
    for cond, qs, what in code_options(a):       # every option of the code is one of the rule's
        none = []
        for i in range(len(enc.moves)):
            ps = [norm(enc.next(Var.int(nm), i)) for nm in names]
            p = enc.exists_choice(i, same(ps, qs))
            none.append(z(~p) if isinstance(p, Exists) else z3.Not(z(p)))
        code_moves.append((what, [z(cond), *none]))
    bad = _first_not_unsat(ask, base, code_moves)
    if bad is not None:
        what, r = bad
        return False, (f"code {code.text}'s move {what} is no option of the rule" if r == "sat" else f"Z3: {r}")
    return True, ""


def _first_not_unsat(ask: Callable[..., str], base: Any, queries: list[tuple[Any, list]]) -> tuple[Any, str] | None:
    """The first (what, Z3's answer) of ``queries`` (each a conjunction: its parts, with ``base``)
    that ``ask`` does not find unsat, or None. All in one query first (their disjunction: unsat
    exactly when each is), then one by one, in order, only if that is not unsat."""
    import z3
    if not queries or ask(base, z3.Or([z3.And(parts) for _, parts in queries])) == "unsat":
        return None
    for what, parts in queries:
        r = ask(base, *parts)
        if r != "unsat":
            return what, r
    return None


def cycle(n: int) -> Structure:
    """C_n: vertex i adjacent to i +- 1 mod n."""
    return Structure.graph(range(n), sorted({(min(i, (i + 1) % n), max(i, (i + 1) % n)) for i in range(n)}))


def arcs(state: Sequence[int]) -> list[int]:
    """The lengths of the maximal runs of present vertices around a cycle, sorted.

    >>> arcs([1, 0, 1, 1, 0, 1]), arcs([1, 1, 1])
    ([2, 2], [3])
    """
    n = len(state)
    if all(state):
        return [n]
    start = next(i for i in range(n) if not state[i])          # read from a removed vertex on
    turned = list(state[start:]) + list(state[:start])
    return sorted(length for _, length in runs(turned))


def cycle_step(game: Game, removed: int, sizes: Sequence[int]) -> str | None:
    """None if on each C_m (m in ``sizes``) some move is legal from the full cycle and every legal
    one leaves a single arc of m - ``removed`` vertices; else where it fails."""
    from .counting import _check_form
    for m in sizes:
        rules = _check_form(game, cycle(m))
        left = [_after(rules, i) for i in range(m)]
        got = sorted({tuple(arcs(a)) for a in left if a is not None})
        if got != [(m - removed,)]:
            return f"on C_{m} the moves from the full cycle leave arcs {got}, not one arc of {m - removed}"
    return None
