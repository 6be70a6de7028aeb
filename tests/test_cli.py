"""`grundy solve` and `grundy games` as a user runs them: JSON in, one line out per position."""
import json
import subprocess
import sys

import pytest

from grundy.spec.games import GAMES


def run(*args, stdin="", env=None):
    p = subprocess.run([sys.executable, "-m", "grundy.cli", *args], input=stdin, capture_output=True, text=True,
                       timeout=120, env=env)
    return p.returncode, p.stdout, p.stderr


def test_solve_json_lines_one_object_per_position():
    positions = [{"game": "nim", "heaps": [1, 2, 3]}, {"game": "nim", "heaps": [1, 2]},
                 {"game": "edge-nim", "edges": [[0, 1, 2], [1, 2, 2], [2, 0, 2]], "token": 0}]
    code, out, err = run("solve", "--json", "-", stdin="\n".join(json.dumps(p) for p in positions))
    assert code == 0, err
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["grundy"], r["outcome"]) for r in rows] == [(0, "P"), (3, "N"), (2, "N")]


def test_native_kernel_and_pure_python_answer_alike():
    positions = [{"game": "edge-nim", "edges": [[0, 1, 2], [1, 2, 3], [2, 0, 2], [2, 3, 1]], "token": t}
                 for t in range(4)] + [{"game": "wythoff", "heaps": [4, 7]}, {"game": "minnie", "heaps": [3, 5]},
                                       {"game": "nim", "heaps": [2, 2], "convention": "misere"}]
    text = "\n".join(json.dumps(p) for p in positions)
    outs = {mode: run("solve", "--json", "--winning-moves", "--native", mode, "-", stdin=text) for mode in
            ("always", "off", "auto")}
    assert all(code == 0 for code, _, _ in outs.values()), outs
    assert outs["always"][1] == outs["off"][1] == outs["auto"][1]
    code, _, err = run("solve", "--native", "sometimes", "-", stdin=text)
    assert code == 2 and "--native" in err


def test_solve_a_list_with_winning_moves(tmp_path):
    f = tmp_path / "p.json"
    f.write_text(json.dumps([{"game": "nim", "heaps": [2, 3]}]))
    code, out, _ = run("solve", "--json", "--winning-moves", str(f))
    row = json.loads(out)
    assert code == 0 and row["winning_moves"] == [{"move": "take 1 from heap 2",
                                                   "to": {"game": "nim", "heaps": [2, 2]}}]


def test_readable_table_without_json():
    code, out, _ = run("solve", "-", stdin='{"game": "nim", "heaps": [4, 4]}')
    assert code == 0 and "outcome" in out.splitlines()[0] and out.splitlines()[1].split()[-1] == "P"


BAD = [
    ({"game": "chess"}, "game: unknown game 'chess'"),
    ({"heaps": [1]}, "game: missing"),
    ({"game": "nim"}, "heaps: missing"),
    ({"game": "nim", "heaps": [1, -2]}, "heaps[1]: must be a non-negative integer, got -2"),
    ({"game": "nim", "heaps": [1.5]}, "heaps[0]: must be a non-negative integer, got 1.5"),
    ({"game": "edge-nim", "edges": [[0, 1, -1]], "token": 0}, "edges[0][2]"),
    ({"game": "edge-nim", "edges": [[0, 1, "x"]], "token": 0}, "edges[0][2]"),
    ({"game": "edge-nim", "nodes": [0, 1], "edges": [[0, 2, 1]], "token": 0}, "edges[0][1]: 2 is not a listed vertex"),
    ({"game": "edge-nim", "edges": [[0, 1, 1]], "token": 7}, "token: 7 is not a vertex"),
    ({"game": "edge-nim", "edges": [[0, 1, 1]]}, "token: missing"),
    ({"game": "edge-nim", "edges": [[0, 0, 1]], "token": 0}, "edges[0]: loop at 0"),
    ({"game": "nim", "heaps": [1], "convention": "misery"}, "convention"),
]


