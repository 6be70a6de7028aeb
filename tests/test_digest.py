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

        @functools.lru_cache(maxsize=None)
        def helper(self):
            return 1

    class E(Nim):
        name = "digest-a"

        @functools.lru_cache(maxsize=None)
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
