"""Proof obligations: the partition theorem, the mex condition, ranks and strategies, checked by Z3.

Each check turns a claim (an IR predicate over ``rules.state``) into a few Z3 queries
("is there a state breaking this?") and returns one :class:`SmtResult` per obligation:
``"holds"`` (no such state: proved, in the encoding's scope), ``"violated"`` (with a
concrete state, schema order, and the move/choices involved) or ``"unknown"`` (Z3 gave
up or ran out of time: never a pass). Queries run one per move where a move is
involved; ``timeout`` (seconds) is the budget of each obligation, shared by its queries.

"Terminal" is "no move is legal for any choice values": per move, ``∃ choices. legal``,
written without a quantifier when the choices do not matter (``lo <= hi``) or take few
values (expanded), else a Z3 quantifier. (NP) asks for a move into P existentially in the
same way, or takes a strategy's move. A query with quantifiers is split into one query per
value of the finite fields (token, bools) when there are few, which helps Z3 a lot.

>>> from grundy.spec.games import get_game
>>> from grundy.spec import Structure
>>> r = get_game("nim").rules(Structure.heaps(2))
>>> s = r.state
>>> [(x.obligation, x.status) for x in check_partition(r, s.heap[0] == s.heap[1])]
[('closed', 'holds'), ('T', 'holds'), ('PN', 'holds'), ('NP', 'holds')]
>>> bad = check_partition(r, s.heap[0] <= s.heap[1])
>>> [(x.obligation, x.status, x.state, x.choices) for x in bad if x.status != "holds"]
[('PN', 'violated', (1, 1), {'move': 0, 'k': 1})]
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from itertools import product
from typing import Any, Callable, Iterable, Sequence, Union

import z3

from ...spec.expr import INT, Expr, Var, all_of, evaluate, lift, not_, total
from ...spec.game import Rules
from ...spec.strategy import Play, plays
from .encode import Encoding, Exists, Part, encoding, intervals, part_exprs, substitute

Item = Union[Part, list]     # a query is a conjunction of items; a list item is a disjunction

VALUE = "value#"             # the target Grundy value in mex-below (a name no field can have)
SHRINK_SECONDS = 3.0         # the search for a smaller violating state (the sum of its numeric fields)
SHRINK_LARGE = 20.0          # ... kept up longer while the state is still large, for the obligations
LARGE = 10_000               # whose certificate enumerates the state's moves (fewer on a smaller one)
ENUMERATED = ("NP", "mex-below")


@dataclass
class SmtResult:
    """The verdict of one obligation."""

    obligation: str                      # "T", "PN", "NP", "closed", "rank", "domain", "mex-below", ...
    status: str                          # "holds" | "violated" | "unknown"
    state: tuple[int, ...] | None        # a concrete violating state (schema order) when violated
    choices: dict[str, int] | None       # the move ("move": index) and choice values involved
    seconds: float
    detail: str                          # what was checked; the solver's reason for unknown
    scope: str = ""                      # what "holds" covers: all sizes, or fields <= a bound


@dataclass
class _Query:
    what: str
    items: list[Item]
    move: int | None = None              # report this move's (free) choice values
    report: Callable[[tuple[int, ...]], dict[str, int]] | None = None   # further choices to report
    extra: tuple[str, ...] = ()          # further free integer variables to report
    case: str = ""                       # the finite fields fixed by a split (see _split)

    @property
    def full(self) -> str:
        return f"{self.what} [{self.case}]" if self.case else self.what


# --------------------------------------------------------------------------- running queries
def _items_exprs(items: Iterable[Item]) -> list[Expr]:
    out: list[Expr] = []
    for it in items:
        out.extend(part_exprs(it if isinstance(it, list) else [it]))
    return out


def _size(enc: Encoding) -> Expr:
    """The quantity a counterexample is shrunk by: the sum of the int fields above their lower bounds."""
    sch = enc.rules.schema
    return total(v - sch.fields[f].lower for v, (f, _) in zip(sch.variables, sch.slots)
                 if sch.fields[f].kind == "int")


class _Runner:
    def __init__(self, enc: Encoding, w: int | None, timeout: float, minimize: bool, patient: bool = False):
        self.enc, self.w, self.timeout, self.minimize = enc, w, timeout, minimize
        self.patient = patient
        self.tr = enc.translator(w)

    def item(self, it: Item):
        if isinstance(it, list):
            return z3.Or(*[self.tr.part(p) for p in it]) if it else z3.BoolVal(False)
        return self.tr.part(it)

    def run(self, q: _Query, seconds: float) -> tuple[str, Any, str]:
        s = z3.Solver()
        s.set("timeout", max(1, int(seconds * 1000)))
        for it in q.items:
            s.add(self.item(it))
        r = s.check()
        if r == z3.unsat:
            return "holds", None, ""
        if r == z3.unknown:
            return "unknown", None, s.reason_unknown()
        model = s.model()
        if self.minimize:
            model = self._shrink(s, model)
        return "violated", model, ""

    def _shrink(self, s: z3.Solver, model):
        """Look for a violating state of smaller total size (binary search: :data:`SHRINK_SECONDS`
        at most; ``patient``: :data:`SHRINK_LARGE` while the state found is larger than :data:`LARGE`)."""
        size = _size(self.enc)
        if size.op == "const":
            return model
        zsize = self.tr(size)
        start = time.monotonic()
        deadline = start + min(self.timeout, SHRINK_SECONDS)

        def value(m) -> int:
            v = m.eval(zsize, model_completion=True)
            return v.as_long() if self.w is None else v.as_signed_long()

        lo, hi = 0, value(model)
        while lo < hi:
            left = deadline - time.monotonic()
            if left <= 0.05 and self.patient and hi > LARGE and deadline < start + min(self.timeout, SHRINK_LARGE):
                deadline = start + min(self.timeout, SHRINK_LARGE)   # still large: ask Z3 longer
                left = deadline - time.monotonic()
            if left <= 0.05:
                break
            mid = (lo + hi) // 2
            s.push()
            s.set("timeout", max(1, int(left * 1000)))
            s.add(zsize <= (mid if self.w is None else z3.BitVecVal(mid, self.w)))
            r = s.check()
            if r == z3.sat:
                model = s.model()
                hi = value(model)
            elif r == z3.unsat:
                lo = mid + 1
            s.pop()
            if r == z3.unknown:
                break
        return model


def _prepare(enc: Encoding, q: _Query, extra_iv: dict | None) -> _Query:
    """Normalise a query's formulas and (bit-vector mode) hold its free choices to their intervals."""
    items: list[Item] = [[enc.prepare(p, extra_iv) for p in it] if isinstance(it, list)
                         else enc.prepare(it, extra_iv) for it in q.items]
    if enc.width is not None:
        plain = [it for it in items if not isinstance(it, (list, Exists))]
        plain += [p for it in items if isinstance(it, list) for p in it if not isinstance(p, Exists)]
        items.append(enc.ranges(enc.free_names(plain), extra_iv))
    return _Query(q.what, items, q.move, q.report, q.extra, q.case)


