"""A claim's certificate bundle: what a third party needs to re-check its verdict without grundy's solvers.

``grundy verify ... --certificates DIR`` writes, for each claim, a directory
``DIR/<claim-id>-<digest16>/`` named by the verdict's content digest (:func:`verdict_digest`):

- ``manifest.json``: the claim, its verdict (as ``--json`` gives it), scope, digest, the versions
  of grundy, Z3 and Python, the files, and ``complete`` with the ``gaps`` when something the
  verdict rests on is not in the bundle (never a silent gap);
- ``smt/NNN.smt2``: every SMT query Z3 was asked for the claim (lemmas' proofs included), as a
  self-contained SMT-LIB 2 script, its header comment naming the claim, structure, obligation,
  Z3's answer, seconds and version; ``smt/index.json`` lists them with the SHA-256 of each file;
- whatever the explicit part writes (:mod:`.explicit`: the explicit sweep as data).

``sat`` of a query is a violation Z3 found (a refutation then rests on its replay on the rule,
not on Z3); ``unsat`` is an obligation that holds. What a bundle does *not* hold: the step from
the claim to its queries (grundy's encoding of the rules and the statement), and the Z3
proofs of the explicit solver's premises (its shortcuts): ``manifest.json`` says so.

>>> from grundy.verify.verdict import Verdict
>>> a = Verdict("demo/x", "char", "proved", scope="all heaps", seconds=1.0)
>>> b = Verdict("demo/x", "char", "proved", scope="all heaps", seconds=2.5, cache="stored")
>>> verdict_digest(a) == verdict_digest(b), bundle_name(a)[:7], len(bundle_name(a))
(True, 'demo_x-', 23)
"""
from __future__ import annotations

import hashlib
import json
import re
import shutil
import sys
from pathlib import Path
from typing import Any, Callable

from ...solvers.smt.capture import Capture, Query, capturing
from ..claims import Claim
from ..verdict import Verdict
from . import explicit

__all__ = ["FORMAT", "NOT_INCLUDED", "bundle_name", "certify", "sha256", "verdict_digest", "write_bundle"]

FORMAT = 1
NOT_INCLUDED = [
    "the translation of the claim into these SMT queries (grundy's encoding of the rules, the "
    "statement and the obligations: docs/soundness.md says why each obligation is needed)",
    "the Z3 proofs of the explicit solver's premises (the shortcuts it takes: symmetry, "
    "components, decomposition), which are cached by grundy and not asked here",
]
_TIMES = ("seconds", "cpu_seconds", "cache", "certificate")


def verdict_digest(v: Verdict) -> str:
    """SHA-256 of the verdict's JSON without its times, cache origin and certificate path."""
    d = {k: x for k, x in v.to_json().items() if k not in _TIMES}
    d["obligations"] = [{k: x for k, x in o.items() if k != "seconds"} for o in d.get("obligations", [])]
    return hashlib.sha256(json.dumps(d, sort_keys=True, default=str).encode()).hexdigest()


def bundle_name(v: Verdict) -> str:
    """The bundle's directory name: the claim id made safe for a file name, and 16 hex digits of
    :func:`verdict_digest`."""
    safe = re.sub(r"[^A-Za-z0-9._-]+", "_", v.id).strip("_.")[:80] or "claim"
    return f"{safe}-{verdict_digest(v)[:16]}"


def sha256(path: Path) -> str:
    """The SHA-256 of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _versions() -> dict[str, str]:
    import z3

    from ..._version import __version__
    return {"grundy": __version__, "z3": z3.get_version_string(), "python": sys.version.split()[0]}


def _meaning(q: Query) -> str:
    """What Z3's answer means for the claim."""
    if q.obligation == "nonempty":
        return {"sat": " (some position satisfies assume)",
                "unsat": " (no position satisfies assume: the structure is not counted)"}.get(q.result, "")
    return {"unsat": " (no violation: this query of the obligation holds)",
            "sat": " (a violation: grundy checks it on the rule before it refutes)"}.get(q.result, "")


