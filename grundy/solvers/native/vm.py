"""The IR interpreted in C: a game's moves and a claim's statement as *data* (a program of
registers and jumps) run by one fixed C text (``c/vm_head.c`` and ``c/vm_tail.c`` around the
kernel's own ``c/solver.c`` and ``c/sweep.c``), compiled once per machine and cached by its
text's digest like every library (:func:`grundy.solvers.native.build.load`). A structure's
search then runs in C without a compile of its own: the third backend of the one IR, beside
the Python code and the generated C.

The programs are written by :mod:`grundy.solvers.native.vmcode` from the same move plans as
the other two backends. Every sum, difference and product is checked in C: one past 64 bits
flags an overflow, and the caller takes the Python path, as for any status. No symmetry; a
program made ``splits=True`` carries the rules' components as data (:class:`~.vmsplit.Presence`,
run by ``c/components.c``, the same C as a generated kernel's) and its Grundy search splits a
position into them once :meth:`Program.decompose` is called, which its caller does only where
the decomposition premise is proved. Boxes of at most 2^56 positions (one 64-bit table entry).

>>> from grundy.spec.games import get_game
>>> from grundy.spec.structure import Structure
>>> from grundy.solvers.native.box import Box
>>> rules = get_game("nim").rules(Structure.heaps(3))
>>> if build.available():
...     k = VMKernel(Program(rules, Box.around(rules, [(0, 0, 0), (7, 7, 7)])), GRUNDY)
...     print(list(k.values([(3, 5, 6), (1, 2, 4)])))
... else:
...     print([1, 8])
[1, 8]
"""
from __future__ import annotations

import ctypes
import functools
from array import array
from typing import Any, Callable, Sequence

from ...errors import BuildError
from ...spec.game import Rules
from . import build
from .box import OUT_OF_BOX, Box, Halt
from .kernel import GRUNDY, LIMIT, MISERE, MISERE_GRUNDY, NORMAL, TableHandle, keys_in, run_paused
from .vmcode import Regs, moves_code
from .vmsplit import Presence, presence_code
from .vmstatement import Statement

__all__ = ["Program", "Statement", "VMKernel", "library", "available", "statement_at", "MAX_BOX", "DENSE_BELOW",
           "STORE_LIMIT",
           "GRUNDY", "NORMAL", "MISERE", "MISERE_GRUNDY"]

MAX_BOX = 2 ** 56         # a table entry holds key + 1 and a byte in 64 bits (PACKED)
DENSE_BELOW = 2 ** 16     # boxes below this many positions get a dense table (a byte each), others a hash
STORE_LIMIT = 2 ** 18     # positions a table of the interpreter stores at most (then LIMIT: its caller goes on
                          # without it): it reduces by nothing, so where the reductions matter (grim on a
                          # path of 40 vertices: components) it would search without end


class _Code(ctypes.Structure):
    _fields_ = [("nreg", ctypes.c_int64), ("nconst", ctypes.c_int64), ("consts", ctypes.c_void_p),
                ("code", ctypes.c_void_p), ("pc", ctypes.c_int64), ("reg", ctypes.c_int64),
                ("pc2", ctypes.c_int64), ("reg2", ctypes.c_int64), ("nflag", ctypes.c_int64)]


class _Prog(ctypes.Structure):
    _fields_ = [("ns", ctypes.c_int64), ("lo", ctypes.c_void_p), ("radix", ctypes.c_void_p),
                ("stride", ctypes.c_void_p), ("order", ctypes.c_void_p), ("moves", _Code), ("stmt", _Code),
                ("decompose", ctypes.c_int64), ("probe", ctypes.c_int64), ("probed", ctypes.c_int64),
                ("split", ctypes.c_int64), ("pres", _Code), ("nel", ctypes.c_int64), ("nlinks", ctypes.c_int64),
                ("preg", ctypes.c_void_p), ("links", ctypes.c_void_p), ("el_off", ctypes.c_void_p),
                ("el_slots", ctypes.c_void_p), ("empty", ctypes.c_void_p)]


def _fill(c: _Code, ns: int, regs: Regs, code: array, keep: list, pool: list[int] | None = None) -> None:
    """``c`` set to ``code`` on ``regs`` (the pool's values: ``pool``, else the registers' own)."""
    consts = array("q", (list(regs.consts) if pool is None else pool) or [0])
    keep += [consts, code]
    c.nreg, c.nconst = ns + len(regs.consts) + regs.most, len(regs.consts)
    c.consts, c.code = consts.buffer_info()[0], code.buffer_info()[0]


def _pool(st: Statement) -> list[int]:
    if st.consts is None:
        raise ValueError("a statement's facts have no values: bind it first (Statement.bind)")
    return st.consts


