"""Explicit certificates: what a third party needs to re-check an explicit verdict without
grundy's solvers, and the stand-alone checker that does (docs/certificates.md).

:func:`write_explicit` writes ``explicit.json`` into a bundle directory: the game's rules on
every structure as data (:mod:`grundy.spec.export`), the statement's and ``assume``'s IR, the
positions checked with their values and outcomes (a sweep: the box it covered, its count and a
digest of the positions; above ``settings.sample_above`` positions a seeded sample), and the verdict.
:func:`run_checker` runs ``checker/grundy_check.py`` (standard library only, no grundy) on it in
a fresh process.

>>> import tempfile, pathlib
>>> from grundy.verify import Claim, check_claim
>>> from grundy.verify.families import heaps
>>> c = Claim("demo/bouton", game="nim", kind="char", family=heaps(2), bounds={"heap": 4},
...           statement=lambda g, s: (s.heap[0] ^ s.heap[1]) == 0)
>>> v = check_claim(c)
>>> d = pathlib.Path(tempfile.mkdtemp())
>>> write_explicit(d, c, v), run_checker(d)["status"]
(['explicit.json'], 'agreed')
"""
from __future__ import annotations

import itertools
import json
import math
import pathlib
import random
import resource
import signal
import subprocess
import sys
from typing import Any, Callable

from ...errors import GrundyError
from ...settings import current as settings
from ...solvers.explicit import compile_expr, compile_rules
from ...solvers.solver import Solver
from ...spec.export import FORMAT as RULES_FORMAT
from ...spec.export import NodeTable, export_heap_rule, export_rules, export_structure
from ...spec.expr import Expr, lift
from ...spec.game import Game
from ...spec.heaprule import HeapRule
from ...spec.position import Position, SumPosition
from ...spec.registry import GAMES
from ...spec.structure import Structure
from ..claims import Claim, Explicit
from ..families import Positions, TableStatement, slot_values
from ..families.open import OpenFamily
from ..kinds import kind_of
from ..verdict import PROVED, REFUTED, VERIFIED, Verdict
from .common import FORMAT, Unsupported, digest, with_game_digest
from .strategy import NOT_EXACT, STRATEGY_FAILS, strategy_extra, strategy_refuted
from .tree import proof_tree

__all__ = ["FORMAT", "write_explicit", "run_checker", "bundle_of",
           "checker_path"]

CHECKER_TIMEOUT = 600.0    # CPU seconds the stand-alone checker gets by default
WALL_FACTOR = 10           # ... and this many times as many seconds of wall-clock time
TREE_ROOTS = 20            # instances of at most this many outcome positions may get a proof tree (.tree)
State = tuple[int, ...]


