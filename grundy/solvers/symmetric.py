"""Canonical forms under the full symmetric group: complete and edgeless graphs.

On K_n (and on the edgeless graph on n vertices) every permutation of the vertices is an
automorphism: n! of them, too many to list and minimise over (K_7: 5,040) on every position.
:class:`Plan` reduces a position by a cheaper rule that keeps every stored key exact:

1. Every vertex gets an *invariant*: a 64-bit hash of its own field values, whether each
   vertex-valued field (a token) is on it, and the multiset of the values on its incident
   edges; then, 1-WL style, the hash is refined by the multiset of (edge values, neighbour's
   invariant) until the number of distinct invariants stops growing.
2. The vertices are sorted by invariant, ties by vertex number; *cells* are the runs of equal
   invariants. The candidates are the permutations that place the vertices in invariant
   order: within each cell, every order (``prod(|cell|!)`` of them).
3. If there are at most ``cap`` candidates, the canonical form is the image with the least key
   among them; otherwise the image under the first candidate alone (vertices in invariant
   order, ties by vertex number): a *partial* canonical form.

Why this is sound. (a) Every candidate is a permutation of the vertices, hence an
automorphism of the structure; the game's rules commute with its automorphisms (the premise
the solver proves by Z3 on the structure before any reduction is used, see
:mod:`grundy.solvers.premises`), so the
image of a position under any permutation has the same value and outcome: whatever the rule
picks, the stored position is isomorphic to the one asked about, and a stored value is the
value of exactly the position its key denotes. (b) Below the cap the form is a function of
the class: the invariant is computed from the position's values only, through the vertices'
relations, never their numbers, so ``inv(sigma(v), sigma(s)) = inv(v, s)`` for every
permutation ``sigma`` (a hash collision merges cells: coarser, still invariant). The
candidate sets therefore satisfy ``Cand(sigma s) = Cand(s) o sigma^-1``: both produce the
same set of images, and the least of them is the same. Above the cap a class may be stored
under several keys (more positions stored), never a wrong value.

The rule is one plan (the tables below), run by the Python solver (:meth:`Plan.canonical`) and
emitted into the C kernel (:meth:`Plan.c_source`); both compute the same hash in 64-bit
unsigned arithmetic and the same order, so they return the same representative (a tested
property, not only an intention).

>>> from grundy.spec import Structure
>>> from grundy.spec.games import get_game
>>> k4 = Structure.graph(range(4), [(u, v) for u in range(4) for v in range(u)])
>>> p = Plan.of(get_game("edge-nim").rules(k4), force=True)
>>> s = (1, 2, 0, 0, 0, 0, 0)          # weights of 01, 02, 03, 12, 13, 23; the token on 0
>>> t = (0, 0, 0, 0, 2, 1, 3)          # the same position, vertices renamed 0->3, 1->2, 2->1
>>> p.canonical(s) == p.canonical(t), p.canonical(s)
(True, (0, 0, 2, 0, 1, 0, 3))
"""
from __future__ import annotations

from dataclasses import dataclass
from math import factorial
from typing import Sequence

from ..spec.game import MAX_SYMMETRIES, Rules

__all__ = ["Plan", "CAP", "ENABLED", "FORCE", "slot_order"]

CAP = 720          # at most this many candidates are tried (K_7: a cell of 6 twins; else partial)
KERNEL_FROM = 5    # the C kernel uses the plan from K_5 on (Plan.for_kernel: measured faster there)
FORCE = False      # tests: use the plan even where the listed automorphisms would do (n! <= 256)
ENABLED = True     # benchmarks: False measures the solver without it (no reduction on K_6, K_7)
M64 = (1 << 64) - 1
SEED, ESEED = 0x243F6A8885A308D3, 0x13198A2E03707344
GOLD, MULT = 0x9E3779B97F4A7C15, 0xBF58476D1CE4E5B9

State = tuple[int, ...]


def _mix(h: int, x: int) -> int:
    """One step of the 64-bit hash (as ``mixk`` in C)."""
    h = (h ^ ((x + GOLD) & M64)) * MULT & M64
    return h ^ (h >> 31)


def slot_order(rules: Rules) -> list[int]:
    """The slots from least to most significant in a packed key (as the kernel's box)."""
    sch = rules.schema
    return sorted(range(len(sch)), key=lambda i: (sch.fields[sch.slots[i][0]].over is not None, i))


