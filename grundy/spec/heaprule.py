"""Heap games written as a rule on ONE heap (the shape of CGSuite's heap rulesets).

A :class:`HeapRule` game says only what a single heap of ``n`` tokens may become: each
option is a guard and the *parts* left (zero, one or more heaps; a part of 0 is no heap),
with numeric choices, built by :func:`option`. A position is a multiset of heaps of any
count; a move plays one option in one heap. Everything else is derived from that one text:

- the moves of a position of many heaps (one option in one heap; extra parts go to empty
  slots, and :meth:`HeapRule.read` sizes the slots so that no move ever lacks one), so the
  explicit solver, the C kernel and Z3 see an ordinary guarded-command game;
- the one-heap form itself (:meth:`HeapRule.one_heap`: the variable ``n`` and the options
  with their parts as expressions), for Z3 to reason about a single heap;
- the capability the solver asks of every game alike (:meth:`Game.heap_rule`): the value of
  a position is the XOR of its heaps' one-heap values.

A rule must not make tokens: the parts of an option of ``n`` total at most ``n``, and an
option is never "the same heap again" (a :class:`~grundy.errors.RuleError` otherwise).

:class:`TakeAndBreak` games are written as a code instead (:class:`TakeBreak`: octal codes,
subtraction sets, ...): the options are generated from the code, and the solver finds the
one-heap values by the sparse-space method (see :mod:`grundy.solvers.heaps`).

>>> from grundy import solve
>>> class Halving(HeapRule):          # a toy rule: halve a heap, rounding down, or take 1
...     name = "halving-demo"
...     def options(self, g, n):
...         yield option("halve heap {heap}", guard=n >= 2, parts=[n // 2])
...         yield option("take 1 from heap {heap}", parts=[n - 1])
>>> game = Halving()
>>> [solve(game.position([h]))["grundy"] for h in range(6)]
[0, 1, 0, 2, 1, 2]
>>> solve(game.position([3, 4]))["grundy"]          # a sum: 2 ^ 1
3
"""
from __future__ import annotations

import warnings
from dataclasses import dataclass
from typing import Any, Iterable, Iterator

from .. import hooks
from ..errors import RuleError
from .expr import Expr, Term, Var, all_of, ite, lift, minimum, total
from .game import Game, Move, Rules, move
from .position import Position, make_position, read_heaps
from .schema import Field, SymState
from .structure import Structure
from .takebreak_code import TakeBreak, parse_octal  # re-exported from here too

NO_ROOM = -1     # what a move whose parts find no empty slot writes in its heap's slot (outside the domain)
NO_ROOM_WHY = ("no empty heap slot for its parts (size the slots to the heaps reachable, as reading "
                "the position from JSON does)")

__all__ = ["HeapRule", "OneHeap", "RuleHeaps", "TakeAndBreak", "TakeBreak", "option", "parse_octal"]


def option(label: str, *, parts: Any, guard: Any = True,
           choose: Iterable[tuple[str, Any, Any]] = ()) -> Move:
    """One option of a heap: the heaps it leaves (``parts``), when ``guard`` holds.

    ``parts`` (a list of expressions, or a function of the choices returning one) and
    ``guard`` may depend on the heap's size and on the numeric choices ``choose`` (as in
    :func:`~grundy.spec.move`). A part of 0 leaves no heap. ``{heap}`` in the label names
    the heap the option is played in.

    Parameters
    ----------
    label : str
        The option's name in listings (``{heap}``, ``{a}``: the heap, a choice's value).
    parts : list or callable
        The heaps left, as expressions of the heap's size ``n`` and the choices, or a
        function of the choices returning them; a part of 0 leaves no heap.
    guard : bool, Expr or callable
        When the option may be taken (default: always).
    choose : list of (str, lo, hi)
        Numeric choices, as in :func:`~grundy.spec.move`.

    Returns
    -------
    Move

    Examples
    --------
    >>> n = Var.int("n")
    >>> o = option("split {heap} into {a} + {b}", choose=[("a", 1, n // 2)], parts=lambda a: [a, n - a])
    >>> [str(c.name) for c in o.choices], len(o.update)
    (['a'], 2)
    """
    def update(*vs: Any) -> dict[int, Expr]:
        ps = parts(*vs) if callable(parts) else parts
        return dict(enumerate(lift(p) for p in ps))
    return move(label, update=update, guard=guard, choose=choose)


