"""Positions: a game, a structure and a state tuple, read from and written to JSON.

>>> p = read_position({"game": "nim", "heaps": [1, 2, 3]})
>>> p.state, p.to_json()
((1, 2, 3), {'game': 'nim', 'heaps': [1, 2, 3]})
>>> read_position({"game": "nim", "heaps": [1, -2]})
Traceback (most recent call last):
...
grundy.errors.InputError: heaps[1]: must be a non-negative integer, got -2
>>> read_position({"game": "grim", "edgs": [[0, 1]]})
Traceback (most recent call last):
...
grundy.errors.InputError: edgs: unknown field for grim (its fields: game, edges, loops, nodes, convention)
"""
from __future__ import annotations

import operator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Callable, Hashable, Literal, Sequence, get_args

from ..caches import register
from ..errors import InputError as InputError  # re-exported: importers read it from here too
from .game import Game
from .registry import GAMES, GameError, get_game
from .structure import Structure

if TYPE_CHECKING:
    from .game import Rules

Convention = Literal["normal", "misere"]
CONVENTIONS: tuple[Convention, ...] = get_args(Convention)


@dataclass(frozen=True)
class Position:
    """One position of one game: the game, the structure (heaps or graph) it is played on, the
    state (the fields' values in the schema's order: :meth:`values` names them) and the
    convention (``"normal"``: the last mover wins; ``"misere"``: loses).

    Examples
    --------
    >>> p = read_position({"game": "nim", "heaps": [3, 5]})
    >>> p.game.name, p.values(), p.to_json()
    ('nim', {'heap': {0: 3, 1: 5}}, {'game': 'nim', 'heaps': [3, 5]})
    """

    game: "Game"
    structure: Structure
    state: tuple[int, ...]
    convention: str = "normal"

    @property
    def rules(self) -> "Rules":
        return self.game.rules(self.structure)

    def values(self) -> dict[str, Any]:
        return self.rules.schema.unpack(self.state)

    def with_state(self, state: tuple[int, ...]) -> "Position":
        return Position(self.game, self.structure, tuple(state), self.convention)

    def to_json(self) -> dict[str, Any]:
        out = {"game": self.game.name, **self.game.write(self.structure, self.values())}
        if self.convention != self.game.convention:
            out["convention"] = self.convention
        return out


@dataclass(frozen=True)
class SumPosition:
    """A sum of positions of any games: the player to move moves in exactly one part.

    Its normal-play Grundy value is the XOR of the parts' values; its misère outcome needs a
    search over the sum (see :mod:`grundy.solvers.explicit.sums`). JSON:
    ``{"game": "sum", "parts": [position, ...]}`` (``"convention"`` on the sum, not on a part).
    ``parts`` are stored in normal play; sums among them are flattened by :meth:`of`.

    Examples
    --------

    >>> p = read_position({"game": "sum", "parts": [{"game": "nim", "heaps": [3]},
    ...                                             {"game": "grim", "edges": [[0, 1], [1, 2]]}]})
    >>> [q.game.name for q in p.parts], p.to_json()["parts"][0]
    (['nim', 'grim'], {'game': 'nim', 'heaps': [3]})
    """

    parts: tuple[Position, ...]
    convention: str = "normal"

    @staticmethod
    def of(*parts: "Position | SumPosition", convention: str | None = None) -> "SumPosition":
        """The sum of positions (sums among them are flattened). The convention is the sum's
        (its parts are stored in normal play): ``convention``, else the parts' own, which must
        then agree; a misère part is never switched to normal play unless the sum says so.

        >>> nim = lambda h, c="normal": read_position({"game": "nim", "heaps": [h], "convention": c})
        >>> SumPosition.of(nim(1, "misere"), nim(2, "misere")).convention
        'misere'
        >>> SumPosition.of(nim(1, "misere"), nim(2))
        Traceback (most recent call last):
        ...
        grundy.errors.InputError: convention: the parts are in misère and normal play: give the sum's convention
        """
        flat: list[Position] = []
        own: set[str] = set()
        for p in parts:
            own.add(p.convention)
            flat.extend(p.parts if isinstance(p, SumPosition) else [p])
        if convention is None:
            if len(own) > 1:
                raise InputError("convention", "the parts are in misère and normal play: give the sum's convention")
            convention = own.pop() if own else "normal"
        return SumPosition(tuple(Position(q.game, q.structure, q.state, "normal") for q in flat), convention)

    def with_part(self, i: int, q: Position) -> "SumPosition":
        """The sum with part ``i`` replaced by ``q``."""
        return SumPosition(self.parts[:i] + (q,) + self.parts[i + 1:], self.convention)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"game": "sum", "parts": [p.to_json() for p in self.parts]}
        if self.convention != "normal":
            out["convention"] = self.convention
        return out