def _next_perm(a: list[int], lo: int, hi: int) -> bool:
    """``a[lo:hi]`` to its next permutation in lexicographic order; False (and sorted) after the last."""
    i = hi - 2
    while i >= lo and a[i] >= a[i + 1]:
        i -= 1
    if i < lo:
        a[lo:hi] = a[lo:hi][::-1]
        return False
    j = hi - 1
    while a[j] <= a[i]:
        j -= 1
    a[i], a[j] = a[j], a[i]
    a[i + 1:hi] = a[i + 1:hi][::-1]
    return True


@dataclass(frozen=True)
class Plan:
    """The tables of the canonical form on one structure whose automorphisms are every
    permutation of its n vertices: per vertex its slots (``vslots``), per vertex pair the slots
    of their edge (``eslots``, empty on the edgeless graph), the vertex-valued single slots
    (``tokens``), the key's slot order (``order``) and the ``cap`` on candidates."""

    n: int
    vslots: tuple[tuple[int, ...], ...]
    eslots: tuple[tuple[tuple[int, ...], ...], ...]
    tokens: tuple[int, ...]
    order: tuple[int, ...]
    cap: int = CAP

    @staticmethod
    def for_kernel(rules: Rules) -> "Plan | None":
        """The plan the C kernel uses: from :data:`KERNEL_FROM` vertices on even where the group
        could be listed (on K_5 the kernel's invariants and cells cost less than the least of
        120 listed images; the Python solver keeps the list, where the plan costs more)."""
        return Plan.of(rules, force=True if rules.structure.n >= KERNEL_FROM else None)

    @staticmethod
    def of(rules: Rules, force: bool | None = None, cap: int | None = None) -> "Plan | None":
        """The plan for these rules, or None: the game declares no symmetry, the structure's
        automorphisms are not every permutation (detected structurally: an undirected graph,
        complete or edgeless, with a loop at every vertex or at none), a field the plan does
        not handle (over pairs or heaps, or a vertex- or edge-valued field other than a single
        vertex), or the group is small enough to be listed (unless ``force``)."""
        g, sch = rules.structure, rules.schema
        force = FORCE if force is None else force
        if not ENABLED or not rules.game.symmetric or g.kind != "graph" or g.n < 2:
            return None
        if not g.every_permutation:        # undirected, complete or edgeless, all loops or none
            return None
        if not force and factorial(g.n) <= MAX_SYMMETRIES:
            return None
        for f in sch.fields.values():
            if f.over not in (None, "vertices", "edges"):
                return None
            if f.kind == "edge" or (f.kind == "vertex" and f.over is not None):
                return None
        vfields = [nm for nm, f in sch.fields.items() if f.over == "vertices"]
        efields = [nm for nm, f in sch.fields.items() if f.over == "edges"] if g.edges else []
        vslots = tuple(tuple(sch.slot_of[(nm, v)] for nm in vfields) for v in range(g.n))
        eslots = tuple(tuple(() if u == v else tuple(sch.slot_of[(nm, g.edge_id(min(u, v), max(u, v)))]
                                                     for nm in efields) for v in range(g.n))
                       for u in range(g.n))
        tokens = tuple(i for i, (nm, key) in enumerate(sch.slots)
                       if key is None and sch.fields[nm].kind == "vertex")
        return Plan(g.n, vslots, eslots, tokens, tuple(slot_order(rules)), CAP if cap is None else cap)

    # ------------------------------------------------------------------ Python
    def invariants(self, s: Sequence[int]) -> list[int]:
        """Each vertex's invariant (refined until the number of distinct values stops growing)."""
        n = self.n
        emat = [[0] * n for _ in range(n)]
        inv = []
        for v in range(n):
            h = SEED
            for i in self.vslots[v]:
                h = _mix(h, s[i] & M64)
            for t in self.tokens:
                h = _mix(h, int(s[t] == v))
            acc = 0
            for w in range(n):
                if w != v:
                    e = ESEED
                    for i in self.eslots[v][w]:
                        e = _mix(e, s[i] & M64)
                    emat[v][w] = e
                    acc = (acc + _mix(e, 0)) & M64
            inv.append(_mix(h, acc))
        if not self.eslots[0][1 % n]:
            return inv                       # no edge values: nothing to refine by
        cells = len(set(inv))
        while cells < n:
            new = []
            for v in range(n):
                acc = 0
                for w in range(n):
                    if w != v:
                        acc = (acc + _mix(emat[v][w], inv[w])) & M64
                new.append(_mix(inv[v], acc))
            c = len(set(new))
            if c <= cells:
                break
            inv, cells = new, c
        return inv

    def image(self, s: Sequence[int], perm: Sequence[int]) -> State:
        """The position with vertex ``perm[i]`` renamed ``i`` (any permutation: an automorphism).

        >>> from grundy.spec import Structure
        >>> from grundy.spec.games import get_game
        >>> k3 = Structure.graph(range(3), [(0, 1), (0, 2), (1, 2)])
        >>> Plan.of(get_game("edge-nim").rules(k3), force=True).image((1, 2, 3, 0), [2, 0, 1])
        (2, 3, 1, 1)
        """
        out = list(s)
        pinv = [0] * self.n
        for i, v in enumerate(perm):
            pinv[v] = i
        for i in range(self.n):
            for a, b in zip(self.vslots[i], self.vslots[perm[i]], strict=False):
                out[a] = s[b]
            for j in range(i + 1, self.n):
                for a, b in zip(self.eslots[i][j], self.eslots[perm[i]][perm[j]], strict=False):
                    out[a] = s[b]
        for t in self.tokens:
            out[t] = pinv[s[t]]
        return tuple(out)

    def candidates(self, s: Sequence[int]) -> tuple[list[int], list[tuple[int, int]], int]:
        """The first candidate (vertices in invariant order), the cells (start, end) and the
        number of candidates (``cap + 1`` when above the cap)."""
        inv = self.invariants(s)
        perm = sorted(range(self.n), key=lambda v: (inv[v], v))
        cells, count, a = [], 1, 0
        for b in range(1, self.n + 1):
            if b == self.n or inv[perm[b]] != inv[perm[a]]:
                cells.append((a, b))
                count = min(count * factorial(b - a), self.cap + 1)
                a = b
        return perm, cells, count

    def canonical(self, s: Sequence[int]) -> State:
        """The representative of ``s`` (see the module's docstring)."""
        perm, cells, count = self.candidates(s)
        if count > self.cap:
            return self.image(s, perm)
        rev = self.order[::-1]
        best, best_key = None, None
        while True:
            img = self.image(s, perm)
            key = tuple(img[i] for i in rev)
            if best_key is None or key < best_key:
                best, best_key = img, key
            for a, b in reversed(cells):
                if b - a > 1 and _next_perm(perm, a, b):
                    break
            else:
                return best  # type: ignore[return-value]

    # ------------------------------------------------------------------ C
    def c_source(self) -> str:
        """The plan's tables and constants in C: the kernel's generator follows them with the fixed
        ``canon(key)`` (``native/c/canon_sn.c``; the kernel defines NS, LO, STRIDE and ``unpack`` first)."""
        n = self.n
        nvf = len(self.vslots[0])
        nef = len(self.eslots[0][1])
        rows = lambda t: "{" + ", ".join(map(str, t)) + "}"  # noqa: E731
        vs = rows(rows(r) for r in self.vslots) if nvf else "{{0}}"
        es = (rows(rows(rows(c) if c else rows([-1] * nef) for c in row) for row in self.eslots)
              if nef else "{{{0}}}")
        toks = rows(self.tokens) if self.tokens else "{0}"
        return f"""#define CANONICAL 1
#define SN {n}
#define SNVF {nvf}
#define SNEF {nef}
#define SNT {len(self.tokens)}
#define SCAP {self.cap}
static const int16_t SVS[SN][SNVF > 0 ? SNVF : 1] = {vs};
static const int16_t SES[SN][SN][SNEF > 0 ? SNEF : 1] = {es};
static const int16_t STOK[SNT > 0 ? SNT : 1] = {toks};
#define SGOLD 0x{GOLD:X}ULL
#define SMULT 0x{MULT:X}ULL
#define SSEED 0x{SEED:X}ULL
#define SESEED 0x{ESEED:X}ULL
"""
