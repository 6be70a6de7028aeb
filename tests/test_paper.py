"""Output that goes into a paper (issue 22): tables as LaTeX ``tabular``, plots and pictures of
positions as TikZ, the verify report as a LaTeX document, ``grundy --cite``. Every fragment is
compiled with pdflatex where it is installed (.ci/run installs texlive-latex-base and
texlive-pictures where it can; skipped with the reason elsewhere). Expected values come from
theorems (Bouton: a Nim position is P iff the XOR is 0; Wythoff's P-positions) or from the
table the fragment was made of, never from the LaTeX text itself."""
from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from test_pictures import CASES, PETERSEN

from grundy.cli.cite import AUTHORS, LICENSE, TITLE, YEAR, bibtex
from grundy.spec.position import InputError
from grundy.tools.latex import SHADE, latex_escape, table_latex
from grundy.tools.plot import plot_ppositions, plot_values
from grundy.tools.table import table
from grundy.tools.tikz import line_tikz, position_tikz

ROOT = Path(__file__).resolve().parent.parent
PDFLATEX = shutil.which("pdflatex")
NO_TEX = ("pdflatex is not installed (Debian: apt-get install --no-install-recommends texlive-latex-base "
          "texlive-pictures; .ci/run installs them where it can)")
PREAMBLE = ("\\documentclass{article}\n\\usepackage{booktabs}\n\\usepackage[table]{xcolor}\n"
            "\\usepackage{tikz}\n\\begin{document}\n")


