"""The Z3 runner's speed-ups change no answer: the C API translation gives the very terms z3's
operators gave, and a bit-vector violation's model is the untuned QF_BV solver's."""
from __future__ import annotations

import z3

from grundy.solvers.smt import encoding, runner
from grundy.solvers.smt.obligations import check_partition
from grundy.spec import Structure, ite
from grundy.spec.games import get_game


def _expected(enc, e, w):
    """``e`` translated with z3's Python operators (what the translator did before)."""
    t = enc.translator(w)
    h = [t.vars[n] for n in enc.names]

    def walk(a, b, c):
        return z3.And(z3.If(a < b, a - b * (3 if w is None else z3.BitVecVal(3, w)), c + 1) <= b, z3.Not(a == c))
    return walk(*h)


def test_translation_is_the_same_terms():
    r = get_game("nim").rules(Structure.heaps(3))
    h = r.state.heap
    e = (ite(h[0] < h[1], h[0] - h[1] * 3, h[2] + 1) <= h[1]) & ~(h[0] == h[2])
    for width in (None, 16):
        enc = encoding(r, width)
        w = enc.width_for([e])
        got = enc.to_z3(e, w)
        assert got.eq(_expected(enc, e, w)), (width, got.sexpr())   # hash-consed: the same term


def test_bv_violation_model_is_the_untuned_solvers(monkeypatch):
    r = get_game("nim").rules(Structure.heaps(2))
    s = r.state
    wrong = s.heap[0] <= s.heap[1]                      # not Nim's P-positions: PN is violated

    def bad():
        runner.HOLDS.clear()
        out = check_partition(r, wrong, width=12, first_violation=True)
        return [(x.obligation, x.status, x.state, x.choices) for x in out]
    tuned = bad()
    monkeypatch.setattr(runner, "BV_PARAMS", {})
    plain = bad()
    assert tuned == plain and tuned[-1][1] == "violated"


def test_bv_params_are_set_on_the_bv_solver():
    s = runner.solver_for(False, True)
    assert "simplify.delay" in runner.BV_PARAMS
    assert "QF_BV" in runner._solver_name(False, True) and "simplify.delay" in runner._solver_name(False, True)
    assert s.check() == z3.sat                           # a solver that works with them
