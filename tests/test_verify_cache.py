"""The verdict cache of `grundy verify`: a re-run of unchanged claims gives the same verdicts
from the cache; any change to what a verdict depends on checks the claim again."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from grundy.verify import cache as vcache
from grundy.verify.verdict import Verdict

THEOREM = textwrap.dedent('''
    from grundy.verify import Claim, heaps
    from _helper import same
    CLAIMS = [Claim("demo/nim2", game="nim", kind="char", family=heaps(2), bounds={"heap": 5},
                    statement=lambda g, s: same(s.heap[0], s.heap[1])),
              Claim("demo/nim1", game="nim", kind="char", family=heaps(1), bounds={"heap": 5},
                    statement=lambda g, s: same(s.heap[0], 0)),
              Claim("demo/wrong", game="nim", kind="char", family=heaps(2), bounds={"heap": 3},
                    statement=lambda g, s: s.heap[0] == 0, expect="refuted")]
''')


def verify(folder: Path, cache: Path, *extra: str) -> tuple[int, list[dict], str]:
    env = {**os.environ, "GRUNDY_CACHE": str(cache)}
    p = subprocess.run([sys.executable, "-m", "grundy.cli", "verify", str(folder), "--json", "--jobs", "1",
                        *extra], capture_output=True, text=True, env=env, timeout=300)
    rows = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
    for r in rows:
        r.pop("seconds", None)
    return p.returncode, rows, p.stderr


@pytest.fixture
def theorems(tmp_path: Path) -> Path:
    d = tmp_path / "theorems"
    d.mkdir()
    (d / "demo.py").write_text(THEOREM)
    (d / "_helper.py").write_text("def same(a, b):\n    return a == b\n")
    return d


def test_a_rerun_reads_the_same_verdicts_and_a_change_checks_again(theorems: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    code, first, err = verify(theorems, cache)
    assert code == 0 and "from the cache" not in err
    assert [r["verdict"] for r in first] == ["verified", "verified", "refuted"]
    code, again, err = verify(theorems, cache)
    assert code == 0 and again == first and "3 of 3 verdicts from the cache" in err
    table = subprocess.run([sys.executable, "-m", "grundy.cli", "verify", str(theorems)], capture_output=True,
                           text=True, env={**os.environ, "GRUNDY_CACHE": str(cache)}, timeout=300)
    assert table.returncode == 0 and "3 of 3 verdicts from the cache" in table.stdout and table.stderr == ""
    (theorems / "demo.py").write_text(THEOREM + "# an edit\n")            # the theorem file changes
    code, rows, err = verify(theorems, cache)
    assert rows == first and "from the cache" not in err
    (theorems / "_helper.py").write_text("def same(a, b):\n    return a != b\n")   # what it imports changes
    code, rows, err = verify(theorems, cache)
    assert "from the cache" not in err and [r["verdict"] for r in rows] == ["refuted", "refuted", "refuted"]
    assert code == 1
    code, rows, err = verify(theorems, cache, "--profile", "full")          # an option that changes checking
    assert "from the cache" not in err
    code, rows, err = verify(theorems, cache, "--no-cache")
    assert "from the cache" not in err and [r["verdict"] for r in rows] == ["refuted", "refuted", "refuted"]


def test_no_cache_writes_nothing(theorems: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    verify(theorems, cache, "--no-cache")
    assert not (cache / "verdicts").exists() or not list((cache / "verdicts").iterdir())


def test_a_game_file_outside_the_package_is_in_the_key(tmp_path: Path, monkeypatch) -> None:
    """A game registered from a file of its own (``--games``, a plugin): editing it, or a
    file beside it, changes every key."""
    import importlib.util

    from grundy.spec.games import GAMES
    from grundy.verify.claims import Claim
    from grundy.verify.families import heaps
    d = tmp_path / "games"
    d.mkdir()
    src = d / "mynim.py"
    src.write_text("from grundy.spec.games.nim import Nim\n\nclass MyNim(Nim):\n    name = 'my-nim'\n")
    spec = importlib.util.spec_from_file_location("grundy_test_mynim", src)
    mod = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "grundy_test_mynim", mod)
    spec.loader.exec_module(mod)
    scope = GAMES.scoped()
    scope.__enter__()
    GAMES.add(mod.MyNim())
    c = Claim("demo/my", game="my-nim", kind="char", family=heaps(1), bounds={"heap": 3},
              statement=lambda g, s: s.heap[0] == 0)
    before = vcache.claim_key(c, {"profile": "quick"})
    assert vcache.claim_key(c, {"profile": "quick"}) == before
    src.write_text(src.read_text() + "# an edit\n")
    edited = vcache.claim_key(c, {"profile": "quick"})
    assert edited != before
    (d / "beside.py").write_text("X = 1\n")
    assert vcache.claim_key(c, {"profile": "quick"}) != edited
    assert vcache.claim_key(c, {"profile": "full"}) != vcache.claim_key(c, {"profile": "quick"})
    monkeypatch.delitem(sys.modules, "grundy_test_mynim")      # its source cannot be found: no key,
    assert vcache.claim_key(c, {"profile": "quick"}) is None    # nothing is cached
    scope.__exit__(None, None, None)


def test_unsettled_verdicts_are_checked_again(tmp_path: Path, monkeypatch) -> None:
    """An unknown (a time limit, a missing program) or an error is never served from the cache."""
    from grundy.verify.claims import Claim
    from grundy.verify.families import heaps
    monkeypatch.setenv("GRUNDY_CACHE", str(tmp_path))
    c = Claim("demo/slow", game="nim", kind="char", family=heaps(1), bounds={"heap": 3},
              statement=lambda g, s: s.heap[0] == 0)
    calls = []

    def check(cs):
        calls.append([x.id for x in cs])
        return [Verdict(x.id, x.kind, "unknown", x.expect, detail="timed out after 1 s") for x in cs]

    for _ in range(2):
        assert [v.verdict for v in vcache.cached_run([c], check, {"profile": "quick"})] == ["unknown"]
    assert calls == [["demo/slow"], ["demo/slow"]]
