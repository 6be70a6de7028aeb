"""Sums of positions of different games, against a brute force over the combined game."""
import json
import subprocess
import sys
from functools import lru_cache

import networkx as nx
import pytest
from networkx.generators.atlas import graph_atlas_g

import grundy
from grundy.solvers.solver import Solver
from grundy.spec import InputError, SumPosition, read_position
from grundy.verify import Claim, positions, sums
from grundy.verify.check import check_claim


# ---------------------------------------------------------------- the combined game, by hand
def grim_moves(edges: frozenset) -> list[frozenset]:
    """Grim: delete a vertex and its edges; vertices left without an edge vanish (a position is
    its edge set)."""
    vertices = {v for e in edges for v in e}
    return [frozenset(e for e in edges if v not in e) for v in vertices]


@lru_cache(maxsize=None)
def combined_moves(edges: frozenset, heap: int) -> tuple:
    return tuple([(g, heap) for g in grim_moves(edges)] + [(edges, h) for h in range(heap)])


@lru_cache(maxsize=None)
def combined_grundy(edges: frozenset, heap: int) -> int:
    opts = {combined_grundy(*m) for m in combined_moves(edges, heap)}
    return next(v for v in range(len(opts) + 1) if v not in opts)


@lru_cache(maxsize=None)
def combined_misere_wins(edges: frozenset, heap: int) -> bool:
    kids = combined_moves(edges, heap)
    return not kids or any(not combined_misere_wins(*m) for m in kids)


def small_graphs():
    return [g for g in graph_atlas_g()[1:] if g.number_of_edges() and g.number_of_nodes() <= 5]


def sum_json(g: nx.Graph, heap: int, convention: str = "normal") -> dict:
    return {"game": "sum", "convention": convention,
            "parts": [{"game": "grim", "edges": [list(e) for e in g.edges]}, {"game": "nim", "heaps": [heap]}]}


def test_grim_plus_nim_heap_matches_the_brute_force_in_both_conventions():
    solver = Solver()
    checked = 0
    for g in small_graphs():
        edges = frozenset(frozenset(e) for e in g.edges)
        for heap in range(5):
            normal = solver.grundy(read_position(sum_json(g, heap)))
            assert normal == combined_grundy(edges, heap), (list(g.edges), heap)
            mis = read_position(sum_json(g, heap, "misere"))
            want = "N" if combined_misere_wins(edges, heap) else "P"
            assert solver.outcome(mis) == want, (list(g.edges), heap)
            checked += 1
    assert checked == 5 * len(small_graphs()) > 100


def test_misere_differs_from_normal_somewhere_so_the_search_is_really_exercised():
    diff = [(g, h) for g in small_graphs() for h in range(5)
            if combined_misere_wins(frozenset(frozenset(e) for e in g.edges), h)
            != (combined_grundy(frozenset(frozenset(e) for e in g.edges), h) != 0)]
    assert diff
    g, h = diff[0]
    assert grundy.solve(sum_json(g, h, "misere"))["outcome"] != grundy.solve(sum_json(g, h))["outcome"]


def test_winning_moves_of_a_sum_lead_to_p_positions_and_the_line_ends_the_game():
    for conv in ("normal", "misere"):
        pos = {"game": "sum", "convention": conv, "parts": [
            {"game": "grim", "edges": [[0, 1], [1, 2], [2, 3], [3, 4]]}, {"game": "nim", "heaps": [3]},
            {"game": "wythoff", "heaps": [2, 4]}]}
        out = grundy.solve(pos, winning_moves=True, line=True)
        assert out["outcome"] == "N"
        for m in out["winning_moves"]:
            assert m["move"].startswith("part ")
            assert grundy.solve(m["to"])["outcome"] == "P"
        last = out["line"][-1]["to"]
        assert all(not Solver().options(p) for p in read_position(last).parts)


