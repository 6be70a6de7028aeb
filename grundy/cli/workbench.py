"""The workbench's commands (``grundy games``, ``table``, ``plot``, ``play``) and what ``solve``
shares with them: positions from the command line, the solve table's rows, one game's page."""
from __future__ import annotations

import argparse
import json
import os
import sys
import textwrap
from typing import Any, Iterator

from ..errors import GrundyError, user_line
from ..spec.games import GAMES
from ..spec.position import InputError, read_position
from ..spec.reader import positions_from_text
from ..tools.graphs import FAMILIES, GRAPH_NAMES
from ..tools.positions import graph_position, short_position, takes_heaps, weight_order
from ..tools.table import parse_range
from .params import add_game_options, game_params, legacy_code

__all__ = ["add_commands", "add_position_options", "read_positions", "solve_row", "show_game"]

POSITION_HELP = ("a position: a short form (nim 3 5 6; octal --code 0.77 5 6; edge-nim K4; grim petersen), "
                 "inline JSON, a JSON file (one position, a list, or JSON lines) or - for stdin")


def _fail(msg: str) -> int:
    print(f"grundy: {msg}", file=sys.stderr)
    return 2


def add_position_options(p: argparse.ArgumentParser) -> None:
    """The game's parameters (--code, --set, --param), --weights, --token, --misere: what a short
    form needs, and misère play (the one vocabulary of :mod:`.params`)."""
    add_game_options(p)


def short_params(words: list[str], args: argparse.Namespace) -> tuple[list[str], dict[str, Any]]:
    """The words of a short form after its game's name, and the game's parameters: the options,
    or a code written as the first word (the older spelling, noted on stderr)."""
    params = game_params(args)
    return legacy_code(words[0], words[1:], params), params


def read_positions(words: list[str], args: argparse.Namespace) -> Iterator[tuple[int, Any, str | None]]:
    """(index, JSON object, error) for the positions the words give (see POSITION_HELP).
    Raises InputError for a short form that does not parse, OSError for an unreadable file."""
    first = words[0]
    misere = getattr(args, "misere", False)
    if first in GAMES:
        rest, params = short_params(words, args)
        yield 0, short_position([first, *rest], weights=args.weights, token=args.token, misere=misere,
                                params=params), None
        return
    for opt in ("weights", "token", "code", "set", "param"):
        if getattr(args, opt, None) is not None:
            raise InputError(opt, f"only a short form (GAME HEAPS or GAME GRAPH) takes --{opt}; "
                                  f"JSON positions carry their own fields")
    if first.lstrip().startswith(("{", "[")):
        text = " ".join(words)
    elif len(words) > 1:
        raise InputError("game", GAMES.unknown(first))
    elif first == "-":
        text = sys.stdin.read()
    elif not os.path.exists(first) and os.sep not in first and not first.endswith((".json", ".jsonl")):
        raise InputError("game", f"{first!r} is neither a game (one of: {', '.join(sorted(GAMES))}) "
                                 f"nor a file")
    else:
        with open(first, encoding="utf-8") as f:
            text = f.read()
    if not misere:
        yield from positions_from_text(text)
        return
    for i, obj, err in positions_from_text(text):
        if isinstance(obj, dict):
            obj = {**obj, "convention": "misere"}
        yield i, obj, err


def wrap_json(obj: Any, width: int) -> list[str]:
    """JSON text in lines of at most ``width`` characters where it can, broken only between
    the items of a list or object at the outer two levels (an edge [0, 1, 2] stays whole).

    >>> wrap_json({"edges": [[0, 1, 2], [1, 2, 3]], "token": 0}, 24)
    ['{"edges": [[0, 1, 2],', '[1, 2, 3]], "token": 0}']
    """
    text = json.dumps(obj)
    chunks, depth, start, in_str = [], 0, 0, False
    for j, ch in enumerate(text):
        if ch == '"' and (j == 0 or text[j - 1] != "\\"):
            in_str = not in_str
        elif not in_str and ch in "[{":
            depth += 1
        elif not in_str and ch in "]}":
            depth -= 1
        elif not in_str and ch == " " and depth <= 2 and text[j - 1] == ",":
            chunks.append(text[start:j])
            start = j + 1
    chunks.append(text[start:])
    lines = [chunks[0]]
    for c in chunks[1:]:
        if len(lines[-1]) + 1 + len(c) <= width:
            lines[-1] += " " + c
        else:
            lines.append(c)
    return lines


def solve_row(i: int, obj: dict, value: str, outcome: str, value_width: int = 6, width: int = 60) -> str:
    """One row of ``grundy solve``'s table: the whole position, wrapped (never cut)."""
    parts = wrap_json({k: v for k, v in obj.items() if k != "game"}, width)
    name = str(obj.get("game", ""))
    first = f"{i + 1:>3}  {name:<14} {parts[0]:<{width}} {value:>{value_width}}  {outcome}"
    return "\n".join([first] + [f"{'':>3}  {'':<14} {p}" for p in parts[1:]])


