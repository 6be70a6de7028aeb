"""The compiled ``components`` (grundy/solvers/explicit/compile.py: components grown as bit sets)
against a plain reading of what it must give: the present elements split by the links between
present elements, one state per component (its own elements' slots kept, every other element's
slots emptied), ordered by their first element; None for one component or none."""
from __future__ import annotations

import random

import pytest

from grundy.solvers.explicit.compile import PythonSyntax, _components, compile_expr
from grundy.spec import Structure
from grundy.spec.games import GAMES


def plain(rules, s):
    if not compile_expr(rules, rules.decomposable)(s):
        return None
    present = [bool(compile_expr(rules, p)(s)) for p in rules.present]
    seen: set[int] = set()
    parts = []
    for x in range(len(present)):
        if present[x] and x not in seen:
            comp, todo = {x}, [x]
            while todo:
                y = todo.pop()
                for a, b in rules.links:
                    for u, v in ((a, b), (b, a)):
                        if u == y and present[v] and v not in comp:
                            comp.add(v)
                            todo.append(v)
            seen |= comp
            parts.append(comp)
    if len(parts) <= 1:
        return None
    sch = rules.schema
    out = []
    for comp in parts:
        t = list(s)
        for x, slots in enumerate(rules.element_slots):
            if x not in comp:
                for slot in slots:
                    t[slot] = sch.fields[sch.slots[slot][0]].empty
        out.append(tuple(t))
    return out


def _graphs(rnd):
    yield Structure.graph(range(8), [(i, i + 1) for i in range(7)])                 # a path
    yield Structure.graph(range(6), [(0, 1), (1, 2), (2, 0), (3, 4)])               # a triangle, an edge, a lone vertex
    for _ in range(5):
        n = rnd.randint(2, 8)
        yield Structure.graph(range(n), [(a, b) for a in range(n) for b in range(a + 1, n) if rnd.random() < 0.35])


@pytest.mark.parametrize("game", ["grim", "weighted-grim", "edge-delete", "mig"])
def test_components_equal_the_plain_reading(game):
    rnd = random.Random(game)
    split = 0
    for g in _graphs(rnd):
        rules = GAMES[game].rules(g)
        comps = _components(rules, {**PythonSyntax.RUNTIME, "range": range})
        for _ in range(300):
            s = tuple(rnd.randint(0, 1) if d is None else rnd.randint(d[0], d[0] + 2) for d in rules.slot_domains)
            want = plain(rules, s)
            assert comps(s) == want, (game, g, s)
            split += want is not None
    assert split > 100                # positions that do split were met
