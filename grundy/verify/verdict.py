"""Verdicts: what checking a claim established, as data.

``proved`` (Z3, for all sizes in the stated scope, or below 2^k on k-bit vectors),
``verified`` (explicit, within the stated bounds), ``refuted`` (a counterexample, replayed by
the explicit solver, or a partition certificate checked on the rule), ``unknown`` (a timeout
or a solver ``unknown``: never a pass) and ``error`` (among others: a check that covers
nothing). Every verdict carries its :attr:`Verdict.coverage`: positions swept, structures,
obligations discharged.

>>> v = Verdict("demo/x", "char", "proved", expected="proved", scope="all heaps, 2 heaps")
>>> v.passed, v.to_json()["verdict"]
(True, 'proved')
>>> Verdict("demo/y", "char", "unknown", expected="proved").passed
False
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal, get_args

VerdictName = Literal["proved", "verified", "refuted", "unknown", "error"]
PROVED, VERIFIED, REFUTED, UNKNOWN, ERROR = get_args(VerdictName)
VERDICTS: tuple[VerdictName, ...] = get_args(VerdictName)



@dataclass
class Counterexample:
    """A position where the claim is false, with the claimed and the true value and a line
    of play that shows the truth (moves as ``{"move": label, "to": position}``)."""

    witness: dict
    claimed: Any
    actual: Any
    line: list[dict] = field(default_factory=list)
    structure: str = ""
    how: str = ""
    state: dict = field(default_factory=dict)   # every field's value at the witness (as checked)
    # where it was found, for the reference engine's cross-check (never written out): ("state",
    # instance, state), ("sum", instance, sum) or ("certificate", instance, state, obligation, ...)
    origin: Any = field(default=None, repr=False, compare=False)


@dataclass
class Verdict:
    """The result of one claim."""

    id: str
    kind: str
    verdict: str
    expected: str = PROVED
    scope: str = ""
    seconds: float = 0.0
    detail: str = ""
    paper: str = ""
    counterexample: Counterexample | None = None
    obligations: list[dict] = field(default_factory=list)   # SMT: structure, obligation, status, seconds
    coverage: dict = field(default_factory=dict)   # positions, structures, obligations (discharged), smt
    text: str = ""                       # what the claim says, in words (from the claim)
    source: str = ""                     # paper, result number, section
    reading: str = ""                    # how a damaged statement was read; why a finding is classed so
    finding: dict | None = None          # a refutation's class: {"kind", "label", "corrected"?}
    cache: str = ""                      # where it came from: "from the cache", "stored", "checked",
    #                                      "not cacheable: <why>" ("" when the cache is off)
    cpu: float = 0.0                     # CPU seconds of the check (what its time limit counts)
    facts: list = field(default_factory=list)   # what the claim's kind adds for reports: [label, text] pairs
    certificate: str = ""                # the bundle written for it (grundy verify --certificates)

    @property
    def swept(self) -> int:
        """Positions the explicit sweep checked."""
        return int(self.coverage.get("positions", 0))

    @property
    def passed(self) -> bool:
        """True iff the verdict is the expected one."""
        return self.verdict == self.expected

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"id": self.id, "kind": self.kind, "verdict": self.verdict,
                               "expected": self.expected, "passed": self.passed, "scope": self.scope,
                               "seconds": round(self.seconds, 3), "cpu_seconds": round(self.cpu, 3),
                               "paper": self.paper,
                               "text": self.text, "source": self.source, "reading": self.reading,
                               "finding": self.finding}
        if self.detail:
            out["detail"] = self.detail
        c = self.counterexample
        if c is not None:
            out.update(witness=c.witness, claimed=c.claimed, actual=c.actual, line=c.line,
                       structure=c.structure, how=c.how, state=c.state)
        if self.obligations:
            out["obligations"] = self.obligations
        out["coverage"] = self.coverage
        if self.cache:
            out["cache"] = self.cache
        if self.facts:
            out["facts"] = self.facts
        if self.certificate:
            out["certificate"] = self.certificate
        return out

    @staticmethod
    def from_json(d: dict[str, Any]) -> "Verdict":
        cex = None
        if "witness" in d:
            cex = Counterexample(d["witness"], d["claimed"], d["actual"], d.get("line", []),
                                 d.get("structure", ""), d.get("how", ""), d.get("state", {}))
        return Verdict(d["id"], d["kind"], d["verdict"], d["expected"], d.get("scope", ""),
                       d.get("seconds", 0.0), d.get("detail", ""), d.get("paper", ""), cex,
                       d.get("obligations", []), d.get("coverage", {}), d.get("text", ""),
                       d.get("source", ""), d.get("reading", ""), d.get("finding"), d.get("cache", ""),
                       d.get("cpu_seconds", 0.0), d.get("facts", []), d.get("certificate", ""))
