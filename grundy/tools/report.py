"""Presenting verdicts: a terminal table, JSON lines, JUnit XML, and a Markdown or HTML report
with a picture of every counterexample (matplotlib, optional: ``pip install grundy[report]``).

The HTML report is one self-contained file: pictures are inline SVG, the style sheet and the
small script that filters the index by paper and verdict are inline; nothing is fetched, so
it opens offline and survives being moved or mailed. An interrupted run's report, JUnit and
JSON say so ("interrupted: k of n claims done") and list the unfinished claims.

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

import html
import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Iterable

from ..verify.verdict import Verdict

__all__ = ["Interruption", "row", "header", "details", "summary", "junit", "write_report", "html_report",
           "markdown_report", "draw", "fields", "finding_text", "findings_table", "obligations_text"]

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
    statement, its source and reading, the finding, then the verdict's kind, scope (what the
    check covered), time, coverage (positions, structures, obligations), obligations, detail and
    where the verdict came from (the verdict cache)."""
    rows = [("statement", v.text), ("source", v.source), ("reading", v.reading),
            ("finding", finding_text(v, verdict_of) if (v.finding or v.verdict == "refuted") else ""),
            ("kind", v.kind), ("scope", v.scope), ("time", f"{v.seconds:.1f} s"),
            ("coverage", ", ".join(f"{k} {x}" for k, x in v.coverage.items())),
            ("obligations", obligations_text(v)), ("detail", v.detail), ("verdict from", cache_text(v))]
    return [(k, x) for k, x in rows if x]


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


def _proved_how(vs: list[Verdict]) -> str:
    """How far the proofs reach: "(2 for all sizes, 1 below 2^32)" (empty with no proof)."""
    how: dict[str, int] = {}
    for v in vs:
        if v.verdict == "proved":
            k = v.coverage.get("smt", "scope not recorded")
            how[k] = how.get(k, 0) + 1
    if not how:
        return ""
    keys = sorted(how, key=lambda k: (k != "all sizes", len(k), k))
    return " (" + ", ".join(f"{how[k]} {'for ' if k == 'all sizes' else ''}{k}" for k in keys) + ")"


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



# ------------------------------------------------------------------------------- reports
_TEXT_KEYS = ("text", "statement")


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9.-]+", "-", text).strip("-")


def _anchor(heading: str) -> str:
    """The anchor Markdown renderers (GitHub's, GitLab's) give a heading."""
    return re.sub(r"[^\w\- ]", "", heading.lower()).replace(" ", "-")


def _text(v: Verdict) -> str:
    """The claim's statement in words, when the verdict carries one."""
    return str(getattr(v, "text", "") or "")


def _first_mover_wins(v: Verdict) -> bool | None:
    """Whether the player to move at the counterexample wins (the line's title says so)."""
    c = v.counterexample
    if c is None:
        return None
    if c.actual in ("N", "P"):
        return c.actual == "N"
    if isinstance(c.actual, int) and not isinstance(c.actual, bool) and v.kind == "grundy":
        return c.actual != 0
    try:
        from ..solvers.explicit import DEFAULT
        from ..spec.position import read_position
        return DEFAULT.outcome(read_position(c.witness)) == "N"
    except Exception:                       # a position the solver cannot answer: say nothing
        return None


def _line_title(wins: bool | None) -> str:
    if wins is True:
        return "Winning line (the first mover wins whatever the reply)"
    if wins is False:
        return "A losing line: every move of the first mover is answered"
    return "A line of play"


def _moves(c) -> list[str]:
    return [f"{m['move']} → {json.dumps({k: x for k, x in m['to'].items() if k != 'game'})}" for m in c.line]


def _facts(v: Verdict, verdict_of: dict[str, str] | None = None) -> list[tuple[str, str]]:
    """The verdict and paper, then what :func:`fields` shows of the claim."""
    return [("verdict", v.verdict + ("" if v.passed else f" (expected {v.expected})")),
            ("paper", v.paper or v.id.split("/")[0])] + fields(v, verdict_of)


