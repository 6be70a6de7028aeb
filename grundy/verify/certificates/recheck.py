"""Re-solving a bundle's SMT queries with a second solver (``grundy recheck``, ``--second-solver``).

Each ``smt/NNN.smt2`` is solved by a solver other than Z3 in a fresh process (the script
:mod:`.solve`, which imports neither grundy nor Z3) within a time limit: Bitwuzla for
bit-vector logics, cvc5 for integer arithmetic and quantifiers (and for bit-vectors when
Bitwuzla is missing). Each query then is

- ``agreed``: the second solver gives Z3's answer (``sat`` or ``unsat``);
- ``disagreed``: it gives the other one, or the file is not what was written (its SHA-256
  differs from ``smt/index.json``'s, its header's result differs from the index's, a file is
  missing): an error, never a pass;
- ``undecided``: no answer within the limit (said, with the time);
- ``not faithful``: the file uses an operator outside standard SMT-LIB (never agreement);
- ``z3 unknown``: Z3 gave no answer either (the verdict is not a pass anyway);
- ``error``: the second solver could not read the file or is not installed.

A bundle is ``disagreed`` if any query is (or the manifest's count or index digest is off, or the
stand-alone checker disagrees), else ``agreed`` if every query is agreed, else ``incomplete``.

>>> verdict_of(["agreed", "agreed"]), verdict_of(["agreed", "undecided"]), verdict_of(["disagreed", "agreed"])
('agreed', 'incomplete', 'disagreed')
"""
from __future__ import annotations

import hashlib
import json
import math
import resource
import statistics
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

from . import explicit

__all__ = ["SECONDS", "Outcome", "BundleResult", "second_solvers", "solve_file", "recheck_query", "recheck_bundle", "recheck_dir",
           "verdict_of", "ratios", "second_opinion"]

SECONDS = 60.0          # the second solver's limit per query (CPU seconds), by default
SCRIPT = Path(__file__).with_name("solve.py")


@dataclass
class Outcome:
    """One query re-solved."""

    file: str
    claim: str
    obligation: str
    z3: str
    z3_seconds: float
    result: str = ""          # the second solver's answer
    seconds: float = 0.0      # its CPU seconds
    solver: str = ""
    status: str = ""          # agreed | disagreed | undecided | not faithful | z3 unknown | error
    detail: str = ""
    reused: bool = False


@dataclass
class BundleResult:
    """One bundle re-checked."""

    bundle: str
    claim: str
    verdict: str
    status: str               # agreed | disagreed | incomplete
    outcomes: list[Outcome] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)    # the bundle's own (counts, digests): disagreed
    checker: dict = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)       # what it leaves unchecked: incomplete

    def to_json(self) -> dict:
        return {"bundle": self.bundle, "claim": self.claim, "verdict": self.verdict, "status": self.status,
                "problems": self.problems, "notes": self.notes, "checker": self.checker,
                "queries": [asdict(o) for o in self.outcomes]}


def second_solvers(logic: str) -> list[str]:
    """The solvers to try on a logic, in order (the first installed one answers)."""
    return ["bitwuzla", "cvc5"] if logic.endswith("BV") else ["cvc5"]


def _installed(solver: str) -> bool:
    from importlib.util import find_spec
    return find_spec(solver) is not None


def _limit(seconds: float):
    cpu = max(1, math.ceil(seconds))

    def set_limit() -> None:               # in the child, before it runs: SIGXCPU, then SIGKILL
        resource.setrlimit(resource.RLIMIT_CPU, (cpu, cpu + 5))
    return set_limit


def solve_file(solver: str, path: Path, seconds: float = SECONDS) -> dict:
    """``solver``'s answer on one file, in a fresh process limited to ``seconds`` of CPU time
    (rounded up to a whole second: the process's limit; a process that waits, not computing, is
    stopped after ten times as long in wall time)."""
    t0 = time.monotonic()
    wall = 10 * seconds + 60
    try:
        p = subprocess.run([sys.executable, "-I", str(SCRIPT), solver, str(path), repr(seconds)],
                           capture_output=True, text=True, timeout=wall, preexec_fn=_limit(seconds))
    except subprocess.TimeoutExpired:
        return {"result": "unknown", "seconds": time.monotonic() - t0, "solver": solver,
                "reason": f"no answer within {wall:g} s of wall time (the process was stopped)"}
    lines = [ln for ln in p.stdout.splitlines() if ln.startswith("{")]
    if p.returncode != 0 or not lines:
        if p.returncode < 0:             # killed: the CPU limit
            return {"result": "unknown", "seconds": float(max(1, math.ceil(seconds))), "solver": solver,
                    "reason": f"no answer within {max(1, math.ceil(seconds))} s of CPU time (the process was stopped)"}
        return {"result": "error", "seconds": 0.0, "solver": solver,
                "reason": f"exit status {p.returncode}: {(p.stderr or p.stdout).strip()[-300:]}"}
    return json.loads(lines[-1])