class _Inst:
    """A claim on one structure: rules, statement, assume, values (grundy's solver)."""

    def __init__(self, claim: Claim, label: str, g: Structure, solver: Solver):
        self.claim, self.label, self.structure, self.solver = claim, label, g, solver
        self.game: Game = GAMES[claim.game]
        self.rules = self.game.rules(g)
        s = self.rules.state
        self.table = claim.statement if isinstance(claim.statement, TableStatement) else None
        try:
            self.expr: Expr | None = None if self.table is not None else lift(claim.statement(g, s))
        except RuntimeError as e:        # value_of outside a check: the statement reads other positions
            raise Unsupported(f"the statement cannot be built outside its check ({e})") from None
        self.assume_expr: Expr = lift(claim.assume(g, s)) if claim.assume else lift(True)
        self.assume: Callable[[State], Any] = compile_expr(self.rules, self.assume_expr)

    def position(self, state: State) -> Position:
        g, st = self.game.sized(self.structure, tuple(state))
        return Position(self.game, g, st, self.claim.convention)

    def boolean(self, state: State) -> bool:
        """Whether the claim states an outcome at ``state`` (then only outcomes are recorded)."""
        if self.table is not None:
            return self.table.claimed(state) in ("P", "N")
        return self.expr is not None and self.expr.sort == "bool"

    def record(self, state: State) -> dict[str, Any]:
        """The state and grundy's truth there: its outcome, and its value for a claim on values."""
        out: dict[str, Any] = {"state": list(state)}
        if self.boolean(state):
            out["outcome"] = self.solver.outcome(self.position(state))
        else:
            v = self.solver.grundy(self.position(state))
            out.update(value=v, outcome="N" if v else "P")
        if self.table is not None:
            out["claimed"] = self.table.claimed(state)
        return out

    def export(self, states: list[State], tree: bool = True, **extra: Any) -> dict[str, Any]:
        """The instance with ``states`` listed; ``tree``: a proof tree where one is worth writing (.tree)."""
        t = NodeTable()
        rules = export_rules(self.rules, t)
        heap_rule = export_heap_rule(self.game, self.structure, t)
        if heap_rule is None and self.claim.convention == "normal" and _splits_soon(self.rules, states):
            extra = {"split": True, **extra}   # the checker proves each split itself (docs/certificates.md)
        elif tree and heap_rule is None and 0 < len(states) <= TREE_ROOTS and all(map(self.boolean, states)):
            proof = proof_tree(self.rules, states, self.claim.convention)   # None: the checker searches
            extra = {"tree": proof, **extra} if proof is not None else extra
        return with_game_digest({
            "label": self.label, "structure": export_structure(self.structure), "rules": rules,
            "heap_rule": heap_rule,
            "statement": None if self.expr is None else t.add(self.expr), "assume": t.add(self.assume_expr),
            **strategy_extra(self.claim, self.rules, t),
            "nodes": t.nodes, "positions": [self.record(s) for s in states],
            "digest": digest([list(s) for s in states]), **extra})


def _splits_soon(rules: Any, states: list[State], first: int = 20, depth: int = 2, width: int = 200) -> bool:
    """Whether grundy's own decomposition splits one of the ``first`` listed positions, or a position
    up to ``depth`` moves below one (at most ``width`` of them per level): only then is the hint
    ``split`` worth its cost to the checker (a hint only: the checker proves every split itself)."""
    if rules.present is None:
        return False
    code = compile_rules(rules, symmetry=False)
    for s in states[:first]:
        level = [s]
        for d in range(depth + 1):
            if any(code.components(t) is not None for t in level):
                return True
            level = [n for t in level for _, _, n in code.options(t)][:width] if d < depth else []
    return False


def _sweep(claim: Claim, bounds: dict[str, Any], solver: Solver, seed: int) -> list[dict[str, Any]]:
    """Every structure of the family: the box swept, the positions in it where assume holds
    (a seeded sample when there are more than ``settings.sample_above`` in all)."""
    found = []
    for label, g in claim.family.items():
        inst = _Inst(claim, label, g, solver)
        box = slot_values(inst.rules, bounds)
        covered = [s for s in itertools.product(*box) if inst.assume(s)]
        if covered:
            found.append((inst, box, covered))
    total = sum(len(c) for _, _, c in found)
    out = []
    for inst, box, covered in found:
        sample = None
        if total > settings().sample_above:
            k = min(len(covered), max(1, round(settings().sample_size * len(covered) / total)))
            covered_all, covered = len(covered), sorted(random.Random(seed).sample(covered, k))
            sample = {"seed": seed, "k": k, "of": covered_all}
        out.append(inst.export(covered, box=box, count=sample["of"] if sample else len(covered),
                               sample=sample))
    return out


def _listed(claim: Claim, solver: Solver) -> list[dict[str, Any]]:
    """A family of listed positions: per structure, the positions where assume holds."""
    from ..check.listed import _listed_position
    fam = claim.family
    assert isinstance(fam, Positions)
    groups: dict[Structure, tuple[_Inst, list[State]]] = {}
    for label, item in fam.listed():
        pos = _listed_position(claim, item)
        if isinstance(pos, SumPosition):
            raise Unsupported("a claim on sums of positions (its statement is Python, not IR)")
        if pos.structure not in groups:
            groups[pos.structure] = (_Inst(claim, label or f"{pos.structure.kind} on {pos.structure.n}",
                                           pos.structure, solver), [])
        inst, states = groups[pos.structure]
        if inst.assume(pos.state):
            states.append(tuple(pos.state))
    return [inst.export(states, box=None, count=len(states), sample=None) for inst, states in groups.values()]


