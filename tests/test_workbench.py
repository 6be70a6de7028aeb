"""The workbench (issue 13): positions typed by name, tables, plots, playing a position,
notebook display, one game's page, closed pipes. Expectations are theorems from the
literature (Bouton, Wythoff, Guy-Smith's octal values) or the solver on the spelled-out
JSON position, never numbers copied from the code under test."""
import json
import math
import os
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

import grundy
from grundy.cli.workbench import wrap_json
from grundy.errors import GrundyError
from grundy.solvers.heaps import takebreak_run
from grundy.spec import InputError, read_position
from grundy.spec.games import GAMES
from grundy.spec.heaprule import parse_octal
from grundy.tools import Session, draw, named_graph, short_position, table
from grundy.tools.graphs import family_graph
from grundy.tools.plot import MissingDependency, plot_ppositions, plot_values
from grundy.verify.verdict import Counterexample, Verdict

ROOT = Path(__file__).resolve().parent.parent


def cli(*args, stdin=""):
    p = subprocess.run([sys.executable, "-m", "grundy.cli", *args], input=stdin, capture_output=True,
                       text=True, timeout=300)
    return p.returncode, p.stdout, p.stderr


# ---------------------------------------------------------------- graphs by name

@pytest.mark.parametrize("name,n,m", [("petersen", 10, 15), ("K5", 5, 10), ("C6", 6, 6), ("P4", 4, 3),
                                      ("Q3", 8, 12), ("K3,3", 6, 9), ("S4", 5, 4), ("W5", 6, 10)])
def test_named_graphs_have_their_sizes(name, n, m):
    g = named_graph(name)
    assert (g.n, len(g.edges)) == (n, m)


def test_named_graphs_are_the_graphs_they_name():
    assert nx.is_isomorphic(named_graph("petersen").to_networkx(), nx.petersen_graph())
    assert nx.is_isomorphic(named_graph("Q3").to_networkx(), nx.hypercube_graph(3))
    q = named_graph("Q3")     # vertices numbered by their coordinates in binary: an edge flips one bit
    assert all(bin(u ^ v).count("1") == 1 for u, v in q.edges)


def test_graph6_strings_are_read():
    code = nx.to_graph6_bytes(nx.petersen_graph(), header=False).decode().strip()
    assert nx.is_isomorphic(named_graph(code).to_networkx(), nx.petersen_graph())
    assert nx.is_isomorphic(named_graph(">>graph6<<" + code).to_networkx(), nx.petersen_graph())
    with pytest.raises(InputError, match="graph: 'Z0' is not a graph name"):
        named_graph("Z0")


# ---------------------------------------------------------------- short forms

def test_short_forms_are_the_json_they_stand_for():
    assert short_position(["nim", "3", "5", "6"]) == {"game": "nim", "heaps": [3, 5, 6]}
    assert short_position(["octal", "0.77", "5"]) == {"game": "octal", "code": "0.77", "heaps": [5]}
    k4 = short_position(["edge-nim", "K4"], weights="2", token="0")
    spelled = {"game": "edge-nim", "edges": [[u, v, 2] for u in range(4) for v in range(u + 1, 4)], "token": 0}
    assert grundy.solve(k4) == grundy.solve(spelled)
    per_edge = short_position(["edge-nim", "P3"], weights="1,3", token="2")
    assert per_edge["edges"] == [[0, 1, 1], [1, 2, 3]] and per_edge["token"] == 2


@pytest.mark.parametrize("words,kw,field", [
    (["nim", "3", "x"], {}, "heaps[1]"),
    (["edge-nim", "K4"], {"weights": "1,2"}, "weights"),
    (["grim", "C4"], {"weights": "2"}, "weights"),
    (["grim", "C4"], {"token": "1"}, "token"),
    (["nim", "3"], {"token": "1"}, "token"),
    (["chess", "3"], {}, "game"),
    (["grim", "X7"], {}, "graph"),
])
def test_bad_short_forms_name_the_field(words, kw, field):
    with pytest.raises(InputError) as e:
        read_position(short_position(words, **kw))
    assert e.value.field == field


