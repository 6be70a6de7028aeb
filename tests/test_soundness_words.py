"""The planted claims of tests/soundness/{heaprules,codeoptions,conventions}.py against brute
forces written from the rules in words (tests/soundness/_words.py): each planted claim is false
where its file says (``WRONG_AT``), and each control is true at every position it covers. (That
grundy gives each its verdict is tests/test_soundness.py's part.)"""
from __future__ import annotations

import importlib
import itertools
import sys
from pathlib import Path

import pytest

from grundy.spec.expr import evaluate
from grundy.spec.games import GAMES
from grundy.spec.structure import Structure
from grundy.verify.families import Positions, TableStatement, values_of

pytestmark = pytest.mark.slow    # the slow set: python -m pytest -m slow

SUITE = Path(__file__).resolve().parent / "soundness"
if str(SUITE) not in sys.path:
    sys.path.insert(0, str(SUITE))
words = importlib.import_module("_words")
FILES = ["heaprules", "codeoptions", "conventions"]


class _Heaps:
    def __init__(self, heaps):
        self.heap = list(heaps)


def claimed(claim, g: Structure, heaps: tuple[int, ...]):
    """What the claim states at these heaps on ``g``: P/N, or a Grundy value."""
    if claim.game == "sum":                                  # a sum of one-heap nim positions
        v = claim.statement(tuple(Structure.heaps(1) for _ in heaps), tuple(_Heaps([h]) for h in heaps))
    elif isinstance(claim.statement, TableStatement):
        v = claim.statement.claimed(heaps)
    else:
        rules = GAMES["nim"].rules(Structure.heaps(g.n))     # the state "heap" over g's slots (a game
        state = tuple(heaps) + (0,) * (len(rules.schema) - len(heaps))    # of codeoptions has no rules)
        v = evaluate(claim.statement(g, rules.state), {rules.schema.var_name(i): x for i, x in enumerate(state)})
    if claim.kind in ("grundy", "table") and not isinstance(v, str):
        return int(v)
    return v if isinstance(v, str) else ("P" if v else "N")


def truth(rule: str, claim, heaps: tuple[int, ...], convention: str):
    if claim.kind in ("grundy", "table"):
        return words.value(rule, tuple(heaps), convention == "misere")
    return words.outcome(rule, tuple(heaps), convention == "misere")


def covered(claim):
    """Every (structure, heaps, convention) a control covers: its listed positions, or the
    product of its bounds on each structure of its family."""
    if isinstance(claim.family, Positions):
        for _, item in claim.family.listed():
            if isinstance(item, tuple):
                yield item[0], tuple(item[1]), claim.convention
            elif hasattr(item, "parts"):
                yield None, tuple(p.state[0] for p in item.parts), item.convention
            else:
                yield item.structure, tuple(h for h in item.state), item.convention
        return
    for _, g in claim.family.items():
        vals = values_of(claim.bounds["heap"])
        for t in itertools.product(vals, repeat=g.n):
            yield g, t, claim.convention


def _claims(name):
    mod = importlib.import_module(name)
    return mod, [c for c in mod.CLAIMS]


@pytest.mark.parametrize("name", FILES)
def test_each_planted_claim_is_false_by_brute_force(name):
    mod, claims = _claims(name)
    planted = [c for c in claims if c.expect in ("refuted", "error")]
    assert sum(mod.WRONG_AT.get(c.id) is not None for c in planted) >= 3
    for c in planted:
        at = mod.WRONG_AT[c.id]
        if at is None:               # true of the game, refused for another reason (its file says why)
            continue
        heaps, conv = at if isinstance(at[-1], str) else (at, c.convention)
        g = Structure.heaps(len(heaps))
        rule = mod.RULE[getattr(c.game, "name", c.game)]
        assert claimed(c, g, heaps) != truth(rule, c, heaps, conv), c.id


@pytest.mark.parametrize("name", FILES)
def test_each_control_is_true_by_brute_force(name):
    mod, claims = _claims(name)
    controls = [c for c in claims if c.expect in ("proved", "verified")]
    assert controls
    for c in controls:
        rule = mod.RULE[c.game]
        n = 0
        for g, heaps, conv in covered(c):
            assert claimed(c, g or Structure.heaps(len(heaps)), heaps) == truth(rule, c, heaps, conv), (c.id, heaps)
            n += 1
        assert n > 0, c.id
