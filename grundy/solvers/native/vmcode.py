"""The interpreter's programs (:mod:`grundy.solvers.native.vm`): a game's moves (and, by
:mod:`~grundy.solvers.native.vmstatement`, a claim's statement) written as instructions on
registers, with jumps.

The moves come from the same plans as the other two backends (:func:`move_plan`, steps
``let``/``if``/``for``/``check``/``emit``, grouped by the dispatch slot's value as the generated
C's ``switch``), written by :class:`ByteSyntax`, an expression syntax whose "source" of a node
is a register and whose pending lines are instructions: every node of a move is computed (a
product flagged as an overflow where the generated C would not have computed it makes the
caller take the Python path, as any status does). The components' code (:mod:`.vmsplit`) is
written in one pass over its DAG (:func:`_expressions`), its ``and``/``or`` stopping at the
first deciding operand.

>>> from grundy.spec.games import get_game
>>> from grundy.spec.structure import Structure
>>> regs, code = moves_code(get_game("nim").rules(Structure.heaps(2)))
>>> OPCODES[code[0]], OPCODES[code[-1]]
('mov', 'end')
"""
from __future__ import annotations

import functools
from array import array
from collections import deque
from typing import Any, cast

from ... import caches
from ...spec.expr import Expr
from ...spec.game import Rules
from ...spec.ops import dag_nodes
from ..explicit.plan import (
    Emitter,
    Step,
    _within,
    conjuncts,
    dispatch_key,
    dispatch_var,
    move_plan,
    slot_sources,
)

__all__ = ["OPCODES", "OP", "Regs", "ByteSyntax", "JUNCTION_DEPTH", "moves_code"]

# the opcodes, in the order of c/vm_head.c's enum
OPCODES = ["end", "jz", "jmp", "forchk", "dec", "check", "emit", "mov", "not", "popc", "ite",
           "add", "sub", "mul", "div", "mod", "xor", "band", "bor", "nimmul", "lt", "le", "eq", "min", "max",
           "switch", "jnz", "need", "ret"]
OP = {name: i for i, name in enumerate(OPCODES)}
# per opcode: which operands (after the opcode) are registers; the others are literals or jump targets
_REGS = {"end": (), "jz": (0,), "jnz": (0,), "jmp": (), "forchk": (0, 1), "dec": (0,), "check": (0,),
         "mov": (0, 1), "not": (0, 1), "popc": (0, 1), "ite": (0, 1, 2, 3), "need": (), "ret": ()}
_BINARY = {"add": "add", "sub": "sub", "mul": "mul", "nmul": "mul", "div": "div", "mod": "mod", "xor": "xor",
           "bit_and": "band", "bit_or": "bor", "nim_product": "nimmul", "lt": "lt", "le": "le", "eq": "eq"}
_CONST, _TEMP = 1 << 40, 1 << 20      # provisional register numbers: constants, temporaries (slots: 0..ns-1)


class Regs:
    """Registers while a program is written: the slots, a pool of constants, and the
    temporaries of the piece under way (:meth:`piece` starts one: names and temporaries anew)."""

    def __init__(self, const_base: int = _CONST, temp_base: int = _TEMP) -> None:
        self.consts: dict[Any, int] = {}     # a value (or ("fact", name): a value given later) -> its place
        self.names: dict[str, int] = {}
        self.temps = self.most = 0
        # the first constant's and temporary's numbers: provisional (placed once the pool's size
        # is known: _Asm.place), or final where the pool's size is known before (a statement's)
        self.const_base, self.temp_base = const_base, temp_base

    def piece(self) -> None:
        self.names, self.temps = {}, 0

    def const(self, value: int) -> int:
        return self.const_base + self.consts.setdefault(int(value), len(self.consts))

    def fact(self, name: str) -> int:
        """The register of a structure's fact (:mod:`grundy.spec.facts`): a constant whose
        value each structure gives (:meth:`~.vmstatement.Statement.bind`)."""
        return self.const_base + self.consts.setdefault(("fact", name), len(self.consts))

    def temp(self) -> int:
        self.temps += 1
        self.most = max(self.most, self.temps)
        return self.temp_base + self.temps - 1

    def named(self, name: str) -> int:
        """The register of a source name: ``s[i]`` (slot i), else a choice or a local."""
        if name.startswith("s["):
            return int(name[2:-1])
        if name not in self.names:
            self.names[name] = self.temp()
        return self.names[name]


