"""Mutation score of the seed theorem library (issue 9 item 9): how many wrong variants of
each true seed claim does each method catch?

Every seed claim expected ``proved`` or ``verified`` is mutated at the IR level, on the
expression its statement builds (the same mutation on every structure of the family):

- ``negate``: a comparison ``a < b``, ``a <= b``, ``a == b`` replaced by its negation;
- ``shift``: ``<`` becomes ``<=``, ``<=`` becomes ``<``, ``a == b`` becomes ``a == b + 1``;
- ``const``: an integer constant changed by +1 or -1 (never a divisor to 0);
- ``drop``: one disjunct of a disjunction left out;
- ``add``: a disjunct added to the whole statement (a test of the first state slot: a number
  equal to 1, a bool true, ...);
- ``swap``: N and P swapped (the statement negated; for a Grundy value: the value + 1).

Each mutant is checked with each of the claim's methods alone (its own bounds, the quick
profile). A mutant is *killed* by a method when the verdict is ``refuted``. A survivor gets a
one-line reason from Z3, asked on the family's first structures whether the mutant and the
original differ at some position (within the assumption): "equivalent" (they never
differ: the mutant is the same claim), "differs at P, outside what the method covers" (the
bounds are too small, or the method stops short), or "undetermined".

    python benchmarks/mutation_score.py [FILES...] [--max-mutants N] [--timeout S] [--only PATTERN]

Defaults: every file of theorems/, 12 mutants per claim (spread evenly over the kinds).
"""
from __future__ import annotations

import argparse
import copy
import fnmatch
import sys
import time
from collections import defaultdict
from pathlib import Path
from typing import Any, Callable

from grundy.spec.expr import INT, Expr, lift, nodes, not_
from grundy.spec.games import GAMES
from grundy.verify import check_claim
from grundy.verify.loading import load, theorem_files

ROOT = Path(__file__).resolve().parent.parent

Mutator = Callable[[Any, Any, Expr], Expr]      # (g, s, statement expression) -> mutant expression


# ------------------------------------------------------------------------------ IR surgery
def _replace(e: Expr, target: Expr, new: Expr) -> Expr:
    """``e`` with the node ``target`` (by identity) replaced by ``new``; untouched parts shared."""
    done: dict[int, Expr] = {}
    for x in nodes(e):
        if x is target:
            done[id(x)] = new
        elif x.op in ("const", "var"):
            done[id(x)] = x
        else:
            args = tuple(done[id(a)] for a in x.args)
            done[id(x)] = x if all(a is b for a, b in zip(args, x.args)) else Expr(x.op, args, x.sort)
    return done[id(e)]


def _sites(e: Expr, kind: str) -> list[tuple[Expr, Any]]:
    """The nodes a mutation of ``kind`` can change, in a fixed order, with what each becomes."""
    out: list[tuple[Expr, Any]] = []
    divisors = {id(x.args[1]) for x in nodes(e) if x.op in ("div", "mod")}
    for x in nodes(e):
        if kind == "negate" and x.op in ("lt", "le", "eq"):
            out.append((x, not_(x)))
        elif kind == "shift" and x.op in ("lt", "le", "eq"):
            a, b = x.args
            if x.op == "eq" and a.sort == INT:
                out.append((x, Expr("eq", (a, Expr("add", (b, lift(1)), INT)), x.sort)))
            elif x.op != "eq":
                out.append((x, Expr("le" if x.op == "lt" else "lt", x.args, x.sort)))
        elif kind == "const" and x.op == "const" and x.sort == INT:
            v = x.args[0]
            for d in (1, -1):
                if id(x) in divisors and v + d <= 0:
                    continue
                out.append((x, lift(v + d)))
        elif kind == "drop" and x.op == "or" and len(x.args) >= 2:
            for i in range(len(x.args)):
                rest = x.args[:i] + x.args[i + 1:]
                out.append((x, rest[0] if len(rest) == 1 else Expr("or", rest, x.sort)))
    return out


def _first_slot_test(s) -> Expr:
    """A test of the first state slot: ``x == 1`` for a number, ``x`` for a bool, ``x == 0``
    for a vertex, ``x == -1`` for an edge."""
    sch = s.schema
    name = sch.slots[0][0]
    v, kind = sch.variables[0], sch.fields[name].kind
    if kind == "bool":
        return v
    return Expr("eq", (v, lift({"int": 1, "vertex": 0, "edge": -1}[kind])), "bool")


def mutators(claim) -> list[tuple[str, Mutator]]:
    """Every mutation of the claim's statement, as functions of (g, s, expression)."""
    from grundy.spec.structure import Structure  # noqa: F401
    fam = claim.family.items()
    g0 = fam[0][1]
    rules = GAMES[claim.game].rules(g0)
    e0 = lift(claim.statement(g0, rules.state))
    out: list[tuple[str, Mutator]] = []
    for kind in ("negate", "shift", "const", "drop"):
        for k, (x, new) in enumerate(_sites(e0, kind)):
            def mut(g, s, e, kind=kind, k=k):
                sites = _sites(e, kind)
                return _replace(e, *sites[k]) if k < len(sites) else e
            out.append((f"{kind} #{k} ({_show(x)} -> {_show(new)})", mut))
    if e0.sort == INT:
        out.append(("swap (value + 1)", lambda g, s, e: Expr("add", (e, lift(1)), INT)))
    else:
        out.append(("swap N/P", lambda g, s, e: not_(e)))

        def add(g, s, e):
            return Expr("or", (e, _first_slot_test(s)), "bool")
        out.append(("add (| a test of the first slot)", add))
    return out


