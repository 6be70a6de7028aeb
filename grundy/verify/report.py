"""Presenting verdicts: a terminal table, JSON lines, JUnit XML, and a Markdown/HTML report
with a picture of every counterexample (matplotlib, optional: ``pip install grundy[report]``).

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
from pathlib import Path
from typing import Iterable

from .verdict import Verdict

ORDER = ("proved", "verified", "refuted", "unknown", "error")


def row(v: Verdict, id_width: int = 34) -> str:
    """One line of the terminal table (the scope last, in full; ✗ marks an unexpected verdict)."""
    mark = "" if v.passed else f"  ✗ expected {v.expected}"
    return f"{v.id:<{id_width}} {v.kind:<8} {v.verdict:<9} {v.seconds:6.1f}s  {v.scope or v.detail}{mark}"


def header(id_width: int = 34) -> str:
    return f"{'claim':<{id_width}} {'kind':<8} {'verdict':<9} {'time':>7}  scope"


def details(v: Verdict) -> list[str]:
    """Lines shown under the table for a refuted, failing or erroneous claim."""
    out = []
    if v.detail and (v.verdict in ("error", "unknown") or not v.passed):
        out.append(f"  {v.id}: {v.detail}")
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
    check covered), time, coverage (positions, structures, obligations), obligations and detail."""
    rows = [("statement", v.text), ("source", v.source), ("reading", v.reading),
            ("finding", finding_text(v, verdict_of) if (v.finding or v.verdict == "refuted") else ""),
            ("kind", v.kind), ("scope", v.scope), ("time", f"{v.seconds:.1f} s"),
            ("coverage", ", ".join(f"{k} {x}" for k, x in v.coverage.items())),
            ("obligations", obligations_text(v)), ("detail", v.detail)]
    return [(k, x) for k, x in rows if x]


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


def junit(verdicts: Iterable[Verdict]) -> str:
    """JUnit XML: one testsuite per paper, one testcase per claim, failing iff verdict != expected."""
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
    return ET.tostring(root, encoding="unicode")


# ------------------------------------------------------------------------------- pictures
def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9.-]+", "-", text).strip("-")


