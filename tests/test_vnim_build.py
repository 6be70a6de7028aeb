"""theorems/vnim.py's statements built once per order (``per_order``: the same IR as a build on
the structure itself, nothing of the graph but its order readable) and ``lu_p`` skipping the
absent edges (the same node as the unrolled definition over every pair)."""
import inspect
import itertools
from pathlib import Path

import networkx as nx
import pytest

from grundy.spec import Structure, all_of, any_of, order
from grundy.spec.expr import _INTERN
from grundy.spec.games import GAMES
from grundy.verify.loading import load

THEOREMS = Path(__file__).resolve().parents[1] / "theorems"


@pytest.fixture(scope="module")
def claims():
    return {c.id: c for c in load([str(THEOREMS / "vnim.py")])}


def _structures(claim, most: int):
    return list(itertools.islice(claim.family.items(), most))


@pytest.mark.parametrize("cid,shares", [("vnim/thm10-corrected", True), ("vnim/thm13-corrected", True),
                                        ("vnim/thm14", True), ("vnim/prop9", True),
                                        ("vnim/thm10-corrected-all-weights", False),   # one graph per order
                                        ("vnim/thm6-all-weights", False)])
def test_per_order_builds_what_the_structure_builds(claims, cid, shares):
    claim = claims[cid]
    built = order._BUILT
    built.clear()
    _INTERN.clear()               # (no restart of the table mid-test: identity is what is compared)
    fns = [f for f in (claim.statement, claim.assume) if f is not None]
    calls = 0
    for _, g in _structures(claim, 40):
        s = GAMES[claim.game].rules(g).state
        for f in fns:
            memo = f(g, s)
            calls += 1
            direct = f.__wrapped__(g, s)          # the build on the structure itself
            assert memo is direct, (cid, g)
    assert built
    if shares:
        assert len(built) < calls           # structures of one order shared a build


def test_order_reads_no_edge(claims):
    per_order = claims["vnim/thm10"].statement.__globals__["per_order"]

    @per_order
    def reads_edges(g, s):
        return all_of(s.weight[v] >= 1 for v in g.vertices) & (len(g.edges) > 0)

    g = Structure.graph(range(3), [(0, 1), (1, 2)])
    s = GAMES["vertexnim"].rules(g).state
    with pytest.raises(AttributeError):
        reads_edges(g, s)


def _lu_every_pair(n, inside, edge, w, strict=False):
    """Definition 11 unrolled over every pair (lu_p as it was, the reference)."""
    rem, lab = list(inside), [False] * n
    for _ in range(n):
        s_ = [rem[u] & all_of(~(rem[v] & edge(u, v)) | (w[u] <= w[v]) for v in range(n) if v != u)
              for u in range(n)]
        t_ = [rem[v] & ~s_[v] & any_of(s_[u] & edge(v, u) & ((w[u] < w[v]) if strict else True)
                                       for u in range(n) if u != v) for v in range(n)]
        lab = [lab[u] | s_[u] for u in range(n)]
        rem = [rem[u] & ~s_[u] & ~t_[u] for u in range(n)]
    return lab


@pytest.mark.parametrize("strict", [False, True])
def test_lu_skips_absent_edges_to_the_same_node(claims, strict):
    mod = inspect.unwrap(claims["vnim/cor12-corrected-n5"].statement).__globals__
    lu_p = mod["lu_p"]
    seen = 0
    for _, g in _structures(claims["vnim/cor12-corrected-n5"], 60):
        s = GAMES["vertex-nimg"].rules(g).state
        w = [s.weight[v] for v in g.vertices]
        inside = [w[v] >= 2 for v in g.vertices]
        for edge in (lambda p, q, g=g: g.adjacent(p, q),                       # Python bools (Vertex NimG)
                     lambda p, q, g=g, w=w: (w[p] >= 1) & g.adjacent(p, q)):   # IR, constant False where absent
            new = lu_p(g.n, inside, edge, w, strict)
            ref = _lu_every_pair(g.n, inside, edge, w, strict)
            assert all(a is b for a, b in zip(new, ref, strict=True)), g
            seen += 1
    assert seen > 0


def _strong_every_arc_set(max_n, min_n=1):
    """strong_digraphs as it was (networkx's strong connectivity, sorted arc tuples as the key)."""
    out = []
    for n in range(min_n, max_n + 1):
        pairs = [(a, b) for a in range(n) for b in range(n) if a != b]
        perms = list(itertools.permutations(range(n)))
        seen, k = set(), 0
        for bits in range(1 << len(pairs)):
            arcs = [p for i, p in enumerate(pairs) if bits >> i & 1]
            d = nx.DiGraph(arcs)
            d.add_nodes_from(range(n))
            if not nx.is_strongly_connected(d):
                continue
            key = min(tuple(sorted((sg[a], sg[b]) for a, b in arcs)) for sg in perms)
            if key not in seen:
                seen.add(key)
                k += 1
                out.append((f"D{n}.{k}", Structure.graph(range(n), arcs, loops=range(n), directed=True)))
    return out


def test_strong_digraphs_as_before(claims):
    made = claims["vnim/thm6"].statement.__wrapped__.__globals__["_strong_digraphs"]
    assert list(made(1, 4)) == _strong_every_arc_set(4)
    assert list(made(2, 3)) == _strong_every_arc_set(3, min_n=2)
    assert [label for label, _ in claims["vnim/thm6"].family.items()] == \
        [label for label, _ in claims["vnim/thm14"].family.items()]
