"""Graph games: the base class :class:`GraphGame` for games played by deleting vertices.

Public: a game file outside the package subclasses :class:`GraphGame` and writes only
``name``, ``summary`` and ``moves``. The position is a graph whose vertices are ``alive``
until deleted (field ``alive`` over the vertices, a bool); the rank is the number of alive
vertices; alive vertices joined by edges form components that are played independently
(``decompose_over = "vertices"``: a position is the sum of its components). JSON:
``{"nodes": [...], "edges": [[u, v], ...]}`` (``nodes`` may be left out: the edges' ends).

A game with more fields (a token, weights) overrides :meth:`~grundy.spec.Game.fields`,
``read`` and ``write`` as well, using :func:`~grundy.spec.read_graph` and
:func:`~grundy.spec.write_graph`; one that is not a sum of its components sets
``decompose_over = None``.

>>> from grundy.spec import any_of, move
>>> class NodeKayles(GraphGame):
...     name = "doc-node-kayles"
...     summary = "delete a vertex and its neighbours"
...     def moves(self, g, s):
...         for v in g.vertices:
...             yield move(f"take {g.names[v]}", guard=s.alive[v],
...                        update=s.set(alive={v: False, **{u: False for u in g.neighbours(v)}}))
>>> from grundy import solve
>>> from grundy.spec import GAMES
>>> with GAMES.scoped():                     # registered for this example only
...     solve({"game": NodeKayles(), "edges": [[0, 1], [1, 2]]})      # P_3: take an end or the centre
{'grundy': 2, 'outcome': 'N'}
"""
from __future__ import annotations

from typing import Any

from .expr import Term, count
from .game import Game
from .position import read_graph, write_graph
from .schema import Field, SymState
from .structure import Structure

__all__ = ["GraphGame"]


class GraphGame(Game):
    """A game on a graph whose vertices are deleted as play goes (see the module's text).

    Subclass it and write :meth:`~grundy.spec.game.Game.moves`; the field ``alive`` (one bool per
    vertex), the rank (the vertices left) and the decomposition into components come with it.

    Examples
    --------
    The module's text writes Node Kayles in full; what a subclass inherits:

    >>> from grundy.spec import Structure
    >>> g = Structure.graph(range(3), [(0, 1), (1, 2)])
    >>> [f.name for f in GraphGame.fields(GraphGame, g)], GraphGame.decompose_over
    (['alive'], 'vertices')
    """

    structure = "graph"
    decompose_over: str | None = "vertices"
    directed = False

    def fields(self, g: Structure) -> list[Field]:
        return [Field("alive", over="vertices", kind="bool")]

    def rank(self, g: Structure, s: SymState) -> Term:
        return count(s.alive[v] for v in g.vertices)

    def present(self, g: Structure, s: SymState, v: int) -> Term:
        alive: Term = s.alive[v]        # a Var: s's fields are looked up by name
        return alive

    def read(self, obj: dict[str, Any]) -> tuple[Structure, dict[str, Any]]:
        gi = read_graph(obj, nodes_required=False, directed=self.directed)
        return gi.structure, {"alive": [True] * gi.structure.n}

    def write(self, g: Structure, values: dict[str, Any]) -> dict[str, Any]:
        alive = values["alive"]
        return write_graph(g, keep_node=lambda v: alive[v],
                           edges=[(u, v) for u, v in g.edges if alive[u] and alive[v]])