def draw(position: dict, path: Path) -> bool:
    """A PNG of a position, drawn as its game asks (:meth:`~grundy.spec.Game.picture`: a graph
    with its weights and token, or heaps as bars); False without matplotlib or a picture."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.patches
        import matplotlib.pyplot as plt
        import networkx as nx
    except ImportError:
        return False
    if "parts" in position:                  # a sum of positions: its JSON is shown, no picture
        return False
    from ..spec.games import GAMES
    game = GAMES.get(position.get("game", ""))
    kind, data = game.picture(position) if game is not None else ("graph", position)
    if kind not in ("bars", "graph"):
        return False
    fig, ax = plt.subplots(figsize=(4.5, 3.6), dpi=100)
    try:
        if kind == "bars":
            hs = data
            ax.bar(range(len(hs)), hs, color="#4c72b0")
            for i, h in enumerate(hs):
                ax.text(i, h, str(h), ha="center", va="bottom")
            ax.set_xticks(range(len(hs)), [f"heap {i}" for i in range(len(hs))])
            ax.set_yticks([])
        else:
            g = nx.DiGraph() if "arcs" in position else nx.Graph()
            nodes = position.get("nodes", [])
            nweight = {}
            for item in nodes:
                v = item[0] if isinstance(item, list) else item
                g.add_node(v)
                if isinstance(item, list) and len(item) == 2:
                    nweight[v] = item[1]
            eweight = {}
            for e in position.get("edges", position.get("arcs", [])):
                g.add_edge(e[0], e[1])
                if len(e) == 3:
                    eweight[(e[0], e[1])] = e[2]
            pos = (nx.circular_layout(g) if g.number_of_nodes() <= 12 else nx.spring_layout(g, seed=1))
            token = position.get("token")
            colours = ["#dd8452" if v == token else "#8fb0d8" for v in g.nodes]
            styles = ["dotted" if eweight.get(e, eweight.get(e[::-1], 1)) == 0 else "solid" for e in g.edges]
            nx.draw_networkx(g, pos, ax=ax, node_color=colours, style=styles,
                             labels={v: f"{v}" + (f":{nweight[v]}" if v in nweight else "") for v in g.nodes},
                             node_size=500)
            if eweight:
                nx.draw_networkx_edge_labels(g, pos, edge_labels=eweight, ax=ax)
            for v in position.get("loops", []):      # a loop: a small circle on top of its vertex
                if v in pos:
                    x, y = pos[v]
                    ax.add_patch(matplotlib.patches.Circle((x, y + 0.17), 0.17, fill=False, color="black"))
            if position.get("active"):
                u, v = position["active"]
                nx.draw_networkx_edges(g, pos, edgelist=[(u, v)], width=3.0, edge_color="#c44e52", ax=ax)
            ax.set_axis_off()
            ax.set_xlim(-1.45, 1.45)
            ax.set_ylim(-1.45, 1.45)
            ax.set_aspect("equal")
            if token is not None:
                ax.set_title(f"token on {token}" + ("  (vertex:weight)" if nweight else ""))
        fig.tight_layout()
        fig.savefig(path)
    finally:
        plt.close(fig)
    return True


def write_report(verdicts: list[Verdict], path: str) -> list[str]:
    """Write a Markdown (or, for .html, HTML) report with a section per claim; pictures of
    counterexamples go beside it as PNG files. Returns notes (e.g. matplotlib missing)."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    as_html = out.suffix.lower() in (".html", ".htm")
    notes: list[str] = []
    parts: list[str] = []
    esc = html.escape if as_html else (lambda s: s)
    parts.append("<h1>grundy verify</h1>" if as_html else "# grundy verify\n")
    parts.append(f"<pre>{esc(summary(verdicts))}</pre>" if as_html else "```\n" + summary(verdicts) + "\n```\n")
    verdict_of = {v.id: v.verdict for v in verdicts}
    found = findings_table(verdicts)
    if found:
        if as_html:
            parts.append("<h2>Findings</h2><table><tr><th>claim</th><th>classification</th></tr>"
                         + "".join(f"<tr><td><a href='#{esc(_slug(i))}'>{esc(i)}</a></td><td>{esc(t)}</td></tr>"
                                   for i, t in found) + "</table>")
        else:
            parts.append("## Findings\n\n| claim | classification |\n|---|---|\n"
                         + "\n".join(f"| {i} | {t} |" for i, t in found) + "\n")
    for v in verdicts:
        head = f"{v.id}: {v.verdict}" + ("" if v.passed else f" (expected {v.expected})")
        lines = fields(v, verdict_of)
        if as_html:
            parts.append(f"<a id='{esc(_slug(v.id))}'></a><h2>{esc(head)}</h2><dl>"
                         + "".join(f"<dt>{esc(k)}</dt><dd>{esc(x)}</dd>" for k, x in lines) + "</dl>")
        else:
            parts.append(f"## {head}\n\n" + "\n".join(f"- {k}: {x}" for k, x in lines) + "\n")
        c = v.counterexample
        if c is None:
            continue
        png = out.with_name(f"{out.stem}-{_slug(v.id)}.png")
        pic = draw(c.witness, png)
        if not pic and not notes:
            notes.append("matplotlib is not installed: no pictures (pip install 'grundy[report]')")
        cex = [f"counterexample on {c.structure} ({c.how})", f"position: {json.dumps(c.witness)}",
               f"state (every field, as checked): {json.dumps(c.state)}",
               f"claimed: {c.claimed}", f"actual: {c.actual}"]
        moves = [f"{m['move']} → {json.dumps({k: x for k, x in m['to'].items() if k != 'game'})}" for m in c.line]
        if as_html:
            parts.append("<p>" + "<br>".join(esc(x) for x in cex) + "</p>")
            if pic:
                parts.append(f'<img src="{esc(png.name)}" alt="counterexample">')
            parts.append("<ol>" + "".join(f"<li><code>{esc(m)}</code></li>" for m in moves) + "</ol>")
        else:
            parts.append("\n".join(f"- {x}" for x in cex) + "\n")
            if pic:
                parts.append(f"![counterexample to {v.id}]({png.name})\n")
            if moves:
                parts.append("Winning line:\n\n" + "\n".join(f"{i + 1}. `{m}`" for i, m in enumerate(moves)) + "\n")
    text = "\n".join(parts)
    if as_html:
        text = f"<!doctype html><meta charset='utf-8'><title>grundy verify</title><body>{text}</body>"
    out.write_text(text + "\n", encoding="utf-8")
    return notes
