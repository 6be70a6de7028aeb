"""Test-wide settings: hypothesis without its per-example deadline (a wall-clock limit of
200 ms by default), so that a test's outcome never depends on the machine's load; a test
that needs a bound on work asserts it on a counter, never on a clock."""
from hypothesis import settings

settings.register_profile("grundy", deadline=None)
settings.load_profile("grundy")
