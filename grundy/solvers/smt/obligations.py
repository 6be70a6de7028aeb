"""Proof obligations: the partition theorem, the mex condition, ranks and strategies, checked by Z3.

Each check turns a claim (an IR predicate over ``rules.state``) into a few Z3 queries
("is there a state breaking this?") and returns one :class:`SmtResult` per obligation:
``"holds"`` (no such state: proved, in the encoding's scope), ``"violated"`` (with a
concrete state, schema order, and the move/choices involved) or ``"unknown"`` (Z3 gave
up or ran out of time: never a pass). Queries run one per move where a move is
involved; ``timeout`` (CPU seconds) is the budget of each obligation, shared by its queries.

"Terminal" is "no move is legal for any choice values": per move, ``∃ choices. legal``,
written without a quantifier when the choices do not matter (``lo <= hi``) or take few
values (expanded), else a Z3 quantifier. (NP) asks for a move into P existentially in the
same way (where that needs a quantifier, after a quantifier-free query with the choices at
their bounds), or takes a strategy's move. A query with quantifiers is split into one query per
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

from typing import Any, Callable

from ...spec.expr import INT, Expr, Term, Var, all_of, any_of, evaluate, lift, not_
from ...spec.game import Rules
from ...spec.strategy import Play, plays
from .encode import Encoding, Exists, encoding, intervals, substitute
from .runner import VALUE, Item, SmtResult, _obligation, _Query, holds_detail

__all__ = ["SmtResult", "check_rank", "check_partition", "check_strategy", "check_nonempty", "check_parts_smaller",
           "check_grundy_formula", "VALUE"]

# --------------------------------------------------------------------------- building blocks
def _pre(enc: Encoding, assume: Term) -> list[Item]:
    return [enc.family, lift(assume)]


def _case_conditions(cases: list[Play]) -> list[Expr]:
    """``when`` of each case and of no earlier case."""
    out: list[Expr] = []
    earlier: list[Term] = []
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
        env = dict(zip(names, state, strict=False))
        return {"move": c.move, **{k: int(evaluate(v, env)) for k, v in c.choice.items()}}
    return report


def _cases(strategy: Any, rules: Rules) -> list[Play]:
    if callable(strategy):
        return plays(strategy, rules)
    return list(strategy)


def _closed(enc: Encoding, assume: Term) -> list[_Query]:
    pre = _pre(enc, assume)
    target = all_of([enc.family, lift(assume)])
    return [_Query(f"move {mv.index} ({mv.label}) keeps the assumed family",
                   pre + [mv.legal, not_(enc.next(target, mv.index))], move=mv.index)
            for mv in enc.moves]


# --------------------------------------------------------------------------- public checks
def check_rank(rules: Rules, assume: Term = True, *, width: int | None = None, timeout: float = 10,
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


def check_partition(rules: Rules, p: Expr, assume: Term = True, *, strategy: Any = None,
                    width: int | None = None, timeout: float = 10, bound: int | None = None,
                    convention: str | None = None, minimize: bool = True,
                    first_violation: bool = False) -> list[SmtResult]:
    """The partition theorem for the claimed P-positions ``p`` within the family ``assume``.

    Obligations: ``closed`` (a move from the family stays in it, and in the field domains /
    bound), ``T`` (terminal states are P; misère: N), ``PN`` (no move from P to P), ``NP``
    (every non-terminal state outside P has a move into P). With ``strategy`` (a
    :class:`~grundy.spec.strategy.Strategy` or a list of Play cases) NP is proved by the
    strategy's move when :func:`check_strategy` holds (its two results are included); otherwise,
    and when the strategy fails, NP asks for the choice existentially (expanded when the
    choices are few, else a Z3 quantifier: "unknown" when Z3 gives up). Together with
    :func:`check_rank` this proves that ``p`` is exactly the P-positions of the family.
    ``first_violation``: stop at the first violated obligation (the later ones are not asked: a
    proof that is refuted needs no more of Z3's time).

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
    t_claim = p if conv == "normal" else not_(p)
    out = _until_violated(first_violation, [
        lambda: _obligation(enc, "closed", _closed(enc, assume), timeout, minimize),
        lambda: _obligation(enc, "T", [_Query(
            f"terminal states are {'P' if conv == 'normal' else 'N'}",
            pre + enc.terminal() + [not_(t_claim)])], timeout, minimize),
        lambda: _obligation(enc, "PN", [_Query(
            f"move {mv.index} ({mv.label}) leads from P to N",
            pre + [p, mv.legal, enc.next(p, mv.index)], move=mv.index) for mv in enc.moves],
            timeout, minimize)])
    if first_violation and out[-1].status == "violated":
        return out
    if strategy is not None:
        sres = check_strategy(rules, p, strategy, assume, width=width, timeout=timeout, bound=bound,
                              minimize=minimize)
        out.extend(sres)
        if first_violation and any(r.status == "violated" for r in sres):
            return out                   # the caller asks (NP) without the strategy if it needs it
        if all(r.status == "holds" for r in sres):
            out.append(SmtResult("NP", "holds", None, None, sum(r.seconds for r in sres),
                                 "holds: the strategy moves from every non-terminal N-state into P",
                                 enc.scope()))
            return out
    out.append(_np(enc, p, assume, timeout, minimize))
    return out


def _until_violated(first_violation: bool, obligations: list[Callable[[], SmtResult]]) -> list[SmtResult]:
    """The obligations' results in order; with ``first_violation``, none after a violated one."""
    out: list[SmtResult] = []
    for ob in obligations:
        out.append(ob())
        if first_violation and out[-1].status == "violated":
            break
    return out


def _np(enc: Encoding, p: Expr, assume: Term, timeout: float, minimize: bool) -> SmtResult:
    """(NP), choices asked existentially. Where that needs a quantifier, the choices at their
    bounds (:func:`_bound_choices`) are tried first, without one: if some move with such
    choices goes into P from every N-state, (NP) holds (those are choices of the move); else
    (Z3 finds a state where they do not, or gives up within a tenth of the time, at most
    :data:`BOUNDS_SECONDS`) the quantified query decides, with the time left."""
    pre = _pre(enc, assume) + [not_(p), enc.non_terminal()]
    wins: list[Item] = []
    tried: list[Item] = []
    how = set()
    for mv in enc.moves:
        into = enc.next(p, mv.index)
        part = enc.exists_choice(mv.index, into)
        how.add("quantifier" if isinstance(part, Exists) else "expanded" if mv.choices else "no choice")
        wins.append(~part if isinstance(part, Exists) else not_(part))
        tried.append(not_(any_of(substitute(mv.legal & into, env) for env in _bound_choices(mv)))
                     if isinstance(part, Exists) else wins[-1])
    what = "every non-terminal N-state has a move into P"
    note = f" [choices: {', '.join(sorted(how))}]"
    spent = 0.0
    if "quantifier" in how and not any(isinstance(x, (Exists, list)) for x in pre):
        first = _obligation(enc, "NP", [_Query(what, pre + tried)], min(timeout / 10, BOUNDS_SECONDS), False,
                            note=" [choices: at their bounds (lo, lo + 1, hi - 1, hi), no quantifier]",
                            model=False)          # only whether it holds: a violation here is asked again
        if first.status == "holds":
            return first
        spent = first.seconds
    return _obligation(enc, "NP", [_Query(what, pre + wins)], max(timeout - spent, 0.0), minimize, note=note)


BOUND_CHOICES = 16    # at most this many combinations of choice values at their bounds per move
BOUNDS_SECONDS = 10.0  # CPU seconds at most for (NP) with the choices at their bounds (then: a quantifier)


def _bound_choices(mv: Any) -> list[dict[str, Expr]]:
    """Values for a move's choices at or next to their bounds (``lo``, ``lo + 1``, ``hi - 1``,
    ``hi``; a later choice's bounds read the earlier choices' values): the witnesses a winning
    move most often takes (empty a heap, leave one, take one). Each is checked against the
    move's legality where it is used, so any of them may be out of range."""
    combos: list[dict[str, Expr]] = [{}]
    for _, new, lo, hi in mv.choices:
        nxt: list[dict[str, Expr]] = []
        for env in combos:
            lo_, hi_ = substitute(lo, env), substitute(hi, env)
            values = {id(v): v for v in (lo_, lo_ + 1, hi_ - 1, hi_)}     # nodes are hash-consed
            nxt.extend({**env, new: v} for v in values.values())
        combos = nxt[:BOUND_CHOICES]
    return combos


def check_strategy(rules: Rules, p: Expr, strategy: Any, assume: Term = True, *,
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
    lands, both = [], []
    for i, (c, a) in enumerate(zip(cases, applies, strict=False)):
        lg, into = _play_legal(enc, c), _play_next(enc, c, p)
        legal.append(_Query(f"case {i} plays move {c.move} legally", pre + [a, not_(lg)],
                            report=_reporter(enc, c)))
        lands.append(_Query(f"case {i} lands in P", pre + [a, lg, not_(into)], report=_reporter(enc, c)))
        both.append(_Query(f"case {i} plays move {c.move} legally and lands in P", pre + [a, not_(lg & into)],
                           report=_reporter(enc, c)))
    if MERGE_CASES and cases:
        merged = _obligation(enc, "strategy", legal[:1] + both, timeout, minimize)
        if merged.status == "holds":
            return _both_hold(enc, merged, legal, lands)
    return [_obligation(enc, "strategy-legal", legal, timeout, minimize),
            _obligation(enc, "strategy-lands-in-P", lands, timeout, minimize)]


# A strategy's case is asked once, "plays its move legally and lands in P" (pre ∧ applies ∧
# ¬(legal ∧ lands)), instead of twice (pre ∧ applies ∧ ¬legal, and pre ∧ applies ∧ legal ∧
# ¬lands): the one query is unsatisfiable exactly when both are (its negated conjunction is the
# disjunction of theirs), and Z3 bit-blasts and searches the shared part once (measured on the
# strategies of self-referential Nim: docs/performance.md). When every merged query holds, both
# obligations hold; otherwise (a violation, or an unknown) the two obligations are asked as
# always, so that a violation, its state and the obligation it is reported under are those the
# separate queries give. The merged try has the obligations' budget (``timeout``); after an
# unknown the two obligations have theirs as before, so a strategy Z3 cannot decide may spend
# up to three budgets instead of two.
MERGE_CASES = True


def _both_hold(enc: Encoding, merged: SmtResult, legal: list[_Query], lands: list[_Query]) -> list[SmtResult]:
    """The results of ``strategy-legal`` and ``strategy-lands-in-P`` when the merged queries all
    held, each worded as its own queries' ``holds`` (:func:`holds_detail`); the time is shared."""
    half = merged.seconds / 2
    return [SmtResult("strategy-legal", "holds", None, None, half, holds_detail(legal, enc=enc), merged.scope),
            SmtResult("strategy-lands-in-P", "holds", None, None, half, holds_detail(lands, enc=enc), merged.scope)]


def check_nonempty(rules: Rules, assume: Term = True, *, width: int | None = None, timeout: float = 10,
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


def check_parts_smaller(rules: Rules, assume: Term = True, *, width: int | None = None,
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
    ints = [v for v, (f, _) in zip(sch.variables, sch.slots, strict=False) if sch.fields[f].kind == "int"]
    queries = [_Query(f"move {mv.index} ({mv.label}) leaves parts smaller than the heap",
                      pre + [mv.legal, not_(all_of(enc.next(v, mv.index) < head for v in ints))], move=mv.index)
               for mv in enc.moves]
    return [_obligation(enc, "parts", queries, timeout, minimize)]


def check_grundy_formula(rules: Rules, gval: Expr, assume: Term = True, *, witnesses: Any = None,
                         width: int | None = None, timeout: float = 10, bound: int | None = None,
                         minimize: bool = True, convention: str = "normal",
                         closed: bool = True, first_violation: bool = False) -> list[SmtResult]:
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
    their value the XOR of their heaps' values, which ``gval`` states). ``first_violation``: as in
    :func:`check_partition`.

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
    misere = convention == "misere"
    first: list[Callable[[], SmtResult]] = []
    if closed:
        first.append(lambda: _obligation(enc, "closed", _closed(enc, assume), timeout, minimize))
    if misere:
        first.append(lambda: _obligation(enc, "T", [_Query("terminal states have misère value 1",
                                                           pre + enc.terminal() + [not_(gval == 1)])],
                                         timeout, minimize))
    play = pre + [enc.non_terminal()] if misere else pre
    first.append(lambda: _obligation(enc, "mex-equal", [_Query(
        f"move {mv.index} ({mv.label}) changes the value",
        play + [mv.legal, enc.next(gval, mv.index) == gval], move=mv.index) for mv in enc.moves],
        timeout, minimize))
    out = _until_violated(first_violation, first)
    if first_violation and out[-1].status == "violated":
        return out
    pre = play
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
        for i, (c, a) in enumerate(zip(cases, applies, strict=False)):
            ok = all_of([_play_legal(enc, c), _play_next(enc, c, gval) == v])
            queries.append(_Query(f"witness case {i} reaches the value", below + [a, not_(ok)],
                                  extra=(VALUE,)))
    out.append(_obligation(enc, "mex-below", queries, timeout, minimize, extra_iv))
    return out
