"""The explorer: a position's game tree as one self-contained HTML page (``grundy explore``,
``grundy.explore`` in a notebook). The position is drawn with its value and outcome; its
options are rows that open, one level at a time, each drawn small with its value, its outcome
and a "winning" mark on the moves to a P-position.

Values are computed here, in Python, for the tree ``depth`` moves deep (the options of every
position fewer than ``depth`` moves from the start; at most ``max_nodes`` positions, the nearest
first, but always the start's options); a position at the bottom is shown with its value and
outcome, its options marked "not in this file". A static page cannot
call Python: such a position is explored by running ``grundy explore`` on it (its JSON is on the
row), or by serving the page with ``grundy explore ... --serve``, which computes the options of
any position the reader opens (:mod:`.serve`). The page fetches nothing from the network.

>>> e = explore({"game": "nim", "heaps": [1, 2]}, depth=1)
>>> e.root["value"], e.root["outcome"], [k[0] for k in e.root["options"]]
(3, 'N', ['take 1 from heap 1', 'take 1 from heap 2', 'take 2 from heap 2'])
>>> [e.nodes[i]["outcome"] for _, i in e.root["options"]], e.nodes[1]["options"] is None
(['N', 'P', 'N'], True)
"""
from __future__ import annotations

import html as _html
import json
import re
from collections import deque
from pathlib import Path
from typing import Any

from ...solvers.solver import DEFAULT, Solver
from ...spec.position import InputError, Position, SumPosition
from ...spec.reader import as_position
from ..display import position_svg

__all__ = ["explore", "Explorer", "node_key", "DEPTH", "MAX_NODES"]

DEPTH = 3            # the tree in the file: this many moves deep
MAX_NODES = 1500     # positions in the file at most (each carries a small drawing)


def node_key(obj: dict[str, Any]) -> str:
    """The text a position is known by in the page (its JSON with sorted keys, no spaces): the
    page's script writes a searched position the same way.

    >>> node_key({"heaps": [1, 2], "game": "nim"})
    '{"game":"nim","heaps":[1,2]}'
    """
    return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def _drawing(pos: Position | SumPosition, n: int) -> str:
    """The position's picture (the notebook's SVG, as its game asks), scalable (a viewBox) and with
    its ids made unique in the page."""
    svg = position_svg(pos)
    svg = re.sub(r'<svg ([^>]*?)width="(\d+)" height="(\d+)"',
                 lambda m: f'<svg {m.group(1)}viewBox="0 0 {m.group(2)} {m.group(3)}" '
                           f'width="{m.group(2)}" height="{m.group(3)}"', svg)
    return re.sub(r'(id="|url\(#)([^")]+)', lambda m: f"{m.group(1)}n{n}-{m.group(2)}", svg)