# ----------------------------------------------------------------------------- structures

@dataclass(frozen=True, eq=False)
class RuleHeaps(Structure):
    """Heap slots, together with the game's parameters read from the JSON (an octal code,
    a subtraction set, ...): ``params`` is a sorted tuple of (key, value) pairs."""

    params: tuple[tuple[str, Any], ...] = ()

    def param(self, key: str) -> Any:
        """The parameter ``key`` (a RuleError if the structure does not carry it)."""
        for k, v in self.params:
            if k == key:
                return v
        return Structure.param(self, key)

    def __hash__(self) -> int:
        return hash((Structure.__hash__(self), self.params))

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, RuleHeaps) and self.params == other.params
                and Structure.__eq__(self, other))


def rule_heaps(n: int, params: dict[str, Any] | tuple[tuple[str, Any], ...] = ()) -> RuleHeaps:
    """``n`` heap slots carrying ``params``."""
    items = tuple(sorted(params.items())) if isinstance(params, dict) else tuple(params)
    return RuleHeaps("heaps", n, names=list(range(n)), params=items)


@dataclass(frozen=True)
class OneHeap:
    """What the solver needs of a game whose positions are sums of single heaps: the game,
    the structure (for its parameters), and its take-and-break code if it has one."""

    game: "HeapRule"
    structure: Structure
    code: "TakeBreak | None"

    @property
    def key(self) -> tuple[Any, ...]:
        """One-heap values depend on the game and its parameters only."""
        return (self.game.name, getattr(self.structure, "params", ()))

    def heaps(self, state: tuple[int, ...]) -> list[int]:
        return [h for h in state if h > 0]


# ----------------------------------------------------------------------------- HeapRule

