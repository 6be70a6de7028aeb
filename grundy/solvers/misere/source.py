"""Misère quotients as a value source: misère outcomes of sums of heaps, read off the quotient.

A heap game (a :class:`~grundy.spec.HeapRule`, octal codes included) whose positions are sums of
heaps by construction has, in misère play, a quotient (Q, P) and a pretending function Phi
(:mod:`.quotient`): the sum of heaps h1 + ... + hk is a misère P-position exactly when
Phi(h1) ... Phi(hk) is in P. :class:`MisereQuotientSource` answers the question "does the mover
win?" that way, and says so (the solver's log names the quotient, as it names a theorem).

**Its premise** is the quotient's own check, made where it is computed: the quotient of the
heaps 1..n is verified exactly on every sum of heaps <= n (:func:`.automaton.verify`), and beyond
n only a pretending function whose period the misère periodicity theorem proved answers
(:meth:`.quotient.HeapQuotient.element`). So a state is answered only when every heap in it is at
most the heap the quotient was computed to, or the period is proved; any other state is
declined (the next source, the misère search, answers it).

**Where the quotient comes from**: computed on demand, the first time a misère sum of the rule is
asked, up to its largest heap (the computation stops sooner where it proves the period), within
:data:`TIME_LIMIT` CPU seconds; kept per process under the content digest of the rule on one
heap (:func:`~grundy.spec.fingerprint.rules_digest`: its moves, its parameters; never its name
alone). A larger heap asked later computes it again further (at least twice as far), unless the
last computation ran out of time or could not extend the quotient: then the search answers.

Only the outcome is given: the misère Grundy value of a sum is not a function of its quotient
element, so ``"grundy"`` questions are declined; a batch of a claim's sweep too (it is checked by
its own kernel or search).

>>> from grundy.spec import read_position
>>> from grundy.solvers.solver import Solver
>>> s = Solver(native=False)
>>> s.sources = (s.sources[0], MisereQuotientSource(), *s.sources[1:])
>>> p = read_position({"game": "octal", "code": "0.75", "heaps": [10**4, 9999, 3], "convention": "misere"})
>>> s.outcome(p), quotient_label(p.game, p.structure)
('N', 'by the misère quotient of octal 0.75 (order 8, |P| = 2, period 2 from heap 8, proved)')
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from math import comb
from typing import TYPE_CHECKING, Any

from ...caches import register
from ...spec.fingerprint import rules_digest
from ...spec.heaprule import OneHeap
from ..explicit.compile import State
from ..heaps import rule_options, sum_of_heaps
from .quotient import HeapQuotient, Options, code_options, quotient_of

if TYPE_CHECKING:
    from ..context import SourceContext
    from ..solver import Solver
    from ..sources import Query

__all__ = ["MisereQuotientSource", "QUOTIENT", "TIME_LIMIT", "rule_quotient", "quotient_label", "one_heap_options",
           "sums_below", "outcome_without_value"]

QUOTIENT = "misère quotient"
TIME_LIMIT = 2.0        # CPU seconds a quotient is computed for, on demand (then the search answers)


@dataclass
class _Entry:
    q: HeapQuotient
    asked: int                  # the heaps it was asked to (max_heap)
    label: str
    cpu: float                  # CPU seconds the computation took

    @property
    def final(self) -> bool:
        """Whether computing further would not help: the period proved, or the last run stopped
        short of the heaps it was asked to (out of time, or the quotient could not be extended)."""
        return self.q.proved or self.q.computed < self.asked

    def covers(self, state: tuple[int, ...]) -> bool:
        return self.q.proved or max(state, default=0) <= self.q.computed


_QUOTIENTS: dict[str, _Entry] = {}
register("misere-quotients", lambda: len(_QUOTIENTS), lambda: _QUOTIENTS.clear())


def one_heap_options(rule: OneHeap) -> tuple[Options, int | None]:
    """The options of one heap under ``rule`` (tuples of non-zero parts) and the most tokens a
    move removes when a finite code without unequal splits gives them (else None: then no
    period is proved, see :func:`.quotient.quotient_of`)."""
    code = rule.code
    if code is not None:
        return code_options(code), (code.last if not code.unequal else None)

    def options(n: int) -> list[tuple[int, ...]]:
        return [tuple(ps) for _, ps in rule_options(rule, n)]
    return options, None


def _digest(rule: OneHeap) -> str:
    return rules_digest(rule.game.one_heap_rules(rule.structure))


def _label(rule: OneHeap) -> str:
    params = getattr(rule.structure, "params", ())
    vals = [str(v) if not isinstance(v, (tuple, list)) else ",".join(map(str, v)) for _, v in params]
    return " ".join([rule.game.name, *vals])


def rule_quotient(rule: OneHeap, need: int, time_limit: float = TIME_LIMIT) -> _Entry:
    """The quotient of ``rule``'s heaps known so far, computed (again, further) when it does not
    reach heap ``need`` and may still: kept by the rule's content digest."""
    key = _digest(rule)
    got = _QUOTIENTS.get(key)
    if got is not None and (got.final or need <= got.q.computed):
        return got
    options, last = one_heap_options(rule)
    upto = max(need, 1 if got is None else 2 * got.asked)
    t = time.process_time()
    q = quotient_of(options, upto, last=last, time_limit=time_limit)
    got = _QUOTIENTS[key] = _Entry(q, upto, _label(rule), time.process_time() - t)
    return got


