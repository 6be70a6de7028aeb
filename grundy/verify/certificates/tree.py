"""A proof tree folded by symmetry: an outcome certificate the stand-alone checker verifies
without searching the whole game (docs/certificates.md, "Proof trees").

Where the checker's own search of a listed position would be too large (more than
:data:`PLAIN_BUDGET` positions without symmetry) and the structure has a non-trivial
automorphism group of at most :data:`MAX_GROUP` elements, :func:`proof_tree` searches the
position's outcome on canonical forms under that group and writes the proof: one entry per
position used (a state and its outcome), children before parents. An N-entry names one
winning move (move index and choice values) and, for the position it leads to, a permutation
and the P-entry that permutation maps it onto; a P-entry does the same for *every* option.
The checker trusts none of it: it regenerates each entry's options from the exported rules,
applies each permutation itself, and checks each permutation used is an automorphism of the
exported rules (docs/certificates.md). Nothing here is specific to a game.

>>> from grundy.spec import Structure, get_game
>>> g = Structure.graph(range(4), [(0, 1), (1, 2), (2, 3), (3, 0)])     # C_4: 8 automorphisms
>>> rules = get_game("edge-nim").rules(g)
>>> t = proof_tree(rules, [(1, 1, 1, 1, 0)], "normal", plain_budget=0)
>>> t is not None and t["entries"][t["roots"][0]][1]       # unit C_4 from vertex 0: P
'P'
"""
from __future__ import annotations

import sys
import time
from typing import Any

from ...solvers.explicit import compile_rules
from ...spec.game import Rules

__all__ = ["proof_tree", "perm_record", "PLAIN_BUDGET", "MAX_GROUP", "MAX_ENTRIES"]

PLAIN_BUDGET = 100_000   # a plain search that ends within this many positions needs no tree
MAX_GROUP = 40_320       # automorphism groups up to this size are listed (8!)
MAX_ENTRIES = 400_000    # a larger tree is not written (the checker searches, as before)
MAX_SECONDS = 300.0      # CPU seconds the tree's search may take
MAX_DEPTH = 900          # moves deep (the searches recurse, a few frames a move)
State = tuple[int, ...]


class _GiveUp(Exception):
    """The tree would be too large or too slow (then none is written)."""


def _plain_exceeds(code: Any, roots: list[State], budget: int, misere: bool) -> bool:
    """Whether a plain outcome search (no symmetry, first winning move) of ``roots`` visits more
    than ``budget`` positions."""
    memo: dict[State, bool] = {}

    def win(s: State, depth: int) -> bool:
        if s in memo:
            return memo[s]
        if len(memo) >= budget or depth > MAX_DEPTH:
            raise _GiveUp
        kids = code.successors(s)
        r = any(not win(t, depth + 1) for t in kids) if kids else misere
        memo[s] = r
        return r
    try:
        for s in roots:
            win(s, 0)
    except _GiveUp:
        return True
    return False


class _Canon:
    """Canonical forms under a listed automorphism group: the least image, the vertex-valued
    slots compared first (so only the automorphisms sending them to their least image are
    tried), then every slot in order; with the automorphism that gives it."""

    def __init__(self, rules: Rules, auts: list[tuple[int, ...]]):
        n = len(rules.schema)
        self.auts, self.inv, self.used = auts, [], {0}
        acts = [rules.slot_action(a) for a in auts]
        self.vertex = [i for i in range(n) if acts[0][1][i] is not None]
        self.is_vertex = [i in self.vertex for i in range(n)]
        for perm, _ in acts:
            inv = [0] * n
            for i, j in enumerate(perm):
                inv[j] = i
            self.inv.append(inv)
        self.order = [j for j in range(n) if j not in self.vertex]
        self.first: dict[tuple[int, ...], list[int]] = {}

    def _start(self, s: State) -> tuple[list[int], tuple[int, ...]]:
        key = tuple(s[i] for i in self.vertex)
        if key not in self.first:     # vertex slots map onto vertex slots: the image's depend on key only
            imgs = [tuple(a[s[inv[j]]] for j in self.vertex) for a, inv in zip(self.auts, self.inv, strict=True)]
            best = min(imgs)
            self.first[key] = [k for k, img in enumerate(imgs) if img == best]
        return self.first[key], key

    def __call__(self, s: State) -> tuple[State, int]:
        """(the canonical form of ``s``, the index of an automorphism mapping ``s`` onto it)."""
        cand, _ = self._start(s)
        for j in self.order:
            if len(cand) == 1:
                break
            inv = self.inv
            vals = [s[inv[k][j]] for k in cand]
            m = min(vals)
            cand = [k for k, v in zip(cand, vals) if v == m]
        k = next((k for k in cand if k in self.used), cand[0])   # reuse an automorphism already written
        self.used.add(k)
        return self.image(s, k), k

    def image(self, s: State, k: int) -> State:
        inv, a, vx = self.inv[k], self.auts[k], self.is_vertex
        return tuple(a[s[i]] if vx[i] else s[i] for i in inv)


