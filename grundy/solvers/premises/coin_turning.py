"""The coin-turning premise: the rule is a coin-turning game, proved by Z3 on the structure.

A *coin-turning game* (Berlekamp, Conway and Guy, *Winning Ways*, ch. 14; Conway, *On Numbers
and Games*, ch. 11-13) has one bool field (a coin per slot, true = heads), and every move

- turns over a fixed set S of coins (each coin of S negated, every other coin unchanged), the
  same set at every position (no numeric choice);
- is legal exactly where one coin c of S shows heads (the guard *is* "c shows heads": it reads
  no other coin), and c goes to tails;
- and there is an order on the coins in which every move's c comes after the rest of its S.

Then the value of a position is the nim-sum of the values of its heads, each valued as the
only head: G(c) = mex{ XOR of G(c') over c' in S - {c} : S a move whose last coin is c }.
(Proof, by induction on the order: write f(s) = XOR of G(c) over the heads c of s. A move S with
last coin c turns f(s) into f(s) ^ G(c) ^ X_S, and X_S != G(c) by the mex, so no option has
value f(s). For v < f(s), let d = v ^ f(s) and c a head whose G(c) has d's top bit: G(c) ^ d <
G(c), so some move S with last coin c has X_S = G(c) ^ d, and it is legal at s since c shows
heads: its option has value v. Hence G(s) = mex of the options' values = f(s).)

:func:`coin_turning` reads the shape off the rule by evaluating each move at a few concrete
states (which coins its update changes at the all-tails state: S; which coin of S alone makes
its guard true: c), orders the coins (a topological order of "c comes after S - {c}"; a cycle
refuses), and then asks Z3, over the symbolic state of every coin, that no move and no state
break the shape: for every move, guard == coin c, and each updated slot is its coin negated (in
S) or unchanged (not in S). Only ``proved`` admits the decomposition; a refusal is one line
naming the move and, where one shows it, a position.

>>> from grundy.spec import Field, Game, Structure, ite, move, total
>>> class Row(Game):                      # turn one or two coins, the right one heads -> tails
...     name, summary, structure = "doc-row", "doc", "heaps"
...     def fields(self, g): return [Field("coin", over="heaps", kind="bool")]
...     def moves(self, g, s):
...         for c in g.elements:
...             yield move(f"turn {c}", guard=s.coin[c], update=s.set(coin={c: ~s.coin[c]}))
...             for b in range(c):
...                 yield move(f"turn {b},{c}", guard=s.coin[c], update=s.set(coin={b: ~s.coin[b], c: ~s.coin[c]}))
...     def rank(self, g, s): return total(ite(s.coin[i], 2 ** i, 0) for i in g.elements)
>>> ct = coin_turning(Row().rules(Structure.heaps(4)), cache=False)
>>> ct.premise.status, ct.values           # a head in place c is a nim heap of c + 1
('proved', (1, 2, 3, 4))
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ...spec.expr import Expr, any_of, evaluate, not_
from ...spec.game import Rules
from .base import _Z3, NOT_DECLARED, PROVED, UNKNOWN, VIOLATED, Premise, _cached, _encoding

__all__ = ["CoinTurning", "coin_turning", "COIN_TURNING", "mex"]

COIN_TURNING = "coin-turning decomposition"
BUDGET = 60_000_000      # Z3 resource units the proof may use (deterministic)


@dataclass(frozen=True)
class CoinTurning:
    """What :func:`coin_turning` found: the ``premise`` (proved, violated, unknown, not declared:
    not a coin game at all) and, where the shape was read, per move its coin going heads ->
    tails (``last``) and the other coins it turns (``others``), the coins in an order putting
    each move's last coin after its others (``order``), and the single-head values
    (``values[c]``, by the mex recursion; empty unless proved)."""

    premise: Premise
    last: tuple[int, ...] = ()
    others: tuple[tuple[int, ...], ...] = ()
    order: tuple[int, ...] = ()
    values: tuple[int, ...] = field(default=())

    @property
    def holds(self) -> bool:
        return self.premise.holds

    def value(self, state: tuple[int, ...]) -> int:
        """The nim-sum of the single-head values of the heads of ``state`` (premise proved)."""
        v = 0
        for c, heads in enumerate(state):
            if heads:
                v ^= self.values[c]
        return v


def mex(values: set[int]) -> int:
    """The least non-negative integer not in ``values``.

    >>> mex({0, 1, 3})
    2
    """
    m = 0
    while m in values:
        m += 1
    return m


def _refuse(status: str, why: str, state: tuple[int, ...] | None = None) -> CoinTurning:
    how = "not a coin-turning game" if status == NOT_DECLARED else f"{COIN_TURNING} {status}: not used"
    return CoinTurning(Premise("coin-turning", status, how, why, False, state))


class _Shape(Exception):
    """The rule is not of the coin-turning shape: ``why`` (one line), at ``state`` if any."""

    def __init__(self, why: str, state: tuple[int, ...] | None = None):
        super().__init__(why)
        self.why, self.state = why, state


def _read_shape(rules: Rules) -> tuple[list[int], list[tuple[int, ...]]]:
    """Per move: the coin its guard reads (going heads -> tails) and the other coins it turns,
    read at concrete states (proved afterwards by Z3); :class:`_Shape` where it cannot be."""
    names = [v.name for v in rules.schema.variables]
    tails: dict[str, int | bool] = dict.fromkeys(names, False)
    last: list[int] = []
    others: list[tuple[int, ...]] = []
    for m in rules.moves:
        if m.choices:
            raise _Shape(f"move {m.label!r} has numeric choices (a coin-turning move turns a fixed set)")
        turned = sorted(i for i, u in m.update.items() if bool(evaluate(u, tails)))
        alone = [c for c in turned if bool(evaluate(m.guard, {**tails, names[c]: True}))]
        if len(alone) != 1:
            raise _Shape(f"move {m.label!r}: its guard is not 'one coin it turns shows heads' "
                         f"(true with {len(alone)} of the {len(turned)} coins it turns alone showing heads)")
        last.append(alone[0])
        others.append(tuple(i for i in turned if i != alone[0]))
    return last, others


def _order(n: int, last: list[int], others: list[tuple[int, ...]], labels: list[str]) -> list[int]:
    """The coins in an order putting each move's last coin after its others (Kahn's
    topological sort); :class:`_Shape` naming a move on a cycle where there is none."""
    before: list[set[int]] = [set() for _ in range(n)]     # c -> the coins that must come before c
    for c, rest in zip(last, others, strict=True):
        before[c].update(rest)
    after: list[list[int]] = [[] for _ in range(n)]
    for c in range(n):
        for b in before[c]:
            after[b].append(c)
    need = [len(b) for b in before]
    ready = [c for c in range(n) if need[c] == 0]
    out: list[int] = []
    while ready:
        b = ready.pop()
        out.append(b)
        for c in after[b]:
            need[c] -= 1
            if need[c] == 0:
                ready.append(c)
    if len(out) < n:
        stuck = next(i for i, c in enumerate(last) if need[c] and any(need[b] for b in others[i]))
        raise _Shape(f"move {labels[stuck]!r}: no order of the coins puts every move's heads -> tails coin "
                     "after the others it turns (a cycle of moves)")
    return out


def _coin(rules: Rules, c: int) -> str:
    """Coin ``c`` as the position names it (a vertex by its name)."""
    name, key = rules.schema.slots[c]
    over = rules.schema.fields[name].over
    return f"{name}[{rules.structure.names[key]}]" if over == "vertices" and isinstance(key, int) else rules.schema.var_name(c)


def _broken(rules: Rules, mi: int, c: int, flips: set[int], state: tuple[int, ...]) -> str:
    """How move ``mi`` breaks the shape at the concrete ``state`` ("" where it does not)."""
    m = rules.moves[mi]
    env: dict[str, int | bool] = {v.name: bool(x) for v, x in zip(rules.schema.variables, state, strict=True)}
    if evaluate(m.guard, env) != env[rules.schema.var_name(c)]:
        return f"its guard is not exactly 'coin {_coin(rules, c)} shows heads'"
    for i, u in m.update.items():
        old = env[rules.schema.var_name(i)]
        if evaluate(u, env) != (not old if i in flips else old):
            return f"coin {_coin(rules, i)} is not turned alike at every position"
    return ""


def _violation(rules: Rules, last: list[int], others: list[tuple[int, ...]], state: tuple[int, ...]) -> str:
    """The first move breaking the shape at the concrete ``state``, in one line, shown at a
    position with as few heads as still show it (heads turned to tails one by one)."""
    for mi, (c, rest) in enumerate(zip(last, others, strict=True)):
        flips = {c, *rest}
        why = _broken(rules, mi, c, flips, state)
        if not why:
            continue
        small = list(state)
        for i in range(len(small)):
            if small[i]:
                small[i] = 0
                if _broken(rules, mi, c, flips, tuple(small)) != why:
                    small[i] = 1
        return f"move {rules.moves[mi].label!r}: {why} (at {rules.describe(tuple(small))})"
    return ""


def _prove(rules: Rules, last: list[int], others: list[tuple[int, ...]]) -> tuple[str, str, str, Any]:
    """Z3: no state and no move break the shape (one query over every move)."""
    var = rules.schema.variables
    bad: list[Expr] = []
    for m, c, rest in zip(rules.moves, last, others, strict=True):
        flips = {c, *rest}
        bad.append(m.guard != var[c])
        bad.extend(u != (not_(var[i]) if i in flips else var[i]) for i, u in m.update.items())
    try:
        z = _Z3(_encoding(rules), BUDGET)
        status, model = z.check([any_of(bad)])
    except Exception as e:       # noqa: BLE001  (a rule Z3 cannot take: not proved, not used)
        return UNKNOWN, f"{COIN_TURNING} not proved ({type(e).__name__}): not used", "", None
    if status == "unsat":
        return PROVED, f"{COIN_TURNING}, proved by Z3 on the rule", "", None
    if status == "unknown":
        return UNKNOWN, f"{COIN_TURNING} not proved (Z3 unknown within its resource limit): not used", "", None
    state = z.state(model)
    why = _violation(rules, last, others, state)
    if not why:
        return UNKNOWN, f"{COIN_TURNING} not proved (Z3's counterexample does not replay): not used", "", None
    return VIOLATED, f"{COIN_TURNING} violated: not used", why, list(state)


def coin_turning(rules: Rules, *, cache: bool = True) -> CoinTurning:
    """Whether ``rules`` is a coin-turning game on its structure (see the module's docstring),
    with the single-head values when it is (the Z3 proof kept on disk, keyed by the rules'
    content)."""
    sch = rules.schema
    if len(sch.fields) != 1 or next(iter(sch.fields.values())).kind != "bool" or not len(sch):
        return _refuse(NOT_DECLARED, "the position is not one bool field (a coin per slot)")
    try:
        last, others = _read_shape(rules)
        order = _order(len(sch), last, others, [m.label for m in rules.moves])
    except _Shape as e:
        return _refuse(VIOLATED, e.why, e.state)
    p = _cached("coin-turning", rules, [BUDGET], cache, lambda: _prove(rules, last, others), False)
    ct = CoinTurning(p, tuple(last), tuple(others), tuple(order))
    if not p.holds:
        return ct
    by_last: list[list[tuple[int, ...]]] = [[] for _ in range(len(sch))]
    for c, rest in zip(last, others, strict=True):
        by_last[c].append(rest)
    values = [0] * len(sch)
    for c in order:                           # every coin a move of c turns is valued already
        opts = set()
        for rest in by_last[c]:
            x = 0
            for b in rest:
                x ^= values[b]
            opts.add(x)
        values[c] = mex(opts)
    return CoinTurning(p, ct.last, ct.others, ct.order, tuple(values))
