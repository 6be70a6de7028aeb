"""Planted: a take-and-break game whose options are not its code (issue 18, found 5). Values and
``--period`` come from the code (the sparse-space tables), moves and Z3 from ``options()``; a
game whose two texts differed was two games. Now the options, the moves and the one-heap forms
are derived from the code by construction: a subclass that defines one of them is refused when
the class is created (tests/test_heap_rules.py), and one replaced afterwards, on the class or on
the object, is refused wherever it is used, so each claim below on such a game is ``error``.

Each game here is Dawson's Kayles (the code 0.07: remove exactly two tokens, leaving no heap,
one heap or two) with Nim's options put beside it; each planted statement is true of one of the
two games and false of the code's (brute force: _words.py, tests/test_soundness_words.py).
Controls: the same code without a replacement."""
from grundy.spec import TakeAndBreak, TakeBreak, ite, option
from grundy.spec.games import register
from grundy.verify import Claim, Source, bitvec, heaps

SRC = Source("soundness", "code and options")
DAWSON = [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3, 3]    # 0.07, G(0..20)
DAWSON_MISERE = [1, 1, 0, 0, 2, 1, 3, 0, 0, 1, 1, 3, 0]                     # its misère values, 0..12


class Dawson(TakeAndBreak):
    """Dawson's Kayles as the octal code 0.07."""

    name = "test-dawson-0.07"
    summary = "Dawson's Kayles, code 0.07 (a test game)"

    def code(self, g):
        return TakeBreak((0, 0, 7))


class DawsonNimOptions(Dawson):
    name = "test-dawson-nim-options"
    summary = "code 0.07 with Nim's options put on the class after it was made (a test game)"


class DawsonNimMoves(Dawson):
    name = "test-dawson-nim-moves"
    summary = "code 0.07 with the moves replaced on the class after it was made (a test game)"


def nim_options(self, g, n):
    """Nim's options: remove any number k >= 1 (not the code 0.07)."""
    yield option("take {k} from heap {heap}", choose=[("k", 1, n)], parts=lambda k: [n - k])


DawsonNimOptions.options = nim_options            # after the class was created
DawsonNimMoves.moves = lambda self, g, s: iter(())
ON_THE_OBJECT = Dawson()
ON_THE_OBJECT.name = "test-dawson-object-options"
ON_THE_OBJECT.options = nim_options.__get__(ON_THE_OBJECT)     # on one object only


for _game in (Dawson(), DawsonNimOptions(), DawsonNimMoves(), ON_THE_OBJECT):
    register(_game, listed=False)         # test games: found by name, left out of listings


def at(n, values):
    """values[n] (-1 beyond the list)."""
    return sum((ite(n == k, v, 0) for k, v in enumerate(values)), ite(n >= len(values), -1, 0))


def dawson(n):
    return at(n, DAWSON)


CLAIMS = [
    Claim("codeoptions/nim-values-z3", source=SRC, game="test-dawson-nim-options", kind="grundy", family=heaps(1),
          statement=lambda g, s: s.heap[0], methods=[bitvec(8)], expect="error",
          note="Z3 read the one-heap rule from options(): Nim's G(n) = n would be proved"),
    Claim("codeoptions/dawson-values-table", source=SRC, game="test-dawson-nim-options", kind="grundy",
          family=heaps(1), statement=lambda g, s: dawson(s.heap[0]), bounds={"heap": 20}, methods=["explicit"],
          expect="error", note="true of the code; the moves (Nim's) say otherwise: not one game"),
    Claim("codeoptions/nim-misere-object", source=SRC, game="test-dawson-object-options", kind="char", convention="misere",
          family=heaps(1), statement=lambda g, s: s.heap[0] == 1, bounds={"heap": 8}, expect="error",
          note="misère play searches the moves: Nim's options on the object"),
    Claim("codeoptions/no-moves", source=SRC, game="test-dawson-nim-moves", kind="char", family=heaps(2),
          statement=lambda g, s: True, bounds={"heap": 4}, methods=["explicit", "smt"], expect="error",
          note="moves replaced by none: every position would look terminal to Z3"),
    # controls: the code alone
    Claim("codeoptions/control-values", source=SRC, game="test-dawson-0.07", kind="grundy", family=heaps(1),
          statement=lambda g, s: dawson(s.heap[0]), bounds={"heap": 20}, expect="verified"),
    Claim("codeoptions/control-misere-values", source=SRC, game="test-dawson-0.07", kind="grundy", convention="misere",
          family=heaps(1), bounds={"heap": 12}, statement=lambda g, s: at(s.heap[0], DAWSON_MISERE),
          methods=["explicit"], expect="verified"),
]

WRONG_AT = {"codeoptions/nim-values-z3": (2,), "codeoptions/dawson-values-table": None,   # true, not one game
            "codeoptions/nim-misere-object": (1,), "codeoptions/no-moves": (2, 0)}
RULE = {"test-dawson-0.07": "dawson", "test-dawson-nim-options": "dawson", "test-dawson-nim-moves": "dawson",
        "test-dawson-object-options": "dawson"}
