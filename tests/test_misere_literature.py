"""Published misère figures, reproduced: each expected value below is read from the source cited
beside it (the figures of docs/misere.md, "Published quotients, side by side"); what is compared
is computed here by ``Quotient`` from the game's rules."""
from __future__ import annotations

import pytest

from grundy.solvers.misere import Quotient
from grundy.solvers.misere.monoid import Bipartite, Monoid, isomorphic

# Plambeck, web page "0.312" (plambeck.org, misère octal games, quaternary games, "Status: SOLVED
# [4 February 2003]"): "Except for the heap of size 4, we can pretend that individual games are
# adders" -- heaps 1..10 are :1 :2 :4 A :4 :5 :4 :5 :4 :5 "etc (period 2)", and "A + A = :0".
PLAMBECK_0312 = [":1", ":2", ":4", "A", ":4", ":5", ":4", ":5", ":4", ":5"]

# Plambeck, web page "quaternary games" (plambeck.org, misère octal games): "We've extended this
# analysis to three-digit quaternaries, finding that all these games have only misère nim-heaps
# as values, except for the seven Woolly Mammoths .121, .123, .131, .201, .211, .312. and .331";
# and, from Winning Ways' table, "the only two-digit quaternary that does not contain only
# nim-positions is the game .31, called Stalking".
MAMMOTHS = {"0.121", "0.123", "0.131", "0.201", "0.211", "0.312", "0.331"}
QUATERNARY_3 = [f"0.{a}{b}{c}" for a in range(4) for b in range(4) for c in range(1, 4)]
QUATERNARY_2 = [f"0.{a}{b}" for a in range(4) for b in range(1, 4)]


def mathoverflow_nim_quotient(k: int) -> Bipartite:
    """Misère Nim's quotient as an answer to the MathOverflow question "Analysis of Misere Nim?"
    builds it (read in a copy of the page): with A = (omega, xor, 0), A_0 = {0, 1} and B = ({0, 1},
    or, 0), "the underlying monoid of the misère quotient of Nim is the submonoid
    Q = (A x {1}) u (A_0 x {0}) of the product monoid A x B", and the quotient is
    (Q, {(0, 1), (1, 0)}); a position maps to (the xor of its heaps, whether some heap is > 1).
    Here A is cut to the heaps below 2^k (xor stays below 2^k): the pair (x, s) is x + 2^k s."""
    elements = [x for x in (0, 1)] + [x + (1 << k) for x in range(1 << k)]
    index = {e: i for i, e in enumerate(elements)}

    def times(e: int, f: int) -> int:
        top = 1 << k
        return ((e % top) ^ (f % top)) + (top if e >= top or f >= top else 0)
    heaps = [h + ((1 << k) if h > 1 else 0) for h in range(1, 1 << k)]   # heap h as (h, h > 1)
    act = [[index[times(e, g)] for e in elements] for g in heaps]
    return Bipartite(Monoid(act, len(elements)), frozenset({index[1 << k], index[1]}))


def test_0312_as_plambeck_plays_it() -> None:
    q = Quotient("octal", code="0.312")
    assert q.proved and not q.tame()
    phi = q.q.element
    heaps = range(1, len(PLAMBECK_0312) + 1)
    # the heaps that pretend alike are the heaps that share a label on the page, and no others
    for h in heaps:
        for k in heaps:
            assert (phi(h) == phi(k)) == (PLAMBECK_0312[h - 1] == PLAMBECK_0312[k - 1]), (h, k)
    # "etc (period 2)": the labels repeat with period 2 from the heap after the last that breaks
    # it (heap 4, A); ours from the same heap, for every heap (the period is proved)
    published_n0 = 1 + max(h for h in range(1, len(PLAMBECK_0312) - 1)
                           if PLAMBECK_0312[h - 1] != PLAMBECK_0312[h + 1])
    assert q.q.period == (published_n0, 2)
    # "A + A = :0"
    m = q.q.q.monoid
    assert m.times(phi(4), phi(4)) == 0 and phi(4) != 0


@pytest.mark.parametrize("code", QUATERNARY_3 + QUATERNARY_2)
def test_quaternary_nim_heap_games_are_tame(code: str) -> None:
    """A game whose heaps are all misère nim heaps has misère Nim's outcomes on every sum: its
    quotient is a tame one. The page names the games whose heaps are not all nim heaps."""
    q = Quotient("octal", code=code, max_heap=100, time_limit=20)
    assert q.proved
    if code not in MAMMOTHS and code != "0.31":
        assert q.tame(), (code, q.size)


@pytest.mark.parametrize("code", sorted(MAMMOTHS))
def test_mammoths_computed(code: str) -> None:
    """The seven games the page sets apart (no quotient published there): proved for every heap
    here, of even order (docs/misere.md lists the figures)."""
    q = Quotient("octal", code=code, max_heap=100, time_limit=20)
    assert q.proved and q.size % 2 == 0


@pytest.mark.parametrize("k", [2, 3, 4])
def test_misere_nim_as_mathoverflow_builds_it(k: int) -> None:
    """The quotient computed from Nim's rules on heaps below 2^k is the answer's monoid, cut to
    those heaps: order 2^k + 2, P-portion {(0, 1), (1, 0)}."""
    published = mathoverflow_nim_quotient(k)
    ours = Quotient.of_options(lambda n: [(m,) if m else () for m in range(n)], max_heap=(1 << k) - 1)
    assert published.size == (1 << k) + 2 == ours.size
    assert isomorphic(ours.q.q, published)
    assert not isomorphic(mathoverflow_nim_quotient(k - 1), ours.q.q)