def read_sum(obj: dict[str, Any]) -> SumPosition:
    """``{"game": "sum", "parts": [...]}`` to a :class:`SumPosition` (errors name the part)."""
    parts = need(obj, "parts")
    if not isinstance(parts, list) or not parts:
        raise InputError("parts", "must be a non-empty list of positions")
    conv = obj.get("convention", "normal")       # a sum's, whatever its games declare (said on the sum)
    if conv not in CONVENTIONS:
        raise InputError("convention", f"must be \"normal\" or \"misere\", got {conv!r}")
    out = []
    for i, part in enumerate(parts):
        if isinstance(part, dict) and "convention" in part:
            raise InputError(f"parts[{i}].convention", "set the convention on the sum, not on a part")
        try:
            out.append(read_position(part))
        except InputError as e:
            raise InputError(f"parts[{i}]" + (f".{e.field}" if e.field else ""), e.problem) from None
    return SumPosition.of(*out, convention=conv)


def make_position(game: "Game | str", structure: Structure, values: dict[str, Any],
                  convention: str | None = None) -> Position:
    """A position from field values (a list per indexed field, in the structure's order)."""
    game = get_game(game) if isinstance(game, str) else game
    state = game.rules(structure).schema.pack(values)
    return Position(game, structure, state, convention or game.convention)


def read_position(obj: Any) -> "Position | SumPosition":
    """Parse one JSON object (already decoded) into a :class:`Position`."""
    if not isinstance(obj, dict):
        raise InputError("", f"a position must be a JSON object, got {type(obj).__name__}")
    name = obj.get("game")
    if name is None:
        raise InputError("game", "missing (one of: " + ", ".join(sorted(GAMES)) + ")")
    if name == "sum":
        return read_sum(obj)
    try:
        game = GAMES[name] if type(name) is str else get_game(name) if isinstance(name, (str, Game)) else None
    except GameError as e:
        raise InputError("game", str(e)) from None
    if game is None:
        raise InputError("game", f"must be a game's name, got {name!r}")
    conv = obj.get("convention", _DEFAULT)
    if conv is _DEFAULT:
        conv = game.convention
    elif conv not in CONVENTIONS:
        raise InputError("convention", f"must be \"normal\" or \"misere\", got {conv!r}")
    game_known = _FIELDS.get(id(game))
    known = game_known[1] if game_known is not None and game_known[0] is game else None
    if known is not None and known.issuperset(obj):   # only fields its reader asked for before
        structure, values = game.read(obj)
    else:
        seen = _Tracked(obj)
        structure, values = game.read(seen)
        unknown = [k for k in obj if k not in seen.asked and k not in ("game", "convention")]
        if unknown:
            fields = ", ".join(["game", *sorted(seen.asked), "convention"])
            raise InputError(str(unknown[0]), f"unknown field for {name} (its fields: {fields})")
        if len(_FIELDS) >= 256:
            _FIELDS.clear()
        _FIELDS[id(game)] = (game, (known or frozenset(("game", "convention"))) | seen.asked)
    return _position(game, structure, game.rules(structure).schema.pack(values), conv)


def _position(game: Game, structure: Structure, state: tuple[int, ...], convention: str) -> Position:
    """``Position(game, structure, state, convention)``, made faster for a batch: the frozen
    dataclass's ``__init__`` sets each field through ``object.__setattr__``.

    >>> from grundy.spec.games import get_game
    >>> nim, g = get_game("nim"), Structure.heaps(1)
    >>> _position(nim, g, (3,), "normal") == Position(nim, g, (3,), "normal")
    True
    """
    p = _new(Position)
    d = p.__dict__
    d["game"], d["structure"], d["state"], d["convention"] = game, structure, state, convention
    return p


_new = object.__new__


_DEFAULT = object()      # no "convention" given: the game's own


# Per game, the fields its reader has asked for in a reading that succeeded: a position with
# no other field is read without tracking which fields are asked for (a batch's fast path).
_FIELDS: dict[int, tuple[Game, frozenset[str]]] = {}
register("fields", lambda: len(_FIELDS), lambda: _FIELDS.clear())


