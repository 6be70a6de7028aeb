"""The HTML report, laid out from a :class:`~.plan.Plan`: one self-contained page (inline SVG,
style sheet and the script that filters the index by paper and verdict; nothing fetched)."""
from __future__ import annotations

import html
import re
from datetime import datetime, timezone

from .plan import Plan, Section, _slug, _text
from .text import ORDER

__all__ = ["render_html"]

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
    var found = 0;
    document.querySelectorAll('#findings tbody tr').forEach(function (r) {
      r.hidden = !((!p || r.dataset.paper === p) && (!v || r.dataset.verdict === v)); if (!r.hidden) found++;
    });
    var none = document.getElementById('findings-none');
    if (none) none.hidden = found > 0;
    count.textContent = shown + ' of ' + document.querySelectorAll('#index tbody tr').length + ' claims shown';
  }
  paper.addEventListener('change', apply); verdict.addEventListener('change', apply);
  apply();
})();
"""


def render_html(p: Plan) -> str:
    """One self-contained HTML page: an index of every claim (filterable by paper and verdict),
    then a section per claim with its pictures inline (SVG)."""
    esc = html.escape
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = ["<!doctype html>", '<html lang="en"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           "<title>grundy verify report</title>", f"<style>{_CSS}</style></head><body>",
           "<h1>grundy verify</h1>",
           f'<p class="meta">{len(p.verdicts)} claims, generated {esc(when)}</p>',
           f"<pre>{esc(p.summary)}</pre>"]
    if p.interrupted is not None:
        out.append('<p class="banner" id="interrupted"><strong>' + esc(p.interrupted[0]) + "</strong><br>"
                   + esc(p.interrupted[1]) + "</p>")
    out.append(_index(p))
    if p.findings:                  # rows carry the paper and verdict: the index's filter applies to them
        of = {s.verdict.id: s for s in p.sections}
        out.append('<section id="findings"><h2>Findings</h2><table><thead><tr><th>claim</th>'
                   "<th>classification</th></tr></thead><tbody>"
                   + "".join(f'<tr data-paper="{esc(of[i].paper if i in of else "")}" '
                             f'data-verdict="{esc(of[i].verdict.verdict if i in of else "")}">'
                             f'<td><a href="#c-{esc(_slug(i))}">{esc(i)}</a></td><td>{esc(t)}</td></tr>'
                             for i, t in p.findings) + "</tbody></table>"
                   '<p class="muted" id="findings-none" hidden>no finding among the claims shown</p></section>')
    for n, s in enumerate(p.sections):
        out.extend(_section(n, s))
    out.append(f"<script>{_JS}</script></body></html>")
    return "\n".join(out)


def _index(p: Plan) -> str:
    esc = html.escape
    opts = lambda xs: "".join(f'<option value="{esc(x)}">{esc(x)}</option>' for x in xs)  # noqa: E731
    out = ['<section id="index"><h2>Index</h2><div class="filters">'
           f'<label>Paper <select id="f-paper"><option value="">all</option>{opts(p.papers)}</select></label>'
           f'<label>Verdict <select id="f-verdict"><option value="">all</option>{opts(ORDER)}</select></label>'
           '<span id="f-count" class="muted"></span></div>'
           "<table><thead><tr><th>claim</th><th>paper</th><th>verdict</th><th>time</th><th>statement</th>"
           "</tr></thead><tbody>"]
    for s in p.sections:
        v, paper = s.verdict, s.paper
        bad = "" if v.passed else f' <span class="unexpected">expected {esc(v.expected)}</span>'
        out.append(f'<tr data-paper="{esc(paper)}" data-verdict="{esc(v.verdict)}">'
                   f'<td><a href="#c-{esc(_slug(v.id))}">{esc(v.id)}</a></td><td>{esc(paper)}</td>'
                   f'<td><span class="v v-{esc(v.verdict)}">{esc(v.verdict)}</span>{bad}</td>'
                   f'<td class="time">{v.seconds:.1f} s</td><td>{esc(_text(v))}</td></tr>')
    out.append("</tbody></table></section>")
    return "\n".join(out)


def _section(n: int, s: Section) -> list[str]:
    esc = html.escape
    v = s.verdict
    out = [f'<section class="claim" id="c-{esc(_slug(v.id))}" data-paper="{esc(s.paper)}" '
           f'data-verdict="{esc(v.verdict)}"><h2>{esc(v.id)} '
           f'<span class="v v-{esc(v.verdict)}">{esc(v.verdict)}</span></h2><dl>'
           + "".join(f"<dt>{esc(a)}</dt><dd>{esc(b)}</dd>" for a, b in s.facts) + "</dl>"]
    if v.obligations:
        keys = list(dict.fromkeys(k for o in v.obligations for k in o))
        out.append(f"<details><summary>{len(v.obligations)} proof obligations</summary><table><tr>"
                   + "".join(f"<th>{esc(k)}</th>" for k in keys) + "</tr>"
                   + "".join("<tr>" + "".join(f"<td>{esc(str(o.get(k, '')))}</td>" for k in keys) + "</tr>"
                             for o in v.obligations) + "</table></details>")
    c = v.counterexample
    if c is not None:
        out.append("<dl>" + "".join(f"<dt>{esc(a)}</dt><dd>{esc(str(b))}</dd>" for a, b in s.counterexample
                                    if b != "") + "</dl>")
        if s.picture:
            out.append(f'<figure class="picture">{_prefix_ids(s.picture, f"f{n}a-")}'
                       f"<figcaption>claimed {esc(str(c.claimed))}, actually {esc(str(c.actual))}"
                       "</figcaption></figure>")
        if s.moves:
            out.append(f"<h3>{esc(s.line_title)}</h3>")
            if s.strip:
                out.append(f'<figure class="picture">{_prefix_ids(s.strip, f"f{n}b-")}</figure>')
            out.append('<ol class="moves">' + "".join(f"<li><code>{esc(m)}</code></li>" for m in s.moves)
                       + "</ol>")
    out.append("</section>")
    return out


def _prefix_ids(svg: str, prefix: str) -> str:
    """Make the ids inside one inline SVG unique in the page."""
    return re.sub(r'(id="|url\(#|href="#)([^")]+)', lambda m: m.group(1) + prefix + m.group(2), svg)
