"""Proof trees folded by symmetry (grundy/verify/certificates/tree.py, checker/grundy_tree.py): grundy
writes the tree, the stand-alone checker verifies it from the exported rules alone; the same verdict as
its plain search, and every forged part of a tree is rejected (docs/certificates.md, "Proof trees")."""
from __future__ import annotations

import copy
import importlib.util
import inspect
import json
import pathlib
import sys

import networkx as nx
import pytest

import grundy.verify.certificates.tree as tree_mod
from grundy.spec import get_game
from grundy.verify import Claim, check_claim
from grundy.verify.certificates import run_checker, write_explicit
from grundy.verify.families import graphs

ROOT = pathlib.Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("grundy_check_tree", ROOT / "checker" / "grundy_check.py")
CK = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(CK)


def levels(d):
    """The subgraph of Q_d induced by levels 0, 1, 2 (automorphisms: S_d)."""
    q = nx.hypercube_graph(d)
    mask = {v: sum(b << i for i, b in enumerate(v)) for v in q}
    return nx.Graph((mask[u], mask[v]) for u, v in q.edges if sum(u) <= 2 and sum(v) <= 2)


CLAIMS: dict[str, Claim] = {}


def _bundle(tmp, name, g, convention, weight=1):
    """A verified outcome claim at the position of weights ``weight`` from vertex 0 (whichever outcome
    grundy finds), written with a tree (the plain-search budget set to 0)."""
    for statement in (lambda g, s: True, lambda g, s: False):
        c = Claim(f"t/{name}", game="edge-nim", kind="char", family=graphs((name, g)), statement=statement,
                  convention=convention, assume=lambda g, s: s.token == 0, bounds={"weight": (weight, weight)})
        v = check_claim(c)
        if v.verdict == "verified":
            break
    assert v.verdict == "verified"
    CLAIMS[name] = c
    old, tree_mod.PLAIN_BUDGET = tree_mod.PLAIN_BUDGET, 0
    try:
        assert write_explicit(tmp, c, v) == ["explicit.json"]
    finally:
        tree_mod.PLAIN_BUDGET = old
    return json.loads((tmp / "explicit.json").read_text())


@pytest.fixture(scope="module")
def q3(tmp_path_factory):
    """Edge-nim on Q_3, every weight 2: N, and N-positions with losing moves (672 entries)."""
    return _bundle(tmp_path_factory.mktemp("q3"), "Q_3", nx.convert_node_labels_to_integers(nx.hypercube_graph(3)),
                   "normal", weight=2)


@pytest.fixture(scope="module")
def q4m(tmp_path_factory):
    return _bundle(tmp_path_factory.mktemp("q4m"), "L2(Q_4)", levels(4), "misere")


def _tree(b):
    return b["instances"][0]["tree"]


def test_tree_written_and_agreed(q3, q4m, tmp_path):
    for b in (q3, q4m):
        t = _tree(b)
        assert len(t["entries"]) > 10 and len(t["perms"]) > 3          # folded by several automorphisms
        assert {e[1] for e in t["entries"]} == {"P", "N"}
        lines = CK.check(b)
        assert "proof tree" in lines[1] and lines[1].endswith("holds at 1 of 1")
        plain = copy.deepcopy(b)                    # the same verdict by the checker's plain search
        del plain["instances"][0]["tree"]
        assert "recomputed" in CK.check(plain)[1]
    (tmp_path / "explicit.json").write_text(json.dumps(q3))
    assert run_checker(tmp_path)["status"] == "agreed"      # in a fresh process: grundy_tree.py found


def test_no_tree_where_the_plain_search_is_small(tmp_path):
    c = Claim("t/small", game="edge-nim", kind="char", family=graphs(("L2(Q_4)", levels(4))),
              statement=lambda g, s: True, assume=lambda g, s: s.token == 0, bounds={"weight": (1, 1)})
    v = check_claim(c)
    write_explicit(tmp_path, c, v)
    assert "tree" not in json.loads((tmp_path / "explicit.json").read_text())["instances"][0]


def assert_rejected(b, match, error=None):
    with pytest.raises((CK.Bad, CK.Disagree)) as e:
        CK.check(b)
    assert match in str(e.value), str(e.value)
    assert error is None or isinstance(e.value, error)


def _refs(t):
    """(entry index, position in its body or None for an N-entry, the reference) of every reference."""
    for i, (_, out, body) in enumerate(t["entries"]):
        if out == "N" and body is not None:
            yield i, None, body
        elif out == "P":
            for k, r in enumerate(body):
                yield i, k, r


def _state(b, j):
    return tuple(_tree(b)["entries"][j][0])


def test_not_an_automorphism(q3):
    b = copy.deepcopy(q3)
    slots = _tree(b)["perms"][0]["slots"]
    slots[0], slots[1] = slots[1], slots[0]          # two weight slots swapped: edges 0 and 1 share vertex 0
    assert_rejected(b, "not an automorphism of the rules", CK.Disagree)


