"""A level store as a value source: the values a finished levelled run computed, asked first.

``grundy solve ... --store DIR`` puts a :class:`LevelStoreSource` at the head of the solver's
sources (:mod:`grundy.solvers.sources`: the same interface, ``can_answer`` and ``values``). The
store is a premise, checked where it is used:

- **what it was computed for**, by content, never by a name or a path: the store records the
  rules' IR digest, the box, whether the canonical form is used, the mode and the SHA-256 of the
  C text that generated the children and canonical forms, with its canonical start keys; these
  must give the store's own digest again (:meth:`~.store.LevelStore.check_digest`), the rules
  asked about must have that IR digest, and they must compile here to the same C text on the
  recorded box. The symmetry premise, where the store used the canonical form, is proved again
  (:func:`~grundy.solvers.premises.prove_symmetry`: cached). Anything else: the store is not
  used for those rules, and says why (:attr:`LevelStoreSource.refusals`);
- **the run finished**: every level has its values (a run cut short answers nothing);
- **only what it holds**: a position outside the box, or not reachable from the run's starts
  (its canonical key not in the level of its rank), is not answered: the next source answers
  it, and every position after it in the batch.

Normal play only; an outcome store (``mode="outcome"``) answers who wins, not Grundy values.
What it answered is counted by label (:attr:`LevelStoreSource.used`, each position once), as the
theorems' source does: ``grundy solve`` says so after the answers.

>>> import tempfile
>>> from grundy.spec.games import get_game
>>> from grundy.spec import Structure
>>> from grundy.solvers.levelled import solve_levelled
>>> from grundy.solvers.sources import Query
>>> from grundy.solvers.solver import Solver
>>> k3 = Structure.graph(range(3), [(0, 1), (0, 2), (1, 2)])
>>> st = solve_levelled(get_game("edge-nim"), k3, [(2, 1, 1, 0)], root=tempfile.mkdtemp())
>>> src = LevelStoreSource(st)
>>> q = Query(get_game("edge-nim"), k3, "normal", "grundy")
>>> src.can_answer(None, q), src.values(None, q, [(2, 1, 1, 0), (1, 1, 1, 0), (2, 2, 2, 0)])
(True, [2, 1])
>>> list(src.used.values())
[2]
"""
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from ...spec.fingerprint import rules_digest
from ...spec.game import Game
from ...spec.structure import Structure
from ..native.box import Box
from ..native.codegen import kernel_source
from .ckernel import LevelKernel, extra_source
from .store import LevelStore

if TYPE_CHECKING:
    from ..context import SourceContext
    from ..sources import Query

__all__ = ["LevelStoreSource", "open_stores", "LEVEL_STORE"]

LEVEL_STORE = "level store"       # the source's name (the engine the source log names)


def open_stores(path: str | Path) -> list[LevelStore]:
    """The level stores at ``path``: the store itself (a directory with a ``manifest.json``), or
    every store directly under it (a stores' root, such as ``$GRUNDY_CACHE/levelled``);
    LookupError if there is none."""
    d = Path(path)
    if (d / "manifest.json").exists():
        return [LevelStore.open(d)]
    found = sorted(p for p in d.iterdir() if (p / "manifest.json").exists()) if d.is_dir() else []
    if not found:
        raise LookupError(f"{d}: no level store there (a directory with a manifest.json, or a folder of them)")
    return [LevelStore.open(p) for p in found]


