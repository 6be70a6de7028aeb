"""Rebuild's own walk (the substitution's visit inline) against the generic Walker.walk: the
same result node for every expression, mapping and subclass, the same nodes built."""
from __future__ import annotations

import random

import pytest

from grundy.solvers.premises.identity import Canonical
from grundy.solvers.smt.rewrite import _Normalize, substituter
from grundy.spec.expr import Expr, Var, all_of, any_of, ite, lift, maximum, minimum, not_
from grundy.spec.ops import Walker
from grundy.spec.rebuild import Rebuild

NAMES = ("x", "y", "z", "w")


pytestmark = pytest.mark.usefixtures("node_table_kept")  # the tests compare nodes by identity


def _int(rng: random.Random, depth: int) -> Expr:
    if depth == 0 or rng.random() < 0.2:
        return lift(rng.randrange(-3, 5)) if rng.random() < 0.3 else Var.int(rng.choice(NAMES))
    a, b = _int(rng, depth - 1), _int(rng, depth - 1)
    pick = rng.randrange(8)
    if pick == 0:
        return a + b
    if pick == 1:
        return a - b
    if pick == 2:
        return a * rng.randrange(-2, 4)
    if pick == 3:
        return a % rng.choice((2, 3, 4))
    if pick == 4:
        return a // rng.choice((2, 3, 4))
    if pick == 5:
        return minimum(a, b)
    if pick == 6:
        return maximum(a, b, lift(1))
    return ite(_bool(rng, depth - 1), a, b)


def _bool(rng: random.Random, depth: int) -> Expr:
    if depth == 0 or rng.random() < 0.15:
        return lift(rng.random() < 0.5) if rng.random() < 0.2 else _int(rng, 0) < _int(rng, 0)
    pick = rng.randrange(6)
    a, b = _int(rng, depth - 1), _int(rng, depth - 1)
    if pick == 0:
        return a < b
    if pick == 1:
        return a <= b
    if pick == 2:
        return a == b
    if pick == 3:
        return not_(_bool(rng, depth - 1))
    items = [_bool(rng, depth - 1) for _ in range(rng.randrange(1, 4))]
    return all_of(items) if pick == 4 else any_of(items)


def _mapping(rng: random.Random) -> dict[str, Expr]:
    out: dict[str, Expr] = {}
    for n in NAMES:
        r = rng.random()
        if r < 0.3:
            out[n] = lift(rng.randrange(-2, 4))
        elif r < 0.5:
            out[n] = Var.int(rng.choice(NAMES)) + rng.randrange(0, 3)
    return out


def test_rebuild_walk_is_the_generic_walk() -> None:
    rng = random.Random(41)
    for _ in range(400):
        e = _bool(rng, 4) if rng.random() < 0.7 else _int(rng, 4)
        m = _mapping(rng)
        assert Rebuild(m).walk(e) is Walker.walk(Rebuild(m), e)
        assert _Normalize(None).walk(e) is Walker.walk(_Normalize(None), e)
        assert Canonical().walk(e) is Walker.walk(Canonical(), e)


def test_a_shared_memo_gives_the_same_nodes() -> None:
    rng = random.Random(9)
    for _ in range(50):
        es = [_bool(rng, 3) for _ in range(4)]
        m = _mapping(rng)
        sub, generic = substituter(m), Rebuild(m)
        assert [sub(e) for e in es] == [Walker.walk(generic, e) for e in es]


def test_nodes_built_in_the_same_order() -> None:
    """The nodes a substitution builds anew, in order: the intern table fills as before."""
    from grundy.spec import expr as ex
    rng = random.Random(3)
    for _ in range(100):
        e, m = _bool(rng, 4), _mapping(rng)
        seen = []
        for generic in (False, True):
            walker = Rebuild(m)
            ex._INTERN.clear()
            if generic:
                Walker.walk(walker, e)
            else:
                walker.walk(e)
            seen.append([k[0] for k in ex._INTERN])
        assert seen[0] == seen[1]