class _Search:
    """Outcomes of canonical positions (first winning move, known P-positions tried first)."""

    def __init__(self, code: Any, canon: _Canon, misere: bool, max_entries: int, seconds: float):
        self.code, self.canon, self.misere = code, canon, misere
        self.memo: dict[State, tuple[str, Any]] = {}
        self.kids: dict[State, list[tuple[int, tuple[int, ...], State, int]]] = {}
        self.max, self.until = max_entries, time.process_time() + seconds

    def options(self, s: State) -> list[tuple[int, tuple[int, ...], State, int]]:
        if s not in self.kids:
            self.kids[s] = [(mi, tuple(cv), *self.canon(t)) for mi, cv, t in self.code.options(s)]
        return self.kids[s]

    def outcome(self, s: State, depth: int = 0) -> str:
        if s in self.memo:
            return self.memo[s][0]
        if len(self.memo) >= self.max or depth > MAX_DEPTH or time.process_time() > self.until:
            raise _GiveUp
        kids = self.options(s)
        win = next((k for k in kids if self.memo.get(k[2], ("",))[0] == "P"), None)
        if win is None:
            win = next((k for k in kids if self.outcome(k[2], depth + 1) == "P"), None)
        if not kids:
            r: tuple[str, Any] = ("N" if self.misere else "P", None)
        else:
            r = ("N", win) if win is not None else ("P", None)
        self.memo[s] = r
        return r[0]


def proof_tree(rules: Rules, roots: list[State], convention: str, *, plain_budget: int | None = None,
               max_entries: int = MAX_ENTRIES, seconds: float = MAX_SECONDS) -> dict[str, Any] | None:
    """The instance's ``tree`` for the positions ``roots`` (their outcomes), or None where none
    is needed (a plain search ends within ``plain_budget`` positions) or none is written (no
    group to fold by, an edge-valued slot, a group or tree too large). ``plain_budget``: None
    for :data:`PLAIN_BUDGET`, read at the call."""
    g = rules.structure
    if g.kind == "heaps" or not roots or any(rules.schema.fields[f].kind == "edge" for f, _ in rules.schema.slots):
        return None
    misere = convention == "misere"
    code = compile_rules(rules, symmetry=False, decompose=False)
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 5_000))        # depth at most MAX_DEPTH moves, a few frames each
    try:
        if not _plain_exceeds(code, roots, PLAIN_BUDGET if plain_budget is None else plain_budget, misere):
            return None
        auts = g.automorphisms_at_most(MAX_GROUP)
        if auts is None or len(auts) < 2:
            return None
        search = _Search(code, _Canon(rules, sorted(auts)), misere, max_entries, seconds)   # identity first
        for s in roots:
            search.outcome(tuple(s))
        return _entries(search, [tuple(s) for s in roots], rules)
    except (_GiveUp, RecursionError):
        return None
    finally:
        sys.setrecursionlimit(limit)


def _entries(search: _Search, roots: list[State], rules: Rules) -> dict[str, Any]:
    """The entries reachable from ``roots`` (children first), the permutations they use."""
    canon = search.canon
    index: dict[State, int] = {}
    entries: list[list[Any]] = []
    perms: dict[int, int] = {}

    def perm(k: int) -> int:
        return perms.setdefault(k, len(perms))

    def ref(mi: int, cv: tuple[int, ...], c: State, k: int) -> list[Any]:
        return [mi, list(cv), perm(k), build(c)]

    def build(s: State) -> int:
        if s not in index:
            out, win = search.memo[s]
            kids = search.options(s)
            if out == "N":
                body: Any = None if win is None else ref(win[0], win[1], win[2], win[3])
            else:
                body = [ref(mi, cv, c, k) for mi, cv, c, k in kids]
            index[s] = len(entries)
            entries.append([list(s), out, body])
        return index[s]
    top = [build(s) for s in roots]
    table = [perm_record(rules, canon.auts[k]) for k, _ in sorted(perms.items(), key=lambda kj: kj[1])]
    return {"perms": table, "values_from": _vertex_domain(rules)[0], "entries": entries, "roots": top}


def _vertex_domain(rules: Rules) -> tuple[int, int]:
    """The least and greatest value of the vertex-valued slots ((0, -1): none)."""
    doms = {rules.slot_domains[i] for i, (f, _) in enumerate(rules.schema.slots)
            if rules.schema.fields[f].kind == "vertex"}
    if not doms:
        return (0, -1)
    dom = doms.pop()
    if doms or dom is None or dom[1] is None:
        raise _GiveUp          # the checker maps one common, bounded domain of vertex values
    lo, hi = dom
    assert hi is not None
    return lo, hi


def perm_record(rules: Rules, sigma: tuple[int, ...]) -> dict[str, list[int]]:
    """The automorphism ``sigma`` of the structure as a permutation of the tree: slot ``i`` goes to
    slot ``slots[i]``, a vertex value ``v`` becomes ``values[v - values_from]``."""
    perm, _ = rules.slot_action(sigma)
    lo, hi = _vertex_domain(rules)
    return {"slots": list(perm), "values": [sigma[v] for v in range(lo, hi + 1)]}
