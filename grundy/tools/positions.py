"""Positions as people type them, and positions drawn as text.

A short form is a game name and what the game is played on: heap sizes for a heap game
(``nim 3 5 6``), a graph name or graph6 string for a graph game (``edge-nim K4``,
``grim petersen``), with every weight given at once (``weights=2``) or one per weighted
element in order (``weights="1,2,2"``: vertices in their order, edges sorted with u < v, as
:func:`weight_order` lists them). The game's parameters are ``params`` (``{"code": "0.77"}``;
a code as the first word, ``octal 0.77 5 6``, is the older spelling and still read).

>>> short_position(["nim", "3", "5", "6"])
{'game': 'nim', 'heaps': [3, 5, 6]}
>>> short_position(["octal", "5", "6"], params={"code": "0.77"})
{'game': 'octal', 'code': '0.77', 'heaps': [5, 6]}
>>> short_position(["edge-nim", "P3"], weights="2", token="1")
{'game': 'edge-nim', 'nodes': [0, 1, 2], 'edges': [[0, 1, 2], [1, 2, 2]], 'token': 1}
>>> short_position(["grim", "C4"], misere=True)["convention"]
'misere'
>>> print(draw(read_position({"game": "nim", "heaps": [3, 0, 2]})))
nim, normal play
  heap 1 | ooo 3
  heap 2 |  0
  heap 3 | oo 2
"""
from __future__ import annotations

import functools
import re
import textwrap
from typing import Any

from ..spec.games import GAMES
from ..spec.position import InputError, Position, SumPosition, natural, read_position
from ..spec.structure import Structure
from .graphs import named_graph

__all__ = ["short_position", "graph_position", "draw", "parse_weights", "takes_heaps", "picture_of",
           "code_word", "weight_order", "two_heap_ppositions"]

DRAW_LIMIT = 40     # a heap larger than this is drawn cut, with its size beside it
_CODE_WORD = re.compile(r"[0-9]*\.[0-9]+")


def code_word(words: list[str], params: dict[str, Any] | None = None) -> bool:
    """Whether the first word after a heap game's name is its code, in the older spelling
    (``octal 0.77 5 6``): a word such as ``0.77`` (not a size, not a range ``0..30``) and no
    code given otherwise.

    >>> code_word(["0.77", "5"]), code_word(["0..30"]), code_word(["0.6"], {"code": "0.6"})
    (True, False, False)
    """
    return "code" not in (params or {}) and bool(words) and bool(_CODE_WORD.fullmatch(words[0]))


def _game(name: str):
    if name not in GAMES:
        raise InputError("game", GAMES.unknown(name))
    return GAMES[name]


@functools.lru_cache(maxsize=None)
def takes_heaps(game: str) -> bool:
    """Whether the game's positions are written as ``"heaps"`` (heap games, and games such
    as adjacent-nim that are played on a structure built from heap sizes).

    >>> takes_heaps("nim"), takes_heaps("adjacent-nim"), takes_heaps("grim")
    (True, True, False)
    """
    if _game(game).structure == "heaps":
        return True
    try:
        return "heaps" in read_position({"game": game, "heaps": [1]}).to_json()
    except (InputError, ValueError, KeyError, TypeError):
        return False


def _int(word: str, where: str) -> int:
    try:
        return natural(int(word), where)
    except ValueError:
        raise InputError(where, f"must be a non-negative integer, got {word!r}") from None


def parse_weights(text: str | int | list[int] | None, count: int, where: str = "weights") -> list[int]:
    """One weight for every element (``"2"``), or one each (``"1,2,2"``, ``count`` of them).

    >>> parse_weights("3", 2), parse_weights("1,2", 2), parse_weights(None, 1)
    ([3, 3], [1, 2], [1])
    """
    if text is None:
        return [1] * count
    if isinstance(text, int):
        return [natural(text, where)] * count
    parts = text if isinstance(text, list) else [p for p in str(text).replace(" ", ",").split(",") if p]
    ws = [_int(str(p), f"{where}[{i}]") for i, p in enumerate(parts)]
    if len(ws) == 1:
        return ws * count
    if len(ws) != count:
        raise InputError(where, f"{len(ws)} weights for {count} weighted elements (give one, or {count})")
    return ws