def _show(e: Expr, width: int = 40) -> str:
    t = repr(e)
    return t if len(t) <= width else t[: width - 3] + "..."


def _spread(items: list, n: int) -> list:
    """At most ``n`` items, spread evenly over the kinds (round robin by kind, in order)."""
    by: dict[str, list] = defaultdict(list)
    for it in items:
        by[it[0].split(" ")[0]].append(it)
    out: list = []
    while len(out) < n and any(by.values()):
        for k in list(by):
            if by[k] and len(out) < n:
                lst = by[k]
                out.append(lst.pop(0 if len(lst) % 2 else len(lst) - 1))   # both ends: varied sites
    return out


def mutant(claim, name: str, fn: Mutator, method) -> Any:
    m = copy.copy(claim)
    orig = claim.statement
    m.statement = lambda g, s: fn(g, s, lift(orig(g, s)))
    m.methods = [method]
    m.id = f"{claim.id} [{name}] ({method})"
    return m


# ------------------------------------------------------------------------------ survivors
def why_survived(claim, fn: Mutator, killed_by_other: bool, timeout: float = 10) -> str:
    """One line: does the mutant ever differ from the claim (Z3, the first structures)?"""
    try:
        import z3

        from grundy.solvers.smt.encode import encoding
    except ImportError:
        return "undetermined (no Z3)"
    for label, g in claim.family.items()[:3]:
        try:
            rules = GAMES[claim.game].rules(g)
            enc = encoding(rules)
            s = rules.state
            e = lift(claim.statement(g, s))
            m = fn(g, s, e)
            differ = not_(e == m) if e.sort == INT else (e & not_(m)) | (m & not_(e))
            conds = [enc.family, differ] + ([lift(claim.assume(g, s))] if claim.assume else [])
            solver = z3.Solver()
            solver.set("timeout", int(timeout * 1000))
            for c in conds:
                solver.add(enc.to_z3(c))
            r = solver.check()
        except Exception as ex:   # noqa: BLE001  (nonlinear, or a statement Z3 cannot take)
            return f"undetermined ({type(ex).__name__}: {str(ex)[:60]})"
        if r == z3.sat:
            state = enc.state_of(solver.model())
            where = f"differs at {rules.describe(state)} on {label}"
            return where + (": another method kills it (this one's bounds are too small)" if killed_by_other
                            else ": outside what the methods cover (bounds too small)")
        if r == z3.unknown:
            return "undetermined (Z3 unknown)"
    return "equivalent mutant (Z3: never differs on the first structures of the family)"


# ------------------------------------------------------------------------------ main
def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", nargs="*", default=[str(ROOT / "theorems")])
    ap.add_argument("--max-mutants", type=int, default=12, metavar="N", help="mutants per claim (default 12)")
    ap.add_argument("--timeout", type=float, default=30, metavar="S", help="seconds per mutant and method (default 30)")
    ap.add_argument("--only", metavar="PATTERN", help="only claims whose id matches (glob)")
    ap.add_argument("--quiet", action="store_true", help="no line per survivor")
    args = ap.parse_args(argv)
    t0 = time.monotonic()
    per_file: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(lambda: [0, 0]))
    survivors: list[str] = []
    for f in theorem_files(args.files):
        claims = [c for c in load([str(f)]) if c.expect in ("proved", "verified")
                  and (not args.only or fnmatch.fnmatchcase(c.id, args.only))]
        for c in claims:
            try:
                muts = _spread(mutators(c), args.max_mutants)
            except Exception as e:   # noqa: BLE001
                print(f"{c.id}: cannot mutate ({type(e).__name__}: {e})", file=sys.stderr)
                continue
            for name, fn in muts:
                verdicts, details = {}, {}
                for meth in c.methods:
                    v = check_claim(mutant(c, name, fn, meth), timeout=min(args.timeout, c.timeout or args.timeout))
                    verdicts[str(meth)], details[str(meth)] = v.verdict, v.detail
                    cell = per_file[f.name][str(meth)]
                    cell[1] += 1
                    cell[0] += v.verdict == "refuted"
                for meth, verdict in verdicts.items():
                    if verdict != "refuted":
                        other = any(x == "refuted" for x in verdicts.values())
                        reason = (why_survived(c, fn, other) if verdict in ("proved", "verified") else
                                  f"not decided: {details[meth][:100]}")
                        line = f"{c.id} [{name}] {meth}: {verdict}; {reason}"
                        survivors.append(line)
                        if not args.quiet:
                            print("survivor: " + line, flush=True)
        if f.name in per_file and len(theorem_files(args.files)) > 1:      # a file's figures as it ends
            for meth, (k, n) in per_file[f.name].items():
                print(f"{f.name}: {meth}: {k} / {n} killed", flush=True)
    print()
    print(f"{'file':<14} {'method':<34} killed / mutants")
    tk = tt = 0
    for fname, meths in per_file.items():
        for meth, (k, t) in meths.items():
            print(f"{fname:<14} {meth:<34} {k:>4} / {t:<4} ({100 * k / max(t, 1):.0f}%)")
            tk, tt = tk + k, tt + t
    print(f"{'all':<14} {'':<34} {tk:>4} / {tt:<4} ({100 * tk / max(tt, 1):.0f}%)   "
          f"{len(survivors)} survivors, {time.monotonic() - t0:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
