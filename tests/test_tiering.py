"""When a kernel on a large box is compiled with the optimizer: after ``upgrade_pauses`` pauses at
-Og (the optimizer's estimated time against what it would have saved), unless
``settings.upgrade_after`` fixes the count; the values are the same on either side of it."""
import random

import pytest

from grundy.settings import current as current_settings
from grundy.solvers.native import build
from grundy.solvers.native.kernel import Box, Kernel, upgrade_pauses
from grundy.spec.games import get_game
from grundy.spec.structure import Structure

pytestmark = pytest.mark.skipif(not build.available(), reason="no C compiler")


def nim3():
    return get_game("nim").rules(Structure.heaps(3))


def test_the_pauses_grow_with_the_text_and_the_light_build_asks_fewer():
    short, long_ = upgrade_pauses("x" * 10_000), upgrade_pauses("x" * 60_000)
    assert 1 <= short < long_
    assert upgrade_pauses("x" * 60_000, light=True) < long_
    assert current_settings().upgrade_after is None        # the default: by the estimate


def test_a_search_shorter_than_the_estimate_stays_at_og_and_a_longer_one_is_upgraded(tune):
    rules = nim3()
    box = Box.around(rules, [(0, 0, 0), (63, 63, 63)])
    assert box.size > current_settings().quick_box
    k = Kernel(rules, box, dense=False)
    quick_lib = k.lib
    assert k.tiered and k.upgrade_at == upgrade_pauses(k._text)
    k.upgrade_at = 10 ** 9                           # a search this short never pays for -O2
    assert k.grundy((63, 62, 61)) == 63 ^ 62 ^ 61   # 249,984 positions: many pauses
    assert k.pauses >= 2 and k.quick and k.lib is quick_lib
    k2 = Kernel(rules, box, dense=False)            # the same text: the -Og library shared
    k2.upgrade_at = 2                                # the estimate met after two pauses
    assert k2.grundy((62, 63, 61)) == 62 ^ 63 ^ 61
    assert not k2.quick and k2.lib is not quick_lib and k2.pauses == 2
    rnd = random.Random(5)
    for s in [tuple(rnd.randint(0, 61) for _ in range(3)) for _ in range(300)]:
        assert k.grundy(s) == k2.grundy(s) == s[0] ^ s[1] ^ s[2], s


def test_a_fixed_count_overrides_the_estimate(tune):
    tune(upgrade_after=1)
    rules = nim3()
    k = Kernel(rules, Box.around(rules, [(0, 0, 0), (63, 63, 63)]), dense=False)
    k.upgrade_at = 10 ** 9
    assert k.grundy((61, 63, 62)) == 61 ^ 63 ^ 62
    assert not k.quick and k.pauses == 1