def test_solve_takes_short_forms_inline_json_and_names(tmp_path):
    code, out, err = cli("solve", "--json", "nim", "3", "5", "6")
    assert code == 0 and json.loads(out)["outcome"] == "P", err        # Bouton: 3^5^6 = 0
    code, out, _ = cli("solve", "--json", '{"game": "wythoff", "heaps": [3, 5]}')
    assert code == 0 and json.loads(out)["outcome"] == "P"              # (3, 5) is a Wythoff pair
    code, out, _ = cli("solve", "--json", "edge-nim", "K4", "--weights", "2", "--token", "0")
    spelled = {"game": "edge-nim", "edges": [[u, v, 2] for u in range(4) for v in range(u + 1, 4)], "token": 0}
    assert code == 0 and json.loads(out)["grundy"] == grundy.solve(spelled)["grundy"]
    code, out, _ = cli("solve", "--json", "grim", "petersen", "--misere")
    expect = grundy.solve({**short_position(["grim", "petersen"]), "convention": "misere"})["outcome"]
    assert code == 0 and json.loads(out)["outcome"] == expect
    code, _, err = cli("solve", "nim", "3", "-1")
    assert code == 2 and "heaps[1]" in err and "Traceback" not in err


def test_solve_table_shows_the_whole_position_wrapped():
    code, out, _ = cli("solve", "edge-nim", "Q3", "--weights", "3")
    assert code == 0
    text = " ".join(line[20:80].strip() for line in out.splitlines()[1:])
    for u, v in named_graph("Q3").edges:                   # every edge is shown, none cut
        assert f"[{u}, {v}, 3]" in text
    assert "..." not in out and all(len(line) <= 100 for line in out.splitlines())


def test_wrap_json_keeps_items_whole_and_loses_nothing():
    obj = {"edges": [[u, v, 7] for u in range(6) for v in range(u + 1, 6)], "token": 0}
    lines = wrap_json(obj, 30)
    assert json.loads(" ".join(lines)) == obj and len(lines) > 3
    assert all(not line.startswith(("7", "1]", ",")) for line in lines)


# ---------------------------------------------------------------- move labels

def test_heaps_are_counted_from_one_in_labels():
    opts = grundy.Solver().options(read_position({"game": "nim", "heaps": [1, 2]}))
    for label, q in opts:
        k, i = int(label.split()[1]), int(label.split()[-1])
        before = [1, 2]
        before[i - 1] -= k                               # "take k from heap i": the i-th heap, from 1
        assert list(q.state) == before


def test_set_to_labels_say_the_new_value():
    pos = read_position({"game": "edge-nim", "edges": [[0, 1, 3]], "token": 0})
    for label, q in grundy.Solver().options(pos):
        assert "weight set to" in label
        assert q.values()["weight"][0] == int(label.split()[-1])
    pos = read_position({"game": "vertexnim", "nodes": [["a", 3], ["b", 1]], "edges": [["a", "b"]], "token": "a"})
    for label, q in grundy.Solver().options(pos):
        assert label.startswith("set w(a) to ")
        assert q.values()["weight"][0] == int(label.split()[3].rstrip(","))


# ---------------------------------------------------------------- tables

def test_nim_table_is_the_nim_sum():
    t = table("nim", range(9), range(9))
    assert all(t.cells[(a, b)] == a ^ b for a in range(9) for b in range(9))
    t3 = table("nim", range(5), 3, range(5))                    # a fixed middle heap
    assert all(t3.cells[(a, c)] == a ^ 3 ^ c for a in range(5) for c in range(5))


def test_wythoff_outcomes_are_the_golden_pairs():
    phi = (1 + math.sqrt(5)) / 2
    pairs = {(math.floor(k * phi), math.floor(k * phi * phi)) for k in range(30)}
    pairs |= {(b, a) for a, b in pairs}
    t = table("wythoff", range(25), range(25), outcome=True)
    assert {p for p, v in t.cells.items() if v == "P"} == {p for p in pairs if max(p) < 25}