def _find(claim: Claim, verdict: Verdict, solver: Solver) -> tuple[_Inst, State]:
    """The structure and state of the verdict's counterexample."""
    c = verdict.counterexample
    assert c is not None
    origin = c.origin
    if origin is not None and origin[0] != "state":
        raise Unsupported(f"a refutation by a {origin[0]} (not a position the explicit solver solved)")
    if origin is not None:
        inst = origin[1]
        return _Inst(claim, inst.label, inst.structure, solver), tuple(origin[2])
    if isinstance(claim.family, Positions):
        from ..check.listed import _listed_position
        for label, item in claim.family.listed():
            pos = _listed_position(claim, item)
            if isinstance(pos, Position) and pos.to_json() == c.witness:
                return _Inst(claim, label or f"{pos.structure.kind} on {pos.structure.n}", pos.structure,
                             solver), tuple(pos.state)
    else:
        for label, g in claim.family.items():
            if label == c.structure:
                inst = _Inst(claim, label, g, solver)
                sch = inst.rules.schema
                vals = {k: (v if not isinstance(v, dict) else
                            [v[str(key)] for key in _keys(sch, k)]) for k, v in c.state.items()}
                return inst, sch.pack(vals)
    raise Unsupported(f"the counterexample's structure {c.structure!r} is not in the family")


def _keys(sch: Any, field: str) -> list[Any]:
    return [key for name, key in sch.slots if name == field]


def _refuted(claim: Claim, verdict: Verdict, solver: Solver) -> dict[str, Any]:
    c = verdict.counterexample
    if c is None:
        raise Unsupported("a refutation without a counterexample")
    if c.claimed == STRATEGY_FAILS or str(c.claimed).startswith(NOT_EXACT):
        return strategy_refuted(claim, verdict, solver, *_find(claim, verdict, solver))
    if isinstance(c.claimed, bool) or not (c.claimed in ("P", "N") or isinstance(c.claimed, int)):
        raise Unsupported(f"a refutation of the claim's strategy ({c.claimed}: {c.actual}): the bundle states "
                          f"values and outcomes, not strategies")
    if c.origin is not None and c.origin[0] == "certificate":
        return _certificate(claim, c.origin, solver)
    if c.how.startswith("a partition certificate") or isinstance(c.actual, str) and c.actual.startswith("unsolved"):
        raise Unsupported("a partition certificate whose move is not at hand (a verdict read back from "
                          "JSON); the SMT bundle states its obligation")
    inst, state = _find(claim, verdict, solver)
    out = inst.export([state], tree=False, box=None, count=1, sample=None)   # its options are searched
    rec = out["positions"][0]
    claimed: Any = rec.get("claimed")
    if inst.expr is not None:
        cv = compile_expr(inst.rules, inst.expr)(state)
        claimed = ("P" if cv else "N") if inst.expr.sort == "bool" else int(cv)
    actual = rec["outcome"] if claimed in ("P", "N") else rec["value"]
    followers = []
    if not isinstance(inst.game, HeapRule):        # a heap rule's followers: the checker's own search
        code = compile_rules(inst.rules, symmetry=False, decompose=False)
        followers = [{k: v for k, v in inst.record(nxt).items() if k != "claimed"} for _, _, nxt in code.options(state)]
    return {"instances": [out], "counterexample": {"instance": 0, "position": 0, "state": list(state),
                                                   "claimed": claimed, "actual": actual,
                                                   "followers": followers}}


