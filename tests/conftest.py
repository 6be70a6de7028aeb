"""Test-wide settings: hypothesis without its per-example deadline (a wall-clock limit of
200 ms by default), so that a test's outcome never depends on the machine's load; a test
that needs a bound on work asserts it on a counter, never on a clock."""
from hypothesis import settings

settings.register_profile("grundy", deadline=None)
settings.load_profile("grundy")


import pytest  # noqa: E402

from grundy import settings as grundy_settings  # noqa: E402


@pytest.fixture
def tune():
    """``tune(native_after=40, ...)``: the package's thresholds (:mod:`grundy.settings`) changed
    for the rest of the test, restored after it (nested calls stack)."""
    import contextlib
    with contextlib.ExitStack() as stack:
        yield lambda **changes: stack.enter_context(grundy_settings.override(**changes))


@pytest.fixture(autouse=True, scope="module")
def _games_registry_as_it_was():
    """Games a test file registers (its own, an example's, a soundness file's) are forgotten after
    the file: a later file in the same worker process that lists every registered game would meet
    them (which files share a process depends on how pytest-xdist hands them out)."""
    from grundy.spec import GAMES
    with GAMES.scoped():
        yield


@pytest.fixture(autouse=True)
def _verdicts_kept_per_test(tmp_path_factory, monkeypatch):
    """Verdicts a test stores in this process go to a folder of its own, never to the user's
    cache (``$GRUNDY_CACHE/verdicts``, default ``~/.cache/grundy``): a test that verifies a
    claim would otherwise read "from the cache" on a second local run of the suite. Compiled
    C kernels stay in the shared cache (content-keyed: reusing them changes no answer); tests
    that run grundy in a subprocess set ``$GRUNDY_CACHE`` themselves."""
    from grundy.verify import cache
    folder = tmp_path_factory.mktemp("verdicts")
    monkeypatch.setattr(cache, "cache_dir", lambda: folder)


@pytest.fixture
def node_table_kept(monkeypatch):
    """The expression node table (:mod:`grundy.spec.nodetable`) never starts again during the test.
    It starts again past its limit, and a restart between two builds of the same expression makes
    them two equal nodes, not one: a test that asserts node identity (``a is b``) would fail in a
    worker whose table was near its limit (CI saw it). Such test files use this fixture."""
    from grundy.spec import nodetable
    monkeypatch.setattr(nodetable, "_INTERN_LIMIT", 10**9)