class HeapRule(Game):
    """Base class of a game written as a rule on one heap: implement :meth:`options` only
    (and :meth:`read_params` if the JSON carries parameters such as a code or a set).

    ``options(g, n)`` yields :func:`option`\\ s of a heap of ``n`` tokens (``n`` is an
    expression; ``g`` carries the parameters: ``g.param("set")``).

    Attributes
    ----------
    name, summary : str
        As for every :class:`~grundy.spec.game.Game`.
    structure, decompose_over : str
        ``"heaps"`` both: a position is a sum of heaps by construction.

    Raises
    ------
    grundy.errors.RuleError
        A subclass of :class:`TakeAndBreak` that also defines options (one line).

    Examples
    --------
    >>> class TakeOneOrTwo(HeapRule):
    ...     name = "doc-take-1-2"
    ...     summary = "remove one or two tokens from a heap"
    ...     def options(self, g, n):
    ...         yield option("take 1 from heap {heap}", guard=n >= 1, parts=[n - 1])
    ...         yield option("take 2 from heap {heap}", guard=n >= 2, parts=[n - 2])
    >>> from grundy import register, solve
    >>> _ = register(TakeOneOrTwo(), listed=False)
    >>> [solve({"game": "doc-take-1-2", "heaps": [n]})["grundy"] for n in range(6)]
    [0, 1, 2, 0, 1, 2]
    """

    structure = "heaps"
    decompose_over = "heaps"

    def options(self, g: Structure, n: Expr) -> Iterable[Move]:
        raise NotImplementedError

    def rule_options(self, g: Structure, n: Expr) -> Iterable[Move]:
        """The options every derived form reads (the moves on slots, the one-heap rule): the
        game's :meth:`options`."""
        return self.options(g, n)

    def read_params(self, obj: dict[str, Any]) -> dict[str, Any]:
        """The game's parameters from a JSON position (hashable values; InputError if bad)."""
        return {}

    def max_heaps(self, g: Structure, heaps: list[int]) -> int:
        """An upper bound on the number of heaps of any position reachable from ``heaps``.
        Parts never total more than the heap, so every heap keeps a token: the tokens bound it."""
        return max(len(heaps), sum(heaps))

    # derived: one heap ---------------------------------------------------------
    def one_heap(self, g: Structure | None = None) -> tuple[Var, list[Move]]:
        """The rule on a single heap ``n``: (``n``, options whose ``update`` maps part
        index -> expression), for symbolic reasoning (Z3) about one heap.

        >>> from grundy.spec.games import get_game
        >>> n, opts = get_game("lasker-nim").one_heap()
        >>> [o.label for o in opts]
        ['remove {k} from heap {heap}', 'split heap {heap} into {a} + {b}']
        """
        n = Var.int("n")
        return n, list(self.rule_options(g if g is not None else rule_heaps(1), n))

    def one_heap_rules(self, g: Structure | None = None) -> Rules:
        """The rule on one heap as ordinary :class:`~grundy.spec.game.Rules`: slot 0 holds the
        heap, slots 1.. (as many as an option leaves parts, minus one) start empty and receive
        the other parts. Moves 0, 1, ... of these rules are the options in order; what the
        solver enumerates concretely and what Z3 reads (``Encoding(game.one_heap_rules())``)."""
        params = getattr(g, "params", ()) if g is not None else ()
        return self.rules(rule_heaps(self.max_parts(g if g is not None else rule_heaps(1, params)), params))

    def max_parts(self, g: Structure) -> int:
        """The most parts any option leaves."""
        return max((len(o.update) for o in self.one_heap(g)[1]), default=1) or 1

    def heap_rule(self, g: Structure) -> OneHeap | None:
        """Every position is a sum of heaps: the rule (one per parameter set, kept)."""
        if isinstance(self, TakeAndBreak):
            self.check_derived()                 # the tables read the code, the moves the options
        cache: dict[Any, OneHeap] = self.__dict__.setdefault("_heap_rules", {})
        key = getattr(g, "params", ())
        rule = cache.get(key)
        if rule is None:
            rule = cache[key] = OneHeap(self, g, self.code(g) if isinstance(self, TakeAndBreak) else None)
        return rule

    # derived: many heaps -------------------------------------------------------
    def fields(self, g: Structure) -> list[Field]:
        return [Field("heap", over="heaps")]

    def moves(self, g: Structure, s: SymState) -> Iterator[Move]:
        """One option in one heap: the first part stays in the heap's slot, the others go to
        the first empty slots. A structure sized by :meth:`read` always has room; on a smaller
        one (``heaps(1)``, a pair given by hand) a legal option whose parts find no empty slot
        is still a move, which writes :data:`NO_ROOM` (outside the heap's domain) in its heap's
        slot: every backend stops there with an error naming the game, the move and the
        position (:meth:`~grundy.spec.game.Rules.domain_error`), and Z3 finds it as a violated
        domain obligation. A move never disappears.

        >>> from grundy.spec import Structure, read_position
        >>> from grundy.spec.games import get_game
        >>> from grundy.solvers.solver import Solver
        >>> Solver().grundy(read_position({"game": "lasker-nim", "heaps": [3], "convention": "misere"}))
        4
        >>> from grundy.spec import Position
        >>> Solver().grundy(Position(get_game("lasker-nim"), Structure.heaps(1), (3,), "misere"))
        Traceback (most recent call last):
        ...
        grundy.errors.RuleError: lasker-nim: move 'split heap 1 into 1 + 2' at {"heaps": [3]} does not fit heaps on 1: no empty heap slot for its parts (size the slots to the heaps reachable, as reading the position from JSON does)
        """
        N = g.n
        slots = list(g.elements)
        heap = [s.heap[j] for j in slots]
        free: list[Expr] = []                       # free[t]: the (t+1)-th empty slot; N if none
        for i in slots:
            for o in self.rule_options(g, heap[i]):
                parts = [o.update[t] for t in range(len(o.update))]
                while len(free) < len(parts) - 1:
                    after = free[-1] if free else lift(-1)
                    free.append(minimum([ite((heap[j] == 0) & (after < j), j, N) for j in slots]))
                room = all_of((parts[t] == 0) | (free[t - 1] < N) for t in range(1, len(parts)))
                first = parts[0] if parts else lift(0)
                upd = {i: ite(room, first, NO_ROOM) if len(parts) > 1 else first}
                for j in slots:
                    if j != i:
                        v = heap[j]
                        for t in range(len(parts) - 1, 0, -1):
                            v = ite(free[t - 1] == j, parts[t], v)
                        upd[j] = v
                label = o.label.replace("{heap}", str(i + 1))        # heaps counted from 1, as the papers count
                yield Move(label, (heap[i] >= 1) & o.guard, s.set(heap=upd), o.choices,
                           fits=(room, NO_ROOM_WHY) if len(parts) > 1 else None)

    def rank(self, g: Structure, s: SymState) -> Term:
        # parts total at most n and never one part n: sum of (2h - 1) over heaps drops
        return total(ite(s.heap[i] > 0, 2 * s.heap[i] - 1, 0) for i in g.elements)

    def present(self, g: Structure, s: SymState, i: int) -> Term:
        nonempty: Term = s.heap[i] > 0      # an Expr: s's fields are looked up by name
        return nonempty

    def read(self, obj: dict[str, Any]) -> tuple[Structure, dict[str, Any]]:
        params = self.read_params(obj)
        heaps = read_heaps(obj)
        g = self.structure_for(heaps, params)
        return g, {"heap": heaps + [0] * (g.n - len(heaps))}

    def _slots(self, heaps: list[int], params: dict[str, Any]) -> int:
        need = max(len(heaps), self.max_heaps(rule_heaps(0, params), heaps), 1)
        return 1 << (need - 1).bit_length()          # a power of two: similar positions share tables

    def structure_for(self, heaps: list[int], params: dict[str, Any]) -> RuleHeaps:
        return rule_heaps(self._slots(heaps, params), params)

    def sized(self, g: Structure, state: tuple[int, ...]) -> tuple[Structure, tuple[int, ...]]:
        """``g`` if it holds every heap reachable from ``state``, else the slots :meth:`read`
        gives the same heaps (with ``g``'s parameters), the state padded with empty slots."""
        params = getattr(g, "params", ())
        heaps = [h for h in state if h > 0]
        if g.n >= self.max_heaps(rule_heaps(0, params), heaps):
            return g, state
        cache = self.__dict__.setdefault("_sized", {})
        n = self._slots(heaps, dict(params))
        big = cache.get((n, params))
        if big is None:
            big = cache[(n, params)] = rule_heaps(n, params)
        return big, tuple(state) + (0,) * (n - len(state))

    def write(self, g: Structure, values: dict[str, Any]) -> dict[str, Any]:
        out: dict[str, Any] = {"heaps": [values["heap"][i] for i in g.elements if values["heap"][i] > 0]}
        for k, v in getattr(g, "params", ()):
            out[k] = list(v) if isinstance(v, tuple) else v
        return out

    def check_positions(self) -> list[dict[str, Any]]:
        """Positions ``grundy check`` starts from (slots sized by :meth:`read`); a game whose
        JSON carries parameters overrides this to give them."""
        return [{"heaps": [5, 3]}, {"heaps": [4, 2, 1]}]

    def source(self) -> str:
        import inspect
        return inspect.getsource(type(self).options)

    def position(self, heaps: list[int], **params: Any) -> Position:
        """The position of the heaps ``heaps`` (with the JSON parameters ``params``), on slots
        sized by :meth:`read`: ``grundy.solve(game.position([3, 4]))`` solves it."""
        return make_position(self, *self.read({"heaps": heaps, **params}))

    def solve_heaps(self, heaps: list[int], **params: Any) -> dict[str, Any]:
        """Deprecated: ``grundy.solve(game.position(heaps, **params))``."""
        warnings.warn("HeapRule.solve_heaps is deprecated: use grundy.solve(game.position(heaps))",
                      DeprecationWarning, stacklevel=2)
        solve = hooks.get("solve")             # grundy.solve, provided from above: spec imports no solver
        if solve is None:
            raise RuntimeError("no solver provided: import grundy")
        result: dict[str, Any] = solve(self.position(heaps, **params))
        return result


