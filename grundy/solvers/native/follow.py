"""A strategy played in C against every reply: the strategy follower of claim checks, native.

A strategy (:mod:`grundy.spec.strategy`) is compiled to C by the kernel's own expression
syntax (:class:`~grundy.solvers.native.csyntax.CSyntax`) and move plans
(:func:`~grundy.solvers.explicit.compile.move_plan`): ``strategy(key)`` gives the key the
strategy moves to, or "no case applies" / "the move is not legal". The follower plays it from
a start against every reply of the kernel's ``successors`` (an iterative depth-first search)
and marks, one bit per position of the box, the positions from which the strategy wins
against every reply. The semantics are those of the Python follower
(:meth:`grundy.verify.check.Instance.follow`), misère included: at the strategy's turn, no
move is a loss in normal play and a win in misère play; after its move, no reply is a win in
normal play and a loss in misère play. Nothing is assumed about the values of positions.

Per start: 1 the strategy wins from it, 0 it fails (the caller replays the start in Python for
the line that shows it), 2 the start has no move (the caller judges it as before).

>>> from grundy.spec.games import get_game
>>> from grundy.spec import Structure
>>> r = get_game("nim").rules(Structure.heaps(2))
>>> s = r.state
>>> mirror = [Play(s.heap[0] > s.heap[1], 0, {"k": s.heap[0] - s.heap[1]}),
...           Play(s.heap[1] > s.heap[0], 1, {"k": s.heap[1] - s.heap[0]})]
>>> got = StrategyTable(r, mirror, misere=False).follow_many([(3, 1), (2, 2), (0, 0)])
>>> got is None or list(got) == [1, 0, 2]     # (2, 2): no case applies; (0, 0): no move
True
"""
from __future__ import annotations

import ctypes
from functools import lru_cache
from typing import Sequence

from ...settings import current as settings
from ...spec.expr import lift
from ...spec.game import Rules
from ...spec.strategy import Play
from ..explicit.plan import emitter, move_plan, shared_nodes, slot_sources
from ..limits import cycle_error
from . import build
from .box import OUT_OF_BOX
from .codegen import load_kernel
from .kernel import (
    CYCLE,
    DOMAIN,
    Box,
    C,
    Halt,
    _declare_keys,
    counted,
    kernel_source,
    keys_in,
    run_paused,
    upgrade_pauses,
)

MAX_BITS = 2 ** 35          # the largest box the follower's bitmap covers (4 GiB)
NO_CASE, ILLEGAL = 10, 11   # the strategy's verdict at a position (never a kernel status)


def _apply_source(rules: Rules, mi: int) -> list[str]:
    """``apply<mi>(key, s, cv, out)``: move ``mi`` with the choice values ``cv``, from the
    move's plan (the kernel's own), its loops read as range checks: 0 (``*out`` the next key),
    ILLEGAL, DOMAIN, or 1 (a value outside the box)."""
    cnames, steps = move_plan(rules, rules.moves[mi], slot_sources(rules), C, None)
    out = [f"static int apply{mi}(K key, const I *s, const I *cv, K *out) {{",
           "    Buf bb = {0}; Buf *b = &bb; (void)cv; (void)s;"]
    out += [f"    const I {cn} = cv[{j}];" for j, cn in enumerate(cnames)]
    for st in steps:
        if st.kind == "let":
            out.append("    " + st.args[0])
        elif st.kind == "if":
            out.append(f"    if (!({' && '.join(st.args)})) return ILLEGAL;")
        elif st.kind == "for":
            cn, lo, hi = st.args
            out.append(f"    if ({cn} < {lo} || {cn} > {hi}) return ILLEGAL;")
        elif st.kind == "check":
            out.append(f"    if ({st.args[0]}) return {DOMAIN};")
        else:
            out.append("    K nk = key;")
            out += [f"    OUT({i}, {src});" for i, src in st.args[0].items()]
            out.append("    if (b->err) { f_err_slot = b->err_slot; f_err_value = b->err_value; return 1; }")
            out.append("    *out = nk; return 0;")
    out.append("}")
    return out


def strategy_source(rules: Rules, cases: Sequence[Play]) -> str:
    """The C of ``strategy(key, s, out)``: the first case whose condition holds plays its move
    (0, ``*out`` the next key; ILLEGAL; DOMAIN; 1: outside the box); none holds: NO_CASE.
    Conditions are evaluated in order, as the Python follower does."""
    names = slot_sources(rules)
    lines = [f"#define NO_CASE {NO_CASE}", f"#define ILLEGAL {ILLEGAL}", "static int f_err_slot; static I f_err_value;"]
    for mi in sorted({p.move for p in cases}):
        lines += _apply_source(rules, mi)
    em = emitter(names, shared_nodes([lift(p.when) for p in cases]), C)    # Play lifted them: typed
    body = ["static int strategy(K key, const I *s, K *out) {", "    (void)key; (void)s; (void)out;"]
    for k, p in enumerate(cases):
        w = em.expr(p.when)
        body += ["    " + ln for ln in em.take_lines()]
        exprs = [lift(p.choice[c.name]) for c in rules.moves[p.move].choices]
        ec = emitter(names, shared_nodes(exprs), C)
        ec.counter = 1_000_000 * (k + 1)          # its locals, in the case's block, named apart
        srcs = [ec.expr(e) for e in exprs]
        body.append(f"    if ({w}) {{")
        body += ["        " + ln for ln in ec.take_lines()]
        body.append(f"        const I cv[] = {{{', '.join(srcs) or '0'}}};")
        body.append(f"        return apply{p.move}(key, s, cv, out);")
        body.append("    }")
    body += ["    return NO_CASE;", "}"]
    return "\n".join(lines + body)


