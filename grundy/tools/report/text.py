"""Verdicts in words: the terminal table's rows, the lines under it, a refutation's finding,
the fields a report shows of a claim, the per-paper summary and JUnit XML.

>>> from grundy.verify.verdict import Verdict
>>> vs = [Verdict("demo/a", "char", "proved", "proved", "all heaps, 2 heaps", 0.5, paper="demo",
...               coverage={"smt": "all sizes"}),
...       Verdict("demo/c", "char", "proved", "proved", "all heaps < 2^32", 0.5, paper="demo",
...               coverage={"smt": "below 2^32"}),
...       Verdict("demo/b", "char", "unknown", "proved", "", 9.0, "timed out", paper="demo")]
>>> print(summary(vs))
demo: 2 proved (1 for all sizes, 1 below 2^32), 0 verified, 0 refuted, 1 unknown, 0 error — 1 not as expected
>>> import xml.etree.ElementTree as ET
>>> root = ET.fromstring(junit(vs))
>>> [(t.get("name"), t.find("failure") is not None) for t in root.iter("testcase")]
[('demo/a', False), ('demo/c', False), ('demo/b', True)]
"""
from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from typing import Any, Iterable

from ...verify.kinds import kind_named
from ...verify.verdict import Verdict

__all__ = ["Interruption", "ORDER", "row", "header", "details", "summary", "junit", "fields", "kind_text",
           "finding_text", "findings_table", "obligations_text", "cache_text"]

ORDER = ("proved", "verified", "refuted", "unknown", "error")


@dataclass
class Interruption:
    """A run stopped by a signal after ``done`` of ``total`` claims; ``unfinished``: their ids.

    >>> Interruption(2, 5, ["a/x", "a/y", "a/z"]).lines()[0]
    'interrupted: 2 of 5 claims done'
    """

    done: int
    total: int
    unfinished: list[str] = field(default_factory=list)
    signal: str = "SIGINT"

    def lines(self) -> list[str]:
        return [f"interrupted: {self.done} of {self.total} claims done",
                "unfinished: " + (", ".join(self.unfinished) or "none")]

    def to_json(self) -> dict[str, Any]:
        return {"interrupted": True, "signal": self.signal, "done": self.done, "total": self.total,
                "unfinished": self.unfinished, "message": self.lines()[0]}


def row(v: Verdict, id_width: int = 34) -> str:
    """One line of the terminal table (the scope last, in full; ✗ marks an unexpected verdict)."""
    mark = "" if v.passed else f"  ✗ expected {v.expected}"
    return f"{v.id:<{id_width}} {v.kind:<8} {v.verdict:<9} {v.seconds:6.1f}s  {v.scope or v.detail}{mark}"


def header(id_width: int = 34) -> str:
    return f"{'claim':<{id_width}} {'kind':<8} {'verdict':<9} {'time':>7}  scope"


def details(v: Verdict) -> list[str]:
    """Lines shown under the table for a refuted, failing or erroneous claim, and for any claim
    whose game declares a property found violated (the solver did not use it)."""
    out = []
    if v.detail and (v.verdict in ("error", "unknown") or not v.passed):
        out.append(f"  {v.id}: {v.detail}")
    for line in v.coverage.get("violated", []):     # a declaration not used: the values are the moves'
        out.append(f"  {v.id}: declaration violated (not used): {line}")
    c = v.counterexample
    if c is not None:
        out.append(f"  {v.id}: counterexample on {c.structure} ({c.how})")
        if v.verdict == "refuted":
            out.append(f"    finding:  {finding_text(v)}")
        out.append(f"    position: {json.dumps(c.witness)}")
        if c.state:
            out.append(f"    state:    {json.dumps(c.state)}  (every field, as checked)")
        out.append(f"    claimed:  {c.claimed}")
        out.append(f"    actual:   {c.actual}")
        for m in c.line[:12]:
            out.append(f"    {m['move']:<28} -> {json.dumps({k: x for k, x in m['to'].items() if k != 'game'})}")
        if len(c.line) > 12:
            out.append(f"    … {len(c.line) - 12} more moves")
    return out


