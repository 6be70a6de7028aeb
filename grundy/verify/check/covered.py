"""What a pass covered, as data: the record a lemma is read through.

A ``grundy`` or ``table`` claim that passes (``proved`` or ``verified``) states a value at
every position its check covered, and nowhere else. :func:`record` writes down what that was
(``Verdict.coverage["covered"]``): the convention, the profile whose family and bounds were
swept, the structures (their content digests), the box of values the sweep tried on each
numeric field (or ``"by function"`` where a bound is a function of the structure), how far a
Z3 proof reached (``"all sizes"``, ``"all weights on 3 structures"``, ``"below 2^k"``) and
whether an ``assume`` restricts it. :func:`uncovered` reads a position against that record:
the same game (its rules' content on the position's structure, not its name), the same
convention, one of the structures, every numeric field inside the box or below 2^k, and the
lemma's ``assume`` true there. Anything else is not covered, with the reason in one line.

>>> from grundy.spec.position import read_position
>>> from grundy.verify.claims import Claim
>>> from grundy.verify.families import heaps
>>> from grundy.verify.verdict import Verdict
>>> lemma = Claim("demo/small", game="nim", kind="grundy", family=heaps(1), bounds={"heap": 10},
...               assume=lambda g, s: s.heap[0] <= 8, statement=lambda g, s: s.heap[0])
>>> v = Verdict("demo/small", "grundy", "verified")
>>> v.coverage["covered"] = record(lemma, v, "quick")
>>> v.coverage["covered"]["box"], v.coverage["covered"]["assume"]
({'heap': [[0, 10]]}, True)
>>> uncovered(lemma, v, read_position({"game": "nim", "heaps": [7]})) is None
True
>>> uncovered(lemma, v, read_position({"game": "nim", "heaps": [9]}))
'its assume is false there'
>>> uncovered(lemma, v, read_position({"game": "nim", "heaps": [20]}))
'heap 20 is outside the box its sweep covered (heap in 0..10)'
>>> uncovered(lemma, v, read_position({"game": "nim", "heaps": [1, 2]}))
'its check covered no structure of 2 heaps'
"""
from __future__ import annotations

from typing import Any

from ...solvers.explicit import compile_expr
from ...spec.expr import lift
from ...spec.fingerprint import rules_digest, structure_digest
from ...spec.games import GAMES
from ...spec.position import Position, read_position
from ..claims import Claim, Explicit
from ..families import Positions
from ..families.bounds import slot_values
from ..verdict import PROVED, VERIFIED, Verdict

__all__ = ["record", "uncovered"]

_MANY = 1000                          # above this many structures, the record keeps their count only


def record(claim: Claim, v: Verdict, profile: str) -> dict[str, Any]:
    """The record of what the pass ``v`` of ``claim`` (as checked under ``profile``) covered."""
    out: dict[str, Any] = {"convention": claim.convention, "profile": profile,
                           "methods": [str(m) for m in claim.methods], "assume": claim.assume is not None}
    fam = claim.at(profile).family
    if isinstance(fam, Positions):
        out["positions"] = len(fam.listed())
        return out
    items = fam.items()
    out["structures"] = ([structure_digest(g) for _, g in items] if len(items) <= _MANY else len(items))
    if v.verdict == PROVED and "smt" in v.coverage:
        out["smt"] = v.coverage["smt"]
    if any(isinstance(m, Explicit) for m in claim.methods):
        out["box"] = {name: "by function" if callable(b) else _runs(b) for name, b in
                      sorted(claim.bounds_for(profile).items())}
    return out


def _runs(bound: Any) -> list[list[int]]:
    """A bound as runs [lo, hi] of the values it allows."""
    if isinstance(bound, int):
        return [[0, bound]]
    if isinstance(bound, tuple):
        return [[bound[0], bound[1]]]
    out: list[list[int]] = []
    for x in sorted(set(bound)):
        if out and out[-1][1] == x - 1:
            out[-1][1] = x
        else:
            out.append([x, x])
    return out


