"""Running a proof obligation's queries on Z3: each split over the finite fields' cases, within
a timeout, a violation shrunk to a small state and checked on the concrete rule.

Timeouts are CPU seconds of the calling thread (:mod:`grundy.solvers.clock`): Z3's own
``timeout`` counts wall-clock time, so a query is instead interrupted by a watchdog once its
CPU time is spent; the answer then does not depend on the machine's load."""
from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Any, Callable, Iterable, Sequence, Union

import z3

from ...spec.expr import Expr, lift, total
from ..clock import Watchdog, cpu_clock
from . import capture
from .encode import Encoding, Exists, Part, part_exprs, substitute

__all__ = ["SmtResult", "Item", "VALUE", "ENUMERATED", "holds_detail", "check_within"]

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
    return total(v - sch.fields[f].lower for v, (f, _) in zip(sch.variables, sch.slots, strict=False)
                 if sch.fields[f].kind == "int")


class _Unsat:
    """The queries Z3 answered ``unsat`` in this process, so that the same query asked again
    (the same premise on the same structure by the claims of one worker, say) costs nothing.

    The key is the identity of the asserted Z3 terms: Z3 shares structurally equal terms of a
    context (hash-consing), so two queries have the same key exactly when they assert the same
    formulas, in the same order; the entry keeps its terms alive, so that their ids are not
    given to other terms while the key is stored. Only ``unsat`` is kept: an ``unknown`` is
    asked again (with the time the new query has), a ``sat`` needs its model."""

    LIMIT = 50_000             # entries; the oldest go first

    def __init__(self) -> None:
        self.table: dict[tuple[int, ...], list] = {}
        self.hits = 0

    @staticmethod
    def _key(formulas: list) -> tuple[int, ...]:
        return tuple(f.get_id() for f in formulas)

    def known(self, formulas: list) -> bool:
        if not formulas or not all(f.ctx is z3.main_ctx() for f in formulas):
            return False
        found = self._key(formulas) in self.table
        self.hits += found
        return found

    def add(self, formulas: list) -> None:
        if not formulas or not all(f.ctx is z3.main_ctx() for f in formulas):
            return
        if len(self.table) >= self.LIMIT:
            del self.table[next(iter(self.table))]
        self.table[self._key(formulas)] = formulas

    def clear(self) -> None:
        self.table.clear()


HOLDS = _Unsat()


STRATEGY = "auto"    # "auto": a solver per kind of query (see solver_for); "default": z3.Solver() for all


def solver_for(quantified: bool, bitvector: bool, plain: bool = False) -> z3.Solver:
    """The Z3 solver a query is asked on. Quantifier-free queries over unbounded integers go to
    the ``simplify`` then ``smt`` tactics: on the theorem library's queries (vertex-nim's moves,
    erickson's strategies) that is 5 to 40 times faster than Z3's default solver, whose
    preprocessing takes most of the time on them. Quantifier-free bit-vector queries go to Z3's
    solver for the QF_BV logic (``SolverFor``): on the library's bit-vector claims a quarter less
    time in Z3 than on the default solver (the strategies of self-referential Nim, the planted far
    positions; no tactic pipeline had beaten it). Quantified queries stay on the default solver.
    Only the speed depends on the choice: a solver that gives up (``unknown`` before its time is
    out) is followed by the default solver (:meth:`_Runner.run`), and a violation is checked on
    the concrete rule whatever found it. ``plain``: without :data:`BV_PARAMS` and
    :data:`INT_PARAMS` (the solver a violation's model is taken from)."""
    if STRATEGY == "default" or quantified:
        return z3.Solver()
    if bitvector:
        s = z3.SolverFor("QF_BV")
        if STRATEGY == "auto" and not plain:
            s.set(**BV_PARAMS)
        return s
    s = _int_tactic().solver()
    if STRATEGY == "auto" and not plain:
        s.set(**INT_PARAMS)
    return s


_TACTICS: dict[int, z3.Tactic] = {}