def cli(*args):
    p = subprocess.run([sys.executable, "-m", "grundy.cli", *args], capture_output=True, text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


def compile_tex(path: Path) -> int:
    """Run pdflatex on ``path`` (twice: longtable's widths settle); the PDF's page count. A
    failure shows the log's error lines."""
    for _ in range(2):
        p = subprocess.run([PDFLATEX, "-interaction=nonstopmode", "-halt-on-error", path.name], cwd=path.parent,
                           capture_output=True, text=True, timeout=300)
        errors = [line for line in p.stdout.splitlines() if line.startswith("!")]
        assert p.returncode == 0, (path.name, errors, p.stdout[-2000:])
    pages = re.search(r"Output written on .*\((\d+) pages?", p.stdout)
    assert pages, p.stdout[-1000:]
    return int(pages.group(1))


def _rows(tex: str) -> list[list[str]]:
    """The body rows of a tabular (between \\midrule and \\bottomrule), split into cells."""
    body = tex.split("\\midrule\n", 1)[1].split("\n\\bottomrule", 1)[0]
    return [[c.strip() for c in line.rstrip("\\ ").split("&")] for line in body.splitlines()]


# ------------------------------------------------------------------ tables
def test_latex_table_shades_exactly_the_p_positions_of_nim():
    """Bouton: (a, b) is P iff a == b; the cell shows a XOR b."""
    rows = _rows(table("nim", range(7), range(9)).to_latex(shade=True))
    assert len(rows) == 7
    for a, row in enumerate(rows):
        assert row[0] == str(a)
        for b, cell in enumerate(row[1:]):
            shaded = cell.startswith(f"\\cellcolor{{{SHADE}}}")
            assert shaded == (a == b)
            assert cell.replace(f"\\cellcolor{{{SHADE}}}", "") == str(a ^ b)


def test_latex_table_of_outcomes_shades_wythoff_p_positions():
    """Wythoff's P-positions: (floor(k phi), floor(k phi^2)) and their mirror images."""
    phi = (1 + 5 ** 0.5) / 2
    p = {(int(k * phi), int(k * phi * phi)) for k in range(12)}
    p |= {(b, a) for a, b in p}
    rows = _rows(table("wythoff", range(15), range(15), outcome=True).to_latex(shade=True))
    for a, row in enumerate(rows):
        for b, cell in enumerate(row[1:]):
            assert cell.endswith("P") == ((a, b) in p) == cell.startswith("\\cellcolor")


def test_one_heap_table_is_laid_out_ten_to_a_line_and_reads_back():
    t = table("octal", range(0, 57), code="0.07")
    rows = _rows(table_latex(t))
    assert [r[0] for r in rows] == [str(10 * k) for k in range(6)]
    read = [int(c) for r in rows for c in r[1:] if c]
    assert read == t.values()
    assert "\\cellcolor" not in table_latex(t)
    short = _rows(table_latex(table("octal", range(3, 9), code="0.07")))
    assert short[0][1:] == [str(v) for v in table("octal", range(3, 9), code="0.07").values()]


def test_latex_escape_leaves_no_special_character_bare():
    text = latex_escape("a_b & 50% #1 $x$ {y} ~ ^ \\ < > | — ≤ → ✓ 漢")
    assert re.search(r"(?<!\\)[&%#_{}]", text.replace("\\&", "").replace("\\%", "").replace("\\#", "")
                     .replace("\\_", "").replace("\\{", "").replace("\\}", "").replace("{}", "")
                     .replace("$\\le$", "").replace("$\\to$", "")) is None
    assert "[U+6F22]" in text and "漢" not in text


def test_cli_table_latex():
    code, out, err = cli("table", "nim", "0..3", "0..3", "--latex", "--shade")
    assert code == 0, err
    assert out.count("\\cellcolor") == 4 and "\\begin{tabular}" in out
    code, _, err = cli("table", "nim", "0..3", "0..3", "--shade")
    assert code == 2 and "shade" in err and "Traceback" not in err
    code, _, err = cli("table", "nim", "0..3", "--latex", "--csv")
    assert code == 2


# ------------------------------------------------------------------ TikZ
def test_tikz_plots_need_no_matplotlib_and_show_the_p_positions(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)            # as if it were not installed
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    tex = plot_ppositions("nim", range(0, 6), range(0, 6), fmt="tikz")
    cells = re.findall(r"\\fill \((\d+),(\d+)\) rectangle", tex)
    assert sorted((int(a), int(b)) for a, b in cells) == [(k, k) for k in range(6)]   # Bouton: the diagonal
    out = tmp_path / "v.tex"
    tex = plot_values("octal", range(0, 30), code="0.07", path=out)
    assert out.read_text().strip() == tex.strip()
    dots = re.findall(r"circle \(1.2pt\)", tex)
    assert len(dots) == 30
    with pytest.raises(InputError, match="format"):
        plot_values("octal", range(0, 30), code="0.07", path=tmp_path / "v.png", fmt="tikz")
    with pytest.raises(InputError, match="format"):
        plot_values("octal", range(0, 30), code="0.07", fmt="gif")


def test_cli_plot_tikz(tmp_path):
    code, out, err = cli("plot", "wythoff", "0..20", "0..20", "--format", "tikz", "-o", str(tmp_path / "w.tex"))
    assert code == 0, err
    assert (tmp_path / "w.tex").read_text().count("\\begin{tikzpicture}") == 1
    code, _, err = cli("plot", "wythoff", "0..20", "0..20", "--format", "tikz", "-o", str(tmp_path / "w.png"))
    assert code == 2 and "format" in err


def test_position_tikz_draws_every_vertex_edge_and_weight():
    tex = position_tikz(PETERSEN)
    assert tex.count("circle (") == 10                              # the ten vertices
    assert len(re.findall(r"\\draw\[line width=[\d.]+pt[^\]]*\] \(", tex)) == 15
    weights = re.findall(r"rounded corners=1pt, inner sep=1pt, font=\\footnotesize\] at \([^)]*\) \{(\d+)\}", tex)
    assert sorted(map(int, weights)) == sorted(w for _, _, w in PETERSEN["edges"])
    assert "token on 2" in tex


# ------------------------------------------------------------------ compiled
@pytest.mark.skipif(PDFLATEX is None, reason=NO_TEX)
def test_fragments_compile_with_pdflatex(tmp_path):
    parts = [table("nim", range(5), range(7)).to_latex(shade=True),
             table("octal", range(0, 45), code="0.07").to_latex(shade=True),
             table("wythoff", range(6), range(6), outcome=True, misere=True).to_latex(shade=True),
             table("grim", range(1, 8), family="paths").to_latex(),
             latex_escape("every special: a_b & 50% #1 $x$ {y} ~ ^ \\ < > | — ≤ → ✓ ⊕ 漢"),
             plot_ppositions("wythoff", range(0, 25), range(0, 25), fmt="tikz"),
             plot_ppositions("nim", range(0, 6), range(0, 6), values=True, fmt="tikz"),
             plot_values("octal", range(0, 80), code="0.07", fmt="tikz")]
    parts += [position_tikz(p, title=f"{name}: a_title & more") for name, p in sorted(CASES.items())]
    parts.append(line_tikz(PETERSEN, [{"move": "2->1, weight 1", "to": dict(PETERSEN, token=1)}], True))
    doc = tmp_path / "all.tex"
    doc.write_text(PREAMBLE + "\n\n\\bigskip\n\n".join(parts) + "\n\\end{document}\n", encoding="utf-8")
    assert compile_tex(doc) >= 3


@pytest.mark.skipif(PDFLATEX is None, reason=NO_TEX)
def test_latex_report_compiles(tmp_path):
    from test_report import _verdicts

    from grundy.tools.report import Interruption, write_report
    vs = _verdicts()
    vs[0].text = "P iff x_1 = x_2 & 50% — ≤ →"
    vs[1].id = "alpha/thm2-corrected-for-all-weights-on-n5"           # a long id breaks in its column
    out = tmp_path / "r.tex"
    write_report(vs, str(out), Interruption(7, 9, ["beta/x"]))
    text = out.read_text()
    assert text.count("\\begin{tikzpicture}") >= 4 + 3 and "\\begin{longtable}" in text
    assert list(tmp_path.iterdir()) == [out]                         # one file: the pictures are inside
    assert compile_tex(out) >= 2
    assert "Overfull \\hbox" not in (tmp_path / "r.log").read_text()


# ------------------------------------------------------------------ --cite
def _cff(key: str) -> str:
    m = re.search(rf"^{key}:\s*\"?(.*?)\"?\s*$", (ROOT / "CITATION.cff").read_text(), re.M)
    assert m, key
    return m.group(1)


def test_cite_says_what_citation_cff_says():
    import grundy
    assert _cff("title") == TITLE and _cff("license") == LICENSE
    assert _cff("date-released").startswith(str(YEAR))
    assert re.findall(r"- name: \"(.*)\"", (ROOT / "CITATION.cff").read_text()) == AUTHORS
    assert _cff("version") == grundy.__version__
    code, out, err = cli("--cite")
    assert code == 0 and out.strip() == bibtex(grundy.__version__)
    assert out.startswith("@software{grundy,") and f"version = {{{grundy.__version__}}}" in out
    assert out.count("{") == out.count("}")
    code, out2, _ = cli("--cite", "solve", "nim", "1")             # as --version: the entry, nothing else
    assert code == 0 and out2 == out


@pytest.mark.skipif(PDFLATEX is None, reason=NO_TEX)
def test_markdown_report_writes_each_picture_as_tikz_beside_it(tmp_path):
    from test_report import _verdicts

    from grundy.tools.report import write_report
    vs = _verdicts()
    md = tmp_path / "r.md"
    write_report(vs, str(md))
    tex = sorted(p.name for p in tmp_path.glob("*.tex"))
    cex = [v for v in vs if v.counterexample is not None]
    assert len(tex) == len(cex) + sum(bool(v.counterexample.line) for v in cex)
    text = md.read_text()
    assert all(f"]({name})" in text for name in tex)
    doc = tmp_path / "paper.tex"
    doc.write_text(PREAMBLE + "".join(f"\\input{{{name}}}\n\n" for name in tex) + "\\end{document}\n")
    assert compile_tex(doc) >= 1


def test_cite_loads_nothing_heavy():
    """As --version: answered before any command's module is loaded."""
    code = ("import sys; from grundy.cli import main; main(['--cite']); "
            "print(sorted(m for m in ('networkx', 'z3', 'matplotlib', 'grundy.spec', 'grundy.solvers') "
            "if m in sys.modules))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0 and p.stdout.strip().endswith("[]"), p.stdout + p.stderr
