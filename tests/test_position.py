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


def test_a_misspelled_field_is_an_error_after_good_readings_too():
    """Positions with only fields a game's reader asked for before skip the tracking of fields
    asked for: any other field still goes through it, and is named."""
    good = {"game": "edge-nim", "edges": [[0, 1, 2]], "token": 0}
    for _ in range(2):
        read_position(good)
    with pytest.raises(InputError, match="tokn: unknown field for edge-nim"):
        read_position({"game": "edge-nim", "edges": [[0, 1, 2]], "token": 0, "tokn": 1})
    with pytest.raises(InputError, match="token: missing"):
        read_position({"game": "edge-nim", "edges": [[0, 1, 2]]})


def test_a_reader_out_of_step_with_its_fields_is_an_error():
    """A value list longer or shorter than its field's slots is never cut short or padded."""
    from grundy.errors import RuleError
    from grundy.spec import Structure
    from grundy.spec.games import get_game
    g = Structure.graph([0, 1], [(0, 1)])
    schema = get_game("edge-nim").rules(g).schema
    assert schema.pack({"weight": [3], "token": 1}) == (3, 1)
    for wrong in ([3, 4], []):
        with pytest.raises(RuleError, match="field weight"):
            schema.pack({"weight": wrong, "token": 1})