def weight_list(i: int, pos: Any) -> str:
    """``--show-edges``: the elements a list of weights follows, in order, with their weights."""
    what, names = weight_order(pos.game.name, pos.structure)
    g = pos.structure
    if g.kind not in ("graph", "digraph"):
        return f"{i + 1:>3}  {pos.game.name}: played on {g.kind}, no weights"
    if not what:
        return (f"{i + 1:>3}  {pos.game.name}: no weights; its edges: "
                + (", ".join(f"{g.names[u]}-{g.names[v]}" for u, v in g.edges) or "none"))
    obj = pos.to_json()
    ws = [n[1] for n in obj.get("nodes", [])] if what == "vertices" else [e[2] for e in obj.get("edges", [])]
    lines = [f"{i + 1:>3}  {pos.game.name}: --weights W1,W2,... follow the {what} in this order"
             + (" (sorted, u < v)" if what == "edges" and g.kind == "graph" else
                " (sorted)" if what == "edges" else "") + ":"]
    lines += [f"{'':>5}{k + 1:>3}. {nm:<10} weight {w}" for k, (nm, w) in enumerate(zip(names, ws, strict=False))]
    return "\n".join(lines)


# ------------------------------------------------------------------ grundy games GAME

FIELD_TEXT = {
    "heaps": "list of heap sizes (integers >= 0), heap 1 first",
    "code": "the octal code, a string such as \"0.77\" (Kayles) or \"0.07\" (Dawson's Kayles)",
    "set": "the subtraction set, a list of positive integers such as [1, 3, 4]",
    "nodes": "list of vertices: a name, or [name, weight] where the game weighs vertices",
    "edges": "list of edges [u, v], or [u, v, weight] where the game weighs edges",
    "arcs": "list of arcs [u, v] (directed); \"edges\" are read as arcs too",
    "loops": "list of vertices with a loop",
    "token": "the vertex the token is on",
    "active": "the active edge [u, v] (optional: none, the mover chooses)",
    "convention": "\"normal\" (the default: the last mover wins) or \"misere\"",
}


def example_position(name: str) -> dict:
    """A small legal position of the game, for its page."""
    gm = GAMES[name]
    if takes_heaps(name):
        n = getattr(gm, "heap_count", None) or 3
        obj: dict[str, Any] = {"game": name, "heaps": [3, 5, 6, 7][:n] if n > 1 else [7]}
        for extra in ({}, {"code": "0.77"}, {"set": [1, 3, 4]}):    # parameters a heap game may need
            for heaps in (obj["heaps"], [2, 5, 7][:n], [3, 4, 6][:n]):   # distinct or ordered heaps
                try:
                    read_position({**obj, **extra, "heaps": heaps})
                    return {**obj, **extra, "heaps": heaps}
                except InputError:
                    continue
        return obj
    from ..tools.graphs import named_graph
    for g, w in (("P3", "2"), ("C4", "2"), ("P3", None), ("K3", None)):
        try:
            obj = graph_position(name, named_graph(g), weights=w)
            read_position(obj)
            return obj
        except InputError:
            continue
    return {"game": name}


OPTION_TEXT = {
    "code": "--code CODE       the code, e.g. --code 0.77",
    "set": "--set S1,S2,...   the subtraction set, e.g. --set 1,3,4 (or --set 1 3 4)",
}


def option_lines(name: str, ex: dict[str, Any]) -> list[str]:
    """The options ``grundy games GAME`` lists for the game: its parameters, then what a graph
    game's short form takes (weights in the order they follow), then misère play."""
    from ..tools.graphs import named_graph
    lines = []
    for k in ex:
        if k in ("game", "heaps", "nodes", "edges", "arcs", "loops", "token", "active", "convention"):
            continue
        lines.append(OPTION_TEXT.get(k, f"--param {k}=JSON  its \"{k}\", as in the JSON"))
    if not takes_heaps(name):
        what, order = weight_order(name, named_graph("C4"))
        if what == "edges":
            lines.append("--weights W       one weight per edge, or W1,W2,... in the sorted edge order "
                         f"(on C4: {', '.join(order)}; --show-edges prints it)")
        elif what == "vertices":
            lines.append("--weights W       one weight per vertex, or W1,W2,... in vertex order "
                         "(--show-edges prints it)")
        if any(f.kind == "vertex" for f in GAMES[name].fields(named_graph("C4"))):
            lines.append("--token V         the token's vertex (default: the first)")
    lines.append("--misere          misère play (the last mover loses)")
    return lines


