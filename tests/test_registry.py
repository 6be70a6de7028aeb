"""Games outside the package: --games, GRUNDY_GAMES, entry points, Claim(game=obj), broken files."""
import json
import os
import subprocess
import sys
import textwrap

import pytest

import grundy
from grundy.spec import Game, GameError, HeapGame, load_games
from grundy.spec.registry import GAMES, Registry
from grundy.verify import Claim, ClaimError, heaps
from grundy.verify.loading import LoadError, load

TAKE = '''
from grundy.spec import HeapGame, move


class Take(HeapGame):
    decompose_over = "heaps"

    def __init__(self, name, amounts):
        self.name, self.amounts, self.summary = name, amounts, f"take {amounts} from one heap"

    def moves(self, g, s):
        for i in g.elements:
            for a in self.amounts:
                yield move(f"take {a} from heap {i}", guard=s.heap[i] >= a,
                           update=s.set(heap={i: s.heap[i] - a}))

    def present(self, g, s, i):
        return s.heap[i] > 0
'''


@pytest.fixture(autouse=True)
def _forget_test_games():
    """Games registered by a test are forgotten after it (other tests list every game)."""
    from grundy.spec.registry import GAMES as registry
    with registry.scoped():
        yield


def write(path, text):
    path.write_text(textwrap.dedent(text))
    return path


def run(*args, stdin="", env=None):
    p = subprocess.run([sys.executable, "-m", "grundy.cli", *args], input=stdin, capture_output=True,
                       text=True, timeout=120, env={**os.environ, **(env or {})})
    return p.returncode, p.stdout, p.stderr


def take_values(amounts, n):
    """G(0..n) of a take-away game by the plain recursion."""
    g = []
    for h in range(n + 1):
        opts = {g[h - a] for a in amounts if a <= h}
        g.append(next(m for m in range(len(opts) + 1) if m not in opts))
    return g


def test_a_game_file_registers_every_game_object_at_module_level(tmp_path):
    f = write(tmp_path / "mine.py", TAKE + 'A = Take("t-reg-a", (1, 2))\nB = [Take("t-reg-b", (2, 5))]\n')
    games = load_games(f)
    assert sorted(g.name for g in games) == ["t-reg-a", "t-reg-b"]
    want = take_values((2, 5), 12)
    got = [grundy.solve({"game": "t-reg-b", "heaps": [n]})["grundy"] for n in range(13)]
    assert got == want
    assert GAMES.origin("t-reg-a") == str(f.resolve())
    assert load_games(f)                      # loading the same file again replaces its own games


def test_a_game_file_may_import_its_siblings_and_a_folder_loads_every_file(tmp_path):
    write(tmp_path / "rules.py", TAKE)
    write(tmp_path / "one.py", 'from rules import Take\nONE = Take("t-sib-one", (1,))\n')
    write(tmp_path / "two.py", 'from rules import Take\nTWO = Take("t-sib-two", (1, 2))\n')
    write(tmp_path / "_private.py", 'raise RuntimeError("never loaded")\n')
    names = {g.name for g in load_games(tmp_path)}
    assert names == {"t-sib-one", "t-sib-two"}
    other = tmp_path / "other"                    # another folder's rules.py is its own
    other.mkdir()
    write(other / "rules.py", TAKE.replace('f"take {amounts} from one heap"', '"another rules module"'))
    write(other / "three.py", 'from rules import Take\nTHREE = Take("t-sib-three", (1,))\n')
    (three,) = load_games(other / "three.py")
    assert three.summary == "another rules module"


def test_a_clash_with_a_built_in_game_and_a_reserved_name_are_one_line_errors(tmp_path):
    f = write(tmp_path / "clash.py", TAKE + 'NIM = Take("nim", (1,))\n')
    with pytest.raises(GameError, match=r"clash.py: two games named 'nim': one in .*clash.py clashes with the built-in game"):
        load_games(f)
    g = write(tmp_path / "sum.py", TAKE + 'S = Take("sum", (1,))\n')
    with pytest.raises(GameError, match="reserved"):
        load_games(g)
    code, out, err = run("solve", "--games", str(f), "-", stdin='{"game": "nim", "heaps": [1]}')
    assert code == 2 and len(err.strip().splitlines()) == 1 and "clashes with the built-in game" in err


def test_a_broken_game_file_names_file_and_line_and_spares_commands_that_do_not_use_it(tmp_path):
    bad = write(tmp_path / "bad.py", "import grundy\n\nx = undefined_name + 1\n")
    code, out, err = run("solve", "--games", str(bad), "-", stdin='{"game": "nim", "heaps": [1]}')
    assert code == 2 and "Traceback" not in err
    assert err.strip() == f"grundy: {bad}:3: NameError: name 'undefined_name' is not defined"
    env = {"GRUNDY_GAMES": str(bad)}
    code, out, err = run("solve", "--json", "-", stdin='{"game": "nim", "heaps": [1, 2]}', env=env)
    assert code == 0 and json.loads(out)["grundy"] == 3 and err == ""
    code, out, err = run("solve", "-", stdin='{"game": "unknown-here", "heaps": [1]}', env=env)
    assert code == 2 and f"{bad}:3" in err and len(err.strip().splitlines()) == 1
    code, out, err = run("games", env=env)
    assert code == 2 and "nim  [heaps" in out and f"{bad}:3" in err
    syntax = write(tmp_path / "syn.py", "def f(:\n")
    code, _, err = run("games", "--games", str(syntax))
    assert code == 2 and f"{syntax}:1: syntax error" in err