class ByteSyntax(Emitter):
    """The IR as instructions: a node's "source" is the register holding its value, and the
    pending lines (:meth:`take_lines`, as ``let`` steps of a plan) the instructions computing
    the nodes walked since. Every node gets its own register (none is written twice but a
    choice's and a ``let``'s)."""

    def __init__(self, names: Any, shared: set[int], regs: Regs | None = None):
        super().__init__(names, shared)
        self.regs = regs if regs is not None else Regs()

    def visit(self, x: Expr) -> Any:          # no text, no nesting: every node has a register
        fn = self._table[x.op]
        if x.op in ("const", "var"):
            return fn(self, x)
        memo = self.memo
        return fn(self, x, *[memo[id(a)][1] for a in x.args])

    def const(self, value: Any, sort: str) -> int:  # type: ignore[override]  # a register, not text
        return self.regs.const(int(value))

    def walk_var(self, x: Expr) -> int:  # type: ignore[override]
        src = self.names[x.args[0]]
        return src if isinstance(src, int) else self.regs.named(src)

    def let(self, name: str, src: Any) -> tuple:  # type: ignore[override]  # an instruction
        return ("mov", self.regs.named(name), src)

    def _put(self, op: str, *args: int) -> int:
        d = self.regs.temp()
        self.lines.append((op, d, *args))  # type: ignore[arg-type]  # instructions, not text
        return d

    def _binary(self, x: Expr, a: int, b: int) -> int:
        return self._put(_BINARY[x.op], a, b)

    walk_add = walk_sub = walk_mul = walk_nmul = walk_div = walk_mod = walk_xor = _binary
    walk_bit_and = walk_bit_or = walk_nim_product = walk_lt = walk_le = walk_eq = _binary

    def _fold(self, op: str, a: tuple[int, ...]) -> int:
        out = a[0]
        for y in a[1:]:
            out = self._put(op, out, y)
        return out

    def walk_min(self, x: Expr, *a: int) -> int:
        return self._fold("min", a)

    def walk_max(self, x: Expr, *a: int) -> int:
        return self._fold("max", a)

    def walk_and(self, x: Expr, *a: int) -> int:       # booleans are 0 and 1
        return self._fold("band", a)

    def walk_or(self, x: Expr, *a: int) -> int:
        return self._fold("bor", a)

    def walk_not(self, x: Expr, a: int) -> int:
        return self._put("not", a)

    def walk_popcount(self, x: Expr, a: int) -> int:
        return self._put("popc", a)

    def walk_ite(self, x: Expr, c: int, a: int, b: int) -> int:
        return self._put("ite", c, a, b)


class _Asm:
    """Instructions into a flat list, register operands noted (placed once the pool's size is
    known: :meth:`place`), jump targets patched when their place is reached."""

    def __init__(self) -> None:
        self.code: list[int] = []
        self.regs_at: list[int] = []
        self.targets: list[int] = []      # where a jump's target is written (a move's code moved: relocated)

    def put(self, ins: tuple) -> None:
        op = ins[0]
        at = len(self.code) + 1
        self.code += [OP[op], *ins[1:]]
        self.regs_at += [at + i for i in _REGS.get(op, (0, 1, 2))]

    def jump(self, op: str, regs: tuple[int, ...], fix: list[int]) -> None:
        """An instruction ending with a jump target, to be patched (its index into ``fix``)."""
        self.put((op, *regs, -1))
        fix.append(len(self.code) - 1)
        self.targets.append(len(self.code) - 1)

    def patch(self, fix: list[int]) -> None:
        for i in fix:
            self.code[i] = len(self.code)

    def emit(self, changed: dict[int, int]) -> None:
        at = len(self.code)
        self.code += [OP["emit"], len(changed)]
        for n, (slot, reg) in enumerate(sorted(changed.items())):
            self.code += [slot, reg]
            self.regs_at.append(at + 3 + 2 * n)

    def place(self, ns: int, nconst: int) -> array:
        code, at = list(self.code), self.regs_at
        c0, t0 = ns - _CONST, ns + nconst - _TEMP
        new = [r + c0 if r >= _CONST else r + t0 if r >= _TEMP else r for r in map(code.__getitem__, at)]
        deque(map(code.__setitem__, at, new), maxlen=0)      # code[at[i]] = new[i], in C
        return array("q", code)


