"""Lemmas read only where their check covered (issue 37, item 1).

A claim's statement may read another position's value through a lemma (``uses=``,
``value_of``). A lemma covers the positions its verdict covered: its ``assume`` true there,
inside its sweep's box or its proof's bit width, on one of its structures, the same game and
convention. The planted claims below are false and read covered values (refuted), or are
false lemmas themselves (refuted); a claim that reads a value its lemma does not cover is
``unknown``, never a pass, whether it is true or false; the controls read covered values."""
from _seed import xor  # noqa: F401  (also puts theorems/ on the path)

from grundy.spec.expr import ite
from grundy.verify import Claim, Source, bitvec, heaps, value_of

SRC = Source("soundness", "lemmas read outside what they covered (S9)")


def G(n):
    return value_of({"game": "nim", "heaps": [n]})


def lemma(id, bounds, assume=None, methods=("explicit",), statement=None, expect="verified"):
    return Claim(id, source=SRC, game="nim", kind="grundy", family=heaps(1), bounds={"heap": bounds},
                 assume=assume, statement=statement or (lambda g, s: s.heap[0]), methods=list(methods),
                 expect=expect)


def pairs(id, lem, statement, expect):
    return Claim(id, source=SRC, game="nim", kind="char", family=heaps(2), bounds={"heap": 6}, uses=[lem],
                 statement=statement, expect=expect)


# true as stated: the value beyond 10 is 0 only where the assume excludes it
SMALL_ASSUMED = lemma("lemmas/small-assumed", 10, assume=lambda g, s: s.heap[0] <= 10, methods=["explicit", "smt"],
                      statement=lambda g, s: ite(s.heap[0] <= 10, s.heap[0], 0), expect="proved")
SMALL_BOX = lemma("lemmas/small-box", 10)
WIDE = lemma("lemmas/wide", 30)
BITS = lemma("lemmas/bits-6", 3, methods=[bitvec(6)], expect="proved")
PLANTED = lemma("lemmas/mod-7-planted", 9, statement=lambda g, s: s.heap[0] % 7, expect="refuted")

FALSE_20 = lambda g, s: s.heap[0] == s.heap[1] ^ G(20)            # noqa: E731  false: G(20) = 20
BOUTON_20 = lambda g, s: s.heap[0] == s.heap[1] ^ G(20) ^ 20      # noqa: E731  true
BOUTON_AT = lambda n: lambda g, s: (G(n) ^ s.heap[0]) == (G(n) ^ s.heap[1])   # noqa: E731  true

CLAIMS = [
    SMALL_ASSUMED, SMALL_BOX, WIDE, BITS, PLANTED,
    # planted: false, reading values their lemmas cover
    pairs("lemmas/false-through-box", WIDE, FALSE_20, "refuted"),
    pairs("lemmas/false-through-width", BITS, lambda g, s: s.heap[0] == s.heap[1] ^ G(40), "refuted"),
    pairs("lemmas/false-at-63", BITS, lambda g, s: (G(63) ^ s.heap[0]) == (G(62) ^ s.heap[1]), "refuted"),
    # reading outside the assume, the box, the width, the structure: never a pass, true or false
    pairs("lemmas/false-outside-assume", SMALL_ASSUMED, FALSE_20, "unknown"),
    pairs("lemmas/true-outside-assume", SMALL_ASSUMED, BOUTON_20, "unknown"),
    pairs("lemmas/false-outside-box", SMALL_BOX, FALSE_20, "unknown"),
    pairs("lemmas/true-outside-width", BITS, BOUTON_AT(64), "unknown"),
    pairs("lemmas/other-structure", WIDE, lambda g, s: value_of({"game": "nim", "heaps": [1, 1]}) + s.heap[0]
          == s.heap[1], "unknown"),
    # a chain: a claim on a refuted lemma is not checked; one on a lemma that read outside is unknown
    pairs("lemmas/on-a-planted-lemma", PLANTED, BOUTON_AT(3), "unknown"),
    pairs("lemmas/chain-gap", Claim("lemmas/middle-gap", source=SRC, game="nim", kind="grundy", family=heaps(1),
                                    bounds={"heap": 4}, uses=[SMALL_BOX], statement=lambda g, s: s.heap[0] + G(12) - 12,
                                    expect="unknown"),
          BOUTON_AT(3), "unknown"),
    # controls: the same readings where the lemmas cover them
    pairs("lemmas/bouton-through-box", WIDE, BOUTON_20, "verified"),
    pairs("lemmas/bouton-through-width", BITS, BOUTON_AT(63), "verified"),
    pairs("lemmas/bouton-inside-assume", SMALL_ASSUMED, BOUTON_AT(10), "verified"),
]