class Program:
    """The moves of ``rules`` on ``box`` as a program for the interpreter (ValueError: a box
    of 2^56 positions or more). ``splits``: with the rules' components too (``rules.present``
    must not be None), used from :meth:`decompose` on."""

    def __init__(self, rules: Rules, box: Box, splits: bool = False):
        if box.size >= MAX_BOX:
            raise ValueError(f"a box of {box.size} positions: the interpreter takes fewer than 2^56")
        self.rules, self.box = rules, box
        ns = len(rules.schema)
        regs, code = moves_code(rules)
        self._keep: list = []
        p = self.c = _Prog()
        p.ns = ns
        for name, values, t in (("lo", box.lo, "q"), ("radix", box.radix, "q"), ("stride", box.strides, "Q"),
                                ("order", box.order, "q")):
            arr = array(t, list(values) or [0])
            self._keep.append(arr)
            setattr(p, name, arr.buffer_info()[0])
        _fill(p.moves, ns, regs, code, self._keep)
        p.moves.pc = 0
        self.statement: Statement | None = None
        self.splits = splits
        if splits:
            self._presence(presence_code(rules))

    def _presence(self, pr: Presence) -> None:
        p = self.c
        _fill(p.pres, self.c.ns, pr.regs, pr.code, self._keep)
        p.pres.pc, p.pres.reg = 0, pr.dreg
        p.nel, p.nlinks = len(pr.pregs), len(pr.links) // 2
        for name, values in (("preg", pr.pregs), ("links", pr.links), ("el_off", pr.el_off),
                             ("el_slots", pr.el_slots), ("empty", pr.empty)):
            arr = array("q", list(values) or [0])
            self._keep.append(arr)
            setattr(p, name, arr.buffer_info()[0])

    def decompose(self) -> None:
        """Split positions into components from now on (the Grundy search's; a table's values
        stored so far stay: each is its position's value). The caller's proof obligation: the
        decomposition premise of these rules is proved (:mod:`grundy.solvers.premises`)."""
        if not self.splits:
            raise ValueError("a program made without the rules' components")
        self.c.decompose, self.c.probe = 1, 0

    def probe(self, on: bool) -> None:
        """Count, while not decomposing, the positions the search expands and those that would
        split (:meth:`split_share`); nothing else changes."""
        if not self.splits:
            raise ValueError("a program made without the rules' components")
        self.c.probe = int(on)

    def split_share(self) -> float:
        """The share of the positions expanded since the last call, while probing or
        decomposing, that split or would have (0 if none); the counts start again."""
        share = self.c.split / self.c.probed if self.c.probed else 0.0
        self.c.split = self.c.probed = 0
        return share

    @property
    def decomposes(self) -> bool:
        """Whether positions split into components (:meth:`decompose` was called)."""
        return bool(self.c.decompose)

    def use(self, st: Statement) -> None:
        """Put ``st`` in force: the sweep's ``s_eval`` runs it from now on."""
        keep: list = []
        _fill(self.c.stmt, st.ns, st.regs, st.code, keep, _pool(st))
        self.c.stmt.pc, self.c.stmt.reg, self.c.stmt.pc2, self.c.stmt.reg2 = st.pc, st.reg, st.pc2, st.reg2
        self.c.stmt.nflag = st.nflag
        self.statement, self._stmt_keep = st, keep


def statement_at(st: Statement, state: Sequence[int]) -> int | None:
    """``st`` at ``state`` as the interpreter's sweep evaluates it (``s_eval``: an int, None
    where the assumption fails), with no moves and no table (a program of the statement alone,
    made once per statement).

    >>> from grundy.spec.games import get_game
    >>> from grundy.spec.structure import Structure
    >>> rules = get_game("nim").rules(Structure.heaps(2))
    >>> h = rules.state.heap
    >>> st = Statement.of(rules, h[0] + 1 < h[1], h[0] > 0)
    >>> [statement_at(st, s) for s in [(1, 3), (2, 3), (0, 3)]] if available() else [1, 0, None]
    [1, 0, None]
    """
    p = st.alone
    if p is None:
        p = _Prog()
        p.ns = st.ns
        keep: list = []
        _fill(p.stmt, st.ns, st.regs, st.code, keep, _pool(st))
        p.stmt.pc, p.stmt.reg, p.stmt.pc2, p.stmt.reg2, p.stmt.nflag = st.pc, st.reg, st.pc2, st.reg2, st.nflag
        st.alone = p = (p, keep)
    s = array("q", state)
    out = ctypes.c_int64(0)
    held = library().v_eval(ctypes.byref(p[0]), s.buffer_info()[0], ctypes.byref(out))
    return out.value if held else None


def _text() -> str:
    parts = ["c/runtime.c", "c/vm_head.c", "c/components.c", "c/solver.c", "c/sweep.c", "c/vm_tail.c"]
    return "\n".join(build.fixed_c(__package__, p) for p in parts)