def obligations_text(v: Verdict) -> str:
    """The Z3 obligations of a verdict in one line: how many, by status, and their total time.

    >>> obligations_text(Verdict("demo/a", "char", "proved", obligations=[
    ...     {"obligation": "T", "status": "holds", "seconds": 0.25},
    ...     {"obligation": "PN", "status": "holds", "seconds": 0.5}]))
    '2 obligations (T, PN): 2 hold, 0.8 s'
    """
    obs = v.obligations
    if not obs:
        return ""
    names = list(dict.fromkeys(str(o.get("obligation", "?")) for o in obs))
    counts: dict[str, int] = {}
    for o in obs:
        counts[str(o.get("status", "?"))] = counts.get(str(o.get("status", "?")), 0) + 1
    status = ", ".join(f"{n} {'hold' if k == 'holds' else k}" for k, n in counts.items())
    secs = sum(float(o.get("seconds", 0.0)) for o in obs)
    return f"{len(obs)} obligation{'s' if len(obs) != 1 else ''} ({', '.join(names)}): {status}, {secs:.1f} s"


def finding_text(v: Verdict, verdict_of: dict[str, str] | None = None) -> str:
    """A refutation's class in words, with the corrected (or restored) claim and its verdict in
    this run (``verdict_of``: id -> verdict; None: no verdict shown); "unclassified" for a refuted
    claim without one.

    >>> v = Verdict("demo/a", "char", "refuted", "refuted", finding={
    ...     "kind": "paper-error", "label": "error in the paper", "corrected": "demo/a-fixed"})
    >>> finding_text(v, {"demo/a-fixed": "proved"})
    'error in the paper; corrected statement: demo/a-fixed (proved)'
    >>> finding_text(v)
    'error in the paper; corrected statement: demo/a-fixed'
    >>> finding_text(Verdict("demo/b", "char", "refuted", "refuted"))
    'unclassified'
    """
    f = v.finding
    if not f:
        return "unclassified" if v.verdict == "refuted" else ""
    out = str(f.get("label", f.get("kind", "")))
    other = f.get("corrected")
    if other:
        what = {"lost-hypothesis": "restored statement", "degenerate": "without the degenerate instances"
                }.get(str(f.get("kind")), "corrected statement")
        out += f"; {what}: {other}" + ("" if verdict_of is None else f" ({verdict_of.get(other, 'not run')})")
    return out