def weight_order(game: str, g: Structure) -> tuple[str, list[str]]:
    """What ``weights`` weigh on ``g`` (``"vertices"``, ``"edges"`` or ``""``: nothing), and
    those elements in the order a list of weights follows: vertices in their order, edges
    sorted (u < v, by u then v).

    >>> weight_order("edge-nim", Structure.graph([0, 1, 2], [(1, 2), (0, 1)]))
    ('edges', ['0-1', '1-2'])
    """
    node_w, edge_w = _weighs(_game(game).fields(g))
    names = g.names
    if node_w:
        return "vertices", [str(names[v]) for v in range(g.n)]
    if edge_w:
        return "edges", [f"{names[u]}-{names[v]}" for u, v in g.edges]
    return "", []


def _weighs(fields: list) -> tuple[bool, bool]:
    """Whether a game's fields weigh the vertices, the edges."""
    return (any(f.over == "vertices" and f.kind == "int" for f in fields),
            any(f.over == "edges" and f.kind == "int" for f in fields))


def graph_position(game: str, g: Structure, *, weights: Any = None, token: Any = None,
                   misere: bool = False, params: dict[str, Any] | None = None) -> dict:
    """The JSON position of a graph game on ``g``: weights on whatever the game weighs (its
    vertex or edge integer field), the token (if the game has one) on ``token`` or vertex 0.

    >>> graph_position("vertexnim", Structure.graph([0, 1], [(0, 1)]), weights="2,3")
    {'game': 'vertexnim', 'nodes': [[0, 2], [1, 3]], 'edges': [[0, 1]], 'token': 0}
    """
    gm = _game(game)
    if takes_heaps(game):
        raise InputError("game", f"{game} is played on heaps, not on a graph")
    fields = gm.fields(g)
    node_w, edge_w = _weighs(fields)
    names = g.names
    out: dict[str, Any] = {"game": game, **(params or {})}
    if node_w:
        ws = parse_weights(weights, g.n)
        out["nodes"] = [[names[v], ws[v]] for v in range(g.n)]
    else:
        out["nodes"] = [names[v] for v in range(g.n)]
    ew = parse_weights(weights, len(g.edges)) if edge_w else None
    pairs = list(g.edges)
    if gm.structure == "digraph":     # an undirected graph given to a digraph game: both arcs
        pairs = [a for u, v in g.edges for a in ((u, v), (v, u))]
    key = "arcs" if gm.structure == "digraph" else "edges"
    out[key] = [[names[u], names[v], ew[i]] if ew else [names[u], names[v]] for i, (u, v) in
                enumerate(g.edges if ew else pairs)]
    if weights is not None and not (node_w or edge_w):
        raise InputError("weights", f"{game} has no weights")
    if any(f.kind == "vertex" for f in fields):
        t = token if token is not None else names[0] if names else 0
        out["token"] = int(t) if isinstance(t, str) and t.isdigit() else t
    elif token is not None:
        raise InputError("token", f"{game} has no token")
    if misere:
        out["convention"] = "misere"
    return out


def short_position(words: list[str], *, weights: Any = None, token: Any = None,
                   misere: bool = False, params: dict[str, Any] | None = None) -> dict:
    """The JSON position a short form stands for (InputError naming the word at fault), with
    the game's parameters ``params`` (``{"code": "0.77"}``, ``{"set": [1, 3, 4]}``)."""
    if not words:
        raise InputError("position", "missing: give a game and its heaps or graph, e.g. nim 3 5 6")
    gm = _game(words[0])
    rest = words[1:]
    if not takes_heaps(gm.name):
        if len(rest) != 1:
            raise InputError("graph", f"{gm.name} is played on a graph: give one graph name or graph6 "
                                      f"string, e.g. {gm.name} petersen")
        return graph_position(gm.name, named_graph(rest[0]), weights=weights, token=token, misere=misere,
                              params=params)
    if weights is not None or token is not None:
        raise InputError("weights" if weights is not None else "token", f"{gm.name} is a heap game")
    out: dict[str, Any] = {"game": gm.name, **(params or {})}
    if code_word(rest, params):
        out["code"], rest = rest[0], rest[1:]
    if gm.name == "octal" and "code" not in out:
        raise InputError("code", "missing: the octal code, e.g. --code 0.77 (params={'code': '0.77'} "
                                 "in Python)")
    out["heaps"] = [_int(w, f"heaps[{i}]") for i, w in enumerate(rest)]
    if misere:
        out["convention"] = "misere"
    return out


def _heap_bar(h: int) -> str:
    return "o" * h if h <= DRAW_LIMIT else "o" * DRAW_LIMIT + "..."