def _certificate(claim: Claim, origin: tuple, solver: Solver) -> dict[str, Any]:
    """A refutation by a partition certificate, checked on the rule at one position (too large to
    solve): the position, the obligation, the move (PN, mex-equal) or the value (mex-below)."""
    _, found, state, obligation, move, _, _ = origin
    inst = _Inst(claim, found.label, found.structure, solver)
    out = inst.export([], box=None, count=0, sample=None)
    cert: dict[str, Any] = {"state": list(state), "obligation": obligation}
    if obligation in ("PN", "mex-equal"):
        cert["move"] = [move[0], list(move[1])]
    elif obligation == "mex-below":
        cert["value"] = move
    return {"instances": [out], "certificate": cert}


def _period(claim: Claim, verdict: Verdict) -> dict[str, Any]:
    from .period import period_bundle
    return period_bundle(claim, verdict)


def bundle_of(claim: Claim, verdict: Verdict, *, profile: str = "quick", solver: Solver | None = None,
              seed: int = 0) -> dict[str, Any]:
    """The content of ``explicit.json`` for ``verdict`` (``supported: False`` and the reason when
    it has no explicit certificate)."""
    head: dict[str, Any] = {
        "format": FORMAT, "rules_format": RULES_FORMAT,
        "claim": {"id": claim.id, "kind": claim.kind, "convention": claim.convention, "text": claim.text,
                  "game": {"name": claim.game, "summary": getattr(GAMES[claim.game], "summary", "")
                           if claim.game != "sum" else ""}},
        "verdict": {"verdict": verdict.verdict, "scope": verdict.scope, "positions": verdict.swept}}
    solver = solver or Solver()
    try:
        if claim.game == "sum":
            raise Unsupported("a claim on sums of positions (its statement is Python, not IR)")
        if claim.period is not None:                  # a period claim: the values and the theorem
            body = _period(claim, verdict)
        elif kind_of(claim).special_check is not None:
            raise Unsupported(f"a {claim.kind} claim is checked by its own check, not by a sweep")
        elif verdict.verdict == REFUTED:
            body = _refuted(claim, verdict, solver)
        elif verdict.verdict == VERIFIED or _swept_beside_a_proof(claim, verdict):
            body = {"instances": _swept(claim, verdict, profile, solver, seed)}
            if any(isinstance(m, Explicit) and m.samples for m in claim.methods):   # not listed
                head["verdict"]["random_positions"] = verdict.swept - sum(i["count"] for i in body["instances"])
        else:
            raise Unsupported(f"a {verdict.verdict} verdict has no explicit certificate")
    except Unsupported as e:
        return {**head, "supported": False, "reason": str(e)}
    except GrundyError as e:         # the positions could not be solved again (a limit, a broken game)
        return {**head, "supported": False, "reason": f"not written: {e}"}
    notes = []
    if verdict.verdict == PROVED and claim.period is None:
        notes.append("the verdict is a proof by Z3 (its obligations are in the SMT bundle); this bundle "
                     "re-checks the explicit sweep done beside it, within its bounds")
    if kind_of(claim).claims_strategy:
        notes.append("the strategy is in the bundle (its cases as IR): a refutation's line is replayed with "
                     "it; a sweep checks the claimed P-positions as a char claim")
    return {**head, "supported": True, "notes": notes, **body}


def _swept(claim: Claim, verdict: Verdict, profile: str, solver: Solver, seed: int) -> list[dict[str, Any]]:
    """The instances of a sweep (or of listed positions) as the verdict covered them: in
    ``profile``'s bounds and family, or in the other profile's where only those give the number
    of positions the verdict swept (a verdict does not say which profile checked it)."""
    if isinstance(claim.family, Positions):
        return _listed(claim, solver)
    first = None
    for p in dict.fromkeys([profile, "full" if profile == "quick" else "quick"]):
        c = claim.at(p)
        if isinstance(c.family, OpenFamily):    # its first members, the statement reading their counts
            from ..check.everyn import bounded_claim
            c = bounded_claim(c, c.family, c.family.for_profile(p))
        insts = _sweep(c, c.bounds_for(p), solver, seed)
        if sum(i["count"] for i in insts) == verdict.swept:
            return insts
        first = first or insts
    assert first is not None
    return first