def test_grundy_games_env_and_the_games_option_on_every_command(tmp_path):
    f = write(tmp_path / "g.py", TAKE + 'T = Take("t-env", (1, 3))\n')
    pos = '{"game": "t-env", "heaps": [2, 5]}'
    want = take_values((1, 3), 5)[2] ^ take_values((1, 3), 5)[5]
    for args, env in ((("--games", str(f)), None), ((), {"GRUNDY_GAMES": os.pathsep.join(["", str(f)])})):
        code, out, err = run("solve", "--json", *args, "-", stdin=pos, env=env)
        assert code == 0, err
        assert json.loads(out)["grundy"] == want
        code, out, err = run("games", *args, env=env)
        assert code == 0 and f"t-env  [heaps; normal play; {f.resolve()}]" in out
    theorem = write(tmp_path / "thm.py", '''
        from grundy.verify import Claim
        CLAIMS = [Claim("u/t-env", game="t-env", table=[0, 1, 0, 1, 0, 1])]
        ''')
    code, out, err = run("verify", str(theorem), "--games", str(f), "--jobs", "1")
    assert code == 0 and "verified" in out, out + err
    code, out, err = run("verify", str(theorem), "--jobs", "1")
    assert code == 2 and "unknown game 't-env'" in err


def test_installed_packages_register_games_through_entry_points(tmp_path, monkeypatch):
    write(tmp_path / "plugin_games_xyz.py", TAKE + 'T = Take("t-plugin", (1, 4))\n')
    dist = tmp_path / "plugin_games_xyz-0.1.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: plugin-games-xyz\nVersion: 0.1\n")
    (dist / "entry_points.txt").write_text("[grundy.games]\ntake = plugin_games_xyz\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delenv("GRUNDY_GAMES", raising=False)
    reg = Registry()
    assert reg["t-plugin"].amounts == (1, 4)
    assert reg.origin("t-plugin").startswith("entry point take")
    code, out, err = run("solve", "--json", "-", stdin='{"game": "t-plugin", "heaps": [5]}',
                         env={"PYTHONPATH": str(tmp_path)})
    assert code == 0 and json.loads(out)["grundy"] == take_values((1, 4), 5)[5], err
    (dist / "entry_points.txt").write_text("[grundy.games]\nbroken = no_such_module_xyz\n")
    reg = Registry()
    assert "nim" in reg and "t-plugin" not in reg
    assert any("no_such_module_xyz" in p for p in reg.problems)


def test_claim_takes_a_game_object_and_registers_it():
    ns: dict = {}
    exec(TAKE, ns)
    game = ns["Take"]("t-claim-obj", (1, 2))
    c = Claim("u/obj", game=game, table=[0, 1, 2, 0, 1, 2])
    assert c.game == "t-claim-obj" and GAMES["t-claim-obj"] is game
    other = ns["Take"]("nim", (1,))
    with pytest.raises(ClaimError, match="two games named 'nim': .* clashes with the built-in game"):
        Claim("u/clash", game=other, kind="char", family=heaps(1), statement=lambda g, s: True)
    with pytest.raises(ClaimError, match="game must be a game's name or a Game object"):
        Claim("u/bad", game=3, kind="char", family=heaps(1), statement=lambda g, s: True)


def test_theorem_folders_each_import_their_own_games_module(tmp_path):
    for name, amounts, table in (("a", (1,), [0, 1, 0, 1]), ("b", (1, 2), [0, 1, 2, 0])):
        d = tmp_path / name
        d.mkdir()
        write(d / "games.py", TAKE + f'GAME = Take("t-folder-{name}", {amounts!r})\n')
        write(d / "thm.py", f'''
            from grundy.verify import Claim
            from games import GAME
            CLAIMS = [Claim("{name}/table", game=GAME, table={table!r})]
            ''')
    claims = load([str(tmp_path / "a"), str(tmp_path / "b")])   # games.py is skipped as a theorem file
    assert [(c.id, c.game) for c in claims] == [("a/table", "t-folder-a"), ("b/table", "t-folder-b")]
    from grundy.verify.check import check_claim
    assert [check_claim(c).verdict for c in claims] == ["verified", "verified"]


def test_a_theorem_file_without_claims_is_still_an_error_when_named(tmp_path):
    f = write(tmp_path / "games.py", TAKE + 'T = Take("t-named", (1,))\n')
    with pytest.raises(LoadError, match="defines no list CLAIMS"):
        load([str(f)])


def test_the_public_api_needs_no_private_module():
    import grundy.spec as spec
    for name in ("Game", "HeapGame", "GraphGame", "Field", "move", "read_graph", "write_graph", "read_heaps",
                 "InputError", "SumPosition", "load_games", "register", "smallest", "distinct"):
        assert hasattr(spec, name) and not name.startswith("_")
    assert issubclass(HeapGame, Game) and issubclass(GameError, grundy.GrundyError)


def test_assigning_into_games_is_refused_naming_register():
    ns: dict = {}
    exec(TAKE, ns)
    game = ns["Take"]("t-setitem", (1,))
    with pytest.raises(GameError, match="grundy.register"):
        GAMES["t-setitem"] = game
    assert "t-setitem" not in GAMES


def test_unlisted_games_are_found_by_name_and_left_out_of_listings():
    ns: dict = {}
    exec(TAKE, ns)
    game = ns["Take"]("t-unlisted", (1,))
    from grundy.spec.games import register as register_game
    register_game(game, listed=False)
    assert GAMES["t-unlisted"] is game and GAMES.get("t-unlisted") is game and "t-unlisted" in GAMES
    assert "t-unlisted" not in set(GAMES) and len(GAMES) == len(list(GAMES))
    with pytest.raises(RuntimeError, match="two games named 'nim'"):
        register_game(type(GAMES["nim"])(), listed=False)
    register_game(GAMES["nim"])                              # the same object again: harmless