# What a take-and-break game derives from its code: a subclass that replaced one of them would
# be two games in one (values from the code, moves from the replacement).
_FROM_THE_CODE = ("options", "rule_options", "moves", "one_heap", "one_heap_rules", "max_parts", "heap_rule",
                  "rules", "check_structure")


class TakeAndBreak(HeapRule):
    """A heap rule given by a take-and-break code: implement :meth:`code` (and
    :meth:`read_params`); the options are generated from the code, so the solver's sparse
    space kernel and the options Z3 sees are the same rule. The options, the moves and the
    one-heap forms are derived from the code by construction: a subclass that defines one of
    them is refused when the class is created, and one replaced later (on the class or on
    the object) when it is used.

    Parameters
    ----------
    (none: subclass it.) A subclass sets ``name`` and ``summary`` and writes ``code(g)``,
    returning a :class:`~grundy.spec.heaprule.TakeBreak` (octal codes: ``parse_octal("0.77")``).

    Raises
    ------
    RuleError
        A subclass that defines or replaces ``options``, ``moves`` or the one-heap forms.

    Examples
    --------
    Grundy's game is "4.0 with unequal splits"; a subclass that also gives options is refused:

    >>> from grundy import solve
    >>> [solve({"game": "grundys-game", "heaps": [n]})["grundy"] for n in range(3, 8)]
    [1, 0, 2, 1, 0]
    >>> class Nimlike(TakeAndBreak):
    ...     name = "doc-nimlike"
    ...     def code(self, g):
    ...         return TakeBreak((0, 7))
    ...     def options(self, g, n):
    ...         yield option("take {k}", choose=[("k", 1, n)], parts=lambda k: [n - k])
    Traceback (most recent call last):
    ...
    grundy.errors.RuleError: Nimlike: a TakeAndBreak game's options come from its code(); it may not define or replace options (write a HeapRule to give options)
    """

    def __init_subclass__(cls, **kw: Any):
        super().__init_subclass__(**kw)
        _from_the_code(cls, [n for n in _FROM_THE_CODE if getattr(cls, n) is not getattr(TakeAndBreak, n)])

    def code(self, g: Structure) -> TakeBreak:
        raise NotImplementedError

    def rule_options(self, g: Structure, n: Expr) -> Iterator[Move]:
        """The options generated from the code (refused if a derived form was replaced)."""
        self.check_derived()
        return TakeAndBreak.options(self, g, n)

    def check_structure(self, g: Structure) -> None:
        """As every game's, and the derived forms are still the code's (every new Rules asks)."""
        self.check_derived()
        HeapRule.check_structure(self, g)

    def check_derived(self) -> None:
        """RuleError if a form derived from the code was replaced on the class or the object
        since the class was created (every use of the code checks it: moves, tables, Z3)."""
        cls = type(self)
        _from_the_code(self, [k for k in _FROM_THE_CODE if k in self.__dict__ or
                              getattr(cls, k) is not getattr(TakeAndBreak, k)])

    def source(self) -> str:
        import inspect
        return inspect.getsource(type(self).code)

    def max_heaps(self, g: Structure, heaps: list[int]) -> int:
        return max(len(heaps), self.code(g).max_heaps(heaps))

    def options(self, g: Structure, n: Expr) -> Iterator[Move]:
        c = self.code(g)
        L = len(c.digits)

        def split_options(k: Any, label: str, pre: list[tuple[str, Any, Any]]) -> Iterator[Move]:
            # two non-empty heaps a + b = n - k, a <= b (a < b: unequal)
            yield option(label, guard=lambda *v: n - _k(k, v) >= (3 if c.unequal else 2),
                         choose=pre + [("a", 1, lambda *v: (n - _k(k, v) - (1 if c.unequal else 0)) // 2),
                                       ("b", lambda *v: n - _k(k, v) - v[-1], lambda *v: n - _k(k, v) - v[-1])],
                         parts=lambda *v: [v[-2], v[-1]])

        for k, d in enumerate(c.digits):
            if k > 0 and d & 3:                 # leave no heap (bit 1) or one heap (bit 2)
                yield option(f"take {k} from heap {{heap}}", guard=_leave_guard(n, k, d), parts=[n - k])
            if d & 4:
                yield from split_options(k, (f"take {k} from heap {{heap}}, leaving " if k else
                                             "split heap {heap} into ") + "{a} + {b}", [])
        if c.tail & 3:
            yield option("take {k} from heap {heap}", choose=[("k", L, n)],
                         guard=lambda k: _leave_guard(n, k, c.tail), parts=lambda k: [n - k])
        if c.tail & 4:
            yield from split_options(None, "take {k} from heap {heap}, leaving {a} + {b}",
                                     [("k", L, n)])


def _from_the_code(who: Any, replaced: list[str]) -> None:
    """RuleError naming the derived forms a take-and-break game replaced (none: nothing)."""
    if replaced:
        name = who.__name__ if isinstance(who, type) else getattr(who, "name", "") or type(who).__name__
        raise RuleError(f"{name}: a TakeAndBreak game's options come from its code(); it may not define or replace "
                        f"{', '.join(replaced)} (write a HeapRule to give options)")


def _k(k: Any, v: tuple[Any, ...]) -> Any:
    """The number removed: a constant, or (None) the first choice."""
    return v[0] if k is None else k


def _leave_guard(n: Expr, k: Any, d: int) -> Any:
    whole, one = bool(d & 1), bool(d & 2)
    if whole and one:
        return n >= k
    if whole:
        return n == k
    return n > k