@pytest.mark.parametrize("position,message", BAD)
def test_bad_input_is_one_line_naming_the_field_and_exit_2(position, message):
    good = {"game": "nim", "heaps": [1, 1]}
    stdin = "\n".join(json.dumps(p) for p in (good, position, good))
    code, out, err = run("solve", "--json", "-", stdin=stdin)
    assert code == 2
    assert "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert message in err
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r.get("outcome") for r in rows] == ["P", None, "P"]  # the others are still answered
    assert message in rows[1]["error"]


def test_malformed_json_line_and_missing_file(tmp_path):
    code, out, err = run("solve", "--json", "-", stdin='{"game": "nim", "heaps": [2]}\n{"game": nim}\n')
    assert code == 2 and "line 2: malformed JSON" in err and "Traceback" not in err
    assert json.loads(out.splitlines()[0])["outcome"] == "N"
    code, _, err = run("solve", str(tmp_path / "nope.json"))
    assert code == 2 and "cannot read" in err and "Traceback" not in err


def test_position_limit_is_reported_not_crashed():
    big = {"game": "edge-nim", "edges": [[0, 1, 9], [1, 2, 9], [2, 3, 9], [3, 0, 9]], "token": 0}
    code, _, err = run("solve", "--max-positions", "100", "-", stdin=json.dumps(big))
    assert code == 2 and "100" in err and "limit" in err and "Traceback" not in err


def test_games_lists_every_game():
    code, out, _ = run("games")
    assert code == 0
    listed = {line.split()[0] for line in out.splitlines() if line and not line.startswith(" ")}
    assert listed == set(GAMES)


def test_every_seed_game_is_registered():
    seed_games = {"edge-nim", "grim", "weighted-grim", "vertexnim", "directed-vertexnim", "adjacent-nim",
                  "vertex-nimg", "nim", "wythoff", "euclid", "greedy-nim", "susen", "jennifer", "restricted-nim",
                  "nimb", "nimtb", "wynnie", "minnie", "mine", "wyg", "wygthoff", "edge-delete", "mig", "octal"}
    assert seed_games <= set(GAMES)


def test_version_matches_the_package_metadata():
    from importlib.metadata import version

    import grundy
    code, out, _ = run("--version")
    assert code == 0
    assert out.strip() == f"grundy {grundy.__version__}"
    assert grundy.__version__ == version("grundy")


def test_a_batch_on_one_graph_answers_as_the_python_path(tmp_path):
    """A family on one structure goes to the kernel in one call; the answers, errors and
    order are those of the Python path, position by position, with the disk caches (vetted
    games, kernel sources, libraries) cold and warm."""
    import itertools
    import os

    from grundy.cli.solve import BATCH
    edges = [[0, 1], [0, 2], [0, 3], [1, 2], [1, 3], [2, 3]]
    family = [{"game": "edge-nim", "edges": [[u, v, w] for (u, v), w in zip(edges, ws)], "token": t}
              for t, ws in zip(itertools.cycle(range(4)), itertools.product((1, 2, 3), repeat=6))][:3 * BATCH]
    family[5] = {**family[5], "convention": "misere"}
    family[9] = {**family[9], "edges": [[0, 1, -1]] + family[9]["edges"][1:]}      # an error in the batch
    family.insert(12, {"game": "nim", "heaps": [3, 5]})
    text = "\n".join(json.dumps(p) for p in family)
    env = {**os.environ, "GRUNDY_CACHE": str(tmp_path)}
    outs = {mode: run("solve", "--json", "--native", mode, "-", stdin=text, env=env)
            for mode in ("auto", "off", "always")}
    assert list((tmp_path / "premises").glob("*.json")) and list((tmp_path / "sources").glob("*.c"))
    assert outs["auto"] == outs["off"] == outs["always"] == run("solve", "--json", "-", stdin=text, env=env)
    code, out, err = outs["auto"]
    assert code == 2 and "position 10: edges[0][2]" in err
    rows = [json.loads(line) for line in out.splitlines()]
    assert out.splitlines() == [json.dumps(r) for r in rows]          # the lines json.dumps writes
    assert [r["index"] for r in rows] == list(range(len(family)))
    assert rows[5]["convention"] == "misere" and "error" in rows[9]
    from grundy import Solver
    from grundy.api import solve
    solver = Solver(native=False)
    for n, (p, r) in enumerate(zip(family, rows)):
        if "error" not in r:
            assert r == {"index": n, **solve(p, solver=solver)}


