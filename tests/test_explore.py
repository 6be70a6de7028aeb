"""The explorer (grundy explore, grundy.explore): the tree it computes, the page it writes,
the server that computes further options; and the page in a real headless Chromium, opened
from a file with no network, checked against ``grundy solve``."""
from __future__ import annotations

import json
import random
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request
from functools import reduce
from operator import xor
from pathlib import Path

import pytest
from test_report import CHROMIUM, Chromium

import grundy
from grundy.cli import main
from grundy.solvers.reference import Reference
from grundy.spec import read_position
from grundy.tools.explorer import explore, node_key
from grundy.tools.explorer.serve import answer, server

ROOT = Path(__file__).resolve().parent.parent


def _depths(e) -> dict[int, int]:
    """Each node's distance from the start, over the computed options."""
    depth, frontier = {0: 0}, [0]
    while frontier:
        nxt = []
        for n in frontier:
            for _, m in e.nodes[n]["options"] or []:
                if m not in depth:
                    depth[m] = depth[n] + 1
                    nxt.append(m)
        frontier = nxt
    return depth


def test_nim_values_are_the_xor_of_the_heaps_and_the_outcomes_follow():
    e = grundy.explore({"game": "nim", "heaps": [2, 3, 5]}, depth=2)
    assert len(e.nodes) > 20
    for n in e.nodes:
        x = reduce(xor, n["position"]["heaps"], 0)
        assert n["value"] == x and n["outcome"] == ("P" if x == 0 else "N"), n["position"]


def test_values_agree_with_the_reference_engine_on_a_graph_game():
    e = explore({"game": "edge-nim", "nodes": [0, 1, 2, 3], "edges": [[0, 1, 2], [1, 2, 1], [2, 3, 2]], "token": 1},
                depth=2)
    ref = Reference()
    for n in e.nodes:
        pos = read_position(n["position"])
        assert (n["value"], n["outcome"]) == (ref.grundy(pos), ref.outcome(pos)), n["position"]


def test_options_are_computed_to_the_depth_and_no_further():
    e = explore({"game": "nim", "heaps": [3, 4]}, depth=2)
    depth = _depths(e)
    assert set(depth) == set(range(len(e.nodes)))
    for n, d in depth.items():
        assert (e.nodes[n]["options"] is not None) == (d < 2), (n, d)
    root_moves = [label for label, _ in e.root["options"]]
    assert len(root_moves) == 7 and root_moves[0] == "take 1 from heap 1"


def test_the_size_limit_keeps_the_nearest_positions_and_always_the_starts_options():
    e = explore({"game": "nim", "heaps": [6, 6, 6]}, depth=5, max_nodes=5)
    assert len(e.root["options"]) == 18                 # all of the start's options, beyond the limit
    assert all(n["options"] is None for n in e.nodes[1:])
    big = explore({"game": "nim", "heaps": [6, 6, 6]}, depth=5, max_nodes=60)
    assert 60 <= len(big.nodes) < 60 + 18 and big.nodes[1]["options"] is not None


def test_misere_values_are_misere_grundy_values():
    e = explore({"game": "nim", "heaps": [1, 1], "convention": "misere"}, depth=2)
    assert e.value_name == "misère Grundy value"
    assert (e.root["value"], e.root["outcome"]) == (grundy.solve({"game": "nim", "heaps": [1, 1],
                                                                   "convention": "misere"})["misere_grundy"], "N")
    end = next(n for n in e.nodes if n["position"]["heaps"] == [0, 0])
    assert (end["value"], end["outcome"]) == (1, "N")          # no move: the mover wins in misère play


@pytest.mark.parametrize("bad, field", [({"depth": 0}, "depth"), ({"max_nodes": 0}, "max_nodes"),
                                        ({"depth": "2"}, "depth")])
def test_bad_limits_name_their_field(bad, field):
    with pytest.raises(grundy.GrundyError, match=f"^{field}:"):
        explore({"game": "nim", "heaps": [1]}, **bad)


def test_the_page_is_self_contained_and_carries_the_tree(tmp_path):
    path = explore({"game": "grim", "nodes": [0, 1, 2, 3], "edges": [[0, 1], [1, 2], [2, 3], [3, 0]]},
                   depth=1).save(tmp_path / "t.html")
    text = path.read_text(encoding="utf-8")
    assert not re.search(r'\s(src|href)=', text)                    # nothing loaded from anywhere
    assert "<style>" in text and "<script>" in text and "grundy explore" in text
    blob = re.search(r'<script type="application/json" id="tree-data">(.*?)</script>', text, re.S).group(1)
    data = json.loads(blob)
    assert data["served"] is False and data["depth"] == 1 and len(data["nodes"][0]["options"]) == 4
    assert "its options are in it" not in text and "a file cannot run grundy" in text


def test_a_closing_tag_in_the_data_cannot_end_the_script(tmp_path):
    e = explore({"game": "grim", "nodes": ["</script>", "b"], "edges": [["</script>", "b"]]}, depth=1)
    text = e.html()
    assert text.count("</script>") == 2                     # the data block's and the script's own
    assert "&lt;/script&gt;" in e._repr_html_()             # a notebook frame's srcdoc is escaped


