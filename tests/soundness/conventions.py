"""Planted: play conventions replaced in silence (issue 18, found 7). A game declared
``convention = "misere"`` was checked in normal play by a claim that did not repeat it (while
``grundy solve`` plays it misère), and misère ``Position``/``SumPosition`` objects listed in a
family were switched to the claim's convention. Now a claim on a game declared misère is misère
unless it says otherwise (its scope says which play), and a listed position in another
convention than the claim's is an error, never switched. Each planted claim is ``refuted`` or
``error``; the brute force of _words.py confirms each (tests/test_soundness_words.py).
Controls: the same statements in the convention they are true in."""
from grundy.spec import SumPosition, ite, read_position
from grundy.spec.games import get_game, register
from grundy.verify import Claim, Source, heaps, positions

SRC = Source("soundness", "conventions")


class MisereNim(type(get_game("nim"))):
    """Nim, declared misère: the last player to move loses."""

    name = "test-misere-nim"
    summary = "Nim in misère play (declared by the game; a test game)"
    convention = "misere"


class MisereLasker(type(get_game("lasker-nim"))):
    """Lasker's Nim, declared misère."""

    name = "test-misere-lasker"
    summary = "Lasker's Nim in misère play (declared by the game; a test game)"
    convention = "misere"


register(MisereNim(), listed=False)      # test games: found by name, left out of listings
register(MisereLasker(), listed=False)


def equal(g, s):                        # normal-play Nim on two heaps: P iff equal
    return s.heap[0] == s.heap[1]


def misere_two(g, s):                   # misère Nim on two heaps: equal and >= 2, or {0, 1}
    return ((s.heap[0] == s.heap[1]) & (s.heap[0] >= 2)) | (s.heap[0] + s.heap[1] == 1)


def nim(h: int, convention: str = "normal") -> dict:
    return {"game": "nim", "heaps": [h], **({"convention": convention} if convention != "normal" else {})}


MISERE_ONES = [read_position(nim(h, "misere")) for h in range(4)]
MISERE_SUMS = [SumPosition.of(read_position(nim(a, "misere")), read_position(nim(b, "misere")))
               for a in range(3) for b in range(3)]

CLAIMS = [
    # a game declared misère: the claim that does not say so is misère play
    Claim("conventions/declared-misere-normal-answer", source=SRC, game="test-misere-nim", kind="char", family=heaps(2),
          statement=equal, bounds={"heap": 5}, methods=["explicit"], expect="refuted"),
    Claim("conventions/declared-misere-normal-answer-smt", source=SRC, game="test-misere-nim", kind="char",
          family=heaps(2), statement=equal, methods=["smt"], expect="refuted"),
    Claim("conventions/declared-misere-lasker-values", source=SRC, game="test-misere-lasker", kind="grundy",
          family=heaps(1), bounds={"heap": 6}, statement=lambda g, s: ite(s.heap[0] % 4 == 3, s.heap[0] + 1,
                                                                          ite((s.heap[0] % 4 == 0) & (s.heap[0] > 0),
                                                                              s.heap[0] - 1, s.heap[0])),
          expect="refuted", note="Lasker's normal-play formula; G(0) is 1 in misère play"),
    # misère positions listed for a normal-play claim: an error, never switched
    Claim("conventions/misere-positions-normal-claim", source=SRC, game="nim", kind="char",
          family=positions(MISERE_ONES, "misère heaps 0..3"), statement=lambda g, s: s.heap[0] == 0,
          expect="error", note="true of the positions switched to normal play"),
    Claim("conventions/misere-sums-normal-claim", source=SRC, game="sum", kind="char",
          family=positions(MISERE_SUMS, "misère sums of two heaps"), statement=lambda g, s: s[0].heap[0] == s[1].heap[0],
          expect="error", note="true of the sums switched to normal play"),
    Claim("conventions/normal-json-misere-claim", source=SRC, game="nim", kind="char", convention="misere",
          family=positions([nim(h) for h in range(4)], "heaps 0..3 (normal play)"),
          statement=lambda g, s: s.heap[0] == 1, expect="error", note="true of the positions switched to misère"),
    # controls
    Claim("conventions/control-declared-misere", source=SRC, game="test-misere-nim", kind="char", family=heaps(2),
          statement=misere_two, bounds={"heap": 6}, methods=["explicit", "smt"], expect="proved"),
    Claim("conventions/control-declared-misere-said-normal", source=SRC, game="test-misere-nim", kind="char",
          family=heaps(2), statement=equal, bounds={"heap": 6}, convention="normal", expect="verified"),
    Claim("conventions/control-misere-positions", source=SRC, game="nim", kind="char", convention="misere",
          family=positions(MISERE_ONES, "misère heaps 0..3"), statement=lambda g, s: s.heap[0] == 1,
          expect="verified"),
    Claim("conventions/control-misere-sums", source=SRC, game="sum", kind="char", convention="misere",
          family=positions(MISERE_SUMS, "misère sums of two heaps"),
          statement=lambda g, s: ((s[0].heap[0] == s[1].heap[0]) & (s[0].heap[0] >= 2))
          | (s[0].heap[0] + s[1].heap[0] == 1), expect="verified"),
]

# where each planted claim is false in the convention its positions or game carry
WRONG_AT = {"conventions/declared-misere-normal-answer": ((0, 0), "misere"),
            "conventions/declared-misere-normal-answer-smt": ((0, 0), "misere"),
            "conventions/declared-misere-lasker-values": ((0,), "misere"),
            "conventions/misere-positions-normal-claim": ((0,), "misere"),
            "conventions/misere-sums-normal-claim": ((0, 0), "misere"),
            "conventions/normal-json-misere-claim": ((0,), "normal")}
RULE = {"test-misere-nim": "nim", "test-misere-lasker": "lasker", "nim": "nim", "sum": "nim"}
