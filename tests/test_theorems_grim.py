"""theorems/grim.py: the involution search behind Theorem 15 and Corollary 16 against every
automorphism of every graph on <= 7 vertices, and nauty's prefilter of the full profile
(graphs with no suitable automorphism group dropped by pickg) keeping exactly the graphs the
hypotheses keep without it, on every graph on <= 8 vertices."""
from __future__ import annotations

import pytest
from theorem_files import theorem_module

from grundy.verify import families as F

GRIM = theorem_module("grim")
needs_geng = pytest.mark.skipif(F.geng_program() is None or F.pickg_program() is None, reason=F.GENG_HINT)


def _reference(g, fixed: int) -> bool:
    """Some automorphism of order 2 fixes exactly ``fixed`` vertices and maps no vertex to a
    neighbour: read off the full automorphism group."""
    for a in g.automorphisms:
        if (all(a[a[v]] == v for v in range(g.n)) and any(a[v] != v for v in range(g.n))
                and sum(a[v] == v for v in range(g.n)) == fixed
                and not any(g.adjacent(v, a[v]) for v in range(g.n) if a[v] != v)):
            return True
    return False


def test_involution_search_agrees_with_the_automorphism_group():
    met = {0: 0, 1: 0}
    for name, g in GRIM.atlas_items():                         # every graph on 1..7 vertices
        for fixed in (0, 1):
            s = GRIM.involution(g, fixed)
            assert (s is not None) == _reference(g, fixed), (name, fixed)
            if s is not None:
                met[fixed] += 1
                assert s in g.automorphisms and all(s[s[v]] == v for v in range(g.n))
                assert sum(s[v] == v for v in range(g.n)) == fixed
                assert not any(g.adjacent(v, s[v]) for v in range(g.n) if s[v] != v)
    assert met[0] > 10 and met[1] > 10                          # the check met both cases


def test_colour_classes_are_kept_by_every_automorphism():
    for name, g in GRIM.atlas_items()[::7]:
        c = GRIM.colour_classes(g)
        assert all(c[a[v]] == c[v] for a in g.automorphisms for v in range(g.n)), name


@needs_geng
@pytest.mark.parametrize("hyp, opts", [("hyp15", "GENG15"), ("hyp16", "GENG16")])
def test_nauty_prefilter_keeps_the_same_graphs(hyp, opts):
    where, kw = getattr(GRIM, hyp), getattr(GRIM, opts)
    plain = [name for name, _ in F.geng(8, where=where).items()]
    fast = F.geng(8, where=where, **kw)
    assert [name for name, _ in fast.items()] == plain and len(plain) > 20
    assert fast.span() == F.geng(8).span() == 13598          # graphs read: all of them (A000088)
    assert len(list(F.geng(8, **kw).lines())) < 13598 // 4      # and most never reach Python


def test_a_path_solved_on_a_longer_path_has_the_paths_value():
    """Cor 24 and Cor 26 solve P_m as the position of P_32 (P_64 past 32) with its first m vertices
    alive (path_position): the same JSON as P_m, and the same value and outcome as P_m solved on
    its own structure by a solver of its own, on both sides of the hosts' sizes."""
    from grundy import Solver, solve
    for m in [*range(2, 14), 31, 32, 33]:
        pos = GRIM.path_position(m)
        assert pos.to_json() == GRIM.path_json(m)
        assert solve(pos, solver=Solver()) == solve(GRIM.path_json(m), solver=Solver())
    with pytest.raises(ValueError):
        GRIM.path_position(1)
