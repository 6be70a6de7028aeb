"""A library two processes need at once is compiled once (``build._building``: a lock per
library in ``$GRUNDY_CACHE/locks``); the graph families' structures made without copying graphs."""
from __future__ import annotations

import multiprocessing as mp
import random

import networkx as nx
import pytest

from grundy.solvers.native import build
from grundy.spec.structure import Structure
from grundy.verify.families.builders import _graph

SOURCE = "int locked_twice_plus(int x) { return 2 * x + %d; }"


def _load_in_child(source: str, out) -> None:
    out.put(build.load(source).locked_twice_plus(20))


@pytest.mark.skipif(not build.available() or "fork" not in mp.get_all_start_methods(),
                    reason="no C compiler, or no fork")
def test_two_processes_that_need_one_library_compile_it_once(tmp_path, monkeypatch):
    cc = build.compiler()
    log = tmp_path / "runs"
    slow = tmp_path / "cc-slow"           # slow enough that both processes ask while it builds
    slow.write_text(f'#!/bin/sh\necho run >> {log}\nsleep 1\nexec {cc} "$@"\n')
    slow.chmod(0o755)
    monkeypatch.setenv("CC", str(slow))
    monkeypatch.setenv("GRUNDY_CACHE", str(tmp_path / "cache"))
    build.compiler.cache_clear()
    source = SOURCE % random.randrange(10**9)     # never built before, in no process
    try:
        ctx = mp.get_context("fork")
        out = ctx.Queue()
        procs = [ctx.Process(target=_load_in_child, args=(source, out)) for _ in range(2)]
        for p in procs:
            p.start()
        for p in procs:
            p.join(30)
        assert [p.exitcode for p in procs] == [0, 0]
        got = [out.get(timeout=5) for _ in procs]
    finally:
        build.compiler.cache_clear()
    assert got[0] == got[1] == 40 + int(source.rsplit("+ ", 1)[1].split(";")[0])
    assert log.read_text().splitlines() == ["run"]            # one compile for both


@pytest.mark.parametrize("seed", range(40))
def test_a_graph_numbered_in_place_is_the_structure_of_the_relabelled_copy(seed):
    """``_graph`` numbers the vertices sorted (in the graph's order when they do not sort), as
    networkx's ``convert_node_labels_to_integers`` would, and makes the same structure."""
    rng = random.Random(seed)
    g = nx.gnp_random_graph(rng.randrange(1, 12), rng.random(), seed=seed, directed=seed % 3 == 0)
    labels = [v for v in g.nodes]
    if seed % 4 == 1:
        labels = [(v % 3, v) for v in labels]            # tuples: sorted
    elif seed % 4 == 2:
        labels = [str(v) if v % 2 else v for v in labels]   # mixed: not sortable
    rng.shuffle(labels)
    h = nx.relabel_nodes(g, dict(zip(g.nodes, labels)))
    if seed % 5 == 0 and len(h):
        h.add_edge(labels[0], labels[0])                  # a loop
    ordering = "sorted"
    try:
        sorted(h.nodes)
    except TypeError:
        ordering = "default"
    old = Structure.from_networkx(nx.convert_node_labels_to_integers(h, ordering=ordering))
    new = _graph("G", h)[1]
    assert (new.kind, new.n, new.edges, new.loops, new.names) == (old.kind, old.n, old.edges, old.loops, old.names)