def _prefix_ids(svg: str, prefix: str) -> str:
    """Make the ids inside one inline SVG unique in the page."""
    return re.sub(r'(id="|url\(#|href="#)([^")]+)', lambda m: m.group(1) + prefix + m.group(2), svg)


def _pictures(v: Verdict) -> tuple[str | None, str | None]:
    from . import pictures
    c = v.counterexample
    if c is None or not pictures.available() or "parts" in c.witness:   # a sum: its JSON only
        return None, None
    pic = pictures.position_svg(c.witness, title=f"counterexample to {v.id}")
    strip = pictures.line_svg(c.witness, c.line, _first_mover_wins(v)) if c.line else None
    return pic, strip


def draw(position: dict, path: Path) -> bool:
    """Write an SVG (or, for a .png path, PNG) picture of a position; False without matplotlib."""
    from . import pictures
    if not pictures.available():
        return False
    if "parts" in position:                  # a sum of positions: its JSON is shown, no picture
        return False
    path = Path(path)
    if path.suffix.lower() == ".png":
        path.write_bytes(pictures.position_svg(position, fmt="png"))
    else:
        path.write_text(pictures.position_svg(position), encoding="utf-8")
    return True


def markdown_report(verdicts: list[Verdict], out: Path, interrupted: Interruption | None = None) -> tuple[str, list[str]]:
    """The Markdown text of a report; pictures are written beside ``out`` as SVG files."""
    parts = ["# grundy verify\n", "```\n" + summary(verdicts) + "\n```\n"]
    notes: list[str] = []
    if interrupted is not None:
        parts.append("**" + interrupted.lines()[0] + "**  \n" + interrupted.lines()[1] + "\n")
    verdict_of = {v.id: v.verdict for v in verdicts}
    found = findings_table(verdicts)
    if found:
        parts.append("## Findings\n\n| claim | classification |\n|---|---|\n"
                     + "\n".join(f"| {i} | {t} |" for i, t in found) + "\n")
    parts.append("## Index\n\n| claim | paper | verdict | time | statement |\n|---|---|---|---|---|")
    for v in verdicts:
        cell = _text(v).replace("|", "\\|").replace("\n", " ")
        parts.append(f"| [{v.id}](#{_anchor(v.id + ': ' + v.verdict)}) | {v.paper} | {v.verdict}"
                     f"{'' if v.passed else ' ✗'} | {v.seconds:.1f} s | {cell} |")
    parts.append("")
    for v in verdicts:
        head = f"{v.id}: {v.verdict}" + ("" if v.passed else f" (expected {v.expected})")
        parts.append(f"## {head}\n\n" + "\n".join(f"- {a}: {b}" for a, b in _facts(v, verdict_of)) + "\n")
        c = v.counterexample
        if c is None:
            continue
        parts.append("\n".join(f"- {x}" for x in (f"counterexample on {c.structure} ({c.how})",
                                                   f"position: {json.dumps(c.witness)}",
                                                   f"state (every field, as checked): {json.dumps(c.state)}"
                                                   if c.state else "",
                                                   f"claimed: {c.claimed}", f"actual: {c.actual}") if x) + "\n")
        pic, strip = _pictures(v)
        if pic is None and not notes:
            notes.append("matplotlib is not installed: no pictures (pip install 'grundy[report]')")
        if pic:
            name = out.with_name(f"{out.stem}-{_slug(v.id)}.svg")
            name.write_text(pic, encoding="utf-8")
            parts.append(f"![counterexample to {v.id}]({name.name})\n")
        if c.line:
            parts.append(_line_title(_first_mover_wins(v)) + ":\n\n"
                         + "\n".join(f"{i + 1}. `{m}`" for i, m in enumerate(_moves(c))) + "\n")
            if strip:
                name = out.with_name(f"{out.stem}-{_slug(v.id)}-line.svg")
                name.write_text(strip, encoding="utf-8")
                parts.append(f"![line of play for {v.id}]({name.name})\n")
    return "\n".join(parts), notes


