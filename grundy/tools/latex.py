"""LaTeX for papers: text escaped for LaTeX, and a table of values as a ``tabular``.

The output is a fragment to ``\\input`` into a paper, never a whole document; its first lines
are comments naming what it shows and the packages it needs (``booktabs``; with shading,
``\\usepackage[table]{xcolor}``). Nothing here runs LaTeX.

>>> from grundy.tools.table import table
>>> print(table_latex(table("nim", range(2), range(3)), shade=True))  # doctest: +NORMALIZE_WHITESPACE
% nim: Grundy values, normal play (rows: heap 1, columns: heap 2)
% shaded: the P-positions (value 0)
% needs \\usepackage{booktabs} and \\usepackage[table]{xcolor}
\\begin{tabular}{r@{\\quad}rrr}
\\toprule
 & \\multicolumn{3}{c}{heap 2} \\\\
heap 1 & 0 & 1 & 2 \\\\
\\midrule
0 & \\cellcolor{black!20}0 & 1 & 2 \\\\
1 & 1 & \\cellcolor{black!20}0 & 3 \\\\
\\bottomrule
\\end{tabular}
>>> latex_escape("G(n) ≤ 3 & 50% — a_b")
'G(n) $\\\\le$ 3 \\\\& 50\\\\% --- a\\\\_b'
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .table import ValueTable

__all__ = ["latex_escape", "table_latex", "SHADE"]

SHADE = "black!20"                      # the colour of a shaded cell (a P-position)

_SPECIAL = {"\\": r"\textbackslash{}", "{": r"\{", "}": r"\}", "$": r"\$", "&": r"\&", "#": r"\#",
            "^": r"\^{}", "_": r"\_", "%": r"\%", "~": r"\~{}", "<": "$<$", ">": "$>$", "|": "$|$"}
_UNICODE = {"→": r"$\to$", "←": r"$\leftarrow$", "—": "---", "–": "--", "≤": r"$\le$", "≥": r"$\ge$",
            "≠": r"$\ne$", "×": r"$\times$", "✗": r"$\times$", "✓": r"$\surd$", "⊕": r"$\oplus$",
            "∈": r"$\in$", "…": r"\ldots{}", "’": "'", "‘": "`", "“": "``", "”": "''", "·": r"$\cdot$",
            "è": r"\`e", "é": r"\'e", "ö": r"\"o", "ü": r"\"u", "ä": r"\"a", "≡": r"$\equiv$",
            "∞": r"$\infty$", "∀": r"$\forall$", "∃": r"$\exists$", "¬": r"$\neg$", "∧": r"$\wedge$",
            "∨": r"$\vee$", "⌊": r"$\lfloor$", "⌋": r"$\rfloor$", "²": r"\textsuperscript{2}",
            "\u00a0": "~", "−": "-"}


def latex_escape(text: Any) -> str:
    """``text`` as LaTeX that pdflatex typesets as written: the special characters escaped,
    common symbols (→, ≤, —, ⊕, ...) as their LaTeX, any other non-ASCII character as ``[U+XXXX]``
    (never a character that stops the compilation)."""
    out = []
    for ch in str(text):
        if ch in _SPECIAL:
            out.append(_SPECIAL[ch])
        elif ch in _UNICODE:
            out.append(_UNICODE[ch])
        elif ord(ch) < 128:
            out.append(ch if ch.isprintable() or ch == "\n" else " ")
        else:
            out.append(f"[U+{ord(ch):04X}]")
    return "".join(out)


def _is_p(t: ValueTable, value: Any) -> bool:
    """A P-position: outcome P, or Grundy value 0 (normal play)."""
    return value == "P" if t.kind == "outcome" else value == 0


def _cell(t: ValueTable, value: Any, shade: bool) -> str:
    text = latex_escape(value)
    return rf"\cellcolor{{{SHADE}}}{text}" if shade and _is_p(t, value) else text


def _head(t: ValueTable, shade: bool) -> list[str]:
    lines = [f"% {latex_escape(t.title)}"]
    if shade:
        lines.append("% shaded: the P-positions" + (" (value 0)" if t.kind == "grundy" else ""))
    lines.append(r"% needs \usepackage{booktabs}" + (r" and \usepackage[table]{xcolor}" if shade else ""))
    return lines


def table_latex(t: ValueTable, shade: bool = False, per_row: int = 10) -> str:
    """A ``tabular`` of the table ``t`` (booktabs rules). Two axes: a grid, rows by columns.
    One axis: its values in one row under their sizes, or, for more than ``per_row + 2`` sizes
    of a contiguous range, ``per_row`` to a line (the line's first size on the left, the
    columns +0, +1, ...), as sequences of values are printed in papers. ``shade``: the
    P-positions' cells shaded (``\\cellcolor``)."""
    lines = _head(t, shade)
    if len(t.axes) == 2:
        (rname, rows), (cname, cols) = t.axes
        lines += [rf"\begin{{tabular}}{{r@{{\quad}}{'r' * len(cols)}}}", r"\toprule",
                  rf" & \multicolumn{{{len(cols)}}}{{c}}{{{latex_escape(cname)}}} \\",
                  latex_escape(rname) + " & " + " & ".join(map(str, cols)) + r" \\", r"\midrule"]
        for r in rows:
            lines.append(f"{r} & " + " & ".join(_cell(t, t.cells[(r, c)], shade) for c in cols) + r" \\")
        lines += [r"\bottomrule", r"\end{tabular}"]
        return "\n".join(lines)
    name, xs = t.axes[0]
    what = r"$\mathcal{G}$" if t.kind == "grundy" else "outcome"
    contiguous = xs == list(range(xs[0], xs[0] + len(xs)))
    if len(xs) <= per_row + 2 or not contiguous:
        lines += [rf"\begin{{tabular}}{{l@{{\quad}}{'r' * len(xs)}}}", r"\toprule",
                  latex_escape(name) + " & " + " & ".join(map(str, xs)) + r" \\", r"\midrule",
                  what + " & " + " & ".join(_cell(t, t.cells[(x,)], shade) for x in xs) + r" \\",
                  r"\bottomrule", r"\end{tabular}"]
        return "\n".join(lines)
    lo = xs[0] - xs[0] % per_row
    lines += [rf"\begin{{tabular}}{{r@{{\quad}}{'r' * per_row}}}", r"\toprule",
              latex_escape(name) + " & " + " & ".join(f"+{k}" for k in range(per_row)) + r" \\", r"\midrule"]
    for start in range(lo, xs[-1] + 1, per_row):
        cells = [_cell(t, t.cells[(x,)], shade) if (x,) in t.cells else "" for x in range(start, start + per_row)]
        lines.append(f"{start} & " + " & ".join(cells) + r" \\")
    lines += [r"\bottomrule", r"\end{tabular}"]
    return "\n".join(lines)
