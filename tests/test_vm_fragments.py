"""The interpreter's move code made once per move (vmcode._one_move): a move's code, made on
registers of its own and moved into each program, gives every program word for word what
writing the move in place gives, whichever structures made the fragments first."""
from __future__ import annotations

import itertools

import pytest

from grundy.solvers.explicit.plan import shared_nodes
from grundy.solvers.native import vmcode, vmstatement
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


def _statements():
    """Statements on three heaps with shared nodes, constants (some only under a short cut),
    nested and/or, and an assumption sharing nodes with them."""
    from grundy.spec.expr import all_of, any_of, ite, lift
    rules = GAMES["nim"].rules(Structure.heaps(3))
    h = rules.state.heap
    s = h[0] + h[1]
    yield rules, (s ^ h[2]) == 0, None
    yield rules, any_of([s < 7, all_of([h[2] == 3, (s ^ 5) == h[1]]), ite(h[0] < 2, h[1], 9) == 4]), h[0] > 0
    yield rules, all_of([any_of([h[k] == k + 11, h[(k + 1) % 3] < 2]) for k in range(3)]) | (s == 40), s < 20
    yield rules, lift(True), any_of([h[0] == 1, h[1] == 2])
    yield rules, ite(s < 3, s + 100, h[2] - 1), None


def test_a_statement_numbered_as_placed_is_the_placed_program():
    # Statement numbers its registers as placed from the start (the pool's size known before):
    # the same program as writing on provisional numbers and placing them
    for rules, stmt, assume in _statements():
        st = vmstatement.Statement(rules, stmt, assume)
        shared = shared_nodes([stmt] if assume is None else [assume, stmt])
        regs, asm, a_reg, pc2, s_reg, nflag = vmstatement._statement(rules, stmt, assume, shared, vmcode.Regs())
        ns, nc = len(rules.schema), len(regs.consts)
        assert st.code.tolist() == asm.place(ns, nc).tolist()
        assert (st.pc2, st.reg2, list(st.regs.consts), st.regs.most) == (pc2, vmcode._placed(s_reg, ns, nc),
                                                                           list(regs.consts), regs.most)
        assert st.reg == (0 if assume is None else vmcode._placed(a_reg, ns, nc)) and st.nflag == nflag


def test_a_pool_other_than_counted_is_written_again(monkeypatch):
    # should the constants' count be off, the statement is written again on provisional numbers
    rules, stmt, assume = list(_statements())[1]
    want = vmstatement.Statement(rules, stmt, assume)
    real = vmstatement._statement
    calls = []

    def off(*a, **k):
        calls.append(a[4].const_base)
        out = real(*a, **k)
        if len(calls) == 1:
            out[0].const(10 ** 6)          # one constant more than counted
        return out
    monkeypatch.setattr(vmstatement, "_statement", off)
    got = vmstatement.Statement(rules, stmt, assume)
    assert len(calls) == 2 and calls[1] == vmcode._CONST
    assert got.code.tolist() == want.code.tolist() and (got.reg, got.reg2) == (want.reg, want.reg2)


def _plan_only(rules, m, skip):
    return None


@pytest.mark.parametrize("name", NAMES)
def test_a_move_without_choices_written_straight_is_the_plans_code(name, monkeypatch):
    # vmcode._plain_move writes a move without choices from its nodes: every program is word for
    # word the one the move plans give (each move through move_plan, ByteSyntax and _move)
    game = GAMES[name]
    rules = [game.rules(g) for g in _structures(game)]
    served = sum(vmcode._plain_move(r, m, None) is not None for r in rules for m in r.moves)
    vmcode._FRAGMENTS.clear()
    straight = [_program(r) for r in rules]
    with monkeypatch.context() as mp:
        mp.setattr(vmcode, "_plain_move", _plan_only)
        vmcode._FRAGMENTS.clear()
        planned = [_program(r) for r in rules]
    vmcode._FRAGMENTS.clear()
    assert straight == planned
    if name in ("grim", "edge-delete"):        # moves of bools alone: every one written straight
        assert served == sum(len(r.moves) for r in rules) > 0


def test_programs_kept_least_recently_used_within_their_bounds(monkeypatch):
    # vmcode._MOVES keeps the programs used last (popped and put back on a hit), at most
    # _MOVES_LIMIT of them and _MOVES_WORDS words in all: a hit gives the program made before
    game = GAMES["grim"]
    rules = list({r.moves_key[0]: r for r in (game.rules(g) for g in _structures(game))}.values())[:5]
    assert len(rules) == 5                            # five move relations
    monkeypatch.setattr(vmcode, "_MOVES_LIMIT", 3)
    vmcode._MOVES.clear()
    made = [vmcode.moves_code(r) for r in rules[:3]]
    assert vmcode.moves_code(rules[0]) is not None and len(vmcode._MOVES) == 3
    vmcode.moves_code(rules[3])                       # the least recently used (rules[1]) goes
    keys = [r.moves_key[0] for r in rules]
    assert keys[1] not in vmcode._MOVES and {keys[0], keys[2], keys[3]} <= set(vmcode._MOVES)
    assert vmcode.moves_code(rules[2])[1] is made[2][1]          # the very program made before
    assert vmcode._held[0] == sum(len(code) for _, _, code in vmcode._MOVES.values())
    monkeypatch.setattr(vmcode, "_MOVES_WORDS", 1)
    vmcode.moves_code(rules[4])                       # past the words allowed: only the last is kept
    assert list(vmcode._MOVES) == [keys[4]] and vmcode._held[0] == len(vmcode._MOVES[keys[4]][2])