class _Tracked(dict[str, Any]):
    """A position's JSON object that records which keys the game's reader asked about: every
    other key is a field the game does not have (a misspelling, most likely)."""

    def __init__(self, obj: dict[str, Any]):
        super().__init__(obj)
        self.asked: set[str] = set()

    def __getitem__(self, k: Any) -> Any:
        self.asked.add(k)
        return super().__getitem__(k)

    def get(self, k: Any, default: Any = None) -> Any:
        self.asked.add(k)
        return super().get(k, default)

    def __contains__(self, k: object) -> bool:
        self.asked.add(k)  # type: ignore[arg-type]
        return super().__contains__(k)


# ---------------------------------------------------------------- JSON readers

def need(obj: dict[str, Any], key: str) -> Any:
    if key not in obj:
        raise InputError(key, "missing")
    return obj[key]


def natural(x: Any, where: str, lower: int = 0) -> int:
    """A JSON integer >= lower."""
    if isinstance(x, bool) or not isinstance(x, int):
        if isinstance(x, float) and x.is_integer() and x >= lower:
            return int(x)
        raise InputError(where, f"must be an integer >= {lower}, got {x!r}" if lower else
                         f"must be a non-negative integer, got {x!r}")
    if x < lower:
        raise InputError(where, f"must be an integer >= {lower}, got {x}" if lower else
                         f"must be a non-negative integer, got {x}")
    return x


def _name(x: Any, where: str) -> Hashable:
    if isinstance(x, bool) or not isinstance(x, (int, str)):
        raise InputError(where, f"a vertex name must be an integer or a string, got {x!r}")
    return x


def read_heaps(obj: dict[str, Any], lower: int = 0) -> list[int]:
    heaps = need(obj, "heaps")
    if not isinstance(heaps, list):
        raise InputError("heaps", "must be a list of integers")
    return [natural(h, f"heaps[{i}]", lower) for i, h in enumerate(heaps)]


@dataclass(slots=True)
class GraphInput:
    structure: Structure
    node_weight: list[int]
    edge_weight: list[int]
    index: dict[Hashable, int]
    order: list[int] = field(default_factory=list, repr=False)  # input edge of each structure edge

    def vertex(self, obj: dict[str, Any], key: str = "token", optional: bool = False) -> int | None:
        v = obj.get(key)
        if type(v) in _NAME_TYPES:                   # a plain int or str (not a bool)
            i = self.index.get(v)
            if i is not None:
                return i
        if key not in obj:
            if optional:
                return None
            raise InputError(key, "missing")
        v = obj[key]
        if isinstance(v, bool) or not isinstance(v, (int, str)) or v not in self.index:
            raise InputError(key, f"{v!r} is not a vertex of the graph")
        return self.index[v]


_SHAPES: dict[tuple[Any, ...], tuple[Structure, dict[Hashable, int], list[int], bool]] = {}
_SHAPES_MAX = 64        # graphs whose reading is remembered (a batch on one graph reads it once)
register("shapes", lambda: len(_SHAPES), lambda: _SHAPES.clear())
_NAME_TYPES = frozenset((int, str))
_LIST = frozenset((list,))
_FIRST, _SECOND = operator.itemgetter(0), operator.itemgetter(1)
_INT = frozenset((int,))


def _plain(values: list[Any], lower: int) -> bool:
    """Every value a plain int (not a bool) >= lower: what ``natural`` accepts unchanged."""
    return not values or (set(map(type, values)) <= _INT and min(values) >= lower)


def _shape_key(obj: dict[str, Any], ekey: str, node_weights: bool, width: int,
               flags: tuple[Any, ...]) -> tuple[tuple[Any, ...] | None, tuple[Any, ...]]:
    """(key, the edges' columns): the key is what a graph's reading depends on apart from its
    weights, when every name is a plain int or str (equal keys then mean identical names and
    edges), else None; the columns are the edge lists' entries by position (u, v[, weight])."""
    raw_nodes, raw_edges, raw_loops = obj.get("nodes"), obj.get(ekey, []), obj.get("loops", [])
    if type(raw_edges) is not list or type(raw_loops) is not list:
        return None, ()
    if raw_nodes is None:
        nodes: tuple[Any, ...] | None = None
    elif type(raw_nodes) is not list:
        return None, ()
    elif node_weights:
        if not set(map(type, raw_nodes)) <= _LIST or set(map(len, raw_nodes)) - {2}:
            return None, ()
        nodes = tuple(map(_FIRST, raw_nodes))
    else:
        nodes = tuple(raw_nodes)
    if not raw_edges:
        cols: tuple[Any, ...] = ((),) * width
    elif not set(map(type, raw_edges)) <= _LIST or set(map(len, raw_edges)) != {width}:
        return None, ()
    else:
        cols = tuple(zip(*raw_edges, strict=False))
    names = set(map(type, cols[0]))
    names.update(map(type, cols[1]), map(type, nodes or ()), map(type, raw_loops))
    if not names <= _NAME_TYPES:
        return None, ()
    return (ekey, flags, nodes, cols[0], cols[1], tuple(raw_loops)), cols