def _int_tactic() -> z3.Tactic:
    """``simplify`` then ``smt``, made once per Z3 context: a tactic is a recipe without state
    (each ``solver()`` of it starts afresh), and making it anew costs two tactic objects per
    query, a sixth to a quarter of a small query's time in Z3 (the library asks some 2,500 of them)."""
    ctx = z3.main_ctx()
    t = _TACTICS.get(id(ctx))
    if t is None or t.ctx is not ctx:
        t = _TACTICS[id(ctx)] = z3.Then("simplify", "smt")
    return t


# The QF_BV solver's SAT core first simplifies the bit-blasted clauses (probing, subsumption,
# variable elimination) before it searches; on the library's bit-vector queries (tens of
# thousands of clauses that a few hundred conflicts decide) that costs more than the search.
# Delayed by this many conflicts: measured on the self-referential Nim strategies, 10-18% less
# CPU in Z3 (docs/performance.md). A search that needs more conflicts is simplified then, as
# before. Only the speed depends on it: an ``unsat`` is an ``unsat`` either way, and the model
# of a violation is taken from the solver without the delay (:meth:`_Runner.run`), so a
# counterexample is the one it always was.
BV_PARAMS = {"simplify.delay": 100_000}

# The quantifier-free integer queries' ``smt`` tactic on Z3's simplex-based arithmetic solver
# (``smt.arith.solver`` 2) instead of its default (6, the "lra" solver): on the library's
# largest such queries (vertex-nim's (NP) over all weights, grim's tripartite and every-n
# claims) 2 to 20 times less CPU in Z3 (docs/performance.md). Both are decision procedures for
# the same logic: an ``unsat`` is an ``unsat`` either way. Only the speed depends on it: a
# ``sat`` is asked again of the tactic without it and its model is the one reported (as for
# :data:`BV_PARAMS`), and where it gives up the untuned tactic, then the default solver, decide
# (:meth:`_Runner.run`).
INT_PARAMS = {"smt.arith.solver": 2}


def _solver_name(quantified: bool, bitvector: bool, plain: bool = False) -> str:
    """What :func:`solver_for` gives, in words (a certificate's header names it)."""
    if STRATEGY == "default" or quantified:
        return "z3 default solver"
    params = {} if plain or STRATEGY != "auto" else BV_PARAMS if bitvector else INT_PARAMS
    tuning = "".join(f" ({k} {v})" for k, v in params.items())
    return ("z3 QF_BV solver" if bitvector else "z3 tactic (then simplify smt)") + tuning


def check_within(s: z3.Solver, seconds: float, clock: Any = None) -> tuple[Any, str]:
    """``s.check()`` within ``seconds`` of this thread's CPU time (``clock``: a
    :func:`~grundy.solvers.clock.cpu_clock` to read): the result, and Z3's reason if unknown.
    CPU time, never Z3's wall-clock ``timeout``: a busy machine makes a check slower, never
    gives it another answer.

    >>> s = z3.Solver(); x = z3.Int("x"); s.add(x > 2, x < 1)
    >>> check_within(s, 5.0)
    (unsat, '')
    """
    clock = cpu_clock(children=False) if clock is None else clock
    with Watchdog(clock, clock() + seconds, s.ctx.interrupt) as dog:
        r = s.check()
    if r != z3.unknown:
        return r, ""
    return r, f"timeout ({seconds:.3g} s of CPU time)" if dog.fired else s.reason_unknown()


