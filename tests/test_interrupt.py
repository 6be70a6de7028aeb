"""Interrupted runs keep their work: SIGINT/SIGTERM during ``grundy verify`` still writes the
report, JUnit and JSON for the claims finished; a long C-kernel or Python solve stops on SIGINT
(long before it would have finished) and its table stays usable. How fast it stops is measured by
``benchmarks/interrupt_latency.py``, not asserted here.
"""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from grundy.solvers.native import build

ROOT = Path(__file__).resolve().parent.parent

THEOREMS = """
from grundy.verify import Claim, heaps
CLAIMS = [
    Claim("demo/nim-equal", game="nim", kind="char", family=heaps(2), bounds={"heap": 5},
          statement=lambda g, s: s.heap[0] == s.heap[1]),
    Claim("demo/nim-le", game="nim", kind="char", family=heaps(2), bounds={"heap": 5},
          statement=lambda g, s: s.heap[0] <= s.heap[1], expect="refuted"),
    Claim("demo/slow", game="nim", kind="char", family=heaps(6), bounds={"heap": 40}, timeout=600,
          statement=lambda g, s: s.heap[0] + s.heap[1] + s.heap[2] + s.heap[3] + s.heap[4] + s.heap[5] >= 0,
          expect="refuted"),
]
"""


