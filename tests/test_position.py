"""Reading positions: a graph read again (only its weights differ) is checked as on a first reading."""
from __future__ import annotations

import pytest

from grundy.spec import InputError, read_graph, read_position
from grundy.spec import position as position_module


def _first_reading(obj: dict, **kw):
    position_module._SHAPES.clear()
    try:
        return read_graph(obj, **kw)
    except InputError as e:
        return str(e)


@pytest.mark.parametrize("kw, good, bads", [
    ({"edge_weights": True, "nodes_required": False, "loops": True},
     {"edges": [["b", "a", 2], ["a", "c", 3], ["c", "c", 1]]},
     [{"edges": [["b", "a", -2], ["a", "c", 3], ["c", "c", 1]]},
      {"edges": [["b", "a", 2], ["a", "c", True], ["c", "c", 1]]},
      {"edges": [["b", "a", 2.0], ["a", "c", 7], ["c", "c", 1]]}]),
    ({"node_weights": True, "node_lower": 1, "loops": True},
     {"nodes": [[0, 1], [1, 2], [2, 3]], "edges": [[0, 1], [1, 2]], "loops": [2]},
     [{"nodes": [[0, 0], [1, 2], [2, 3]], "edges": [[0, 1], [1, 2]], "loops": [2]},
      {"nodes": [[0, 1], [1, "x"], [2, 3]], "edges": [[0, 1], [1, 2]], "loops": [2]},
      {"nodes": [[0, 1], [1, 5], [2, 9]], "edges": [[0, 1], [1, 2]], "loops": [2]}]),
])
def test_a_graph_read_again_reads_its_weights_as_the_first_time(kw, good, bads):
    for bad in bads:
        fresh = _first_reading(bad, **kw)
        remembered = read_graph(good, **kw)        # the graph is remembered
        try:
            again = read_graph(bad, **kw)
        except InputError as e:
            assert str(e) == fresh
        else:
            assert again.structure is remembered.structure
            assert (again.edge_weight, again.node_weight, again.index) == \
                   (fresh.edge_weight, fresh.node_weight, fresh.index)


def test_names_that_compare_equal_are_not_confused():
    """True == 1 and 1.0 == 1 in Python: such names must not reuse the graph of 0/1 names."""
    read_graph({"nodes": [0, 1], "edges": [[0, 1, 1]]}, edge_weights=True)
    with pytest.raises(InputError, match="vertex name"):
        read_graph({"nodes": [0, True], "edges": [[0, True, 1]]}, edge_weights=True)
    with pytest.raises(InputError, match="vertex name"):
        read_graph({"nodes": [0, 1.0], "edges": [[0, 1.0, 1]]}, edge_weights=True)


def test_edge_weights_follow_the_structure_order():
    a = read_position({"game": "edge-nim", "edges": [[2, 1, 5], [0, 1, 3]], "token": 0})
    b = read_position({"game": "edge-nim", "edges": [[2, 1, 4], [0, 1, 6]], "token": 0})
    assert a.structure is b.structure
    for p, given in ((a, [[2, 1, 5], [0, 1, 3]]), (b, [[2, 1, 4], [0, 1, 6]])):
        back = {(frozenset(e[:2]), e[2]) for e in p.to_json()["edges"]}
        assert back == {(frozenset(e[:2]), e[2]) for e in given}
