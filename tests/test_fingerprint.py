"""Content digests (grundy.spec.fingerprint): equal content, equal digest, however the nodes
were built; different content, different digest, whatever was added before."""
from __future__ import annotations

from grundy.spec import expr as ir
from grundy.spec.expr import Var, ite
from grundy.spec.fingerprint import Digest, expr_digest


def test_an_expression_added_again_is_written_again() -> None:
    """Two expressions met before, added once more: the digests differ (each call writes the
    number of its expression; a second call used to write nothing, so that any two expressions
    met before read the same: a claim's ``assume`` equal to one guard or to another)."""
    x = Var.int("x")
    a, b = x >= 1, x >= 2

    def digest(last) -> str:
        d = Digest("test")
        d.expr(a)
        d.expr(b)
        d.value("assume")
        d.expr(last)
        return d.hexdigest()

    assert digest(a) != digest(b)
    assert digest(a) == digest(x >= 1)


def test_subterms_built_twice_read_as_one() -> None:
    """The intern table restarts past its limit: a subterm built before and after that is two
    nodes, and the folds that compare operands by identity (ite(c, a, a) -> a, a == a -> True)
    do not happen. The digest reads the DAG as if every equal subterm were one node."""
    x = Var.int("x")
    c = x > 3
    before = x + 1
    ir._INTERN.clear()
    after = x + 1
    assert before is not after
    assert expr_digest(ite(c, before, after)) == expr_digest(before)
    assert expr_digest((before == after) & c) == expr_digest(c)
    assert expr_digest(before + after) == expr_digest(before + before)
    assert expr_digest(ite(c, before, x + 2)) != expr_digest(before)    # a real ite stays one


def test_a_rule_reads_the_same_however_often_the_intern_table_restarts(monkeypatch) -> None:
    """The same rules built with the intern table restarting every few nodes (so that many
    equal subterms are built twice) have the digest of the rules built with it whole."""
    import networkx as nx

    from grundy.spec.fingerprint import rules_digest
    from grundy.spec.games import get_game
    from grundy.spec.structure import Structure
    g = Structure.from_networkx(nx.petersen_graph())
    digests = {}
    from grundy.spec import nodetable
    for limit in (nodetable._INTERN_LIMIT, 7, 50):
        monkeypatch.setattr(nodetable, "_INTERN_LIMIT", limit)
        ir._INTERN.clear()
        for name in ("grim", "edge-nim", "vertexnim"):
            fresh = type(get_game(name))()                 # no rules kept from another build
            digests.setdefault(name, set()).add(rules_digest(fresh.rules(g)))
    assert all(len(d) == 1 for d in digests.values()), digests
