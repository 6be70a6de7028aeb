"""One vocabulary for what a game is played with, on every command that takes a game
(``solve``, ``values``, ``table``, ``plot``, ``play``): ``--code``, ``--set``, ``--param``,
``--weights``, ``--token`` and ``--misere``, added by :func:`add_game_options` and read by
:func:`game_params`.

A list option (``--set``, ``--weights``) takes its items separated by commas, by spaces, or
both: ``--set 1,3,4``, ``--set 1 3 4`` and ``--set "1 3 4"`` are the same. Written as words
apart, the list ends at the first word that is not a number (``--set 1 3 4 0..30``: the range
is not part of the set); written as one word (``--set 1,3,4 7``) it is that word alone.

>>> spread_lists(["table", "subtraction", "--set", "1", "3", "4", "0..30"])
['table', 'subtraction', '--set=1,3,4', '0..30']
>>> spread_lists(["values", "subtraction", "--set", "1,3,4", "20"])
['values', 'subtraction', '--set=1,3,4', '20']
>>> int_list("1, 3 4", "set")
[1, 3, 4]
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Any

from ..spec.position import InputError
from ..tools.positions import code_word

__all__ = ["add_game_options", "game_params", "spread_lists", "int_list", "legacy_code", "LIST_OPTIONS"]

LIST_OPTIONS = ("--set", "--weights")
_NUMBERS = re.compile(r"[0-9]+(?:[ ,]+[0-9]+)*[ ,]*")


def spread_lists(argv: list[str]) -> list[str]:
    """The arguments with every list option's items gathered into one word (``--set=1,3,4``):
    the words after ``--set``/``--weights`` are its items while they are numbers."""
    out: list[str] = []
    i = 0
    while i < len(argv):
        word = argv[i]
        if word == "--":                       # the rest are positionals, as argparse reads them
            return out + argv[i:]
        if word in LIST_OPTIONS:
            items = []
            while i + 1 < len(argv) and _NUMBERS.fullmatch(argv[i + 1]):
                items.append(argv[i + 1])
                i += 1
                if "," in items[0] or " " in items[0]:    # the whole list in one word
                    break
            if items:
                word = f"{word}={','.join(items)}"
        out.append(word)
        i += 1
    return out


def int_list(text: str, where: str) -> list[int]:
    """Integers separated by commas and/or spaces (braces or brackets around them allowed)."""
    parts = [p for p in re.split(r"[\s,]+", text.strip().strip("{}[]()")) if p]
    if not parts:
        raise InputError(where, "give one or more integers, e.g. 1,3,4")
    out = []
    for i, p in enumerate(parts):
        if not p.isdigit():
            raise InputError(f"{where}[{i}]", f"must be a non-negative integer, got {p!r}")
        out.append(int(p))
    return out


def add_game_options(p: argparse.ArgumentParser, *, misere: bool = True) -> None:
    """Add the game's parameters to a command (the options it already has are kept)."""
    have = p._option_string_actions

    def add(name: str, **kw: Any) -> None:
        if name not in have:
            p.add_argument(name, **kw)

    add("--code", metavar="CODE", help="the game's code: octal 0.6 or 4.07 (octal), or any game "
                                       "whose JSON has a \"code\"")
    add("--set", metavar="S", help="the subtraction set, e.g. --set 1,3,4 or --set 1 3 4 (subtraction)")
    add("--param", action="append", metavar="KEY=JSON",
        help="any other parameter of the game, as in its JSON (repeatable)")
    add("--weights", metavar="W", help="graph games: one weight W for all, or one per weighted vertex "
        "or edge, in the order grundy solve --show-edges prints (edges sorted, u < v): W1,W2,... or W1 W2 ...; default 1")
    add("--token", metavar="V", help="graph games with a token: its vertex (default: the first)")
    if misere:
        add("--misere", action="store_true", help="misère play (the last mover loses)")


def game_params(args: argparse.Namespace) -> dict[str, Any]:
    """The parameters given as options, as JSON fields: ``{"code": ..., "set": [...], ...}``."""
    out: dict[str, Any] = {}
    for kv in getattr(args, "param", None) or []:
        key, eq, val = kv.partition("=")
        if not eq or not key:
            raise InputError("param", f"{kv!r}: write KEY=VALUE, e.g. --param rounds=3")
        try:
            out[key] = json.loads(val)
        except json.JSONDecodeError:
            out[key] = val
    code = getattr(args, "code", None)
    if code is not None:
        out["code"] = code
    given = getattr(args, "set", None)
    if given is not None:
        out["set"] = given if isinstance(given, list) else int_list(given, "set")
    return out


def legacy_code(game: str, words: list[str], params: dict[str, Any]) -> list[str]:
    """The older spelling ``octal 0.6 5 6`` (a code as the first word after the game, see
    :func:`~grundy.tools.positions.code_word`): the code is moved into ``params`` with a note on
    stderr, and the words left are returned. Unchanged when ``--code`` is given or the word is
    not a code (``0..30`` is a range, ``7`` a size)."""
    if not code_word(words, params):
        return words
    print(f"grundy: note: a code as a word ({game} {words[0]} ...) is the older spelling; "
          f"write --code {words[0]}", file=sys.stderr)
    params["code"] = words[0]
    return words[1:]