def test_misere_nim_table_follows_bouton():
    t = table("nim", range(5), range(5), 1, misere=True)
    for (a, b), o in t.cells.items():
        hs = [a, b, 1]
        p = (a ^ b ^ 1 == 1) if max(hs) <= 1 else (a ^ b ^ 1 == 0)
        assert o == ("P" if p else "N")
    assert t.kind == "outcome" and "misère" in str(t)


def test_octal_table_and_bfile_are_the_octal_values():
    t = table("octal", range(60), code="0.07")
    assert t.values() == takebreak_run(parse_octal("0.07"), 59).values
    lines = t.bfile().splitlines()
    assert [tuple(map(int, ln.split())) for ln in lines] == list(enumerate(takebreak_run(parse_octal("0.07"), 59).values))
    with pytest.raises(InputError, match="bfile"):
        table("nim", range(2), range(2)).bfile()


def test_graph_family_table_is_each_member_solved():
    t = table("grim", range(1, 9), family="paths")
    for n in range(1, 9):
        path = {"game": "grim", "edges": [[i, i + 1] for i in range(n - 1)], "nodes": list(range(n))}
        assert t.cells[(n,)] == grundy.solve(path)["grundy"]
    w = table("edge-nim", range(3, 7), family="cycles", weights=2, token=0)
    for n in range(3, 7):
        cyc = {"game": "edge-nim", "edges": [[i, (i + 1) % n, 2] for i in range(n)], "token": 0}
        assert w.cells[(n,)] == grundy.solve(cyc)["grundy"]
    assert family_graph("hypercubes", 3).n == 8


def test_table_formats_hold_the_same_cells():
    t = table("wythoff", range(4), range(3))
    csv_rows = [ln.split(",") for ln in t.to_csv().splitlines()]
    assert csv_rows[0] == ["heap 1", "heap 2", "grundy"]
    assert {(int(a), int(b)): int(v) for a, b, v in csv_rows[1:]} == t.cells
    js = [json.loads(ln) for ln in t.to_json_lines().splitlines()]
    assert all(grundy.solve(r["position"])["grundy"] == r["grundy"] for r in js) and len(js) == 12
    text = str(t).splitlines()
    assert len(text) == 4 + 4 and len({len(ln) for ln in text[2:]}) == 1   # aligned


def test_table_cli_outputs(tmp_path):
    code, out, _ = cli("table", "octal", "0.07", "0..30", "--bfile")
    assert code == 0 and out.splitlines() == [f"{n} {v}" for n, v in enumerate(takebreak_run(parse_octal("0.07"), 30).values)]
    code, out, _ = cli("table", "nim", "0..3", "0..3", "--csv")
    assert code == 0 and out.splitlines()[1:3] == ["0,0,0", "0,1,1"]
    code, out, _ = cli("table", "grim", "cycles", "n=3..6", "--json")
    assert code == 0 and [json.loads(ln)["n"] for ln in out.splitlines()] == [3, 4, 5, 6]
    code, out, _ = cli("table", "wythoff", "0..4", "0..4", "--outcome")
    assert code == 0 and out.splitlines()[4].split("|")[1].split() == ["P", "N", "N", "N", "N"]
    for bad, field in ((["nim", "5..2"], "range"), (["grim", "0..3"], "family"), (["nim", "1", "2"], "range"),
                       (["nim", "0..3", "0..3", "--bfile"], "bfile")):
        code, _, err = cli("table", *bad)
        assert code == 2 and field in err and "Traceback" not in err and len(err.splitlines()) == 1


# ---------------------------------------------------------------- plots

