"""A heap rule's options on a heap alone, and its one-heap values G(0..n) from them.

Every :class:`~grundy.spec.heaprule.HeapRule` game whose moves are HeapRule's own derivation
is a sum of single heaps (:func:`sum_of_heaps`): the value of a position is the XOR of its
heaps' values, found here from the rule's options (compiled once, on a heap alone), or for a
take-and-break code by the sparse-space method (:mod:`grundy.solvers.heaps.takebreak`).
"""
from __future__ import annotations

from typing import Any, Callable

from ...caches import register
from ...errors import RuleError
from ...spec.game import Move
from ...spec.heaprule import HeapRule, OneHeap
from ...spec.structure import Structure
from ..explicit.compile import compile_rules
from .rulevalues import native_rule_values
from .takebreak import check_n, takebreak_run

__all__ = ["sum_of_heaps", "rule_options", "rule_values", "heap_values", "NATIVE_FROM"]

NATIVE_FROM = 1024          # heap_values of a rule written as options: in C from this n on

_DERIVED = ("fields", "moves", "heap_rule", "one_heap", "one_heap_rules", "max_parts")


def sum_of_heaps(game: Any, g: Structure) -> OneHeap | None:
    """The game's one-heap rule on ``g`` when its positions are sums of heaps *by construction*:
    a :class:`~grundy.spec.HeapRule` whose moves (and what they are made from: fields, the
    one-heap form) are HeapRule's own derivation from its ``options``. None for any other game:
    a ``heap_rule`` capability another game claims, or a HeapRule overriding its derivation, is
    not used (its positions are solved from their moves).

    >>> from grundy.spec.games import get_game
    >>> from grundy.spec.heaprule import rule_heaps
    >>> sum_of_heaps(get_game("lasker-nim"), rule_heaps(2)) is not None
    True
    >>> class Claimed(HeapRule):           # a HeapRule whose moves are its own: no tables
    ...     name = "doc-claimed"
    ...     def moves(self, g, s):
    ...         return HeapRule.moves(self, g, s)
    >>> sum_of_heaps(Claimed(), rule_heaps(2)) is None
    True
    """
    if not isinstance(game, HeapRule):
        return None
    cls = type(game)
    if any(name in vars(game) or getattr(cls, name) is not getattr(HeapRule, name) for name in _DERIVED):
        return None
    return game.heap_rule(g)


_ENUMERATORS: dict[tuple, tuple[Callable[[int], list], list[Move], HeapRule]] = {}
register("heap-options", lambda: len(_ENUMERATORS), lambda: _ENUMERATORS.clear())


def _enumerator(rule: OneHeap) -> tuple[Callable[[int], list], list[Move]]:
    """The rule's options on a heap alone, compiled once per game object and parameters: ``f(h)``
    lists (option index, choice values, parts)."""
    key = (id(rule.game), rule.key)            # the entry keeps the game alive: its id is not reused
    if key not in _ENUMERATORS:
        game, g = rule.game, rule.structure
        rules = game.one_heap_rules(g)
        options = compile_rules(rules, symmetry=False, decompose=False).options
        zeros = (0,) * (len(rules.schema) - 1)
        _ENUMERATORS[key] = (lambda h: options((h,) + zeros), game.one_heap(g)[1], game)
    enum, opts, _ = _ENUMERATORS[key]
    return enum, opts


def rule_options(rule: OneHeap, h: int) -> list[tuple[str, list[int]]]:
    """The options of one heap of ``h`` under the rule: (label, non-zero parts), checked
    (a RuleError if an option makes tokens or leaves the heap as it was)."""
    enum, opts = _enumerator(rule)
    out = []
    for mi, cv, parts in enum(h):
        o = opts[mi]
        label = o.label.format(heap="{heap}", **{c.name: v for c, v in zip(o.choices, cv, strict=False)})
        ps = [p for p in parts if p != 0]
        if any(p < 0 for p in parts) or sum(parts) > h or ps == [h]:
            raise RuleError(f"{rule.game.name}: option {label!r} of a heap of {h} leaves {list(parts)}: "
                            f"the parts of a heap must be >= 0, total at most the heap, and not be the heap itself")
        out.append((label, ps))
    return out


def rule_values(rule: OneHeap, n: int, start: list[int] | None = None) -> list[int]:
    """G(0..n) of one heap, from the rule's own options (mex of the XOR of the parts' values).

    >>> from grundy.spec import HeapRule, option
    >>> from grundy.spec.heaprule import rule_heaps
    >>> class TakeOneOrHalve(HeapRule):
    ...     name = "doc-take-or-halve"
    ...     def options(self, g, n):
    ...         yield option("take 1", parts=[n - 1])
    ...         yield option("halve", guard=n % 2 == 0, parts=[n // 2, n // 2])
    >>> rule_values(TakeOneOrHalve().heap_rule(rule_heaps(1)), 8)
    [0, 1, 2, 0, 1, 0, 1, 0, 1]
    """
    check_n(n)
    G = list(start or [])
    enum, _ = _enumerator(rule)
    for h in range(len(G), n + 1):
        seen = set()
        for _, _, parts in enum(h):
            x = total = big = 0
            for p in parts:
                if p < 0 or p >= h:
                    big += 1
                    break
                x ^= G[p]
                total += p
            if big or total > h:
                rule_options(rule, h)                   # raises the RuleError, naming the option
                raise RuleError(f"{rule.game.name}: an option of a heap of {h} leaves {list(parts)}")
            seen.add(x)
        g = 0
        while g in seen:
            g += 1
        G.append(g)
    return G


def heap_values(rule: OneHeap, n: int, *, native: bool | None = None) -> list[int]:
    """G(0..n) of one heap: the sparse-space method for a take-and-break code, else the rule's
    options: in C (:mod:`.rulevalues`) when ``native`` is True, or None and n is at least
    ``NATIVE_FROM`` (below, Python is quicker than a first compilation); in Python otherwise or
    where C cannot answer (Python also names any option that is not a heap rule's).

    >>> from grundy.spec.games import get_game
    >>> from grundy.spec.heaprule import rule_heaps
    >>> rule = get_game("lasker-nim").heap_rule(rule_heaps(1))
    >>> heap_values(rule, 300, native=True) == heap_values(rule, 300, native=False)
    True
    """
    if rule.code is not None:
        return takebreak_run(rule.code, n, native=native).values
    check_n(n)
    use_c = n >= NATIVE_FROM if native is None else native
    if use_c and not rule_options(rule, 0):            # no option on an empty heap (see .rulevalues)
        values = native_rule_values(rule, n)
        if values is not None:
            return values
    return rule_values(rule, n)