def _move(asm: _Asm, regs: Regs, steps: list[Step]) -> None:
    """One move's steps: each ``if`` and ``for`` holds the steps after it (to the move's end);
    a condition that fails goes on with the innermost loop's next choice, or the next move."""
    end: list[int] = []
    loops: list[tuple[int, int, list[int], list[int]]] = []     # (choice register, head, continue, exit)
    for st in steps:
        if st.kind == "let":
            asm.put(st.args[0])
        elif st.kind == "if":
            for c in st.args:
                asm.jump("jz", (c,), loops[-1][2] if loops else end)
        elif st.kind == "for":
            cn, lo, hi = st.args
            r = regs.named(cn)
            asm.put(("mov", r, hi))                   # the largest choice first, as the other backends
            head, exit_ = len(asm.code), cast(list[int], [])
            asm.jump("forchk", (r, lo), exit_)
            loops.append((r, head, [], exit_))
        elif st.kind == "check":
            asm.put(("check", st.args[0]))
        else:
            asm.emit({i: v if isinstance(v, int) else regs.named(v) for i, v in st.args[0].items()})
    while loops:
        r, head, cont, exit_ = loops.pop()
        asm.patch(cont)
        asm.put(("dec", r))
        asm.code += [OP["jmp"], head]
        asm.targets.append(len(asm.code) - 1)
        asm.patch(exit_)
    asm.patch(end)


_NODE = {"add": "add", "sub": "sub", "mul": "mul", "nmul": "mul", "div": "div", "mod": "mod", "xor": "xor",
         "bit_and": "band", "bit_or": "bor", "nim_product": "nimmul", "lt": "lt", "le": "le", "eq": "eq",
         "and": "band", "or": "bor", "min": "min", "max": "max", "not": "not", "popcount": "popc", "ite": "ite"}


JUNCTION_DEPTH = 64      # and/or nested deeper than this are computed whole (no short cut)


def _expressions(asm: _Asm, regs: Regs, slots: dict[str, int], root: Expr, memo: dict[int, int],
                 added: list[int], depth: int = 0) -> int:
    """Instructions computing ``root`` into ``asm``; its register. Every node not in ``memo``
    (node id -> register: updated, the ids noted in ``added``) once, children first; an
    ``and``/``or`` stops at its first operand that decides it (:func:`_junction`)."""
    code, at = asm.code, asm.regs_at
    stack: list[tuple[Expr, bool]] = [(root, False)]
    while stack:
        x, ready = stack.pop()
        if id(x) in memo:
            continue
        op = x.op
        if op == "const":
            memo[id(x)] = regs.const(int(x.args[0]))
            continue
        if op == "var":
            memo[id(x)] = slots[x.args[0]]
            continue
        if op in ("and", "or") and depth < JUNCTION_DEPTH:
            memo[id(x)] = _junction(asm, regs, slots, x, memo, added, depth + 1)
            added.append(id(x))
            continue
        if not ready:
            stack.append((x, True))
            stack.extend((a, False) for a in reversed(x.args))
            continue
        name = _NODE[op]
        args = [memo[id(a)] for a in x.args]
        if op in ("not", "popcount", "ite"):
            d = regs.temp()
            n = len(code)
            code += [OP[name], d, *args]
            at.extend(range(n + 1, n + 2 + len(args)))
        else:                        # binary, or folded left (and, or, min, max of several)
            d = args[0]
            for y in args[1:]:
                e = regs.temp()
                n = len(code)
                code += [OP[name], e, d, y]
                at += [n + 1, n + 2, n + 3]
                d = e
        memo[id(x)] = d
        added.append(id(x))
    return memo[id(root)]


