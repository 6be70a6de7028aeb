"""Families of structures and the position enumerators (grundy/verify/families/).

Counts come from the literature (OEIS) or from a naive count written here."""
from __future__ import annotations

import itertools
from math import comb

import networkx as nx
import pytest

from grundy.solvers.solver import Solver
from grundy.spec.games import get_game
from grundy.verify import families as F


@pytest.mark.parametrize("n, all_, connected", [(3, 4, 2), (4, 11, 6), (5, 34, 21)])
def test_all_graphs_counts(n, all_, connected):
    # OEIS A000088 (graphs on n nodes) and A001349 (connected graphs)
    assert len(F.all_graphs(n, min_n=n)) == all_
    assert len(F.all_graphs(n, min_n=n, connected=True)) == connected


def test_named_graphs():
    def one(fam):
        (name, g), = fam.items()
        return g
    p = one(F.petersen())
    assert (p.n, len(p.edges), len(p.automorphisms)) == (10, 15, 120)
    q = one(F.hypercubes(3))
    assert (q.n, len(q.edges), len(q.automorphisms)) == (8, 12, 48)
    s = one(F.ssb(3))           # K_{2,3} plus v1v2
    assert (s.n, len(s.edges)) == (5, 7) and s.adjacent(0, 1)
    assert all(s.adjacent(v, w) for v in (0, 1) for w in (2, 3, 4))
    w = one(F.wheels(5))
    assert (w.n, len(w.edges), w.degree(0)) == (5, 8, 4)
    t = one(F.two_stars(2, 3, 2))
    assert (t.n, len(t.edges)) == (8, 7) and nx.is_tree(t.to_networkx())
    assert sorted(t.degree(v) for v in range(t.n))[-2:] == [3, 4]
    m = one(F.complete_multipartite((2, 2, 2)))
    assert (m.n, len(m.edges)) == (6, 12)
    ladder = one(F.cartesian(F.paths(2), F.paths(3)))
    assert (ladder.n, len(ladder.edges)) == (6, 7)
    u = one(F.disjoint_union(F.cycles(3), F.cycles(4)))
    assert (u.n, len(u.edges), nx.number_connected_components(u.to_networkx())) == (7, 7, 2)
    kb = one(F.complete_bipartite((2, 3)))
    assert (kb.n, len(kb.edges)) == (5, 6)


def test_family_order_and_union():
    fam = F.cycles(6) + F.paths(3) + F.complete(4)
    assert fam.names() == ["P_3", "K_4", "C_6"]     # fewest vertices first, then edges
    a, b = F.gnp(6, 0.5, 3, seed=7), F.gnp(6, 0.5, 3, seed=7)
    assert [g.edges for _, g in a.items()] == [g.edges for _, g in b.items()]


def test_heap_tuples_and_values():
    assert len(list(F.heap_tuples(3, 4))) == comb(5 + 3 - 1, 3)
    assert all(list(t) == sorted(t) for t in F.heap_tuples(3, 4))
    assert F.values_of((2, 4)) == [2, 3, 4] and F.values_of(2, lower=1) == [1, 2]


def test_tokens_up_to_automorphism():
    (_, star), = F.stars(4).items()
    (_, pet), = F.petersen().items()
    (_, path), = F.paths(5).items()
    assert F.tokens(star) == [0, 1] and F.tokens(pet) == [0] and F.tokens(path) == [0, 1, 2]


def test_states_one_per_orbit():
    """Edge-nim on C_4, weights 0..1: one state per orbit of the dihedral group, counted naively."""
    (_, c4), = F.cycles(4).items()
    rules = get_game("edge-nim").rules(c4)
    solver = Solver()
    table = solver.table(get_game("edge-nim"), c4)
    solver.establish(table)                         # the symmetry, proved on C_4, is used from now on
    assert table.symmetric
    canon = table.code.canonical
    got = list(F.states(rules, {"weight": 1}, canon))
    g = nx.cycle_graph(4)
    edges = [tuple(sorted(e)) for e in g.edges]
    autos = list(nx.algorithms.isomorphism.GraphMatcher(g, g).isomorphisms_iter())
    orbits = set()
    for ws in itertools.product((0, 1), repeat=4):
        for t in range(4):
            images = []
            for a in autos:
                w2 = {tuple(sorted((a[u], a[v]))): w for (u, v), w in zip(edges, ws)}
                images.append((tuple(w2[e] for e in edges), a[t]))
            orbits.add(min(images))
    assert len(got) == len(orbits) == len(set(got))
    assert F.count_states(rules, {"weight": 1}) == 2**4 * 4


def test_hypercubes_from_dimension_one():
    from grundy.verify import hypercubes
    assert [(g.n, len(g.edges)) for _, g in hypercubes(1, 2, 3).items()] == [(2, 1), (4, 4), (8, 12)]


def test_symmetric_sweep_keeps_pinned_positions_that_are_not_canonical():
    # a path 0-1-2 with chips pinned to (2, 2, 1): its mirror image (1, 2, 2) is the canonical
    # form, but the sweep must still visit the one orbit the bounds meet
    from grundy.solvers.explicit import compile_rules
    from grundy.spec import Structure
    from grundy.spec.games import get_game
    from grundy.verify.families import states
    rules = get_game("wyg").rules(Structure.graph([0, 1, 2], [(0, 1), (1, 2)]))
    canon = compile_rules(rules).canonical
    pinned = {"chips": lambda g, v: [1] if v == 2 else [2], "active": [-1]}
    assert len(list(states(rules, pinned, canon))) == 1