def show_game(name: str) -> int:
    """``grundy games GAME``: the rules, the JSON fields, an example position and its value."""
    from ..api import solve
    if name not in GAMES:
        return _fail(f"game: {GAMES.unknown(name)}")
    gm = GAMES[name]
    print(f"{name}  [{gm.structure}; {gm.convention} play]")
    print(textwrap.fill(gm.summary, 88, initial_indent="    ", subsequent_indent="    "))
    where = GAMES.origin(name)
    if where == "built-in":
        where = f"grundy/spec/games/{type(gm).__module__.rsplit('.', 1)[-1]}.py"
    print(f"\nRule ({where}):")
    print(textwrap.indent(textwrap.dedent(gm.source()).rstrip(), "    "))
    ex = example_position(name)
    keys = [k for k in ex if k != "game"]
    if not takes_heaps(name) and "nodes" not in keys:
        keys.insert(0, "nodes")
    print("\nJSON fields:")
    print(f"    {'game':<11} \"{name}\"")
    for k in keys + ["convention"]:
        print(f"    {k:<11} {FIELD_TEXT.get(k, '')}")
    print("\nOn the command line (grundy solve, table, plot, play, values):")
    for line in option_lines(name, ex):
        print("    " + line)
    print("\nExample:")
    print("    " + json.dumps(ex))
    try:
        r = solve(ex)
        print(f"    grundy {r['grundy']}, outcome {r['outcome']}")
    except GrundyError as e:
        print(f"    ({e})")
    except Exception as e:               # a bug in a user's game: its line, and the page goes on
        print(f"    ({type(e).__name__}: {e}{user_line(e)})")
    params = {k: v for k, v in ex.items() if k not in ("game", "heaps", "nodes", "edges", "arcs", "token",
                                                        "loops", "active", "convention")}
    words = ["grundy solve", name] + ([str(h) for h in ex.get("heaps", [])] if "heaps" in ex else [])
    words += [f"--{k} {','.join(map(str, v)) if isinstance(v, list) else v}" if k in OPTION_TEXT else
              f"--param {k}={json.dumps(v)}" for k, v in params.items()]
    if not takes_heaps(name):
        words.append("P3  (or " + GRAPH_NAMES + ", a graph6 string; --weights, --token)")
    else:
        try:
            read_position(short_position([name, *map(str, ex.get("heaps", []))], params=params))
        except GrundyError:                    # parameters the short form does not carry: JSON
            words = ["grundy solve", "'" + json.dumps(ex) + "'"]
    print("    " + " ".join(words))
    return 0


# ------------------------------------------------------------------ grundy table / plot

def _table_args(args: argparse.Namespace) -> tuple[list[Any], dict[str, Any]]:
    """The axes and keyword arguments of tools.table.table from the command line."""
    kw: dict[str, Any] = {"misere": args.misere}
    gm = GAMES.get(args.game)
    if gm is None:
        raise InputError("game", GAMES.unknown(args.game))
    kw["params"] = params = game_params(args)
    words = legacy_code(args.game, list(args.spec), params)
    if not takes_heaps(args.game):
        if not words or words[0] not in FAMILIES:
            raise InputError("family", f"{args.game} is played on graphs: give a family "
                                       f"({', '.join(FAMILIES)}) and a range, e.g. paths 1..12")
        kw["family"] = words.pop(0)
        kw["weights"], kw["token"] = args.weights, args.token
    elif args.weights is not None or args.token is not None:
        raise InputError("weights", f"{args.game} is a heap game: no weights or token")
    if not words:
        raise InputError("range", "give a range of sizes, like 0..20")
    return [parse_range(w, f"range {i + 1}") for i, w in enumerate(words)], kw


def cmd_table(args: argparse.Namespace) -> int:
    from ..tools.table import table
    try:
        axes, kw = _table_args(args)
        t = table(args.game, *axes, outcome=args.outcome, **kw)
        if args.shade and not args.latex:
            raise InputError("shade", "--shade shades the P-positions of a --latex table")
        out = (t.bfile() if args.bfile else t.to_csv() if args.csv else t.to_json_lines() if args.json
               else t.to_latex(shade=args.shade) + "\n" if args.latex else str(t) + "\n")
    except GrundyError as e:
        return _fail(str(e))
    for line in out.splitlines():         # line by line: a reader that stops early is noticed at once
        print(line)
    return 0