def test_plots_write_png_and_svg(tmp_path):
    pytest.importorskip("matplotlib")
    png, svg = tmp_path / "w.png", tmp_path / "v.svg"
    fig = plot_ppositions("wythoff", range(20), range(20), path=png)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and fig.axes[0].get_xlabel() == "heap 2"
    fig = plot_values("octal", range(200), code="0.07", path=svg)
    assert "<svg" in svg.read_text()[:400]
    assert "period 34 from n = 53" in fig.axes[0].get_title()            # Dawson's Kayles
    fig = plot_values("octal", range(40), code="0.6")
    assert "no period proved or apparent" in fig.axes[0].get_title()
    fig = plot_ppositions("nim", range(6), range(6), values=True)
    assert len(fig.axes) == 2                                              # the picture and its colour bar
    with pytest.raises(InputError, match="output"):
        plot_values("nim", range(5), path=tmp_path / "x.txt")


def test_plot_cli(tmp_path):
    pytest.importorskip("matplotlib")
    out = tmp_path / "k.svg"
    code, text, err = cli("plot", "octal", "0.77", "0..80", "-o", str(out))
    assert code == 0 and out.exists() and str(out) in text, err
    code, _, err = cli("plot", "nim", "3", "4", "-o", str(out))
    assert code == 2 and "range" in err and "Traceback" not in err


def test_missing_matplotlib_is_one_line(monkeypatch, capsys):
    for mod in [m for m in sys.modules if m == "matplotlib" or m.startswith("matplotlib.")]:
        monkeypatch.delitem(sys.modules, mod)
    monkeypatch.setitem(sys.modules, "matplotlib", None)
    monkeypatch.setitem(sys.modules, "matplotlib.figure", None)
    with pytest.raises(MissingDependency, match="matplotlib") as e:
        plot_values("nim", range(5))
    assert isinstance(e.value, GrundyError)
    from grundy.cli import main
    assert main(["plot", "wythoff", "0..5", "0..5", "-o", "/tmp/never.png"]) == 2
    err = capsys.readouterr().err
    assert "pip install 'grundy[report]'" in err and len(err.splitlines()) == 1


# ---------------------------------------------------------------- playing

def test_play_options_moves_and_undo():
    p = Session({"game": "nim", "heaps": [2, 3]})
    opts = p.options()
    solver = grundy.Solver()
    assert [(o.label, o.position.state) for o in opts] == [(lab, q.state) for lab, q in solver.options(p.position)]
    assert all(o.grundy == solver.grundy(o.position) and o.wins == (o.outcome == "P") for o in opts)
    assert [o.label for o in opts if o.wins] == ["take 1 from heap 2"]      # to 2 ^ 2 = 0
    p.move(0)
    assert list(p.position.state) == [1, 3]
    p.undo()
    assert list(p.position.state) == [2, 3] and not p.history
    with pytest.raises(InputError):
        p.undo()
    with pytest.raises(InputError):
        p.move(len(opts))


def test_grundy_plays_to_win_from_an_n_position():
    p = Session({"game": "nim", "heaps": [3, 5, 7]})          # 3 ^ 5 ^ 7 = 1: N
    mover_is_grundy = True
    while not p.over:
        o = p.grundy_move()
        if mover_is_grundy:
            assert o.outcome == "P"                         # every move of the first player wins
        mover_is_grundy = not mover_is_grundy
    assert not mover_is_grundy                              # the first player made the last move
    assert "no move left" in p.verdict()


def test_play_in_the_terminal_by_stdin():
    session = "2\ng\nu\n9\nhello\ng\ng\ng\nq\n"
    code, out, err = cli("play", "nim", "1", "2", stdin=session)
    assert code == 0 and "Traceback" not in err
    assert "heap 1 | o 1" in out and "heap 2 | oo 2" in out               # the position drawn
    assert "2. take 1 from heap 2" in out and "P  wins" in out             # options with values
    assert "you play: take 1 from heap 2" in out
    assert "grundy plays: take 1 from heap 1" in out and "undone" in out
    assert "no move number 9: the moves are numbered 1..2" in out
    assert "no move left: the player who moved last wins" in out
    assert "! no move left: the game is over" in out                      # the last "g" had no move
    code, out, _ = cli("play", "edge-nim", "C4", "--weights", "2", stdin="")  # end of input: quit
    assert code == 0 and "edges (u-v:weight): 0-1:2, 0-3:2, 1-2:2, 2-3:2" in " ".join(out.split())
    assert "token at 0" in out
    code, _, err = cli("play", "nim", "3", "x")
    assert code == 2 and "heaps[1]" in err


