"""The HTML report: one self-contained file (inline SVG, CSS, script; nothing fetched), an index
of every claim filterable by paper and verdict; checked in a real headless Chromium through the
DevTools protocol (over ``--remote-debugging-pipe``: no network, no extra dependency).
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import tempfile
import time

import pytest
from test_pictures import EMPTY, K1234, PETERSEN

from grundy.tools.report import Interruption, html_report, write_report
from grundy.verify.verdict import Counterexample, Verdict

CHROMIUM = next((shutil.which(c) for c in ("chromium", "chromium-browser") if shutil.which(c)), None)


def _verdicts() -> list[Verdict]:
    """Verdicts as grundy verify makes them: several papers and verdicts, three counterexamples
    (graph, multipartite, empty graph), a two-heap one, lines of play."""
    p_line = [{"move": "2->1, weight 1", "to": dict(PETERSEN, token=1)}]
    vs = [
        Verdict("alpha/thm1", "char", "proved", "proved", "all heaps, 2 heaps", 0.4, paper="alpha"),
        Verdict("alpha/thm2", "char", "verified", "verified", "heap <= 6", 1.2, paper="alpha"),
        Verdict("alpha/prop3", "outcome", "refuted", "refuted", "Petersen, weights 1..3", 30.5, paper="alpha",
                counterexample=Counterexample(PETERSEN, "P", "N", p_line, "Petersen", "smallest in the sweep")),
        Verdict("beta/lemma13", "outcome", "refuted", "refuted", "", 0.5, paper="beta",
                counterexample=Counterexample(K1234, "N", "P",
                                              [{"move": "delete 0", "to": dict(K1234, nodes=list(range(1, 10)),
                                                                                edges=[e for e in K1234["edges"] if 0 not in e])}],
                                              "K_{1,2,3,4}", "smallest")),
        Verdict("beta/cor17", "outcome", "refuted", "refuted", "", 0.3, paper="beta",
                counterexample=Counterexample(EMPTY, "N", "P", [], "P_1", "smallest")),
        Verdict("beta/thm9", "grundy", "unknown", "proved", "", 9.0, "timed out", paper="beta"),
        Verdict("gamma/thm5.2", "char", "refuted", "refuted", "heap <= 20", 0.1, paper="gamma",
                counterexample=Counterexample({"game": "minnie", "heaps": [3, 4]}, "P", "N",
                                              [{"move": "take 3 from heap 1", "to": {"game": "minnie", "heaps": [3, 1]}}],
                                              "2 heaps", "smallest")),
    ]
    return vs


def test_html_is_self_contained(tmp_path):
    page = tmp_path / "r.html"
    write_report(_verdicts(), str(page), Interruption(7, 9, ["beta/x", "gamma/y"]))
    text = page.read_text()
    assert list(tmp_path.iterdir()) == [page]                               # no files beside it
    assert not re.search(r'(src|href)="(?!#)', text)                         # nothing fetched
    assert "<style>" in text and "<script>" in text and text.count("<svg") >= 7
    assert "interrupted: 7 of 9 claims done" in text and "gamma/y" in text
    index = text[text.index('id="index"'):text.index('id="findings"')]
    assert index.count('<tr data-paper=') == 7
    findings = text[text.index('id="findings"'):text.index('class="claim"')]
    assert findings.count('<tr data-paper="beta" data-verdict="refuted">') == 2   # the filter's keys
    assert "A losing line" in text and "Winning line" in text               # P- and N-position lines
    ids = re.findall(r'\sid="([^"]+)"', text)
    assert len(ids) == len(set(ids)), "ids inside the inline SVGs must be unique in the page"


def test_statement_text_is_shown_when_the_verdict_carries_one():
    v = Verdict("alpha/thm1", "char", "proved", "proved", "all heaps", 0.4, paper="alpha",
                text="The P-positions are exactly the equal pairs.", source="alpha, Theorem 1")
    text, _ = html_report([v])
    assert "The P-positions are exactly the equal pairs." in text and "alpha, Theorem 1" in text


# ------------------------------------------------------------------ a real browser
class Chromium:
    """Headless Chromium driven through the DevTools protocol on a pipe (fds 3 and 4)."""

    def __init__(self, profile: str):
        to_chrome_r, self._to_chrome = os.pipe()
        self._from_chrome, from_chrome_w = os.pipe()

        def fds() -> None:
            a, b = os.dup(to_chrome_r), os.dup(from_chrome_w)
            os.dup2(a, 3)
            os.dup2(b, 4)
            os.set_inheritable(3, True)                 # dup2 onto itself keeps close-on-exec
            os.set_inheritable(4, True)

        self.proc = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
             "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
             f"--user-data-dir={profile}", "--remote-debugging-pipe", "about:blank"],
            preexec_fn=fds, close_fds=False, stdout=subprocess.DEVNULL, stderr=open(os.environ.get("GRUNDY_CHROMIUM_LOG", os.devnull), "w"))
        os.close(to_chrome_r)
        os.close(from_chrome_w)
        self._buf = b""
        self._id = 0
        self.events: list[dict] = []
        self.session: str | None = None

    def _read(self, deadline: float) -> dict:
        while b"\0" not in self._buf:
            if time.monotonic() > deadline:
                raise TimeoutError("Chromium did not answer")
            chunk = os.read(self._from_chrome, 1 << 16)
            if not chunk:
                raise EOFError("Chromium closed the pipe")
            self._buf += chunk
        msg, self._buf = self._buf.split(b"\0", 1)
        return json.loads(msg)

    def call(self, method: str, timeout: float = 20.0, **params) -> dict:
        self._id += 1
        msg = {"id": self._id, "method": method, "params": params}
        if self.session and not method.startswith("Target."):
            msg["sessionId"] = self.session
        os.write(self._to_chrome, json.dumps(msg).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            m = self._read(deadline)
            if m.get("id") == self._id:
                if "error" in m:
                    raise RuntimeError(f"{method}: {m['error']}")
                return m.get("result", {})
            self.events.append(m)

    def wait_event(self, name: str, timeout: float = 20.0) -> dict:
        deadline = time.monotonic() + timeout
        for m in self.events:
            if m.get("method") == name:
                return m
        while True:
            m = self._read(deadline)
            self.events.append(m)
            if m.get("method") == name:
                return m

    def open(self, url: str) -> None:
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            self.call(f"{domain}.enable")
        self.call("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired")

    def eval(self, expr: str):
        r = self.call("Runtime.evaluate", expression=expr, returnByValue=True)
        if "exceptionDetails" in r:
            raise RuntimeError(f"{expr}: {r['exceptionDetails']}")
        return r["result"].get("value")

    def errors(self) -> list[dict]:
        out = []
        for m in self.events:
            meth, p = m.get("method"), m.get("params", {})
            if meth == "Runtime.exceptionThrown":
                out.append(p)
            elif meth == "Runtime.consoleAPICalled" and p.get("type") in ("error", "assert"):
                out.append(p)
            elif meth == "Log.entryAdded" and p.get("entry", {}).get("level") == "error":
                out.append(p)
        return out

    def close(self) -> None:
        try:
            self.call("Browser.close", timeout=5)
        except Exception:
            pass
        try:
            self.proc.wait(5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._to_chrome)
        os.close(self._from_chrome)


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed (Debian: apt-get install chromium; "
                                              ".ci/run installs it where it can)")
@pytest.mark.slow
def test_report_in_headless_chromium(tmp_path):
    vs = _verdicts()
    page = tmp_path / "report.html"
    write_report(vs, str(page))
    with tempfile.TemporaryDirectory() as profile:
        b = Chromium(profile)
        try:
            b.open(page.as_uri())
            assert b.errors() == [], b.errors()
            # every picture rendered with a size, and has drawn content
            sizes = b.eval("Array.from(document.querySelectorAll('figure svg')).map(function (s) {"
                           "var r = s.getBoundingClientRect(); return [r.width, r.height,"
                           " s.querySelectorAll('path, text, use').length]; })")
            assert len(sizes) == 4 + 3                       # 4 positions, 3 lines of play
            assert all(w > 50 and h > 50 and n > 0 for w, h, n in sizes), sizes
            imgs = b.eval("Array.from(document.images).filter(function (i) { return !(i.complete && i.naturalWidth > 0); }).length")
            assert imgs == 0
            rows = "document.querySelectorAll('#index tbody tr:not([hidden])').length"
            assert b.eval(rows) == len(vs)

            def choose(select: str, value: str) -> None:
                b.eval(f"(function () {{ var s = document.getElementById('{select}'); s.value = '{value}';"
                       " s.dispatchEvent(new Event('change')); })()")

            choose("f-paper", "beta")
            assert b.eval(rows) == sum(v.paper == "beta" for v in vs)
            assert b.eval("document.getElementById('f-count').textContent") == f"3 of {len(vs)} claims shown"
            choose("f-verdict", "refuted")
            assert b.eval(rows) == sum(v.paper == "beta" and v.verdict == "refuted" for v in vs)
            visible = b.eval("Array.from(document.querySelectorAll('section.claim')).filter(function (s) {"
                             " return !s.hidden && s.offsetParent !== null; }).map(function (s) { return s.id; })")
            assert visible == ["c-beta-lemma13", "c-beta-cor17"]
            found = "document.querySelectorAll('#findings tbody tr:not([hidden])').length"
            assert b.eval(found) == 2                        # the Findings table follows the filter
            choose("f-paper", "")
            assert b.eval(rows) == sum(v.verdict == "refuted" for v in vs)
            assert b.eval(found) == sum(v.verdict == "refuted" for v in vs)
            choose("f-verdict", "proved")
            assert b.eval(found) == 0 and b.eval("document.getElementById('findings-none').hidden") is False
            assert b.errors() == [], b.errors()
        finally:
            b.close()


# ------------------------------------------------------------------ the statement column, whole scopes
CLAIMS_WITHOUT_TEXT = '''
from grundy.verify import Claim, heaps


def equal_heaps(g, s):
    """The P-positions are the pairs of equal heaps (Bouton, two heaps)."""
    return s.heap[0] == s.heap[1]


CLAIMS = [
    Claim("t/doc", game="nim", kind="char", family=heaps(2), bounds={"heap": 4}, statement=equal_heaps),
    Claim("t/lam", game="nim", kind="char", family=heaps(2), bounds={"heap": 4},
          statement=lambda g, s: (s.heap[0] ^ s.heap[1]) == 0,   # Bouton
          assume=lambda g, s: (s.heap[0] <= 3) & (s.heap[1] <= 3) & (s.heap[0] + s.heap[1] <= 6) & (s.heap[0] >= 0)),
    Claim("t/txt", game="nim", kind="char", family=heaps(2), bounds={"heap": 4}, text="Equal heaps are P.",
          statement=lambda g, s: s.heap[0] == s.heap[1]),
]
'''


def test_statement_column_falls_back_to_the_statements_docstring_or_source(tmp_path):
    """A claim without text=: its statement's docstring, else the lambda's body as written in
    the user's file; a long assume is in the scope whole (never cut)."""
    import subprocess
    import sys
    f = tmp_path / "mine.py"
    f.write_text(CLAIMS_WITHOUT_TEXT)
    out = tmp_path / "r.html"
    p = subprocess.run([sys.executable, "-m", "grundy.cli", "verify", str(f), "--no-cache", "--report", str(out),
                        "--json"], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    rows = {r["id"]: r for r in map(json.loads, p.stdout.splitlines()) if r.get("id")}
    assert rows["t/doc"]["text"] == "The P-positions are the pairs of equal heaps (Bouton, two heaps)."
    assert rows["t/lam"]["text"] == "(s.heap[0] ^ s.heap[1]) == 0"
    assert rows["t/txt"]["text"] == "Equal heaps are P."
    whole = "(s.heap[0] <= 3) & (s.heap[1] <= 3) & (s.heap[0] + s.heap[1] <= 6) & (s.heap[0] >= 0)"
    assert whole in rows["t/lam"]["scope"]
    page = out.read_text()
    index = page[page.index('id="index"'):]
    assert "(s.heap[0] ^ s.heap[1]) == 0" in index and "pairs of equal heaps" in index
