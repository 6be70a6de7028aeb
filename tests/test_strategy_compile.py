"""A strategy compiled as one function (grundy.solvers.explicit.strategy) against its cases
compiled one expression at a time: the same first move and the same moves of every case that
applies, at every position of a sweep's first structures, for every strategy claim of theorems/
and for planted strategies (no dispatch variable; cases that test it mixed with cases that do
not; a case that never applies)."""
from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from grundy.solvers.explicit import compile_expr
from grundy.solvers.explicit.strategy import compile_strategy
from grundy.spec import Play, Structure
from grundy.spec.games import GAMES, get_game
from grundy.spec.strategy import move_index, plays
from grundy.verify.families import states
from grundy.verify.loading import load

ROOT = Path(__file__).resolve().parent.parent


def reference(rules, cases):
    """Each case's condition and choices compiled on their own (the Python follower's way before)."""
    compiled = [(compile_expr(rules, p.when), p.move,
                 [compile_expr(rules, p.choice[c.name]) for c in rules.moves[p.move].choices]) for p in cases]

    def every(s):
        return [(mi, tuple(f(s) for f in fs)) for when, mi, fs in compiled if when(s)]
    return every


def agree(rules, cases, positions) -> int:
    first, every = compile_strategy(rules, cases), compile_strategy(rules, cases, every=True)
    ref = reference(rules, cases)
    n = 0
    for s in positions:
        want = ref(s)
        assert every(s) == want, s
        assert first(s) == (want[0] if want else None), s
        n += 1
    return n


STRATEGY_CLAIMS = [c for c in load([str(ROOT / "theorems")]) if c.strategy is not None]


@pytest.mark.parametrize("claim", STRATEGY_CLAIMS, ids=[c.id for c in STRATEGY_CLAIMS])
def test_every_strategy_of_the_theorems_compiles_to_the_same_moves(claim):
    for _, g in itertools.islice(claim.family.items(), 3):
        rules = GAMES[claim.game].rules(g)
        positions = itertools.islice(states(rules, claim.bounds, None), 3000)
        assert agree(rules, plays(claim.strategy, rules), positions) > 0


def test_planted_strategies():
    r = get_game("nim").rules(Structure.heaps(3))
    s = r.state
    mirror = [Play(s.heap[0] > s.heap[1], 0, {"k": s.heap[0] - s.heap[1]}),
              Play(s.heap[1] > s.heap[0], 1, {"k": s.heap[1] - s.heap[0]}),
              Play(s.heap[2] > 0, 2, {"k": s.heap[2]}),
              Play(s.heap[2] > 0, 2, {"k": 1})]           # never first: the case above applies
    assert agree(r, mirror, itertools.product(range(4), repeat=3)) == 64
    g = Structure.graph(range(4), list(itertools.combinations(range(4), 2)))
    r = get_game("edge-nim").rules(g)
    s = r.state
    mv = lambda a, b: move_index(r, f"{g.names[a]}->{g.names[b]},")  # noqa: E731
    mixed = [Play(s.weight[g.edge_id(0, 1)] > 1, mv(0, 1), {"w": s.weight[g.edge_id(0, 1)] - 1}),  # no token test
             Play((s.token == 0) & (s.weight[g.edge_id(0, 2)] > 0), mv(0, 2), {"w": 0}),
             Play((s.token == 1) & (s.weight[g.edge_id(1, 3)] > 0) & (s.token == 1), mv(1, 3), {"w": 0}),
             Play(s.weight[g.edge_id(2, 3)] > 0, mv(2, 3), {"w": s.weight[g.edge_id(2, 3)] // 2}),
             Play((s.token == 3) & False, mv(3, 0), {"w": 0})]
    positions = [w + (t,) for w in itertools.product(range(3), repeat=6) for t in range(4)]
    assert agree(r, mixed, positions) == len(positions)
