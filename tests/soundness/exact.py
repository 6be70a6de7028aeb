"""Exactness claims (issue 9, S5): ``exact=`` says the strategy's moves are *all* the winning
moves; it is checked (kind strategy) and refused at load on any other kind (see
tests/test_soundness.py). Every false claim here has a position with another winning move."""
import itertools

from _seed import nim_p
from erickson import all_positive, even_cycle_p, even_cycle_strategy, path_p, path_strategy

from grundy.spec import Play, all_of
from grundy.verify import Claim, Source, cycles, heaps, paths

SRC = Source("soundness", "exact= (S5)")


def nim3_strategy(hi: int):
    """One winning move (the first found) at every N-position of 3-heap nim up to ``hi``."""
    p = set(nim_p(3, hi))
    cases = []
    for t in itertools.product(range(hi + 1), repeat=3):
        if t in p:
            continue
        for i in range(3):
            k = next((k for k in range(1, t[i] + 1)
                      if tuple(t[j] - k * (j == i) for j in range(3)) in p), None)
            if k is not None:
                cases.append((t, i, k))
                break

    def strategy(g, s, rules):
        return [Play(all_of(s.heap[j] == t[j] for j in range(3)), i, {"k": k}) for t, i, k in cases]
    return strategy


def mirror(g, s, rules):
    """Two-heap nim: take from the larger heap down to the smaller."""
    return [Play(s.heap[0] > s.heap[1], 0, {"k": s.heap[0] - s.heap[1]}),
            Play(s.heap[1] > s.heap[0], 1, {"k": s.heap[1] - s.heap[0]})]


def nim3_p(g, s):
    from _seed import listed
    return listed(s, nim_p(3, 3))


CLAIMS = [
    Claim("exact/even-cycle-everywhere", source=SRC, game="edge-nim", kind="strategy", family=cycles(4),
          bounds={"weight": 2}, statement=even_cycle_p, strategy=even_cycle_strategy, exact=True,
          methods=["explicit", "smt"], expect="refuted"),
    Claim("exact/even-cycle-positive", source=SRC, game="edge-nim", kind="strategy", family=cycles(4),
          bounds={"weight": 2}, statement=even_cycle_p, strategy=even_cycle_strategy, exact=all_positive,
          methods=["explicit", "smt"], expect="refuted"),
    Claim("exact/paths-remove-all", source=SRC, game="edge-nim", kind="strategy", family=paths(3, 4),
          bounds={"weight": 2}, statement=path_p, strategy=path_strategy, exact=True,
          methods=["explicit", "smt"], expect="refuted"),
    Claim("exact/nim-three-heaps", source=SRC, game="nim", kind="strategy", family=heaps(3),
          bounds={"heap": 3}, statement=nim3_p, strategy=nim3_strategy(3), exact=True,
          expect="refuted"),           # [1, 1, 1]: each of the three moves wins
    # controls
    Claim("exact/control-mirror", source=SRC, game="nim", kind="strategy", family=heaps(2),
          bounds={"heap": 8}, statement=lambda g, s: s.heap[0] == s.heap[1], strategy=mirror, exact=True,
          methods=["explicit", "smt"], expect="proved"),
    Claim("exact/control-nim-three-heaps", source=SRC, game="nim", kind="strategy", family=heaps(3),
          bounds={"heap": 3}, statement=nim3_p, strategy=nim3_strategy(3), expect="verified"),
]