def test_wrong_permutation_for_a_child(q3):
    """A reference's permutation replaced by another automorphism of the tree that maps the option elsewhere."""
    t = _tree(q3)
    inst = CK.Instance(q3["instances"][0], False)
    fs = [CK_perm(q3, p) for p in range(len(t["perms"]))]
    for i, k, r in _refs(t):
        opt = {(mi, tuple(cv)): nxt for mi, cv, nxt in inst.moves.labelled(tuple(t["entries"][i][0]))}[r[0], tuple(r[1])]
        p = next((p for p in range(len(fs)) if fs[p](opt) != fs[r[2]](opt)), None)
        if p is not None:
            b = copy.deepcopy(q3)
            ref = _tree(b)["entries"][i][2] if k is None else _tree(b)["entries"][i][2][k]
            ref[2] = p
            assert_rejected(b, "does not map the option", CK.Disagree)
            return
    pytest.fail("no reference whose permutation could be replaced by a wrong one")


def test_p_entry_missing_an_option(q3):
    b = copy.deepcopy(q3)
    i = next(i for i, e in enumerate(_tree(b)["entries"]) if e[1] == "P" and e[2])
    _tree(b)["entries"][i][2].pop()
    assert_rejected(b, "does not answer every option once", CK.Disagree)


def test_p_entry_answering_an_option_twice(q3):
    b = copy.deepcopy(q3)
    i = next(i for i, e in enumerate(_tree(b)["entries"]) if e[1] == "P" and len(e[2]) >= 2)
    body = _tree(b)["entries"][i][2]
    body[-1] = body[0]
    assert_rejected(b, "does not answer every option once", CK.Disagree)


def _insert(t, at, entry):
    """``entry`` inserted into the tree at index ``at`` (the later references and roots shifted)."""
    for _, _, r in _refs(t):
        r[3] += r[3] >= at
    t["roots"] = [r + (r >= at) for r in t["roots"]]
    t["entries"].insert(at, entry)


def test_winning_move_that_is_not_winning(q3):
    """An N-entry's move replaced by a legal move that loses, and the position it leads to claimed P by a
    new entry, forged as well as a forger can: every automorphism of the structure at hand, each option
    mapped onto an earlier N-entry where one exists (else onto the P-entry the old move led to). The
    position is N: an option of it is P, which nothing can map onto an N-entry. Rejected."""
    b = copy.deepcopy(q3)                   # first: a P-entry's copy claimed N, "winning" by one of its moves
    t = _tree(b)
    j = next(j for j, e in enumerate(t["entries"]) if e[1] == "P" and e[2])
    _insert(t, j + 1, [t["entries"][j][0], "N", copy.deepcopy(t["entries"][j][2][0])])
    assert_rejected(b, "also N", CK.Disagree)
    b = copy.deepcopy(q3)
    t = _tree(b)
    (_, g), = CLAIMS["Q_3"].family.items()
    rules = get_game("edge-nim").rules(g)
    base = len(t["perms"])
    t["perms"] += [tree_mod.perm_record(rules, a) for a in g.automorphisms]
    perms = [CK_perm(b, p) for p in range(base, len(t["perms"]))]
    inst = CK.Instance(b["instances"][0], False)
    i, mi, cv, nxt = next((i, mi, cv, nxt) for i, e in reversed(list(enumerate(t["entries"])))
                          if e[1] == "N" and e[2] is not None
                          for mi, cv, nxt in inst.moves.labelled(tuple(e[0]))
                          if inst.game.outcome(nxt) == "N")     # the last entry with a losing move
    body = t["entries"][i][2]
    forged, earlier_n = [], {tuple(e[0]): k for k, e in enumerate(t["entries"][:i]) if e[1] == "N"}
    for mj, cw, o in inst.moves.labelled(nxt):
        ref = [mj, list(cw), body[2], body[3]]
        for p, f in enumerate(perms):
            k = earlier_n.get(f(o))
            if k is not None:
                ref = [mj, list(cw), base + p, k]
                break
        forged.append(ref)
    _insert(t, i, [list(nxt), "P", forged])
    t["entries"][i + 1][2] = [mi, list(cv), 0, i]
    with pytest.raises(CK.Disagree) as e:
        CK.check(b)
    assert "does not map the option" in str(e.value) or "also P" in str(e.value), str(e.value)


def CK_perm(b, p):
    """Permutation ``p`` of the tree as a function on states (the checker's own)."""
    tm = CK._tree()
    raw = b["instances"][0]
    syn = tm._Syntax(raw["rules"], raw["nodes"], CK.Bad)
    return tm._Perm(_tree(b)["perms"][p], syn, _tree(b).get("values_from", 0))


def _fix_digest(b):
    for inst in b["instances"]:
        inst["game_digest"] = CK.game_digest(inst)


