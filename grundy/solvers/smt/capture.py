"""Capturing the SMT queries a check asks, as self-contained SMT-LIB 2 text (for certificates).

While a :class:`Capture` is active (:func:`capturing`, a context variable: one per thread or
task, inherited by nothing else), :mod:`.runner` hands it every query it decides: the asserted
formulas, Z3's answer and its CPU seconds. Without one, the runner reads the variable once per
query and does nothing else.

:func:`smtlib` writes a query as an SMT-LIB 2 script (``set-logic``, declarations, assertions,
``check-sat``) with :func:`logic_of` naming the smallest standard logic that holds it, and
:func:`unfaithful` listing any operator outside the SMT-LIB standard theories (a Z3-specific
function): such a file says so in its header, and a second solver's answer on it is never
taken as agreement.

>>> import z3
>>> x = z3.Int("x")
>>> logic_of([x * x < 0]), logic_of([x + 1 < 0]), logic_of([z3.BitVec("b", 4) == 3])
('QF_NIA', 'QF_LIA', 'QF_BV')
>>> with capturing("demo/claim") as cap:
...     active() is cap
True
>>> active() is None
True
>>> print(smtlib([x > 2, x < 3], "QF_LIA", ["a comment"]).splitlines()[0])
; a comment
"""
from __future__ import annotations

from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from typing import Any, Iterator, Sequence

import z3

__all__ = ["Capture", "Query", "active", "at", "capturing", "logic_of", "smtlib", "unfaithful"]


@dataclass
class Query:
    """One query as asked: where it belongs, the SMT-LIB text, and Z3's answer."""

    claim: str
    structure: str
    obligation: str
    what: str
    logic: str
    text: str                   # the SMT-LIB 2 script (without the header comment)
    result: str                 # "sat" | "unsat" | "unknown"
    seconds: float
    solver: str                 # the Z3 solver or tactic that answered
    unfaithful: list[str] = field(default_factory=list)   # operators outside standard SMT-LIB
    reused: bool = False        # answered from the runner's table of queries already proved unsat


@dataclass
class Capture:
    """The queries of one claim's check, in the order asked (the proof says where the next one
    belongs with :meth:`at`: a lemma's proof inside the claim's check names the lemma)."""

    claim: str
    structure: str = ""
    proving: str = ""           # the claim whose proof asks (this one, or a lemma it uses)
    queries: list[Query] = field(default_factory=list)

    def at(self, claim: str, structure: str) -> None:
        """The next queries belong to ``claim``'s proof on ``structure``."""
        self.proving, self.structure = claim, structure

    def record(self, obligation: str, what: str, formulas: list, result: str, seconds: float,
               solver: str, reused: bool = False) -> None:
        """Keep one query (its text made here, only while capturing)."""
        logic = logic_of(formulas)
        self.queries.append(Query(self.proving or self.claim, self.structure, obligation, what, logic,
                                  smtlib(formulas, logic), result, seconds, solver,
                                  unfaithful(formulas), reused))

    def clear(self) -> None:
        """Forget the queries (a check started again from the beginning)."""
        self.queries.clear()


_ACTIVE: ContextVar[Capture | None] = ContextVar("grundy_smt_capture", default=None)


def active() -> Capture | None:
    """The capture in force here, or None (one context-variable read)."""
    return _ACTIVE.get()


def at(claim: str, structure: str) -> None:
    """Where the next queries belong, when capturing (see :meth:`Capture.at`); else nothing."""
    cap = _ACTIVE.get()
    if cap is not None:
        cap.at(claim, structure)


@contextmanager
def capturing(claim: str) -> Iterator[Capture]:
    """Capture the queries asked inside the block, for ``claim``."""
    cap = Capture(claim)
    token = _ACTIVE.set(cap)
    try:
        yield cap
    finally:
        _ACTIVE.reset(token)


# ------------------------------------------------------------------------- what a query uses
_LINEAR_OK = {z3.Z3_OP_ADD, z3.Z3_OP_SUB, z3.Z3_OP_UMINUS, z3.Z3_OP_LE, z3.Z3_OP_LT, z3.Z3_OP_GE,
              z3.Z3_OP_GT, z3.Z3_OP_ANUM}
_NONLINEAR = {z3.Z3_OP_MUL, z3.Z3_OP_IDIV, z3.Z3_OP_MOD, z3.Z3_OP_REM}
_CORE = {z3.Z3_OP_TRUE, z3.Z3_OP_FALSE, z3.Z3_OP_EQ, z3.Z3_OP_DISTINCT, z3.Z3_OP_ITE, z3.Z3_OP_AND,
         z3.Z3_OP_OR, z3.Z3_OP_NOT, z3.Z3_OP_IMPLIES, z3.Z3_OP_XOR, z3.Z3_OP_IFF}
