"""The Python search of a solver: depth-first, iterative (no recursion limit), over the states
compiled from the rules, memoised on the table of the game and structure (positions reduced by
the table's symmetry and split into its components once their premises are proved).
"""
from __future__ import annotations

from typing import Any

from .explicit.compile import State
from .limits import cycle_error as _cycle
from .table import Table

__all__ = ["PythonSearch"]


def _mex(values) -> int:
    s = set(values)
    m = 0
    while m in s:
        m += 1
    return m


class PythonSearch:
    """Grundy values and outcomes by search on a table; the solver counts what is stored
    (``_room``: it may stop the search, to build a kernel, prove the premises, or at its limit)."""

    def _room(self, t: Table) -> None:
        raise NotImplementedError

    def _grundy(self, t: Table, root: State, misere: bool = False) -> int:
        code = t.code                     # first: the first compile may share the memo tables
        memo = t.misere_grundy if misere else t.grundy
        if root in memo:
            return memo[root]
        canon, succ, comps = code.canonical, code.successors, code.components
        # The root's children first, without the search's stack: in a sweep in increasing
        # order their values are known already; where one is not, the search below starts
        # from the children found here (the same order, the same value).
        parts = None if misere else comps(root)
        is_sum = parts is not None
        kids = [canon(p) for p in parts] if parts is not None else [canon(c) for c in succ(root)]
        values: list[Any] = [memo.get(k) for k in kids]
        if None not in values:
            if is_sum:
                v = 0
                for x in values:
                    v ^= x
            elif misere and not kids:
                v = 1
            else:
                v = _mex(values)
            self._room(t)
            memo[root] = v
            return v
        # frame: [state, children, next index, is_sum]
        stack: list[list[Any]] = [[root, kids, 0, is_sum]]
        on_line = {root}
        while stack:
            fr = stack[-1]
            s = fr[0]
            if fr[1] is None:
                parts = None if misere else comps(s)
                if parts is not None:
                    fr[1], fr[3] = [canon(p) for p in parts], True
                else:
                    fr[1] = [canon(c) for c in succ(s)]
            kids, i = fr[1], fr[2]
            while i < len(kids) and kids[i] in memo:
                i += 1
            if i < len(kids):
                fr[2] = i
                k = kids[i]
                if k in on_line:
                    raise _cycle(t.rules)
                stack.append([k, None, 0, False])
                on_line.add(k)
                continue
            if fr[3]:
                v = 0
                for k in kids:
                    v ^= memo[k]
            elif misere and not kids:
                v = 1                      # misère: the player to move at the end wins
            else:
                v = _mex(memo[k] for k in kids)
            self._room(t)
            memo[s] = v
            stack.pop()
            on_line.discard(s)
        return memo[root]

    def _wins(self, t: Table, root: State, conv: str) -> bool:
        code = t.code                     # first: the first compile may share the memo tables
        if conv == "normal":
            g = t.grundy.get(root)
            if g is not None:
                return g != 0
        memo = t.wins
        key = (conv, root)
        if key in memo:
            return memo[key]
        canon, succ, comps = code.canonical, code.successors_lazy, code.components
        normal = conv == "normal"
        grundy_memo = t.grundy

        def known(k: State) -> bool | None:
            w = memo.get((conv, k))
            if w is None and normal:
                g = grundy_memo.get(k)
                w = None if g is None else g != 0
            return w

        # frame: [state, iterator over successors, child awaiting its value, has a move]
        stack: list[list[Any]] = [[root, None, None, False]]
        on_line = {root}
        if not (normal and comps(root) is not None):
            # The root's moves first, without the search's stack: in a sweep in increasing
            # order every move's outcome is known already; at the first that is not, the
            # search below goes on from that move (the same order, the same outcome).
            it, moved = succ(root), False
            for c in it:
                moved = True
                k = canon(c)
                w = known(k)
                if w is None:
                    if k in on_line:
                        raise _cycle(t.rules)
                    stack = [[root, it, k, True], [k, None, None, False]]
                    on_line.add(k)
                    break
                if not w:                  # a move to a position the opponent loses
                    self._room(t)
                    memo[key] = True
                    return True
            else:
                done = False if moved else (not normal)
                self._room(t)
                memo[key] = done
                return done
        while stack:
            fr = stack[-1]
            s = fr[0]
            if fr[1] is None:
                if normal and comps(s) is not None:  # a sum: its outcome needs Grundy values
                    memo[(conv, s)] = self._grundy(t, s) != 0
                    stack.pop()
                    on_line.discard(s)
                    continue
                fr[1] = succ(s)
            result = None
            if fr[2] is not None:  # back from a child
                if not known(fr[2]):
                    result = True
                fr[2] = None
            if result is None:
                for c in fr[1]:
                    fr[3] = True
                    k = canon(c)
                    w = memo.get((conv, k))           # known(k), inlined: the search's inner loop
                    if w is None and normal:
                        g = grundy_memo.get(k)
                        if g is not None:
                            w = g != 0
                    if w is None:
                        if k in on_line:
                            raise _cycle(t.rules)
                        fr[2] = k
                        break
                    if not w:  # a move to a position the opponent loses
                        result = True
                        break
                if fr[2] is not None:
                    stack.append([fr[2], None, None, False])
                    on_line.add(fr[2])
                    continue
                if result is None:
                    result = False if fr[3] else (not normal)  # terminal: mover loses (normal) / wins (misère)
            self._room(t)
            memo[(conv, s)] = result
            stack.pop()
            on_line.discard(s)
        return memo[key]