def fields(v: Verdict, verdict_of: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """What a report shows of one claim, as (label, text) pairs, empty ones left out: the
    statement, its source and reading, the finding, then the verdict's kind and the facts its
    kind adds (a period claimed, an exact strategy: :mod:`grundy.verify.kinds`), scope (what the
    check covered), time, coverage (positions, structures, obligations), obligations, detail and
    where the verdict came from (the verdict cache), and its certificate bundle."""
    rows = [("statement", v.text), ("source", v.source), ("reading", v.reading),
            ("finding", finding_text(v, verdict_of) if (v.finding or v.verdict == "refuted") else ""),
            ("kind", kind_text(v.kind)), *[(str(k), str(x)) for k, x in v.facts],
            ("scope", v.scope), ("time", f"{v.seconds:.1f} s"),
            ("coverage", ", ".join(f"{k} {x}" for k, x in v.coverage.items())),
            ("obligations", obligations_text(v)), ("detail", v.detail), ("verdict from", cache_text(v)),
            ("certificate", getattr(v, "certificate", ""))]
    return [(k, x) for k, x in rows if x]


def kind_text(name: str) -> str:
    """A claim's kind with what such a claim states (the kind's own wording), where the kind is
    registered in this process.

    >>> kind_text("char"), kind_text("someone-elses")
    ('char: a characterization: true exactly at the P-positions', 'someone-elses')
    """
    kind = kind_named(name)
    return f"{name}: {kind.says}" if kind is not None else name


def cache_text(v: Verdict) -> str:
    """Where a verdict came from, in words ("" when the run did not use the verdict cache).

    >>> print(cache_text(Verdict("a", "char", "verified", cache="from the cache")))
    the verdict cache (checked on an earlier run, on the same rules, statement and bounds; the time is that run's)
    >>> cache_text(Verdict("a", "char", "verified", cache="not cacheable: a family of sums"))
    'this run (not cacheable: a family of sums)'
    """
    if not v.cache:
        return ""
    if v.cache == "from the cache":
        return ("the verdict cache (checked on an earlier run, on the same rules, statement and bounds; "
                "the time is that run's)")
    return "this run" + {"stored": " (stored in the verdict cache)", "checked": ""}.get(v.cache, f" ({v.cache})")


def findings_table(verdicts: list[Verdict]) -> list[tuple[str, str]]:
    """Every refuted claim (or claim with a finding) and its classification, in claim order."""
    verdict_of = {v.id: v.verdict for v in verdicts}
    return [(v.id, finding_text(v, verdict_of)) for v in verdicts if v.verdict == "refuted" or v.finding]


def summary(verdicts: Iterable[Verdict]) -> str:
    """One line per paper: counts of each verdict, and how many differ from the expectation."""
    by: dict[str, list[Verdict]] = {}
    for v in verdicts:
        by.setdefault(v.paper or v.id.split("/")[0], []).append(v)
    lines = []
    for paper, vs in by.items():
        counts = ", ".join(f"{sum(v.verdict == k for v in vs)} {k}" + (_proved_how(vs) if k == "proved" else "")
                           for k in ORDER)
        bad = sum(not v.passed for v in vs)
        lines.append(f"{paper}: {counts} — " + (f"{bad} not as expected" if bad else "all as expected"))
    return "\n".join(lines)


_ON_N = re.compile(r"all (.+) on (\d+) structures?")


def _proved_how(vs: list[Verdict]) -> str:
    """How far the proofs reach: "(2 for all sizes, 1 below 2^32)" (empty with no proof)."""
    how: dict[str, int] = {}
    finite: dict[str, list[int]] = {}          # "all weights on N structures": grouped by what, N ranged
    for v in vs:
        if v.verdict == "proved":
            k = v.coverage.get("smt", "scope not recorded")
            m = _ON_N.fullmatch(k)
            if m:
                finite.setdefault(m.group(1), []).append(int(m.group(2)))
                continue
            how[k] = how.get(k, 0) + 1
    for what, ns in finite.items():
        lo, hi = min(ns), max(ns)
        span = f"{lo}" if lo == hi else f"{lo} to {hi}"
        how[f"all {what} on {span} structure{'s' * (hi != 1)}"] = len(ns)
    if not how:
        return ""
    keys = sorted(how, key=lambda k: (k != "all sizes", len(k), k))
    return " (" + ", ".join(f"{how[k]} {'for ' if k.startswith('all ') else ''}{k}" for k in keys) + ")"


def junit(verdicts: Iterable[Verdict], interrupted: Interruption | None = None) -> str:
    """JUnit XML: one testsuite per paper, one testcase per claim, failing iff verdict != expected.
    An interrupted run adds a testsuite "interrupted" whose skipped testcases are the unfinished
    claims, its system-out the line "interrupted: k of n claims done"."""
    root = ET.Element("testsuites", name="grundy verify")
    by: dict[str, list[Verdict]] = {}
    for v in verdicts:
        by.setdefault(v.paper or v.id.split("/")[0], []).append(v)
    for paper, vs in by.items():
        suite = ET.SubElement(root, "testsuite", name=paper, tests=str(len(vs)),
                              failures=str(sum(not v.passed for v in vs)), errors="0",
                              time=f"{sum(v.seconds for v in vs):.3f}")
        for v in vs:
            case = ET.SubElement(suite, "testcase", classname=paper, name=v.id, time=f"{v.seconds:.3f}")
            text = "\n".join([f"{k}: {x}" for k, x in fields(v) if k in ("statement", "source", "finding")]
                             + [f"verdict: {v.verdict}", f"scope: {v.scope}"] + details(v))
            if not v.passed:
                f = ET.SubElement(case, "failure", message=f"{v.verdict}, expected {v.expected}",
                                  type=v.verdict)
                f.text = text
            else:
                ET.SubElement(case, "system-out").text = text
    if interrupted is not None:
        suite = ET.SubElement(root, "testsuite", name="interrupted", tests=str(len(interrupted.unfinished)),
                              failures="0", errors="0", skipped=str(len(interrupted.unfinished)))
        for cid in interrupted.unfinished:
            case = ET.SubElement(suite, "testcase", classname=cid.split("/")[0], name=cid)
            ET.SubElement(case, "skipped", message=f"not finished: the run was interrupted ({interrupted.signal})")
        ET.SubElement(suite, "system-out").text = "\n".join(interrupted.lines())
    return ET.tostring(root, encoding="unicode")
