"""Benchmark: listing a structure's automorphisms (issue 21: the symmetry premise's group on every
structure of a sweep), grundy's backtracking search against networkx's VF2 matcher (what served
graphs above 12 vertices before), measured in the same run.

Fixed workload: what the solver asks (``automorphisms_at_most(256)``: the group, or None past
256) on graphs of the seed theorems' families and a few harder ones: paths P_45, cycles C_32,
wheels W_22, the levels 0..2 of Q_7, Q_4, Q_5, the Petersen, dodecahedral and Desargues graphs,
K_13, K_{3,10}, the 3-regular random graphs on 40 and 60 vertices (seeded), the Paley graph on
17 vertices. Both methods must find the same groups (checked). Prints per graph the CPU
milliseconds of each (medians of ``--repeat``) and the ratio of the totals.

    python benchmarks/automorphisms.py [--repeat 3]
"""
from __future__ import annotations

import argparse
import itertools
import statistics
import time

import networkx as nx

from grundy.spec import Structure

LIMIT = 256


def _levels(d: int) -> nx.Graph:
    vs = [v for v in range(2 ** d) if bin(v).count("1") <= 2]
    return nx.Graph([(u, v) for u in vs for v in vs if u < v and bin(u ^ v).count("1") == 1])


GRAPHS = {
    "P_45": lambda: nx.path_graph(45),
    "C_32": lambda: nx.cycle_graph(32),
    "W_22": lambda: nx.wheel_graph(22),
    "Q_7 levels 0..2": lambda: _levels(7),
    "Q_4": lambda: nx.hypercube_graph(4),
    "Q_5": lambda: nx.hypercube_graph(5),
    "Petersen": nx.petersen_graph,
    "dodecahedron": nx.dodecahedral_graph,
    "Desargues": nx.desargues_graph,
    "K_13": lambda: nx.complete_graph(13),
    "K_3,10": lambda: nx.complete_bipartite_graph(3, 10),
    "3-regular, 40": lambda: nx.random_regular_graph(3, 40, seed=5),
    "3-regular, 60": lambda: nx.random_regular_graph(3, 60, seed=4),
    "Paley 17": lambda: nx.paley_graph(17).to_undirected(),
}


def vf2(s: Structure) -> list[tuple[int, ...]] | None:
    """The baseline: networkx's VF2 matcher (loops kept by a node attribute), as grundy used it."""
    g = s.to_networkx()
    for v in g.nodes:
        g.nodes[v]["loop"] = v in s.loops
    m = nx.algorithms.isomorphism.GraphMatcher(g, g, node_match=lambda a, b: a["loop"] == b["loop"])
    found = list(itertools.islice((tuple(x[i] for i in range(s.n)) for x in m.isomorphisms_iter()), LIMIT + 1))
    return None if len(found) > LIMIT else sorted(found)


def grundy_now(s: Structure) -> list[tuple[int, ...]] | None:
    fresh = Structure.graph(range(s.n), s.edges, s.loops)     # nothing cached on the object
    return fresh.automorphisms_at_most(LIMIT)


def timed(fn, s: Structure, repeat: int) -> tuple[float, object]:
    times, out = [], None
    for _ in range(repeat):
        t = time.process_time()
        out = fn(s)
        times.append(time.process_time() - t)
    return statistics.median(times), out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    tot_new = tot_old = 0.0
    print(f"{'graph':18s} {'order':>6s} {'grundy ms':>10s} {'VF2 ms':>10s} {'ratio':>7s}")
    for name, make in GRAPHS.items():
        s = Structure.from_networkx(nx.convert_node_labels_to_integers(make()))
        t_new, a = timed(grundy_now, s, args.repeat)
        t_old, b = timed(vf2, s, args.repeat)
        if a != b:
            raise SystemExit(f"{name}: the two methods disagree")
        tot_new, tot_old = tot_new + t_new, tot_old + t_old
        order = "> 256" if a is None else str(len(a))
        print(f"{name:18s} {order:>6s} {t_new * 1e3:10.1f} {t_old * 1e3:10.1f} {t_old / max(t_new, 1e-9):6.1f}x")
    print(f"total: grundy {tot_new * 1e3:.0f} ms, VF2 {tot_old * 1e3:.0f} ms CPU (medians of {args.repeat}): "
          f"{tot_old / tot_new:.1f}x faster")


if __name__ == "__main__":
    main()
