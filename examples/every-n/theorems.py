"""Claims for every n (docs/claims.md, "Claims for every n"): a worked example.

    grundy verify examples/every-n

An open family (``complete(n=at_least(1))``) stands for every size. Its statement reads the
counts: ``c[i]`` is the number of vertices of part i still present, at every position (not
only the start). Each claim is checked explicitly on the first members and, where the game
reduces to a game on the counts, proved by Z3 for every size.
"""
from games import KEEP_ZERO, NODE_KAYLES

from grundy.verify import Claim, Source, at_least, complete, complete_bipartite, stars

SRC = Source("every-n", "worked example")

CLAIMS = [
    # K_n: any move takes every vertex, so a position is P iff nothing is left.
    Claim("every-n/kayles-complete", source=SRC, game=NODE_KAYLES, kind="char",
          family=complete(n=at_least(1)), statement=lambda g, c: c[0] == 0, expect="proved",
          text="Node Kayles on K_n: the first player wins for every n >= 1."),
    # K_{m,n}: a move in one part empties the other; then the moves take one vertex each.
    Claim("every-n/kayles-bipartite", source=SRC, game=NODE_KAYLES, kind="char",
          family=complete_bipartite(m=at_least(1), n=at_least(1)),
          statement=lambda g, c: (c[0] % 2 == 0) & (c[1] % 2 == 0), expect="proved",
          text="Node Kayles on K_{m,n}: P iff m and n are both even."),
    # False for stars (the centre takes everything): refuted on the smallest star.
    Claim("every-n/kayles-stars-wrong", source=SRC, game=NODE_KAYLES, kind="char",
          family=stars(n=at_least(1)), statement=lambda g, c: c[1] % 2 == 1, expect="refuted",
          text="A false claim: Node Kayles on the star K_{1,n} is P iff n is odd."),
    # A rule that names a vertex: no reduction; the first members only, and the reason.
    Claim("every-n/keep-zero", source=SRC, game=KEEP_ZERO, kind="char",
          family=complete(n=at_least(1)), statement=lambda g, c: c[0] == 0, expect="verified",
          text="Node Kayles keeping vertex 0 on K_n: the first player wins for every n >= 1."),
]

from grundy.verify import paths, runs_of  # noqa: E402

CLAIMS += [
    # Paths by locality: Node Kayles on a path is Dawson's Kayles, octal 0.137, on its runs.
    Claim("every-n/kayles-paths", source=SRC, game=NODE_KAYLES, kind="grundy",
          family=paths(n=at_least(1)), statement=runs_of("0.137"), expect="proved",
          text="Node Kayles on P_n has the values of octal 0.137 (Dawson's Kayles), for every n."),
    # The heap game of Node Kayles' runs is octal 0.137 (above): its period, by Guy and Smith's
    # theorem, gives Node Kayles on paths for every n; claimed one step too early, refuted.
    Claim("every-n/dawson-period", source=SRC, game="octal", params={"code": "0.137"}, kind="period",
          period=(52, 34), expect="proved", text="Octal 0.137 (Dawson's Kayles): period 34 from n = 52."),
    Claim("every-n/dawson-period-early", source=SRC, game="octal", params={"code": "0.137"}, kind="period",
          period=(51, 34), expect="refuted", text="A false claim: the same period from n = 51."),
]

from grundy.spec import ite  # noqa: E402
from grundy.verify.families import invariant  # noqa: E402

CLAIMS += [
    # Under an inductive invariant: wyg with one chip or none per vertex and no active edge (W1)
    # keeps that shape (every move ends its edge; Z3 proves it on the IR), and is then a
    # present/removed vertex game whose moves are on edges: counted from its option sets.
    Claim("every-n/w1-complete", source=SRC, game="wyg", kind="grundy",
          family=complete(n=at_least(1), first=7).under(invariant(chips=(0, 1), active=-1)),
          statement=lambda g, c: ite(c[0] == 0, 0, (c[0] + 2) % 3),
          bounds={"chips": lambda g, v: [0, 1], "active": lambda g, k: [-1]}, expect="proved",
          text="wyg on K_n with c single chips and no active edge: the value 0, 1, 2 for c = 1, 2, 0 (mod 3)."),
]
