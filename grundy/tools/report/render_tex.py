"""The LaTeX report, laid out from a :class:`~.plan.Plan`: one document that compiles with
pdflatex (packages: geometry, booktabs, longtable, xcolor, tikz; all in TeX Live's base and
pictures sets), its pictures drawn in TikZ (:mod:`grundy.tools.tikz`: no matplotlib needed)."""
from __future__ import annotations

from datetime import datetime, timezone

from ..latex import latex_escape
from ..tikz import line_tikz, position_tikz
from .plan import STATE, Plan, Section, _text

__all__ = ["render_tex", "PREAMBLE"]

PREAMBLE = r"""\documentclass[10pt]{article}
\usepackage[margin=2cm]{geometry}
\usepackage{booktabs}
\usepackage{longtable}
\usepackage{array}
\usepackage[table]{xcolor}
\usepackage{tikz}
\setlength{\parindent}{0pt}
\setlength{\parskip}{0.4em}
\sloppy
"""


def _tt(text: object) -> str:
    return r"\texttt{" + latex_escape(text) + "}"


def _id(text: str) -> str:
    """A claim id in typewriter type, breakable after its "/", "-" and "." (a narrow column)."""
    out = latex_escape(text)
    for ch in ("/", "-", "."):
        out = out.replace(ch, ch + r"\allowbreak{}")
    return r"\texttt{" + out + "}"


def render_tex(p: Plan) -> str:
    """The LaTeX source of a report: the summary, the interruption, the findings, the index
    (a longtable), then a section per claim with its pictures in TikZ."""
    e = latex_escape
    when = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    out = [PREAMBLE, r"\begin{document}", r"\section*{grundy verify}",
           rf"{len(p.verdicts)} claims, generated {e(when)}.", "",
           r"\begin{flushleft}" + r"\\".join(_tt(line) for line in p.summary.splitlines()) + r"\end{flushleft}"]
    if p.interrupted is not None:
        out.append(r"\fbox{\parbox{0.95\linewidth}{\textbf{" + e(p.interrupted[0]) + r"}\\" + e(p.interrupted[1])
                   + "}}")
    if p.findings:
        out += [r"\subsection*{Findings}", r"\begin{longtable}{>{\raggedright}p{0.3\linewidth}"
                r">{\raggedright\arraybackslash}p{0.62\linewidth}}", r"\toprule claim & classification \\ \midrule"]
        out += [f"{_id(i)} & {e(t)} \\\\" for i, t in p.findings]
        out += [r"\bottomrule", r"\end{longtable}"]
    out += [r"\subsection*{Index}", r"\begin{longtable}{>{\raggedright}p{0.25\linewidth}>{\raggedright}p{0.1\linewidth}"
            r">{\raggedright}p{0.1\linewidth}r>{\raggedright\arraybackslash}p{0.35\linewidth}}",
            r"\toprule claim & paper & verdict & time & statement \\ \midrule \endhead"]
    for v in p.verdicts:
        mark = "" if v.passed else r" $\times$"
        out.append(f"{_id(v.id)} & {e(v.paper)} & {e(v.verdict)}{mark} & {v.seconds:.1f} s & {e(_text(v))} \\\\")
    out += [r"\bottomrule", r"\end{longtable}"]
    for s in p.sections:
        out += _section(s)
    out.append(r"\end{document}")
    return "\n".join(out)


def _facts(pairs: list[tuple[str, object]]) -> list[str]:
    return [r"\begin{description}"] + [rf"\item[{latex_escape(a)}] {latex_escape(b)}" for a, b in pairs] + \
        [r"\end{description}"]


def _section(s: Section) -> list[str]:
    v = s.verdict
    head = f"{v.id}: {v.verdict}" + ("" if v.passed else f" (expected {v.expected})")
    out = [rf"\subsection*{{{latex_escape(head)}}}"] + _facts(list(s.facts))
    c = v.counterexample
    if c is None:
        return out
    out += _facts([(a, b) for a, b in s.counterexample if not (a == STATE and not b)])
    if "parts" not in c.witness:                     # a sum of positions: its JSON only
        out += [r"\begin{center}", position_tikz(c.witness, title=f"counterexample to {v.id}"), r"\end{center}"]
        if c.line:
            out.append(line_tikz(c.witness, c.line, s.wins))
    if s.moves:
        out += [r"\textbf{" + latex_escape(s.line_title) + r"}", r"\begin{enumerate}"]
        out += [r"\item " + _tt(m) for m in s.moves]
        out.append(r"\end{enumerate}")
    return out
