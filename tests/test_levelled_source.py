"""A level store as a value source (grundy/solvers/levelled/source.py) and ``grundy solve --store``:
its values are the memo solver's, a store of other rules is refused, a position it does not hold
goes to the next source, a store whose record is changed or whose run is unfinished answers nothing."""
import json

import numpy as np
import pytest

from grundy import Solver
from grundy.cli import main
from grundy.solvers.levelled import Grid, solve_levelled
from grundy.solvers.levelled.source import LevelStoreSource, open_stores
from grundy.solvers.native import build
from grundy.solvers.sources import Query
from grundy.spec import Position, move
from grundy.spec.games import get_game
from grundy.spec.structure import Structure

pytestmark = pytest.mark.skipif(not build.available(), reason="no C compiler")

EDGE_NIM = get_game("edge-nim")


def kn(n: int) -> Structure:
    return Structure.graph(range(n), [(u, v) for u in range(n) for v in range(u + 1, n)])


def grid(n: int) -> Grid:
    return Grid(tuple([(1, 2)] * (n * (n - 1) // 2) + [tuple(range(n))]))


def with_store(store) -> tuple[Solver, LevelStoreSource]:
    solver = Solver(native="always")
    src = LevelStoreSource(store)
    solver.sources = (src, *solver.sources)
    return solver, src


def every_state(store):
    box = store.kernel.box
    return [box.state(int(k)) for _, keys, _ in store.levels() for k in keys]


@pytest.mark.parametrize("n", [4, 5])
def test_values_from_the_store_are_the_memo_solvers(n, tmp_path):
    g = kn(n)
    st = solve_levelled(EDGE_NIM, g, grid(n), engine="numpy", root=tmp_path)
    states = every_state(st)
    rng = np.random.default_rng(n)          # the positions in another order than the store's
    states = [states[i] for i in rng.permutation(len(states))]
    solver, src = with_store(st)
    got = solver.grundy_states(EDGE_NIM, g, states)
    assert got == Solver().grundy_states(EDGE_NIM, g, states)
    assert list(src.used.values()) == [st.positions] and not src.refusals
    # who wins, one position at a time (the solver's single-position path), from the store too
    few = states[:20]
    solver2, src2 = with_store(st)
    assert [solver2.mover_wins(Position(EDGE_NIM, g, s, "normal")) for s in few] == [v != 0 for v in got[:20]]
    assert list(src2.used.values()) == [len(set(map(tuple, few)))]


def test_a_store_of_other_rules_is_refused(tmp_path):
    g = kn(4)
    st = solve_levelled(EDGE_NIM, g, grid(4), engine="numpy", root=tmp_path)
    src = LevelStoreSource(st)
    assert src.problem is None and src.can_answer(None, Query(EDGE_NIM, g, "normal", "grundy"))

    class OneOnly(type(EDGE_NIM)):          # the same fields, another move relation: take exactly 1
        name = "edge-nim-one"

        def moves(self, g, s):
            for u, v in g.arcs:
                e = g.edge_id(u, v)
                yield move(f"take 1 from {u}-{v}", guard=(s.token == u) & (s.weight[e] > 0),
                           update=lambda e=e, v=v: s.set(weight={e: s.weight[e] - 1}, token=v))
    other = OneOnly()
    assert other.rules(g).schema.slots == EDGE_NIM.rules(g).schema.slots
    assert not src.can_answer(None, Query(other, g, "normal", "grundy"))
    assert src.values(None, Query(other, g, "normal", "grundy"), [(1,) * 6 + (0,)]) is None
    assert "other rules (IR digest" in src.refusals[-1]
    k4_less = Structure.graph(range(4), [(0, 1), (0, 2), (0, 3), (1, 2), (1, 3)])   # another structure
    assert not src.can_answer(None, Query(EDGE_NIM, k4_less, "normal", "grundy"))
    assert len(src.refusals) == 2
    # the solver with it answers the other game from its own sources: the move relation's values
    solver, _ = with_store(st)
    states = every_state(st)[:40]
    assert solver.grundy_states(other, g, states) == Solver().grundy_states(other, g, states)
    assert not src.can_answer(None, Query(EDGE_NIM, g, "misere", "grundy"))     # normal play only


def test_a_position_outside_the_store_falls_through(tmp_path):
    g = kn(4)
    start = (2, 1, 1, 2, 1, 1, 0)
    st = solve_levelled(EDGE_NIM, g, [start], engine="numpy", root=tmp_path)
    solver, src = with_store(st)
    held = [start, (1, 1, 1, 2, 1, 1, 1)]           # the start and a child of it (0->1, weight 2 to 1)
    beyond = [(2, 2, 2, 2, 2, 2, 1),       # inside the box, not reachable from the start (a larger rank)
              (3, 1, 1, 1, 1, 1, 0)]       # outside the box
    q = Query(EDGE_NIM, g, "normal", "grundy")
    assert src.values(None, q, beyond) is None
    assert src.values(None, q, held + beyond) == Solver().grundy_states(EDGE_NIM, g, held)   # the held ones only
    mixed = beyond[:1] + held + beyond[1:]
    fresh, src2 = with_store(st)
    assert fresh.grundy_states(EDGE_NIM, g, mixed) == Solver().grundy_states(EDGE_NIM, g, mixed)
    assert src2.used == {}             # the first state is not held: the next source answered the batch
    assert [fresh.grundy_states(EDGE_NIM, g, [s])[0] for s in mixed] == Solver().grundy_states(EDGE_NIM, g, mixed)
    assert list(src2.used.values()) == [2]


def test_a_changed_record_or_an_unfinished_run_answers_nothing(tmp_path):
    g = kn(3)
    st = solve_levelled(EDGE_NIM, g, grid(3), engine="numpy", root=tmp_path / "a")
    mf = st.path / "manifest.json"
    rec = json.loads(mf.read_text())
    rec["parts"]["symmetry"] = not rec["parts"]["symmetry"]
    mf.write_text(json.dumps(rec))
    src = LevelStoreSource(open_stores(st.path)[0])
    assert "does not give its digest" in src.problem
    assert not src.can_answer(None, Query(EDGE_NIM, g, "normal", "grundy"))
    cut = solve_levelled(EDGE_NIM, g, grid(3), engine="numpy", root=tmp_path / "b", max_levels=9)
    assert cut.stopped is not None
    assert LevelStoreSource(cut).problem == "its run is not finished"


def test_an_outcome_store_answers_who_wins_only(tmp_path):
    g = kn(4)
    st = solve_levelled(EDGE_NIM, g, grid(4), engine="numpy", root=tmp_path, mode="outcome")
    src = LevelStoreSource(st)
    states = every_state(st)
    assert not src.can_answer(None, Query(EDGE_NIM, g, "normal", "grundy"))
    wins = Query(EDGE_NIM, g, "normal", "wins")
    assert src.can_answer(None, wins)
    assert src.values(None, wins, states) == [v != 0 for v in Solver().grundy_states(EDGE_NIM, g, states)]


def _k4_json(weights, token):
    edges = [(u, v) for u in range(4) for v in range(u + 1, 4)]
    return json.dumps({"game": "edge-nim", "nodes": [0, 1, 2, 3],
                       "edges": [[u, v, w] for (u, v), w in zip(edges, weights)], "token": token})


def test_grundy_solve_with_a_store_says_what_it_answered(tmp_path, capsys):
    st = solve_levelled(EDGE_NIM, kn(4), grid(4), engine="numpy", root=tmp_path / "stores")
    f = tmp_path / "positions.jsonl"
    k4_less = json.dumps({"game": "edge-nim", "nodes": [0, 1, 2, 3], "token": 0,
                          "edges": [[0, 1, 2], [0, 2, 1], [0, 3, 2], [1, 2, 1], [1, 3, 1]]})
    f.write_text("\n".join([_k4_json([2, 1, 2, 1, 1, 2], 0), _k4_json([2, 0, 0, 0, 1, 0], 2),
                            _k4_json([3, 1, 2, 1, 1, 2], 0), k4_less]) + "\n")
    assert main(["solve", str(f), "--json"]) == 0
    plain, _ = capsys.readouterr()
    assert main(["solve", str(f), "--json", "--store", str(tmp_path / "stores")]) == 0    # a folder of stores
    out, err = capsys.readouterr()
    assert out == plain
    assert f"2 positions answered from the level store {st.digest[:16]}" in err
    assert "is not used for edge-nim on" in err and "other rules (IR digest" in err     # K_4 less an edge
    assert main(["solve", str(f), "--json", "--store", str(tmp_path / "nothing")]) == 2
    out, err = capsys.readouterr()
    assert out == plain and "--store" in err and "no level store there" in err
