"""Cache keys (grundy.digest): what a game's digest covers, and what makes it unreadable."""
from __future__ import annotations

import functools

from grundy.digest import game_digest, package_digest
from grundy.spec.games import GAMES, get_game
from grundy.spec.games.nim import Nim


def test_every_listed_game_has_a_stable_digest():
    for name in sorted(GAMES):
        d = game_digest(GAMES[name])
        assert d is not None and d == game_digest(GAMES[name]), name
    assert len({game_digest(GAMES[n]) for n in GAMES}) == len(GAMES)
    assert package_digest() == package_digest()


def test_a_subclass_changed_in_a_method_or_an_attribute_gets_another_digest():
    class A(Nim):
        name = "digest-a"

        def rank(self, g, s):
            return super().rank(g, s)

    class B(Nim):
        name = "digest-a"

        def rank(self, g, s):
            return super().rank(g, s) + 0

    class C(Nim):
        name = "digest-a"
        heap_count = 2

        def rank(self, g, s):
            return super().rank(g, s)

    class D(Nim):
        name = "digest-a"

        @functools.lru_cache(maxsize=None)  # noqa: B019  (a cached method is what this test digests)
        def helper(self):
            return 1

    class E(Nim):
        name = "digest-a"

        @functools.lru_cache(maxsize=None)  # noqa: B019  (a cached method is what this test digests)
        def helper(self):
            return 2

    digests = [game_digest(k()) for k in (A, B, C, D, E)]
    assert None not in digests and len(set(digests)) == 5


def test_closures_are_part_of_the_code():
    def make(k):
        class G(Nim):
            name = "digest-k"

            def rank(self, g, s):
                return super().rank(g, s) + k
        return G()
    assert game_digest(make(1)) != game_digest(make(2))
    assert game_digest(make(1)) == game_digest(make(1))


def test_an_attribute_that_cannot_be_read_back_means_no_digest():
    game = Nim()
    game.helper = object()                       # no plain value: nothing may be cached for it
    assert game_digest(game) is None
    assert game_digest(get_game("nim")) is not None


def _digest_of(path) -> str:
    import hashlib

    from grundy.digest import files_digest
    h = hashlib.sha256()
    files_digest([path], h)
    return h.hexdigest()


def test_file_digests_remembered_by_stat_follow_every_change(tmp_path, monkeypatch):
    """A settled file's SHA-256 is remembered by its stat; a rewrite of the same length, even
    with its modification time set back, is read again (its change time moved)."""
    import os
    import time

    from grundy import digest
    monkeypatch.setenv("GRUNDY_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(digest._FileMemo, "_by_root", {})
    f = tmp_path / "game.py"
    f.write_text("A = 1\n")
    old = time.time_ns() - 10 ** 10
    os.utime(f, ns=(old, old))
    monkeypatch.setattr(digest._FileMemo, "SETTLED_NS", -10 ** 12)   # the ctime just set counts as settled
    first = _digest_of(f)
    assert str(f) in digest._FileMemo.at(tmp_path / "cache").entries          # remembered
    assert _digest_of(f) == first
    time.sleep(0.05)            # past the clock's tick (the settling rule, switched off here)
    f.write_text("A = 2\n")                                                  # same length
    os.utime(f, ns=(old, old))                                              # the same mtime
    assert _digest_of(f) != first


def test_a_file_changed_just_now_is_not_remembered(tmp_path, monkeypatch):
    from grundy import digest
    monkeypatch.setenv("GRUNDY_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(digest._FileMemo, "_by_root", {})
    f = tmp_path / "game.py"
    f.write_text("A = 1\n")
    _digest_of(f)
    assert str(f) not in digest._FileMemo.at(tmp_path / "cache").entries
