"""Families of trees: every free tree (``trees``) and every rooted tree (``rooted_trees``) on n
vertices up to isomorphism, from nauty's ``gentreeg`` where it is installed (free trees), else
from a generator here; the same trees either way (tests/test_families_more.py).

A rooted tree's root is vertex 0. Rooted trees come from their canonical level sequences (Beyer and
Hedetniemi, "Constant time generation of rooted trees", SIAM J. Comput. 9 (1980)), each one once.

>>> [len(trees(n)) for n in range(1, 11)]            # OEIS A000055
[1, 1, 1, 2, 3, 6, 11, 23, 47, 106]
>>> [len(rooted_trees(n)) for n in range(1, 11)]     # OEIS A000081
[1, 1, 2, 4, 9, 20, 48, 115, 286, 719]
"""
from __future__ import annotations

import shutil
import subprocess
from typing import Any, Iterator

import networkx as nx

from ...spec.structure import Structure
from .base import Family, Item
from .builders import from6

__all__ = ["trees", "rooted_trees", "level_sequences", "gentreeg_program", "free_trees_generated"]


def gentreeg_program() -> str | None:
    """The path of nauty's gentreeg, if installed."""
    return shutil.which("gentreeg") or shutil.which("nauty-gentreeg")


def level_sequences(n: int) -> Iterator[list[int]]:
    """The canonical level sequences of the rooted trees on ``n`` vertices (root at level 0), in
    reverse lexicographic order, each tree once.

    >>> list(level_sequences(4))
    [[0, 1, 2, 3], [0, 1, 2, 2], [0, 1, 2, 1], [0, 1, 1, 1]]
    """
    if n <= 0:
        return
    levels = list(range(n))
    while True:
        yield list(levels)
        p = max((i for i in range(n) if levels[i] > 1), default=None)
        if p is None:
            return
        q = max(i for i in range(p) if levels[i] == levels[p] - 1)
        for i in range(p, n):
            levels[i] = levels[i - (p - q)]


def _rooted_edges(levels: list[int]) -> list[tuple[int, int]]:
    edges, last = [], {0: 0}
    for i in range(1, len(levels)):
        edges.append((last[levels[i] - 1], i))
        last[levels[i]] = i
    return edges


def rooted_trees(*ns: int | range) -> Family:
    """Every rooted tree on n vertices up to isomorphism (root: vertex 0), for each n given."""
    items: list[Item] = []
    for n in _sizes(ns):
        for k, levels in enumerate(level_sequences(n), 1):
            items.append((f"RT{n}.{k}", Structure.graph(range(n), _rooted_edges(levels))))
    return Family(items, noun="rooted trees")


def free_trees_generated(n: int) -> list[nx.Graph]:
    """Every free tree on n vertices up to isomorphism, from networkx's generator (WROM)."""
    if n == 1:
        g: nx.Graph = nx.Graph()
        g.add_node(0)
        return [g]
    made: Any = nx.nonisomorphic_trees(n)
    return list(made) if n >= 2 else []


def _free_trees_gentreeg(program: str, n: int) -> list[nx.Graph]:
    out = subprocess.run([program, "-q", str(n)], capture_output=True, check=True).stdout
    graphs = []
    for line in out.splitlines():
        line = line.strip()
        if line:
            graphs.append(from6(line))
    return graphs


def trees(*ns: int | range, use_gentreeg: bool | None = None) -> Family:
    """Every free tree on n vertices up to isomorphism, for each n given (gentreeg where installed,
    else networkx's generator; ``use_gentreeg`` forces one)."""
    program = gentreeg_program()
    if use_gentreeg and program is None:
        raise FileNotFoundError("gentreeg (nauty) is not installed")
    use = program is not None if use_gentreeg is None else use_gentreeg
    items: list[Item] = []
    for n in _sizes(ns):
        made = _free_trees_gentreeg(program, n) if use and program and n >= 2 else free_trees_generated(n)
        for k, g in enumerate(made, 1):
            g = nx.convert_node_labels_to_integers(g, ordering="sorted")
            items.append((f"T{n}.{k}", Structure.graph(range(g.number_of_nodes()), g.edges)))
    return Family(items, noun="trees")


def _sizes(ns: tuple) -> list[int]:
    out: list[int] = []
    for n in ns:
        out.extend(n if isinstance(n, range) else [n])
    return out