SPLIT_LIMIT = 64   # a quantified query is split over at most this many finite-field cases


def _parts(it: Item) -> list[Part]:
    return it if isinstance(it, list) else [it]


def _split(enc: Encoding, q: _Query) -> list[_Query]:
    """A query with quantifiers, split into one query per value of the finite fields (vertex,
    edge and bool slots) when there are at most ``SPLIT_LIMIT`` cases: each case has those
    slots fixed, so guards and claims fold to much smaller formulas (e.g. only the moves at
    the token remain). Queries without quantifiers are left whole."""
    if not any(isinstance(p, Exists) for it in q.items for p in _parts(it)):
        return [q]
    g = enc.rules.structure
    domains = {"vertex": range(g.n), "edge": range(-1, len(g.edges)), "bool": (False, True)}
    finite = [(n, v, domains[k]) for n, v, k in zip(enc.names, enc.rules.schema.variables, enc.kinds)
              if k in domains]
    cases = 1
    for _, _, d in finite:
        cases *= len(d)
    if not finite or cases > SPLIT_LIMIT:
        return [q]
    out = []
    for combo in product(*(d for _, _, d in finite)):
        fix = {n: lift(x) for (n, _, _), x in zip(finite, combo)}

        def sub(p: Part) -> Part:
            if isinstance(p, Exists):
                return Exists(p.names, substitute(p.body, fix), p.negated)
            return substitute(p, fix)
        items: list[Item] = [[sub(p) for p in it] if isinstance(it, list) else sub(it) for it in q.items]
        items += [v == x for (_, v, _), x in zip(finite, combo)]   # the model still names the values
        where = ", ".join(f"{n} = {x}" for (n, _, _), x in zip(finite, combo))
        out.append(_Query(q.what, items, q.move, q.report, q.extra, where))
    return out


