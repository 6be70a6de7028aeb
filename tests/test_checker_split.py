"""The checker's values by a sum it proves itself (bundle hint ``split``, docs/certificates.md):
the same values and outcomes as its plain search on every game of the package, on random rules
that read and write across heaps, and where a slot at its least value is raised again; the bundles
grundy writes for games with components carry the hint and are agreed with (or disagreed with,
when a value is changed)."""
from __future__ import annotations

import importlib.util
import itertools
import json
import pathlib
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from grundy.spec import HeapGame, Structure, ite, maximum, minimum, move
from grundy.spec.export import NodeTable, export_heap_rule, export_rules
from grundy.spec.games import GAMES, get_game
from grundy.verify import Claim, check_claim
from grundy.verify.certificates import run_checker, write_explicit
from grundy.verify.families import Family, paths
from grundy.verify.loading import load

ROOT = pathlib.Path(__file__).resolve().parents[1]


def _module(name, path):
    spec = importlib.util.spec_from_file_location(name, path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


CK = _module("grundy_check_split", ROOT / "checker" / "grundy_check.py")
TC = _module("test_checker_recipes", ROOT / "tests" / "test_checker.py")    # its random expressions


def games(game, g):
    """The checker's plain game and its game by proved sums, from the exported rules (via JSON)."""
    t = NodeTable()
    data = json.loads(json.dumps({"nodes": t.nodes, "rules": export_rules(game.rules(g), t)}))
    m = CK.Moves(data["rules"], CK.Code(data["nodes"]))
    return CK.Game(m, False), CK.Game(m, False, CK.Split(m, data["rules"]))


def agree(game, g, states):
    """Both give the same value and outcome at each state (or both disagree with the rules there)."""
    plain, split = games(game, g)
    n = 0
    for s in states:
        try:
            want = plain.value(s), plain.outcome(s)
        except CK.Disagree:
            with pytest.raises(CK.Disagree):
                split.value(s)
            continue
        assert (split.value(s), split.outcome(s)) == want, (game.name, g, s)
        n += 1
    return n


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_game_of_the_package(name):
    game = get_game(name)
    tried = compared = 0
    for i, (g, _) in enumerate(TC.structures(name)):
        if export_heap_rule(game, g, NodeTable()) is None:          # heap rules: the XOR of heaps already
            tried += 1
            compared += agree(game, g, TC.small_states(game.rules(g), 10, f"{name}{i}"))
    if not tried:
        pytest.skip(f"{name}: a heap rule on every structure (the checker XORs its heaps already)")
    assert compared > 0, f"{name}: every state was refused by the rules: nothing compared"


_COUNT = itertools.count()


def three_heaps(guard, other, revive):
    """Three heaps; from heap i take k where ``guard`` holds, and set heap i+1 to max(0, min(itself,
    ``other``)); with ``revive``, taking from heap 0 also sets an empty heap 2 to 1 (a slot at its
    least value raised: not fixed)."""
    class R(HeapGame):
        name = f"random-split-{next(_COUNT)}"
        heap_count = 3
        symmetric = False

        def moves(self, g, s):
            for i in range(3):
                h, j = s.heap[i], (i + 1) % 3
                o = s.heap[j]
                up = {i: h - 1, 2: ite(s.heap[2] == 0, 1, s.heap[2])} if revive and i == 0 else {}
                yield move(f"take {{k}} from heap {i}", choose=[("k", 1, lambda h=h: h)],
                           guard=lambda k, h=h, o=o: TC.build(guard, [h, o, k]),
                           update=lambda k, i=i, j=j, h=h, o=o: s.set(heap={
                               i: h - k, j: maximum(0, minimum(o, TC.build(other, [h, o, k])))}))
                if up:
                    yield move("take 1 from heap 0, refill heap 2", guard=h >= 1, update=s.set(heap=up))
    return R()


STATES = list(itertools.product(range(3), repeat=3))


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TC.BOOLS, TC.INTS, st.booleans())
def test_random_rules(guard, other, revive):
    assert agree(three_heaps(guard, other, revive), Structure.heaps(3), STATES) == len(STATES)