class _Runner:
    def __init__(self, enc: Encoding, w: int | None, timeout: float, minimize: bool, patient: bool = False,
                 name: str = "", model: bool = True):
        self.enc, self.w, self.timeout, self.minimize = enc, w, timeout, minimize
        self.patient, self.name, self.model = patient, name, model
        self.tr = enc.translator(w)
        self.clock = cpu_clock(children=False)

    def _check(self, s: z3.Solver, seconds: float) -> tuple[Any, str]:
        return check_within(s, seconds, self.clock)

    def item(self, it: Item):
        if isinstance(it, list):
            return z3.Or(*[self.tr.part(p) for p in it]) if it else z3.BoolVal(False)
        return self.tr.part(it)

    def run(self, q: _Query, seconds: float) -> tuple[str, Any, str]:
        formulas = [self.item(it) for it in q.items]
        cap = capture.active()                   # certificates: None unless asked for
        if HOLDS.known(formulas):
            if cap is not None:
                cap.record(self.name, q.full, formulas, "unsat", 0.0, "z3 (the same query, proved "
                           "unsat earlier in this process)", reused=True)
            return "holds", None, ""
        quantified = any(isinstance(p, Exists) for it in q.items for p in _parts(it))
        start = self.clock()
        s, r, why, how = self._decide(formulas, quantified, start + seconds)
        if cap is not None:
            cap.record(self.name, q.full, formulas, str(r), self.clock() - start, how)
        if r == z3.unsat:
            HOLDS.add(formulas)
            return "holds", None, ""
        if r == z3.unknown:
            return "unknown", None, why
        model = s.model()
        if self.minimize:
            model = self._shrink(s, model)
        if model.ctx is not z3.main_ctx():       # found in a context of its own (qsat)
            model = model.translate(z3.main_ctx())
        return "violated", model, ""

    def _decide(self, formulas: list, quantified: bool, end: float) -> tuple[z3.Solver, Any, str, str]:
        """The solver that answered, its answer, Z3's reason if unknown, and the solver in words.
        A tuned solver (:data:`BV_PARAMS`, :data:`INT_PARAMS`) that gives up is followed by the
        untuned one (integers), then by Z3's default solver; a ``sat`` of a tuned solver is asked
        again of the untuned one, whose model is reported (the counterexample it always was),
        unless the caller reads no model (``model=False``: only whether the query holds)."""
        bv = self.w is not None
        tuned = not quantified and STRATEGY == "auto"
        if quantified and bv and STRATEGY == "auto" and QSAT_SECONDS > 0:
            s, r = self._qsat(formulas, end)
            if r != z3.unknown:
                return s, r, "", "z3 tactic qsat"
        s = solver_for(quantified, bv)
        s.add(*formulas)
        r, why = self._check(s, max(end - self.clock(), 0.0))
        how = _solver_name(quantified, bv)
        if r == z3.unknown and not why.startswith("timeout") and tuned and not bv:
            s = solver_for(quantified, bv, plain=True)     # the tuned tactic gave up: the plain one
            s.add(*formulas)
            r, why = self._check(s, max(end - self.clock(), 0.0))
            how = f"{_solver_name(quantified, bv, plain=True)} (after the {how} gave up)"
            tuned = False
        if r == z3.unknown and not why.startswith("timeout") and STRATEGY != "default":
            s = z3.Solver()                      # a tactic that gave up: Z3's default solver decides
            s.add(*formulas)
            r, why = self._check(s, max(end - self.clock(), 0.0))
            how = f"z3 default solver (after the {how} gave up: {why or 'unknown'})"
            tuned = False
        if r == z3.sat and tuned and self.model:
            s = _plain(formulas, s, bv, end - self.clock(), self._check)   # the model it always had
        return s, r, why, how

    def _qsat(self, formulas: list, end: float) -> tuple[z3.Solver, Any]:
        """A quantified bit-vector query asked of Z3's ``qsat`` tactic first, within a tenth of
        the time left (at most :data:`QSAT_SECONDS`): its answer, or unknown (given up, out of
        its slice, or a tactic failure), after which the default solver has the time left."""
        ctx = z3.Context()               # a context of its own: see QSAT_SECONDS
        s = z3.Tactic("qsat", ctx=ctx).solver()
        s.add(*[f.translate(ctx) for f in formulas])
        try:
            r, _ = self._check(s, min(max(end - self.clock(), 0.0) / 10, QSAT_SECONDS))
        except z3.Z3Exception:           # pragma: no cover - a tactic failure: the default solver decides
            r = z3.unknown
        return s, r

    def _shrink(self, s: z3.Solver, model):
        """Look for a violating state of smaller total size (binary search: :data:`SHRINK_SECONDS`
        at most; ``patient``: :data:`SHRINK_LARGE` while the state found is larger than :data:`LARGE`)."""
        size = _size(self.enc)
        if size.op == "const":
            return model
        zsize = self.tr(size)
        if zsize.ctx is not s.ctx:               # a solver in a context of its own (qsat)
            zsize = zsize.translate(s.ctx)
        start = self.clock()
        deadline = start + min(self.timeout, SHRINK_SECONDS)

        def value(m) -> int:
            v = m.eval(zsize, model_completion=True)
            return v.as_long() if self.w is None else v.as_signed_long()

        lo, hi = 0, value(model)
        while lo < hi:
            left = deadline - self.clock()
            if left <= 0.05 and self.patient and hi > LARGE and deadline < start + min(self.timeout, SHRINK_LARGE):
                deadline = start + min(self.timeout, SHRINK_LARGE)   # still large: ask Z3 longer
                left = deadline - self.clock()
            if left <= 0.05:
                break
            mid = (lo + hi) // 2
            s.push()
            s.add(zsize <= (mid if self.w is None else z3.BitVecVal(mid, self.w, s.ctx)))
            r, _ = self._check(s, left)
            if r == z3.sat:
                model = s.model()
                hi = value(model)
            elif r == z3.unsat:
                lo = mid + 1
            s.pop()
            if r == z3.unknown:
                break
        return model


