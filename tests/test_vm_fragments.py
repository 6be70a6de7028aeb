"""The interpreter's move code made once per move (vmcode._one_move): a move's code, made on
registers of its own and moved into each program, gives every program word for word what
writing the move in place gives, whichever structures made the fragments first."""
from __future__ import annotations

import itertools

import pytest

from grundy.solvers.native import vmcode
from grundy.spec import HeapRule
from grundy.spec.games import GAMES
from grundy.spec.structure import Structure


class _NoCache(dict):
    """A fragment cache that keeps nothing: every move written where it is used."""

    def get(self, key, default=None):
        return None

    def __setitem__(self, key, value):
        pass


def _structures(game) -> list[Structure]:
    """Every graph on 3 vertices (a third of the digraphs) with a loop on vertex 0 or none, or
    1 to 3 heaps."""
    if game.structure == "heaps":
        return [Structure.heaps(game.heap_count or k) for k in (1, 2, 3)]
    pairs = [(u, v) for u in range(3) for v in range(3) if u != v and (game.structure == "digraph" or u < v)]
    out = []
    for r in range(len(pairs) + 1):
        for arcs in itertools.combinations(pairs, r):
            for loops in ([], [0]):
                out.append(Structure.graph(range(3), arcs, loops, directed=game.structure == "digraph"))
    return out if game.structure == "graph" else out[::3]      # (a third of the 128 digraphs)


def _program(rules):
    vmcode._MOVES.clear()
    regs, code = vmcode.moves_code(rules)
    return list(regs.consts), regs.most, code.tolist()


NAMES = sorted(n for n, g in GAMES.items() if not isinstance(g, HeapRule))


@pytest.mark.parametrize("name", NAMES)
def test_moved_fragments_are_the_code_written_in_place(name, monkeypatch):
    game = GAMES[name]
    rules = [game.rules(g) for g in _structures(game)]
    with monkeypatch.context() as m:
        m.setattr(vmcode, "_FRAGMENTS", _NoCache())
        plain = [_program(r) for r in rules]
    vmcode._FRAGMENTS.clear()
    warm = [_program(r) for r in reversed(rules)][::-1]     # fragments made by other structures first
    assert warm == plain
    moves = sum(len(r.moves) for r in rules)
    if moves:
        assert 0 < len(vmcode._FRAGMENTS) <= moves
