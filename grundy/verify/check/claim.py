"""Checking one claim: its methods in order (the sweep, the proof), the cross-check by the
reference engine before a verdict is given out, the value sources that served, and one chunk
of a family (:func:`check_part`).
"""
from __future__ import annotations

from typing import Any

from ...errors import RuleError, user_line
from ...solvers.solver import CycleError, Solver, SolverLimit, SourceLog
from ...spec.games import GAMES
from ...spec.ops import UnsupportedOperator
from ..claims import Claim, ClaimError, Explicit
from ..families import Positions
from ..kinds import kind_of
from ..methods import Levelled
from ..recheck import CrossCheck, Disagreement
from ..verdict import ERROR, PROVED, REFUTED, UNKNOWN, VERIFIED, Counterexample, Verdict
from .covered import record
from .deadline import Deadline, Progress, TimedOut, _nothing
from .lemmas import LemmaGap, Lemmas, active, check_lemmas
from .levelled import sweep_levelled
from .listed import sweep_listed
from .prove import prove
from .scope import _bounds_text, _conditions, _refuted_scope, _smt_scope, reach, where
from .sweep import sweep


def check_claim(claim: Claim, *, profile: str = "quick", timeout: float | None = None,
                progress: Progress = _nothing, solver: Solver | None = None,
                allow_empty: bool = False, recheck: str = "sample") -> Verdict:
    """Check one claim with its methods, within ``timeout`` seconds (default: the claim's).
    A check that covers nothing (no structure, no position within the bounds, an ``assume``
    nothing satisfies) is ``error``; ``allow_empty`` (one chunk of a parallel sweep) lets an
    empty explicit sweep stand as ``verified`` with 0 positions (the merge decides).
    ``recheck``: what the reference engine re-solves before a verdict is given out
    (:mod:`grundy.verify.recheck`: ``"sample"``, ``"all"`` or ``"none"``); where it disagrees,
    the verdict is ``error``.

    Parameters
    ----------
    claim : Claim
        The claim.
    profile : {"quick", "full"}
        Which bounds and family to sweep (``full=``, ``full_family=``).
    timeout : float, optional
        CPU seconds (default: the claim's, docs/claims.md "Time limits").
    solver : Solver, optional
        The solver of the explicit sweep (default: a new one).
    recheck : {"sample", "all", "none"}
        What the reference engine re-solves before the verdict is given out.

    Returns
    -------
    Verdict
        ``verdict`` (proved / verified / refuted / unknown / error), ``scope`` (what was
        covered), a replayed ``counterexample`` where refuted, ``coverage`` and obligations.

    Examples
    --------
    >>> from grundy.verify import Claim, heaps
    >>> c = Claim("demo/wrong", game="nim", kind="char", family=heaps(2), bounds={"heap": 4},
    ...           statement=lambda g, s: s.heap[0] == 0, expect="refuted")
    >>> v = check_claim(c)
    >>> v.verdict, v.counterexample is not None
    ('refuted', True)
    """
    claim = claim.at(profile)
    solver = solver or Solver()
    v = Verdict(claim.id, claim.kind, UNKNOWN, claim.expect, paper=claim.paper, **claim.describe())
    lemmas, why = check_lemmas(claim, lambda c: check_claim(c, profile=profile, solver=solver, recheck=recheck))
    deadline = Deadline(timeout if timeout is not None else claim.timeout)
    log, before = SourceLog(), solver.log       # which value sources serve this claim
    solver.log = log
    ctx = Lemmas(claim, lemmas, solver.grundy)
    try:
        if why is not None:               # a lemma that is not a pass: the claim is not checked on it
            v.detail, v.scope = why, f"{claim.family.scope}: not checked"
        else:
            with active(ctx):
                _run(claim, profile, solver, deadline, progress, v, allow_empty,
                     CrossCheck(claim, recheck, tick=deadline.check))
            if v.verdict in (PROVED, VERIFIED, REFUTED):       # what it rests on, re-solved
                ctx.confirm(recheck, deadline.check)
            if v.verdict in (PROVED, VERIFIED) and ctx.text():
                v.scope += f"; {ctx.text()}"
    except LemmaGap as e:                 # a value no lemma covers: never a pass
        v.verdict, v.detail, v.scope = UNKNOWN, str(e), f"{claim.family.scope}: not decided"
    except Disagreement as e:             # the reference engine: never a pass, never a refutation
        v.verdict, v.detail, v.counterexample = ERROR, str(e), None
    except TimedOut:
        v.verdict = UNKNOWN
        v.detail = (v.detail + "; " if v.detail else "") + f"timed out after {deadline.end - deadline.start:g} s (CPU time)"
    except (SolverLimit, CycleError) as e:
        v.verdict, v.detail = ERROR, f"explicit solver: {e}"
    except (ClaimError, RuleError) as e:      # a wrong claim; a rule breaking its own contract (a move
        v.verdict, v.detail = ERROR, str(e) + _user_line(e, claim)   # that does not fit, a field out
                                                                     # of its domain): one line
    except UnsupportedOperator as e:      # a backend refusing an operator: its message says what to do
        v.verdict, v.detail = ERROR, f"claim {claim.id!r}: {e}"
    except Exception as e:  # a bug in a statement, a strategy or a backend: shown, not raised
        v.verdict, v.detail = ERROR, f"{type(e).__name__}: {e}{_user_line(e, claim)}"
    finally:
        solver.log = before
    served(v, log)
    v.seconds, v.cpu = deadline.wall(), deadline.clock() - deadline.start
    v.coverage["obligations"] = sum(o["status"] == "holds" for o in v.obligations)
    if v.verdict in (PROVED, VERIFIED) and kind_of(claim).gives_values:
        v.coverage["covered"] = record(claim, v, profile)     # what a claim using it may read
    return v


