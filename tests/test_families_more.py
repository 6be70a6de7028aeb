"""Families (issue 20, item 4): trees and rooted trees (gentreeg where installed, the generator
otherwise: the same trees), grids and products in short form, graphs keeping their names,
graph6 files."""
import networkx as nx
import pytest

from grundy.tools.graphs import named_graph
from grundy.verify import graph6_file, graphs, grids, rooted_trees, trees
from grundy.verify.families.trees import free_trees_generated, gentreeg_program, level_sequences

pytestmark = pytest.mark.filterwarnings("ignore:The hashes produced:UserWarning")


def _nx(g):
    h = nx.Graph()
    h.add_nodes_from(range(g.n))
    h.add_edges_from(g.edges)
    return h


def _distinct_up_to_isomorphism(gs, rooted=False):
    for i, a in enumerate(gs):
        for b in gs[i + 1:]:
            if rooted:
                a2, b2 = a.copy(), b.copy()
                nx.set_node_attributes(a2, {v: v == 0 for v in a2}, "root")
                nx.set_node_attributes(b2, {v: v == 0 for v in b2}, "root")
                if nx.is_isomorphic(a2, b2, node_match=lambda x, y: x["root"] == y["root"]):
                    return False
            elif nx.is_isomorphic(a, b):
                return False
    return True


@pytest.mark.parametrize("n", range(1, 9))
def test_trees_are_every_tree_once(n):
    fam = [_nx(g) for _, g in trees(n).items()]
    assert all(nx.is_tree(g) and g.number_of_nodes() == n for g in fam)
    assert _distinct_up_to_isomorphism(fam)
    assert len(fam) == [1, 1, 1, 2, 3, 6, 11, 23][n - 1]          # OEIS A000055


@pytest.mark.parametrize("n", range(1, 8))
def test_rooted_trees_are_every_rooted_tree_once(n):
    fam = [_nx(g) for _, g in rooted_trees(n).items()]
    assert all(nx.is_tree(g) for g in fam)
    assert _distinct_up_to_isomorphism(fam, rooted=True)
    assert len(fam) == [1, 1, 2, 4, 9, 20, 48][n - 1]              # OEIS A000081
    # every free tree rooted at each of its vertices is one of them
    free = free_trees_generated(n)
    rooted = {nx.weisfeiler_lehman_graph_hash(_mark(g, 0), node_attr="root") for g in fam}
    for t in free:
        for v in t.nodes:
            assert nx.weisfeiler_lehman_graph_hash(_mark(t, v), node_attr="root") in rooted


def _mark(g, r):
    h = g.copy()
    nx.set_node_attributes(h, {v: str(v == r) for v in h}, "root")
    return h


def test_level_sequences_start_with_the_path_and_end_with_the_star():
    seqs = list(level_sequences(5))
    assert seqs[0] == [0, 1, 2, 3, 4] and seqs[-1] == [0, 1, 1, 1, 1]


@pytest.mark.skipif(gentreeg_program() is None, reason="nauty's gentreeg is not installed")
@pytest.mark.parametrize("n", range(2, 10))
def test_gentreeg_and_the_generator_give_the_same_trees(n):
    a = [_nx(g) for _, g in trees(n, use_gentreeg=True).items()]
    b = [_nx(g) for _, g in trees(n, use_gentreeg=False).items()]
    assert len(a) == len(b)
    assert sorted(nx.weisfeiler_lehman_graph_hash(g) for g in a) == sorted(nx.weisfeiler_lehman_graph_hash(g)
                                                                          for g in b)


def test_gentreeg_forced_without_it_says_so():
    if gentreeg_program() is not None:
        pytest.skip("gentreeg is installed")
    with pytest.raises(FileNotFoundError, match="gentreeg"):
        trees(4, use_gentreeg=True)


def test_grids_and_short_form_products():
    (name, g), = grids(3, 5).items()
    assert name == "P3xP5" and nx.is_isomorphic(_nx(g), nx.grid_2d_graph(3, 5))
    assert nx.is_isomorphic(_nx(named_graph("P3xP5")), nx.grid_2d_graph(3, 5))
    c4k2 = nx.cartesian_product(nx.cycle_graph(4), nx.complete_graph(2))
    assert nx.is_isomorphic(_nx(named_graph("C4xK2")), c4k2)
    assert grids(range(2, 4), range(2, 4)).names() == ["P2xP2", "P2xP3", "P3xP3"]


def test_graphs_keep_the_names_given():
    g = nx.Graph([("a", "b"), ("b", "c")])
    fam = graphs([("abc", g)])
    (name, s), = fam.items()
    assert name == "abc" and s.names == ["a", "b", "c"] and s.edges == [(0, 1), (1, 2)]
    assert graphs(("K_3", nx.complete_graph(3))).names() == ["K_3"]          # the old form
    assert graphs({"P": nx.path_graph(3)}).names() == ["P"]
    with pytest.raises(TypeError):
        graphs([("x", "not a graph")])


def test_a_graph6_file(tmp_path):
    f = tmp_path / "some.g6"
    lines = [nx.to_graph6_bytes(h, header=False).strip() for h in (nx.petersen_graph(), nx.path_graph(4))]
    f.write_bytes(b"\n".join(lines) + b"\n")
    fam = graph6_file(f)
    assert sorted(fam.names()) == ["some#1", "some#2"]
    got = {name: _nx(g) for name, g in fam.items()}
    assert nx.is_isomorphic(got["some#1"], nx.petersen_graph()) and nx.is_isomorphic(got["some#2"],
                                                                                    nx.path_graph(4))
