"""Claims that use claims (``uses=[...]``) and values of other positions (:func:`value_of`).

A claim's lemmas are checked before it; the claim is checked only if each one is proved or
verified, else its verdict is ``unknown`` naming the lemma. While it is checked, its statement
may call :func:`value_of` on a position: the value comes from a lemma whose check covered that
position (its statement evaluated there: the lemma's claimed value, which its verdict
established), or, with no lemma given, from the solver. What a lemma covered is read from the
record its verdict carries (:mod:`.covered`: the same game by content, convention, structure,
the box swept or the width proved, and its ``assume`` true there), never from its fields
alone. A position no lemma covers makes the verdict ``unknown`` (never a pass), naming the
position and why each lemma does not cover it. Before a verdict is given out, the reference
engine re-solves every position read (:meth:`Lemmas.confirm`): a value that differs is
``error``. The scope names the lemmas and the positions read.

>>> from grundy.verify.claims import Claim
>>> from grundy.verify.families import heaps
>>> one = Claim("demo/heap", game="nim", kind="grundy", family=heaps(1), bounds={"heap": 9},
...             statement=lambda g, s: s.heap[0])
>>> two = Claim("demo/pairs", game="nim", kind="char", family=heaps(2), bounds={"heap": 4}, uses=[one],
...             statement=lambda g, s: value_of({"game": "nim", "heaps": [3]}) + s.heap[0] == s.heap[1] + 3)
>>> from grundy.verify.check import check_claim
>>> v = check_claim(two)
>>> v.verdict, [part for part in v.scope.split("; ") if part.startswith("using")]
('verified', ['using: demo/heap (verified, 1 value read: {"heaps": [3]})'])
"""
from __future__ import annotations

import contextvars
import json
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from ...errors import Disagreement
from ...solvers.reference import Reference, ReferenceLimit
from ...spec.expr import lift
from ...spec.position import Position, read_position
from ..claims import Claim
from ..families import TableStatement
from ..recheck import COUNTEREXAMPLE_BUDGET
from ..verdict import PROVED, VERIFIED, Verdict
from .covered import uncovered

__all__ = ["value_of", "LemmaGap", "Lemmas", "check_lemmas"]


class LemmaGap(Exception):
    """A value was asked that no lemma covers: the claim cannot pass."""


@dataclass
class Lemmas:
    """The context of one claim's check: its lemmas' verdicts, the solver (values without
    lemmas), and what was read (lemma id or "solver" -> the positions, as shown)."""

    claim: Claim
    verdicts: dict[str, Verdict]
    solve: Callable[[Position], int]
    read: dict[str, list[str]] = field(default_factory=dict)
    values: dict[tuple[str, str], tuple[Position, int]] = field(default_factory=dict)   # (by, shown) -> read
    note: str = ""                       # what the reference engine re-solved of the values read

    def value(self, pos: Position) -> int:
        shown = json.dumps({k: v for k, v in pos.to_json().items() if k != "game"})
        if not self.claim.uses:
            v = self.solve(pos)
            self._read("solver", shown, pos, v)
            return v
        why = []
        for lemma in self.claim.uses:
            gap = uncovered(lemma, self.verdicts[lemma.id], pos)
            if gap is None:
                got = _claimed(lemma, pos, self)
                if got is not None:
                    self._read(lemma.id, shown, pos, got)
                    return got
                gap = "its table states no value there"
            why.append(f"{lemma.id}: {gap}")
        raise LemmaGap(f"value_of({_short(shown)}): no lemma covers this position ({'; '.join(why)}); "
                       f"a lemma covers only the positions its check covered")

    def _read(self, key: str, shown: str, pos: Position, value: int) -> None:
        _note(self.read, key, shown)
        self.values.setdefault((key, shown), (pos, value))

    def confirm(self, mode: str, tick: Callable[[], None] | None = None) -> str:
        """Re-solve every position read (its value from a lemma or the solver) by the reference
        engine: :class:`Disagreement` where it differs; the scope's phrase otherwise.
        ``mode``: ``"none"`` re-solves nothing, ``"all"`` without a budget."""
        if mode == "none" or not self.values:
            return ""
        ref = Reference(max_work=None if mode == "all" else COUNTEREXAMPLE_BUDGET, tick=tick)
        done = beyond = 0
        for (key, shown), (pos, value) in self.values.items():
            try:
                got = ref.grundy(pos)
            except ReferenceLimit:
                beyond += 1
                continue
            if got != value:
                by = "the solver" if key == "solver" else f"lemma {key!r}"
                raise Disagreement(f"value_of({_short(shown)}) is {value} by {by}, {got} by the reference "
                                   f"engine: the value read is wrong")
            done += 1
        self.note = f"{done} value{'s' * (done != 1)} read re-solved by the reference engine"
        self.note += f" ({beyond} beyond its budget)" if beyond else ""
        return self.note

    def text(self) -> str:
        """The scope's phrase: "using: a (proved), b (verified, 3 values read: ...)", or the
        positions whose values were solved ("values of 2 other positions solved: ...")."""
        parts = []
        for lemma in self.claim.uses:
            read = self.read.get(lemma.id, [])
            parts.append(f"{lemma.id} ({self.verdicts[lemma.id].verdict}{_reads(read)})")
        out = "using: " + ", ".join(parts) if parts else ""
        solved = self.read.get("solver", [])
        if solved:
            n = len(solved)
            out += (("; " if out else "") + f"values of {n} other position{'s' * (n != 1)} solved: "
                    + _names(solved))
        if self.note:
            out += f"; {self.note}"
        return out