def _header_result(text: str) -> str | None:
    for ln in text.splitlines():
        if not ln.startswith(";"):
            break
        if ln.startswith("; z3 result: "):
            return ln[len("; z3 result: "):].split()[0]
    return None


def _compare(o: Outcome, answer: dict) -> None:
    o.result, o.seconds = answer.get("result", "error"), float(answer.get("seconds", 0.0))
    o.solver = answer.get("solver", o.solver)
    why = answer.get("reason", "")
    if o.result == "error":
        o.status, o.detail = "error", why
    elif o.z3 not in ("sat", "unsat"):
        o.status, o.detail = "z3 unknown", f"Z3: {o.z3}; {o.solver}: {o.result}"
    elif o.result == "unknown":
        o.status, o.detail = "undecided", f"{o.solver}: not decided ({why or 'unknown'}; {o.seconds:.1f} s)"
    elif o.result == o.z3:
        o.status = "agreed"
    else:
        o.status, o.detail = "disagreed", f"Z3 answered {o.z3}, {o.solver} answers {o.result}"


def recheck_query(bundle: Path, e: dict, seconds: float = SECONDS) -> Outcome:
    """Re-solve one query of a bundle (``e``: its entry in ``smt/index.json``)."""
    o = Outcome(e.get("file", "?"), e.get("claim", ""), f"{e.get('obligation', '')}: {e.get('what', '')}",
                str(e.get("z3", "")), float(e.get("z3_seconds", 0.0)), reused=bool(e.get("reused")))
    path = bundle / "smt" / o.file
    try:
        data = path.read_bytes()
    except OSError:
        o.status, o.detail = "disagreed", "the file is missing"
        return o
    if hashlib.sha256(data).hexdigest() != e.get("sha256"):
        o.status, o.detail = "disagreed", "the file differs from the one written (its SHA-256 is not the index's)"
        return o
    said = _header_result(data.decode("utf-8", "replace"))
    if said != o.z3:
        o.status, o.detail = "disagreed", f"the file's header says Z3 answered {said}, the index {o.z3}"
        return o
    if e.get("unfaithful"):
        o.status = "not faithful"
        o.detail = "uses operators outside standard SMT-LIB: " + ", ".join(e["unfaithful"])
        return o
    tried = [s for s in second_solvers(str(e.get("logic", ""))) if _installed(s)]
    if not tried:
        o.status, o.detail = "error", f"no second solver installed for {e.get('logic')} (pip install 'grundy[certify]')"
        return o
    o.solver = tried[0]
    _compare(o, solve_file(tried[0], path, seconds))
    return o


def _problems(bundle: Path, manifest: dict, index: list) -> list[str]:
    out = []
    smt = manifest.get("smt", {})
    if smt.get("queries") != len(index):
        out.append(f"the manifest counts {smt.get('queries')} queries, the index lists {len(index)}")
    try:
        if smt.get("index_sha256") != hashlib.sha256((bundle / "smt" / "index.json").read_bytes()).hexdigest():
            out.append("smt/index.json differs from the one written (its SHA-256 is not the manifest's)")
    except OSError:
        out.append("smt/index.json is missing")
    return out


def verdict_of(statuses: list[str], problems: bool = False) -> str:
    """A bundle's status from its queries' statuses."""
    if problems or any(s in ("disagreed", "error") for s in statuses):
        return "disagreed"
    return "agreed" if all(s == "agreed" for s in statuses) else "incomplete"


