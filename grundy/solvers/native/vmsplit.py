"""A game's components as a program for the interpreter (:mod:`grundy.solvers.native.vm`):
where a position is decomposable and which of its elements are present, computed by code of
:mod:`~grundy.solvers.native.vmcode`'s instructions, and the data ``c/components.c`` reads to
split it (the links, the elements' slots, the slots' empty values: the same as the generated
kernel's ``components``).

>>> from grundy.spec.games import get_game
>>> from grundy.spec.structure import Structure
>>> pr = presence_code(get_game("grim").rules(Structure.graph(range(3), [(0, 1), (1, 2)])))
>>> len(pr.pregs), pr.links, pr.el_off, pr.empty
(3, [0, 1, 1, 2], [0, 1, 2, 3], [0, 0, 0])
"""
from __future__ import annotations

from typing import Any

from ... import caches
from ...spec.game import Rules
from .vmcode import Regs, _Asm, _expressions, _placed

__all__ = ["Presence", "presence_code", "presence_key"]


class Presence:
    """Where a position splits into components, as a program for the interpreter
    (:func:`presence_code`): the code computing ``rules.decomposable`` into register ``dreg``
    and each component element's presence (``rules.present``) into ``pregs``, and the data
    the C's union-find reads (``rules.links``, ``rules.element_slots``, each slot's empty value)."""

    def __init__(self, rules: Rules):
        assert rules.present is not None          # only for games whose positions may split
        roots = [rules.decomposable, *rules.present]
        asm, regs = _Asm(), Regs()
        slots = dict(rules.schema.slot_by_var)
        memo: dict[int, int] = {}
        added: list[int] = []
        got = [_expressions(asm, regs, slots, r, memo, added) for r in roots]
        asm.put(("end",))
        ns = len(rules.schema)
        self.code = asm.place(ns, len(regs.consts))
        placed = [_placed(r, ns, len(regs.consts)) for r in got]
        self.regs, self.ns = regs, ns
        self.dreg, self.pregs = placed[0], placed[1:]
        self.links = [v for ab in rules.links for v in ab]
        self.el_off, self.el_slots = [0], []
        for sl in rules.element_slots:
            self.el_slots += sl
            self.el_off.append(len(self.el_slots))
        sch = rules.schema
        self.empty = [int(sch.fields[name].empty) for name, _ in sch.slots]


def presence_key(rules: Rules) -> tuple:
    """What the decomposition of ``rules`` reads besides the moves (the ``decomposable`` and
    ``present`` nodes by identity, the links, the elements' slots, the slots' empty values):
    with equal moves (``moves_key``) and equal keys here, the decomposition premise is one
    statement (:mod:`grundy.solvers.premises.decomposition` reads no more)."""
    sch = rules.schema
    return (id(rules.decomposable), tuple(map(id, rules.present or ())), tuple(rules.links),
            tuple(map(tuple, rules.element_slots)), tuple(sch.fields[name].empty for name, _ in sch.slots))


_PRESENCE: dict[tuple, tuple[Any, Presence]] = {}
_PRESENCE_LIMIT = 64


def presence_code(rules: Rules) -> Presence:
    """:class:`Presence` of ``rules``, once per :func:`presence_key` and slots' variables (the
    nodes kept with the entry)."""
    key = (presence_key(rules), tuple(rules.schema.slot_by_var.items()))
    hit = _PRESENCE.get(key)
    if hit is None:
        if len(_PRESENCE) >= _PRESENCE_LIMIT:
            _PRESENCE.clear()
        hit = _PRESENCE[key] = ((rules.decomposable, rules.present), Presence(rules))
    return hit[1]


caches.register("vm-presence", lambda: len(_PRESENCE), _PRESENCE.clear)