def _note(read: dict[str, list[str]], key: str, shown: str) -> None:
    seen = read.setdefault(key, [])
    if shown not in seen:
        seen.append(shown)


def _names(read: list[str]) -> str:
    return ", ".join(map(_short, read)) if len(read) <= 3 else f"{_short(read[0])} … {_short(read[-1])}"


def _short(text: str) -> str:
    return text if len(text) <= 48 else text[:45] + "..."


def _reads(read: list[str]) -> str:
    n = len(read)
    return f", {n} value{'s' * (n != 1)} read: {_names(read)}" if n else ""


_CURRENT: contextvars.ContextVar[Lemmas | None] = contextvars.ContextVar("grundy_lemmas", default=None)


def value_of(position: Any) -> int:
    """The Grundy value of another position, inside a claim's statement: read from a lemma of
    the claim (``uses=``) whose check covered it, or solved when the claim lists no lemma. The
    scope names the positions read. ``position``: a JSON object or a Position."""
    ctx = _CURRENT.get()
    if ctx is None:
        raise RuntimeError("value_of(...) is available while a claim is checked (in its statement)")
    pos = position if isinstance(position, Position) else read_position(position)
    if not isinstance(pos, Position):
        raise TypeError("value_of takes one position of one game, not a sum")
    return ctx.value(pos)


@contextmanager
def active(ctx: Lemmas | None) -> Iterator[Lemmas | None]:
    """Make ``ctx`` the context :func:`value_of` reads while a claim is checked."""
    token = _CURRENT.set(ctx)
    try:
        yield ctx
    finally:
        _CURRENT.reset(token)


def check_lemmas(claim: Claim, check: Callable[[Claim], Verdict]) -> tuple[dict[str, Verdict], str | None]:
    """Each lemma's verdict (``check``: how a claim is checked), and why the claim cannot pass
    (None if every lemma is proved or verified). A lemma's own lemmas are checked by ``check``
    the same way; a cycle of lemmas is refused."""
    verdicts = _KNOWN.get()          # every lemma's verdict met in this check, at any depth
    outer = verdicts is None
    if verdicts is None:
        verdicts = {}
    stack = _STACK.get()
    if claim.id in stack:
        return verdicts, f"the lemmas of {claim.id!r} use it again ({' -> '.join(stack + (claim.id,))})"
    tokens = (_STACK.set(stack + (claim.id,)), _KNOWN.set(verdicts) if outer else None,
              _OWNERS.set({}) if outer else None)
    owners = _OWNERS.get()
    assert owners is not None
    try:
        for lemma in claim.uses:
            first = owners.setdefault(lemma.id, lemma)
            if first is not lemma and not _same_claim(first, lemma):   # an id names one claim only
                return verdicts, (f"two different claims have the id {lemma.id!r} among the lemmas of "
                                  f"{claim.id!r}: give each its own id")
            v = verdicts.get(lemma.id)
            if v is None:
                verdicts[lemma.id] = v = check(lemma)
            if v.verdict not in (PROVED, VERIFIED):
                why = f": {v.detail}" if v.detail else ""
                return verdicts, (f"lemma {lemma.id!r} is {v.verdict}{why}; a claim is not checked on a lemma "
                                  f"that is not proved or verified")
    finally:
        _STACK.reset(tokens[0])
        if tokens[1] is not None:
            _KNOWN.reset(tokens[1])
        if tokens[2] is not None:
            _OWNERS.reset(tokens[2])
    return verdicts, None


def _same_claim(a: Claim, b: Claim) -> bool:
    """Two claim objects that say the same (a copy: the profile's, a chunk's)."""
    return (a.game == b.game and a.kind == b.kind and a.statement is b.statement and a.assume is b.assume
            and a.family is b.family
            and a.convention == b.convention and a.bounds == b.bounds and a.methods == b.methods)


_STACK: contextvars.ContextVar[tuple[str, ...]] = contextvars.ContextVar("grundy_lemma_stack", default=())
_KNOWN: contextvars.ContextVar[dict[str, Verdict] | None] = contextvars.ContextVar("grundy_lemma_verdicts",
                                                                                   default=None)
_OWNERS: contextvars.ContextVar[dict[str, Claim] | None] = contextvars.ContextVar("grundy_lemma_owners",
                                                                                  default=None)


def _claimed(lemma: Claim, pos: Position, ctx: Lemmas) -> int | None:
    """The lemma's statement at ``pos`` (its own value_of calls read from its own lemmas)."""
    if isinstance(lemma.statement, TableStatement):
        v = lemma.statement.claimed(tuple(pos.state))
        return v if isinstance(v, int) else None
    from ...solvers.explicit import compile_expr
    rules = pos.game.rules(pos.structure)
    with active(Lemmas(lemma, ctx.verdicts, ctx.solve)):
        expr = lift(lemma.statement(pos.structure, rules.state))
    return int(compile_expr(rules, expr)(tuple(pos.state)))