def _user_line(e: BaseException, claim: Claim) -> str:
    """`` (at FILE:LINE)`` in the user's file where the error was met (the statement's, the
    strategy's or the game's line), else the first line of the statement; ``""`` when the
    message names a place already."""
    if " (at " in str(e):
        return ""
    stmt = claim.statement
    while hasattr(stmt, "__wrapped__"):         # a decorated statement (functools.wraps): the user's own
        stmt = stmt.__wrapped__
    fn = getattr(stmt, "__code__", None)
    return user_line(e, (fn.co_filename, fn.co_firstlineno) if fn is not None else None)


def served(v: Verdict, log: SourceLog) -> None:
    """Put in the verdict which value sources answered (``coverage["sources"]``: what served ->
    on how many structures; a short phrase in the scope of a pass that used solved values) and
    the declarations of the game found violated where a source would have relied on them
    (``coverage["violated"]``: one line each; those sources were not used, the values are the
    moves' own)."""
    sources = log.summary()
    if sources:
        v.coverage["sources"] = sources
        if v.verdict in (VERIFIED, PROVED) and v.swept:
            v.scope += f"; {log.text()}"
    if log.violations:
        v.coverage["violated"] = list(log.violations)


def check_part(claim: Claim, start: int, stop: int, **kw: Any) -> tuple[Verdict, int]:
    """:func:`check_claim` on the structures ``start..stop-1`` of the claim's family only (one
    chunk of a parallel sweep, see :mod:`grundy.verify.schedule.chunks`): the verdict and the number
    of positions its explicit sweep checked (a chunk may check none: the merge decides).

    >>> from grundy.verify.claims import Claim
    >>> from grundy.verify.families import heaps
    >>> c = Claim("demo/nim", game="nim", kind="char", family=heaps(1, 2), bounds={"heap": 3},
    ...           statement=lambda g, s: s.heap[0] == s.heap[g.n - 1], expect="refuted")
    >>> check_claim(c).verdict                # false on one heap
    'refuted'
    >>> v, n = check_part(c, 1, 2)            # two heaps only: 16 positions, each evaluated
    >>> v.verdict, n
    ('verified', 16)
    """
    import copy

    from ..families import Family
    claim = claim.at(kw.get("profile", "quick"))
    part = copy.copy(claim)
    fam = claim.family
    part.family = (fam.part(start, stop) if hasattr(fam, "part")
                   else Family(fam.items()[start:stop], fam.scope))
    v = check_claim(part, allow_empty=True, **kw)
    return v, v.swept