def _obligation(enc: Encoding, name: str, queries: Sequence[_Query], timeout: float,
                minimize: bool, extra_iv: dict | None = None, note: str = "") -> SmtResult:
    """Run an obligation's queries until one is violated; unknown if any is unknown."""
    t0 = time.monotonic()
    scope = enc.scope()
    queries = [_prepare(enc, c, extra_iv) for q in queries for c in _split(enc, q)]
    exprs = _items_exprs(it for q in queries for it in q.items)
    if minimize:
        exprs.append(_size(enc))
    w = enc.width_for(exprs, extra_iv)
    runner = _Runner(enc, w, timeout, minimize, patient=name in ENUMERATED)
    unknown: list[str] = []
    deadline = t0 + timeout
    for q in queries:
        left = deadline - time.monotonic()
        if left <= 0:
            unknown.append(f"{q.full}: out of time (the obligation's {timeout:g} s)")
            continue
        status, model, reason = runner.run(q, left)
        if status == "violated":
            state = enc.state_of(model)
            choices: dict[str, int] | None = None
            if q.move is not None:
                mv = enc.moves[q.move]
                choices = {"move": q.move}
                choices.update({name_: enc.value_of(model, new, w) for name_, new, _, _ in mv.choices})
            if q.report is not None:
                choices = dict(choices or {}, **q.report(state))
            for x in q.extra:
                choices = dict(choices or {}, **{x.rstrip("#"): enc.value_of(model, x, w)})
            return SmtResult(name, "violated", state, choices, time.monotonic() - t0,
                             f"violated: {q.full}{note}", scope)
        if status == "unknown":
            unknown.append(f"{q.full}: {reason or 'unknown'}")
    secs = time.monotonic() - t0
    if unknown:
        return SmtResult(name, "unknown", None, None, secs,
                         f"Z3 could not decide {'; '.join(unknown)}{note}", scope)
    whats = list(dict.fromkeys(q.what for q in queries))
    more = f" (and {len(whats) - 1} more)" if len(whats) > 1 else ""
    cases = sum(1 for q in queries if q.case)
    split = f", split into {cases} cases by the finite fields" if cases else ""
    what = whats[0] + more + split if whats else "nothing to check"
    return SmtResult(name, "holds", None, None, secs, f"holds: {what}{note}", scope)


# --------------------------------------------------------------------------- building blocks
def _pre(enc: Encoding, assume: Expr) -> list[Item]:
    return [enc.family, lift(assume)]


def _case_conditions(cases: list[Play]) -> list[Expr]:
    """``when`` of each case and of no earlier case."""
    out, earlier = [], []
    for c in cases:
        out.append(all_of([c.when] + [not_(e) for e in earlier]))
        earlier.append(c.when)
    return out


def _play_legal(enc: Encoding, c: Play) -> Expr:
    return enc.with_choices(enc.moves[c.move].legal, c.move, c.choice)


def _play_next(enc: Encoding, c: Play, e: Expr) -> Expr:
    return enc.with_choices(enc.next(e, c.move), c.move, c.choice)


def _reporter(enc: Encoding, c: Play) -> Callable[[tuple[int, ...]], dict[str, int]]:
    names = enc.names

    def report(state: tuple[int, ...]) -> dict[str, int]:
        env = dict(zip(names, state))
        return {"move": c.move, **{k: int(evaluate(v, env)) for k, v in c.choice.items()}}
    return report


def _cases(strategy: Any, rules: Rules) -> list[Play]:
    if callable(strategy):
        return plays(strategy, rules)
    return list(strategy)


def _closed(enc: Encoding, assume: Expr) -> list[_Query]:
    pre = _pre(enc, assume)
    target = all_of([enc.family, lift(assume)])
    return [_Query(f"move {mv.index} ({mv.label}) keeps the assumed family",
                   pre + [mv.legal, not_(enc.next(target, mv.index))], move=mv.index)
            for mv in enc.moves]