def _sigint_default() -> None:
    """In the child before it starts: Ctrl-C as a terminal gives it. A job started in the
    background by a shell without job control (``cmd &`` in a script, as some CI runners do)
    ignores SIGINT, and its children inherit that: Python would then never see the signal."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _env() -> dict:
    return {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def _start_verify(tmp_path: Path, *extra: str) -> subprocess.Popen:
    (tmp_path / "demo.py").write_text(textwrap.dedent(THEOREMS))
    return subprocess.Popen([sys.executable, "-m", "grundy.cli", "verify", str(tmp_path / "demo.py"),
                             "--jobs", "1", *extra], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=_env(), cwd=tmp_path, preexec_fn=_sigint_default)


def _wait_for_lines(p: subprocess.Popen, want: int, limit: float = 60.0) -> list[str]:
    """Read stdout lines until ``want`` claim rows (lines starting with demo/) were printed."""
    lines: list[str] = []
    end = time.monotonic() + limit
    while sum(ln.startswith(("demo/", '{"id": "demo/')) for ln in lines) < want:
        assert time.monotonic() < end, f"no {want} rows in time: {lines}"
        ln = p.stdout.readline()
        assert ln, f"the run ended early: {lines} {p.stderr.read()}"
        lines.append(ln)
    return lines


def _finish(p: subprocess.Popen) -> tuple[str, str]:
    try:
        return p.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        raise AssertionError("the run did not stop within 60 s of the signal") from None


def test_sigint_writes_report_and_junit_for_finished_claims(tmp_path):
    report, xml = tmp_path / "r.md", tmp_path / "j.xml"
    p = _start_verify(tmp_path, "--report", str(report), "--junit", str(xml))
    first = _wait_for_lines(p, 2)
    time.sleep(0.5)                                       # the slow claim is running now
    p.send_signal(signal.SIGINT)
    out, err = _finish(p)
    out = "".join(first) + out
    assert p.returncode == 130, (out, err)
    assert "Traceback" not in err
    assert "interrupted: 2 of 3 claims done" in out and "unfinished: demo/slow" in out
    text = report.read_text()
    assert "interrupted: 2 of 3 claims done" in text and "demo/slow" in text
    assert "## demo/nim-equal" in text and "## demo/nim-le" in text and "## demo/slow" not in text
    root = ET.parse(xml).getroot()
    cases = {c.get("name"): c for c in root.iter("testcase")}
    assert set(cases) == {"demo/nim-equal", "demo/nim-le", "demo/slow"}
    assert cases["demo/slow"].find("skipped") is not None
    assert cases["demo/nim-le"].find("skipped") is None and cases["demo/nim-le"].find("failure") is None
    assert "interrupted: 2 of 3 claims done" in ET.tostring(root, encoding="unicode")


def test_sigterm_with_json(tmp_path):
    p = _start_verify(tmp_path, "--json")
    first = _wait_for_lines(p, 2)
    time.sleep(0.5)
    p.send_signal(signal.SIGTERM)
    out, err = _finish(p)
    assert p.returncode == 143, (out, err)
    rows = [json.loads(ln) for ln in "".join(first + [out]).splitlines() if ln.strip()]
    assert [r.get("id") for r in rows[:2]] == ["demo/nim-equal", "demo/nim-le"]
    assert rows[-1]["interrupted"] is True and rows[-1]["done"] == 2 and rows[-1]["total"] == 3
    assert rows[-1]["unfinished"] == ["demo/slow"]
    assert rows[-1]["message"] == "interrupted: 2 of 3 claims done"


def _time_to_stop(script: str) -> tuple[float, str, str, int]:
    """Run ``script`` (prints "ready" before its long call); SIGINT 1 s later; seconds to exit."""
    p = subprocess.Popen([sys.executable, "-c", textwrap.dedent(script)], stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True, env=_env(), preexec_fn=_sigint_default)
    line = p.stdout.readline()
    assert line.strip() == "ready", (line, p.stderr.read() if p.poll() is not None else "")
    time.sleep(1.0)
    assert p.poll() is None, "the long call ended by itself: the test needs a longer workload"
    sent = time.monotonic()
    p.send_signal(signal.SIGINT)
    try:
        out, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        p.communicate()
        raise AssertionError("SIGINT was not noticed within 30 s") from None
    return time.monotonic() - sent, out, err, p.returncode


@pytest.mark.skipif(not build.available(), reason="no C compiler: the C kernel cannot be built here")
@pytest.mark.parametrize("call", ["k.sweep()", "k.values([(90, 90, 90, 90)])"])
def test_long_kernel_solve_stops_on_sigint_and_the_table_stays_usable(call):
    _, out, err, code = _time_to_stop("""
        import sys
        from grundy.spec import Structure
        from grundy.spec.games import get_game
        from grundy.solvers.native.kernel import Box, Kernel
        rules = get_game("nim").rules(Structure.heaps(4))
        k = Kernel(rules, Box.around(rules, [(90, 90, 90, 90)]))
        print("ready", flush=True)
        try:
            CALL
        except KeyboardInterrupt:
            print("interrupted", k.grundy((1, 2, 3, 0)), k.grundy((5, 9, 0, 1)), flush=True)
            sys.exit(3)
        print("finished")
    """.replace("CALL", call))
    assert code == 3, (out, err)
    assert out.split() == ["interrupted", "0", str(5 ^ 9 ^ 1)]


def test_long_python_search_stops_on_sigint():
    _, out, err, code = _time_to_stop("""
        import grundy
        s = grundy.Solver(native=False, symmetry=False)
        print("ready", flush=True)
        try:
            s.grundy(grundy.spec.read_position({"game": "minnie", "heaps": [40, 40, 40, 40, 40]}))
        except KeyboardInterrupt:
            print("interrupted", flush=True)
            raise SystemExit(3)
        print("finished")
    """)
    assert code == 3 and "interrupted" in out, (out, err)


@pytest.mark.skipif(not build.available(), reason="no C compiler: the one-heap tables run in Python")
@pytest.mark.parametrize("argv", [["values", "lasker-nim", "3000000"], ["values", "octal", "--code", "0.137", "3000000"],
                                  ["solve", "grundys-game", "300000"]])
def test_ctrl_c_stops_a_long_one_heap_table_in_c_with_what_it_computed(argv):
    """The one-heap tables are one C call each: Ctrl-C stops the command (exit 130) long before
    the call would end (minutes), and ``values`` says how far it had come."""
    _, out, err, code = _time_to_stop(f"""
        import contextlib, io, sys
        from grundy.cli import main
        from grundy.solvers.heaps import rulevalues, takebreak
        real = rulevalues.call_filling

        def started(fn, out, stop):                # "ready" once the long C call begins
            print("ready", file=sys.__stdout__, flush=True)
            return real(fn, out, stop)

        rulevalues.call_filling = takebreak.call_filling = started
        with contextlib.redirect_stdout(io.StringIO()):
            code = main({argv!r})
        sys.exit(code)
    """)
    assert code == 130, (out, err)
    if argv[0] == "values":
        assert "grundy: interrupted after G(0.." in err and "the values computed so far: 0 " in err, err


@pytest.mark.skipif(not build.available(), reason="no C compiler: the one-heap tables run in Python")
def test_an_interrupted_table_leaves_no_c_loop_running_and_its_prefix_is_right():
    """In a notebook, Ctrl-C must stop the C loop itself, not only the wait for it."""
    import _thread
    import threading

    from grundy.solvers.heaps.takebreak import TakeBreak, takebreak_run
    from grundy.solvers.native.interruptible import Interrupted
    code = TakeBreak((0, 1, 3, 7))                            # octal 0.137 (0.106 is sparse now: 3*10^6 in < 1 s)
    takebreak_run(code, 1000)                                 # built and loaded before the timer starts
    # Ctrl-C as a terminal gives it (an earlier test of the process may have left SIGINT ignored)
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    timer = threading.Timer(0.5, _thread.interrupt_main)
    try:
        timer.start()
        with pytest.raises(Interrupted) as got:
            takebreak_run(code, 3_000_000)
        timer.join()
    finally:
        signal.signal(signal.SIGINT, old)
    assert not any(t.name == "grundy-c-call" and t.is_alive() for t in threading.enumerate())
    done = got.value.done
    assert 0 < len(done) < 3_000_001
    assert done[:2001] == takebreak_run(code, 2000).values[:len(done[:2001])]
