"""Issue 22, part C: one spelling of a game's parameters on every command, foresight and
progress for long solves, errors that point at the user's own file and line. Expected values
are theorems (S(1,3,4) has period 7: 0 1 0 1 2 3 2; Bouton's nim-sum) or the same position
given as JSON, never numbers copied from the code under test."""
import io
import json
import os
import subprocess
import sys
import textwrap
import time
from functools import reduce
from operator import xor

import pytest

from grundy.cli import foresight as fs
from grundy.cli import main
from grundy.cli.params import spread_lists
from grundy.solvers.solver import Solver
from grundy.spec import read_position
from grundy.tools import named_graph
from grundy.tools.progress import Progress

S134 = [0, 1, 0, 1, 2, 3, 2]          # S(1, 3, 4): period 7 from 0 (Berlekamp, Conway, Guy)


def run(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def write(path, text):
    path.write_text(textwrap.dedent(text).lstrip("\n"))
    return path


# ------------------------------------------------------------------ one vocabulary

def test_table_takes_the_subtraction_set_in_every_spelling(capsys):
    outs = []
    for words in (["--set", "1", "3", "4"], ["--set", "1,3,4"], ["--set", "1 3 4"], ["--set=1,3,4"]):
        code, out, err = run(capsys, "table", "subtraction", *words, "0..30", "--bfile")
        assert code == 0 and err == "", err
        outs.append(out)
    assert len(set(outs)) == 1
    assert [tuple(map(int, line.split())) for line in outs[0].splitlines()] == [(n, S134[n % 7]) for n in range(31)]


def test_values_and_solve_take_the_code_as_an_option(capsys):
    code, out, err = run(capsys, "values", "octal", "1000", "--code", "0.6")
    assert code == 0 and err == ""
    values = list(map(int, out.split()))
    assert len(values) == 1001
    code, out, err = run(capsys, "solve", "--json", "octal", "--code", "0.6", "5", "6")
    assert code == 0 and err == ""
    assert json.loads(out)["grundy"] == values[5] ^ values[6]
    code, out2, err = run(capsys, "solve", "--json", '{"game": "octal", "code": "0.6", "heaps": [5, 6]}')
    assert out2 == out


def test_the_code_as_a_word_still_works_with_a_note(capsys):
    new = run(capsys, "solve", "octal", "--code", "0.77", "5", "6")
    old = run(capsys, "solve", "octal", "0.77", "5", "6")
    assert new[0] == old[0] == 0 and new[1] == old[1] and new[2] == ""
    assert old[2].strip() == ("grundy: note: a code as a word (octal 0.77 ...) is the older spelling; "
                              "write --code 0.77")
    table = run(capsys, "table", "octal", "0.07", "0..20", "--bfile")
    assert table[0] == 0 and "write --code 0.07" in table[2]
    assert table[1] == run(capsys, "table", "octal", "--code", "0.07", "0..20", "--bfile")[1]


def test_a_command_s_options_go_anywhere_among_its_words(capsys):
    a = run(capsys, "values", "subtraction", "--set", "1,3,4", "20")
    b = run(capsys, "values", "subtraction", "20", "--set", "1", "3", "4")
    assert a[0] == b[0] == 0 and a[1] == b[1]
    assert list(map(int, a[1].split())) == [S134[n % 7] for n in range(21)]


def test_list_options_end_where_the_numbers_end():
    assert spread_lists(["table", "subtraction", "--set", "1", "3", "4", "0..30"]) == \
        ["table", "subtraction", "--set=1,3,4", "0..30"]
    assert spread_lists(["values", "subtraction", "--set", "1,3,4", "20"]) == \
        ["values", "subtraction", "--set=1,3,4", "20"]
    assert spread_lists(["solve", "edge-nim", "--weights", "2", "C4"]) == ["solve", "edge-nim", "--weights=2", "C4"]
    assert spread_lists(["x", "--", "--set", "1"]) == ["x", "--", "--set", "1"]


def test_weights_take_commas_or_spaces_and_follow_the_sorted_edges(capsys):
    outs = {run(capsys, "solve", "--json", "edge-nim", "C4", *w)[1]
            for w in (["--weights", "1,2,2,2"], ["--weights", "1", "2", "2", "2"], ["--weights", "1 2 2 2"])}
    assert len(outs) == 1
    edges = sorted(tuple(sorted(e)) for e in named_graph("C4").edges)
    want = read_position({"game": "edge-nim", "nodes": [0, 1, 2, 3], "token": 0,
                          "edges": [[u, v, w] for (u, v), w in zip(edges, [1, 2, 2, 2])]})
    from grundy import solve
    assert json.loads(outs.pop())["grundy"] == solve(want)["grundy"]
    code, out, err = run(capsys, "solve", "edge-nim", "C4", "--weights", "1,2,2,2", "--show-edges")
    assert code == 0 and err == ""
    listed = [line.split() for line in out.splitlines() if "weight" in line and "." in line.split()[0]]
    assert [(w[1], int(w[3])) for w in listed] == [(f"{u}-{v}", x) for (u, v), x in zip(edges, [1, 2, 2, 2])]


@pytest.mark.parametrize("game,option", [("octal", "--code"), ("subtraction", "--set"), ("edge-nim", "--weights"),
                                         ("edge-nim", "--token"), ("vertexnim", "--weights"), ("nim", "--misere")])
def test_grundy_games_lists_the_options_of_a_game(capsys, game, option):
    code, out, _ = run(capsys, "games", game)
    section = out.split("On the command line")[1].split("Example:")[0]
    assert code == 0 and option in section
    if game == "edge-nim":        # the edge order a list of weights follows
        assert "0-1, 0-3, 1-2, 2-3" in section
    if game == "nim":
        assert "--code" not in section and "--weights" not in section


def test_options_that_do_not_apply_are_one_line_errors(capsys):
    for args, field in ((["values", "nim", "5", "--misere"], "misere"),
                        (["values", "subtraction", "5", "--set", "1", "--weights", "2"], "weights"),
                        (["solve", "nim", "3", "--weights", "2"], "weights"),
                        (["solve", '{"game": "nim", "heaps": [3]}', "--code", "0.6"], "code"),
                        (["table", "subtraction", "--set", "0", "0..5"], "set")):
        code, out, err = run(capsys, *args)
        assert code == 2 and len(err.strip().splitlines()) == 1 and f"{field}" in err, (args, err)


def test_plot_takes_the_same_options(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    code, out, err = run(capsys, "plot", "subtraction", "--set", "1,3,4", "0..30", "-o", str(tmp_path / "s.svg"))
    assert code == 0 and (tmp_path / "s.svg").stat().st_size > 0, err


# ------------------------------------------------------------------ foresight and progress

def test_the_estimate_is_the_box_below_the_position():
    heaps = [999, 999, 9]
    assert fs.estimate(read_position({"game": "nim", "heaps": heaps})) == ("explicit", reduce(lambda a, h: a * (h + 1), heaps, 1))
    assert fs.estimate(read_position({"game": "lasker-nim", "heaps": [300, 20]})) == ("one-heap", 300)
    assert fs.estimate(read_position({"game": "lasker-nim", "heaps": [300], "convention": "misere"}))[0] == "explicit"


def test_a_large_solve_is_foreseen_with_its_faster_route(capsys, tune):
    tune(large_box=100)
    tune(large_heap=10)
    code, out, err = run(capsys, "solve", "nim", "30", "30", "--progress")
    assert code == 0 and "about 961 positions below it" in err
    code, out, err = run(capsys, "solve", "lasker-nim", "40", "--progress")
    assert code == 0 and "G(0..40)" in err and "see also: grundy values lasker-nim 40 (the same work" in err
    code, out, err = run(capsys, "solve", "nim", "30", "30")          # no terminal, no --progress: quiet
    assert code == 0 and err == ""


def test_the_theorem_route_is_named_first_when_connected(tune, capsys, monkeypatch):
    tune(large_box=100)
    monkeypatch.setattr(fs, "THEOREM_ROUTE", lambda pos: "Bouton: the nim-sum" if pos.game.name == "nim" else None)
    code, out, err = run(capsys, "solve", "nim", "30", "30", "--progress")
    assert code == 0 and "faster: Bouton: the nim-sum" in err


def test_the_progress_line_names_positions_stored_and_the_largest_table(tune):
    tune(progress_delay=0.0)
    tune(progress_tick=0.01)
    solver = Solver(native=False)
    pos = read_position({"game": "nim", "heaps": [12, 12, 12]})
    solver.grundy(pos)
    saved, sys.stderr = sys.stderr, io.StringIO()
    try:
        bar = Progress(tty=False)
        watch = fs.Watch(bar, solver)
        watch.begin(("explicit", 2197), "nim")
        end = time.monotonic() + 30
        while not bar.last and time.monotonic() < end:       # the thread's first line
            time.sleep(0.01)
        watch.close()
        text = sys.stderr.getvalue()
    finally:
        sys.stderr = saved
    assert f"grundy solve: {solver.stored:,} positions stored" in text
    assert "largest table" in text and "nim on heaps of 3" in text


# ------------------------------------------------------------------ errors at the user's line

BUGGY = '''
from grundy.spec import GraphGame, move


class Buggy(GraphGame):
    name = "buggy-c"
    summary = "a bug in its moves"

    def moves(self, g, s):
        for v in g.vertices:
            yield move(f"take {v}", guard=s.alive[v],
                       update=s.set(alive={v: undefined_name}))


GAME = Buggy()
'''


def _line_of(path, text):
    return next(i for i, line in enumerate(path.read_text().splitlines(), 1) if text in line)


def cli(*args, env=None):
    p = subprocess.run([sys.executable, "-m", "grundy.cli", *args], capture_output=True, text=True, timeout=300,
                       env={**os.environ, **(env or {})})
    return p.returncode, p.stdout, p.stderr


def test_a_bug_in_a_user_s_rules_names_the_file_and_line(tmp_path):
    f = write(tmp_path / "buggy.py", BUGGY)
    line = _line_of(f, "undefined_name")
    code, out, err = cli("solve", "--games", str(f), "buggy-c", "P3")
    assert code == 2 and "Traceback" not in err
    assert f"NameError: name 'undefined_name' is not defined (at {f}:{line})" in err
    code, out, err = cli("table", "--games", str(f), "buggy-c", "paths", "1..3")
    assert code == 2 and "Traceback" not in err and f"{f}:{line}" in err and len(err.strip().splitlines()) == 1
    code, out, err = cli("solve", "--games", str(f), "buggy-c", "P3", "--debug")
    assert code == 2 and "Traceback" in err and f"{f}\", line {line}" in err


def test_a_broken_grundy_games_entry_is_named_by_a_short_form(tmp_path):
    bad = write(tmp_path / "broken.py", "x = 1\nraise ValueError('oops')\n")
    code, out, err = cli("solve", "no-such-game", "3", env={"GRUNDY_GAMES": str(bad)})
    assert code == 2 and f"{bad}:2: ValueError: oops" in err and len(err.strip().splitlines()) == 1


def test_grundy_games_shows_the_real_path_of_a_user_s_game(tmp_path):
    f = write(tmp_path / "buggy.py", BUGGY)
    code, out, err = cli("games", "--games", str(f), "buggy-c")
    assert code == 0, err
    rule_line = next(line for line in out.splitlines() if line.startswith("Rule ("))
    path = rule_line[len("Rule ("):-2]
    assert os.path.samefile(path, f)


def test_an_error_in_a_statement_names_the_user_s_line(tmp_path, capsys):
    d = tmp_path / "claims"
    d.mkdir()
    f = write(d / "mine.py", '''
        from grundy.verify import Claim, heaps


        def stmt(g, s):
            return s.heaps[0] == s.heap[1]          # no field "heaps": an AttributeError here


        CLAIMS = [Claim("t/nim-bad", game="nim", kind="char", family=heaps(2), bounds={"heap": 3},
                        statement=stmt)]
        ''')
    code, out, err = run(capsys, "verify", str(d), "--jobs", "1", "--no-cache")
    assert code == 1 and f"(at {f}:{_line_of(f, 's.heaps[0]')})" in out
    assert "grundy/spec" not in out                       # grundy's own frames are not shown


def test_a_statement_of_the_wrong_type_names_the_statement(tmp_path, capsys):
    f = write(tmp_path / "typed.py", '''
        from grundy.verify import Claim, heaps


        def stmt(g, s):
            return s.heap[0] + s.heap[1]            # an integer for a char claim


        CLAIMS = [Claim("t/typed", game="nim", kind="char", family=heaps(2), bounds={"heap": 3},
                        statement=stmt)]
        ''')
    code, out, err = run(capsys, "verify", str(f), "--jobs", "1", "--no-cache")
    assert code == 1 and f"(at {f}:{_line_of(f, 'def stmt')})" in out      # the statement's first line


def test_a_decorated_statement_is_named_at_its_own_line(tmp_path, capsys):
    """A statement wrapped by a decorator (functools.wraps) is named at the user's function, not
    at the wrapper."""
    f = write(tmp_path / "wrapped.py", '''
        import functools

        from grundy.verify import Claim, heaps


        def traced(fn):
            @functools.wraps(fn)
            def inner(g, s):
                return fn(g, s)
            return inner


        @traced
        def stmt(g, s):
            return s.heap[0] + s.heap[1]            # an integer for a char claim


        CLAIMS = [Claim("t/wrapped", game="nim", kind="char", family=heaps(2), bounds={"heap": 3},
                        statement=stmt)]
        ''')
    code, out, err = run(capsys, "verify", str(f), "--jobs", "1", "--no-cache")
    assert code == 1 and f"(at {f}:{_line_of(f, '@traced')})" in out       # its first line: the decorator's


def test_a_helper_without_claims_in_a_theorem_folder_is_skipped_with_a_note(tmp_path, capsys):
    d = tmp_path / "claims"
    d.mkdir()
    write(d / "helper.py", "def equal(s):\n    return s.heap[0] == s.heap[1]\n")
    write(d / "nimthm.py", '''
        from grundy.verify import Claim, heaps
        from helper import equal

        CLAIMS = [Claim("t/nim-2", game="nim", kind="char", family=heaps(2), bounds={"heap": 4},
                        statement=lambda g, s: equal(s))]
        ''')
    code, out, err = run(capsys, "verify", str(d), "--jobs", "1", "--no-cache")
    assert code == 0 and "verified" in out, out + err
    notes = [line for line in err.splitlines() if "helper.py" in line]
    assert len(notes) == 1 and "defines no CLAIMS, skipped" in notes[0]
    code, out, err = run(capsys, "verify", str(d / "helper.py"), "--jobs", "1")   # named: still an error
    assert code == 2 and "defines no list CLAIMS" in err
    (d / "typo.py").write_text(textwrap.dedent('''
        from grundy.verify import Claim, heaps
        CLAIM = [Claim("t/typo", game="nim", kind="char", family=heaps(2), bounds={"heap": 4},
                       statement=lambda g, s: s.heap[0] == s.heap[1])]
        '''))
    code, out, err = run(capsys, "verify", str(d), "--jobs", "1", "--no-cache")   # a typo is never skipped
    assert code == 2 and "typo.py: defines claims but no list CLAIMS" in err, out + err


def test_bouton_through_the_one_vocabulary(capsys):
    heaps = [3, 5, 6, 9]
    code, out, err = run(capsys, "solve", "--json", "nim", *map(str, heaps), "--misere")
    assert code == 0 and err == ""
    assert json.loads(out)["outcome"] == ("P" if reduce(xor, heaps) == 0 else "N")   # not all heaps <= 1


@pytest.mark.parametrize("game", ["octal", "subtraction", "nim"])
def test_the_command_a_game_s_page_shows_runs_and_answers_as_its_example(capsys, game):
    code, out, _ = run(capsys, "games", game)
    example = json.loads(out.split("Example:\n")[1].splitlines()[0])
    command = out.rstrip().splitlines()[-1].split()
    assert command[:2] == ["grundy", "solve"]
    assert {"octal": "--code", "subtraction": "--set", "nim": "nim"}[game] in command
    code, got, err = run(capsys, "solve", "--json", *command[2:])
    assert code == 0 and err == ""
    from grundy import solve
    assert json.loads(got)["grundy"] == solve(example)["grundy"]


def test_the_commands_of_the_command_line_doc_run(capsys, tmp_path, monkeypatch):
    from pathlib import Path
    text = (Path(__file__).resolve().parent.parent / "docs" / "command-line.md").read_text()
    block = text.split("```sh\n")[1].split("```")[0]
    commands = [line.split()[1:] for line in block.splitlines() if line.startswith("grundy ")]
    assert len(commands) >= 5
    monkeypatch.chdir(tmp_path)
    for words in commands:
        if words[0] == "plot":
            pytest.importorskip("matplotlib")
        code, out, err = run(capsys, *words)
        assert code == 0 and err == "", (words, err)
