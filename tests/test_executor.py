"""Chunked sweeps (grundy/verify/executor.py): the same verdicts sequentially, on local worker
processes and on a Dask LocalCluster; the refuted claim's witness is the same everywhere and is
confirmed by a naive grim solver written here (plain recursion on networkx graphs)."""
from __future__ import annotations

import json
import textwrap
from functools import lru_cache

import networkx as nx
import pytest

from grundy.verify.loading import load
from grundy.verify.schedule import chunks as X
from grundy.verify.schedule.pool import run

THEOREMS = textwrap.dedent('''
    from grundy.verify import Claim, cycles, heaps, paths

    def nim_p(g, s):                                   # one heap: P iff empty; two: P iff equal
        return s.heap[0] == 0 if g.n == 1 else s.heap[0] == s.heap[1]

    def breaks_at_5(g, s):
        if g.n == 5:
            raise ZeroDivisionError("statement breaks on 5 vertices")
        return s.alive[0] | ~s.alive[0]

    CLAIMS = [
        Claim("t/nim", game="nim", kind="char", family=heaps(1, 2), bounds={"heap": 6}, statement=nim_p),
        # grim on C_n for n = 3..12: "always P" is false (odd cycles), refuted on the first bad one
        Claim("t/cycles-P", game="grim", kind="char", family=cycles(range(3, 13)),
              bounds={"alive": lambda g, v: [1]}, statement=lambda g, s: s.alive[0] | ~s.alive[0],
              expect="refuted"),
        # every position of grim on the paths P_2..P_9 (all alive-sets): "P iff nothing alive" is
        # false; the sequential sweep stops at the first path with a counterexample
        Claim("t/paths-end", game="grim", kind="char", family=paths(range(2, 10)),
              bounds={"alive": 1}, statement=lambda g, s: ~s.alive[0] & ~s.alive[g.n - 1],
              expect="refuted"),
        Claim("t/error", game="grim", kind="char", family=paths(range(2, 9)),
              bounds={"alive": lambda g, v: [0]},    # the empty position only: P, as claimed
              statement=breaks_at_5, expect="error"),
        # Bouton's theorem, true: the sweep must visit all 401^3 = 64 M positions, which no
        # engine does in 0.05 s of CPU (a false claim may be refuted in time: the sweep in C found
        # "always P" false at its first batch)
        Claim("t/timeout", game="nim", kind="char", family=heaps(3), bounds={"heap": 400},
              statement=lambda g, s: (s.heap[0] ^ s.heap[1] ^ s.heap[2]) == 0, methods=["explicit"],
              timeout=0.05, expect="unknown"),
    ]
''')


SLOW = textwrap.dedent('''
    import time
    from grundy.verify import Claim, heaps

    def slow(g, s):
        time.sleep(30)                                 # never returns in time: the executor gives up
        return s.heap[0] == 0

    CLAIMS = [Claim("t/slow", game="nim", kind="char", family=heaps(1, 2), bounds={"heap": 1},
                    statement=slow, timeout=0.5, expect="unknown")]
''')


@pytest.fixture(scope="module")
def theorems(tmp_path_factory):
    d = tmp_path_factory.mktemp("thm")
    f = d / "t.py"
    f.write_text(THEOREMS)
    return f


def _json(verdicts) -> list[dict]:
    out = []
    for v in verdicts:
        d = v.to_json()
        d.pop("seconds")
        d.pop("cpu_seconds")
        if d["verdict"] == "unknown":                 # how far a timed-out sweep got varies
            d.pop("scope")
        if d["verdict"] != "verified":                # so does how far a chunked run got before it stopped
            d.pop("coverage")
        out.append(d)
    return out


@pytest.fixture(scope="module")
def sequential(theorems):
    return _json(run(load([str(theorems)]), jobs=1))