# --------------------------------------------------------------------------- public checks
def check_rank(rules: Rules, assume: Expr = True, *, width: int | None = None, timeout: float = 10,
               bound: int | None = None, minimize: bool = True) -> list[SmtResult]:
    """Every legal move from a state in ``assume`` (and the domains) lowers ``rules.rank``;
    ``rank >= 0``; the next state stays within the field domains.

    >>> from grundy.spec.games import get_game
    >>> from grundy.spec import Structure
    >>> path = Structure.graph(range(3), [(0, 1), (1, 2)])
    >>> [(x.obligation, x.status) for x in check_rank(get_game("edge-nim").rules(path))]
    [('rank', 'holds'), ('rank', 'holds'), ('domain', 'holds')]
    """
    enc = encoding(rules, width, bound)
    pre = _pre(enc, assume)
    rank = rules.rank
    nonneg = [_Query("rank >= 0", pre + [rank < 0])]
    lowers = [_Query(f"move {mv.index} ({mv.label}) lowers the rank",
                     pre + [mv.legal, not_(enc.next(rank, mv.index) < rank)], move=mv.index)
              for mv in enc.moves]
    domain = [_Query(f"move {mv.index} ({mv.label}) stays in the field domains",
                     pre + [mv.legal, not_(enc.next(enc.domain, mv.index))], move=mv.index)
              for mv in enc.moves]
    return [_obligation(enc, "rank", nonneg, timeout, minimize),
            _obligation(enc, "rank", lowers, timeout, minimize),
            _obligation(enc, "domain", domain, timeout, minimize)]


def check_partition(rules: Rules, p: Expr, assume: Expr = True, *, strategy: Any = None,
                    width: int | None = None, timeout: float = 10, bound: int | None = None,
                    convention: str | None = None, minimize: bool = True) -> list[SmtResult]:
    """The partition theorem for the claimed P-positions ``p`` within the family ``assume``.

    Obligations: ``closed`` (a move from the family stays in it, and in the field domains /
    bound), ``T`` (terminal states are P; misère: N), ``PN`` (no move from P to P), ``NP``
    (every non-terminal state outside P has a move into P). With ``strategy`` (a
    :class:`~grundy.spec.strategy.Strategy` or a list of Play cases) NP is proved by the
    strategy's move when :func:`check_strategy` holds (its two results are included); otherwise,
    and when the strategy fails, NP asks for the choice existentially (expanded when the
    choices are few, else a Z3 quantifier: "unknown" when Z3 gives up). Together with
    :func:`check_rank` this proves that ``p`` is exactly the P-positions of the family.

    >>> from grundy.spec.games import get_game
    >>> from grundy.spec import Structure
    >>> r = get_game("nim").rules(Structure.heaps(2))
    >>> s = r.state
    >>> [x.status for x in check_partition(r, s.heap[0] == s.heap[1], width=16)]
    ['holds', 'holds', 'holds', 'holds']
    """
    enc = encoding(rules, width, bound)
    p = lift(p)
    conv = convention or rules.game.convention
    pre = _pre(enc, assume)
    out = [_obligation(enc, "closed", _closed(enc, assume), timeout, minimize)]
    t_claim = p if conv == "normal" else not_(p)
    out.append(_obligation(enc, "T", [_Query(
        f"terminal states are {'P' if conv == 'normal' else 'N'}",
        pre + enc.terminal() + [not_(t_claim)])], timeout, minimize))
    out.append(_obligation(enc, "PN", [_Query(
        f"move {mv.index} ({mv.label}) leads from P to N",
        pre + [p, mv.legal, enc.next(p, mv.index)], move=mv.index) for mv in enc.moves],
        timeout, minimize))
    if strategy is not None:
        sres = check_strategy(rules, p, strategy, assume, width=width, timeout=timeout, bound=bound,
                              minimize=minimize)
        out.extend(sres)
        if all(r.status == "holds" for r in sres):
            out.append(SmtResult("NP", "holds", None, None, sum(r.seconds for r in sres),
                                 "holds: the strategy moves from every non-terminal N-state into P",
                                 enc.scope()))
            return out
    out.append(_np(enc, p, assume, timeout, minimize))
    return out


def _np(enc: Encoding, p: Expr, assume: Expr, timeout: float, minimize: bool) -> SmtResult:
    pre = _pre(enc, assume)
    wins: list[Item] = []
    how = set()
    for mv in enc.moves:
        part = enc.exists_choice(mv.index, enc.next(p, mv.index))
        how.add("quantifier" if isinstance(part, Exists) else "expanded" if mv.choices else "no choice")
        wins.append(~part if isinstance(part, Exists) else not_(part))
    q = _Query("every non-terminal N-state has a move into P", pre + [not_(p), enc.non_terminal()] + wins)
    return _obligation(enc, "NP", [q], timeout, minimize, note=f" [choices: {', '.join(sorted(how))}]")