def test_vertex_slot_in_arithmetic_refused(q3):
    """token + 0 < 1000 added to a guard: the game is the same, but the checker cannot rename it."""
    b = copy.deepcopy(q3)
    inst = b["instances"][0]
    nodes, m = inst["nodes"], inst["rules"]["moves"][0]
    tok = next(i for i, r in enumerate(nodes) if r[:3] == ["var", "int", "token"])
    nodes += [["const", "int", 0], ["add", "int", tok, len(nodes)], ["const", "int", 1000]]
    nodes += [["lt", "bool", len(nodes) - 2, len(nodes) - 1]]
    nodes += [["and", "bool", m["guard"], len(nodes) - 1]]
    m["guard"] = len(nodes) - 1
    _fix_digest(b)
    plain = copy.deepcopy(b)
    del plain["instances"][0]["tree"]
    CK.check(plain)                                 # the same game: the plain search agrees
    assert_rejected(b, "used other than compared", CK.Bad)


def test_other_forgeries(q3, q4m):
    b = copy.deepcopy(q3)
    _tree(b)["perms"][0]["values"][0:2] = [0, 0]            # not a bijection of the vertices
    assert_rejected(b, "not a bijection", CK.Bad)
    b = copy.deepcopy(q3)
    i, k, r = next(_refs(_tree(b)))
    r = copy.deepcopy(r)
    r[3] = i                                                # not an earlier entry (no well-founded order)
    body = _tree(b)["entries"][i]
    body[2] = r if k is None else [r] + body[2][1:]
    assert_rejected(b, "earlier entry", CK.Bad)
    b = copy.deepcopy(q3)
    root = _tree(b)["roots"][0]
    _tree(b)["entries"][root][1] = "P" if _tree(b)["entries"][root][1] == "N" else "N"
    with pytest.raises((CK.Bad, CK.Disagree)):              # the root's outcome flipped
        CK.check(b)
    b = copy.deepcopy(q3)
    _tree(b)["roots"] = []
    assert_rejected(b, "not a root of the proof tree", CK.Bad)
    b = copy.deepcopy(q3)
    i = next(i for i, e in enumerate(_tree(b)["entries"]) if e[1] == "N" and e[2] is not None)
    _tree(b)["entries"][i][2][1] = [99]                     # an N-entry's move with a choice out of range
    assert_rejected(b, "is not legal", CK.Disagree)


def test_ambiguous_rules_refused(q3):
    """Rules the renaming could misread: two slots of one name, a choice named like a slot."""
    b = copy.deepcopy(q3)
    slots = b["instances"][0]["rules"]["slots"]
    slots[1]["name"] = slots[0]["name"]
    tm = CK._tree()
    with pytest.raises(CK.Bad, match="two slots of one name"):
        tm._Syntax(b["instances"][0]["rules"], b["instances"][0]["nodes"], CK.Bad)
    raw = copy.deepcopy(q3["instances"][0])
    raw["rules"]["moves"][0]["choices"][0]["var"] = raw["rules"]["slots"][0]["name"]
    with pytest.raises(CK.Bad, match="a choice named as a slot"):
        tm._Syntax(raw["rules"], raw["nodes"], CK.Bad)


def test_terminal_positions(q4m):
    """A position without options: P in normal play, N in misere play (a one-entry tree each way)."""
    raw = q4m["instances"][0]
    inst = CK.Instance(raw, True)
    end = next(e[0] for e in _tree(q4m)["entries"] if e[1] == "N" and e[2] is None)
    assert inst.moves.labelled(tuple(end)) == []
    tm = CK._tree()

    def check(out, misere):
        tree = {"perms": [], "entries": [[end, out, [] if out == "P" else None]], "roots": [0]}
        return tm.check_tree(tree, raw["rules"], raw["nodes"], inst.moves.labelled, misere, CK.Bad, CK.Disagree)
    assert check("P", False) == {tuple(end): "P"} and check("N", True) == {tuple(end): "N"}
    for out, misere in (("P", True), ("N", False)):
        with pytest.raises(CK.Disagree):
            check(out, misere)


def test_no_tree_for_a_deep_game(monkeypatch):
    """A game deeper than the searches' depth limit gets no tree (never a RecursionError)."""
    from grundy.spec import Structure
    rules = get_game("edge-nim").rules(Structure.graph(range(10), [(i, i + 1) for i in range(9)]))
    start = (1,) * 9 + (0,)
    t = tree_mod.proof_tree(rules, [start], "normal", plain_budget=0)
    assert t is not None and t["entries"][t["roots"][0]][1] == "N"      # P_10 from an end: 9 edges, odd
    monkeypatch.setattr(tree_mod, "MAX_DEPTH", 5)
    assert tree_mod.proof_tree(rules, [start], "normal", plain_budget=0) is None
    monkeypatch.setattr(tree_mod, "MAX_DEPTH", 3000)                      # deeper than Python's own limit
    limit, setlimit = sys.getrecursionlimit(), sys.setrecursionlimit
    monkeypatch.setattr(sys, "setrecursionlimit", lambda n: None)
    deep = get_game("edge-nim").rules(Structure.graph(range(300), [(i, i + 1) for i in range(299)]))
    setlimit(len(inspect.stack()) + 200)
    try:
        assert tree_mod.proof_tree(deep, [(1,) * 299 + (0,)], "normal", plain_budget=10**6) is None
    finally:
        setlimit(limit)
