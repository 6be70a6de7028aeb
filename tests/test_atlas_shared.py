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
