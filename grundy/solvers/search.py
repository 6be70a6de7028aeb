"""The Python search of a value source: depth-first, iterative (no recursion limit), over the
states compiled from the rules, memoised on the table of the game and structure (positions
reduced by the table's symmetry and split into its components once their premises are proved).

A :class:`PythonSearch` serves one batch of :class:`~grundy.solvers.sources.PythonSource`:
before it stores a position it counts it (:meth:`PythonSearch.room`), and where the table
should be served otherwise (its premises to ask first, or its C kernel now in use) it stops
and returns None, saying why in ``because``; the source answers the states before and hands
the rest back. Past the solver's limit on the positions stored it raises the limit's error.

>>> from grundy.solvers.context import SourceContext
>>> from grundy.spec import read_position
>>> ctx = SourceContext(native=False, reduce_after=10**9)
>>> p = read_position({"game": "wythoff", "heaps": [3, 5]})
>>> t = ctx.table(p.game, p.structure)
>>> search = PythonSearch(t, ctx)
>>> search.grundy((3, 5)), search.grundy((2, 2)), search.because
(0, 1, None)
>>> ctx = SourceContext(native=True, reduce_after=10**9)       # a C kernel may serve its tables
>>> t = ctx.table(p.game, p.structure)
>>> search = PythonSearch(t, ctx, native_after=5)
>>> search.grundy((9, 9)), search.because, t.in_use, t.py_stored
(None, 'its table is large enough for the C kernel', True, 6)
"""
from __future__ import annotations

from typing import Any

from .context import SourceContext
from .explicit.compile import State, unchanged
from .explicit.reductions import whole
from .limits import cycle_error as _cycle
from .table import Table

__all__ = ["PythonSearch", "ASK_PREMISES", "TO_KERNEL"]

ASK_PREMISES = "the premises of its reductions are asked first"
TO_KERNEL = "its table is large enough for the C kernel"
_NEVER = float("inf")


def _mex(values) -> int:
    s = set(values)
    m = 0
    while m in s:
        m += 1
    return m


def _value(values: list[int], how: Any, misere: bool) -> int:
    """A position's value from its children's (``how``, as :meth:`PythonSearch._children` says):
    True, the XOR of its components' (a sum); else the mex of its options' (misère: 1 at a
    terminal position, where the player to move wins), each option's value, where ``how`` lists
    where each option's components end, the XOR of its components'.

    >>> _value([1, 2, 3], True, False), _value([1, 2, 3], False, False), _value([1, 2, 3], [1, 3], False)
    (0, 0, 0)
    >>> _value([1, 3, 3], [1, 3], False), _value([], False, True)
    (2, 1)
    """
    if how is True:
        v = 0
        for x in values:
            v ^= x
        return v
    if how is not False:              # options grouped: each the sum of its components
        opts, a = [], 0
        for b in how:
            v = 0
            for x in values[a:b]:
                v ^= x
            opts.append(v)
            a = b
        values = opts
    if misere and not values:
        return 1
    return _mex(values)


