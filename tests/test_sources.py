"""The kernels' C text kept on disk (codegen.kernel_source over source_cache.cached_text): a hit is the text
c_source writes, and anything the text is made from changes the key: the rules' content,
however it changed (a module global the rule reads included), the box and the options."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

from grundy.solvers.native import codegen
from grundy.solvers.native.build import available
from grundy.solvers.native.kernel import Box, c_source
from grundy.spec import HeapGame, move
from grundy.spec.games import get_game
from grundy.spec.structure import Structure


def _key(*args):
    """The kernel text's cache key, as text (comparable, hashable)."""
    return json.dumps(codegen._source_key(*args))


@pytest.fixture
def cache(tmp_path, monkeypatch):
    monkeypatch.setenv("GRUNDY_CACHE", str(tmp_path))
    return tmp_path / "sources"


def _edge_nim(names=(0, 1, 2)):
    g = Structure.graph(list(names), [(names[0], names[1]), (names[1], names[2])])
    rules = get_game("edge-nim").rules(g)
    return rules, Box.around(rules, [(2, 1, 0), (1, 2, 1)])


def test_a_stored_text_is_the_generated_one(cache):
    rules, box = _edge_nim()
    first = codegen.kernel_source(rules, box, True, True)
    assert len(list(cache.glob("*.c"))) == 1
    again = codegen.kernel_source(rules, box, True, True)          # from the disk
    assert first == again == c_source(rules, box, True, True)


def test_the_key_covers_structure_names_box_options_and_the_rules(cache, monkeypatch):
    rules, box = _edge_nim()
    keys = {_key(rules, box, True, True)}
    keys.add(_key(rules, box, False, True))
    keys.add(_key(rules, box, True, False))
    keys.add(_key(rules, Box(box.lo, tuple(r + 1 for r in box.radix)), True, True))
    renamed, _ = _edge_nim(("a", "b", "c"))                          # names: in the moves' labels
    keys.add(_key(renamed, box, True, True))
    assert len(keys) == 5
    game = get_game("edge-nim")
    monkeypatch.setattr(type(game), "summary", game.summary + " (changed)")
    assert _key(rules, box, True, True) in keys              # words, not rules: the same kernel


LIMIT = {"k": 2}


class _Capped(HeapGame):
    """Take 1..LIMIT["k"] tokens from one heap: the rule reads a module global."""

    name = "capped-demo"

    def moves(self, g, s):
        for i in g.elements:
            yield move(f"take {{k}} from heap {i + 1}", choose=[("k", 1, LIMIT["k"])],
                       guard=lambda k, i=i: k <= s.heap[i], update=lambda k, i=i: s.set(heap={i: s.heap[i] - k}))


def test_a_module_global_the_rule_reads_is_in_the_key(cache, monkeypatch):
    """The key is the rules' content: a global read by the rule changes it; the class does not."""
    game = _Capped()
    g = Structure.heaps(2)
    rules = game.rules(g)
    box = Box.around(rules, [(4, 4)])
    first = codegen.kernel_source(rules, box, True, False)
    monkeypatch.setitem(LIMIT, "k", 3)
    again = _Capped().rules(g)                                       # the same class, a new rule
    assert _key(again, box, True, False) != _key(rules, box, True, False)
    text = codegen.kernel_source(again, box, True, False)
    assert text != first and text == c_source(again, box, True, False)
    assert len(list(cache.glob("*.c"))) == 2


# ------------------------------------------------------------------ the kernel probe (issue 18, 4)
PROBE_GAME = textwrap.dedent('''
    import os
    from grundy.spec import HeapGame, move

    K = int(os.environ["PROBE_K"])          # a module global the rule reads

    class TakeUpToK(HeapGame):
        """Two heaps; take 1..K tokens from one of them. Not declared a sum: solved whole."""
        name = "probe-take-k"
        heap_count = 2

        def moves(self, g, s):
            for i in g.elements:
                yield move(f"take {{k}} from heap {i + 1}", choose=[("k", 1, K)],
                           guard=lambda k, i=i: k <= s.heap[i],
                           update=lambda k, i=i: s.set(heap={i: s.heap[i] - k}))

    GAME = TakeUpToK()
''')

# (210, 210) first: solving it stores 22,366 positions (up to order), past the kernel's take-over
# (settings.native_after), and every position asked after it comes from the kernel.
PROBE_CLAIMS = textwrap.dedent('''
    from grundy.spec import Structure
    from grundy.verify import Claim, positions

    B = 210

    def listed():
        g = Structure.heaps(2)
        yield g, (B, B)
        yield from ((g, (a, b)) for a in range(30) for b in range(a, 30))
        yield from ((g, (a, b)) for a in range(180, B + 1, 3) for b in range(a, B + 1, 5))

    def same_mod(m):
        return lambda g, s: s.heap[0] % m == s.heap[1] % m

    FAM = positions(listed, "(210, 210) first, then small and large pairs")
    CLAIMS = [Claim("probe/mod3", game="probe-take-k", kind="char", family=FAM, statement=same_mod(3)),
              Claim("probe/mod4", game="probe-take-k", kind="char", family=FAM, statement=same_mod(4))]
''')


def take_up_to_p(a: int, b: int, k: int) -> bool:
    """Brute force from the rules in words: two heaps, a move takes 1..k tokens from one of
    them; P iff every move leads to an N-position."""
    p = [[False] * (b + 1) for _ in range(a + 1)]
    for x in range(a + 1):
        for y in range(b + 1):
            opts = [(x - t, y) for t in range(1, min(x, k) + 1)] + [(x, y - t) for t in range(1, min(y, k) + 1)]
            p[x][y] = not any(p[u][v] for u, v in opts)
    return p[a][b]


def test_the_probe_claims_are_what_the_brute_force_says():
    for k, m in ((2, 3), (3, 4)):
        for a in range(13):
            for b in range(13):
                assert take_up_to_p(a, b, k) == (a % m == b % m)


def _probe(folder, cache, k: int, *extra: str) -> dict[str, str]:
    env = {**os.environ, "GRUNDY_CACHE": str(cache), "PROBE_K": str(k)}
    env.pop("GRUNDY_NATIVE", None)                                   # the kernel on
    p = subprocess.run([sys.executable, "-m", "grundy.cli", "verify", str(folder / "claims.py"),
                        "--games", str(folder / "game.py"), "--json", "--jobs", "1", *extra],
                       capture_output=True, text=True, env=env, timeout=600)
    rows = [json.loads(line) for line in p.stdout.splitlines() if line.startswith("{")]
    assert rows, p.stderr
    return {r["id"]: r["verdict"] for r in rows}


@pytest.mark.skipif(not available(), reason="no C compiler")
def test_a_changed_module_constant_changes_the_kernel(tmp_path):
    """Solved past the kernel's take-over with K = 2, then with K = 3 in fresh processes, the
    cache on: the kernel must play K = 3 (keyed by the game's definition, it played K = 2: the
    false claim mod3 verified, the true claim mod4 refuted), with --no-cache too."""
    (tmp_path / "game.py").write_text(PROBE_GAME)
    (tmp_path / "claims.py").write_text(PROBE_CLAIMS)
    cache = tmp_path / "cache"
    assert _probe(tmp_path, cache, 2) == {"probe/mod3": "verified", "probe/mod4": "refuted"}
    assert list((cache / "sources").glob("*.c"))                    # the kernel took over
    want = {"probe/mod3": "refuted", "probe/mod4": "verified"}
    assert _probe(tmp_path, cache, 3) == want
    assert _probe(tmp_path, cache, 3, "--no-cache") == want
