"""``grundy --cite``: a BibTeX entry for grundy, in CITATION.cff's words (its title, authors,
licence and release year; the version is the installed one). Nothing but the version is read,
so that it answers at once.

>>> print(bibtex("0.2.0").splitlines()[0])
@software{grundy,
"""
from __future__ import annotations

__all__ = ["bibtex", "TITLE", "AUTHORS", "YEAR", "LICENSE"]

# as in CITATION.cff (tests/test_cite.py compares them)
TITLE = ("grundy: impartial combinatorial games on graphs and heaps, with one rule text for an explicit "
         "solver, a C kernel and Z3 proofs of published claims")
AUTHORS = ["The grundy contributors"]
YEAR = 2026
LICENSE = "MIT"


def _braced(text: str) -> str:
    """``text`` for a BibTeX field: the title's capitals kept ({...}), the special characters escaped."""
    for ch, rep in (("\\", r"\textbackslash{}"), ("&", r"\&"), ("%", r"\%"), ("$", r"\$"), ("#", r"\#"),
                    ("_", r"\_")):
        text = text.replace(ch, rep)
    return text


def bibtex(version: str | None = None) -> str:
    """The BibTeX entry (biblatex's ``@software``; plain BibTeX styles read it as ``@misc``)."""
    if version is None:
        from .._version import __version__
        version = __version__
    authors = " and ".join("{" + _braced(a) + "}" for a in AUTHORS)      # a group name: one author
    fields = [("author", authors), ("title", "{" + _braced(TITLE) + "}"), ("year", str(YEAR)),
              ("version", _braced(version)), ("license", LICENSE),
              ("note", f"Python package, version {_braced(version)}")]
    return "@software{grundy,\n" + "\n".join(f"  {k:<7} = {{{v}}}," for k, v in fields) + "\n}"
