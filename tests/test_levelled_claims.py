"""The method "levelled": a claim's explicit sweep with its values from the levelled solver gives
the explicit sweep's verdict, counts and smallest counterexample; what it does not serve is an
error, never another engine's answer; on a Dask cluster (--executor dask://) its runs get the
cluster's client."""
from __future__ import annotations

import pytest

from grundy.solvers.native import build
from grundy.spec import Structure
from grundy.spec.expr import ite
from grundy.verify import Claim, Levelled
from grundy.verify.check import check_claim
from grundy.verify.claims import ClaimError
from grundy.verify.families import complete, positions

pytestmark = pytest.mark.skipif(not build.available(), reason="no C compiler")


def never_p(g, s):
    return False


def both(tmp_path, monkeypatch, **kw):
    """The claim checked with "explicit" and with "levelled" (a fresh cache: no verdict reused)."""
    monkeypatch.setenv("GRUNDY_CACHE", str(tmp_path))
    out = []
    for m in ("explicit", "levelled"):
        c = Claim(f"t/{kw['id']}", **{k: v for k, v in kw.items() if k != "id"}, methods=[m])
        out.append(check_claim(c))
    return out


def same_counts(a, b):
    keys = ("positions", "structures", "cross_checked", "cross_check_beyond")
    return {k: a.coverage.get(k) for k in keys} == {k: b.coverage.get(k) for k in keys}


def test_conjecture_48_on_k2_to_k4_same_verdict_and_counts(tmp_path, monkeypatch):
    ex, lv = both(tmp_path, monkeypatch, id="conj4.8", game="edge-nim", kind="conj", family=complete(range(2, 5)),
                  statement=never_p, bounds={"weight": (1, 2)}, expect="verified")
    assert ex.verdict == lv.verdict == "verified"
    assert same_counts(ex, lv) and lv.coverage["positions"] == sum(2 ** (n * (n - 1) // 2) * n for n in range(2, 5))
    assert "levelled on 3 structures: " in lv.scope and "engine numpy" in lv.scope
    assert "cross-checked by the reference engine at" in lv.scope
    assert "levelled" not in ex.scope


def test_one_structure_scope_names_levels_positions_digest_engine(tmp_path, monkeypatch):
    _, lv = both(tmp_path, monkeypatch, id="k4", game="edge-nim", kind="conj", family=complete(4),
                 statement=never_p, bounds={"weight": (1, 2)})
    assert lv.verdict == "verified"
    words = lv.scope.split("; ")[1]
    assert words.startswith("levelled: ") and " levels, " in words and "per-level counts digest " in words
    assert "engine numpy: chosen by size" in words           # the engine and why


def test_assumption_same_counts(tmp_path, monkeypatch):
    ex, lv = both(tmp_path, monkeypatch, id="assume", game="edge-nim", kind="conj", family=complete(4),
                  statement=never_p, assume=lambda g, s: s.token == 0, bounds={"weight": (1, 2)})
    assert ex.verdict == lv.verdict == "verified" and same_counts(ex, lv)
    assert lv.coverage["positions"] == 2 ** 6 and "assuming" in lv.scope


def test_planted_false_claim_refuted_at_the_same_smallest_counterexample(tmp_path, monkeypatch):
    # weight 0 allowed: positions with no move are P, so "never P" is false
    ex, lv = both(tmp_path, monkeypatch, id="planted", game="edge-nim", kind="conj", family=complete(range(2, 5)),
                  statement=never_p, bounds={"weight": (0, 2)}, expect="refuted")
    assert ex.verdict == lv.verdict == "refuted"
    a, b = ex.counterexample, lv.counterexample
    assert (a.witness, a.claimed, a.actual, a.structure) == (b.witness, b.claimed, b.actual, b.structure)
    assert b.actual == "P"
    assert "counterexample cross-checked by the reference engine" in lv.scope


def test_grundy_values_refuted_at_the_same_counterexample(tmp_path, monkeypatch):
    # "the Grundy value is the number of edges of weight 2": false; the values mode of the engine
    ex, lv = both(tmp_path, monkeypatch, id="values", game="edge-nim", kind="grundy", family=complete(range(2, 5)),
                  statement=lambda g, s: sum(ite(s.weight[e] == 2, 1, 0) for e in range(len(g.edges))),
                  bounds={"weight": (1, 2)}, expect="refuted")
    assert ex.verdict == lv.verdict == "refuted"
    a, b = ex.counterexample, lv.counterexample
    assert (a.witness, a.claimed, a.actual) == (b.witness, b.claimed, b.actual)
    assert isinstance(b.actual, int)


def test_misere_claim_is_an_error_not_another_engines_answer(tmp_path, monkeypatch):
    monkeypatch.setenv("GRUNDY_CACHE", str(tmp_path))
    c = Claim("t/misere", game="edge-nim", kind="conj", family=complete(3), statement=never_p,
              bounds={"weight": (1, 2)}, convention="misere", methods=["levelled"])
    v = check_claim(c)
    assert v.verdict == "error" and "normal play only" in v.detail


def test_method_spellings_and_listed_positions():
    c = Claim("t/m", game="edge-nim", kind="conj", family=complete(3), statement=never_p,
              bounds={"weight": (1, 2)}, methods=["levelled", Levelled(engine="numpy", partitions=3)])
    assert [str(m) for m in c.methods] == ["levelled (engine auto)", "levelled (engine numpy)"]
    with pytest.raises(ClaimError, match="explicit method only"):
        Claim("t/p", game="nim", kind="conj", family=positions([(Structure.heaps(2), (1, 2))]),
              statement=lambda g, s: False, methods=["levelled"])


@pytest.mark.slow
def test_dask_executor_gives_the_levelled_engine_the_clusters_client(tmp_path, monkeypatch):
    """``run(..., executor="dask://...")``: a levelled claim is checked in the driver with the
    cluster's client (engine dask: its scope says so), with the explicit sweep's verdict and counts."""
    distributed = pytest.importorskip("distributed")
    from grundy.verify.loading import load
    from grundy.verify.schedule.pool import run
    monkeypatch.setenv("GRUNDY_CACHE", str(tmp_path / "cache"))
    (tmp_path / "t.py").write_text(
        "from grundy.verify import Claim, Levelled, complete\n"
        "def never_p(g, s):\n    return False\n"
        "CLAIMS = [Claim('t/k2', game='edge-nim', kind='conj', family=complete(2), statement=never_p,\n"
        "                bounds={'weight': (1, 1)}, methods=[Levelled(engine='dask', partitions=2)])]\n")
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        address = cluster.scheduler_address
        [v] = run(load([str(tmp_path / "t.py")]), executor="dask://" + address.split("://")[1])
    assert v.verdict == "verified", v.detail
    assert "engine dask: as asked" in v.scope and "1 Dask workers" in v.scope
    assert v.coverage["positions"] == 2 and "levelled: 2 levels, 2 positions" in v.scope