def test_sums_flatten_and_bad_parts_name_the_field():
    inner = {"game": "sum", "parts": [{"game": "nim", "heaps": [1]}, {"game": "nim", "heaps": [2]}]}
    p = read_position({"game": "sum", "parts": [inner, {"game": "nim", "heaps": [3]}]})
    assert isinstance(p, SumPosition) and len(p.parts) == 3 and grundy.solve(p)["grundy"] == 0
    for bad, where in (({"game": "sum"}, "parts: missing"), ({"game": "sum", "parts": []}, "parts: must be"),
                       ({"game": "sum", "parts": [{"game": "nim", "heaps": [-1]}]}, "parts[0].heaps[0]"),
                       ({"game": "sum", "parts": [{"game": "nim", "heaps": [1], "convention": "misere"}]},
                        "parts[0].convention")):
        with pytest.raises(InputError, match=where.replace("[", r"\[").replace("]", r"\]")):
            read_position(bad)


def test_grundy_solve_answers_a_sum():
    pos = {"game": "sum", "parts": [{"game": "grim", "edges": [[0, 1], [1, 2]]}, {"game": "nim", "heaps": [2]}]}
    p = subprocess.run([sys.executable, "-m", "grundy.cli", "solve", "--json", "-"], input=json.dumps(pos),
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == {"index": 0, "grundy": 0, "outcome": "P"}   # G(P_3) = 2 (grim)


def test_claims_range_over_sums():
    paths = [{"game": "grim", "edges": [[i, i + 1] for i in range(n - 1)]} for n in range(2, 9)]
    heaps = [{"game": "nim", "heaps": [k]} for k in range(6)]
    value = lambda g, s: s[1].heap[0] ^ grundy.solve({"game": "octal", "code": "0.6", "heaps": [g[0].n]})["grundy"]  # noqa: E731
    ok = Claim("sums/grim-nim", game="sum", kind="grundy", family=sums(paths, heaps), statement=value)
    v = check_claim(ok)
    assert v.verdict == "verified" and "42 positions" in v.scope
    wrong = Claim("sums/grim-nim-bad", game="sum", kind="grundy", family=sums(paths, heaps),
                  statement=lambda g, s: s[1].heap[0], expect="refuted")
    v = check_claim(wrong)
    assert v.verdict == "refuted" and v.counterexample.witness["game"] == "sum"
    pairs = positions(lambda: ({"game": "sum", "parts": [p, {"game": "nim", "heaps": [k]}], "convention": "misere"}
                               for p in paths for k in range(3)), "grim paths + small heaps")
    mis = Claim("sums/misere", game="sum", kind="outcome", convention="misere", family=pairs,
                statement=lambda g, s: s[1].heap[0] == 0, expect="refuted")
    v = check_claim(mis)
    assert v.verdict == "refuted" and v.counterexample.witness["convention"] == "misere"


@lru_cache(maxsize=None)
def lasker_plus_heap_misere_wins(heaps: tuple, extra: int) -> bool:
    """Lasker's Nim (take from a heap, or split one into two non-empty heaps) plus a nim heap,
    misère play, by brute force over the multiset of heaps."""
    kids = []
    for i, h in enumerate(heaps):
        rest = heaps[:i] + heaps[i + 1:]
        kids += [tuple(sorted(rest + ((h - t,) if h - t else ()))) for t in range(1, h + 1)]
        kids += [tuple(sorted(rest + (a, h - a))) for a in range(1, h // 2 + 1)]
    moves = [(k, extra) for k in kids] + [(heaps, e) for e in range(extra)]
    return not moves or any(not lasker_plus_heap_misere_wins(*m) for m in moves)


def test_a_heap_rule_game_whose_heaps_split_in_a_misere_sum():
    solver = Solver()
    for a in range(5):
        for b in range(a, 5):
            for c in range(3):
                pos = read_position({"game": "sum", "convention": "misere", "parts": [
                    {"game": "lasker-nim", "heaps": [a, b]}, {"game": "nim", "heaps": [c]}]})
                want = lasker_plus_heap_misere_wins(tuple(sorted(h for h in (a, b) if h)), c)
                assert solver.outcome(pos) == ("N" if want else "P"), (a, b, c)
