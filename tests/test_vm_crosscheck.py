"""The cross-check of a sweep the C interpreter judged: the reference engine's evaluation of the
statement is compared with the interpreter's own program of it (``Instance.as_judged``), the
evaluator the sweep used, not with a compile to Python made for the sample alone."""
from __future__ import annotations

import pytest

from grundy.solvers.native import vm
from grundy.spec.structure import Structure
from grundy.verify import Claim, Family
from grundy.verify.check import check_claim, csweep
from grundy.verify.check import instance as check_instance

needs_vm = pytest.mark.skipif(not vm.available(), reason="no C compiler: no interpreter")

# a looped vertex is a nim heap (lower the weight, stay); two looped vertices joined: the same
# heap at the token (every move may stay or cross to the other vertex, whose weight is then
# the heap: P iff the token's weight is 0, whatever the other's)
LOOPED = Family([("L1", Structure.graph([0], [], loops=[0])),
                 ("L2", Structure.graph([0, 1], [(0, 1)], loops=[0, 1]))])


def _claim() -> Claim:
    return Claim("x/looped-zero", game="vertex-nimg", kind="char", family=LOOPED,
                 statement=lambda g, s: s.weight[0] == 0 if g.n == 1 else
                 ((s.token == 0) & (s.weight[0] == 0)) | ((s.token == 1) & (s.weight[1] == 0)),
                 bounds={"weight": (0, 5)})


def _sources(v):
    return v.coverage.get("sources", {})


@needs_vm
def test_the_interpreters_statement_is_what_the_sample_is_compared_with(monkeypatch):
    v = check_claim(_claim())
    assert v.verdict == "verified", v.detail
    assert _sources(v) == {"C interpreter": 2} and v.coverage["cross_checked"] > 0
    plain = vm.statement_at
    seen = []

    def lying(st, state):                 # the interpreter's program, wrong at one position
        seen.append(tuple(state))
        got = plain(st, state)
        return (1 - got) if tuple(state) == (3, 0, 1) else got
    monkeypatch.setattr(check_instance, "statement_at", lying)
    v = check_claim(_claim())
    assert seen and v.verdict == "error"
    assert v.detail.startswith("the evaluators disagree at ") and '"token": 1' in v.detail


def _instances(monkeypatch) -> list:
    """The instances the check makes, in order (a spy on ``Instance.__init__``)."""
    made: list = []
    real = check_instance.Instance.__init__

    def spy(self, *a, **k):
        real(self, *a, **k)
        made.append(self)
    monkeypatch.setattr(check_instance.Instance, "__init__", spy)
    return made


@needs_vm
def test_the_python_path_is_compared_with_its_own_compile(monkeypatch):
    # without the interpreter the sweep judges in Python: the interpreter's program is never
    # asked (a lying one changes nothing), and no instance keeps one
    monkeypatch.setattr(csweep, "VM", False)
    monkeypatch.setattr(check_instance, "statement_at", lambda st, state: pytest.fail("asked"))
    made = _instances(monkeypatch)
    v = check_claim(_claim())
    assert v.verdict == "verified" and "C interpreter" not in _sources(v)
    assert made and all(i.swept_by is None for i in made)


@needs_vm
def test_a_structure_the_interpreter_swept_keeps_its_statement(monkeypatch):
    made = _instances(monkeypatch)
    check_claim(_claim())
    swept = [i for i in made if i.swept_by is not None]
    assert len(swept) == 2
    for i in swept:                       # its program gives what the Python compile gives
        for st in [(0, 0), (2, 0), (0, 0, 1), (4, 1, 0), (4, 1, 1), (0, 3, 1)]:
            if len(st) == len(i.rules.schema):
                assert i.as_judged(st) == int(i.stmt(st))
