"""The Python search's reductions in a form cheap to call per position: the least image of a
state under slot permutations (:func:`permuting`) and a position split into the states of
its components (:func:`splitter`), both from the structure's data (no game in view), made by
:mod:`grundy.solvers.explicit.compile`."""
from __future__ import annotations

from operator import itemgetter
from typing import Callable

__all__ = ["unchanged", "whole", "permuting", "splitter"]

State = tuple[int, ...]


def unchanged(s: State) -> State:
    """The canonical form without a symmetry to reduce by: the state itself (a
    :class:`Compiled` whose ``canonical`` is this one reduces by none)."""
    return s


def whole(s: State) -> None:
    """The components without a decomposition to split by: none (the position is taken whole;
    a :class:`Compiled` whose ``components`` is this one splits no position)."""
    return None


def permuting(n: int, perms: list[list[int]]) -> Callable[[State], State]:
    """The least image of a state under slot permutations alone (no value maps): each image
    picked by one ``operator.itemgetter`` (the image of ``perm`` has ``s[i]`` at ``perm[i]``,
    as the generated images), the identity's image the state itself. ``n >= 2`` slots.

    >>> canon = permuting(3, [[0, 1, 2], [2, 1, 0]])
    >>> canon((0, 1, 1)), canon((1, 1, 0)), canon((1, 0, 1))
    ((0, 1, 1), (0, 1, 1), (1, 0, 1))
    """
    getters = []
    for perm in perms:
        inv = [0] * n
        for i, j in enumerate(perm):
            inv[j] = i
        if inv != list(range(n)):
            getters.append(itemgetter(*inv))
    if not getters:
        return unchanged
    if len(getters) < len(perms):               # the identity among them: the state itself
        if len(getters) == 1:
            (g,) = getters

            def least2(s: State) -> State:
                t = g(s)
                return t if t < s else s
            return least2
        return lambda s: min(s, *[g(s) for g in getters])
    return lambda s: min([g(s) for g in getters])


_PICKS_LIMIT = 4096              # component masks a splitter keeps (then it starts again): memory stays flat


def splitter(presence: Callable[[State], int], adjacent: list[int], own: list[tuple[int, ...]],
              empty: list) -> Callable[[State], list[State] | None]:
    """``components(s)`` from the present elements' bit set (``presence``), each element's
    neighbours (``adjacent``, bit sets) and slots (``own``), and each slot's empty value.
    A component's state has ``s[i]`` at the slots of its elements and of no element, ``empty[i]``
    at every other element's: one ``operator.itemgetter`` over ``s + empties`` per component
    (made once per component mask, kept while fewer than :data:`_PICKS_LIMIT`). The masks kept
    are known connected (each was grown over its own elements' links, and whether a set of
    elements is connected depends on the set alone): the present elements, or the ones left once
    the first components are taken, form one component when their mask is among them.

    >>> split = splitter(lambda s: sum(1 << i for i, x in enumerate(s) if x), [2, 5, 2], [(0,), (1,), (2,)], [0, 0, 0])
    >>> split((1, 0, 1)), split((1, 1, 0)), split((0, 0, 0)), split((1, 0, 1))
    ([(1, 0, 0), (0, 0, 1)], None, None, [(1, 0, 0), (0, 0, 1)])
    """
    n = len(empty)
    owners = [0] * n                      # per slot, the bit set of the elements owning it
    for el, slots in enumerate(own):
        for slot in slots:
            owners[slot] |= 1 << el
    empties = tuple(e if owners[i] else None for i, e in enumerate(empty))
    by_bit = {1 << el: adj for el, adj in enumerate(adjacent)}
    picks: dict[int, Callable[[tuple], State] | None] = {}   # None: connected, no picker made yet

    def connected(mask: int) -> None:
        """Note ``mask`` as connected (its picker made when first needed)."""
        if len(picks) >= _PICKS_LIMIT:
            picks.clear()
        picks[mask] = None

    def pick(comp: int) -> Callable[[tuple], State]:
        """The picker of component ``comp``'s state from ``s + empties`` (``comp`` is connected)."""
        connected(comp)
        idx = [i if not o or comp & o else n + i for i, o in enumerate(owners)]
        g = picks[comp] = itemgetter(*idx) if n >= 2 else (lambda t: tuple(t[j] for j in idx))
        return g

    def components(s: State) -> list[State] | None:
        present = presence(s)
        if not present or present in picks:
            return None                  # none, or connected (a mask known connected)
        parts = []
        rest = present
        while rest:
            if rest in picks:            # known connected: the last component
                parts.append(rest)
                break
            comp = frontier = rest & -rest
            while frontier:
                low = frontier & -frontier
                new = by_bit[low] & present & ~comp
                comp |= new
                frontier = (frontier ^ low) | new
            if comp == present:
                connected(present)
                return None
            parts.append(comp)
            rest &= ~comp
        src = s + empties
        return [(picks.get(comp) or pick(comp))(src) for comp in parts]

    return components
