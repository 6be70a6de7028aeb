"""The Markdown report, laid out from a :class:`~.plan.Plan`: pictures are written beside it
as SVG files, and each also as a TikZ picture (a ``.tex`` file to ``\\input`` in a paper)."""
from __future__ import annotations

from pathlib import Path

from .plan import STATE, Plan, Section, _anchor, _slug, _text

__all__ = ["render_markdown"]


def render_markdown(p: Plan, out: Path) -> str:
    """The Markdown text of a report; its pictures are written beside ``out``."""
    parts = ["# grundy verify\n", "```\n" + p.summary + "\n```\n"]
    if p.interrupted is not None:
        parts.append("**" + p.interrupted[0] + "**  \n" + p.interrupted[1] + "\n")
    if p.findings:
        parts.append("## Findings\n\n| claim | classification |\n|---|---|\n"
                     + "\n".join(f"| {i} | {t} |" for i, t in p.findings) + "\n")
    parts.append("## Index\n\n| claim | paper | verdict | time | statement |\n|---|---|---|---|---|")
    for v in p.verdicts:
        cell = _text(v).replace("|", "\\|").replace("\n", " ")
        parts.append(f"| [{v.id}](#{_anchor(v.id + ': ' + v.verdict)}) | {v.paper} | {v.verdict}"
                     f"{'' if v.passed else ' ✗'} | {v.seconds:.1f} s | {cell} |")
    parts.append("")
    for s in p.sections:
        parts.extend(_section(s, out))
    return "\n".join(parts)


def _section(s: Section, out: Path) -> list[str]:
    v = s.verdict
    head = f"{v.id}: {v.verdict}" + ("" if v.passed else f" (expected {v.expected})")
    parts = [f"## {head}\n\n" + "\n".join(f"- {a}: {b}" for a, b in s.facts) + "\n"]
    if v.counterexample is None:
        return parts
    (_, on), *rest = s.counterexample         # the state's line only when there is a state
    lines = [f"counterexample {on}"] + [f"{a}: {b}" for a, b in rest if a != STATE or b]
    parts.append("\n".join(f"- {x}" for x in lines) + "\n")
    tikz = _tikz(s, out)
    if s.picture:
        name = out.with_name(f"{out.stem}-{_slug(v.id)}.svg")
        name.write_text(s.picture, encoding="utf-8")
        parts.append(f"![counterexample to {v.id}]({name.name})\n")
    if tikz:
        parts.append("TikZ (for a paper): " + ", ".join(f"[{t}]({t})" for t in tikz) + "\n")
    if s.moves:
        parts.append(s.line_title + ":\n\n" + "\n".join(f"{i + 1}. `{m}`" for i, m in enumerate(s.moves)) + "\n")
        if s.strip:
            name = out.with_name(f"{out.stem}-{_slug(v.id)}-line.svg")
            name.write_text(s.strip, encoding="utf-8")
            parts.append(f"![line of play for {v.id}]({name.name})\n")
    return parts


def _tikz(s: Section, out: Path) -> list[str]:
    """Write the counterexample's picture and its line of play as TikZ beside ``out``; their names."""
    from ..tikz import line_tikz, position_tikz
    c = s.verdict.counterexample
    if c is None or "parts" in c.witness:            # a sum of positions: its JSON only
        return []
    stem = f"{out.stem}-{_slug(s.verdict.id)}"
    names = [f"{stem}.tex"]
    out.with_name(names[0]).write_text(position_tikz(c.witness, title=f"counterexample to {s.verdict.id}") + "\n",
                                       encoding="utf-8")
    if c.line:
        names.append(f"{stem}-line.tex")
        out.with_name(names[1]).write_text(line_tikz(c.witness, c.line, s.wins) + "\n",
                                           encoding="utf-8")
    return names