# ------------------------------------------------------------------ geng (nauty)
needs_geng = pytest.mark.skipif(F.geng_program() is None, reason=F.GENG_HINT)


@needs_geng
def test_geng_counts_match_oeis():
    # OEIS A000088 (graphs on n nodes) and A001349 (connected graphs on n nodes), n = 1..8
    assert [F.geng(n, min_n=n).span() for n in range(1, 9)] == [1, 2, 4, 11, 34, 156, 1044, 12346]
    assert [F.geng(n, min_n=n, connected=True).span() for n in range(1, 9)] == [1, 1, 2, 6, 21, 112, 853, 11117]
    assert F.geng(6).span() == 1 + 2 + 4 + 11 + 34 + 156


@needs_geng
def test_geng_is_the_atlas_up_to_isomorphism():
    """Every geng graph on <= 6 vertices is isomorphic to exactly one atlas graph, and back."""
    ours = [g.to_networkx() for _, g in F.geng(6).items()]
    atlas = [g for g in nx.graph_atlas_g() if 1 <= g.number_of_nodes() <= 6]
    assert len(ours) == len(atlas)
    key = lambda h: (h.number_of_nodes(), h.number_of_edges(), tuple(sorted(d for _, d in h.degree)))  # noqa: E731
    buckets: dict = {}
    for h in atlas:
        buckets.setdefault(key(h), []).append(h)
    for g in ours:
        assert sum(nx.is_isomorphic(g, h) for h in buckets.get(key(g), [])) == 1


@needs_geng
def test_graph6_decoder_agrees_with_networkx():
    for name, g in F.geng(7, min_n=7).items():
        assert name.startswith("graph6:")
        ref = nx.from_graph6_bytes(name[len("graph6:"):].encode())
        assert g.n == ref.number_of_nodes() and g.edges == sorted(tuple(sorted(e)) for e in ref.edges)


@needs_geng
def test_geng_order_parts_and_where():
    fam = F.geng(6)
    items = list(fam.items())
    sizes = [(g.n, len(g.edges)) for _, g in items]
    assert sizes == sorted(sizes)                                  # fewest vertices, then edges
    n = fam.span()
    cuts = [0, 1, 7, 100, 101, n]
    pieces = [name for a, b in zip(cuts, cuts[1:]) for name, _ in fam.part(a, b).items()]
    assert pieces == [name for name, _ in items]
    assert [x for x, _ in fam.part(100, 110).part(2, 4).items()] == [x for x, _ in items[102:104]]
    trees = F.geng(7, min_n=7, where=lambda g: len(g.edges) == 6 and nx.is_tree(g.to_networkx()))
    assert len(trees) == 11                                        # OEIS A000055: 11 trees on 7 vertices
    assert len(trees.items()) == 11 and trees.items()[3][1].n == 7


@needs_geng
def test_geng_nauty_filters_are_the_automorphism_group():
    """symmetric / max_fixed (run in nauty's pickg) keep exactly the graphs on <= 7 vertices
    whose automorphism group, enumerated here, is non-trivial / fixes at most k vertices."""
    everything = list(F.geng(7).items())

    def fixed(g):
        return sum(all(a[v] == v for a in g.automorphisms) for v in range(g.n))
    for k in (0, 1, 2):
        want = [name for name, g in everything if fixed(g) <= k]
        assert [name for name, _ in F.geng(7, max_fixed=k).items()] == want and 0 < len(want) < len(everything)
    want = [name for name, g in everything if len(g.automorphisms) > 1]
    fam = F.geng(7, symmetric=True, max_fixed=1)
    both = [name for name, g in everything if len(g.automorphisms) > 1 and fixed(g) <= 1]
    assert [name for name, _ in F.geng(7, symmetric=True).items()] == want
    assert [name for name, _ in fam.items()] == both
    n = fam.span()                                   # chunks index geng's output: graphs read
    assert n == len(everything)
    cuts = [0, 1, 40, 41, 500, 1100, n]
    assert [x for a, b in zip(cuts, cuts[1:]) for x, _ in fam.part(a, b).items()] == both
    assert "non-trivial automorphism" in fam.scope and f"{n:,} graphs geng makes" in fam.scope
    with pytest.raises(ValueError, match="max_fixed"):
        F.geng(5, max_fixed=-1)


def test_geng_missing_is_a_clear_error(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(F.nauty, "geng_program", lambda: None)
    monkeypatch.setattr(F.nauty, "_GENG_COUNTS", {})
    with pytest.raises(F.GengMissing, match=r"apt-get install nauty"):
        F.geng(5).span()
    f = tmp_path / "g.py"
    f.write_text("from grundy.verify import Claim\nfrom grundy.verify.families import geng\n"
                 "CLAIMS = [Claim('g/x', game='grim', kind='char', family=geng(4), "
                 "bounds={'alive': 1}, statement=lambda g, s: True)]\n")
    from grundy.cli import main
    for extra in ([], ["--executor", "local:2"]):
        assert main(["verify", str(f), "--json", *extra]) == 1
        out = capsys.readouterr()
        (line,) = out.out.splitlines()
        assert "apt-get install nauty" in line and "Traceback" not in out.out + out.err
