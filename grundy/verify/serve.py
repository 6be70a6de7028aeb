"""Proved claims as value sources of a solver (``Claim(..., serves=True)``, ``grundy solve
--theorems PATH``).

:func:`serve` establishes each registered claim's verdict before its formula is used: read
from the content-keyed verdict cache when the claim is unchanged, else checked now (and
stored). Only a claim whose verdict is ``proved`` by Z3 (for all sizes, or below 2^k) is handed
to the solver's :class:`~grundy.solvers.theorems.TheoremSource`, one formula per structure of
its family, with its scope: the convention, the bit width, ``assume``. A claim that is not
proved is never used, and :func:`serve` says why.

>>> from grundy.solvers.solver import Solver
>>> from grundy.spec import read_position
>>> from grundy.spec.games.nim import nim_witnesses
>>> from grundy.verify import Claim, bitvec, heaps
>>> c = Claim("demo/nim-sum-2", game="nim", kind="grundy", family=heaps(2), bounds={"heap": 3},
...           statement=lambda g, s: s.heap[0] ^ s.heap[1], witnesses=nim_witnesses,
...           methods=["explicit", bitvec(32)], expect="proved", serves=True)
>>> s = Solver()
>>> [line for line in serve(s, [c], cache=False)]
['demo/nim-sum-2: proved (Z3 on 32-bit vectors): the solver answers by it']
>>> s.grundy(read_position({"game": "nim", "heaps": [1000000, 5]})), s.theorems.used
(1000005, {'by theorem demo/nim-sum-2, proved (Z3 on 32-bit vectors)': 1})
"""
from __future__ import annotations

from typing import Any, Iterable

from ..solvers.heaps import sum_of_heaps
from ..solvers.reference import Tape
from ..solvers.theorems import ProvedFormula
from ..spec.fingerprint import rules_digest
from ..spec.games import GAMES
from .claims import Claim
from .families import Positions
from .verdict import PROVED, Verdict

__all__ = ["serve"]


def _verdict(claim: Claim, cache: bool) -> Verdict:
    from .check import check_claim
    if not cache:
        return check_claim(claim)
    from .cache import VerdictCache
    return VerdictCache({"profile": "quick", "timeout": None}).verdict(claim, lambda: check_claim(claim))


def _formulas(claim: Claim, v: Verdict) -> list[ProvedFormula]:
    smt = v.coverage.get("smt", "")
    bits = None if smt == "all sizes" else int(smt.rsplit("^", 1)[1])
    how = "Z3, all sizes" if bits is None else f"Z3 on {bits}-bit vectors"
    game = GAMES[claim.game]
    out = []
    for _, g in claim.family.items():
        rules = game.rules(g)
        slots = rules.schema.slot_by_var
        tape = Tape([claim.statement(g, rules.state)], slots)
        inside = None
        if claim.assume is not None:
            atape = Tape([claim.assume(g, rules.state)], slots)
            inside = (lambda a: lambda st: bool(a.run(st)[0]))(atape)
        from .kinds import kind_of
        question = kind_of(claim).serves_as or ""    # "grundy": a Grundy value; "P": true at the P-positions
        per_heap = (question == "grundy" and g.n == 1 and claim.assume is None and claim.convention == "normal"
                    and sum_of_heaps(game, g) is not None)
        out.append(ProvedFormula(claim.id, claim.game, claim.convention, g, question, bits,
                                 (lambda t: lambda st: t.run(st)[0])(tape), inside, per_heap, how,
                                 rules_digest(rules)))
    return out


def serve(solver: Any, claims: Iterable[Claim], *, cache: bool = True) -> list[str]:
    """Register the claims marked ``serves=True`` with ``solver``, each once its verdict is
    ``proved`` (from the cache or checked now): one line per claim saying what was done."""
    lines = []
    for c in claims:
        if not c.serves:
            continue
        from .kinds import KINDS, kind_of
        if isinstance(c.family, Positions) or kind_of(c).serves_as is None:
            serving = " and ".join(k.name for k in KINDS.values() if k.serves_as)
            lines.append(f"{c.id}: not used (only {serving} claims on families of structures serve)")
            continue
        if getattr(c.family, "open", False):      # its statement reads counts or runs, not the state
            lines.append(f"{c.id}: not used (a claim on an open family does not serve the solver yet)")
            continue
        v = _verdict(c, cache)
        if v.verdict != PROVED or "smt" not in v.coverage:
            lines.append(f"{c.id}: not used: its verdict is {v.verdict}, not proved by Z3"
                         + (f" ({v.detail})" if v.detail else ""))
            continue
        fs = _formulas(c, v)
        solver.theorems.formulas.extend(fs)
        lines.append(f"{c.id}: proved ({fs[0].how if fs else ''}): the solver answers by it"
                     + (" (from the verdict cache)" if v.cache == "from the cache" else ""))
    return lines