def _header(q: Query, z3_version: str) -> list[str]:
    lines = ["grundy certificate: one SMT query (set-logic, declarations, assertions, check-sat)",
             f"claim: {q.claim}", f"structure: {q.structure}", f"obligation: {q.obligation}: {q.what}",
             f"logic: {q.logic}",
             f"z3 result: {q.result}" + _meaning(q),
             f"z3 seconds: {q.seconds:.4f} (CPU){' (answered from an earlier identical query)' if q.reused else ''}",
             f"z3 solver: {q.solver}", f"z3 version: {z3_version}"]
    if q.unfaithful:
        lines.append("NOT FAITHFUL: uses operators outside standard SMT-LIB (" + ", ".join(q.unfaithful)
                     + "): a second solver's answer on this file is not agreement")
    return lines


def write_bundle(root: Path, v: Verdict, cap: Capture | None, claim: Claim | None = None,
                 gaps: list[str] | None = None) -> Path:
    """Write the bundle of ``v`` (its SMT queries from ``cap``) under ``root``; its path.
    ``cap=None``: the queries were not captured (a gap the manifest names)."""
    versions = _versions()
    digest = verdict_digest(v)
    d = Path(root) / bundle_name(v)
    if d.exists():
        shutil.rmtree(d)                     # the same verdict again: written afresh
    (d / "smt").mkdir(parents=True)
    gaps = list(gaps or [])
    if cap is None:
        gaps.append("the SMT queries of this verdict were not captured")
    index: list[dict[str, Any]] = []
    for n, q in enumerate(cap.queries if cap is not None else [], 1):
        name = f"{n:03d}.smt2"
        text = "".join(f"; {ln}\n" for ln in _header(q, versions["z3"])) + q.text
        (d / "smt" / name).write_text(text, encoding="utf-8")
        index.append({"file": name, "claim": q.claim, "structure": q.structure, "obligation": q.obligation,
                      "what": q.what, "logic": q.logic, "z3": q.result, "z3_seconds": round(q.seconds, 6),
                      "z3_solver": q.solver, "reused": q.reused, "unfaithful": q.unfaithful,
                      "sha256": hashlib.sha256(text.encode()).hexdigest()})
    (d / "smt" / "index.json").write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")
    files = [f"smt/{e['file']}" for e in index] + ["smt/index.json"]
    if claim is not None:
        # ---- the explicit part: written by grundy.verify.certificates.explicit (the explicit sweep as data)
        files += explicit.write_explicit(d, claim, v)
    elif v.swept:
        gaps.append("the explicit part: the claim was not at hand where the bundle was written")
    manifest = {"format": FORMAT, "claim": v.id, "verdict": v.verdict, "scope": v.scope, "digest": digest,
                "versions": versions, "files": files,
                "smt": {"queries": len(index), "index_sha256": sha256(d / "smt" / "index.json"),
                        "results": {r: sum(e["z3"] == r for e in index) for r in ("unsat", "sat", "unknown")}},
                "complete": not gaps, "gaps": gaps, "not_included": NOT_INCLUDED,
                "verdict_json": {k: x for k, x in v.to_json().items() if k != "certificate"}}
    (d / "manifest.json").write_text(json.dumps(manifest, indent=1, default=str) + "\n", encoding="utf-8")
    return d


def certify(claim: Claim, check: Callable[[], Verdict], root: str | Path,
            cached: Callable[[Claim, Callable[[], Verdict]], Verdict] | None = None) -> Verdict:
    """``check()`` with its SMT queries captured, then the claim's bundle written under ``root``
    (:attr:`Verdict.certificate` is its path). ``cached(claim, check)``: a verdict cache that
    stores the fresh verdict (it is never read here: a stored verdict has no queries)."""
    with capturing(claim.id) as cap:
        v = check() if cached is None else cached(claim, check)
    try:
        v.certificate = str(write_bundle(Path(root), v, cap, claim))
    except OSError as e:
        v.detail = (v.detail + "; " if v.detail else "") + f"certificate not written: {e}"
    return v