@lru_cache(maxsize=None)
def grim_p(alive: frozenset, edges: frozenset) -> bool:
    """Naive grim: delete an alive vertex with an alive neighbour, then every vertex left isolated."""
    g = nx.Graph()
    g.add_nodes_from(alive)
    g.add_edges_from(e for e in edges if set(e) <= alive)
    for v in alive:
        if g.degree(v) == 0:
            continue
        h = g.copy()
        h.remove_node(v)
        rest = frozenset(u for u in h.nodes if h.degree(u) > 0)
        if grim_p(rest, edges):
            return False
    return True


@pytest.mark.slow
def test_sequential_verdicts_are_right(sequential):
    got = {d["id"]: d for d in sequential}
    assert [d["verdict"] for d in sequential] == ["verified", "refuted", "refuted", "error", "unknown"]
    assert "ZeroDivisionError" in got["t/error"]["detail"]
    # the witnesses are true counterexamples (naive solver), on the structure the sweep reaches first
    cyc = got["t/cycles-P"]
    n = len(cyc["witness"]["nodes"])
    c = nx.cycle_graph(n)
    assert not grim_p(frozenset(c.nodes), frozenset(c.edges)) and cyc["actual"] == "N"
    assert all(grim_p(frozenset(range(m)), frozenset(nx.cycle_graph(m).edges)) for m in range(3, n))
    path = got["t/paths-end"]
    w = path["witness"]
    assert path["structure"] == "P_2" and path["claimed"] == "N" and path["actual"] == "P"
    assert grim_p(frozenset(w["nodes"]), frozenset(map(tuple, w["edges"])))


@pytest.mark.slow
def test_local_executor_same_verdicts(theorems, sequential):
    with X.executor("local:2") as ex:
        assert _json(X.run(load([str(theorems)]), ex)) == sequential


@pytest.mark.slow
def test_dask_local_cluster_same_verdicts(theorems, sequential):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        address = cluster.scheduler_address            # tcp://127.0.0.1:PORT
        got = _json(run(load([str(theorems)]), executor="dask://" + address.split("://")[1]))
    assert got == sequential


@pytest.mark.slow
def test_claims_are_cut_into_chunks(theorems):
    claims = {c.id: c for c in load([str(theorems)])}
    tasks = []
    orig = X.map_chunks

    def spy(ex, fn, chunks, timeout=None):
        tasks.extend(chunks)
        return orig(ex, fn, chunks, timeout)

    X.map_chunks, saved = spy, X.map_chunks
    try:
        with X.executor("local:2") as ex:
            list(X.run([claims["t/cycles-P"]], ex))
    finally:
        X.map_chunks = saved
    assert [(t.start, t.stop) for t in tasks] == [(k, k + 1) for k in range(10)]   # 10 cycles


def test_a_chunk_that_never_returns_is_unknown(tmp_path, tune):
    f = tmp_path / "slow.py"
    f.write_text(SLOW)
    tune(chunk_grace=0.5)
    with X.executor("local:2") as ex:
        (v,) = X.run(load([str(f)]), ex)
    # the limit is 0.5 CPU seconds in the worker; the driver's safety net for a lost chunk is
    # WALL_FACTOR times it in wall time (the worker sleeps here: it never spends its CPU time)
    assert v.verdict == "unknown" and f"no result after {0.5 * X.WALL_FACTOR + 0.5:g} s" in v.detail


def test_bad_executor_names():
    for bad in ("local:0", "local:x", "dask://", "ssh://h"):
        with pytest.raises(X.ExecutorError):
            X.executor(bad)


@pytest.mark.slow
def test_cli_executor_option(theorems, sequential, capsys):
    from grundy.cli import main
    rc = main(["verify", str(theorems), "--json", "--executor", "local:2"])
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    for d in lines:
        d.pop("seconds")
        d.pop("cpu_seconds")
        assert d.pop("cache").startswith(("stored", "checked", "not cacheable"))   # where it came from
        if d["verdict"] == "unknown":
            d.pop("scope")
        if d["verdict"] != "verified":
            d.pop("coverage")
    assert rc == 0 and lines == sequential
    assert main(["verify", str(theorems), "--executor", "local:zero"]) == 2
    assert "local:N" in capsys.readouterr().err