def read_graph(obj: dict[str, Any], *, node_weights: bool = False, edge_weights: bool = False,
               directed: bool = False, loops: bool = False, node_lower: int = 0,
               edge_lower: int = 0, nodes_required: bool = True) -> GraphInput:
    """Read ``nodes`` / ``edges`` (or ``arcs``) / ``loops`` with the checks every graph game needs.

    A graph read once is remembered (the last few): positions that differ only in their
    weights are read again without rebuilding the graph, with the same checks on the weights.

    >>> a = read_graph({"nodes": [0, 1], "edges": [[0, 1, 2]]}, edge_weights=True)
    >>> b = read_graph({"nodes": [0, 1], "edges": [[0, 1, 5]]}, edge_weights=True)
    >>> a.structure is b.structure, b.edge_weight
    (True, [5])
    """
    ekey = "arcs" if directed and "arcs" in obj else "edges"
    width = 3 if edge_weights else 2
    key, cols = _shape_key(obj, ekey, node_weights, width,
                           (node_weights, edge_weights, directed, loops, nodes_required))
    hit = _SHAPES.get(key) if key is not None else None
    if hit is not None:             # the same graph: only the weights to read and check
        g, index, order, in_order = hit
        weights: list[int] = []
        if node_weights:
            weights = list(map(_SECOND, obj["nodes"]))
            if not _plain(weights, node_lower):
                weights = [natural(w, f"nodes[{i}][1]", node_lower) for i, w in enumerate(weights)]
        ew: list[int] = []
        if edge_weights:
            raw = obj[ekey]
            ew = list(cols[2]) if in_order else [cols[2][i] for i in order]
            if not _plain(ew, edge_lower):   # checked in input order, as a first reading does
                read = {i: natural(raw[i][2], f"{ekey}[{i}][2]", edge_lower) for i in sorted(order)}
                ew = [read[i] for i in order]
        return GraphInput(g, weights, ew, index, order)
    gi = _read_graph(obj, ekey, node_weights, edge_weights, directed, loops, node_lower,
                     edge_lower, nodes_required)
    if key is not None:
        if len(_SHAPES) >= _SHAPES_MAX:
            del _SHAPES[next(iter(_SHAPES))]
        _SHAPES[key] = (gi.structure, gi.index, gi.order, gi.order == list(range(len(key[3]))))   # key[3]: the edges' first ends
    return gi


def _read_graph(obj: dict[str, Any], ekey: str, node_weights: bool, edge_weights: bool, directed: bool,
                loops: bool, node_lower: int, edge_lower: int, nodes_required: bool) -> GraphInput:
    raw_nodes = obj.get("nodes")
    if raw_nodes is None and nodes_required:
        raise InputError("nodes", "missing")
    names, weights = _read_nodes(raw_nodes, node_weights, node_lower)
    edges = _Edges(ekey, names, raw_nodes is None, directed, loops)
    edges.read(obj.get(ekey, []), edge_weights, edge_lower)
    edges.read_loops(obj.get("loops", []))
    g = Structure.graph(names, edges.pairs, edges.loop_names, directed=directed)
    index = {v: i for i, v in enumerate(names)}
    # edge weights in the structure's edge order: pair j = input edge src[j]
    by_pair = {}
    for j, (u, v) in enumerate(edges.pairs):
        a, b = index[u], index[v]
        by_pair[(a, b) if directed else (min(a, b), max(a, b))] = j
    perm = [by_pair[e] for e in g.edges]
    return GraphInput(g, weights, [edges.weights[j] for j in perm] if edge_weights else [], index,
                      [edges.src[j] for j in perm])