CHOMP = '''
from grundy.spec import minimum, move
from grundy.spec.heaps import HeapGame


class Chomp(HeapGame):
    """Two-row Chomp on heaps [bottom, top]: not symmetric in its heaps."""
    name = "my-chomp"
    summary = "two-row Chomp (a user's game)"
    heap_count = 2
    symmetric = {symmetric}

    def moves(self, g, s):
        a, b = s.heap[0], s.heap[1]
        yield move("top row to {{j}}", choose=[("j", 0, b - 1)], update=lambda j: s.set(heap={{1: j}}))
        yield move("bottom row to {{j}}", choose=[("j", 1, a - 1)],
                   update=lambda j: s.set(heap={{0: j, 1: minimum(b, j)}}))


GAME = Chomp()
'''


NIM_LIKE = '''
from grundy.spec import move
from grundy.spec.heaps import HeapGame

TOP = {top}                          # the most heap 2 gives up in one move (heap 1: any number)


class NimLike(HeapGame):
    """Nim, but heap 2 gives up at most TOP tokens (None: any number): symmetric only then."""
    name = "my-nim-like"
    summary = "nim with a cap on heap 2 (a user's game)"
    heap_count = 2
    symmetric = True

    def moves(self, g, s):
        h = s.heap
        yield move("take {{k}} from heap 1", choose=[("k", 1, h[0])], update=lambda k: s.set(heap={{0: h[0] - k}}))
        yield move("take {{k}} from heap 2", choose=[("k", 1, h[1] if TOP is None else TOP)],
                   guard=lambda k: h[1] >= k, update=lambda k: s.set(heap={{1: h[1] - k}}))


GAME = NimLike()
'''


def test_premise_proofs_are_kept_on_disk_by_content(tmp_path):
    """The solver proves a reduction's premise by Z3 on the structure before it uses it and keeps
    the proof on disk, keyed by the rules' content: an edit that changes no rule reuses it (Z3 not
    even imported), a changed constant the rule reads is a new key (proved again), and a
    declaration found false is said on stderr while the values stay the rule's own."""
    import os
    cache, games = tmp_path / "cache", tmp_path / "games"
    games.mkdir()
    game = games / "nim_like.py"
    env = {**os.environ, "GRUNDY_CACHE": str(cache)}
    pos = '{"game": "my-nim-like", "heaps": [9, 7]}'
    script = ("import sys; from grundy.cli import main; status = main(sys.argv[1:]); "
              "print('z3' if 'z3' in sys.modules else 'no z3', file=sys.stderr); sys.exit(status)")

    def solve():
        p = subprocess.run([sys.executable, "-c", script, "solve", "--json", "--native", "always",
                            "--games", str(game), "-"], input=pos, capture_output=True, text=True,
                           timeout=120, env=env)
        stored = sorted(f.name for f in (cache / "premises").glob("*.json")) if (cache / "premises").is_dir() else []
        *err, how = p.stderr.splitlines()
        return p.returncode, json.loads(p.stdout)["grundy"], "\n".join(err), how, stored

    game.write_text(NIM_LIKE.format(top=None))                  # nim: symmetric
    code, value, err, how, stored = solve()
    assert (code, value, err, how) == (0, 9 ^ 7, "", "z3")
    assert len(stored) == 1                                     # the symmetry proof
    game.write_text(NIM_LIKE.format(top=None) + "# an edit that changes no rule\n")
    assert solve() == (0, value, "", "no z3", stored)           # the proof read from disk
    game.write_text(NIM_LIKE.format(top=3))                     # heap 2 plays S(1..3): no symmetry
    code, value, err, how, stored3 = solve()
    assert code == 0 and value == 9 ^ (7 % 4) and how == "z3"   # the values of the rule itself
    assert "my-nim-like: the rule does not commute with swapping heaps 0 and 1" in err
    assert "\n" not in err and len(stored3) == 2
    assert solve() == (0, value, err, "no z3", stored3)         # the stored violation: said again


