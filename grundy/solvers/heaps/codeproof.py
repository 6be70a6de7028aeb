"""The premise under a hand-written rule's periodicity theorem: its options equal a finite
take-and-break code's on **every** heap, proved by Z3 over unbounded integers.

Comparing the options heap by heap up to the theorem's bound is not enough: the theorem's
induction reads the options of every heap beyond it. So both inclusions are asked of Z3, each
as one query whose model would be a heap where the rule and the code differ:

- every option of the rule (each of its moves on a lone heap n, every legal choice) leaves
  parts that the code allows at n (at most two non-empty parts, the tokens removed a digit's k
  with the right bit);
- every option of the code (each k and bit: empty the heap of k, leave one heap n - k, split
  n - k into a + (n - k - a)) is some move of the rule for some choice.

``proved`` only when both are unsat; anything else (a model, Z3's unknown, an operator Z3
cannot encode) is not proved, and the theorem is then not used.

>>> from grundy.spec import HeapRule, Var, option
>>> from grundy.spec.heaprule import TakeBreak
>>> class Take13(HeapRule):
...     name = "doc-take13"
...     def options(self, g, n):
...         yield option("take {k}", choose=[("k", 1, 3)], guard=n >= Var.int("k"), parts=lambda k: [n - k])
>>> rule = Take13().heap_rule(None)
>>> rule_is_code(rule, TakeBreak((0, 3, 3, 3)))
(True, '')
>>> rule_is_code(rule, TakeBreak((0, 3, 3)))[0]
False
"""
from __future__ import annotations

from typing import Any

from ...spec.expr import Expr, Var, all_of, any_of, ite, lift, total
from ...spec.heaprule import OneHeap, TakeBreak, rule_heaps

__all__ = ["rule_is_code"]

SECONDS = 10.0           # CPU seconds a query may take (then: not proved)


def _shape(ps: list[Expr]) -> tuple[Expr, Expr]:
    """How many of the parts are heaps, and their total."""
    return total(ite(p > 0, 1, 0) for p in ps), total(ps)


def _ask(query: Any) -> str:
    import z3

    from ..smt.runner import check_within
    s = z3.Solver()
    s.add(query)
    return str(check_within(s, SECONDS)[0])    # CPU seconds: the same answer on a busy machine


def rule_is_code(rule: OneHeap, code: TakeBreak) -> tuple[bool, str]:
    """(True, "") when Z3 proves that the rule's options are the code's on every heap; else
    (False, why)."""
    import z3

    from ..smt.encode import Encoding, Exists
    from ..smt.rewrite import substitute
    if code.last is None or code.unequal:
        return False, "the code is infinite or has unequal splits"
    game = rule.game
    params = getattr(rule.structure, "params", ())
    opts = game.one_heap(rule_heaps(1, params))[1]
    rules = game.rules(rule_heaps(max(2, game.max_parts(rule_heaps(1, params))), params))
    enc = Encoding(rules)
    names = enc.names
    n = Var.int(names[0])
    empty = {nm: lift(0) for nm in names[1:]}
    tr = enc.translator(None)

    def z(e: Any) -> Any:
        if isinstance(e, Exists):
            return tr.part(Exists(e.names, substitute(e.body, empty), e.negated))
        return tr.part(substitute(lift(e), empty))

    ks = {b: [k for k in range(code.last + 1) if code.digit(k) & b] for b in (1, 2, 4)}

    def parts_of(i: int) -> list[Expr]:
        return [enc.next(Var.int(nm), i) for nm in names]

    def allowed(ps: list[Expr]) -> Expr:
        nz, tot = _shape(ps)
        return all_of([p >= 0 for p in ps]) & any_of([
            (nz == 0) & any_of([n == k for k in ks[1] if k > 0]),
            (nz == 1) & any_of([n - tot == k for k in ks[2] if k > 0]),
            (nz == 2) & any_of([n - tot == k for k in ks[4]])])

    base = [z(n >= 0)]
    moves = range(len(opts))            # the rule's moves played in slot 0 (the lone heap)
    for i in moves:
        legal = enc.moves[i].legal
        r = _ask(z3.And(*base, z(legal), z3.Not(z(allowed(parts_of(i))))))
        if r != "unsat":
            return False, (f"option {opts[i].label!r} leaves parts no move of code {code.text} leaves"
                           if r == "sat" else f"Z3: {r}")
    a = Var.int("a#code")

    def missing(b: int, k: int) -> str:
        """Z3's answer to: is code's move (b, k) no option of the rule at some heap?"""
        def match(ps: list[Expr]) -> Expr:
            nz, tot = _shape(ps)
            if b == 1:
                return (nz == 0) & (n == k)
            if b == 2:
                return (nz == 1) & (tot == n - k)
            return (nz == 2) & (tot == n - k) & any_of([p == a for p in ps])
        exists = {1: n == k, 2: n > k, 4: (a >= 1) & (2 * a <= n - k)}[b]
        none = [z(~p) if isinstance(p := enc.exists_choice(i, match(parts_of(i))), Exists) else
                z3.Not(z(p)) for i in moves]
        return _ask(z3.And(*base, z(exists), *none))

    for b, k in [(d, k) for d in (1, 2, 4) for k in ks[d] if not (d in (1, 2) and k == 0)]:
        r = missing(b, k)
        if r != "unsat":
            what = {1: f"emptying a heap of {k}", 2: f"taking {k} and leaving one heap",
                    4: f"taking {k} and splitting the rest"}[b]
            return False, (f"code {code.text}'s move {what} is no option of the rule"
                           if r == "sat" else f"Z3: {r}")
    return True, ""
