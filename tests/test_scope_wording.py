"""Honest summaries and readable scopes (issue 20, item 4): "for all sizes" only where the family
covers every size; no stray separators; long families elided; no "assuming assume"."""
import re

from grundy.tools.report.text import summary
from grundy.verify import Claim, complete, cycles, heaps
from grundy.verify.check import check_claim
from grundy.verify.check.scope import _fn_text, where


def weighted_k2_p(g, s):
    a, b = s.weight[0], s.weight[1]
    return (a == 0) | (b == 0) | ((a >= 2) & (b >= 2) & ((a + b) % 2 == 0))


def test_a_finite_family_of_graphs_is_never_for_all_sizes():
    c = Claim("demo/weighted-k2", game="weighted-grim", kind="char", family=complete(2), statement=weighted_k2_p,
              bounds={"weight": 6}, methods=["explicit", "smt"], expect="proved")
    v = check_claim(c)
    assert v.verdict == "proved", (v.scope, v.detail)
    line = summary([v])
    assert "all sizes" not in line and "all sizes" not in v.scope, (line, v.scope)
    assert "1 proved (1 for all weights on 1 structure)" in line, line
    assert v.coverage["smt"] == "all weights on 1 structure"


def test_rows_of_heaps_on_unbounded_integers_are_for_all_sizes():
    c = Claim("demo/nim-2", game="nim", kind="char", family=heaps(2), bounds={"heap": 5},
              statement=lambda g, s: s.heap[0] == s.heap[1], methods=["explicit", "smt"], expect="proved")
    v = check_claim(c)
    assert v.verdict == "proved" and "1 proved (1 for all sizes)" in summary([v])


def test_no_stray_separator_when_there_are_no_bounds():
    assert where("K_{4,5}") == "K_{4,5}" and where("C_4", "", ", misère play") == "C_4, misère play"
    import grundy
    from grundy.spec import all_of, any_of
    edges = [[i, (i + 1) % 4] for i in range(4)]
    p_sets = [alive for alive in range(16)
              if grundy.solve({"game": "grim", "nodes": [v for v in range(4) if alive >> v & 1],
                               "edges": [e for e in edges if all(alive >> v & 1 for v in e)]})["outcome"] == "P"]

    def grim_c4_p(g, s):
        return any_of(all_of(s.alive[v] if a >> v & 1 else ~s.alive[v] for v in range(4)) for a in p_sets)
    c = Claim("demo/c4", game="grim", kind="char", family=cycles(4), statement=grim_c4_p, expect="verified")
    v = check_claim(c)
    assert v.verdict == "verified", (v.scope, v.detail)
    assert not re.search(r",\s*:", v.scope), v.scope
    assert v.scope.startswith("C_4: "), v.scope


def test_long_families_are_elided():
    assert cycles(range(3, 41)).scope == "C_3 … C_40 (38 cycles)"
    assert heaps(range(1, 15)).scope == "1 … 14 heaps (14 rows)"
    assert heaps(1, 2).scope == "1 and 2 heaps"


def test_a_function_named_for_its_role_is_described_by_what_it_returns():
    def assume(g, s):
        return s.heap[0] > 2
    assert _fn_text(assume) == "s.heap[0] > 2"

    def big_heaps(g, s):
        return s.heap[0] > 2
    assert _fn_text(big_heaps) == "big_heaps"

    def wrapped(g, s):
        """the positions where the
        first heap is large. Then more."""
        return s.heap[0] > 2
    assert _fn_text(wrapped) == "the positions where the first heap is large"
