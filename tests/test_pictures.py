"""Pictures of positions: layouts recognised from the structure, labels that do not overlap,
placeholders instead of blank images, and golden renderings in docs/pictures/ (regenerated
here and compared by size and ink, not byte for byte).

``python tests/test_pictures.py`` rewrites the golden files.
"""
from __future__ import annotations

import io
import math
import sys
from pathlib import Path

import networkx as nx
import pytest

from grundy.tools.pictures import layout_of, line_svg, position_svg

mpl = pytest.importorskip("matplotlib")
mpl.use("Agg")

GOLDEN = Path(__file__).resolve().parent.parent / "docs" / "pictures"


def _edge_nim(g: nx.Graph, token=0, weight=lambda u, v: 2) -> dict:
    return {"game": "edge-nim", "nodes": sorted(g.nodes), "token": token,
            "edges": [[u, v, weight(u, v)] for u, v in sorted(tuple(sorted(e)) for e in g.edges)]}


# The cases the seed papers' counterexamples need (the positions grundy verify reports).
PETERSEN = {"game": "edge-nim", "nodes": list(range(10)), "token": 2,
            "edges": [[0, 1, 1], [0, 4, 2], [0, 5, 2], [1, 2, 2], [1, 6, 2], [2, 3, 2], [2, 7, 2], [3, 4, 2],
                      [3, 8, 2], [4, 9, 2], [5, 7, 2], [5, 8, 2], [6, 8, 2], [6, 9, 3], [7, 9, 2]]}
K1234 = {"game": "grim", "nodes": list(range(10)),
         "edges": sorted([list(e) for e in nx.complete_multipartite_graph(1, 2, 3, 4).edges])}
GRID = _edge_nim(nx.convert_node_labels_to_integers(nx.grid_2d_graph(3, 4)), weight=lambda u, v: (u + v) % 3 + 1)
EMPTY = {"game": "grim", "nodes": [], "edges": []}
TWO_HEAPS = {"game": "minnie", "heaps": [3, 4]}
CASES = {"petersen": PETERSEN, "k1234": K1234, "grid": GRID, "empty-graph": EMPTY, "two-heaps": TWO_HEAPS}


def _png(position: dict) -> bytes:
    return position_svg(position, title=None, fmt="png")


def _ink(png: bytes) -> tuple[int, int, float]:
    """Width, height and the share of pixels that are not near-white."""
    import matplotlib.image as mimg
    a = mimg.imread(io.BytesIO(png), format="png")
    rgb = a[..., :3]
    dark = (rgb.min(axis=2) < 0.9).mean()
    return a.shape[1], a.shape[0], float(dark)


# ------------------------------------------------------------------ layouts from structure
@pytest.mark.parametrize("g, name", [
    (nx.petersen_graph(), "Petersen graph"),
    (nx.relabel_nodes(nx.petersen_graph(), {i: (7 * i + 3) % 10 for i in range(10)}), "Petersen graph"),
    (nx.complete_multipartite_graph(1, 2, 3, 4), "complete multipartite K_{1,2,3,4}"),
    (nx.complete_bipartite_graph(2, 3), "complete bipartite K_{2,3}"),
    (nx.hypercube_graph(4), "hypercube Q_4"),
    (nx.grid_2d_graph(2, 5), "grid 2 x 5"),
    (nx.path_graph(6), "path P_6"),
    (nx.cycle_graph(7), "cycle C_7"),
    (nx.wheel_graph(7), "wheel W_7"),
    (nx.complete_graph(6), "complete K_6"),
    (nx.circular_ladder_graph(5), "prism C_5 x K_2"),
    (nx.Graph(), "empty"),
])
def test_layout_is_recognised_from_structure(g, name):
    pos, got = layout_of(nx.convert_node_labels_to_integers(g) if g.number_of_nodes() else g)
    assert got == name
    pts = list(pos.values())
    assert len(pts) == g.number_of_nodes()
    assert len({(round(x, 6), round(y, 6)) for x, y in pts}) == len(pts)     # no two vertices coincide