def cmd_plot(args: argparse.Namespace) -> int:
    from ..tools.plot import plot_ppositions, plot_values
    try:
        axes, kw = _table_args(args)
        if "family" in kw:
            raise InputError("family", "plots are of heap games")
        varying = sum(1 for a in axes if isinstance(a, range))
        fmt = args.format
        path = args.output or f"{args.game}.{'tex' if fmt == 'tikz' else fmt or 'png'}"
        if varying == 2:
            plot_ppositions(args.game, *axes, values=args.values, params=kw["params"], misere=args.misere, path=path,
                            fmt=fmt)
        elif varying == 1:
            if args.misere:
                raise InputError("misere", "a values plot is of Grundy values (normal play)")
            plot_values(args.game, *axes, params=kw["params"], path=path, fmt=fmt)
        else:
            raise InputError("range", "give one range (values) or two (P-positions), like 0..30")
    except GrundyError as e:
        return _fail(str(e))
    print(f"wrote {path}")
    return 0


def cmd_play(args: argparse.Namespace) -> int:
    from ..tools.play import play_in_terminal
    try:
        items = list(read_positions(args.position, args))
        if len(items) != 1:
            raise InputError("position", f"give one position to play, got {len(items)}")
        _, obj, err = items[0]
        if err is not None:
            raise InputError("position", err)
        pos = read_position(obj)
    except OSError as e:
        return _fail(f"cannot read {args.position[0]}: {e.strerror}")
    except GrundyError as e:
        return _fail(str(e))
    return play_in_terminal(pos)


def add_commands(sub: Any) -> None:
    """Register ``table``, ``plot`` and ``play`` on the ``grundy`` command's subparsers."""
    t = sub.add_parser("table", help="Grundy values or outcomes over ranges of heap sizes or a graph family",
                       description="grundy table nim 0..10 0..10 | grundy table octal --code 0.07 0..100 --bfile | "
                                   "grundy table subtraction --set 1,3,4 0..30 | "
                                   "grundy table grim paths 1..12 | grundy table edge-nim cycles 3..9 --weights 2")
    t.add_argument("game")
    t.add_argument("spec", nargs="+", metavar="SIZE|RANGE",
                   help="heap games: one size (held fixed) or range (A..B) per heap, one or two ranges; "
                        "graph games: a family (" + ", ".join(FAMILIES) + ") and a range of n")
    t.add_argument("--outcome", action="store_true", help="outcomes (N/P) instead of Grundy values")
    fmt = t.add_mutually_exclusive_group()
    fmt.add_argument("--csv", action="store_true", help="CSV: one row per cell")
    fmt.add_argument("--json", action="store_true", help="JSON lines: one object per cell, with its position")
    fmt.add_argument("--bfile", action="store_true", help="an OEIS b-file: lines \"n a(n)\" (one range)")
    fmt.add_argument("--latex", action="store_true", help="a LaTeX tabular (booktabs) to \\input in a paper")
    t.add_argument("--shade", action="store_true",
                   help="--latex: shade the P-positions' cells (needs \\usepackage[table]{xcolor})")
    add_position_options(t)
    t.set_defaults(run=cmd_table)
    p = sub.add_parser("plot", help="picture of a two-heap game's P-positions, or a one-heap game's values",
                       description="grundy plot wythoff 0..40 0..40 -o wythoff.svg | "
                                   "grundy plot octal --code 0.07 0..200")
    p.add_argument("game")
    p.add_argument("spec", nargs="+", metavar="SIZE|RANGE",
                   help="two ranges: P-positions (or --values); one range: the values with their period")
    p.add_argument("-o", "--output", metavar="FILE",
                   help="a .png, .svg or .pdf file, or .tex for TikZ (default GAME.png, or GAME.tex with --format tikz)")
    p.add_argument("--format", choices=("png", "svg", "pdf", "tikz"),
                   help="the picture's format (default: the file's suffix); tikz: a tikzpicture to \\input in a "
                        "paper (needs no matplotlib)")
    p.add_argument("--values", action="store_true", help="two ranges: Grundy values as colours")
    p.add_argument("--misere", action="store_true", help="misère play's P-positions")
    add_position_options(p)
    p.set_defaults(run=cmd_plot)
    q = sub.add_parser("play", help="play a position in the terminal: every option with its value, "
                                    "grundy's replies, undo")
    q.add_argument("position", nargs="+", metavar="POSITION", help=POSITION_HELP)
    add_position_options(q)
    q.set_defaults(run=cmd_play)


def cmd_games(args: argparse.Namespace) -> int:
    if args.game:
        return show_game(args.game)
    for name in sorted(GAMES):
        g = GAMES[name]
        where = GAMES.origin(name)
        print(f"{name}  [{g.structure}; {g.convention} play{'' if where == 'built-in' else '; ' + where}]"
              f"\n    {g.summary}")
        if args.rules:
            print("    " + g.source().replace("\n", "\n    "))
    for problem in GAMES.problems:
        print(f"grundy: {problem}", file=sys.stderr)
    return 2 if GAMES.problems else 0
