"""The verdict cache of `grundy verify`: a re-run of unchanged claims gives the same verdicts
from the cache; any change to what a check consumes (the rules' IR, the statement's IR, the
bounds...) checks the claim again, whatever made the change: the seven staleness routes of
issue 18 below, each run through the command line with the cache on."""
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


def verify(target: Path | list[str], cache: Path, *extra: str, env: dict | None = None) -> tuple[int, list[dict], str]:
    """``grundy verify TARGET --json`` in a fresh process: exit code, rows (without seconds), stderr."""
    env = {**os.environ, "GRUNDY_CACHE": str(cache), **(env or {})}
    targets = [str(t) for t in target] if isinstance(target, list) else [str(target)]
    p = subprocess.run([sys.executable, "-m", "grundy.cli", "verify", *targets, "--json", "--jobs", "1", *extra],
                       capture_output=True, text=True, env=env, timeout=300)
    rows = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
    for r in rows:
        r.pop("seconds", None)
        r.pop("cpu_seconds", None)
    return p.returncode, rows, p.stderr


def without_cache(rows: list[dict]) -> list[dict]:
    return [{k: v for k, v in r.items() if k != "cache"} for r in rows]


@pytest.fixture
def theorems(tmp_path: Path) -> Path:
    d = tmp_path / "theorems"
    d.mkdir()
    (d / "demo.py").write_text(THEOREM)
    (d / "_helper.py").write_text("def same(a, b):\n    return a == b\n")
    return d