def test_petersen_drawing_is_the_standard_one():
    """Outer 5-cycle on one circle, inner pentagram on a smaller one, spokes between them."""
    g = nx.Graph([(u, v) for u, v, _ in PETERSEN["edges"]])
    pos, _ = layout_of(g)
    radius = {v: round(math.hypot(*p), 6) for v, p in pos.items()}
    assert sorted(set(radius.values())) == [0.6, 1.0]
    outer = [v for v in g if radius[v] == 1.0]
    assert nx.is_isomorphic(g.subgraph(outer), nx.cycle_graph(5))
    inner = [v for v in g if radius[v] == 0.6]
    angle = lambda v: math.atan2(pos[v][1], pos[v][0])            # noqa: E731
    for u, v in g.subgraph(inner).edges:                          # pentagram: neighbours 144° apart
        d = abs(math.degrees(angle(u) - angle(v))) % 360
        assert min(d, 360 - d) == pytest.approx(144, abs=1e-6)


def test_multipartite_parts_are_columns():
    g = nx.complete_multipartite_graph(1, 2, 3, 4)
    pos, _ = layout_of(g)
    columns: dict[float, set] = {}
    for v, (x, _) in pos.items():
        columns.setdefault(round(x, 6), set()).add(v)
    parts = [set(c) for c in nx.connected_components(nx.complement(g))]
    assert sorted(map(sorted, columns.values())) == sorted(map(sorted, parts))


def test_edge_weight_labels_do_not_overlap():
    """On the Petersen and K_5 drawings no two boxed labels (weights, vertex names) intersect."""
    import matplotlib.pyplot as plt

    from grundy.tools.pictures import draw_graph
    for position in (PETERSEN, _edge_nim(nx.complete_graph(5), weight=lambda u, v: u + v), GRID):
        fig, ax = plt.subplots(figsize=(4.6, 4.0))
        draw_graph(ax, position)
        fig.canvas.draw()
        r = fig.canvas.get_renderer()
        boxes = [t.get_bbox_patch().get_window_extent(r) for t in ax.texts if t.get_bbox_patch() is not None]
        plt.close(fig)
        assert len(boxes) == len(position["edges"])
        for i, a in enumerate(boxes):
            for b in boxes[i + 1:]:
                assert not a.overlaps(b), (position["edges"], a, b)


SYMMETRIC = {"petersen": nx.petersen_graph(), "K5": nx.complete_graph(5), "K3,3": nx.complete_bipartite_graph(3, 3),
             "prism": nx.circular_ladder_graph(5), "wheel": nx.wheel_graph(7), "Q3": nx.hypercube_graph(3),
             "C8": nx.cycle_graph(8), "grid": nx.grid_2d_graph(3, 3)}


@pytest.mark.parametrize("name", sorted(SYMMETRIC))
def test_symmetric_graphs_leave_room_for_their_labels(name):
    """Every weight's box is clear of every other box and of every vertex's disc (in the
    drawing as rendered), on the Petersen graph and other symmetric graphs."""
    import matplotlib.pyplot as plt
    from matplotlib.patches import Circle

    from grundy.tools.pictures import draw_graph
    g = nx.convert_node_labels_to_integers(SYMMETRIC[name])
    position = _edge_nim(g, weight=lambda u, v: 10 + (u * 7 + v * 3) % 90)     # two-digit labels
    fig, ax = plt.subplots(figsize=(4.6, 4.0))
    draw_graph(ax, position)
    fig.canvas.draw()
    r = fig.canvas.get_renderer()
    boxes = [t.get_bbox_patch().get_window_extent(r) for t in ax.texts if t.get_bbox_patch() is not None]
    discs = []
    for c in ax.patches:
        if isinstance(c, Circle):
            (x0, y0), (x1, _) = ax.transData.transform([c.center, (c.center[0] + c.radius, c.center[1])])
            discs.append((x0, y0, x1 - x0))
    plt.close(fig)
    assert len(boxes) == g.number_of_edges() and len(discs) == g.number_of_nodes()
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            assert not a.overlaps(b), (name, a, b)
        for x, y, rad in discs:                  # the box's nearest point lies outside the disc
            nx_, ny = min(max(x, a.x0), a.x1), min(max(y, a.y0), a.y1)
            assert math.hypot(nx_ - x, ny - y) > rad, (name, a, (x, y, rad))