def check_strategy(rules: Rules, p: Expr, strategy: Any, assume: Expr = True, *,
                   width: int | None = None, timeout: float = 10, bound: int | None = None,
                   minimize: bool = True) -> list[SmtResult]:
    """At every state of ``assume`` outside ``p`` with a legal move, the strategy's case picks a
    legal move (``strategy-legal``: some case applies, its guard holds, its choices are in range)
    that lands in ``p`` (``strategy-lands-in-P``).

    >>> from grundy.spec.games import get_game
    >>> from grundy.spec import Structure, Play
    >>> r = get_game("nim").rules(Structure.heaps(2))
    >>> mirror = lambda g, s, rules: [Play(s.heap[0] > s.heap[1], 0, {"k": s.heap[0] - s.heap[1]}),
    ...                               Play(True, 1, {"k": s.heap[1] - s.heap[0]})]
    >>> [(x.obligation, x.status) for x in check_strategy(r, r.state.heap[0] == r.state.heap[1], mirror)]
    [('strategy-legal', 'holds'), ('strategy-lands-in-P', 'holds')]
    """
    enc = encoding(rules, width, bound)
    p = lift(p)
    cases = _cases(strategy, rules)
    pre = _pre(enc, assume) + [not_(p), enc.non_terminal()]
    applies = _case_conditions(cases)
    legal = [_Query("some case of the strategy applies", pre + [all_of(not_(c.when) for c in cases)])]
    lands = []
    for i, (c, a) in enumerate(zip(cases, applies)):
        lg = _play_legal(enc, c)
        legal.append(_Query(f"case {i} plays move {c.move} legally", pre + [a, not_(lg)],
                            report=_reporter(enc, c)))
        lands.append(_Query(f"case {i} lands in P", pre + [a, lg, not_(_play_next(enc, c, p))],
                            report=_reporter(enc, c)))
    return [_obligation(enc, "strategy-legal", legal, timeout, minimize),
            _obligation(enc, "strategy-lands-in-P", lands, timeout, minimize)]


def check_nonempty(rules: Rules, assume: Expr = True, *, width: int | None = None, timeout: float = 10,
                   bound: int | None = None) -> SmtResult:
    """Some state within the field domains (and the bound) satisfies ``assume``: ``holds`` (with
    such a state), ``violated`` (none: a claim about ``assume`` here is vacuous) or ``unknown``.

    >>> from grundy.spec.games import get_game
    >>> from grundy.spec import Structure
    >>> r = get_game("nim").rules(Structure.heaps(2))
    >>> check_nonempty(r, r.state.heap[0] < 0).status, check_nonempty(r, r.state.heap[0] > 5).status
    ('violated', 'holds')
    """
    enc = encoding(rules, width, bound)
    r = _obligation(enc, "nonempty", [_Query("some position satisfies assume", _pre(enc, assume))],
                    timeout, False)
    if r.status == "violated":
        return SmtResult("nonempty", "holds", r.state, None, r.seconds,
                         f"holds: assume is satisfiable, e.g. at {r.state}", r.scope)
    if r.status == "holds":
        return SmtResult("nonempty", "violated", None, None, r.seconds,
                         "violated: no position satisfies assume", r.scope)
    return SmtResult("nonempty", "unknown", None, None, r.seconds, r.detail, r.scope)


def check_parts_smaller(rules: Rules, assume: Expr = True, *, width: int | None = None,
                        timeout: float = 10, bound: int | None = None,
                        minimize: bool = True) -> list[SmtResult]:
    """Every legal move from a state in ``assume`` leaves every int slot below the value slot 0
    had: on a game's one-heap rules (the heap in slot 0, the other slots empty), each part of
    every option is a smaller heap, so an induction on the heap covers the parts.

    >>> from grundy.spec.games import get_game
    >>> r = get_game("lasker-nim").one_heap_rules()
    >>> [(x.obligation, x.status) for x in check_parts_smaller(r, r.state.heap[1] == 0)]
    [('parts', 'holds')]
    """
    enc = encoding(rules, width, bound)
    pre = _pre(enc, assume)
    sch = rules.schema
    head = sch.variables[0]
    ints = [v for v, (f, _) in zip(sch.variables, sch.slots) if sch.fields[f].kind == "int"]
    queries = [_Query(f"move {mv.index} ({mv.label}) leaves parts smaller than the heap",
                      pre + [mv.legal, not_(all_of(enc.next(v, mv.index) < head for v in ints))], move=mv.index)
               for mv in enc.moves]
    return [_obligation(enc, "parts", queries, timeout, minimize)]


