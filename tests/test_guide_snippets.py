"""The guide's heap game with several fields (docs/writing-games.md) runs as written."""
import re
from pathlib import Path

import grundy
from grundy.errors import InputError
from grundy.spec import GAMES

GUIDE = Path(__file__).resolve().parent.parent / "docs" / "writing-games.md"


def test_the_coloured_nim_of_the_guide():
    block = next(b for b in re.findall(r"```python\n(.*?)```", GUIDE.read_text(encoding="utf-8"), re.S)
                 if "class ColouredNim" in b)
    ns: dict = {}
    exec("from grundy.spec import HeapGame, Field, move, InputError\n" + block, ns)
    with GAMES.scoped():                     # the game is registered for this test only
        _check(ns["ColouredNim"]())


def _check(game):
    grundy.register(game)
    # a red heap is only halved: G(red 3) = mex{G(red 1)} = mex{mex{0}} = 0; a plain heap of 4 is 4
    assert grundy.solve({"game": "coloured-nim", "heaps": [3, 4], "red": [0]})["grundy"] == 0 ^ 4
    assert grundy.solve({"game": "coloured-nim", "heaps": [3, 4], "red": []})["grundy"] == 3 ^ 4
    from grundy.spec import read_position
    assert read_position({"game": "coloured-nim", "heaps": [3, 4], "red": [1]}).to_json()["red"] == [1]
    try:
        read_position({"game": "coloured-nim", "heaps": [3, 4], "red": [5]})
    except InputError as e:
        assert "red" in str(e)
    else:
        raise AssertionError("a bad heap index was read")