class Explorer:
    """A position's tree, computed to a depth: ``nodes`` (one per distinct position: its JSON,
    ``value``, ``outcome``, ``drawing`` and ``options``, a list of [move, node number], or None
    where not computed) with ``nodes[0]`` the start. ``html()`` is the page; ``save(path)`` writes
    it; in a notebook the explorer shows itself (in a frame)."""

    def __init__(self, position: Any, depth: int = DEPTH, max_nodes: int = MAX_NODES,
                 solver: Solver | None = None):
        if isinstance(depth, bool) or not isinstance(depth, int) or depth < 1:
            raise InputError("depth", f"must be a positive integer (moves deep), got {depth!r}")
        if isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1:
            raise InputError("max_nodes", f"must be a positive integer, got {max_nodes!r}")
        self.solver = solver or DEFAULT
        self.depth, self.max_nodes = depth, max_nodes
        self.start = as_position(position)
        self.nodes: list[dict[str, Any]] = []
        self._index: dict[str, int] = {}
        self._positions: list[Position | SumPosition] = []
        self._grow()

    @property
    def root(self) -> dict[str, Any]:
        return self.nodes[0]

    @property
    def value_name(self) -> str:
        """What the value is: the Grundy value, or in misère play the misère Grundy value."""
        return "Grundy value" if self.start.convention == "normal" else "misère Grundy value"

    def node(self, pos: Position | SumPosition) -> int:
        """The number of the position's node (made, with its value and outcome, if new)."""
        obj = pos.to_json()
        key = node_key(obj)
        if key not in self._index:
            n = len(self.nodes)
            self._index[key] = n
            self._positions.append(pos)
            self.nodes.append({"position": obj, "value": self.solver.grundy(pos),
                               "outcome": self.solver.outcome(pos), "drawing": _drawing(pos, n),
                               "options": None})
        return self._index[key]

    def expand(self, n: int) -> list[list[Any]]:
        """Compute node ``n``'s options (each a new node if its position is new)."""
        if self.nodes[n]["options"] is None:
            self.nodes[n]["options"] = [[label, self.node(q)]
                                        for label, q in self.solver.options(self._positions[n])]
        return self.nodes[n]["options"]

    def _grow(self) -> None:
        """Breadth first from the start: options to ``depth`` moves, while there is room."""
        queue = deque([(self.node(self.start), 0)])
        seen = {0}
        while queue:
            n, d = queue.popleft()
            if d >= self.depth or (n != 0 and len(self.nodes) >= self.max_nodes):
                continue                      # the start's options are always there
            for _, m in self.expand(n):
                if m not in seen:
                    seen.add(m)
                    queue.append((m, d + 1))

    def data(self, served: bool = False) -> dict[str, Any]:
        """What the page's script reads: the nodes and how far they were computed."""
        return {"nodes": self.nodes, "depth": self.depth, "max_nodes": self.max_nodes,
                "value_name": self.value_name, "served": served,
                "command": "grundy explore '" + json.dumps(self.root["position"]) + "'"}

    def html(self, served: bool = False) -> str:
        """The self-contained page (inline SVG, style and script; nothing fetched)."""
        from .page import render
        return render(self.data(served))

    def save(self, path: str | Path) -> Path:
        out = Path(path)
        out.write_text(self.html(), encoding="utf-8")
        return out

    def _repr_html_(self) -> str:
        return (f'<iframe srcdoc="{_html.escape(self.html(), quote=True)}" title="grundy explorer" '
                'style="width:100%;height:560px;border:1px solid #d8dee4;border-radius:6px"></iframe>')

    def __repr__(self) -> str:
        done = sum(1 for n in self.nodes if n["options"] is not None)
        return (f"<Explorer of {node_key(self.root['position'])}: {len(self.nodes)} positions, "
                f"options of {done} computed (depth {self.depth})>")


def explore(position: Any, depth: int = DEPTH, max_nodes: int = MAX_NODES,
            solver: Solver | None = None) -> Explorer:
    """Explore a position's game tree: an :class:`Explorer`, shown in a notebook as the page
    ``grundy explore`` writes (``.save("tree.html")`` writes it). ``position``: a dict, JSON
    text or Position. Options are computed ``depth`` moves down (``max_nodes`` positions at most).

    Parameters
    ----------
    position : dict, str or Position
        Where the tree starts.
    depth : int
        Moves computed below it now (the page asks for more as a node is opened).
    max_nodes : int
        Positions computed at most.
    solver : Solver, optional
        The solver giving values and outcomes (default: the process's shared one).

    Returns
    -------
    Explorer
        ``root`` and ``nodes`` (value, outcome, options of each position computed);
        ``.save(path)`` writes the page.

    Raises
    ------
    grundy.errors.InputError
        A position that cannot be read.

    Examples
    --------
    >>> e = explore({"game": "nim", "heaps": [2]}, depth=1)
    >>> e.root["value"], e.root["outcome"], len(e.root["options"])
    (2, 'N', 2)
    """
    return Explorer(position, depth, max_nodes, solver)