def recheck_bundle(bundle: Path, seconds: float = SECONDS, jobs: int = 1) -> BundleResult:
    """Re-solve every query of one bundle with a second solver, and run the stand-alone checker
    where the bundle holds an explicit part."""
    bundle = Path(bundle)
    try:
        manifest = json.loads((bundle / "manifest.json").read_text(encoding="utf-8"))
        index = json.loads((bundle / "smt" / "index.json").read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        return BundleResult(str(bundle), "?", "?", "disagreed", problems=[f"cannot read the bundle: {e}"])
    res = BundleResult(str(bundle), manifest.get("claim", "?"), manifest.get("verdict", "?"), "",
                       problems=_problems(bundle, manifest, index))
    if not manifest.get("complete", False):
        res.notes.append("incomplete bundle: " + "; ".join(manifest.get("gaps", [])))
    with ThreadPoolExecutor(max(1, jobs)) as pool:
        res.outcomes = list(pool.map(lambda e: recheck_query(bundle, e, seconds), index))
    if (bundle / "explicit.json").exists():
        # ---- the stand-alone checker of the explicit part (grundy.verify.certificates.explicit)
        res.checker = explicit.run_checker(bundle)
        if res.checker.get("status") == "skipped":
            res.notes.append(f"explicit part not checked: {res.checker.get('detail', '')}")
    elif not index:
        res.notes.append("nothing to re-check: no SMT query and no explicit part in the bundle")
    res.status = verdict_of([o.status for o in res.outcomes],
                            bool(res.problems) or res.checker.get("status") == "disagreed")
    if res.status == "agreed" and res.notes:
        res.status = "incomplete"
    return res


def recheck_dir(root: Path, seconds: float = SECONDS, jobs: int = 1) -> list[BundleResult]:
    """:func:`recheck_bundle` on every bundle under ``root`` (or ``root`` itself, a bundle)."""
    root = Path(root)
    if (root / "manifest.json").exists():
        return [recheck_bundle(root, seconds, jobs)]
    return [recheck_bundle(d, seconds, jobs) for d in sorted(root.iterdir()) if (d / "manifest.json").exists()]


def ratios(results: list[BundleResult]) -> dict:
    """Counts and the second solver's time against Z3's over the queries both answered (a query
    Z3 answered from an earlier identical one is left out of the ratios: its Z3 time is 0)."""
    outs = [o for r in results for o in r.outcomes]
    both = [o for o in outs if o.status == "agreed" and not o.reused]
    z3t, st = sum(o.z3_seconds for o in both), sum(o.seconds for o in both)
    per = [o.seconds / o.z3_seconds for o in both if o.z3_seconds > 0]
    counts: dict[str, int] = {}
    for o in outs:
        counts[o.status] = counts.get(o.status, 0) + 1
    by: dict[str, int] = {}
    for o in outs:
        if o.solver:
            by[o.solver] = by.get(o.solver, 0) + 1
    return {"queries": len(outs), "counts": counts, "solvers": by, "timed": len(both),
            "z3_seconds": z3t, "second_seconds": st, "total_ratio": st / z3t if z3t else None,
            "median_ratio": statistics.median(per) if per else None}


def second_opinion(v, res: BundleResult) -> None:
    """Put a bundle's re-check into its verdict (``grundy verify --second-solver``): a
    disagreement makes the verdict ``error``; otherwise ``coverage["second solver"]`` says how
    many queries the second solver agreed on and which it did not decide (with the time)."""
    from ..verdict import ERROR
    r = ratios([res])
    agreed = r["counts"].get("agreed", 0)
    said = f"{agreed} of {r['queries']} SMT queries agreed" if r["queries"] else "no SMT query to re-solve"
    left = [f"{o.file} {o.status} ({o.detail})" for o in res.outcomes if o.status not in ("agreed", "disagreed")]
    if left:
        said += "; " + "; ".join(left[:5]) + (f"; and {len(left) - 5} more" if len(left) > 5 else "")
    v.coverage["second solver"] = said
    if res.status == "disagreed":
        bad = [f"{o.file} [{o.obligation}]: {o.detail}" for o in res.outcomes if o.status in ("disagreed", "error")]
        bad += res.problems
        if res.checker.get("status") == "disagreed":
            bad.append(f"stand-alone checker: {res.checker.get('detail', '')}")
        v.detail = (v.detail + "; " if v.detail else "") + "second solver disagrees: " + "; ".join(bad[:3])
        v.verdict, v.counterexample = ERROR, None
