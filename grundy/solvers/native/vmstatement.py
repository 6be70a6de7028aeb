"""A claim's assumption and statement as a program for the interpreter
(:mod:`grundy.solvers.native.vm`), computed lazily: only the nodes the value at a position
depends on run.

An ``and`` (``or``) stops at its first false (true) operand, an ``ite`` runs its condition and
one branch. A node used once is written where it is used (it runs only when its user reaches
it); a node used more than once is a piece of code of its own, ending with ``ret``, run by a
``need`` at each use the first time one is reached at a position (the C keeps a flag per such
node: ``Code.nflag``), so that nothing runs twice and nothing runs that no deciding operand
needs. A shared node over leaves alone (slots and constants) is computed again at each use:
one instruction, cheaper than its ``need``. ``lazy=False`` writes every operand of every node
(the ``and``/``or``/``ite`` whole): the same values, for tests.

>>> from grundy.spec.games import get_game
>>> from grundy.spec.structure import Structure
>>> rules = get_game("nim").rules(Structure.heaps(2))
>>> h = rules.state.heap
>>> s = 2 * h[0] + h[1]                    # used twice: run once, where first needed
>>> st = Statement.of(rules, (s < 3) | (s > 7), None)
>>> st.pc, st.nflag, OPCODES[st.code[st.pc2]]
(-1, 1, 'need')
"""
from __future__ import annotations

import copy
from array import array
from typing import Any, cast

from ... import caches
from ...spec.expr import Expr
from ...spec.game import Rules
from ..explicit.plan import shared_nodes
from .vmcode import _NODE, OP, OPCODES, Regs, _Asm, _placed

__all__ = ["Statement", "OPCODES", "DEPTH"]

DEPTH = 100          # nodes written inside one another at most (deeper: a piece of code of its own)
_LEAVES = ("const", "var")


_MOV, _JZ, _JNZ, _JMP, _NEED, _RET = (OP[k] for k in ("mov", "jz", "jnz", "jmp", "need", "ret"))
_UNARY = ("not", "popcount", "ite")


class _Writer:
    """The lazy writer of one program: :meth:`value` writes code computing a node where it is
    needed, :meth:`pieces` the shared nodes' pieces of code after the rest (into ``asm``: its
    words, the places of register operands, the jump targets)."""

    def __init__(self, asm: _Asm, regs: Regs, slots: dict[str, int], shared: set[int], lazy: bool):
        self.asm, self.regs, self.slots, self.shared, self.lazy = asm, regs, slots, shared, lazy
        self.code, self.at = asm.code, asm.regs_at
        self.subs: dict[int, tuple[int, int, list[int]]] = {}   # node id -> (flag, register, NEEDs' targets)
        self.piece: dict[int, bool] = {}                         # node id -> written as a piece of its own
        self.todo: list[Expr] = []

    def _put(self, *words: int) -> None:
        """An instruction whose operands are registers (its opcode first)."""
        n = len(self.code)
        self.code += words
        self.at.extend(range(n + 1, n + len(words)))

    def _jump(self, op: int, reg: int | None, fix: list[int]) -> None:
        """A jump (on ``reg``, unless None) to a target patched later (its place into ``fix``)."""
        code = self.code
        if reg is None:
            code += (op, -1)
        else:
            code += (op, reg, -1)
            self.at.append(len(code) - 2)
        fix.append(len(code) - 1)
        self.asm.targets.append(len(code) - 1)

    def _patch(self, fix: list[int]) -> None:
        n = len(self.code)
        for i in fix:
            self.code[i] = n

    def value(self, x: Expr, depth: int = 0) -> int:
        """The register holding ``x`` once the code written here has run."""
        op = x.op
        if op == "const":
            return self.regs.const(int(x.args[0]))
        if op == "var":
            return self.slots[x.args[0]]
        i = id(x)
        piece = self.piece.get(i)
        if piece is None:
            piece = self.piece[i] = i in self.shared and any(a.op not in _LEAVES for a in x.args)
        if piece or depth > DEPTH:
            return self._need(x)
        return self._inline(x, depth)

    def _need(self, x: Expr) -> int:
        sub = self.subs.get(id(x))
        if sub is None:
            sub = self.subs[id(x)] = (len(self.subs), self.regs.temp(), [])
            self.todo.append(x)
        self.code += (_NEED, sub[0], -1)
        sub[2].append(len(self.code) - 1)
        self.asm.targets.append(len(self.code) - 1)
        return sub[1]

    def _inline(self, x: Expr, depth: int) -> int:
        op, depth = x.op, depth + 1
        if self.lazy and (op == "and" or op == "or"):
            d, jump, last = self.regs.temp(), _JZ if op == "and" else _JNZ, len(x.args) - 1
            ends: list[int] = []
            for i, a in enumerate(x.args):
                self._put(_MOV, d, self.value(a, depth))
                if i < last:
                    self._jump(jump, d, ends)
            self._patch(ends)
            return d
        if self.lazy and op == "ite":
            d, other, ends = self.regs.temp(), cast(list[int], []), cast(list[int], [])
            self._jump(_JZ, self.value(x.args[0], depth), other)
            self._put(_MOV, d, self.value(x.args[1], depth))
            self._jump(_JMP, None, ends)
            self._patch(other)
            self._put(_MOV, d, self.value(x.args[2], depth))
            self._patch(ends)
            return d
        args = [self.value(a, depth) for a in x.args]
        code = OP[_NODE[op]]
        if op in _UNARY:
            d = self.regs.temp()
            self._put(code, d, *args)
            return d
        d = args[0]                   # binary, or folded left (and, or, min, max of several)
        for y in args[1:]:
            e = self.regs.temp()
            self._put(code, e, d, y)
            d = e
        return d

    def pieces(self) -> None:
        """The shared nodes' pieces of code (each ``need``'s target patched to its piece)."""
        start: dict[int, int] = {}
        while self.todo:
            x = self.todo.pop()
            start[id(x)] = len(self.code)
            self._put(_MOV, self.subs[id(x)][1], self._inline(x, 0))
            self.code.append(_RET)
        for i, (_, _, fix) in self.subs.items():      # (a piece may be needed after it is written)
            for at in fix:
                self.code[at] = start[i]