def _read_nodes(raw_nodes: Any, node_weights: bool, node_lower: int) -> tuple[list[Hashable], list[int]]:
    """The listed vertices' names (and weights), each checked."""
    if raw_nodes is not None and not isinstance(raw_nodes, list):
        raise InputError("nodes", "must be a list")
    names: list[Hashable] = []
    weights: list[int] = []
    for i, item in enumerate(raw_nodes or []):
        where = f"nodes[{i}]"
        if node_weights:
            if not (isinstance(item, list) and len(item) == 2):
                raise InputError(where, f"must be [vertex, weight], got {item!r}")
            names.append(_name(item[0], where + "[0]"))
            weights.append(natural(item[1], where + "[1]", node_lower))
        else:
            names.append(_name(item[0] if isinstance(item, list) and len(item) == 1 else item, where))
    if len(set(names)) != len(names):
        dup = next(v for v in names if names.count(v) > 1)
        raise InputError("nodes", f"vertex {dup!r} is listed twice")
    return names, weights


class _Edges:
    """The edges (or arcs) and loops of a graph read from JSON, each checked: the vertex pairs,
    their weights and input indices, the loops; ``names`` grows by vertices met on edges when no
    vertex list was given (``open``)."""

    def __init__(self, ekey: str, names: list[Hashable], open: bool, directed: bool, loops: bool):
        self.ekey, self.names, self.open, self.directed, self.loops = ekey, names, open, directed, loops
        self.known = set(names)
        self.pairs: list[tuple[Hashable, Hashable]] = []
        self.weights: list[int] = []
        self.loop_names: list[Hashable] = []
        self.src: list[int] = []
        self.seen: set[Any] = set()

    def _vertex(self, x: Hashable, where: str) -> None:
        if x in self.known:
            return
        if not self.open:
            raise InputError(where, f"{x!r} is not a listed vertex")
        self.known.add(x)
        self.names.append(x)

    def read(self, raw_edges: Any, edge_weights: bool, edge_lower: int) -> None:
        if not isinstance(raw_edges, list):
            raise InputError(self.ekey, "must be a list")
        width = 3 if edge_weights else 2
        for i, e in enumerate(raw_edges):
            where = f"{self.ekey}[{i}]"
            if not (isinstance(e, list) and len(e) == width):
                raise InputError(where, f"must be [u, v{', weight' if edge_weights else ''}], got {e!r}")
            u, v = _name(e[0], where + "[0]"), _name(e[1], where + "[1]")
            self._vertex(u, where + "[0]")
            self._vertex(v, where + "[1]")
            if u == v:
                if not self.loops:
                    raise InputError(where, f"loop at {u!r}: this game's graphs have no loops")
                self.loop_names.append(u)
                continue
            k = (u, v) if self.directed else frozenset((u, v))
            if k in self.seen:
                raise InputError(where, f"{'arc' if self.directed else 'edge'} {u!r}-{v!r} is given twice")
            self.seen.add(k)
            self.pairs.append((u, v))
            self.src.append(i)
            if edge_weights:
                self.weights.append(natural(e[2], where + "[2]", edge_lower))

    def read_loops(self, raw_loops: Any) -> None:
        if raw_loops and not self.loops:
            raise InputError("loops", "this game's graphs have no loops")
        if not isinstance(raw_loops, list):
            raise InputError("loops", "must be a list of vertices")
        for i, v in enumerate(raw_loops):
            if isinstance(v, bool) or not isinstance(v, (int, str)) or v not in self.known:
                raise InputError(f"loops[{i}]", f"{v!r} is not a listed vertex")
            self.loop_names.append(v)


def write_graph(g: Structure, *, node_weight: dict[int, Any] | None = None,
                edge_weight: dict[int, Any] | None = None, keep_node: Callable[[int], bool] = lambda v: True,
                edges: Sequence[tuple[int, int]] | None = None, loops: Sequence[int] | None = None) -> dict[str, Any]:
    """The JSON fields of a graph position (nodes, edges or arcs, loops)."""
    name = g.names
    keep = [v for v in range(g.n) if keep_node(v)]
    out: dict[str, Any] = {"nodes": [[name[v], node_weight[v]] if node_weight is not None else name[v]
                                     for v in keep]}
    es = g.edges if edges is None else edges
    key = "arcs" if g.directed else "edges"
    if edge_weight is not None:
        out[key] = [[name[u], name[v], edge_weight[i]] for i, (u, v) in enumerate(es)]
    else:
        out[key] = [[name[u], name[v]] for u, v in es]
    lp = sorted(g.loops) if loops is None else loops
    if lp:
        out["loops"] = [name[v] for v in lp]
    return out
