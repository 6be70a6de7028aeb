"""Presenting verdicts: a terminal table, JSON lines, JUnit XML (:mod:`.text`), and a Markdown or
HTML report with a picture of every counterexample (matplotlib, optional: ``pip install
grundy[report]``), or a LaTeX report with TikZ pictures (no matplotlib): one plan of the report
(:mod:`.plan`) laid out three times (:mod:`.render_md`, :mod:`.render_html`, :mod:`.render_tex`).

The HTML report is one self-contained file: pictures are inline SVG, the style sheet and the
small script that filters the index by paper and verdict are inline; nothing is fetched, so
it opens offline and survives being moved or mailed. An interrupted run's report, JUnit and
JSON say so ("interrupted: k of n claims done") and list the unfinished claims.
"""
from __future__ import annotations

from pathlib import Path

from ...verify.verdict import Verdict
from .plan import draw, plan
from .render_html import render_html
from .render_md import render_markdown
from .render_tex import render_tex
from .text import (
    ORDER,
    Interruption,
    cache_text,
    details,
    fields,
    finding_text,
    findings_table,
    header,
    junit,
    obligations_text,
    row,
    summary,
)

__all__ = ["Interruption", "row", "header", "details", "summary", "junit", "write_report", "html_report",
           "markdown_report", "latex_report", "draw", "fields", "finding_text", "findings_table", "obligations_text", "cache_text",
           "ORDER"]


def markdown_report(verdicts: list[Verdict], out: Path, interrupted: Interruption | None = None) -> tuple[str, list[str]]:
    """The Markdown text of a report; pictures are written beside ``out`` as SVG files."""
    p = plan(verdicts, interrupted)
    return render_markdown(p, out), p.notes


def html_report(verdicts: list[Verdict], interrupted: Interruption | None = None) -> tuple[str, list[str]]:
    """One self-contained HTML page: an index of every claim (filterable by paper and verdict),
    then a section per claim with its pictures inline (SVG)."""
    p = plan(verdicts, interrupted)
    return render_html(p), p.notes


def latex_report(verdicts: list[Verdict], interrupted: Interruption | None = None) -> tuple[str, list[str]]:
    """A LaTeX document (pdflatex) with every picture in TikZ; needs no matplotlib."""
    p = plan(verdicts, interrupted, svg=False)
    return render_tex(p), p.notes


def write_report(verdicts: list[Verdict], path: str, interrupted: Interruption | None = None) -> list[str]:
    """Write a Markdown report (pictures beside it as SVG files), for .html one self-contained
    HTML file, for .tex one LaTeX document (pictures in TikZ). Returns notes for the user (e.g.
    matplotlib missing)."""
    out = Path(path)
    out.parent.mkdir(parents=True, exist_ok=True)
    if out.suffix.lower() == ".tex":
        text, notes = latex_report(verdicts, interrupted)
    elif out.suffix.lower() in (".html", ".htm"):
        text, notes = html_report(verdicts, interrupted)
    else:
        text, notes = markdown_report(verdicts, out, interrupted)
    out.write_text(text + "\n", encoding="utf-8")
    return notes
