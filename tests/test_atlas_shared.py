"""The graph atlas read once per process: theorems/_selfref_graphs.py's atlas is the graphs
all_graphs reads (the same objects, in the atlas' order, named G<n>.<k> as all_graphs names them)."""
import importlib.util
from pathlib import Path

from grundy.verify.families import builders

THEOREMS = Path(__file__).resolve().parents[1] / "theorems"


def test_selfref_atlas_is_the_shared_one():
    spec = importlib.util.spec_from_file_location("selfref_graphs_under_test", THEOREMS / "_selfref_graphs.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    mine, shared = mod.atlas(), builders.atlas()
    assert len(mine) == len(shared) - 1 == 1252
    assert all(h is shared[i + 1] for i, (_, h) in enumerate(mine))
    named = dict(builders.all_graphs(4).items())
    assert all(named[name].n == h.number_of_nodes() and len(named[name].edges) == h.number_of_edges()
               for name, h in mine if h.number_of_nodes() <= 4)
    assert len([1 for _, h in mine if h.number_of_nodes() <= 4]) == len(named) == 18


def _glued_by_isomorphism(mod, k):
    """theorems/_selfref_graphs.glued as it was: the first graph of each isomorphism class."""
    import itertools

    import networkx as nx
    seen = {}
    subsets = [c for r in range(1, k + 1) for c in itertools.combinations(range(k), r)]
    for name, h in mod.atlas():
        if h.number_of_nodes() != k or not nx.is_connected(h):
            continue
        for a, b in itertools.combinations_with_replacement(subsets, 2):
            x = nx.Graph()
            x.add_nodes_from(range(2 * k + 1))
            x.add_edges_from([*h.edges, *((u + k, v + k) for u, v in h.edges)])
            x.add_edges_from([(2 * k, v) for v in a] + [(2 * k, k + v) for v in b])
            key = str(sorted((x.degree(v), sorted(x.degree(w) for w in x[v])) for v in x))
            if any(nx.is_isomorphic(x, y) for y in seen.get(key, [])):
                continue
            seen.setdefault(key, []).append(x)
            yield (*mod.item(f"{name}*{name}@{''.join(map(str, a))}|{''.join(map(str, b))}", x), f"vertex {2 * k}")


def test_glued_by_orbits_is_glued_by_isomorphism():
    spec = importlib.util.spec_from_file_location("selfref_graphs_glued", THEOREMS / "_selfref_graphs.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    new, old = list(mod.glued(4)), list(_glued_by_isomorphism(mod, 4))
    assert len(new) == 200
    assert [(n, g.n, list(g.edges), w) for n, g, w in new] == [(n, g.n, list(g.edges), w) for n, g, w in old]


def test_item_numbers_in_sorted_order_as_before():
    import networkx as nx

    from grundy.spec import Structure
    spec = importlib.util.spec_from_file_location("selfref_graphs_item", THEOREMS / "_selfref_graphs.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)

    def before(name, h):
        h = nx.convert_node_labels_to_integers(h, ordering="sorted")
        return name, Structure.graph(range(h.number_of_nodes()), h.edges)
    graphs = [h for _, h in mod.atlas()[::37]] + [nx.relabel_nodes(nx.path_graph(5), {0: 9, 1: 3, 2: 7, 3: 1, 4: 4}),
                                                  nx.Graph([(2, 5), (5, 3)])]
    for h in graphs:
        assert mod.item("x", h) == before("x", h)