@functools.lru_cache(maxsize=1)
def library() -> ctypes.CDLL:
    """The interpreter's library (compiled with -O2 the first time on a machine, then cached)."""
    lib = build.load(_text())
    vp, i64, u64 = ctypes.c_void_p, ctypes.c_int64, ctypes.c_uint64
    lib.v_new.restype, lib.v_new.argtypes = vp, [vp, ctypes.c_int, u64, i64]
    lib.k_free.argtypes = [vp]
    lib.k_abort.argtypes = [vp]
    lib.k_stored.restype, lib.k_stored.argtypes = i64, [vp]
    lib.v_limit.argtypes = [vp, i64]
    lib.v_renew.argtypes = [vp, ctypes.c_int, u64, i64]
    lib.k_solve_many.argtypes = [vp, vp, i64, vp, vp]
    lib.k_value.argtypes = [vp, u64]
    lib.k_err_slot.argtypes = [vp]
    lib.k_err_value.restype, lib.k_err_value.argtypes = i64, [vp]
    lib.v_keys.restype, lib.v_keys.argtypes = i64, [vp, vp, i64, vp]
    lib.v_successors.restype, lib.v_successors.argtypes = i64, [vp, u64, vp, i64]
    lib.v_eval.restype, lib.v_eval.argtypes = ctypes.c_int, [vp, vp, vp]
    return lib


def available() -> bool:
    """Whether the interpreter can be used here (a C compiler that builds it)."""
    if not build.available():
        return False
    try:
        library()
    except BuildError:
        return False
    return True


class _Keys:
    """``k_keys`` of one program (what :func:`keys_in` calls)."""

    def __init__(self, lib: ctypes.CDLL, prog: Program):
        self.lib, self.prog = lib, prog

    def k_keys(self, flat: int, n: int, out: Any) -> int:
        return self.lib.v_keys(ctypes.byref(self.prog.c), flat, n, out)


class VMKernel(TableHandle):
    """A table of values (``mode``: GRUNDY, NORMAL, MISERE, MISERE_GRUNDY, as
    :class:`~grundy.solvers.native.kernel.Kernel`'s) searched by the interpreter running
    ``prog``. Duck-typed as a kernel for a :class:`~grundy.solvers.native.sweep.SweepRun`
    (``lib.s_run``, ``lib.k_abort``, ``_t``, ``tiered``)."""

    tiered = False

    def __init__(self, prog: Program, mode: int, limit: int = 2 ** 62):
        self.lib, self.prog, self.box, self.mode = library(), prog, prog.box, mode
        self.extra = ""
        self._dense = dense = prog.box.size if prog.box.size < DENSE_BELOW else 0
        self._t = self.lib.v_new(ctypes.byref(prog.c), mode, dense, limit)
        self.on_limit: Callable[[], bool] | None = None   # at LIMIT: True where the search may go on (a caller's)
        self.stage = 0                                   # the caller's: where its policy of limits stands
        if not self._t:
            raise MemoryError(f"no memory for a table of {prog.box.size:,} positions")

    def set_limit(self, limit: int) -> None:
        """Store at most ``limit`` positions in all (then LIMIT), from now on."""
        self.lib.v_limit(self._t, limit)

    def renew(self, mode: int, limit: int) -> None:
        """An empty table of ``mode`` in place of this one (the same program; nothing stored)."""
        if self.lib.v_renew(self._t, mode, self._dense, limit):
            raise MemoryError(f"no memory for a table of {self.box.size:,} positions")
        self.mode = mode

    def values(self, states: Sequence[Sequence[int]]) -> bytes | Halt:
        """The stored bytes of ``states`` (solved), or why not (a :class:`Halt`, as
        :meth:`Kernel.values <grundy.solvers.native.kernel.Kernel.values>`)."""
        n = len(states)
        keys = keys_in(_Keys(self.lib, self.prog), self.box, states)   # type: ignore[arg-type]
        if keys is None:
            return Halt(OUT_OF_BOX)
        out = (ctypes.c_uint8 * max(n, 1))()
        at = ctypes.c_int64(0)
        status = LIMIT
        while status == LIMIT:           # at the limit, the caller's policy (on_limit) may let it go on
            at.value = 0
            status = run_paused(lambda: self.lib.k_solve_many(self._t, keys, n, out, ctypes.byref(at)),
                                lambda: self.lib.k_abort(self._t))
            if status != LIMIT or self.on_limit is None or not self.on_limit():
                break
        if status == OUT_OF_BOX:
            return Halt(status, self.lib.k_err_slot(self._t), self.lib.k_err_value(self._t))
        return Halt(status) if status else bytes(out)[:n]

    def successors(self, state: Sequence[int]) -> list[tuple[int, ...]] | int:
        """The successors as the interpreter generates them, or its status (for tests)."""
        cap = 1 << 16
        buf = (ctypes.c_uint64 * cap)()
        n = self.lib.v_successors(ctypes.byref(self.prog.c), self.box.index(state), buf, cap)
        if n < 0:
            return -n
        return [self.box.state(buf[i]) for i in range(min(n, cap))]

    def evaluate(self, state: Sequence[int]) -> int | None:
        """The statement in force at ``state`` (as an int; None where the assumption fails)."""
        s = array("q", state)
        out = ctypes.c_int64(0)
        held = self.lib.v_eval(ctypes.byref(self.prog.c), s.buffer_info()[0], ctypes.byref(out))
        return out.value if held else None