@pytest.mark.slow
@pytest.mark.skipif(not __import__("shutil").which("tmux"), reason="tmux is not installed")
def test_play_in_a_real_terminal_with_tmux(tmp_path):
    import time
    name = f"grundy-test-{os.getpid()}"
    cmd = f"{sys.executable} -m grundy.cli play nim 1 2"
    subprocess.run(["tmux", "new-session", "-d", "-s", name, "-x", "120", "-y", "50", cmd], check=True)
    try:
        time.sleep(3)
        subprocess.run(["tmux", "send-keys", "-t", name, "2", "Enter"], check=True)
        time.sleep(2)
        screen = subprocess.run(["tmux", "capture-pane", "-p", "-t", name], capture_output=True, text=True).stdout
        assert "you play: take 1 from heap 2" in screen
        subprocess.run(["tmux", "send-keys", "-t", name, "q", "Enter"], check=True)
    finally:
        subprocess.run(["tmux", "kill-session", "-t", name], capture_output=True)


# ---------------------------------------------------------------- notebook display

def _shown(obj, mime="text/html"):
    """What a notebook shows of ``obj``: the renderer grundy registers with IPython."""
    from IPython.core.interactiveshell import InteractiveShell
    shell = InteractiveShell.instance()
    assert grundy.register_notebook_renderers(shell)
    return shell.display_formatter.formatters[mime](obj)


def test_positions_draw_themselves():
    pytest.importorskip("IPython", reason="IPython is not installed (pip install -e '.[test]')")
    heaps = read_position({"game": "nim", "heaps": [3, 1, 4]})
    svg = _shown(heaps, "image/svg+xml")
    assert svg.count("<circle") == 8 and "heap 3" in svg
    g = read_position({"game": "edge-nim", "edges": [["a", "b", 5], ["b", "c", 1]], "token": "b"})
    svg = _shown(g, "image/svg+xml")
    assert svg.count("<line") == 2 and ">5<" in svg and 'stroke-width="3"' in svg  # weights, the token ringed
    assert "edge-nim" in _shown(g)
    text = draw(g)
    assert "a-b:5" in text and "token at b" in text


def test_a_notebook_draws_the_picture_the_game_asks_for_as_reports_do():
    from grundy.spec import GraphGame
    from grundy.tools.pictures import picture_of as report_choice
    from grundy.tools.positions import picture_of

    class Bars(GraphGame):                      # a graph game whose positions are drawn as bars
        name = "t-bars"

        def fields(self, g):
            return GAMES["grim"].fields(g)

        def move(self, g, s):
            return GAMES["grim"].move(g, s)

        def picture(self, obj):
            return "bars", [len(obj.get("edges", [])), 1]

    with GAMES.scoped():
        grundy.register(Bars())
        p = read_position({"game": "t-bars", "edges": [[0, 1], [1, 2]]})
        assert report_choice is picture_of and picture_of(p.to_json()) == ("bars", [2, 1])
        svg = _shown(p, "image/svg+xml")
    assert "<line" not in svg and svg.count("<circle") == 3 and "heap 2" in svg    # bars of 2 and 1, no graph


