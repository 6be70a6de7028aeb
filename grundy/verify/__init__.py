"""Claims and verdicts: state a paper's results in the IR, check them, report.

A theorem file (``theorems/*.py``) defines ``CLAIMS``, a list of :class:`Claim`;
``grundy verify theorems/`` checks them all. See :mod:`grundy.verify.claims`; a claim's
``kind`` names a registered :class:`ClaimKind` (:mod:`grundy.verify.kinds`, :func:`register_kind`).
"""
from .claims import Claim, ClaimError, Explicit, Finding, Levelled, Smt, Source, bitvec
from .families import (
    Family,
    Lazy,
    all_graphs,
    arcs_of,
    at_least,
    cartesian,
    complete,
    complete_bipartite,
    complete_multipartite,
    cycles,
    disjoint_union,
    gnp,
    graph6_file,
    graphs,
    grids,
    heaps,
    hypercubes,
    paths,
    petersen,
    positions,
    rooted_trees,
    runs_of,
    ssb,
    stars,
    sums,
    trees,
    two_stars,
    wheels,
)
from .kinds import KINDS, ClaimKind, StatementKind, kind_of, register_kind
from .verdict import Counterexample, Verdict

__all__ = ["Claim", "ClaimError", "Explicit", "Finding", "Levelled", "Smt", "Source", "bitvec", "Family", "Lazy", "all_graphs", "arcs_of", "at_least",
           "cartesian", "complete", "complete_bipartite", "complete_multipartite", "cycles",
           "disjoint_union", "gnp", "graphs", "heaps", "hypercubes", "paths", "petersen", "ssb",
           "stars", "two_stars", "wheels", "positions", "runs_of", "sums", "Counterexample", "Verdict", "check_claim",
           "value_of", "graph6_file", "grids", "trees", "rooted_trees",
           "ClaimKind", "StatementKind", "KINDS", "kind_of", "register_kind"]


def check_claim(claim, **kw):
    """Check one claim (see :func:`grundy.verify.check.check_claim`)."""
    from .check import check_claim as run
    return run(claim, **kw)


def value_of(position):
    """The Grundy value of another position, inside a claim's statement: from the claim's lemmas
    (``uses=``) or, with none, solved (see :func:`grundy.verify.check.lemmas.value_of`)."""
    from .check.lemmas import value_of as read
    return read(position)