_CSS = """
:root { --ok: #1e7e34; --bad: #b02a37; --muted: #5f6b76; --line: #d8dee4; }
* { box-sizing: border-box; }
body { font: 15px/1.5 system-ui, -apple-system, "Segoe UI", "DejaVu Sans", sans-serif; color: #1f2328;
       max-width: 1100px; margin: 0 auto; padding: 1.5em; }
h1 { margin-bottom: 0.2em; } h2 { border-bottom: 1px solid var(--line); padding-bottom: 0.2em; margin-top: 2em; }
.meta, .muted { color: var(--muted); }
pre { background: #f6f8fa; padding: 0.8em; border-radius: 6px; overflow-x: auto; }
.banner { background: #fff3cd; border: 1px solid #e0c36a; padding: 0.7em 1em; border-radius: 6px; }
.filters { display: flex; gap: 1.2em; align-items: center; margin: 0.8em 0; flex-wrap: wrap; }
select { font: inherit; padding: 0.15em 0.3em; }
table { border-collapse: collapse; width: 100%; font-size: 14px; }
th, td { text-align: left; padding: 0.3em 0.6em; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: #f6f8fa; position: sticky; top: 0; }
td.time { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
.v { font-weight: 600; padding: 0.05em 0.45em; border-radius: 4px; white-space: nowrap; }
.v-proved { background: #d4edda; } .v-verified { background: #e2f0d9; } .v-refuted { background: #fde2cf; }
.v-unknown { background: #e9ecef; } .v-error { background: #f8d7da; }
.unexpected { color: var(--bad); font-weight: 600; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.15em 1em; }
dt { color: var(--muted); } dd { margin: 0; }
figure { margin: 1em 0; overflow-x: auto; } figure svg { max-width: 100%; height: auto; }
figcaption { color: var(--muted); font-size: 13px; }
code { font-size: 13px; }
ol.moves { font-size: 13px; }
"""

_JS = """
(function () {
  var paper = document.getElementById('f-paper'), verdict = document.getElementById('f-verdict');
  var count = document.getElementById('f-count');
  function apply() {
    var p = paper.value, v = verdict.value, shown = 0;
    document.querySelectorAll('#index tbody tr').forEach(function (r) {
      var ok = (!p || r.dataset.paper === p) && (!v || r.dataset.verdict === v);
      r.hidden = !ok; if (ok) shown++;
    });
    document.querySelectorAll('section.claim').forEach(function (s) {
      s.hidden = !((!p || s.dataset.paper === p) && (!v || s.dataset.verdict === v));
    });
    count.textContent = shown + ' of ' + document.querySelectorAll('#index tbody tr').length + ' claims shown';
  }
  paper.addEventListener('change', apply); verdict.addEventListener('change', apply);
  apply();
})();
"""