_BV = {z3.Z3_OP_BNUM, z3.Z3_OP_BADD, z3.Z3_OP_BSUB, z3.Z3_OP_BNEG, z3.Z3_OP_BMUL, z3.Z3_OP_BSDIV,
       z3.Z3_OP_BUDIV, z3.Z3_OP_BSREM, z3.Z3_OP_BUREM, z3.Z3_OP_BSMOD, z3.Z3_OP_BAND, z3.Z3_OP_BOR,
       z3.Z3_OP_BXOR, z3.Z3_OP_BNOT, z3.Z3_OP_CONCAT, z3.Z3_OP_EXTRACT, z3.Z3_OP_SIGN_EXT,
       z3.Z3_OP_ZERO_EXT, z3.Z3_OP_BSHL, z3.Z3_OP_BLSHR, z3.Z3_OP_BASHR, z3.Z3_OP_SLEQ, z3.Z3_OP_SLT,
       z3.Z3_OP_SGEQ, z3.Z3_OP_SGT, z3.Z3_OP_ULEQ, z3.Z3_OP_ULT, z3.Z3_OP_UGEQ, z3.Z3_OP_UGT}


def _walk(formulas: list) -> Iterator[Any]:
    """Every distinct sub-term of the formulas (quantifier bodies included)."""
    seen: set[int] = set()
    todo = list(formulas)
    while todo:
        t = todo.pop()
        i = t.get_id()
        if i in seen:
            continue
        seen.add(i)
        yield t
        if z3.is_quantifier(t):
            todo.append(t.body())
        elif z3.is_app(t):
            todo.extend(t.children())


def _features(formulas: list) -> tuple[set[str], list[str]]:
    """What the formulas use ("int", "bv", "quantifier", "nonlinear") and the operators that
    are not standard SMT-LIB (by name)."""
    used: set[str] = set()
    odd: list[str] = []
    for t in _walk(formulas):
        if z3.is_quantifier(t):
            used.add("quantifier")
            continue
        if z3.is_var(t):
            continue
        sort = t.sort().kind()
        if sort == z3.Z3_INT_SORT:
            used.add("int")
        elif sort == z3.Z3_BV_SORT:
            used.add("bv")
        elif sort != z3.Z3_BOOL_SORT:
            odd.append(f"sort {t.sort()}")
        k = t.decl().kind()
        if k == z3.Z3_OP_UNINTERPRETED:
            if t.num_args():
                odd.append(f"function {t.decl().name()}")
        elif k in _NONLINEAR:
            if k == z3.Z3_OP_MUL and sum(not z3.is_int_value(a) for a in t.children()) <= 1:
                continue
            if k != z3.Z3_OP_MUL and z3.is_int_value(t.arg(1)) and t.arg(1).as_long() != 0:
                continue
            used.add("nonlinear")
        elif k not in _CORE and k not in _BV and k not in _LINEAR_OK:
            odd.append(t.decl().name())
    return used, sorted(set(odd))


def logic_of(formulas: list) -> str:
    """The SMT-LIB logic of a query: ``QF_``/quantified, bit-vectors (``BV``) or integers
    (``LIA``/``NIA``); ``ALL`` when it mixes integers and bit-vectors."""
    used, _ = _features(formulas)
    qf = "" if "quantifier" in used else "QF_"
    if "bv" in used and "int" in used:
        return "ALL"
    if "bv" in used:
        return qf + "BV"
    return qf + ("NIA" if "nonlinear" in used else "LIA")


def unfaithful(formulas: list) -> list[str]:
    """The operators of the formulas outside the standard SMT-LIB theories ([] normally)."""
    return _features(formulas)[1]


def smtlib(formulas: list, logic: str, comments: Sequence[str] = ()) -> str:
    """A self-contained SMT-LIB 2 script asserting ``formulas``: the comment lines, ``set-logic``,
    the declarations and assertions (Z3's printer), ``check-sat`` and ``exit``."""
    ctx = formulas[0].ctx if formulas else z3.main_ctx()
    if not formulas:
        body = "(check-sat)\n"
    else:
        first = formulas[:-1]                  # printed as assertions, one each, before the last
        assumptions = (z3.Ast * len(first))(*[f.as_ast() for f in first])
        body = z3.Z3_benchmark_to_smtlib_string(ctx.ref(), "", "", "unknown", "", len(first), assumptions,
                                                formulas[-1].as_ast())
    lines = [f"; {c}" for c in comments] + [f"(set-logic {logic})"]
    for ln in body.splitlines():
        if ln.strip() == ";" or ln.startswith("; benchmark") or ln.startswith("(set-info :status") or ln.startswith("(set-logic"):
            continue
        lines.append(ln)
    lines.append("(exit)")
    return "\n".join(lines) + "\n"
