"""Misère quotients: misère Nim (tame), 0.75 (wild, proved periodic), Kayles (wild, classes split).

    python examples/misere/quotients.py
"""
from grundy.solvers.misere import Quotient, from_presentation, isomorphic, mismatches, search_outcomes

# misère Nim with heaps of at most 3 tokens: the tame quotient T2 (the subtraction game {1, 2}
# has the same quotient)
t2 = from_presentation("ab", ["a^2 = 1", "b^3 = b"], ["a", "b^2"])
sub = Quotient("subtraction", set=[1, 2])
print("subtraction {1,2}: order", sub.size, "tame:", sub.tame(), "isomorphic to T2:", isomorphic(sub.q.q, t2))

# 0.75: Plambeck's quotient of order 8, proved periodic: sums of huge heaps at once
q = Quotient("octal", code="0.75")
print("0.75:", q.to_json()["presentation"], "P =", q.to_json()["P"], "period", q.q.period, "proved", q.proved)
heaps = [10_000 - 7 * i for i in range(10)]
print("ten heaps near 10^4:", q.outcome(heaps), "winning move:", q.winning_move(heaps)[:2] if q.winning_move(heaps) else None)

# Kayles: heap 9 splits classes of the quotient of heaps <= 8; the quotient of heaps <= 16,
# checked against misère search on every sum of total size <= 20
k = Quotient("octal", code="0.77", max_heap=16)
print("Kayles, heaps <= 16: order", k.size, "|P|", len(k.p_portion), "splits", k.q.splits,
      "mismatches vs search (total <= 20):",
      len(mismatches(k.q, k.options, 20, search_outcomes(k.options, 20, max_heap=16))))