def _junction(asm: _Asm, regs: Regs, slots: dict[str, int], x: Expr, memo: dict[int, int],
              added: list[int], depth: int) -> int:
    """An ``and`` (``or``) that jumps to its end at the first false (true) operand. The nodes
    first computed after its first operand may not have run: they leave ``memo`` at its end
    (a later use computes them again)."""
    d = regs.temp()
    jump = "jz" if x.op == "and" else "jnz"
    ends: list[int] = []
    mark = len(added)
    last = len(x.args) - 1
    for i, a in enumerate(x.args):
        r = memo.get(id(a))                     # computed before: its register
        if r is None:
            r = _expressions(asm, regs, slots, a, memo, added, depth)
        asm.put(("mov", d, r))
        if i < last:
            asm.jump(jump, (d,), ends)
        if i == 0:
            mark = len(added)
    asm.patch(ends)
    for i in added[mark:]:
        memo.pop(i, None)
    del added[mark:]
    return d


def _switch(asm: _Asm, regs: Regs, rules: Rules, names: dict, slot: int,
            groups: dict[int, list[Any]]) -> None:
    """The moves whose guard tests ``slot`` against a constant, by that constant (the test
    itself decided by the jump): a jump on the slot's value to its group, each group ending the
    moves."""
    lo, hi = min(groups), max(groups)
    at = len(asm.code)
    asm.code += [OP["switch"], slot, lo, hi - lo + 1] + [-1] * (hi - lo + 2)
    asm.regs_at.append(at + 1)
    ends: list[int] = []
    for value in range(lo, hi + 1):
        if value not in groups:
            continue
        asm.code[at + 4 + value - lo] = len(asm.code)
        for i, m, key_ in groups[value]:
            _one_move(asm, regs, rules, names, i, m, key_[0])
        asm.jump("jmp", (), ends)
    for i in range(at + 4, at + 4 + hi - lo + 2):
        if asm.code[i] < 0:
            ends.append(i)                                          # no move there: the end
    asm.patch(ends)


def _placed(r: int, ns: int, nconst: int) -> int:
    return ns + r - _CONST if r >= _CONST else ns + nconst + r - _TEMP if r >= _TEMP else r


_MOVES: dict[tuple, tuple[Any, Regs, array]] = {}   # the rules' moves_key -> (its nodes, registers, code)
_MOVES_LIMIT = 1024     # programs kept (the least recently used go), for the next claims on the same structures
_MOVES_WORDS = 1 << 22  # ... and their words in all (8 bytes each)
_held = [0]             # the words of the programs kept


def moves_code(rules: Rules) -> tuple[Regs, array]:
    """The moves' code (and registers), once per move relation (the rules' ``moves_key``: the
    moves by node identity, the slots and their domains; the nodes kept with the entry, so
    that no id in a key is reused while it lives)."""
    key, keep = rules.moves_key
    if not _MOVES:
        _held[0] = 0                     # (emptied from outside)
    hit = _MOVES.pop(key, None)          # popped and put back: the order is the order of use
    if hit is not None:
        _held[0] -= len(hit[2])
    else:
        regs, asm = Regs(), _Asm()
        names = slot_sources(rules)
        var = dispatch_var(rules)           # as the generated C: the moves grouped by its value
        plain: list[Any] = []
        groups: dict[int, list[Any]] = {}
        for i, m in enumerate(rules.moves):
            key_ = next(((c, k[1]) for c in conjuncts(m.guard) if (k := dispatch_key(c)) and k[0] == var), None)
            (plain if key_ is None else groups.setdefault(key_[1], [])).append((i, m, key_))
        for i, m, _ in plain:
            _one_move(asm, regs, rules, names, i, m, None)
        if groups:
            assert var is not None                  # groups exist only with a dispatch variable
            _switch(asm, regs, rules, names, rules.schema.slot_by_var[var], groups)
        asm.put(("end",))
        hit = (keep, regs, asm.place(len(rules.schema), len(regs.consts)))
    _MOVES[key] = hit
    _held[0] += len(hit[2])
    while len(_MOVES) > 1 and (len(_MOVES) > _MOVES_LIMIT or _held[0] > _MOVES_WORDS):
        _held[0] -= len(_MOVES.pop(next(iter(_MOVES)))[2])      # the least recently used
    return hit[1], hit[2]


_FOLDS = {"and": "band", "or": "bor", "min": "min", "max": "max"}


