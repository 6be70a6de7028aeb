"""The symmetry premise by construction (grundy.solvers.premises.identity): a generator whose
image of every move is a move term for term needs no Z3; anything else goes to Z3 as before.
Planted rules that are not symmetric must come out violated (never "by construction"), and
symmetric rules written so that the terms differ must still be proved (by Z3)."""
from __future__ import annotations

import itertools

import pytest

from grundy.solvers import premises
from grundy.solvers.premises.identity import Canonical
from grundy.spec import Field, Game, Structure, any_of, count, move
from grundy.spec.expr import Var, ite, maximum, minimum, show
from grundy.spec.games import get_game
from grundy.spec.heaps import HeapGame

pytestmark = pytest.mark.usefixtures("node_table_kept")  # canonical forms compared by identity


def _take(s, i: int, guard):
    return move(f"take {{k}} from heap {i + 1}", choose=[("k", 1, s.heap[i])], guard=guard,
                update=lambda k: s.set(heap={i: s.heap[i] - k}))


class TwoNims(HeapGame):
    """Nim on two heaps, each heap's move written by ``guard(s, i, k)``."""
    name = "test-identity-nim"
    summary = "a test game"
    heap_count = 2

    @staticmethod
    def guard(s, i, k):
        return s.heap[i] >= k

    def moves(self, g, s):
        for i in g.elements:
            yield _take(s, i, lambda k, i=i: self.guard(s, i, k))


class TwoNimsWrittenApart(TwoNims):
    """Still Nim on both heaps, but heap 2's guard is another term of the same meaning."""
    @staticmethod
    def guard(s, i, k):
        return s.heap[i] >= k if i == 0 else s.heap[i] - k >= 0


class OneConstantOff(TwoNims):
    """Heap 2 cannot be emptied (its guard differs by one constant): not symmetric."""
    @staticmethod
    def guard(s, i, k):
        return s.heap[i] >= k if i == 0 else s.heap[i] >= k + 1


class LopsidedGrim(Game):
    """Delete a live vertex; vertex 0 only if it has a live neighbour (the guard reads a
    neighbour on one side only): the reversal of a path is no symmetry."""
    name = "test-identity-lopsided"
    summary = "a test game"
    structure = "graph"

    def fields(self, g):
        return [Field("alive", over="vertices", kind="bool")]

    def moves(self, g, s):
        for v in g.vertices:
            guard = s.alive[v] & any_of(s.alive[u] for u in g.neighbours(v)) if v == 0 else s.alive[v]
            yield move(f"delete {v}", guard=guard, update=s.set(alive={v: False}))

    def rank(self, g, s):
        return count(s.alive[v] for v in g.vertices)


def _values(rules, states):
    """Grundy values by brute force over the concrete rule (every move's result evaluated)."""
    from grundy.solvers.premises.symmetry import _made
    memo: dict = {}

    def g(s):
        if s not in memo:
            opts = {g(t) for mi, m in enumerate(rules.moves) for cv in _choices(m, s, rules)
                    if (t := _made(rules, mi, cv, s)) is not None}
            memo[s] = next(x for x in itertools.count() if x not in opts)
        return memo[s]
    return [g(s) for s in states]


def _choices(m, s, rules):
    if not m.choices:
        return [()]
    return [(k,) for k in range(0, max(s) + 2)]


def test_nim_and_grim_are_symmetric_by_construction():
    p = premises.prove_symmetry(TwoNims().rules(Structure.heaps(2)), cache=False)
    assert p.status == "proved" and "proved by construction" in p.how
    for g in (Structure.graph(range(9), [(i, i + 1) for i in range(8)]),
              Structure.graph(range(7), [(i, (i + 1) % 7) for i in range(7)])):
        p = premises.prove_symmetry(get_game("grim").rules(g), cache=False)
        assert p.status == "proved" and "proved by construction" in p.how, p.how


def test_the_same_meaning_written_apart_goes_to_z3_and_is_proved():
    p = premises.prove_symmetry(TwoNimsWrittenApart().rules(Structure.heaps(2)), cache=False)
    assert p.status == "proved" and p.how.endswith("proved by Z3, 1 generator")
    tiny = premises.prove_symmetry(TwoNimsWrittenApart().rules(Structure.heaps(2)), cache=False, budget=1)
    assert tiny.status == "unknown"            # the Z3 path, within its budget


class ThreeNimsOneApart(TwoNims):
    """Nim on three heaps, heap 3's guard written apart: the swap of heaps 1 and 2 maps the
    moves term for term, the cycle needs Z3."""
    heap_count = 3

    @staticmethod
    def guard(s, i, k):
        return s.heap[i] >= k if i < 2 else s.heap[i] - k >= 0


def test_generators_shown_by_construction_and_by_z3_are_both_named():
    p = premises.prove_symmetry(ThreeNimsOneApart().rules(Structure.heaps(3)), cache=False)
    assert p.status == "proved" and p.how == "symmetry (S_3 on heaps) proved by construction and by Z3 (1), 2 generators"


def test_one_constant_off_is_violated_not_by_construction():
    r = OneConstantOff().rules(Structure.heaps(2))
    p = premises.prove_symmetry(r, cache=False)
    assert p.status == "violated" and "by construction" not in p.how
    a, b = p.state
    assert _values(r, [(a, b)]) != _values(r, [(b, a)])      # the concrete rule: the two orders differ