def test_solve_results_tables_sessions_and_verdicts_show_as_html():
    pytest.importorskip("IPython", reason="IPython is not installed (pip install -e '.[test]')")
    r = grundy.solve({"game": "nim", "heaps": [1, 2]}, winning_moves=True)
    assert r == {"grundy": 3, "outcome": "N", "winning_moves": r["winning_moves"]} and isinstance(r, dict)
    html = _shown(r)
    assert "outcome N" in html and "take 1 from heap 2" in html
    t = table("nim", range(3), range(3))
    assert t._repr_html_().count("<td>") == 9 + 3
    p = Session({"game": "nim", "heaps": [1, 2]})
    assert p._repr_html_().count("<tr>") == 1 + 3 and "<svg" in p._repr_html_()
    v = Verdict("demo/x", "char", "refuted", expected="proved", scope="2 heaps",
                counterexample=Counterexample({"game": "nim", "heaps": [1, 1]}, "N", "P"))
    html = _shown(v)
    assert "refuted" in html and "EXPECTED proved" in html and "claimed N, actually P" in html


@pytest.mark.slow
def test_example_notebook_runs():
    nbformat = pytest.importorskip("nbformat", reason="nbformat is not installed (pip install -e '.[test]')")
    nbclient = pytest.importorskip("nbclient", reason="nbclient is not installed (pip install -e '.[test]')")
    pytest.importorskip("ipykernel", reason="ipykernel is not installed (pip install -e '.[test]')")
    nb = nbformat.read(ROOT / "examples" / "workbench.ipynb", as_version=4)
    client = nbclient.NotebookClient(nb, timeout=300, kernel_name="python3",
                                     resources={"metadata": {"path": str(ROOT / "examples")}})
    try:
        client.execute()
    except (RuntimeError, OSError, nbclient.exceptions.DeadKernelError) as e:
        if "kernel" in str(e).lower() and not isinstance(e, nbclient.exceptions.CellExecutionError):
            pytest.skip(f"no Jupyter kernel could start here: {e}")
        raise
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    rich = [o for o in outputs if o.output_type in ("display_data", "execute_result")]
    assert any("image/svg+xml" in o.data or "text/html" in o.data for o in rich)
    text = "".join(o.get("text", "") for o in outputs if o.output_type == "stream")
    assert "proved=True" in text                                    # the period is proved, not apparent
    assert "\\begin{tabular}" in text and "\\cellcolor" in text      # the LaTeX table, P-positions shaded
    assert f"G = {1000000 ^ 5}" in text and "by theorem periods/nim-sum, proved" in text   # the theorem answered
    assert any('title="grundy explorer"' in o.data.get("text/html", "") for o in rich)   # the explorer's frame
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        return
    assert any("image/png" in o.data for o in rich)                 # the period's figure


# ---------------------------------------------------------------- grundy games GAME, closed pipes

@pytest.mark.slow
def test_every_game_has_a_page_with_a_solved_example():
    for name in GAMES:
        code, out, err = cli("games", name)
        assert code == 0, err
        assert "JSON fields:" in out and "def " in out.split("Rule (")[1]
        example = json.loads(out.split("Example:\n")[1].splitlines()[0])
        r = grundy.solve(example)
        assert f"grundy {r['grundy']}, outcome {r['outcome']}" in out
    code, _, err = cli("games", "chess")
    assert code == 2 and "unknown game 'chess'" in err and len(err.splitlines()) == 1


@pytest.mark.parametrize("args", [["table", "octal", "0.07", "0..99999", "--bfile"], ["solve", "--json", "-"],
                                  ["games", "--rules"], ["games", "edge-nim"]])
def test_no_traceback_when_the_reader_stops_early(args):
    stdin = "\n".join(json.dumps({"game": "nim", "heaps": [i, 3]}) for i in range(3000))
    p = subprocess.Popen([sys.executable, "-m", "grundy.cli", *args], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    import threading

    def feed():
        try:
            p.stdin.write(stdin.encode())
            p.stdin.close()
        except BrokenPipeError:
            pass
    writer = threading.Thread(target=feed)
    writer.start()
    p.stdout.readline()
    p.stdout.close()                                       # as `| head -1` does
    err = p.stderr.read()
    p.wait(timeout=300)
    writer.join()
    assert b"Traceback" not in err and b"BrokenPipe" not in err, err.decode()
    assert p.returncode in (0, 141)
    if args[0] in ("table", "solve"):                      # more than a pipe holds: the reader did stop it
        assert p.returncode == 141