# Quantified bit-vector queries ((NP) or mex-below with their choices under a quantifier) go
# first to Z3's ``qsat`` tactic (quantifier alternation by model-based projection), for at most
# this many CPU seconds (and a tenth of the time left); where it gives up, the default solver
# decides as before, with the time left. The default solver's search on such a query (model-based
# quantifier instantiation) is heavy-tailed and follows state of the process that no context
# isolates: the (NP) query of far/bouton-np-20-bit, the same SMT-LIB text, took 2 to 3 CPU s in a
# fresh process, 0.4 to over 25 s in a fresh context after 1 to 20 unrelated quantified bit-vector
# checks, and 106 to 112 s ("incomplete quantifiers") in the claim's own process since commit
# 10d8cc2 left out one QF_BV check before it; ``qsat`` answers it in 0.01 s whatever came before,
# in a Z3 context of its own (the formulas translated into it, a model translated back): in the
# process's context, after a ``qsat`` check interrupted at the end of its slice, it gave up on the
# same query (15 s). A context of its own is what the premises' solver has (premises/base.py).
# Only the speed depends on it: a violation is checked on the concrete rule whoever found it.
QSAT_SECONDS = 1.0


def _plain(formulas: list, tuned: z3.Solver, bitvector: bool, seconds: float,
           check: Callable[[z3.Solver, float], tuple[Any, str]]) -> z3.Solver:
    """A violation found by a tuned solver, asked again of the same solver without
    :data:`BV_PARAMS` or :data:`INT_PARAMS`: the solver whose model the counterexample is taken
    from (and shrunk on) is the one it always was. Where that one does not answer ``sat`` in the
    time left, the tuned solver's model stands (it is a violation all the same)."""
    s = solver_for(False, bitvector, plain=True)
    s.add(*formulas)
    r, _ = check(s, max(seconds, 0.0))
    return s if r == z3.sat else tuned


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
    the token remain). With more cases, split over the vertex and edge slots alone (the bool
    slots stay free in each case) if those have at most ``SPLIT_LIMIT``. Measured on the
    vertexnim claims "for all weights" (a token and up to 10 adjacency bits): prop9's largest
    query took 1.5 s whole and 0.33 s as one query per token position; thm6's and thm14's
    about the same either way; 64 of the cases (some bits fixed too) twice as long as whole.
    The cases cover every value of the slots they fix, so the query holds iff every case
    does. Queries without quantifiers are left whole."""
    if not any(isinstance(p, Exists) for it in q.items for p in _parts(it)):
        return [q]
    g = enc.rules.structure
    domains = {"vertex": range(g.n), "edge": range(-1, len(g.edges)), "bool": (False, True)}
    finite = [(n, v, domains[k]) for n, v, k in zip(enc.names, enc.rules.schema.variables, enc.kinds, strict=False)
              if k in domains]
    cases = 1
    for _, _, d in finite:
        cases *= len(d)
    if cases > SPLIT_LIMIT:
        finite = [f for f in finite if f[2] is not domains["bool"]]
        cases = 1
        for _, _, d in finite:
            cases *= len(d)
    if not finite or cases > SPLIT_LIMIT:
        return [q]
    out = []
    for combo in product(*(d for _, _, d in finite)):
        fix = {n: lift(x) for (n, _, _), x in zip(finite, combo, strict=False)}

        def sub(p: Part, fix: dict = fix) -> Part:         # called at once: bound for the linter
            if isinstance(p, Exists):
                return Exists(p.names, substitute(p.body, fix), p.negated)
            return substitute(p, fix)
        items: list[Item] = [[sub(p) for p in it] if isinstance(it, list) else sub(it) for it in q.items]
        items += [v == x for (_, v, _), x in zip(finite, combo, strict=False)]   # the model still names the values
        where = ", ".join(f"{n} = {x}" for (n, _, _), x in zip(finite, combo, strict=False))
        out.append(_Query(q.what, items, q.move, q.report, q.extra, where))
    return out


def _obligation(enc: Encoding, name: str, queries: Sequence[_Query], timeout: float,
                minimize: bool, extra_iv: dict | None = None, note: str = "", model: bool = True) -> SmtResult:
    """Run an obligation's queries until one is violated; unknown if any is unknown. ``model=False``:
    the caller reads only whether it holds (a violation's state is then any violating state)."""
    clock = cpu_clock(children=False)
    t0 = clock()
    scope = enc.scope()
    queries = [_prepare(enc, c, extra_iv) for q in queries for c in _split(enc, q)]
    exprs = _items_exprs(it for q in queries for it in q.items)
    if minimize:
        exprs.append(_size(enc))
    w = enc.width_for(exprs, extra_iv)
    runner = _Runner(enc, w, timeout, minimize, patient=name in ENUMERATED, name=name, model=model)
    unknown: list[str] = []
    deadline = t0 + timeout
    for q in queries:
        left = deadline - clock()
        if left <= 0:
            unknown.append(f"{q.full}: out of time (the obligation's {timeout:g} s of CPU time)")
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
            return SmtResult(name, "violated", state, choices, clock() - t0,
                             f"violated: {q.full}{note}", scope)
        if status == "unknown":
            unknown.append(f"{q.full}: {reason or 'unknown'}")
    secs = clock() - t0
    if unknown:
        return SmtResult(name, "unknown", None, None, secs,
                         f"Z3 could not decide {'; '.join(unknown)}{note}", scope)
    return SmtResult(name, "holds", None, None, secs, holds_detail(queries, note), scope)


def holds_detail(queries: Sequence[_Query], note: str = "", enc: Encoding | None = None) -> str:
    """What an obligation that holds says of its queries (with ``enc``: of those queries split
    as :func:`_obligation` splits them)."""
    if enc is not None:
        queries = [c for q in queries for c in _split(enc, q)]
    whats = list(dict.fromkeys(q.what for q in queries))
    more = f" (and {len(whats) - 1} more)" if len(whats) > 1 else ""
    cases = sum(1 for q in queries if q.case)
    split = f", split into {cases} cases by the finite fields" if cases else ""
    what = whats[0] + more + split if whats else "nothing to check"
    return f"holds: {what}{note}"
