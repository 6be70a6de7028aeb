"""A strategy's cases compiled to one function (grundy/solvers/explicit/cases.py) against the
cases read one by one (each condition, then its choices, compiled apart): the same case and the
same choices at every state, on the strategies of the theorem files."""
from __future__ import annotations

import itertools
import random
from pathlib import Path

import pytest

from grundy.solvers.solver import Solver
from grundy.verify.check.instance import Instance
from grundy.verify.families.bounds import slot_values
from grundy.verify.loading import load

THEOREMS = Path(__file__).resolve().parents[1] / "theorems"
IDS = ["erickson/conj4.9-4.11-complete-graph-strategy", "erickson/lemma4.3-ssb-strategy",
       "selfref/5.5-mine-strategy-corrected", "erickson/prop3.1-strategy"]


def one_by_one(inst, state):
    for i, (when, _, fs) in enumerate(inst.cases):
        if when(state):
            return i, tuple(f(state) for f in fs)
    return None


@pytest.mark.parametrize("cid", IDS)
def test_the_compiled_cases_pick_as_the_cases_one_by_one(cid):
    claim = next(c for c in load([str(THEOREMS)]) if c.id == cid)
    rng = random.Random(cid)
    seen = set()
    for label, g in list(claim.family.items())[:3]:
        inst = Instance(claim, label, g, Solver())
        assert inst.plays
        vals = slot_values(inst.rules, claim.bounds)
        states = list(itertools.islice(itertools.product(*vals), 20_000))
        for st in rng.sample(states, min(400, len(states))):
            got = inst.pick(st)
            assert got == one_by_one(inst, st)
            seen.add(got is None)
    assert False in seen               # some case applied somewhere
