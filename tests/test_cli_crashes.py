"""Commands that crashed with a traceback (issue 18, found 9): each now answers, or says in one
line what is wrong (exit 2)."""
from __future__ import annotations

import os
import textwrap

import pytest

import grundy
from grundy.cli import main
from grundy.solvers.gamecheck import check_game, fitting_structures

# A game on rooted trees (root 0): prune a vertex and everything below it. Its rule finds the
# children of each vertex by a search from the root, which fails (KeyError) on a graph with a
# cycle, as a user's tree game would.
TREE_GAME = textwrap.dedent('''\
    from grundy.spec import GraphGame, move


    def children(g):
        parent, kids, order = {0: None}, {0: []}, [0]
        for v in order:
            for u, w in g.edges:
                for a, b in ((u, w), (w, u)):
                    if a == v and b != parent[v]:
                        if b in parent:
                            raise KeyError(b)          # a cycle: not a tree
                        parent[b] = v
                        kids[v].append(b)
                        kids[b] = []
                        order.append(b)
        return kids


    class Prune(GraphGame):
        name = "t-prune"
        summary = "prune a vertex and its subtree (rooted at 0)"
        symmetric = False
        decompose_over = None

        def moves(self, g, s):
            kids = children(g)

            def below(v):
                return [v] + [u for c in kids.get(v, []) for u in below(c)]
            for v in range(g.n):
                yield move(f"prune {v}", guard=s.alive[v], update=s.set(alive={u: False for u in below(v)}))


    class Wheels(Prune):
        name = "t-prune-on-wheels"

        def check_structures(self):         # only graphs with cycles: none of them is a tree
            from grundy.spec import Structure
            return [Structure.graph(range(3), [(0, 1), (1, 2), (0, 2)])]


    GAMES = [Prune(), Wheels()]
    ''')


@pytest.fixture(scope="module")
def tree_games(tmp_path_factory):
    f = tmp_path_factory.mktemp("games") / "trees.py"     # one file: its games register once,
    f.write_text(TREE_GAME)
    with pytest.MonkeyPatch.context() as mp, grundy.spec.GAMES.scoped():   # and are forgotten after these
        mp.setenv("GRUNDY_GAMES", os.environ.get("GRUNDY_GAMES", ""))  # tests (--games sets the variable)
        yield str(f)


def test_check_takes_the_json_edge_list_its_help_shows(capsys):
    assert main(["check", "grim", "[[0,1],[1,2]]", "--no-smt"]) == 0
    out = capsys.readouterr().out
    assert "graph n=3 m=2" in out and out.strip().endswith("0 violated, 0 unknown, 4 ok")
    assert main(["check", "grim", "[[0,1],[1"]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "not a JSON list of edges" in err


def test_check_leaves_out_default_structures_the_game_cannot_be_played_on(tree_games, capsys):
    assert main(["check", "t-prune", "--no-smt", "--games", tree_games]) == 0
    out = capsys.readouterr().out
    assert "Traceback" not in out
    left_out = [ln for ln in out.splitlines() if ln.startswith("not checked on ")]
    assert len(left_out) == 3 and all("KeyError" in ln and "trees.py" in ln for ln in left_out)  # C_4, triangle, K_4
    assert "graph n=3 m=2" in out and "graph n=4 m=3" in out                                   # the path, the star


def test_check_says_in_one_line_when_no_default_structure_fits(tree_games, capsys):
    assert main(["check", "t-prune-on-wheels", "--no-smt", "--games", tree_games]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "Traceback" not in err
    assert "cannot be played on any of its default check structures" in err and "check_positions" in err


def test_check_on_a_structure_the_game_cannot_read_is_one_line(tree_games, capsys):
    assert main(["check", "t-prune", "cycle:4", "--games", tree_games]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "t-prune cannot be played on graph n=4 m=4: KeyError" in err
    assert main(["check", "t-prune", "path:4", "--no-smt", "--games", tree_games]) == 0


def test_fitting_structures_of_a_seed_game_are_its_check_structures():
    for name in ("nim", "grim", "adjacent-nim"):
        game = grundy.spec.GAMES[name]
        assert fitting_structures(game) == (list(game.check_structures()), [])
        assert check_game(name, smt=False).skipped == []


def test_play_shows_a_sum_position():
    p = grundy.Session({"game": "sum", "parts": [{"game": "nim", "heaps": [2]}, {"game": "grim", "edges": [[0, 1]]}]})
    text = str(p)
    assert text.startswith("sum of 2 positions, normal play\n  part 0: nim\n    heap 1 | oo 2\n  part 1: grim")
    assert "Grundy value 3" in text                 # nim 2 XOR grim on an edge (1)
    assert "<svg" in p._repr_html_() and "sum of 2 positions" in p._repr_html_()
    o = p.grundy_move()                            # a winning move exists: to value 0
    assert o.wins and p.value() == 0
    p.undo()
    p.move(0)
    assert str(p).startswith("sum of 2 positions")


def test_play_in_the_terminal_takes_a_sum(tmp_path, capsys, monkeypatch):
    f = tmp_path / "s.json"
    f.write_text('{"game": "sum", "parts": [{"game": "nim", "heaps": [1]}, {"game": "nim", "heaps": [1]}]}')
    import io
    monkeypatch.setattr("sys.stdin", io.StringIO("g\nq\n"))
    assert main(["play", str(f)]) == 0
    out = capsys.readouterr().out
    assert "sum of 2 positions" in out and "grundy plays: part " in out