def check_grundy_formula(rules: Rules, gval: Expr, assume: Expr = True, *, witnesses: Any = None,
                         width: int | None = None, timeout: float = 10, bound: int | None = None,
                         minimize: bool = True, convention: str = "normal",
                         closed: bool = True) -> list[SmtResult]:
    """The mex condition for a claimed Grundy value ``gval`` on the family ``assume``:
    ``closed`` as in :func:`check_partition`; ``mex-equal``: no option has the same value;
    ``mex-below``: ``gval >= 0`` and every ``v < gval`` is the value of some option. In misère
    play (``convention="misere"``) the value is the misère Grundy value: ``T``: a terminal
    state has value 1, and mex-below is asked at non-terminal states only.

    ``witnesses(g, s, rules, v)`` (optional) returns Play cases (over the state and the
    target value ``v``, an IR variable) naming the option of value ``v``; without it the
    option is sought existentially (expanded or a Z3 quantifier).

    ``closed=False`` leaves out the ``closed`` obligation, for a caller that justifies the
    options' values otherwise (a heap game: options outside the family are sums of heaps in it,
    their value the XOR of their heaps' values, which ``gval`` states).

    >>> from grundy.spec.games import get_game
    >>> from grundy.spec import Structure
    >>> r = get_game("nim").rules(Structure.heaps(1))
    >>> [(x.obligation, x.status) for x in check_grundy_formula(r, r.state.heap[0])]
    [('closed', 'holds'), ('mex-equal', 'holds'), ('mex-below', 'holds')]
    >>> from grundy.spec import ite
    >>> h = r.state.heap[0]                       # misère nim: 1, 0, 2, 3, ...
    >>> [x.status for x in check_grundy_formula(r, ite(h <= 1, 1 - h, h), convention="misere")]
    ['holds', 'holds', 'holds', 'holds']
    >>> [x.status for x in check_grundy_formula(r, h, convention="misere")][1]
    'violated'
    """
    enc = encoding(rules, width, bound)
    gval = lift(gval)
    if gval.sort != INT:
        raise TypeError("a Grundy formula is an integer expression")
    pre = _pre(enc, assume)
    out = [_obligation(enc, "closed", _closed(enc, assume), timeout, minimize)] if closed else []
    misere = convention == "misere"
    if misere:
        out.append(_obligation(enc, "T", [_Query("terminal states have misère value 1",
                                                 pre + enc.terminal() + [not_(gval == 1)])],
                               timeout, minimize))
        pre = pre + [enc.non_terminal()]
    out.append(_obligation(enc, "mex-equal", [_Query(
        f"move {mv.index} ({mv.label}) changes the value",
        pre + [mv.legal, enc.next(gval, mv.index) == gval], move=mv.index) for mv in enc.moves],
        timeout, minimize))
    v = Var.int(VALUE)
    ghi = intervals([gval], enc.var_iv)[id(gval)][1][1]
    extra_iv = {VALUE: (0, None if ghi is None else max(0, ghi - 1))}
    below = pre + [lift(0) <= v, v < gval]
    queries = [_Query("the value is >= 0", pre + [gval < 0])]
    if witnesses is None:
        items: list[Item] = []
        for mv in enc.moves:
            part = enc.exists_choice(mv.index, enc.next(gval, mv.index) == v)
            items.append(~part if isinstance(part, Exists) else not_(part))
        queries.append(_Query("every smaller value has an option", below + items, extra=(VALUE,)))
    else:
        cases = witnesses(rules.structure, rules.state, rules, v)
        cases = [c if isinstance(c, Play) else Play(*c) for c in cases]
        applies = _case_conditions(cases)
        queries.append(_Query("some witness case applies", below + [all_of(not_(c.when) for c in cases)],
                              extra=(VALUE,)))
        for i, (c, a) in enumerate(zip(cases, applies)):
            ok = all_of([_play_legal(enc, c), _play_next(enc, c, gval) == v])
            queries.append(_Query(f"witness case {i} reaches the value", below + [a, not_(ok)],
                                  extra=(VALUE,)))
    out.append(_obligation(enc, "mex-below", queries, timeout, minimize, extra_iv))
    return out
