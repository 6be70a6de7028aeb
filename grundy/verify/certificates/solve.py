"""Solve one SMT-LIB 2 file with cvc5 or Bitwuzla and print the answer as one JSON line.

Run as a script in a fresh process (``python solve.py SOLVER FILE SECONDS``) by
:mod:`grundy.verify.certificates.recheck`: it imports no part of grundy and nothing of Z3, only
the second solver's Python package. The file's ``(check-sat)`` is answered once, within
``SECONDS`` of CPU time: the caller sets the process's CPU limit (the solvers' own limits count
wall-clock time, which on a busy machine is not the work done, so they are not set). The
line: ``{"result": "sat"|"unsat"|"unknown"|"error", "seconds": CPU seconds of the check,
"solver": name and version, "reason": why unknown or the error}``. The seconds are the calling
thread's CPU time (where the solvers compute): the process's CPU clock, once a CPU limit is set on
the process, only moves at the scheduler's ticks (milliseconds), too coarse for small queries.
"""
from __future__ import annotations

import json
import sys
import time

__all__ = ["solve", "SOLVERS"]

SOLVERS = ("cvc5", "bitwuzla")


def _commands(text: str) -> bool:
    """True when the script asks ``(check-sat)`` exactly once (what a certificate holds)."""
    return text.count("(check-sat)") == 1


def _cvc5(path: str, seconds: float) -> dict:
    import cvc5
    tm = cvc5.TermManager()
    s = cvc5.Solver(tm)        # no limit of its own (its clock is wall time): the process's CPU limit
    sm = cvc5.SymbolManager(tm)
    p = cvc5.InputParser(s, sm)
    p.setFileInput(cvc5.InputLanguage.SMT_LIB_2_6, path)
    while True:
        cmd = p.nextCommand()
        if cmd.isNull():
            break
        head = str(cmd).lstrip("(").split()[0].rstrip(")")
        if head in ("check-sat", "exit"):
            continue
        cmd.invoke(s, sm)
    t0 = time.thread_time()
    r = s.checkSat()
    took = time.thread_time() - t0
    if r.isSat():
        return {"result": "sat", "seconds": took}
    if r.isUnsat():
        return {"result": "unsat", "seconds": took}
    return {"result": "unknown", "seconds": took, "reason": str(r.getUnknownExplanation())}


def _bitwuzla(path: str, seconds: float) -> dict:
    import bitwuzla
    tm = bitwuzla.TermManager()
    opts = bitwuzla.Options()  # no limit of its own (its clock is wall time): the process's CPU limit
    p = bitwuzla.Parser(tm, opts)
    p.parse(path, True)                      # parse only: the one check-sat is asked below
    t0 = time.thread_time()
    r = p.bitwuzla().check_sat()
    took = time.thread_time() - t0
    name = {bitwuzla.Result.SAT: "sat", bitwuzla.Result.UNSAT: "unsat"}.get(r, "unknown")
    out = {"result": name, "seconds": took}
    if name == "unknown":
        out["reason"] = f"bitwuzla: {r}"
    return out


def _version(solver: str) -> str:
    if solver == "cvc5":
        import cvc5
        return f"cvc5 {getattr(cvc5, '__version__', '')}".strip()
    import bitwuzla
    return f"bitwuzla {bitwuzla.version()}"


def solve(solver: str, path: str, seconds: float) -> dict:
    """The answer of ``solver`` on the file at ``path`` (in this process)."""
    try:
        with open(path, encoding="utf-8") as f:
            if not _commands(f.read()):
                return {"result": "error", "seconds": 0.0, "solver": solver,
                        "reason": "the file does not ask (check-sat) exactly once"}
        out = (_cvc5 if solver == "cvc5" else _bitwuzla)(path, seconds)
        out["solver"] = _version(solver)
    except ImportError as e:
        return {"result": "error", "seconds": 0.0, "solver": solver, "reason": f"not installed: {e}"}
    except Exception as e:      # a parse error, a logic the solver does not support: said, not raised
        return {"result": "error", "seconds": 0.0, "solver": solver,
                "reason": f"{type(e).__name__}: {str(e).strip()[:300]}"}
    return out


if __name__ == "__main__":
    print(json.dumps(solve(sys.argv[1], sys.argv[2], float(sys.argv[3]))), flush=True)