def html_report(verdicts: list[Verdict], interrupted: Interruption | None = None) -> tuple[str, list[str]]:
    """One self-contained HTML page: an index of every claim (filterable by paper and verdict),
    then a section per claim with its pictures inline (SVG)."""
    esc = html.escape
    notes: list[str] = []
    papers = sorted({v.paper or v.id.split("/")[0] for v in verdicts})
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           "<title>grundy verify report</title>", f"<style>{_CSS}</style></head><body>",
           "<h1>grundy verify</h1>",
           f'<p class="meta">{len(verdicts)} claims, generated {esc(when)}</p>',
           f"<pre>{esc(summary(verdicts))}</pre>"]
    if interrupted is not None:
        out.append('<p class="banner" id="interrupted"><strong>' + esc(interrupted.lines()[0]) + "</strong><br>"
                   + esc(interrupted.lines()[1]) + "</p>")
    opts = lambda xs: "".join(f'<option value="{esc(x)}">{esc(x)}</option>' for x in xs)  # noqa: E731
    out.append('<section id="index"><h2>Index</h2><div class="filters">'
               f'<label>Paper <select id="f-paper"><option value="">all</option>{opts(papers)}</select></label>'
               f'<label>Verdict <select id="f-verdict"><option value="">all</option>{opts(ORDER)}</select></label>'
               '<span id="f-count" class="muted"></span></div>'
               "<table><thead><tr><th>claim</th><th>paper</th><th>verdict</th><th>time</th><th>statement</th>"
               "</tr></thead><tbody>")
    for v in verdicts:
        paper = v.paper or v.id.split("/")[0]
        bad = "" if v.passed else f' <span class="unexpected">expected {esc(v.expected)}</span>'
        out.append(f'<tr data-paper="{esc(paper)}" data-verdict="{esc(v.verdict)}">'
                   f'<td><a href="#c-{esc(_slug(v.id))}">{esc(v.id)}</a></td><td>{esc(paper)}</td>'
                   f'<td><span class="v v-{esc(v.verdict)}">{esc(v.verdict)}</span>{bad}</td>'
                   f'<td class="time">{v.seconds:.1f} s</td><td>{esc(_text(v))}</td></tr>')
    out.append("</tbody></table></section>")
    verdict_of = {v.id: v.verdict for v in verdicts}
    found = findings_table(verdicts)
    if found:
        out.append('<section id="findings"><h2>Findings</h2><table><thead><tr><th>claim</th>'
                   "<th>classification</th></tr></thead>"
                   + "".join(f'<tr><td><a href="#c-{esc(_slug(i))}">{esc(i)}</a></td><td>{esc(t)}</td></tr>'
                             for i, t in found) + "</table></section>")
    for n, v in enumerate(verdicts):
        paper = v.paper or v.id.split("/")[0]
        out.append(f'<section class="claim" id="c-{esc(_slug(v.id))}" data-paper="{esc(paper)}" '
                   f'data-verdict="{esc(v.verdict)}"><h2>{esc(v.id)} '
                   f'<span class="v v-{esc(v.verdict)}">{esc(v.verdict)}</span></h2><dl>'
                   + "".join(f"<dt>{esc(a)}</dt><dd>{esc(b)}</dd>" for a, b in _facts(v, verdict_of)) + "</dl>")
        if v.obligations:
            keys = list(dict.fromkeys(k for o in v.obligations for k in o))
            out.append(f"<details><summary>{len(v.obligations)} proof obligations</summary><table><tr>"
                       + "".join(f"<th>{esc(k)}</th>" for k in keys) + "</tr>"
                       + "".join("<tr>" + "".join(f"<td>{esc(str(o.get(k, '')))}</td>" for k in keys) + "</tr>"
                                 for o in v.obligations) + "</table></details>")
        c = v.counterexample
        if c is not None:
            out.append("<dl>" + "".join(f"<dt>{esc(a)}</dt><dd>{esc(str(b))}</dd>" for a, b in (
                ("counterexample", f"on {c.structure} ({c.how})"), ("position", json.dumps(c.witness)),
                ("state (every field, as checked)", json.dumps(c.state) if c.state else ""),
                ("claimed", c.claimed), ("actual", c.actual)) if b != "") + "</dl>")
            pic, strip = _pictures(v)
            if pic is None and not notes:
                notes.append("matplotlib is not installed: no pictures (pip install 'grundy[report]')")
            if pic:
                out.append(f'<figure class="picture">{_prefix_ids(pic, f"f{n}a-")}'
                           f"<figcaption>claimed {esc(str(c.claimed))}, actually {esc(str(c.actual))}"
                           "</figcaption></figure>")
            if c.line:
                title = _line_title(_first_mover_wins(v))
                out.append(f"<h3>{esc(title)}</h3>")
                if strip:
                    out.append(f'<figure class="picture">{_prefix_ids(strip, f"f{n}b-")}</figure>')
                out.append('<ol class="moves">' + "".join(f"<li><code>{esc(m)}</code></li>" for m in _moves(c))
                           + "</ol>")
        out.append("</section>")
    out.append(f"<script>{_JS}</script></body></html>")
    return "\n".join(out), notes


def write_report(verdicts: list[Verdict], path: str, interrupted: Interruption | None = None) -> list[str]:
    """Write a Markdown report (pictures beside it as SVG files) or, for .html, one
    self-contained HTML file. Returns notes for the user (e.g. matplotlib missing)."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    if out.suffix.lower() in (".html", ".htm"):
        text, notes = html_report(verdicts, interrupted)
    else:
        text, notes = markdown_report(verdicts, out, interrupted)
    out.write_text(text + "\n", encoding="utf-8")
    return notes