def draw(pos: "Position | SumPosition", width: int = 78) -> str:
    """The position in text: heaps as rows of tokens (counted from 1, as the papers count),
    a graph as its vertices, edges (with weights) and token; a sum, each part under its game
    (parts counted from 0, as its moves and a claim's ``s[i]`` count them).

    >>> print(draw(read_position({"game": "sum", "parts": [{"game": "nim", "heaps": [2]},
    ...                                                    {"game": "grim", "edges": [[0, 1]]}]})))
    sum of 2 positions, normal play
      part 0: nim
        heap 1 | oo 2
      part 1: grim
        vertices: 0, 1
        edges (u-v): 0-1
    """
    play = f"{'misère' if pos.convention == 'misere' else 'normal'} play"
    if isinstance(pos, SumPosition):
        lines = [f"sum of {len(pos.parts)} positions, {play}"]
        for i, part in enumerate(pos.parts):
            head, *body = draw(part, width - 2).splitlines()
            lines.append(f"  part {i}: {head.rsplit(', normal play', 1)[0]}")   # as moves name parts
            lines += ["  " + b for b in body]
        return "\n".join(lines)
    obj = pos.to_json()
    lines = [f"{pos.game.name}, {play}"]
    if "code" in obj:
        lines[0] += f", code {obj['code']}"
    if "heaps" in obj:
        w = len(str(len(obj["heaps"])))
        for i, h in enumerate(obj["heaps"]):
            lines.append(f"  heap {i + 1:<{w}} | {_heap_bar(h)} {h}")
        return "\n".join(lines)
    wrap = lambda head, items: textwrap.wrap(head + ", ".join(items), width,            # noqa: E731
                                             initial_indent="  ", subsequent_indent=" " * (len(head) + 2))
    nodes = obj.get("nodes")
    if nodes and isinstance(nodes[0], list):
        lines += wrap("vertex weights: ", [f"{v}:{w}" for v, w in nodes])
    elif nodes:
        lines += wrap("vertices: ", [str(v) for v in nodes])
    for key, sep in (("edges", "-"), ("arcs", "->")):
        if key in obj:
            items = [f"{e[0]}{sep}{e[1]}" + (f":{e[2]}" if len(e) == 3 else "") for e in obj[key]]
            lines += wrap(f"{key} ({'u' + sep + 'v:weight' if obj[key] and len(obj[key][0]) == 3 else 'u' + sep + 'v'}): ",
                          items or ["none"])
    if obj.get("loops"):
        lines += wrap("loops at: ", [str(v) for v in obj["loops"]])
    if "token" in obj:
        lines.append(f"  token at {obj['token']}")
    for k, v in obj.items():
        if k not in ("game", "nodes", "edges", "arcs", "loops", "token", "code", "convention"):
            lines.append(f"  {k}: {v}")
    return "\n".join(lines)


def picture_of(position: dict[str, Any]) -> tuple[str, Any]:
    """What to draw for a JSON position, as its game asks (:meth:`~grundy.spec.Game.picture`):
    ``("bars", heights)`` or ``("graph", position)``; a position written as heaps alone is drawn
    as heaps even on a graph game (a circuit of heaps, say). The one choice behind both pictures:
    a report's (:mod:`grundy.tools.pictures`, matplotlib) and a notebook's (:mod:`grundy.tools.display`).

    >>> picture_of({"game": "nim", "heaps": [3, 1]})
    ('bars', [3, 1])
    >>> picture_of({"game": "grim", "edges": [[0, 1]]})[0]
    'graph'
    """
    written_as_heaps = "heaps" in position and not ({"nodes", "edges", "arcs"} & set(position))
    try:
        kind, data = GAMES[position["game"]].picture(position)
    except (KeyError, ImportError, AttributeError):
        kind, data = ("bars", position["heaps"]) if "heaps" in position else ("graph", position)
    if kind == "graph" and written_as_heaps:
        return "bars", list(position["heaps"])
    return kind, data


def two_heap_ppositions(position: dict[str, Any], most: int = 24) -> tuple[int, list[tuple[int, int]]] | None:
    """The P-positions (i, j), 0 <= i, j <= n, of the two-heap game around ``position`` (the
    other fields kept), with n = max(heaps) + 4 up to ``most``; None when the position lies
    beyond. The grid both drawings of a two-heap position show (matplotlib's and TikZ's)."""
    from ..solvers.solver import DEFAULT
    a, b = position["heaps"]
    n = min(max(a, b) + 4, most)
    if a > n or b > n:
        return None
    return n, [(i, j) for i in range(n + 1) for j in range(n + 1)
               if DEFAULT.outcome(read_position(dict(position, heaps=[i, j]))) == "P"]
