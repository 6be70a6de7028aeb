"""IR -> Z3: one translation of the expression DAG, for every game.

A game's :class:`~grundy.spec.game.Rules` (state slots, guarded moves, rank) and any
claim written over its state become Z3 terms here. Nothing in this file knows a game.

Two modes:

* ``width=None``: int fields are unbounded Z3 ``Int`` s, bool fields ``Bool`` s. A check
  that holds here holds for *all* sizes.
* ``width=k``: each int/vertex/edge field is a ``k``-bit vector, constrained to its
  domain and (int fields) to ``<= bound`` (default ``2**(k-2) - 1``).

A ``bound`` given with ``width=None`` bounds the int fields of unbounded integers (the
family becomes finite: numeric choices may then be expanded instead of quantified).

**Why the bit-vector mode is sound (no wrap-around).** A query is a conjunction of IR
formulas over atomic variables: the state slots and the numeric choices (free, or bound by
a quantifier). Each atomic variable gets an interval: a slot its domain (``lower <= x <=
bound``, vertex/edge ranges), a choice ``[min lo, max hi]`` by interval arithmetic over its
bound expressions (:func:`intervals`), the target value of mex-below ``[0, max gval - 1]``.
Interval arithmetic over the DAG then gives a range for every integer node, including
every intermediate of ``//`` (floor division is computed as the exact quotient
``(a - a mod k) / k``). The query is translated at a working width ``W``
(:meth:`Encoding.width_for`) in which *all* those ranges fit as two's-complement numbers
(``k``-bit fields are zero- or sign-extended to ``W``), and each atomic variable is
constrained to its interval by comparisons with constants (:meth:`Encoding.ranges`; inside
a quantifier, in its body): these are exact at ``W``, and implied by the real constraints
(domains, ``lo <= k <= hi``), so adding them removes no solution of the integer query. On
every remaining assignment each node's true value lies in its interval, hence fits in
``W`` bits, and two's-complement ``+ - *`` (exact modulo ``2**W``) and signed comparisons
give exactly the integer results. The nim-sum ``a ^ b`` too: if both operands fit in ``n``-bit
two's complement so does their nim-sum (the interval :meth:`Intervals.walk_xor` gives; below
``2**(n-1)`` for non-negative operands), and ``bvxor`` of the operands sign-extended to ``W >= n``
bits is the sign extension of their ``n``-bit nim-sum, which is Python's ``a ^ b``. Non-linear
products (``nmul``) get the interval of the four corner products. So a bit-vector query is
satisfiable iff the integer query restricted to fields ``<= bound`` is.

The nim-sum has no encoding on unbounded integers (``width=None``): the translation refuses it
with a message that asks for a bit width (``methods=[bitvec(32)]``).

>>> from grundy.spec.games import get_game
>>> from grundy.spec import Structure
>>> enc = encoding(get_game("nim").rules(Structure.heaps(2)))
>>> s = enc.rules.state
>>> z = enc.to_z3(s.heap[0] + 2 * s.heap[1] < 7)
>>> import z3
>>> h0, h1 = enc.state_vars
>>> z3.simplify(z3.substitute(z, (h0, z3.IntVal(1)), (h1, z3.IntVal(3))))
False
>>> enc16 = encoding(get_game("nim").rules(Structure.heaps(2)), width=16)
>>> enc16.bound, enc16.width_for([s.heap[0] + s.heap[1]])
(16383, 16)
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import product
from typing import Iterable, Mapping, Union, overload

import z3

from ...caches import register
from ...spec.expr import INT, Expr, Term, Var, all_of, any_of, lift, nodes, not_
from ...spec.game import Rules
from ...spec.ops import UnsupportedOperator
from .intervals import Interval, Intervals, intervals, signed_bits
from .rewrite import _Normalize, normalize, substitute, uses, walk
from .translate import NO_INT_XOR, NO_NEGATIVE_NIM, Exists, _Translator, no_int

__all__ = ["Encoding", "encoding", "Exists", "Part", "part_exprs", "MoveEnc", "EXPAND_LIMIT", "NO_INT_XOR",
           "NO_NEGATIVE_NIM", "no_int",
           # kept importable from here: .rewrite's and .intervals'
           "substitute", "normalize", "uses", "walk", "_Normalize", "intervals", "Interval", "Intervals",
           "signed_bits"]

EXPAND_LIMIT = 32   # expand a move's numeric choices when they take at most this many values


Part = Union[Expr, Exists]


def part_exprs(parts: Iterable[Part]) -> list[Expr]:
    return [p.body if isinstance(p, Exists) else p for p in parts]


# --------------------------------------------------------------------------- moves
@dataclass
class MoveEnc:
    """One move with its numeric choices renamed apart (``k`` of move 3 is ``k#3``)."""

    index: int
    label: str
    choices: list[tuple[str, str, Expr, Expr]]   # (name in the rule, name here, lo, hi)
    guard: Expr
    update: dict[str, Expr]                      # state variable name -> new value (changed slots)
    legal: Expr                                  # guard and every choice within its bounds

    @property
    def names(self) -> tuple[str, ...]:
        return tuple(c[1] for c in self.choices)


# --------------------------------------------------------------------------- the encoding
class Encoding:
    """The Z3 view of one ``Rules`` in one mode (see the module docstring); get it from :func:`encoding`."""

    def __init__(self, rules: Rules, width: int | None = None, bound: int | None = None):
        self.rules, self.width = rules, width
        sch = rules.schema
        g = rules.structure
        if width is not None and width < 3:
            raise ValueError("width must be at least 3 bits")
        self.bound = bound if width is None or bound is not None else (1 << (width - 2)) - 1
        self.mode = "int" if width is None else "bv"
        self.names = [sch.var_name(i) for i in range(len(sch))]
        self.kinds = [sch.fields[f].kind for f, _ in sch.slots]
        self.var_iv: dict[str, Interval] = {}
        dom, fam = [], []
        self.signed: list[bool] = []
        for i, (fname, _) in enumerate(sch.slots):
            f, v = sch.fields[fname], sch.variables[i]
            if f.kind == "bool":
                self.signed.append(False)
                continue
            if f.kind == "int":
                lo, hi = f.lower, None
                dom.append(v >= lo)
                if self.bound is not None:
                    hi = self.bound
                    fam.append(v <= hi)
            elif f.kind == "vertex":
                lo, hi = 0, g.n - 1
                dom.append((v >= 0) & (v <= hi))
            else:
                lo, hi = -1, len(g.edges) - 1
                dom.append((v >= -1) & (v <= hi))
            self.var_iv[self.names[i]] = (lo, hi)
            self.signed.append(lo < 0)
            if width is not None and hi is not None and signed_bits(lo, hi) - (lo >= 0) > width:
                raise ValueError(f"field {fname}: values up to {hi} do not fit in {width} bits")
        self.domain: Expr = all_of(dom)             # the schema's domains
        self.family: Expr = all_of(dom + fam)       # ... and int fields <= bound, if any
        self.state_vars = [self._declare_state(i) for i in range(len(sch))]
        self.moves = [self._move(i, m) for i, m in enumerate(rules.moves)]
        self._translators: dict[int | None, _Translator] = {}
        self._enabled: dict[int, Part] = {}
        self._normal: dict[int, tuple[Expr, Expr]] = {}
        self._next: dict[tuple[int, int], tuple[Expr, Expr]] = {}

    @overload
    def prepare(self, p: Expr, extra_iv: dict[str, Interval] | None = None) -> Expr: ...
    @overload
    def prepare(self, p: "Part", extra_iv: dict[str, Interval] | None = None) -> "Part": ...

    def prepare(self, p: "Part", extra_iv: dict[str, Interval] | None = None) -> "Part":
        """A query part with its comparisons normalised (:func:`normalize`; memoised) and, in
        bit-vector mode, each quantified variable held to its interval in the body."""
        if isinstance(p, Exists):
            body = all_of([self.ranges(p.names, extra_iv), self.prepare(p.body)])
            return Exists(p.names, body, p.negated)
        return normalize(lift(p), self._normal)

    def ranges(self, names: Iterable[str], extra_iv: dict[str, Interval] | None = None) -> Expr:
        """Bit-vector mode: ``lo <= x <= hi`` (constants) for each named non-state variable's
        interval (what makes the translation exact; see the module docstring). Int mode: True."""
        if self.width is None:
            return lift(True)
        out = []
        for n in names:
            lo, hi = (extra_iv or {}).get(n) or self.var_iv[n]
            v = Var.int(n)
            # a None side (unbounded; only an extra_iv can give one here) is refused by lift with a
            # TypeError, as it always was: kept so, not narrowed, to leave that behaviour alone
            out.append((lo <= v) & (v <= hi))  # type: ignore[operator]
        return all_of(out)

    def free_names(self, items: Iterable[Expr]) -> list[str]:
        """The non-state variables free in ``items`` (plain IR, outside quantifiers)."""
        state = set(self.names)
        out: dict[str, None] = {}
        for e in items:
            for x in nodes(e):
                if x.op == "var" and x.args[0] not in state:
                    out[x.args[0]] = None
        return list(out)

    def _declare_state(self, i: int):
        name, kind = self.names[i], self.kinds[i]
        if kind == "bool":
            return z3.Bool(name)
        return z3.Int(name) if self.width is None else z3.BitVec(name, self.width)

    def _move(self, i: int, m) -> MoveEnc:
        ren: dict[str, Expr] = {}
        choices = []
        for c in m.choices:
            new = f"{c.name}#{i}"
            lo, hi = substitute(c.lo, ren), substitute(c.hi, ren)
            lo_iv = intervals([lo], self.var_iv)[id(lo)][1]
            hi_iv = intervals([hi], self.var_iv)[id(hi)][1]
            self.var_iv[new] = (lo_iv[0], hi_iv[1])
            ren[c.name] = Var.int(new)
            choices.append((c.name, new, lo, hi))
        guard = substitute(m.guard, ren)
        update = {self.names[slot]: substitute(e, ren) for slot, e in m.update.items()}
        legal = all_of([guard] + [(lo <= ren[n]) & (ren[n] <= hi) for n, _, lo, hi in choices])
        return MoveEnc(i, m.label, choices, guard, update, legal)

    # ---------------------------------------------------------------- building formulas
    def next(self, e: Expr, i: int) -> Expr:
        """``e`` evaluated in the state after move ``i`` (its choices free; memoised)."""
        e = lift(e)
        key = (id(e), i)
        hit = self._next.get(key)
        if hit is None:
            hit = self._next[key] = (e, substitute(e, self.moves[i].update))
        return hit[1]

    def with_choices(self, e: Expr, i: int, values: Mapping[str, Term]) -> Expr:
        """``e`` (over move ``i``'s renamed choices) with the choices given by rule name."""
        ren = {new: lift(values[name]) for name, new, _, _ in self.moves[i].choices}
        return substitute(e, ren)

    def exists_choice(self, i: int, body: Term = True) -> Part:
        """``∃ choices of move i. legal ∧ body``: plain IR when the choices expand (or do not
        matter), else a quantifier."""
        mv = self.moves[i]
        body = lift(body)
        formula = mv.legal & body
        if not mv.choices:
            return formula
        names = set(mv.names)
        if not uses(mv.guard, names) and not uses(body, names) and not any(
                uses(lo, names) or uses(hi, names) for _, _, lo, hi in mv.choices):
            # the choices only need a non-empty range: ∃k. lo <= k <= hi ∧ φ  ==  lo <= hi ∧ φ
            return all_of([mv.guard, body] + [lo <= hi for _, _, lo, hi in mv.choices])
        values = self.expansion(i)
        if values is not None:
            return any_of(substitute(formula, {n: lift(v) for n, v in zip(mv.names, combo, strict=False)})
                          for combo in values)
        return Exists(mv.names, formula)

    def expansion(self, i: int) -> list[tuple[int, ...]] | None:
        """Every combination of move i's choice values, when their ranges are bounded by
        constants and small (at most ``EXPAND_LIMIT`` combinations); else None."""
        ranges = []
        size = 1
        for _, new, _, _ in self.moves[i].choices:
            lo, hi = self.var_iv[new]
            if lo is None or hi is None:
                return None
            size *= max(0, hi - lo + 1)
            if size > EXPAND_LIMIT:
                return None
            ranges.append(range(lo, hi + 1))
        return list(product(*ranges))

    def enabled(self, i: int) -> Part:
        """Move ``i`` is legal for some choice values."""
        if i not in self._enabled:
            self._enabled[i] = self.exists_choice(i)
        return self._enabled[i]

    def terminal(self) -> list[Part]:
        """No move is legal (a conjunction of parts)."""
        return [~p if isinstance(p, Exists) else not_(p) for p in map(self.enabled, range(len(self.moves)))]

    def non_terminal(self) -> Part | list[Part]:
        """Some move is legal: IR when every move's enabledness is IR, else a list of
        alternatives (see :meth:`any_part`)."""
        return self.any_part([self.enabled(i) for i in range(len(self.moves))])

    @staticmethod
    def any_part(parts: list[Part]) -> Part | list[Part]:
        exprs = [p for p in parts if not isinstance(p, Exists)]
        quants: list[Part] = [p for p in parts if isinstance(p, Exists)]
        if not quants:
            return any_of(exprs)
        return [any_of(exprs), *quants] if exprs else quants

    # ---------------------------------------------------------------- widths and translation
    def width_for(self, exprs: Iterable[Expr], extra_iv: dict[str, Interval] | None = None) -> int | None:
        """The working width at which every integer node of ``exprs`` fits (None in Int mode)."""
        if self.width is None:
            return None
        var_iv = dict(self.var_iv, **(extra_iv or {}))
        memo = intervals([lift(e) for e in exprs], var_iv)
        w = self.width
        for n in self.names:
            if n in self.var_iv:
                slo, shi = self.var_iv[n]
                assert slo is not None and shi is not None   # bit-vector mode: self.bound bounds every int field
                w = max(w, signed_bits(slo, shi))
        for x, (lo, hi) in memo.values():
            if x is None or x.sort != INT:
                continue
            if x.op == "nim_product" and any(not _non_negative(memo[id(y)][1]) for y in x.args):
                raise UnsupportedOperator(NO_NEGATIVE_NIM)
            if lo is None or hi is None:
                raise ValueError(f"an unbounded value in bit-vector mode: {x!r}")
            w = max(w, signed_bits(lo, hi))
            if x.op == "div":              # the exact quotient is taken of a - (a mod k)
                k = x.args[1].args[0]
                alo, ahi = memo[id(x.args[0])][1]
                assert alo is not None and ahi is not None     # checked above: the memo lists children first
                w = max(w, signed_bits(alo - (k - 1), ahi), signed_bits(0, k))
        return w

    def translator(self, w: int | None) -> "_Translator":
        """The (cached) translator at working width ``w`` (None: Int mode)."""
        t = self._translators.get(w)
        if t is None:
            t = self._translators[w] = _Translator(self, w)
        return t

    def to_z3(self, e: Expr, w: int | None = None, extra_iv: dict[str, Interval] | None = None):
        """Translate one IR expression (at the width it needs, if ``w`` is not given). With
        bit-vectors the term is exact where every variable lies in its interval (add
        :meth:`ranges` and :attr:`family` to a query)."""
        e = lift(e)
        if w is None and self.width is not None:
            w = self.width_for([e], extra_iv)
        return self.translator(w)(e)

    def state_of(self, model: z3.ModelRef) -> tuple[int, ...]:
        """The state (schema order, Python ints) in a Z3 model."""
        out = []
        for v, kind, signed in zip(self.state_vars, self.kinds, self.signed, strict=False):
            val = model.eval(v, model_completion=True)
            if kind == "bool":
                out.append(int(z3.is_true(val)))
            elif self.width is None:
                out.append(val.as_long())
            else:
                out.append(val.as_signed_long() if signed else val.as_long())
        return tuple(out)

    def value_of(self, model: z3.ModelRef, name: str, w: int | None) -> int:
        """The value of a non-state integer variable (a choice) in a model."""
        val = model.eval(self.translator(w).var(name, INT), model_completion=True)
        return val.as_long() if w is None else val.as_signed_long()

    def scope(self) -> str:
        """What a "holds" means in this mode, in words."""
        if self.width is None:
            return ("all sizes (unbounded integers)" if self.bound is None else
                    f"every int field <= {self.bound} (unbounded integers)")
        return (f"every int field <= {self.bound} ({self.width}-bit vectors; values computed at a "
                f"width where no wrap-around can happen)")


_CACHE: dict[tuple[int, int | None, int | None], Encoding] = {}
register("encodings", lambda: len(_CACHE), lambda: _CACHE.clear())


def encoding(rules: Rules, width: int | None = None, bound: int | None = None) -> Encoding:
    """The cached :class:`Encoding` of ``rules`` (per rules, width and bound)."""
    key = (id(rules), width, bound)
    enc = _CACHE.get(key)
    if enc is None or enc.rules is not rules:
        enc = _CACHE[key] = Encoding(rules, width, bound)
    return enc


def _non_negative(iv: Interval) -> bool:
    return iv[0] is not None and iv[0] >= 0
