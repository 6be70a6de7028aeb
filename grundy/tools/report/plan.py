"""One plan of a report, rendered twice: what the Markdown and the HTML report show of a run
(the summary, the interruption, the index, the findings, and a section per claim with its
counterexample, pictures and line of play), computed once; :mod:`.render_md` and
:mod:`.render_html` only lay it out.

>>> from grundy.verify.verdict import Verdict
>>> p = plan([Verdict("demo/a", "char", "proved", "proved", "2 heaps", 0.5, paper="demo")])
>>> p.summary, [s.facts[0] for s in p.sections]
('demo: 1 proved (1 scope not recorded), 0 verified, 0 refuted, 0 unknown, 0 error — all as expected', [('verdict', 'proved')])
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...verify.kinds import kind_named
from ...verify.verdict import Verdict
from .text import Interruption, fields, findings_table, summary

__all__ = ["Plan", "Section", "plan", "draw", "STATE"]

STATE = "state (every field, as checked)"
NO_MATPLOTLIB = "matplotlib is not installed: no pictures (pip install 'grundy[report]')"


@dataclass
class Section:
    """One claim's part of a report: its verdict, paper, facts (label, text), and for a
    counterexample its facts (label, value, empty ones kept: each format drops its own), its
    picture and the picture of its line of play (SVG text or None), the line's title and moves."""

    verdict: Verdict
    paper: str
    facts: list[tuple[str, str]]
    counterexample: list[tuple[str, Any]] = field(default_factory=list)
    picture: str | None = None
    strip: str | None = None
    line_title: str = ""
    moves: list[str] = field(default_factory=list)
    wins: bool | None = None          # whether the first mover wins at the counterexample (None: not known)


@dataclass
class Plan:
    """A report's content, in order; ``notes`` are for the user (matplotlib missing)."""

    verdicts: list[Verdict]
    summary: str
    interrupted: list[str] | None
    papers: list[str]
    findings: list[tuple[str, str]]
    sections: list[Section]
    notes: list[str]


def plan(verdicts: list[Verdict], interrupted: Interruption | None = None, svg: bool = True) -> Plan:
    """The content of a report on ``verdicts`` (SVG pictures drawn here, once for the Markdown and
    HTML formats; ``svg=False``: none, as for the LaTeX report, whose TikZ is drawn as it is laid out)."""
    verdict_of = {v.id: v.verdict for v in verdicts}
    sections = [_section(v, verdict_of, svg) for v in verdicts]
    missing = svg and any(s.verdict.counterexample is not None and s.picture is None for s in sections)
    return Plan(verdicts, summary(verdicts), None if interrupted is None else interrupted.lines(),
                sorted({v.paper or v.id.split("/")[0] for v in verdicts}), findings_table(verdicts), sections,
                [NO_MATPLOTLIB] if missing else [])


def _section(v: Verdict, verdict_of: dict[str, str], svg: bool = True) -> Section:
    s = Section(v, v.paper or v.id.split("/")[0], _facts(v, verdict_of))
    c = v.counterexample
    if c is None:
        return s
    s.counterexample = [("counterexample", f"on {c.structure} ({c.how})"), ("position", json.dumps(c.witness)),
                        (STATE, json.dumps(c.state) if c.state else ""),
                        ("claimed", c.claimed), ("actual", c.actual)]
    wins = s.wins = _first_mover_wins(v) if c.line else None
    if svg:
        s.picture, s.strip = _pictures(v, wins)
    if c.line:
        s.line_title, s.moves = _line_title(wins), _moves(c)
    return s


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
    kind = kind_named(v.kind)               # None: a kind not registered in this process (a JSON file)
    if isinstance(c.actual, int) and not isinstance(c.actual, bool) and kind is not None and kind.statement == "int":
        return c.actual != 0                # a Grundy value (a kind whose statement is one)
    try:
        from ...solvers.solver import DEFAULT
        from ...spec.position import read_position
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


def _pictures(v: Verdict, wins: bool | None) -> tuple[str | None, str | None]:
    from .. import pictures
    c = v.counterexample
    if c is None or not pictures.available() or "parts" in c.witness:   # a sum: its JSON only
        return None, None
    pic = pictures.position_svg(c.witness, title=f"counterexample to {v.id}")
    strip = pictures.line_svg(c.witness, c.line, wins) if c.line else None
    return pic, strip


def draw(position: dict, path: Path) -> bool:
    """Write an SVG (or, for a .png path, PNG) picture of a position; False without matplotlib."""
    from .. import pictures
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
