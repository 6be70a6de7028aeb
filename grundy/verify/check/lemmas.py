"""Claims that use claims (``uses=[...]``) and values of other positions (:func:`value_of`).

A claim's lemmas are checked before it; the claim is checked only if each one is proved or
verified, else its verdict is ``unknown`` naming the lemma. While it is checked, its statement
may call :func:`value_of` on a position: the value comes from a lemma whose check covered that
position (its statement evaluated there: the lemma's claimed value, which its verdict
established), or, with no lemma given, from the solver. A position no lemma covers makes the
verdict ``unknown`` (never a pass). The scope names the lemmas and the positions read.

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

from ...spec.expr import lift
from ...spec.position import Position, read_position
from ..claims import Claim, Smt
from ..families import Positions, TableStatement
from ..verdict import PROVED, VERIFIED, Verdict

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

    def value(self, pos: Position) -> int:
        shown = json.dumps({k: v for k, v in pos.to_json().items() if k != "game"})
        if not self.claim.uses:
            v = self.solve(pos)
            _note(self.read, "solver", shown)
            return v
        for lemma in self.claim.uses:
            if self.verdicts[lemma.id].verdict not in (PROVED, VERIFIED):
                continue
            got = _covered_value(lemma, self.verdicts[lemma.id], pos, self)
            if got is not None:
                _note(self.read, lemma.id, shown)
                return got
        names = ", ".join(lm.id for lm in self.claim.uses)
        raise LemmaGap(f"value_of({_short(shown)}): no lemma covers this position (uses: {names}); "
                       f"a grundy lemma covers the positions its check covered")

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
    tokens = (_STACK.set(stack + (claim.id,)), _KNOWN.set(verdicts) if outer else None)
    try:
        for lemma in claim.uses:
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
    return verdicts, None


_STACK: contextvars.ContextVar[tuple[str, ...]] = contextvars.ContextVar("grundy_lemma_stack", default=())
_KNOWN: contextvars.ContextVar[dict[str, Verdict] | None] = contextvars.ContextVar("grundy_lemma_verdicts",
                                                                                   default=None)


def _covered_value(lemma: Claim, verdict: Verdict, pos: Position, ctx: Lemmas) -> int | None:
    """The lemma's claimed value at ``pos`` if its check covered ``pos`` (None otherwise): a
    grundy (or table) lemma on the same game and convention, ``pos`` one of its listed positions,
    or on one of its structures within what its methods covered (the sweep's bounds; a proof on
    unbounded integers: every value; on k-bit vectors: values up to 2^(k-2) - 1)."""
    from ..kinds import kind_of
    if not kind_of(lemma).gives_values or lemma.game != pos.game.name or lemma.convention != pos.convention:
        return None
    fam = lemma.family
    if isinstance(fam, Positions):
        for _, item in fam.listed():
            other = item if isinstance(item, Position) else read_position(item)
            if (isinstance(other, Position) and other.game.name == pos.game.name
                    and other.structure == pos.structure and tuple(other.state) == tuple(pos.state)):
                return _claimed(lemma, pos, ctx)
        return None
    if not any(g == pos.structure for _, g in fam.items()):
        return None
    if not _within(lemma, verdict, pos):
        return None
    return _claimed(lemma, pos, ctx)


def _within(lemma: Claim, verdict: Verdict, pos: Position) -> bool:
    sch = pos.game.rules(pos.structure).schema
    ints = {n: list(v.values()) if isinstance(v, dict) else [v]
            for n, v in sch.unpack(tuple(pos.state)).items() if sch.fields[n].kind == "int"}
    numbers = [x for v in ints.values() for x in v]
    if verdict.verdict == PROVED:
        bits = [m.bits for m in lemma.methods if isinstance(m, Smt)]
        if None in bits:
            return True
        return all(x <= 2 ** (min(b for b in bits if b is not None) - 2) - 1 for x in numbers)
    for name, v in ints.items():
        b = lemma.bounds.get(name)
        for x in v:
            if b is None or callable(b):
                return False
            if isinstance(b, int) and not 0 <= x <= b:
                return False
            if isinstance(b, tuple) and not b[0] <= x <= b[1]:
                return False
            if isinstance(b, (list, range)) and x not in b:
                return False
    return True


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