def test_a_guard_reading_one_side_only_is_violated():
    path = Structure.graph(range(3), [(0, 1), (1, 2)])
    r = LopsidedGrim().rules(path)
    p = premises.prove_symmetry(r, cache=False)
    assert p.status == "violated" and "by construction" not in p.how
    s = tuple(int(x) for x in p.state)
    assert _values(r, [s]) != _values(r, [s[::-1]])


def test_the_canonical_form_uses_only_identities():
    x, y, z = Var.int("x"), Var.int("y"), Var.int("z")
    a, b = Var.bool("a"), Var.bool("b")
    c = Canonical()
    assert c(x + y == z) is c(z == y + x)                      # = and + commute
    assert c(minimum([x, y, z])) is c(minimum([z, x, y])) and c(maximum([x, y])) is c(maximum([y, x]))
    assert c((a & b) | (b & a & a)) is c(b & a)                # ∧ idempotent, ∨ of one term
    assert c(x - y) is not c(y - x) and c(x < y) is not c(y < x) and c(x <= y) is not c(y <= x)
    assert c(ite(a, x, y)) is not c(ite(a, y, x)) and c(a & ~b) is not c(~a & b)
    assert show(c(x - y < z)) == show(x - y < z)               # nothing else rewritten


def test_a_rule_reading_vertex_numbers_is_violated_not_by_construction():
    """test-upward-walk moves the token to a larger-numbered neighbour only: on a path the
    reversal maps the token's values through a table, which is read backwards in the guards,
    and the moves still differ: Z3 finds the violation."""
    import sys
    from pathlib import Path
    sys.path.insert(0, str(Path(__file__).parent / "soundness"))
    import _premise_games
    _premise_games.register()        # (again: an earlier file's may have been forgotten with its scope)
    path = Structure.graph(range(3), [(0, 1), (1, 2)])
    p = premises.prove_symmetry(get_game("test-upward-walk").rules(path), cache=False)
    assert p.status == "violated" and "by construction" not in p.how


def test_token_games_are_symmetric_by_construction_through_their_value_maps():
    k4 = Structure.graph(range(4), [(a, b) for a in range(4) for b in range(a + 1, 4)])
    for name in ("vertexnim", "edge-nim"):
        p = premises.prove_symmetry(get_game(name).rules(k4), cache=False)
        assert p.status == "proved" and "proved by construction" in p.how, (name, p.how)


def test_a_value_map_is_read_backwards_only_when_one_to_one_and_bounded():
    from grundy.solvers.premises.groups import Generator
    from grundy.solvers.premises.symmetry import _by_identity
    r = get_game("edge-nim").rules(Structure.graph(range(3), [(0, 1), (1, 2)]))
    (gen,) = premises.symmetry_group(r).generators
    assert _by_identity(r, gen)
    assert r.schema.var_name(len(r.schema) - 1).startswith("token") and gen.tables[-1] == (2, 1, 0)
    squashed = Generator(gen.what, gen.perm, gen.tables[:-1] + ((0, 0, 0),), gen.lows)   # not one-to-one
    assert not _by_identity(r, squashed)
    wrong = Generator(gen.what, gen.perm, gen.tables[:-1] + ((1, 0, 2),), gen.lows)       # not the edges' map
    assert not _by_identity(r, wrong)


def test_by_construction_after_the_caches_are_released():
    """The encoding and the rules may hold nodes made before the intern table was cleared (a
    chunk's caches released): the identity still holds (every node compared is rebuilt now).
    Failed before: a bound ``x >= lo`` made after the clearing was a new node, so the proof went
    to Z3 (slower, never wrong)."""
    from grundy import caches
    k4 = Structure.graph(range(4), [(a, b) for a in range(4) for b in range(a + 1, 4)])
    rules = get_game("edge-nim").rules(k4)
    first = premises.prove_symmetry(rules, cache=False).how
    caches.release()
    again = premises.prove_symmetry(rules, cache=False).how
    assert "proved by construction" in first and again == first


def test_a_restart_of_the_node_table_mid_check_gives_the_same_answer(monkeypatch):
    """The node table starting again during the check (equal terms built before and after it
    are two nodes) makes the check run once more: still "by construction"."""
    from grundy.solvers.premises import identity
    from grundy.spec import nodetable
    calls = []
    plain = identity._commutes

    def torn(*args):
        calls.append(1)
        if len(calls) == 1:
            nodetable._restart()                 # as if the table filled up in the middle
        return plain(*args)

    monkeypatch.setattr(identity, "_commutes", torn)
    p = premises.prove_symmetry(TwoNims().rules(Structure.heaps(2)), cache=False)
    assert p.status == "proved" and "proved by construction" in p.how, p.how
    assert len(calls) == 2


def test_a_check_torn_every_time_leaves_it_to_z3(monkeypatch):
    """A table that starts again during every attempt (as if the check needed more nodes than
    it holds): never "by construction" from a torn check, and the symmetry still proved (by Z3)."""
    from grundy.solvers.premises import identity
    ticks = iter(range(10**6))
    monkeypatch.setattr(identity, "node_table_restarts", lambda: next(ticks))   # moves at each look
    p = premises.prove_symmetry(TwoNims().rules(Structure.heaps(2)), cache=False)
    assert p.status == "proved" and p.how.endswith("proved by Z3, 1 generator"), p.how
