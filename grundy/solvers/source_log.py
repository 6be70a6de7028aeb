"""Which value sources served, structure by structure: the log a solver keeps while one is open
(``solver.log``), and its summary in words.
"""
from __future__ import annotations

import itertools
import re

from ..spec.game import Game
from ..spec.structure import Structure
from .premises import NOT_DECLARED, Premise

__all__ = ["SourceLog", "sources_text", "PYTHON", "KERNEL", "HEAP_TABLES", "INTERPRETER"]

PYTHON, KERNEL, HEAP_TABLES = "Python search", "C kernel", "one-heap tables"   # the value sources
INTERPRETER = "C interpreter"      # the kernel's search on the IR as data (native/vm.py): no reduction


class SourceLog:
    """Which value sources answered, structure by structure, while the log is open on a solver
    (``solver.log``): the engines, and the premises of the reductions as they stood (proved: the
    reduction was used; violated or not proved: not used); and the declarations found violated.
    :mod:`grundy.verify` opens one per claim and puts :meth:`summary` in the verdict.

    >>> from grundy.spec import read_position
    >>> from grundy.solvers.solver import Solver
    >>> s = Solver(native=False, reduce_after=0)
    >>> s.log = log = SourceLog()
    >>> s.grundy(read_position({"game": "nim", "heaps": [3, 5, 6]}))
    0
    >>> log.summary()
    {'Python search with symmetry (S_3 on heaps) proved by construction, 2 generators and decomposition proved by Z3': 1}
    """

    _serials = itertools.count()

    def __init__(self) -> None:
        self.used: dict[tuple[int, Structure], list] = {}   # -> [game (kept alive), engines, premises]
        self.violations: list[str] = []
        self.serial = next(SourceLog._serials)          # tables remember the logs they were noted in

    def note(self, game: Game, structure: Structure, engine: str,
             premises: dict[str, Premise] | None = None) -> None:
        got = self.used.get((id(game), structure))
        if got is None:
            got = self.used[(id(game), structure)] = [game, set(), {}]
        got[1].add(engine)
        if premises is not None:
            got[2] = dict(premises)

    def summary(self) -> dict[str, int]:
        """What served on each structure, in words, and on how many structures."""
        out: dict[str, int] = {}
        for _, engines, premises in self.used.values():
            hows = [p.how for p in premises.values() if p.status != NOT_DECLARED and p.how]
            k = " + ".join(sorted(engines)) + (" with " + " and ".join(hows) if hows else "")
            out[k] = out.get(k, 0) + 1
        return dict(sorted(out.items(), key=lambda kv: (-kv[1], kv[0])))

    def text(self) -> str:
        """The summary in words, for a verdict's scope."""
        return sources_text(self.summary())


def sources_text(summary: dict[str, int]) -> str:
    """What served (a :meth:`SourceLog.summary`, or several added up) in a few words: the one
    phrase, or the engines and on how many structures each reduction was proved (or not used).

    >>> sources_text({"C kernel with symmetry (S_6 on vertices) proved by Z3, 2 generators": 1})
    'values from C kernel with symmetry (S_6 on vertices) proved by Z3, 2 generators'
    >>> sources_text({"Python search with symmetry (8 automorphisms) proved by Z3, 2 generators": 3,
    ...               "Python search with symmetry (2 automorphisms) violated: not used": 1,
    ...               "one-heap tables": 1})
    'values from Python search and one-heap tables (of 5 structures: symmetry proved on 3, not used on 1)'
    """
    if len(summary) == 1:
        return f"values from {next(iter(summary))}"
    engines: set[str] = set()
    proved: dict[str, int] = {}
    failed: dict[str, int] = {}
    for phrase, n in summary.items():
        head, _, hows = phrase.partition(" with ")
        engines.update(head.split(" + "))
        for how in re.sub(r" \((?:[^()]|\([^()]*\))*\)", "", hows).split(" and ") if hows else ():
            name, _, rest = how.partition(" ")
            into = proved if rest.startswith(("proved", "by construction")) else failed
            into[name] = into.get(name, 0) + n
    total = sum(summary.values())
    notes = []
    for name in ("symmetry", "decomposition"):
        bits = ([f"proved on {proved[name]}"] if name in proved else []) + \
               ([f"not used on {failed[name]}"] if name in failed else [])
        if bits:
            notes.append(f"{name} " + ", ".join(bits))
    text = "values from " + " and ".join(sorted(engines))
    return text + (f" (of {total} structures: " + "; ".join(notes) + ")" if notes else "")
