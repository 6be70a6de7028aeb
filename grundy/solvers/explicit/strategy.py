"""A strategy's cases (:class:`~grundy.spec.strategy.Play`) compiled to Python as one function
of the state: the move of the first case whose condition holds, or of every case that holds.
The cases are grouped, as the moves are, by the state variable they test against a constant
(typically the token): at a state, only the cases of its value and those that test none are
evaluated, in their order; subexpressions shared between the cases of a group are computed
once. Nothing here knows any particular game.
"""
from __future__ import annotations

from collections import Counter
from typing import Callable, Sequence, cast

from ...spec.expr import Expr
from ...spec.game import Rules
from ...spec.strategy import Play
from .compile import _by_identity
from .plan import PythonSyntax, conjuncts, dispatch_key, emitter, shared_nodes, slot_sources


def compile_strategy(rules: Rules, cases: Sequence[Play], every: bool = False) -> Callable:
    """``first(s)``: the move ``(move number, choice values)`` of the first case whose condition
    holds at ``s`` (None: no case applies); ``every``: ``every(s)``, the moves of all the cases
    that hold, in their order. The text is generated once per cases and layout (node identity)."""
    names = slot_sources(rules)
    key = ("strategy", every, tuple((id(p.when), p.move, tuple((c.name, id(p.choice[c.name]))
                                                               for c in rules.moves[p.move].choices))
                                    for p in cases), tuple(names.items()))
    keep = [(p.when, list(p.choice.values())) for p in cases]
    code, src = _by_identity(key, keep, lambda: _module(rules, cases, names, every), lambda v: 2 * len(v[1]))
    env: dict = dict(PythonSyntax.RUNTIME)
    exec(code, env)
    entry = "every" if every else "first"
    env[entry].__source__ = src
    return env[entry]


def _keys(rules: Rules, cases: Sequence[Play]) -> tuple[str | None, list[tuple[Expr, int] | None]]:
    """The state variable most cases test against a constant (a conjunct ``var == c``), and per
    case that conjunct and its constant (None: the case tests no such conjunct)."""
    slots = rules.schema.slot_by_var
    found = [[(c, k) for c in conjuncts(cast(Expr, p.when)) if (k := dispatch_key(c)) and k[0] in slots] for p in cases]
    votes = Counter(k[0] for f in found for k in {k for _, k in f})
    if not votes or votes.most_common(1)[0][1] < 2:
        return None, [None] * len(cases)
    var = votes.most_common(1)[0][0]
    return var, [next(((c, k[1]) for c, k in f if k[0] == var), None) for f in found]


def _module(rules: Rules, cases: Sequence[Play], names: dict[str, str], every: bool):
    """The module's code and text: per group ``<entry>_<value>`` (the cases that test no
    constant: ``<entry>_none``), and the entry point ``<entry>`` (``first`` or ``every``)."""
    var, keys = _keys(rules, cases)
    values = sorted({k[1] for k in keys if k is not None})
    entry = "every" if every else "first"
    src: list[str] = []
    for value in [None, *values]:
        idx = [i for i, k in enumerate(keys) if k is None or k[1] == value]
        body = _body(rules, cases, keys, idx, names, every)
        src.append(f"def {entry}_{_tag(value)}(s):\n" + "".join(f"    {ln}\n" for ln in body))
    if var is None:
        src.append(f"{entry} = {entry}_none\n")
    else:
        table = ", ".join(f"{v}: {entry}_{_tag(v)}" for v in values)
        src.append(f"BY_VALUE = {{{table}}}\n"
                   f"def {entry}(s):\n    return BY_VALUE.get({names[var]}, {entry}_none)(s)\n")
    text = "\n".join(src)      # compiled here: kept with its entry of _by_identity, not in _code's cache
    return compile(text, "<grundy strategy>", "exec"), text


def _tag(value: int | None) -> str:
    return "none" if value is None else str(value).replace("-", "m")


def _body(rules: Rules, cases: Sequence[Play], keys: list, idx: list[int], names: dict[str, str],
          every: bool) -> list[str]:
    """The cases ``idx`` in order, each condition without its dispatch conjunct (decided by the
    group), the locals a condition needs bound just before it; a case's choices are computed
    in its block (its own locals named apart; those of the conditions before it read)."""
    conds = [[c for c in conjuncts(cast(Expr, cases[i].when)) if keys[i] is None or c is not keys[i][0]] for i in idx]
    em = emitter(names, shared_nodes([c for cs in conds for c in cs]))
    lines = ["out = []"] if every else []
    for j, i in enumerate(idx):
        srcs = [em.expr(c) for c in conds[j]]
        lines += em.take_lines()
        p = cases[i]
        exprs = [cast(Expr, p.choice[c.name]) for c in rules.moves[p.move].choices]   # lifted by Play
        ec = emitter(names, shared_nodes(exprs))      # what the conditions bound so far, read
        ec.memo, ec.depth, ec.counter = dict(em.memo), dict(em.depth), 1_000_000 * (j + 1)
        cv = [ec.expr(e) for e in exprs]
        chosen = f"({p.move}, ({''.join(f'{v}, ' for v in cv)}))"
        lines.append(f"if {' and '.join(srcs) or 'True'}:")
        lines += ["    " + ln for ln in ec.take_lines()]
        lines.append(f"    out.append({chosen})" if every else f"    return {chosen}")
    lines.append("return out" if every else "return None")
    return lines