def uncovered(lemma: Claim, v: Verdict, pos: Position) -> str | None:
    """None if the pass ``v`` of ``lemma`` covered ``pos`` (its statement there is a value its
    check established), else why not (one phrase)."""
    from ..kinds import kind_of
    if not kind_of(lemma).gives_values:         # a grundy or table claim: a value at each position
        return f"it is a {lemma.kind} claim, not a value claim (grundy or table)"
    if v.verdict not in (PROVED, VERIFIED):
        return f"it is {v.verdict}"
    rec = v.coverage.get("covered")
    if not isinstance(rec, dict):
        return "its verdict records no coverage"
    if lemma.convention != pos.convention:
        return f"it is about {lemma.convention} play, the position is {pos.convention}"
    why = _same_game(lemma, pos)
    if why:
        return why
    why = _on_structure(lemma, rec, pos)
    if why:
        return why
    if "positions" not in rec:
        why = _in_scope(lemma, rec, pos)
        if why:
            return why
    if lemma.assume is not None and not _holds(lemma.assume, pos):
        return "its assume is false there"
    return None


def _in_scope(lemma: Claim, rec: dict, pos: Position) -> str | None:
    """Why the numeric fields of ``pos`` are beyond both the proof and the sweep (None: inside one)."""
    reasons = []
    if "smt" in rec:
        reasons.append(_in_width(rec["smt"], pos))
    if "box" in rec:
        reasons.append(_in_box(lemma, rec, pos))
    if not reasons:
        return "its check covered no position"
    return None if None in reasons else "; ".join(r for r in reasons if r)


def _same_game(lemma: Claim, pos: Position) -> str | None:
    game = GAMES.get(lemma.game)
    if game is None:
        return f"its game {lemma.game!r} is not registered"
    if game is pos.game:
        return None
    if rules_digest(game.rules(pos.structure)) != rules_digest(pos.game.rules(pos.structure)):
        return f"it is about another game named {lemma.game!r} (other rules)"
    return None


def _on_structure(lemma: Claim, rec: dict, pos: Position) -> str | None:
    fam = lemma.at(rec.get("profile", "quick")).family
    if isinstance(fam, Positions):
        for _, item in fam.listed():
            other = item if isinstance(item, Position) else read_position(item)
            if (isinstance(other, Position) and other.structure == pos.structure
                    and tuple(other.state) == tuple(pos.state)):
                return None
        return "it lists other positions"
    digests = rec.get("structures")
    if isinstance(digests, list):
        if structure_digest(pos.structure) in digests:
            return None
    elif any(g == pos.structure for _, g in fam.items()):
        return None
    return f"its check covered no structure of {_structure_name(pos)}"


def _structure_name(pos: Position) -> str:
    g = pos.structure
    return f"{g.n} heap{'s' * (g.n != 1)}" if g.kind == "heaps" else f"{g.n} vertices"


def _numbers(pos: Position) -> list[tuple[str, int]]:
    sch = pos.game.rules(pos.structure).schema
    out = []
    for (name, _), x in zip(sch.slots, pos.state, strict=False):
        if sch.fields[name].kind == "int":
            out.append((name, int(x)))
    return out


def _in_width(smt: str, pos: Position) -> str | None:
    if not smt.startswith("below 2^"):
        return None                                  # all sizes / all weights on its structures
    bits = int(smt.rsplit("^", 1)[1])
    for name, x in _numbers(pos):
        if not 0 <= x < (1 << bits):
            return f"{name} {x} is beyond its proof on {bits}-bit vectors (below 2^{bits})"
    return None


def _in_box(lemma: Claim, rec: dict, pos: Position) -> str | None:
    box = rec["box"]
    rules = pos.game.rules(pos.structure)
    sch = rules.schema
    tried: list[list[int]] | None = None
    for i, ((name, _), x) in enumerate(zip(sch.slots, pos.state, strict=False)):
        runs = box.get(name)
        if runs is None:
            if sch.fields[name].kind == "int":
                return f"its sweep had no bound on {name}"
            continue                                 # vertex, edge, bool fields: every value swept
        if runs == "by function":
            if tried is None:
                tried = slot_values(rules, lemma.bounds_for(rec.get("profile", "quick")))
            if int(x) not in tried[i]:
                return f"{name} {x} is outside the values its sweep tried there"
        elif not any(lo <= int(x) <= hi for lo, hi in runs):
            allowed = ", ".join(f"{lo}..{hi}" for lo, hi in runs)
            return f"{name} {x} is outside the box its sweep covered ({name} in {allowed})"
    return None


def _holds(assume: Any, pos: Position) -> bool:
    rules = pos.game.rules(pos.structure)
    return bool(compile_expr(rules, lift(assume(pos.structure, rules.state)))(tuple(pos.state)))
