"""Checking one claim: the explicit sweep, the Z3 proof, counterexamples and their replay.

The package is cut by job: :mod:`.instance` (one claim on one structure), :mod:`.sweep`
(the explicit sweep), :mod:`.listed` (listed positions and sums), :mod:`.search` (random
search), :mod:`.shrink`, :mod:`.prove` (Z3), :mod:`.replay` (a violation confirmed),
:mod:`.deadline` (time limits, progress), :mod:`.scope` (what a verdict says) and
:mod:`.claim` (the check of a claim, the cross-check, the value sources that served).

Everything here speaks of claims, positions and verdicts only; the game's rules come
from its file and are read through the explicit solver and the SMT backend.

>>> from grundy.verify.claims import Claim
>>> from grundy.verify.families import heaps
>>> c = Claim("demo/nim-2", game="nim", kind="char", family=heaps(2), bounds={"heap": 5},
...           statement=lambda g, s: s.heap[0] == s.heap[1])
>>> v = check_claim(c)
>>> v.verdict, v.scope.split("; values from")[0]     # (the solver that served: with a C compiler or not)
('verified', '2 heaps, heap <= 5: 36 positions (each one evaluated); cross-checked by the reference engine at 36 positions')
>>> bad = Claim("demo/nim-bad", game="nim", kind="char", family=heaps(2), bounds={"heap": 5},
...             statement=lambda g, s: s.heap[0] <= s.heap[1], expect="refuted")
>>> v = check_claim(bad)
>>> v.verdict, v.counterexample.witness, v.counterexample.claimed, v.counterexample.actual
('refuted', {'game': 'nim', 'heaps': [0, 1]}, 'P', 'N')
"""
from .claim import check_claim, check_part, served
from .deadline import Deadline, TimedOut
from .instance import FOLLOWED, Instance
from .scope import ORDER
from .sweep import BATCH

__all__ = ["check_claim", "check_part", "served", "Instance", "Deadline", "TimedOut", "FOLLOWED", "ORDER", "BATCH"]
