"""Planted false claims: each is a proved claim of selfref.py or erickson.py with one
constant changed. They must stay ``refuted``, with the smallest counterexample: a check
that stops finding them is broken.
"""
from erickson import even_cycle_p, even_cycle_strategy, runs
from selfref import distinct_heaps, low_high, wynnie_strategy

from grundy.spec import all_of, any_of, count, ite, minimum, total
from grundy.verify import Claim, Finding, Source, bitvec, cycles, heaps


def minnie_p_3_4(g, s):
    # Theorem 5.2 with [3, 4i] for i >= 1 (the paper: i >= 2)
    a, b = low_high(s)
    return ((b == 0) | ((a == 1) & (b % 2 == 1)) | ((a == 2) & (b % 4 == 2))
            | ((a == 3) & (b % 4 == 0) & (b >= 4)) | ((a == 4) & (b == 4)))


def nimb_value_a1(g, s):
    # Theorem 3.1 with G = a1 (the paper: a1 - 1)
    h = [s.heap[i] for i in g.elements]
    size = total(h)
    a1 = minimum([ite(x > 0, x, size) for x in h])
    return ite(count(x > 0 for x in h) >= 2, a1, size)


def mine_p_2_4j3(g, s):
    # Theorem 5.8 with [2, 4j+3] (the paper: [2, 4j+1])
    a, b = low_high(s)
    return ((b == 0) | ((a == 1) & (b % 2 == 0)) | ((a == 2) & (b % 4 == 3))
            | ((a == 3) & (b % 4 == 3) & (b > 3)))


def wynnie_p_no_minus_one(g, s, bits=32):
    # Theorem 4.5 with c = 2^n a + 2^(n-1) (the paper: ... - 1)
    r, c = low_high(s)
    return (c == 0) | ((r < c) & any_of((r == 2**n - 1) & (c % 2**n == 2**(n - 1) % 2**n)
                                        for n in range(1, bits + 1)))


def odd_run_from_3(g, s, walk):
    m = minimum(s.weight[e] for e in range(len(g.edges)))
    up = [s.weight[e] > m for e, _ in walk]
    return any_of(all_of(up[:j]) & ~up[j] for j in range(3, len(walk), 2))   # the paper: from 1


def even_cycle_p_from_3(g, s):
    # Proposition 3.1 counting odd runs of length >= 3 only
    return ~any_of((s.token == t) & any_of(odd_run_from_3(g, s, w) for w in runs(g, t)) for t in g.vertices)


def even_cycle_strategy_m_plus_1(g, s, rules):
    # the strategy setting the edge to m + 1 (the paper: to m)
    from grundy.spec import Play
    return [Play(p.when, p.move, {"w": p.choice["w"] + 1}) for p in even_cycle_strategy(g, s, rules)]


CLAIMS = [
    Claim("planted/thm3.1-off-by-one",
          text=("Nimb with n >= 2 heaps whose smallest heap is a1 >= 1: the Grundy value is a1 (selfref "
                "Theorem 3.1 says a1 - 1)."),
          reading=("A false claim planted on purpose: one constant of a proved claim changed; the check must"
                   " keep finding it."),
          finding=Finding("planted"),
          source=Source("planted", "selfref Theorem 3.1, one constant changed"),
          game="nimb", kind="grundy", family=heaps(2, 3), statement=nimb_value_a1,
          bounds={"heap": 8}, methods=["explicit", "smt"], expect="refuted"),
    Claim("planted/thm4.5-off-by-one",
          text=("Wynnie on two heaps r < c: P iff r = 2^n - 1 and c = 2^n a + 2^(n-1) (selfref Theorem 4.5 "
                "has ... - 1)."),
          reading=("A false claim planted on purpose: one constant of a proved claim changed; the check must"
                   " keep finding it."),
          finding=Finding("planted"),
          source=Source("planted", "selfref Theorem 4.5, one constant changed"),
          game="wynnie", kind="char", family=heaps(2), statement=wynnie_p_no_minus_one,
          strategy=wynnie_strategy, bounds={"heap": 20}, methods=["explicit", bitvec(32)],
          expect="refuted"),
    Claim("planted/thm5.2-off-by-one",
          text=("Minnie on two positive heaps: P iff [1, 2i+1], [2, 4i+2], [3, 4i] with i >= 1, or [4, 4] "
                "(selfref Theorem 5.2 has i >= 2)."),
          reading=("A false claim planted on purpose: one constant of a proved claim changed; the check must"
                   " keep finding it."),
          finding=Finding("planted"),
          source=Source("planted", "selfref Theorem 5.2, one constant changed"),
          game="minnie", kind="char", family=heaps(2), statement=minnie_p_3_4,
          bounds={"heap": 20}, methods=["explicit", "smt"], expect="refuted"),
    Claim("planted/thm5.8-off-by-one",
          text=("Mine on two heaps a < b: P iff [1, 2k], [2, 4j+3] or [3, 4i+3] (selfref Theorem 5.8 has [2,"
                " 4j+1])."),
          reading=("A false claim planted on purpose: one constant of a proved claim changed; the check must"
                   " keep finding it."),
          finding=Finding("planted"),
          source=Source("planted", "selfref Theorem 5.8, one constant changed"),
          game="mine", kind="char", family=heaps(2), assume=distinct_heaps, statement=mine_p_2_4j3,
          bounds={"heap": 20}, methods=["explicit", "smt"], expect="refuted"),
    Claim("planted/prop3.1-off-by-one",
          text=("Edge-nim on an even cycle: the first player wins iff a run of positive G'-edges leaving the"
                " token has odd length >= 3 (erickson Proposition 3.1 counts every odd run)."),
          reading=("A false claim planted on purpose: one constant of a proved claim changed; the check must"
                   " keep finding it."),
          finding=Finding("planted"),
          source=Source("planted", "erickson Proposition 3.1, one constant changed"),
          game="edge-nim", kind="char", family=cycles(4, 6, 8), statement=even_cycle_p_from_3,
          bounds={"weight": 2}, methods=["explicit", "smt"], expect="refuted"),
    Claim("planted/prop3.1-strategy-off-by-one",
          text=("On an even cycle the first player wins by moving along an odd run of G' and setting the "
                "edge crossed to m + 1 (erickson Proposition 3.1 says m)."),
          reading=("A false claim planted on purpose: one constant of a proved claim changed; the check must"
                   " keep finding it."),
          finding=Finding("planted"),
          source=Source("planted", "erickson Proposition 3.1, one constant changed"),
          game="edge-nim", kind="strategy", family=cycles(4, 6, 8), statement=even_cycle_p,
          strategy=even_cycle_strategy_m_plus_1, bounds={"weight": 2}, methods=["explicit", "smt"],
          expect="refuted"),
]