def test_a_premise_key_is_the_rules_content():
    """Two games of one name whose rules differ (a module constant the rule reads) get different
    keys; the same rules on the same structure, the same key."""
    from grundy import Structure
    from grundy.solvers import premises
    from grundy.spec import move
    from grundy.spec.heaps import HeapGame

    def nim_like(top):
        class Capped(HeapGame):
            name = "cap-test"
            summary = "a test game"

            def moves(self, g, s):
                for i in g.elements:
                    yield move(f"take {{k}} from heap {i}", choose=[("k", 1, s.heap[i])],
                               guard=lambda k: k <= top, update=lambda k, i=i: s.set(heap={i: s.heap[i] - k}))
        return Capped()
    g = Structure.heaps(2)
    a, b, c = nim_like(3).rules(g), nim_like(3).rules(g), nim_like(4).rules(g)
    key = premises._key("symmetry", a, [])
    assert key == premises._key("symmetry", b, []) != premises._key("symmetry", c, [])
    assert premises._key("symmetry", a, []) != premises._key("decomposition", a, [])


def test_progress_on_stderr_only_when_asked_or_on_a_terminal():
    text = "\n".join(json.dumps({"game": "wythoff", "heaps": [i, 7]}) for i in range(5))
    quiet = run("solve", "--json", "-", stdin=text)
    loud = run("solve", "--json", "--progress", "-", stdin=text)
    assert quiet[0] == loud[0] == 0 and quiet[1] == loud[1]          # the answers alike
    assert quiet[2] == ""                                            # stderr is no terminal here
    assert loud[2].startswith("grundy solve: 5 positions read, solving\n")


def test_the_command_collects_garbage_less_often_and_forks_its_workers_so(tmp_path):
    """``grundy`` raises the youngest generation's threshold (docs/performance.md) in its own
    process, and the verify workers it forks inherit it; only when garbage is collected
    changes, so a claim's verdict is the one a default-threshold run gives."""
    import gc

    from grundy.cli import GC_YOUNG, main
    before = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        f = tmp_path / "t.py"
        f.write_text("import gc\nfrom grundy.verify import Claim, heaps\n"
                     "def equal(g, s):\n"
                     "    assert gc.get_threshold()[0] == %d, gc.get_threshold()   # where the claim is checked\n"
                     "    return s.heap[0] == s.heap[1]\n"
                     "CLAIMS = [Claim('t/nim', game='nim', kind='char', family=heaps(2), bounds={'heap': 4},\n"
                     "                statement=equal, expect='verified')]\n" % GC_YOUNG)
        assert main(["verify", str(f), "--no-cache", "--jobs", "2"]) == 0
        assert gc.get_threshold()[:1] == (GC_YOUNG,)
    finally:
        gc.set_threshold(*before)


def test_only_given_twice_keeps_both_lists(tmp_path):
    f = tmp_path / "t.py"
    f.write_text("from grundy.verify import Claim, heaps\n"
                 "CLAIMS = [Claim(f't/{n}', game='nim', kind='char', family=heaps(2), bounds={'heap': 3},\n"
                 "                statement=lambda g, s: s.heap[0] == s.heap[1], expect='verified')\n"
                 "          for n in ('a', 'b', 'c')]\n")
    rc, out, err = run("verify", str(f), "--no-cache", "--json", "--only", "t/a", "--only", "t/c")
    assert rc == 0, err
    assert sorted(json.loads(ln)["id"] for ln in out.splitlines() if ln.startswith("{")) == ["t/a", "t/c"]


def test_a_misspelt_option_or_command_is_one_line_with_the_nearest_spelling(capsys):
    import pytest

    from grundy.cli import main
    for argv, want in ((["verify", "theorems/", "--jbos", "2"], "did you mean --jobs?"),
                       (["solv", "nim", "3"], "did you mean solve?"),
                       (["solve", "nim", "3", "--winnig-moves"], "did you mean --winning-moves?")):
        with pytest.raises(SystemExit) as e:
            main(argv)
        assert e.value.code == 2
        err = capsys.readouterr().err
        assert want in err and err.count("\n") == 1 and "usage:" not in err, err


def test_a_long_list_of_winning_moves_is_capped_with_a_count(capsys):
    from grundy.cli import main
    assert main(["solve", "nim", *["1"] * 41, "--winning-moves"]) == 0
    out = capsys.readouterr().out
    assert out.count("winning: take 1") == 20 and "... and 21 more winning moves (41 in all" in out, out
