"""The kernels' C text kept on disk (grundy.solvers.native.sources): a hit is the text
c_source writes, and anything the text is made from changes the key."""
from __future__ import annotations

import pytest

from grundy.solvers.native import sources
from grundy.solvers.native.kernel import Box, c_source
from grundy.spec.games import get_game
from grundy.spec.structure import Structure


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
    first = sources.kernel_source(rules, box, True, True)
    assert len(list(cache.glob("*.c"))) == 1
    again = sources.kernel_source(rules, box, True, True)          # from the disk
    assert first == again == c_source(rules, box, True, True)


def test_the_key_covers_structure_names_box_options_and_the_game(cache, monkeypatch):
    rules, box = _edge_nim()
    keys = {sources._key(rules, box, True, True)}
    keys.add(sources._key(rules, box, False, True))
    keys.add(sources._key(rules, box, True, False))
    keys.add(sources._key(rules, Box(box.lo, tuple(r + 1 for r in box.radix)), True, True))
    renamed, _ = _edge_nim(("a", "b", "c"))                          # names: in the moves' labels
    keys.add(sources._key(renamed, box, True, True))
    assert len(keys) == 5
    game = get_game("edge-nim")
    monkeypatch.setattr(type(game), "summary", game.summary + " (changed)")
    assert sources._key(rules, box, True, True) not in keys


def test_a_damaged_file_is_written_again(cache):
    rules, box = _edge_nim()
    text = sources.kernel_source(rules, box, True, True)
    (path,) = cache.glob("*.c")
    path.write_text(path.read_text()[:-40])                          # cut short
    assert sources.kernel_source(rules, box, True, True) == text
    assert path.read_text().endswith(sources._END)