def _refute(claim: Claim, v: Verdict, cex: Counterexample, cross: CrossCheck) -> None:
    """``refuted`` with ``cex``, once the reference engine has re-checked it (a Disagreement
    otherwise: the verdict is then ``error``)."""
    note = cross.confirm_counterexample(cex)
    v.verdict, v.counterexample = REFUTED, cex
    v.scope = _refuted_scope(claim, cex) + note
    v.coverage.update(cross.coverage())


def _run(claim: Claim, profile: str, solver: Solver, deadline: Deadline, progress: Progress,
         v: Verdict, allow_empty: bool = False, cross: CrossCheck | None = None) -> None:
    if claim.game != "sum" and claim.game not in GAMES:
        raise KeyError(f"unknown game {claim.game!r}")
    special = kind_of(claim).special_check
    if special is not None:               # the kind's own check (a period: the periodicity theorem)
        special(claim, v, profile, deadline.check, cross.mode if cross is not None else "sample")
        return
    if getattr(claim.family, "open", False):   # every size: the first members, then a reduction
        from .everyn import check_open
        mode = cross.mode if cross is not None else "sample"
        check_open(claim, profile, lambda c, w: _run(c, profile, solver, deadline, progress, w, allow_empty,
                                                    CrossCheck(c, mode, tick=deadline.check)), v, deadline)
        return
    cross = cross or CrossCheck(claim, tick=deadline.check)
    scopes: list[str] = []                 # what the explicit sweeps covered
    proofs: list[str] = []                 # what the Z3 proofs covered
    verdict = None
    cov = v.coverage
    for m in claim.methods:
        if isinstance(m, Explicit):
            bounds = claim.bounds_for(profile)
            if isinstance(claim.family, Positions):
                ex = sweep_listed(claim, solver, deadline, progress, cross, search=m.sums == "search")
            elif isinstance(m, Levelled):       # the values from the levelled solver
                ex = sweep_levelled(claim, m, bounds, solver, deadline, progress, cross)
            else:
                ex = sweep(claim, m, bounds, solver, deadline, progress, cross)
            cov["positions"] = cov.get("positions", 0) + ex.checked
            cov["structures"] = max(cov.get("structures", 0), ex.structures)
            if ex.cex is not None:
                _refute(claim, v, ex.cex, cross)
                return
            if not ex.complete:
                v.verdict, v.scope, v.detail = UNKNOWN, ex.text, "explicit sweep timed out"
                return
            if ex.checked == 0 and not allow_empty:
                v.verdict, v.detail = ERROR, ex.empty_reason(claim, bounds)
                v.scope = f"{where(claim.family.scope, _bounds_text(bounds), _conditions(claim))}: 0 positions"
                return
            scopes.append(ex.text)
            verdict = verdict or VERIFIED
        else:
            res = prove(claim, m, solver, deadline, progress)
            v.obligations += res.obligations
            cov["structures"] = max(cov.get("structures", 0), res.structures)
            if res.status == REFUTED:
                assert res.cex is not None           # a refutation carries its counterexample
                _refute(claim, v, res.cex, cross)
                return
            if res.status != PROVED:
                v.verdict, v.detail = res.status, res.detail
                v.scope = "; ".join(proofs + [f"{_smt_scope(claim, m)}: Z3 "
                                              + ("inconclusive" if res.status == UNKNOWN else "covers nothing")]
                                    + [f"explicit: {s}" for s in scopes])
                return
            if m.bits is None or not str(cov.get("smt", "")).startswith("all "):
                cov["smt"] = reach(claim, m)       # "all sizes" only where the family covers them
            proofs.append(_smt_scope(claim, m))
            verdict = PROVED
    v.verdict = verdict or UNKNOWN
    v.scope = "; ".join(proofs + [f"explicit: {s}" if proofs else s for s in scopes])
    if scopes:                             # a pass with a sweep: the reference engine re-solves a sample
        progress("reference engine: cross-check")
        cross.confirm_pass()
        v.scope += cross.pass_text()
        cov.update(cross.coverage())
