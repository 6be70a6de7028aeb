"""Caches scoped to a chunk (grundy/caches.py): a worker that runs chunk after chunk on new
structures holds no cache entry between chunks, each cache stays within its bound during one,
and releasing them changes no verdict."""
from __future__ import annotations

import textwrap

import pytest

from grundy import caches
from grundy.spec.game import RULES_CACHE
from grundy.verify.check import check_claim
from grundy.verify.loading import load
from grundy.verify.schedule import chunks as X

N = RULES_CACHE + 12          # more distinct structures than a game keeps Rules for

THEOREMS = textwrap.dedent(f'''
    from grundy.verify import Claim, paths

    CLAIMS = [
        # grim on the paths P_2..P_{N + 1}, every position with vertices 0 and 1 only alive:
        # "P iff the edge 01 is not alive" (an isolated vertex has no move; the edge: N)
        Claim("t/paths", game="grim", kind="char", family=paths(range(2, {N} + 2)),
              bounds={{"alive": lambda g, v: [0, 1] if v < 2 else [0]}},
              statement=lambda g, s: ~(s.alive[0] & s.alive[1])),
    ]
''')


@pytest.fixture(scope="module")
def theorem(tmp_path_factory):
    path = tmp_path_factory.mktemp("caches") / "paths.py"
    path.write_text(THEOREMS)
    return load([str(path)])[0]


@pytest.mark.slow
def test_chunks_release_their_caches(theorem, monkeypatch):
    seen: list[dict[str, int]] = []
    release = caches.release

    def spy() -> None:                      # the caches as each chunk leaves them, then released
        seen.append(caches.sizes())
        release()
    monkeypatch.setattr(X, "release", spy)
    release()                               # what earlier tests in this worker left behind
    swept = 0
    for a, b in X.cut(N, 4):
        r = X.run_chunk(X.Task(theorem.file, theorem.id, "quick", a, b, 60.0))
        assert r["verdict"]["verdict"] == "verified"
        swept += r["swept"]
        assert all(v == 0 for v in caches.sizes().values()), caches.sizes()
    assert len(seen) == 4
    for s in seen:                          # the chunk used the caches, within their bounds
        # (the code: compiled to Python, or the C interpreter's programs where it swept)
        assert s["rules"] > 0 and s["intern"] > 0 and s["code"] + s["vm-moves"] + s["vm-statements"] > 0
        assert s["rules"] <= RULES_CACHE
    assert seen[-1]["rules"] == N - N * 3 // 4          # the last chunk's structures only
    whole = check_claim(theorem)                         # released caches change no verdict
    assert whole.verdict == "verified" and whole.coverage["positions"] == swept


@pytest.mark.slow
def test_a_chunk_that_raises_releases_too(theorem, monkeypatch):
    import grundy.verify.check as check

    def boom(*a, **kw):
        from grundy.spec.games import get_game
        from grundy.spec.structure import Structure
        get_game("nim").rules(Structure.heaps(2))        # a cache entry, then a failure
        raise RuntimeError("boom")
    monkeypatch.setattr(check, "check_part", boom)
    with pytest.raises(RuntimeError):
        X.run_chunk(X.Task(theorem.file, theorem.id, "quick", 0, 3, 60.0))
    assert caches.sizes()["rules"] == 0


def test_every_cache_is_registered():
    import grundy.solvers.explicit.compile  # noqa: F401  (the modules that register them)
    import grundy.solvers.smt.encode  # noqa: F401
    import grundy.spec.position  # noqa: F401
    assert {"code", "generated", "encodings", "intern", "rules", "shapes"} <= set(caches.sizes())