def independent():
    """Three Nim heaps, and from heap 0 also: take 1 and refill an empty heap 2 with 1."""
    class R(HeapGame):
        name = f"refill-{next(_COUNT)}"
        heap_count = 3
        symmetric = False

        def moves(self, g, s):
            for i in range(3):
                yield move(f"take {{k}} from heap {i}", choose=[("k", 1, s.heap[i])],
                           update=lambda k, i=i: s.set(heap={i: s.heap[i] - k}))
            yield move("refill", guard=s.heap[0] >= 1,
                       update=s.set(heap={0: s.heap[0] - 1, 2: ite(s.heap[2] == 0, 1, s.heap[2])}))
    return R()


def test_a_slot_at_its_least_value_that_a_move_raises_is_not_held_fixed(monkeypatch):
    game, g = independent(), Structure.heaps(3)
    assert agree(game, g, STATES) == len(STATES)
    # the same with the fixed slots' check switched off: heap 2 at 0 is held fixed, the refill
    # move lands in heap 0's part alone, and some value comes out wrong
    plain, split = games(game, g)
    analyse = CK.Split.analyse
    monkeypatch.setattr(CK.Split, "analyse", lambda self, mi, env: analyse(self, mi, env)[:2] + (set(),))
    assert any(split.value(s) != plain.value(s) for s in STATES)


def test_a_sum_is_found_where_there_is_one():
    """Grim on a path: deleting a middle vertex leaves two runs, valued apart (few memo entries)."""
    game, g = get_game("grim"), Structure.graph(range(17), [(i, i + 1) for i in range(16)])
    plain, split = games(game, g)
    s = (1,) * 17
    assert split.value(s) == plain.value(s)
    assert len(split.split.memo) < len(plain.values) / 3


@pytest.fixture(scope="module")
def grim_bundle(tmp_path_factory):
    thm = next(c for c in load([str(ROOT / "theorems" / "grim.py")]) if c.id == "grim/thm23")
    claim = Claim("t/grim-paths", game="grim", kind="grundy", family=Family(paths(range(1, 15)).items(), "P_1..P_14"),
                  statement=thm.statement, bounds=thm.bounds)
    v = check_claim(claim)
    d = tmp_path_factory.mktemp("b") / "grim"
    write_explicit(d, claim, v)
    return v, d


def test_grundy_writes_the_hint_and_the_checker_agrees(grim_bundle):
    v, d = grim_bundle
    data = json.loads((d / "explicit.json").read_text())
    assert data["instances"][-1]["label"] == "P_14" and data["instances"][-1].get("split")
    r = run_checker(d)
    assert v.verdict == "verified" and r["status"] == "agreed", r


def test_a_changed_value_is_still_caught_with_the_hint(grim_bundle, tmp_path):
    _, d = grim_bundle
    data = json.loads((d / "explicit.json").read_text())
    pos = random.Random(0).choice([p for i in data["instances"] for p in i["positions"]])
    pos["value"] += 1
    (tmp_path / "explicit.json").write_text(json.dumps(data))
    assert run_checker(tmp_path)["status"] == "disagreed"


def test_no_hint_where_grundy_never_splits():
    """K_6: no move ever splits it (a hint would only cost the checker time)."""
    from grundy.verify.certificates.explicit import _splits_soon
    k6 = Structure.graph(range(6), list(itertools.combinations(range(6), 2)))
    p6 = Structure.graph(range(6), [(i, i + 1) for i in range(5)])
    assert not _splits_soon(get_game("grim").rules(k6), [(1,) * 6])
    assert _splits_soon(get_game("grim").rules(p6), [(1,) * 6])


def test_misere_play_never_splits(grim_bundle):
    data = json.loads((grim_bundle[1] / "explicit.json").read_text())
    assert CK.Instance(data["instances"][-1], False).game.split is not None
    assert CK.Instance(data["instances"][-1], True).game.split is None