@pytest.mark.slow
def test_a_rerun_reads_the_same_verdicts_and_a_change_checks_again(theorems: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    code, first, err = verify(theorems, cache)
    assert code == 0 and "from the cache" not in err
    assert [r["verdict"] for r in first] == ["verified", "verified", "refuted"]
    assert [r["cache"] for r in first] == ["stored"] * 3
    code, again, err = verify(theorems, cache)
    assert code == 0 and without_cache(again) == without_cache(first) and "3 of 3 verdicts from the cache" in err
    assert [r["cache"] for r in again] == ["from the cache"] * 3
    table = subprocess.run([sys.executable, "-m", "grundy.cli", "verify", str(theorems)], capture_output=True,
                           text=True, env={**os.environ, "GRUNDY_CACHE": str(cache)}, timeout=300)
    assert table.returncode == 0 and "3 of 3 verdicts from the cache" in table.stdout and table.stderr == ""
    (theorems / "demo.py").write_text(THEOREM + "# an edit that changes no claim\n")
    code, rows, err = verify(theorems, cache)
    assert without_cache(rows) == without_cache(first) and "3 of 3 verdicts from the cache" in err
    (theorems / "_helper.py").write_text("def same(a, b):\n    return a != b\n")   # what it imports changes
    code, rows, err = verify(theorems, cache)
    assert "1 of 3 verdicts from the cache" in err and [r["verdict"] for r in rows] == ["refuted"] * 3
    assert [r["cache"] for r in rows] == ["stored", "stored", "from the cache"]   # demo/wrong: the same IR
    assert code == 1
    code, rows, err = verify(theorems, cache, "--profile", "full")          # an option that changes checking
    assert "from the cache" not in err
    code, rows, err = verify(theorems, cache, "--no-cache")
    assert "from the cache" not in err and [r["verdict"] for r in rows] == ["refuted", "refuted", "refuted"]
    assert all("cache" not in r for r in rows)


def test_no_cache_writes_nothing(theorems: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    verify(theorems, cache, "--no-cache")
    assert not (cache / "verdicts").exists() or not list((cache / "verdicts").iterdir())


# ------------------------------------------------------------------ the seven staleness routes
# Every route makes the same change: the claim "Nim on one heap: P iff heap == ZERO" is true
# with ZERO = 0 and false with ZERO = 1 (route f: the game's parameter changes instead). The
# truth, from the rules in words: a heap of 0 has no move (P); any other heap can be taken
# whole, to 0 (N). `take_up_to_p` below is the same for "take 1..k tokens".

def take_up_to_p(n: int, k: int) -> bool:
    """Brute force: is a heap of n a P-position when a move takes 1..k tokens from it?"""
    p: list[bool] = []
    for m in range(n + 1):
        p.append(not any(p[m - t] for t in range(1, min(m, k) + 1)))
    return p[n]


def test_the_brute_force_agrees_with_the_claims_below() -> None:
    nim = [take_up_to_p(n, n) for n in range(5)]                          # Nim: take any number
    assert [n for n in range(5) if nim[n]] == [0]                         # ZERO = 0: true; 1: false
    assert [n for n in range(10) if take_up_to_p(n, 2)] == [0, 3, 6, 9]   # k = 2: P iff n % 3 == 0
    assert take_up_to_p(3, 3) is False                                    # k = 3: heap 3 is N


def _claim(zero: str, head: str = "", cid: str = "probe/zero") -> str:
    return textwrap.dedent(head) + textwrap.dedent(f'''
        from grundy.verify import Claim, heaps
        CLAIMS = [Claim("{cid}", game="nim", kind="char", family=heaps(1), bounds={{"heap": 4}},
                        statement=lambda g, s: s.heap[0] == {zero})]
    ''')


def _route_a(root: Path) -> tuple[list[str], dict, callable]:
    """A helper module in a sub-package of the theorem folder."""
    t = root / "t"
    (t / "pkg").mkdir(parents=True)
    (t / "pkg" / "__init__.py").write_text("")
    (t / "pkg" / "consts.py").write_text("ZERO = 0\n")
    (t / "claim.py").write_text(_claim("ZERO", "from pkg.consts import ZERO\n"))
    return [str(t)], {}, lambda: (t / "pkg" / "consts.py").write_text("ZERO = 1\n")


def _route_b(root: Path) -> tuple[list[str], dict, callable]:
    """A module in another folder, put on sys.path by the theorem file."""
    t, lib = root / "t", root / "lib"
    t.mkdir()
    lib.mkdir()
    (lib / "probe_b.py").write_text("ZERO = 0\n")
    (t / "claim.py").write_text(_claim("probe_b.ZERO", f'''
        import sys
        sys.path.insert(0, {str(lib)!r})
        import probe_b
    '''))
    return [str(t)], {}, lambda: (lib / "probe_b.py").write_text("ZERO = 1\n")


def _route_c(root: Path) -> tuple[list[str], dict, callable]:
    """A module found through PYTHONPATH (as from site-packages), outside the theorem folder."""
    t, lib = root / "t", root / "site"
    t.mkdir()
    lib.mkdir()
    (lib / "probe_c.py").write_text("ZERO = 0\n")
    (t / "claim.py").write_text(_claim("ZERO", "from probe_c import ZERO\n"))
    path = os.pathsep.join([str(lib), os.environ.get("PYTHONPATH", "")]).rstrip(os.pathsep)
    return [str(t)], {"PYTHONPATH": path}, lambda: (lib / "probe_c.py").write_text("ZERO = 1\n")


def _route_d(root: Path) -> tuple[list[str], dict, callable]:
    """A data file read when the theorem file is imported."""
    t = root / "t"
    t.mkdir()
    (t / "zero.json").write_text('{"zero": 0}')
    (t / "claim.py").write_text(_claim("ZERO", '''
        import json, pathlib
        ZERO = json.loads((pathlib.Path(__file__).parent / "zero.json").read_text())["zero"]
    '''))
    return [str(t)], {}, lambda: (t / "zero.json").write_text('{"zero": 1}')


def _route_e(root: Path) -> tuple[list[str], dict, callable]:
    """An environment variable read by the statement when it is called."""
    t = root / "t"
    t.mkdir()
    (t / "claim.py").write_text(_claim('int(os.environ.get("PROBE_ZERO", "0"))', "import os\n"))
    env = {"PROBE_ZERO": "0"}
    return [str(t)], env, lambda: env.update(PROBE_ZERO="1")


def _route_f(root: Path) -> tuple[list[str], dict, callable]:
    """A game's parameter set in a --games file; its class lives in another folder."""
    t, lib, games = root / "t", root / "lib", root / "games"
    for d in (t, lib, games):
        d.mkdir()
    (lib / "takeupto.py").write_text(textwrap.dedent('''
        from grundy.spec import HeapRule, option

        class TakeUpTo(HeapRule):
            """Take 1..k tokens from one heap."""
            def __init__(self, name, k):
                self.name, self.k = name, k
                self.summary = f"take 1..{k} tokens from one heap"

            def options(self, g, n):
                yield option("take {t} from heap {heap}", choose=[("t", 1, self.k)],
                             guard=lambda t: t <= n, parts=lambda t: [n - t])
    '''))
    setup = "import sys\nsys.path.insert(0, {lib!r})\nfrom takeupto import TakeUpTo\nGAME = TakeUpTo('probe-take', {k})\n"
    (games / "probe_games.py").write_text(setup.format(lib=str(lib), k=2))
    (t / "claim.py").write_text(textwrap.dedent('''
        from grundy.verify import Claim, heaps
        CLAIMS = [Claim("probe/zero", game="probe-take", kind="char", family=heaps(1), bounds={"heap": 9},
                        statement=lambda g, s: s.heap[0] % 3 == 0)]
    '''))
    return ([str(t), "--games", str(games / "probe_games.py")], {},
            lambda: (games / "probe_games.py").write_text(setup.format(lib=str(lib), k=3)))


def _route_g(root: Path) -> tuple[list[str], dict, callable]:
    """Two files of one folder with the same claim id, run one at a time."""
    t = root / "t"
    t.mkdir()
    (t / "a.py").write_text(_claim("0"))
    (t / "b.py").write_text(_claim("1"))
    target = [str(t / "a.py")]
    return target, {}, lambda: target.__setitem__(0, str(t / "b.py"))


@pytest.mark.parametrize("route", [_route_a, _route_b, _route_c, _route_d, _route_e, _route_f, _route_g],
                         ids=lambda r: r.__name__[len("_route_"):])
def test_a_change_by_any_route_is_a_new_verdict_without_no_cache(route, tmp_path: Path) -> None:
    target, env, change = route(tmp_path)
    cache = tmp_path / "cache"
    code, rows, err = verify(target, cache, env=env)
    assert [(r["verdict"], r["cache"]) for r in rows] == [("verified", "stored")], err
    code, rows, err = verify(target, cache, env=env)                       # nothing changed: stored
    assert [(r["verdict"], r["cache"]) for r in rows] == [("verified", "from the cache")], err
    assert "1 of 1 verdicts from the cache" in err
    change()
    code, rows, err = verify(target, cache, env=env)                       # the new claim's verdict
    assert [(r["verdict"], r["cache"]) for r in rows] == [("refuted", "stored")], err
    assert code == 1 and "from the cache" not in err


# ------------------------------------------------------------------ what is keyed, in process
def _key(claim, profile: str = "quick") -> str:
    return vcache.claim_key(claim, {"profile": profile, "timeout": None, "executor": None})


def test_the_key_follows_the_ir_not_the_code() -> None:
    """A global the rule reads changes the key; re-creating the same claim does not."""
    from grundy.spec import HeapGame, move
    from grundy.verify.claims import Claim
    from grundy.verify.families import heaps

    limit = {"k": 2}

    class Capped(HeapGame):
        name = "probe-capped"

        def moves(self, g, s):
            for i in g.elements:
                yield move(f"take {{k}} from heap {i + 1}", choose=[("k", 1, limit["k"])],
                           guard=lambda k, i=i: k <= s.heap[i], update=lambda k, i=i: s.set(heap={i: s.heap[i] - k}))

    from grundy.spec.registry import GAMES
    game = Capped()

    def claim(text: str = "P iff n % 3 == 0"):
        return Claim("probe/capped", game=game, kind="char", family=heaps(1), bounds={"heap": 6}, text=text,
                     statement=lambda g, s: s.heap[0] % 3 == 0)

    with GAMES.scoped():
        first = _key(claim())
        assert _key(claim()) == first
        game.__dict__.pop("_rules", None), game.__dict__.pop("_rules_last", None)
        limit["k"] = 3                                       # the rule reads it: new moves, new key
        assert _key(claim()) != first
        limit["k"] = 2
        game.__dict__.pop("_rules", None), game.__dict__.pop("_rules_last", None)
        assert _key(claim()) == first
        assert _key(claim("another text")) == first          # words only: the verdict is re-used
        assert _key(claim(), "full") != first


def test_bounds_are_keyed_as_resolved_values_and_unused_structures_are_not_read() -> None:
    from grundy.verify.claims import Claim
    from grundy.verify.families import paths

    seen: list[int] = []

    def statement(g, s):
        seen.append(g.n)
        return s.weight[0] == 0

    def claim(bound):
        return Claim("probe/bounds", game="edge-nim", kind="char", family=paths(2, 3), statement=statement,
                     bounds={"weight": bound}, expect="refuted")

    a = _key(claim(lambda g, e: [0, 1] if g.n == 2 else []))     # no position on P_3
    assert seen == [2]                                           # its statement is not consumed there
    b = _key(claim(lambda g, e: [0, 1] if g.n == 2 else [2]))
    c = _key(claim(lambda g, e: [0, 1] if g.n == 2 else []))
    assert a == c != b
    assert _key(claim((0, 1))) == _key(claim([0, 1])) != _key(claim([0, 2]))   # values, however written


def test_claims_that_cannot_be_keyed_are_not_cached_and_say_why(tune, monkeypatch, tmp_path: Path) -> None:
    from grundy.verify.check import check_claim
    from grundy.verify.claims import Claim
    from grundy.verify.families import cycles, heaps, sums
    monkeypatch.setenv("GRUNDY_CACHE", str(tmp_path))
    on_sums = Claim("probe/sums", game="sum", kind="outcome",
                    family=sums([{"game": "nim", "heaps": [1]}], [{"game": "nim", "heaps": [1]}]),
                    statement=lambda g, s: s[0].heap[0] == s[1].heap[0])
    with pytest.raises(vcache.NotCacheable, match="sums"):
        _key(on_sums)
    tune(max_structures=2)
    many = Claim("probe/many", game="grim", kind="char", family=cycles(3, 4, 5), statement=lambda g, s: False,
                 bounds={}, expect="refuted")
    with pytest.raises(vcache.NotCacheable, match="more than 2 structures"):
        _key(many)
    broken = Claim("probe/broken", game="nim", kind="char", family=heaps(1), bounds={"heap": 2},
                   statement=lambda g, s: s.heap[0] == 1 / 0, expect="error")
    with pytest.raises(vcache.NotCacheable, match="ZeroDivisionError"):
        _key(broken)
    cache = vcache.VerdictCache({"profile": "quick"})
    got = [cache.verdict(c, lambda c=c: check_claim(c)) for c in (on_sums, many)]
    assert [v.cache.split(":")[0] for v in got] == ["not cacheable", "not cacheable"]
    assert not (tmp_path / "verdicts").exists()
    lines = vcache.cache_note(got, 2)
    assert lines == ["2 claims not cacheable (checked on every run): probe/sums, probe/many"]


def test_the_command_line_says_which_claims_are_not_cached(tmp_path: Path) -> None:
    t = tmp_path / "t"
    t.mkdir()
    (t / "claims.py").write_text(textwrap.dedent('''
        from grundy.verify import Claim, heaps, sums
        CLAIMS = [Claim("probe/nim", game="nim", kind="char", family=heaps(1), bounds={"heap": 3},
                        statement=lambda g, s: s.heap[0] == 0),
                  Claim("probe/sums", game="sum", kind="outcome",
                        family=sums([{"game": "nim", "heaps": [1]}], [{"game": "nim", "heaps": [1]}]),
                        statement=lambda g, s: s[0].heap[0] == s[1].heap[0])]
    '''))
    cache = tmp_path / "cache"
    verify(t, cache)
    p = subprocess.run([sys.executable, "-m", "grundy.cli", "verify", str(t)], capture_output=True, text=True,
                       env={**os.environ, "GRUNDY_CACHE": str(cache)}, timeout=300)
    assert "1 of 2 verdicts from the cache" in p.stdout
    assert "1 claim not cacheable (checked on every run): probe/sums" in p.stdout


def test_unsettled_verdicts_are_checked_again(tmp_path: Path, monkeypatch) -> None:
    """An unknown (a time limit, a missing program) or an error is never served from the cache."""
    from grundy.verify.claims import Claim
    from grundy.verify.families import heaps
    monkeypatch.setenv("GRUNDY_CACHE", str(tmp_path))
    c = Claim("demo/slow", game="nim", kind="char", family=heaps(1), bounds={"heap": 3},
              statement=lambda g, s: s.heap[0] == 0)
    calls = []

    def check():
        calls.append(c.id)
        return Verdict(c.id, c.kind, "unknown", c.expect, detail="timed out after 1 s")

    cache = vcache.VerdictCache({"profile": "quick"})
    for _ in range(2):
        v = cache.verdict(c, check)
        assert (v.verdict, v.cache) == ("unknown", "checked")
    assert calls == ["demo/slow", "demo/slow"]


def test_an_executor_run_reads_and_writes_the_same_cache(theorems: Path, tmp_path: Path) -> None:
    cache = tmp_path / "cache"
    code, first, err = verify(theorems, cache, "--executor", "local:1")
    assert [r["cache"] for r in first] == ["stored"] * 3
    code, again, err = verify(theorems, cache)                       # the same keys without it? no:
    assert [r["cache"] for r in again] == ["stored"] * 3             # --executor is an option of the key
    code, again, err = verify(theorems, cache, "--executor", "local:1")
    assert [r["cache"] for r in again] == ["from the cache"] * 3
    assert without_cache(again) == without_cache(first)


def test_editing_only_expect_or_the_words_reuses_the_verdict_with_the_new_expectation(tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("GRUNDY_CACHE", str(tmp_path))
    from grundy.verify.cache import VerdictCache
    from grundy.verify.check import check_claim
    from grundy.verify.claims import Claim
    from grundy.verify.families import heaps

    def claim(expect: str, text: str) -> Claim:
        return Claim("probe/words", game="nim", kind="char", family=heaps(2), bounds={"heap": 4}, text=text,
                     statement=lambda g, s: s.heap[0] == s.heap[1], methods=["explicit", "smt"], expect=expect)

    cache = VerdictCache({"profile": "quick", "timeout": None})
    calls = []

    def check(c: Claim):
        calls.append(c.id)
        return check_claim(c)

    first = claim("proved", "Nim on two heaps")
    v = cache.verdict(first, lambda: check(first))
    assert v.verdict == "proved" and v.passed and calls == ["probe/words"]
    again = claim("refuted", "Bouton, two heaps")
    w = cache.verdict(again, lambda: check(again))
    assert calls == ["probe/words"], "editing expect and text re-ran the check"
    assert w.cache == "from the cache" and w.verdict == "proved"
    assert w.expected == "refuted" and not w.passed and w.text == "Bouton, two heaps"
