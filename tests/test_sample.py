"""The cross-check's sample (grundy.verify.sample): whatever the batches a sweep offers, the
smallest part is exactly the k smallest positions in size order (then sweep order), none
skipped, and the draw is the same seeded draw however the sizes are told (a key only, a cheap
total, or the totals at once)."""
from __future__ import annotations

import random

import pytest

from grundy.verify.sample import Sample


def _key(st: tuple) -> tuple:
    """A size key as the sweep's: (vertices, edges, total, largest, state); the structure is
    the first field of the state here."""
    g, *nums = st
    return (g, 2 * g, sum(nums), max(nums, default=0), st)


def _batches(rng: random.Random) -> list[list[tuple]]:
    """Batches of one structure each (structures growing, several batches per structure, some
    large, some tiny), positions in no size order."""
    out = []
    for g in range(1, rng.randint(2, 5)):
        for _ in range(rng.randint(1, 4)):
            n = rng.choice([1, 3, 50, 400, 1500])
            out.append([(g, *(rng.randint(0, 9) for _ in range(3))) for _ in range(n)])
    return out


def _take(batches: list[list[tuple]], how: str, k: int, drawn: int) -> list[tuple]:
    s = Sample(seed=7, smallest=k, drawn=drawn)
    for b in batches:
        if how == "key":
            s.add("o", b, key=_key)
        elif how == "total":
            s.add("o", b, key=_key, total=lambda st: sum(st[1:]))
        else:
            s.add("o", b, key=_key, totals=[sum(st[1:]) for st in b])
    return [(e[1], e[3]) for e in s.entries()]


@pytest.mark.parametrize("seed", range(6))
def test_the_smallest_are_exactly_the_k_least_in_size_order(seed):
    rng = random.Random(seed)
    batches = _batches(rng)
    offered = [st for b in batches for st in b]
    k = rng.choice([1, 5, 200])
    want = sorted(range(len(offered)), key=lambda i: (_key(offered[i]), i))[:k]
    for how in ("key", "total", "totals"):
        got = _take(batches, how, k, 20)
        assert [i for i, _ in got[:len(want)]] == want, how           # none skipped, none extra
        assert [st for _, st in got[:len(want)]] == [offered[i] for i in want]


@pytest.mark.parametrize("seed", range(3))
def test_the_sample_is_the_same_however_sizes_are_told(seed):
    batches = _batches(random.Random(100 + seed))
    a, b, c = (_take(batches, how, 30, 40) for how in ("key", "total", "totals"))
    assert a == b == c
    assert len({i for i, _ in a}) == len(a)                          # no position twice


def test_every_sampled_position_is_re_solved_or_counted_beyond(monkeypatch):
    """The cross-check of a pass asks the reference engine at each position of the sample, in
    order, until its budget is spent (the rest counted beyond it): none is skipped."""
    from grundy.solvers.solver import Solver
    from grundy.verify import Claim, heaps, recheck
    from grundy.verify.check import claim as check_run
    from grundy.verify.check import deadline as check_deadline
    from grundy.verify.verdict import Verdict

    asked = []
    truth = recheck.CrossCheck.truth

    def counted(ref, pos, claimed):
        asked.append(tuple(pos.state))
        return truth(ref, pos, claimed)

    monkeypatch.setattr(recheck.CrossCheck, "truth", staticmethod(counted))
    claim = Claim("x/sampled", game="nim", kind="char", family=heaps(3), bounds={"heap": 12},
                  statement=lambda g, s: (s.heap[0] ^ s.heap[1] ^ s.heap[2]) == 0)
    for budget in (None, 3_000):                                     # the default budget, a small one
        asked.clear()
        cross = recheck.CrossCheck(claim, budget=budget)
        check_run._run(claim, "quick", Solver(), check_deadline.Deadline(None), lambda _: None,
                       Verdict(claim.id, claim.kind, "unknown"), False, cross)
        entries = [tuple(e[3]) for e in cross.sample.entries()]
        assert len(entries) == recheck.SMALLEST + recheck.DRAWN
        assert cross.checked + cross.beyond == len(entries)
        assert asked == entries[:len(asked)]                          # each in the sample's order, then
        assert len(asked) >= cross.checked                            # none once the budget is spent
    assert 0 < cross.checked < len(entries)                          # the small budget: some beyond