def _plain_move(rules: Rules, m: Any, skip: Expr | None) -> tuple[_Asm, Regs] | None:
    """A move without choices written straight from its nodes: the words, registers and
    constants that :func:`move_plan`'s steps written by :class:`ByteSyntax` and :func:`_move`
    give (the same walk of the guard's conjuncts, the first alone, then of the updates that
    change a slot, in slot order), without making the plan; None where the plan is needed (a
    choice, a new value whose domain is checked, a variable that is no slot)."""
    slots, doms = rules.schema.slot_by_var, rules.slot_domains
    ups = [(i, u) for i, u in sorted(m.update.items()) if not (u.op == "var" and slots.get(u.args[0]) == i)]
    if m.choices or any(doms[i] is not None and not _within(rules, m, u, doms[i]) for i, u in ups):
        return None
    own, asm = Regs(), _Asm()
    memo: dict[int, int] = {}

    def reg(e: Expr) -> int:              # ByteSyntax's walk: every node once, children first
        for x in dag_nodes(e, skip=memo):
            op = x.op
            if op == "const":
                r = own.const(int(x.args[0]))
            elif op == "var":
                r = slots[x.args[0]]
            else:
                args = [memo[id(a)] for a in x.args]
                if op in _FOLDS:
                    r = args[0]
                    for y in args[1:]:
                        d = own.temp()
                        asm.put((_FOLDS[op], d, r, y))
                        r = d
                else:
                    r = own.temp()
                    asm.put((_NODE[op], r, *args))
            memo[id(x)] = r
        return memo[id(e)]
    end: list[int] = []
    try:
        conj = [c for c in conjuncts(m.guard) if c is not skip]
        for grp in (conj[:1], conj[1:]):
            for r in [reg(c) for c in grp]:
                asm.jump("jz", (r,), end)
        asm.emit({i: reg(u) for i, u in ups})
    except KeyError:                      # (the plan says what it meets)
        return None
    asm.patch(end)
    return asm, own


_FRAGMENTS: dict[tuple, tuple[Any, list[int], list[int], list[int], list[int], int]] = {}
_FRAGMENTS_LIMIT = 4096


def _one_move(asm: _Asm, regs: Regs, rules: Rules, names: dict, i: int, m: Any, skip: Expr | None) -> None:
    """Move ``i`` of ``rules`` (``skip``: the guard's conjunct the dispatch decided) into
    ``asm``. Its code is made once per content -- the move by node identity (its part of the
    rules' ``moves_key``), the slots' variables and domains (what :func:`move_plan` reads of
    the rules) and ``skip`` -- on registers and places of its own (constants in its own order
    of first use, jumps from 0), then moved here: each constant to the pool's register of its
    value (asked in that order: the pool grows as if the move were written here), each jump
    target by where the code starts. The same words as writing it here."""
    key, _ = rules.moves_key
    fkey = (key[1][i], key[2], key[3], None if skip is None else id(skip))
    hit = _FRAGMENTS.get(fkey)
    if hit is None:
        plain = _plain_move(rules, m, skip)
        if plain is None:
            own, scratch = Regs(), _Asm()
            _, steps = move_plan(rules, m, names, functools.partial(ByteSyntax, regs=own), skip)  # type: ignore[arg-type]
            _move(scratch, own, steps)
        else:
            scratch, own = plain
        if len(_FRAGMENTS) >= _FRAGMENTS_LIMIT:
            _FRAGMENTS.clear()
        hit = _FRAGMENTS[fkey] = ((m, skip), scratch.code, scratch.regs_at, scratch.targets, list(own.consts),
                                  own.most)
    _, code, at, targets, consts, most = hit
    base = len(asm.code)
    pool = [regs.const(v) for v in consts]
    moved = list(code)
    for p in at:
        w = moved[p]
        if w >= _CONST:
            moved[p] = pool[w - _CONST]
    for p in targets:
        moved[p] += base
    asm.code += moved
    asm.regs_at += [p + base for p in at]
    asm.targets += [p + base for p in targets]
    regs.most = max(regs.most, most)


caches.register("vm-move-code", lambda: len(_FRAGMENTS), _FRAGMENTS.clear)
caches.register("vm-moves", lambda: len(_MOVES), _MOVES.clear)