@lru_cache(maxsize=64)
def _library(source: str, quick: bool = False) -> ctypes.CDLL:
    lib = load_kernel(source, quick)         # the kernel's fixed search compiled once, linked
    lib.f_new.restype = ctypes.c_void_p
    lib.f_new.argtypes = [ctypes.c_uint64, ctypes.c_int]
    lib.f_free.argtypes = [ctypes.c_void_p]
    lib.f_abort.argtypes = [ctypes.c_void_p]
    lib.f_err_slot_of.argtypes = [ctypes.c_void_p]
    lib.f_err_value_of.argtypes = [ctypes.c_void_p]
    lib.f_err_value_of.restype = ctypes.c_int64
    _declare_keys(lib)
    lib.f_follow_many.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint64), ctypes.c_int64,
                                  ctypes.POINTER(ctypes.c_uint8), ctypes.POINTER(ctypes.c_int64)]
    return lib


class Follower:
    """A strategy compiled with the rules on one box, and its bitmap of positions won."""

    def __init__(self, rules: Rules, cases: Sequence[Play], box: Box, misere: bool):
        if box.size > MAX_BITS:
            raise ValueError(f"the box has {box.size:,} positions: more than the follower's bitmap covers")
        self.rules, self.box = rules, box
        src = kernel_source(rules, box) + "\n" + strategy_source(rules, cases) + build.fixed_c(__package__, "c/follow.c")
        # -Og; on a box larger than settings.quick_box, -O2 once its work shows (kernel.counted)
        self._src, self.tiered, self.pauses = src, box.size > settings().quick_box, 0
        self.upgrade_at = upgrade_pauses(src)
        self.lib = _library(src, True)
        self._f = self.lib.f_new(box.size, int(misere))
        if not self._f:
            raise MemoryError(f"no memory for a bitmap of {box.size:,} positions")

    def __del__(self):
        f, self._f = getattr(self, "_f", None), None
        if f:
            self.lib.f_free(f)

    def optimized(self) -> ctypes.CDLL:
        """The library of the same text with -O2 (see :func:`~grundy.solvers.native.kernel.counted`)."""
        return _library(self._src, False)

    def follow_many(self, states: Sequence[Sequence[int]]) -> bytes | Halt:
        """Per start: 1 the strategy wins, 0 it fails, 2 no move there; or why not, as a value
        (a :class:`Halt`: a start or a move outside the box, else the C's status). Returns to
        Python every few milliseconds (the kernel's PAUSED protocol) so that Ctrl-C acts."""
        n = len(states)
        keys = keys_in(self.lib, self.box, states)
        if keys is None:
            return Halt(OUT_OF_BOX)
        out = (ctypes.c_uint8 * n)()
        at = ctypes.c_int64(0)
        status = run_paused(counted(self, lambda: self.lib.f_follow_many(self._f, keys, n, out, ctypes.byref(at))),
                            lambda: self.lib.f_abort(self._f))
        if status == OUT_OF_BOX:
            return Halt(status, self.lib.f_err_slot_of(self._f), self.lib.f_err_value_of(self._f))
        return Halt(status) if status else bytes(out)


class StrategyTable:
    """The follower of one strategy on one structure, rebuilt on a larger box when a start or
    a move needs one (the positions won are then shown again). ``follow_many`` gives None
    where the native path cannot serve (a box beyond the bitmap, a move leaving a field's
    domain, a product beyond 64 bits): the caller follows in Python, which reports the rule's
    error as before."""

    def __init__(self, rules: Rules, cases: Sequence[Play], misere: bool):
        self.rules, self.cases, self.misere = rules, list(cases), misere
        self.follower: Follower | None = None
        self.serves = build.available()

    def follow_many(self, states: Sequence[Sequence[int]]) -> bytes | None:
        """Per start: 1 the strategy wins, 0 it fails, 2 no move there; or None (see above).
        CycleError: the strategy's play returned to a position (the game has no rank)."""
        if not (self.serves and states):
            return None
        f = self.follower
        box = Box.around(self.rules, states) if f is None else None
        while True:
            if box is not None:
                self.follower = f = None                # the old bitmap goes before the new one
                f = self.follower = self._follower(box)
                if f is None:
                    self.serves = False
                    return None
            assert f is not None                        # built above, or the one kept
            got = f.follow_many(states)
            if isinstance(got, bytes):
                return got
            if not got.outside:
                break
            box = got.widened(self.rules, f.box, states)     # a start or a move outside the box
        if got.status == CYCLE:
            raise cycle_error(self.rules)
        self.serves = False
        return None

    def _follower(self, box: Box) -> Follower | None:
        """A follower on ``box``, or None where none serves (beyond the bitmap; no memory)."""
        if box.size > MAX_BITS:
            return None
        try:
            return Follower(self.rules, self.cases, box, self.misere)
        except MemoryError:                             # the allocation failed: not served
            return None