def _swept_beside_a_proof(claim: Claim, verdict: Verdict) -> bool:
    """A proof by Z3 that an explicit sweep accompanied (its positions re-checked as a sweep's)."""
    return (verdict.verdict == PROVED and verdict.swept > 0
            and any(isinstance(m, Explicit) for m in claim.methods))


def write_explicit(bundle: pathlib.Path, claim: Claim, verdict: Verdict, *, profile: str = "quick",
                   solver: Solver | None = None, seed: int = 0) -> list[str]:
    """Write ``explicit.json`` for an explicit verdict (verified, or refuted by the explicit
    solver or by a partition certificate on the rule; a period claim; the explicit sweep beside
    a Z3 proof) into ``bundle``; the file names written. A verdict without an
    explicit certificate writes nothing (``[]``); one this format cannot state (sums, a
    partition certificate at an unsolvable position) writes the reason instead
    (``"supported": false``)."""
    if claim.period is None and verdict.verdict not in (VERIFIED, REFUTED) \
            and not _swept_beside_a_proof(claim, verdict):
        return []
    data = bundle_of(claim, verdict, profile=profile, solver=solver, seed=seed)
    bundle = pathlib.Path(bundle)
    bundle.mkdir(parents=True, exist_ok=True)
    (bundle / "explicit.json").write_text(json.dumps(data, separators=(",", ":")) + "\n", encoding="utf-8")
    return ["explicit.json"]


def _cpu_limit(seconds: int) -> None:
    """In the checker's process, before it starts: SIGXCPU after ``seconds`` of CPU time (SIGKILL one later)."""
    resource.setrlimit(resource.RLIMIT_CPU, (seconds, seconds + 1))


def checker_path() -> pathlib.Path | None:
    """``checker/grundy_check.py`` of the source tree grundy runs from (None when installed without it)."""
    here = pathlib.Path(__file__).resolve().parents[3] / "checker" / "grundy_check.py"
    return here if here.is_file() else None


def run_checker(bundle: pathlib.Path, timeout: float = CHECKER_TIMEOUT) -> dict[str, str]:
    """Run the stand-alone checker on ``bundle`` in a fresh process: ``{"status": "agreed" |
    "disagreed" | "skipped", "detail": ...}``. A bad bundle (exit 2) is a disagreement: grundy
    wrote it. ``timeout``: CPU seconds of the process (its own limit, so that a busy machine does
    not make a skip), and :data:`WALL_FACTOR` times as many seconds of wall-clock time."""
    path = checker_path()
    if path is None:
        return {"status": "skipped", "detail": "grundy is installed without its source tree: "
                                               "checker/grundy_check.py is not there"}
    f = pathlib.Path(bundle) / "explicit.json"
    if not f.is_file():
        return {"status": "skipped", "detail": f"no explicit.json in {bundle}"}
    try:
        head = json.loads(f.read_text(encoding="utf-8"))
    except ValueError as e:
        return {"status": "disagreed", "detail": f"bad bundle: {e}"}
    if head.get("supported") is False:
        return {"status": "skipped", "detail": f"no explicit certificate: {head.get('reason', '')}"}
    cpu = max(1, math.ceil(timeout))
    try:
        r = subprocess.run([sys.executable, str(path), str(bundle)], capture_output=True, text=True,
                           timeout=cpu * WALL_FACTOR, preexec_fn=lambda: _cpu_limit(cpu))
    except subprocess.TimeoutExpired:
        return {"status": "skipped", "detail": f"the checker did not finish within {cpu * WALL_FACTOR:g} s "
                                               f"of wall-clock time"}
    if r.returncode in (-signal.SIGXCPU, -signal.SIGKILL):
        return {"status": "skipped", "detail": f"the checker did not finish within {cpu} CPU s"}
    text = (r.stdout + r.stderr).strip()
    if r.returncode == 0:
        return {"status": "agreed", "detail": text}
    if r.returncode == 1:
        return {"status": "disagreed", "detail": text}
    return {"status": "disagreed", "detail": f"bad bundle (exit {r.returncode}): {text}"}