def test_empty_position_is_a_captioned_placeholder():
    svg = position_svg(EMPTY)
    assert "empty graph" in svg
    w, h, ink = _ink(_png(EMPTY))
    assert ink > 0.01 and w > 200 and h > 150


def test_vertex_weights_loops_and_active_edge_are_drawn():
    svg = position_svg({"game": "vertex-nimg", "nodes": [[0, 1], [1, 2]], "edges": [[0, 1]], "loops": [0],
                        "token": 1})
    assert "boxed: vertex weights" in svg and "token on 1" in svg
    svg = position_svg({"game": "wyg", "nodes": [0, 1, 2], "edges": [[0, 1, 2], [1, 2, 1]], "active": [1, 2]})
    assert "active edge 1–2" in svg and "#c0392b" in svg


def test_line_strip_titles():
    wins = line_svg(TWO_HEAPS, [{"move": "take 3 from heap 1", "to": {"game": "minnie", "heaps": [3, 1]}}], True)
    loses = line_svg(TWO_HEAPS, [{"move": "take 3 from heap 1", "to": {"game": "minnie", "heaps": [3, 1]}}], False)
    assert "Winning line" in wins and "1. Player 1: take 3 from" in wins
    assert "Winning line" not in loses and "losing line" in loses


# ------------------------------------------------------------------ golden renderings
@pytest.mark.parametrize("name", sorted(CASES))
def test_golden_rendering_regenerates_with_the_same_size_and_ink(name):
    golden = GOLDEN / f"{name}.png"
    assert golden.exists() and (GOLDEN / f"{name}.svg").exists(), "run python tests/test_pictures.py"
    w0, h0, ink0 = _ink(golden.read_bytes())
    w, h, ink = _ink(_png(CASES[name]))
    assert ink > 0.01                                       # not blank
    assert abs(w - w0) <= 0.15 * w0 and abs(h - h0) <= 0.15 * h0
    assert ink == pytest.approx(ink0, rel=0.5)
    svg = position_svg(CASES[name])
    assert svg.startswith("<svg") and len(svg) > 2000


def write_golden() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for name, position in CASES.items():
        (GOLDEN / f"{name}.png").write_bytes(_png(position))
        (GOLDEN / f"{name}.svg").write_text(position_svg(position), encoding="utf-8")
        print("wrote", GOLDEN / name)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    write_golden()


def test_drawing_follows_the_position_written():
    """A graph game whose input is heaps (a circuit of heaps) is drawn as heaps, not as an
    empty graph; a digraph's arcs get arrow heads."""
    svg = position_svg({"game": "adjacent-nim", "heaps": [1, 2, 3]})
    assert "heaps 1, 2, 3" in svg and "empty graph" not in svg
    svg = position_svg({"game": "directed-vertexnim", "nodes": [["a", 2], ["b", 2]],
                        "arcs": [["a", "b"], ["b", "a"]], "token": "a"})
    assert "token on a" in svg and "empty graph" not in svg


def test_a_game_may_draw_its_own_positions(monkeypatch):
    from grundy.spec.games import GAMES
    game = GAMES["nim"]

    def draw(ax, position):
        ax.text(0.5, 0.5, "drawn by the family's hook", transform=ax.transAxes)
        return "hook caption"

    monkeypatch.setattr(game, "draw", draw, raising=False)
    svg = position_svg({"game": "nim", "heaps": [1, 2]})
    assert "hook caption" in svg and "drawn by the family" in svg and "P-positions" not in svg


def test_heaps_are_numbered_from_1_in_pictures_as_in_moves():
    """A move says "take 3 from heap 1" of the first heap: the pictures say "heap 1" of it too."""
    from grundy.tools.tikz import position_tikz
    three = {"game": "nim", "heaps": [3, 1, 2]}
    tex = position_tikz(three)
    assert "{heap 1}" in tex and "{heap 3}" in tex and "{heap 0}" not in tex, tex
    grid = position_tikz({"game": "nim", "heaps": [3, 1]})
    assert "{heap 0}" not in grid, grid
    svg = position_svg(three)
    if svg is not None:                      # matplotlib is there
        text = svg if isinstance(svg, str) else str(svg)
        assert "heap 3" in text and "heap 0" not in text