class PythonSearch:
    """Grundy values and outcomes by search on table ``t``, for one batch: it counts what it
    stores (:meth:`room`) and stops (None, and ``because``) once ``t`` has stored more than
    ``t.ask_after`` (else the context's ``reduce_after``) positions with its premises not yet
    asked, or more than ``native_after`` where a C kernel may serve it (``t.in_use`` is set)."""

    __slots__ = ("t", "ctx", "because", "_native_after", "_ask_at", "_kernel_at", "_stop_at")

    def __init__(self, t: Table, ctx: SourceContext, native_after: int | float = _NEVER):
        self.t, self.ctx, self._native_after = t, ctx, native_after
        self.because: str | None = None
        self._stop_at: int | float = -1       # the thresholds are read at the first position stored

    def room(self) -> bool:
        """Count a position about to be stored: False (and ``because``) where the table is to be
        handed over instead; the limit's error past the context's limit."""
        t = self.t
        t.py_stored += 1
        if t.py_stored > self._stop_at and self._hand_over():
            return False
        ctx = self.ctx
        ctx.stored += 1                     # ctx.count(), inlined: once a position
        if ctx.stored > ctx.max_positions:
            raise ctx.limit()
        return True

    def _hand_over(self) -> bool:
        t, ctx = self.t, self.ctx
        if self._stop_at < 0:               # the table as it stands for this batch
            self._ask_at = _NEVER if t.asked else (t.ask_after or ctx.reduce_after)
            self._kernel_at = self._native_after if (t.native and ctx.native and not t.in_use) else _NEVER
            self._stop_at = min(self._ask_at, self._kernel_at)
        if t.py_stored > self._ask_at:
            self.because = ASK_PREMISES
            return True
        if t.py_stored > self._kernel_at:
            t.in_use = True
            self.because = TO_KERNEL
            return True
        return False

    # Grundy values ---------------------------------------------------------------------
    def grundy(self, root: State, misere: bool = False) -> int | None:
        """The Grundy value at ``root`` (a canonical state of the table; misère: the misère
        Grundy value), or None where the search stopped to hand the table over."""
        code = self.t.code                # first: the first compile may share the memo tables
        memo = self.t.misere_grundy if misere else self.t.grundy
        if root in memo:
            return memo[root]
        # The root's children first, without the search's stack: in a sweep in increasing
        # order their values are known already; where one is not, the search below starts
        # from the children found here (the same order, the same value).
        kids, how = self._children(code, root, misere)
        values = [memo.get(k) for k in kids]
        if None in values:
            return self._grundy_search(root, kids, values, how, misere)
        if not self.room():
            return None
        memo[root] = v = _value(values, how, misere)   # type: ignore[arg-type]  # no None in values
        return v

    @staticmethod
    def _children(code: Any, s: State, misere: bool) -> tuple[list[State], Any]:
        """The canonical states a value at ``s`` is made of, and how (:func:`_value`): True where
        they are its components (normal play: a sum, its value the XOR); False where they are its
        options; in normal play, where an option splits, a list: the options' components in turn
        (an option that does not split, itself), and where each option's end in that list. A
        sum of components is then never stored: its value is the XOR of theirs, each a connected
        position's (the decomposition's premise holds at every state, canonical or not)."""
        canon = code.canonical
        if misere:
            succ = code.successors(s)
            return (succ if canon is unchanged else list(map(canon, succ))), False
        split = code.components
        if split is whole:                    # nothing splits
            succ = code.successors(s)
            return (succ if canon is unchanged else list(map(canon, succ))), False
        parts = split(s)
        if parts is not None:
            return (parts if canon is unchanged else list(map(canon, parts))), True
        kids: list[State] = []
        ends: list[int] = []
        for t in code.successors(s):
            p = split(t)
            if p is None:
                kids.append(canon(t))
            else:
                kids.extend(map(canon, p))
            ends.append(len(kids))
        return kids, (False if len(kids) == len(ends) else ends)

    def _grundy_search(self, root: State, kids: list[State], values: list[int | None], how: Any,
                       misere: bool) -> int | None:
        t = self.t
        code = t.code
        memo = t.misere_grundy if misere else t.grundy
        children, room, get = self._children, self.room, memo.get
        # frame: [state, children, their values (None: not known when last looked up), how they make its value (_value)]
        stack: list[list[Any]] = [[root, kids, values, how]]
        on_line = {root}
        while stack:
            fr = stack[-1]
            kids, vals = fr[1], fr[2]
            if vals is None:
                kids, fr[3] = children(code, fr[0], misere)
                fr[1], fr[2] = kids, (vals := list(map(get, kids)))
            k = None
            while None in vals:               # the first child still without a value: search it
                i = vals.index(None)
                v = get(kids[i])
                if v is None:
                    k = kids[i]
                    if k in on_line:
                        raise _cycle(t.rules)
                    # its frame made here: where its children's values are all known (a sum of
                    # known parts, mostly), its value is stored at once, as that frame would
                    # store it on the next round (the same positions stored, in the same order)
                    kk, ks = children(code, k, misere)
                    kv = list(map(get, kk))
                    if None in kv:
                        break
                    if not room():
                        return None
                    memo[k] = v = _value(kv, ks, misere)   # type: ignore[arg-type]  # no None in kv
                    k = None
                vals[i] = v
            if k is not None:
                stack.append([k, kk, kv, ks])
                on_line.add(k)
                continue
            if not room():
                return None
            s = fr[0]
            memo[s] = _value(vals, fr[3], misere)
            stack.pop()
            on_line.discard(s)
        return memo[root]

    # outcomes ----------------------------------------------------------------------------
    def wins(self, root: State, conv: str = "normal") -> bool | None:
        """Whether the mover wins at ``root`` (a canonical state of the table) in convention
        ``conv``, or None where the search stopped to hand the table over."""
        t = self.t
        code = t.code                     # first: the first compile may share the memo tables
        w = self._known(conv, root)
        if w is not None:
            return w
        if conv == "normal" and code.components(root) is not None:
            stack: list[list[Any]] | None = [[root, None, None, False]]   # a sum: by its value
        else:
            stack = self._wins_root(root, conv)
        if stack is None or (stack and not self._wins_search(stack, conv)):
            return None
        return t.wins[(conv, root)]

    def _known(self, conv: str, k: State) -> bool | None:
        """Whether the mover wins at ``k``, where it is known already (normal play: its value)."""
        w = self.t.wins.get((conv, k))
        if w is None and conv == "normal":
            g = self.t.grundy.get(k)
            w = None if g is None else g != 0
        return w

    def _wins_root(self, root: State, conv: str) -> list[list[Any]] | None:
        """The root's moves first, without the search's stack: in a sweep in increasing order
        every move's outcome is known already (the outcome stored, no stack: []); at the first
        that is not, the stack the search goes on with from that move (the same order, the same
        outcome); None where the search stopped."""
        code = self.t.code
        canon, it, moved = code.canonical, code.successors_lazy(root), False
        for c in it:
            moved = True
            k = canon(c)
            w = self._known(conv, k)
            if w is None:
                if k == root:
                    raise _cycle(self.t.rules)
                return [[root, it, k, True], [k, None, None, False]]
            if not w:                      # a move to a position the opponent loses
                return self._store_win(root, conv, True)
        return self._store_win(root, conv, False if moved else conv != "normal")

    def _store_win(self, s: State, conv: str, w: bool) -> list[list[Any]] | None:
        if not self.room():
            return None
        self.t.wins[(conv, s)] = w
        return []

    def _wins_search(self, stack: list[list[Any]], conv: str) -> bool:
        """Search on from ``stack`` (frame: [state, iterator over successors, child awaiting
        its value, has a move]) until its first state's outcome is stored (True), or the search
        stopped (False)."""
        t = self.t
        memo, code = t.wins, t.code
        comps, succ = code.components, code.successors_lazy
        normal = conv == "normal"
        on_line = {fr[0] for fr in stack}
        while stack:
            fr = stack[-1]
            s = fr[0]
            if fr[1] is None:
                if normal and comps(s) is not None:  # a sum: its outcome needs Grundy values
                    g = self.grundy(s)
                    if g is None:
                        return False
                    memo[(conv, s)] = g != 0
                    stack.pop()
                    on_line.discard(s)
                    continue
                fr[1] = succ(s)
            result = None
            if fr[2] is not None:  # back from a child
                if not self._known(conv, fr[2]):
                    result = True
                fr[2] = None
            if result is None:
                result = self._scan(fr, conv, code.canonical)
                if result is None:            # a child to search first
                    k = fr[2]
                    if k in on_line:
                        raise _cycle(t.rules)
                    stack.append([k, None, None, False])
                    on_line.add(k)
                    continue
            if not self.room():
                return False
            memo[(conv, s)] = result
            stack.pop()
            on_line.discard(s)
        return True

    def _scan(self, fr: list[Any], conv: str, canon: Any) -> bool | None:
        """Go on through frame ``fr``'s moves: True at a move to a position the opponent loses;
        None at one whose outcome is not known (``fr[2]``, to search first); at the end, False
        (terminal: the mover loses in normal play, wins in misère play)."""
        memo, grundy_memo = self.t.wins, self.t.grundy
        normal = conv == "normal"
        for c in fr[1]:
            fr[3] = True
            k = canon(c)
            w = memo.get((conv, k))           # _known(k), inlined: the search's inner loop
            if w is None and normal:
                g = grundy_memo.get(k)
                if g is not None:
                    w = g != 0
            if w is None:
                fr[2] = k
                return None
            if not w:                         # a move to a position the opponent loses
                return True
        return False if fr[3] else not normal