class Statement:
    """A claim's assumption and statement on one structure as a program (:meth:`Program.use
    <grundy.solvers.native.vm.Program.use>` puts it in force for the sweep's ``s_eval``);
    :meth:`of` makes each once."""

    @classmethod
    def of(cls, rules: Rules, statement: Expr, assume: Expr | None, facts: tuple[str, ...] = ()) -> "Statement":
        """``Statement(rules, statement, assume, facts)``, once per expression DAGs (by node
        identity: hash-consed nodes, kept with the entry), the slots' variables and the facts."""
        key = (id(statement), id(assume), tuple(rules.schema.slot_by_var.items()), facts)
        hit = _STATEMENTS.get(key)
        if hit is None:
            if len(_STATEMENTS) >= _STATEMENTS_LIMIT:
                _STATEMENTS.clear()
            hit = _STATEMENTS[key] = ((statement, assume), cls(rules, statement, assume, facts))
        return hit[1]

    def __init__(self, rules: Rules, statement: Expr, assume: Expr | None, facts: tuple[str, ...] = (),
                 lazy: bool = True):
        """``facts``: variables of the expressions that are no slot (a structure's facts,
        :mod:`grundy.spec.facts`), read from the pool of constants: their values given by
        :meth:`bind` (KeyError: a variable neither a slot nor a fact). ``lazy=False``: every
        operand computed (the module's docstring)."""
        orders: list[list[Expr]] = []
        shared = shared_nodes([statement] if assume is None else [assume, statement], orders)
        ns = len(rules.schema)
        # every node is written at least once, so the pool holds the constants' values (and the
        # facts, first): their number known, every register is numbered as placed from the
        # start (no pass to place them); should the pool come out otherwise, written again and placed
        nconst = len(facts) + len({int(x.args[0]) for order in orders for x in order if x.op == "const"})
        regs, asm, a_reg, pc2, s_reg, nflag = _statement(rules, statement, assume, shared, Regs(ns, ns + nconst),
                                                         facts, lazy)
        if len(regs.consts) == nconst:
            self.code = array("q", asm.code)
        else:
            regs, asm, a_reg, pc2, s_reg, nflag = _statement(rules, statement, assume, shared, Regs(), facts, lazy)
            self.code = asm.place(ns, len(regs.consts))
            a_reg, s_reg = _placed(a_reg, ns, len(regs.consts)), _placed(s_reg, ns, len(regs.consts))
        self.regs, self.ns, self.nflag = regs, ns, nflag
        # the pool's values (None until :meth:`bind` gives the facts')
        self.consts: list[int] | None = None if facts else list(regs.consts)
        self.pc, self.reg = (-1, 0) if assume is None else (0, a_reg)
        self.pc2, self.reg2 = pc2, s_reg
        self.alone: Any = None          # a program of this statement alone (vm.statement_at), once made

    def bind(self, values: dict[str, int]) -> "Statement":
        """This statement with its facts' ``values`` (the same code; a pool of its own).

        >>> from grundy.spec.games import get_game
        >>> from grundy.spec.structure import Structure
        >>> from grundy.spec.expr import BOOL, variable
        >>> rules = get_game("nim").rules(Structure.heaps(1))
        >>> st = Statement(rules, variable("@f", BOOL) & (rules.state.heap[0] > 2), None, ("@f",))
        >>> st.consts, st.bind({"@f": 1}).consts, st.bind({"@f": 0}).code == st.code
        (None, [1, 2], True)
        """
        out = copy.copy(self)
        out.consts = [values[k[1]] if isinstance(k, tuple) else k for k in self.regs.consts]
        out.alone = None
        return out


def _statement(rules: Rules, statement: Expr, assume: Expr | None, shared: set[int], regs: Regs,
               facts: tuple[str, ...] = (), lazy: bool = True) -> tuple[Regs, _Asm, int, int, int, int]:
    """The assumption (if any) and the statement written on ``regs`` (``facts``: the first
    constants): (the registers, the code, the assumption's register, where the statement
    starts, the statement's register, the number of flags), the shared nodes' pieces after both."""
    asm = _Asm()
    slots = dict(rules.schema.slot_by_var)
    for name in facts:
        if name in slots:
            raise KeyError(f"{name} is a slot, not a fact")
        slots[name] = regs.fact(name)
    w = _Writer(asm, regs, slots, shared, lazy)
    a_reg = -1 if assume is None else w.value(assume)
    asm.put(("end",))
    pc2 = len(asm.code)
    s_reg = w.value(statement)
    asm.put(("end",))
    w.pieces()
    return regs, asm, a_reg, pc2, s_reg, len(w.subs)


_STATEMENTS: dict[tuple, tuple[Any, Statement]] = {}
_STATEMENTS_LIMIT = 512
caches.register("vm-statements", lambda: len(_STATEMENTS), _STATEMENTS.clear)