def test_the_cli_writes_the_page_and_bad_input_is_one_line(tmp_path, capsys):
    out = tmp_path / "tree.html"
    assert main(["explore", "nim", "2", "3", "-o", str(out), "--depth", "1"]) == 0
    assert "wrote" in capsys.readouterr().out and out.exists()
    assert main(["explore", "nim", "2", "x", "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("grundy: heaps[1]:") and len(err.strip().splitlines()) == 1
    assert main(["explore", "edge-nim", "C4", "--weights", "1,2", "-o", str(out)]) == 2
    assert capsys.readouterr().err.startswith("grundy: weights:")
    assert main(["explore", "nim", "1", "--max-nodes", "0", "-o", str(out)]) == 2
    assert capsys.readouterr().err.startswith("grundy: max_nodes:")
    assert main(["explore", "nim", "1", "-o", str(tmp_path / "no" / "t.html")]) == 2
    assert capsys.readouterr().err.startswith("grundy: output:")


def test_the_server_computes_options_beyond_the_file():
    e = explore({"game": "nim", "heaps": [2, 2]}, depth=1)
    assert e.root["options"] and all(n["options"] is None for n in e.nodes[1:])
    reply = answer(e, json.dumps({"game": "nim", "heaps": [1, 2]}))
    assert reply["nodes"][0]["position"]["heaps"] == [1, 2]
    got = {tuple(reply["nodes"][k]["position"]["heaps"]): reply["nodes"][k]["value"] for _, k in reply["options"]}
    assert got == {(0, 2): 2, (1, 1): 0, (1, 0): 1}
    httpd = server(e)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        base = f"http://127.0.0.1:{httpd.server_address[1]}/"
        page = urllib.request.urlopen(base, timeout=30).read().decode()
        assert '"served": true' in page
        q = urllib.parse.quote(node_key({"game": "nim", "heaps": [0, 2]}))
        r = json.loads(urllib.request.urlopen(base + "node?p=" + q, timeout=30).read())
        assert [reply_ for reply_, _ in r["options"]] == ["take 1 from heap 2", "take 2 from heap 2"]
        with pytest.raises(urllib.error.HTTPError) as bad:
            urllib.request.urlopen(base + "node?p=" + urllib.parse.quote('{"game": "nim", "heaps": [-1]}'), timeout=30)
        assert bad.value.code == 400 and "heaps[0]" in json.loads(bad.value.read())["error"]
    finally:
        httpd.shutdown()
        httpd.server_close()


# ------------------------------------------------------------------ a real browser
GAMES3 = [
    {"game": "nim", "heaps": [2, 3, 4]},
    {"game": "edge-nim", "nodes": [0, 1, 2, 3], "edges": [[0, 1, 2], [1, 2, 2], [2, 3, 2], [0, 3, 1]], "token": 0},
    {"game": "grim", "nodes": [0, 1, 2, 3, 4], "edges": [[0, 1], [1, 2], [2, 3], [3, 4], [4, 0], [0, 2]]},
]

ROWS = ("Array.from(document.querySelectorAll('#tree .row')).filter(function (r) { return r.offsetParent !== null; })"
        ".map(function (r) { return [r.dataset.position, r.querySelector('.val').textContent,"
        " r.querySelector('.o').textContent, r.querySelector('.win').textContent, +r.getAttribute('aria-level')]; })")


def _key(b: Chromium, key: str, code: int) -> None:
    for kind in ("keyDown", "keyUp"):
        b.call("Input.dispatchKeyEvent", type=kind, key=key, code=key, windowsVirtualKeyCode=code)


def _open_watching_the_network(b: Chromium, url: str) -> None:
    """Chromium.open, with the network domain on before the page loads (every request seen)."""
    target = b.call("Target.createTarget", url="about:blank")["targetId"]
    b.session = b.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
    for domain in ("Page", "Runtime", "Log", "Network"):
        b.call(f"{domain}.enable")
    b.call("Page.navigate", url=url)
    b.wait_event("Page.loadEventFired")


def _solve(positions: list[dict], tmp: Path) -> list[dict]:
    f = tmp / "positions.jsonl"
    f.write_text("".join(json.dumps(p) + "\n" for p in positions))
    p = subprocess.run([sys.executable, "-m", "grundy.cli", "solve", str(f), "--json"], capture_output=True,
                       text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    return [json.loads(line) for line in p.stdout.splitlines()]


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (Debian: apt-get install chromium; "
                                              ".ci/run installs it where it can)")
@pytest.mark.slow
@pytest.mark.parametrize("start", GAMES3, ids=[g["game"] for g in GAMES3])
def test_the_page_in_headless_chromium_shows_what_grundy_solve_says(start, tmp_path):
    page = explore(start, depth=2).save(tmp_path / "tree.html")
    with tempfile.TemporaryDirectory() as profile:
        b = Chromium(profile)
        try:
            _open_watching_the_network(b, page.as_uri())
            assert b.errors() == [], b.errors()
            level1 = b.eval(ROWS)
            assert len(level1) == len(grundy.Session(start).options()) and {r[4] for r in level1} == {1}
            # the keyboard: the first row has the focus; -> opens it, down goes to its first option
            assert b.eval("document.activeElement.getAttribute('aria-level')") == "1"
            _key(b, "ArrowRight", 39)
            assert b.eval("document.activeElement.getAttribute('aria-expanded')") == "true"
            _key(b, "ArrowDown", 40)
            assert b.eval("document.activeElement.getAttribute('aria-level')") == "2"
            _key(b, "ArrowLeft", 37)                         # back to its parent
            assert b.eval("document.activeElement.getAttribute('aria-level')") == "1"
            # open every option of the start by a click: two levels shown
            b.eval("Array.from(document.querySelectorAll('#tree .row[aria-level=\"1\"][aria-expanded=\"false\"]'))"
                   ".forEach(function (r) { r.click(); })")
            rows = b.eval(ROWS)
            assert {r[4] for r in rows} == {1, 2} and len(rows) > len(level1)
            # twenty of the rows shown, as grundy solve answers them in another process
            picked = random.Random(22).sample(rows, min(20, len(rows)))
            solved = _solve([json.loads(r[0]) for r in picked], tmp_path)
            for (pos, val, outcome, win, _), s in zip(picked, solved, strict=True):
                assert (val, outcome) == (f"G = {s['grundy']}", s["outcome"]), pos
                assert (win == "✓ winning") == (s["outcome"] == "P")
            start_text = b.eval("document.getElementById('start-value').textContent")
            s0 = grundy.solve(start)
            assert f"Grundy value {s0['grundy']}, outcome {s0['outcome']}" in start_text
            # a position two moves down, found by its JSON; one three moves down is past the file
            target = rows[-1][0]
            b.eval(f"document.getElementById('q').value = {json.dumps(target)};"
                   "document.getElementById('search').requestSubmit()")
            assert b.eval("document.activeElement.dataset.position") == target
            assert "2 moves from the start" in b.eval("document.getElementById('status').textContent")
            _key(b, "ArrowRight", 39)
            if b.eval("document.activeElement.getAttribute('aria-expanded')") == "true":
                note = b.eval("document.activeElement.nextElementSibling.textContent")
                assert "not in this file" in note and "grundy explore '" in note
            assert b.errors() == [], b.errors()
            urls = [m["params"]["request"]["url"] for m in b.events if m.get("method") == "Network.requestWillBeSent"]
            assert urls and all(u.startswith(("file://", "data:")) for u in urls), urls
        finally:
            b.close()


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (Debian: apt-get install chromium; "
                                              ".ci/run installs it where it can)")
@pytest.mark.slow
def test_the_served_page_computes_options_past_the_depth_in_headless_chromium():
    e = explore({"game": "nim", "heaps": [2, 3]}, depth=1)
    httpd = server(e)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        with tempfile.TemporaryDirectory() as profile:
            b = Chromium(profile)
            try:
                b.open(f"http://127.0.0.1:{httpd.server_address[1]}/")
                assert "Served by grundy" in b.eval("document.getElementById('note').textContent")
                _key(b, "ArrowRight", 39)                    # the first option's options: from the server
                for _ in range(100):
                    if b.eval("document.querySelectorAll('#tree .row[aria-level=\"2\"]').length"):
                        break
                    time.sleep(0.1)
                rows = [r for r in b.eval(ROWS) if r[4] == 2]
                assert [json.loads(r[0])["heaps"] for r in rows] == [[0, 3], [1, 2], [1, 1], [1, 0]]
                assert [r[1] for r in rows] == ["G = 3", "G = 3", "G = 0", "G = 1"]
                # a position the tree does not reach: computed on its own
                b.eval("document.getElementById('q').value = '{\"heaps\": [5, 1]}';"
                       "document.getElementById('search').requestSubmit()")
                for _ in range(100):
                    if b.eval("document.querySelectorAll('#found .row').length") > 1:
                        break
                    time.sleep(0.1)
                found = b.eval("Array.from(document.querySelectorAll('#found .row')).map(function (r) {"
                               " return [r.dataset.position, r.querySelector('.val').textContent]; })")
                assert found[0] == [node_key({"game": "nim", "heaps": [5, 1]}), "G = 4"] and len(found) == 1 + 6
                assert b.errors() == [], b.errors()
            finally:
                b.close()
    finally:
        httpd.shutdown()
        httpd.server_close()


def test_the_docs_command_prints_what_the_docs_show(tmp_path, capsys, monkeypatch):
    block = re.search(r"```console\n\$ (grundy explore .*?)\n(.*?)\n```", (ROOT / "docs" / "exploring.md").read_text(),
                      re.S)
    monkeypatch.chdir(tmp_path)
    assert main(block.group(1).split()[1:]) == 0
    assert capsys.readouterr().out.strip() == block.group(2).strip()
    assert (tmp_path / "tree.html").exists()
