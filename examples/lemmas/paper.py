"""Claims that cite claims (docs/claims.md, "Lemmas"): ``uses=[...]`` and ``value_of``.

    grundy verify examples/lemmas

- Node Kayles on the path P_n is Dawson's Kayles (octal 0.137) on a heap of n: a lemma on
  P_1 .. P_27. On the cycle C_n every move leaves P_{n-3}, so G(C_n) = mex{G(P_{n-3})}: stated
  with ``value_of`` on that path, the value read from the lemma (whose check covered it).
- A planted false lemma: the cycles claim stated on it is not checked (``unknown``, naming it).
- A lemma chain proved by Z3: a heap of Nim is worth its size (proved for all sizes); two heaps
  are P iff G(5) ^ h0 == G(5) ^ h1, with G(5) read from the lemma.
"""
from games import NODE_KAYLES

from grundy.solvers.heaps import takebreak_run
from grundy.spec import parse_octal
from grundy.verify import Claim, Source, bitvec, heaps, positions, value_of

DAWSON = takebreak_run(parse_octal("0.137"), 40).values
SRC = Source("Winning Ways", "ch. 4, Dawson's Kayles")


def path(n):
    return {"game": "node-kayles", "nodes": list(range(n)), "edges": [[i, i + 1] for i in range(n - 1)]}


def cycle(n):
    return {"game": "node-kayles", "nodes": list(range(n)), "edges": [[i, (i + 1) % n] for i in range(n)]}


def dawson(g, s):
    """Dawson's Kayles on a heap of n"""
    return DAWSON[g.n]


def dawson_planted(g, s):
    """Dawson's Kayles on a heap of n, except at n = 17"""
    return DAWSON[g.n] if g.n != 17 else DAWSON[g.n] + 1


def cycle_from_path(g, s):
    """mex of the one option value G(P_{n-3})"""
    return 1 if value_of(path(g.n - 3)) == 0 else 0


PATHS = Claim("lemmas/kayles-paths", source=SRC, game=NODE_KAYLES, kind="grundy",
              family=positions(lambda: (path(n) for n in range(1, 28)), "P_1 … P_27"), statement=dawson,
              text="Node Kayles on P_n has the value of Dawson's Kayles on a heap of n.")
PATHS_PLANTED = Claim("lemmas/kayles-paths-planted", source=SRC, game=NODE_KAYLES, kind="grundy",
                      family=positions(lambda: (path(n) for n in range(1, 28)), "P_1 … P_27"),
                      statement=dawson_planted, expect="refuted",
                      text="The paths lemma with one value changed (planted).")
NIM_HEAP = Claim("lemmas/nim-heap", source=Source("Bouton 1901", "one heap"), game="nim", kind="grundy",
                 family=heaps(1), bounds={"heap": 9}, statement=lambda g, s: s.heap[0],
                 methods=["explicit", "smt"], expect="proved", text="A heap of Nim is worth its size.")

CLAIMS = [
    PATHS,
    Claim("lemmas/kayles-cycles", source=SRC, game=NODE_KAYLES, kind="grundy", uses=[PATHS],
          family=positions(lambda: (cycle(n) for n in range(4, 31)), "C_4 … C_30"), statement=cycle_from_path,
          text="Node Kayles on C_n: the one option is P_{n-3}, so G(C_n) = mex{G(P_{n-3})}."),
    PATHS_PLANTED,
    Claim("lemmas/kayles-cycles-on-planted", source=SRC, game=NODE_KAYLES, kind="grundy", uses=[PATHS_PLANTED],
          family=positions(lambda: (cycle(n) for n in range(4, 31)), "C_4 … C_30"), statement=cycle_from_path,
          expect="unknown", text="The cycles claim stated on the planted lemma: never a pass."),
    NIM_HEAP,
    Claim("lemmas/nim-pairs", source=Source("Bouton 1901", "two heaps"), game="nim", kind="char", uses=[NIM_HEAP],
          family=heaps(2), bounds={"heap": 6},
          statement=lambda g, s: (value_of({"game": "nim", "heaps": [5]}) ^ s.heap[0])
          == (value_of({"game": "nim", "heaps": [5]}) ^ s.heap[1]),
          methods=["explicit", bitvec(16)], expect="proved",
          text="Two heaps of Nim are P iff G(5) ^ h0 == G(5) ^ h1 (G(5) read from the lemma)."),
]