class LevelStoreSource:
    """The values of one finished level store (see the module's docstring)."""

    name = LEVEL_STORE
    premises = ("the store's record of what it was computed for (rules' IR digest, box, canonical form, "
                "C text: its digest recomputed from them), checked per structure before it answers")

    def __init__(self, store: LevelStore):
        self.store = store
        self.mode = str(store.manifest.get("parts", {}).get("mode", store.manifest.get("about", {}).get("mode")))
        self.problem = store.check_digest() or (None if store.finished else "its run is not finished")
        self.refusals: list[str] = []           # why it was not used, one line per structure
        self._match: dict[tuple[int, Structure], tuple[Game, LevelKernel | None]] = {}
        self._levels: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self._answered: list[np.ndarray] = []   # the keys of the positions answered (each counted once in used)

    @property
    def label(self) -> str:
        s = self.store
        return (f"from the level store {s.digest[:16]} (levelled: {len(s.done('val'))} levels, "
                f"{s.positions:,} positions, per-level counts digest {s.counts_digest()})")

    @property
    def used(self) -> dict[str, int]:
        """The positions answered (distinct), under :attr:`label`; empty if none."""
        if not self._answered:
            return {}
        self._answered = [np.unique(np.concatenate(self._answered))]
        return {self.label: int(len(self._answered[0]))}

    def _kernel(self, game: Game, structure: Structure) -> LevelKernel | None:
        """The store's kernel if it serves ``game`` on ``structure`` (checked once per pair)."""
        hit = self._match.get((id(game), structure))
        if hit is not None and hit[0] is game:
            return hit[1]
        kern, why = self._check(game, structure)
        if why is not None:
            where = repr(structure)
            where = where if len(where) <= 80 else where[:77] + "..."
            self.refusals.append(f"the level store {self.store.digest[:16]} ({self.store.path}) is not used for "
                                 f"{game.name} on {where}: {why}")
        self._match[(id(game), structure)] = (game, kern)
        return kern

    def _check(self, game: Game, structure: Structure) -> tuple[LevelKernel | None, str | None]:
        if self.problem is not None:
            return None, self.problem
        parts = self.store.manifest["parts"]
        rules = game.rules(structure)
        mine = rules_digest(rules)
        if mine != parts["rules"]:
            return None, (f"it was computed for other rules (IR digest {parts['rules'][:16]}; these rules' "
                          f"{mine[:16]})")
        lo, radix, order = parts["box"]
        box = Box(tuple(lo), tuple(radix), tuple(order))
        kern = LevelKernel(kernel_source(rules, box, bool(parts["symmetry"])) + extra_source(rules), box)
        if hashlib.sha256(kern.text.encode()).hexdigest() != parts["c"]:
            return None, "these rules compile here to another C text than the store's (its moves or canonical form)"
        if parts["symmetry"]:
            from ..premises import prove_symmetry
            if not prove_symmetry(rules).holds:
                return None, "its canonical form's symmetry premise is not proved here"
        return kern, None

    def can_answer(self, ctx: "SourceContext | None", q: "Query") -> bool:
        if q.convention != "normal" or (q.question == "grundy" and self.mode != "grundy"):
            return False
        return self._kernel(q.game, q.structure) is not None

    def _level(self, r: int) -> tuple[np.ndarray, np.ndarray]:
        if r not in self._levels:
            self._levels[r] = self.store.values(r)
        return self._levels[r]

    def values(self, ctx: "SourceContext | None", q: "Query", states: list[Any]) -> list[Any] | None:
        """The stored values of the first states the store holds (None: it holds the first not)."""
        kern = self._kernel(q.game, q.structure)
        if kern is None:
            return None
        n = 0
        while n < len(states) and kern.box.contains(states[n]):
            n += 1
        if not n:
            return None
        raw = kern.keys([tuple(s) for s in states[:n]])
        keys = kern.canon(raw)
        ranks = kern.ranks(keys)
        vals = np.zeros(n, np.int64)
        found = np.zeros(n, bool)
        for r in np.unique(ranks).tolist():
            m = ranks == r
            ks, vs = self._level(r)
            if not len(ks):
                continue
            i = np.minimum(np.searchsorted(ks, keys[m]), len(ks) - 1)
            found[m] = ks[i] == keys[m]
            vals[m] = vs[i]
        cut = n if found.all() else int(np.argmin(found))
        if not cut:
            return None
        self._answered.append(raw[:cut])           # positions as asked (not up to symmetry)
        if ctx is not None:
            ctx.note(q.game, q.structure, self.label)
        out = vals[:cut].tolist()
        return out if q.question == "grundy" else [v != 0 for v in out]