def _describe(e: _Entry) -> str:
    q = e.q
    if q.proved and q.period is not None:
        scope = f"period {q.period[1]} from heap {q.period[0]}, proved"
    else:
        scope = f"heaps up to {q.computed}, checked"
    return f"by the misère quotient of {e.label} (order {q.size}, |P| = {len(q.p)}, {scope})"


def quotient_label(game: Any, structure: Any) -> str | None:
    """How the source names the quotient of ``game`` on ``structure`` (None: none computed)."""
    rule = sum_of_heaps(game, structure)
    got = None if rule is None else _QUOTIENTS.get(_digest(rule))
    return None if got is None else _describe(got)


class MisereQuotientSource:
    """Misère outcomes of sums of heaps from the rule's misère quotient (see the module's text)."""

    name = QUOTIENT
    premises = ("the quotient's exact check on every sum of heaps up to the heap it was computed to, "
                "and beyond it only a period proved by the misère periodicity theorem")

    def __init__(self, time_limit: float = TIME_LIMIT):
        self.time_limit = time_limit
        self.used: dict[str, int] = {}            # label -> states answered

    def can_answer(self, ctx: "SourceContext", q: "Query") -> bool:
        return (ctx.decompose and q.convention == "misere" and q.question == "wins" and not q.sweep
                and sum_of_heaps(q.game, q.structure) is not None)

    # it answers outcomes only (the capability OutcomesOnly of grundy.solvers.sources) -------------
    def value_cost(self, q: "Query", state: State) -> int:
        """What a search for the misère Grundy value of the sum stores, about (:func:`sums_below`)."""
        return sums_below(tuple(state))

    def label(self, q: "Query") -> str | None:
        """The quotient the source answers by, in words (None: none computed yet)."""
        return quotient_label(q.game, q.structure)

    def why_no_value(self, q: "Query", state: State, cost: int, budget: int, label: str) -> str:
        return (f"misère Grundy value not computed: a search for it would store about {cost:.3g} "
                f"positions (the sums of heaps below this one), more than the limit of {budget:,}; "
                f"the outcome is exact, {label}, but the misère Grundy value of a sum is not a "
                f"function of its quotient element (--max-positions above that searches for it; "
                f"--outcome-only asks for the outcome alone)")

    def values(self, ctx: "SourceContext", q: "Query", states: list[State]) -> list[Any] | None:
        rule = sum_of_heaps(q.game, q.structure)
        if rule is None or not states:
            return None
        entry = rule_quotient(rule, max(states[0], default=0), self.time_limit)
        hq = entry.q
        m, p = hq.q.monoid, hq.q.p
        out: list[Any] = []
        for s in states:
            if not entry.covers(tuple(s)):
                break                               # the next sources answer from here
            x = 0
            for h in s:
                if h:
                    x = m.times(x, hq.element(h))
            out.append(x not in p)                  # the mover wins unless the sum is in P
        if not out:
            return None
        label = _describe(entry)
        self.used[label] = self.used.get(label, 0) + len(out)
        ctx.note(q.game, q.structure, label)
        return out


def sums_below(state: tuple[int, ...]) -> int:
    """How many sums of heaps lie below ``state`` (a sum of heaps): the multisets of as many
    heaps, each of at most its largest heap, C(H + k, k). What a search for the misère Grundy
    value of the sum stores, about (no sum is split in misère play; a rule that splits heaps
    makes more).

    >>> sums_below((3, 5)), sums_below((10_000,) * 10) > 10**33
    (21, True)
    """
    heaps = [h for h in state if h]
    return comb(max(heaps, default=0) + len(heaps), len(heaps))


def outcome_without_value(solver: "Solver", pos: Any, budget: int) -> tuple[str, str] | None:
    """(outcome, why the misère Grundy value is not computed) when the misère quotient answers
    the outcome of ``pos`` (a misère sum of heaps) and a search for its value would store more
    than ``budget`` positions (:func:`sums_below`); None otherwise: ask the solver for both.
    The outcome is the quotient's, exact (its premises: :class:`MisereQuotientSource`); the
    value is never guessed (it is not a function of the quotient element). The solver's
    :meth:`~grundy.solvers.solver.Solver.outcome_alone`, which asks the sources in order.

    >>> from grundy.spec import read_position
    >>> from grundy.solvers.solver import Solver
    >>> p = read_position({"game": "octal", "code": "0.75", "heaps": [10**4] * 3, "convention": "misere"})
    >>> got = outcome_without_value(Solver(native=False), p, 10**6)
    >>> got[0], got[1].split(":")[0]
    ('N', 'misère Grundy value not computed')
    >>> outcome_without_value(Solver(native=False), p.with_state((5, 6)), 10**6) is None
    True
    """
    return solver.outcome_alone(pos, budget)
