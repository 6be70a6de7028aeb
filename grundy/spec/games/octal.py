"""Octal games (take-and-break), in CGSuite's notation "d0.d1d2d3...".

Digit d_k says what may be left after removing k tokens from one heap: bit 1,
nothing (the whole heap of k is removed); bit 2, one heap; bit 4, two non-empty
heaps. d0 (before the point, removing nothing) may only be 0 or 4 (split a heap
in two). Kayles is 0.77, Dawson's Kayles 0.07, Node Kayles 0.137 (and claim
grim/thm23 says grim on a path is 0.6). Last mover wins.

The position has a fixed number of heap slots; a break puts its second part in
the first empty slot. :func:`octal_structure` sizes the slots from a bound on the
number of heaps any reachable position can hold (so no break ever lacks a slot),
rounded up to a power of two so that positions of similar size share a memo table.

>>> from grundy import solve
>>> [solve({"game": "octal", "code": "0.77", "heaps": [n]})["grundy"] for n in range(8)]
[0, 1, 2, 3, 1, 4, 3, 2]
>>> solve({"game": "octal", "code": "0.8", "heaps": [3]})
Traceback (most recent call last):
...
grundy.spec.position.InputError: code: '0.8' is not an octal code: digits 0-7, as in "0.77" or "4.07"
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from grundy.spec import InputError, Structure, ite, minimum, move, need, read_heaps, total
from grundy.spec.games._heaps import HeapGame

_CODE = re.compile(r"([0-7]?)\.([0-7]*)|([0-7])")


@dataclass(frozen=True, eq=False)
class OctalHeaps(Structure):
    """Heap slots together with the octal code they are played under."""

    code: str = "0"

    @property
    def digits(self) -> tuple[int, ...]:
        return parse_code(self.code)

    def __hash__(self) -> int:
        return hash((Structure.__hash__(self), self.code))

    def __eq__(self, other) -> bool:
        return (isinstance(other, OctalHeaps) and self.code == other.code
                and Structure.__eq__(self, other))


def parse_code(code: Any) -> tuple[int, ...]:
    """The digits d0, d1, ... of an octal code (InputError naming "code" if it is not one).

    >>> parse_code("0.137"), parse_code("4.07"), parse_code(".6")
    ((0, 1, 3, 7), (4, 0, 7), (0, 6))
    """
    if not isinstance(code, str):
        raise InputError("code", f"must be a string such as \"0.77\", got {code!r}")
    m = _CODE.fullmatch(code.strip())
    if m is None:
        raise InputError("code", f"{code!r} is not an octal code: digits 0-7, as in \"0.77\" or \"4.07\"")
    d0 = int(m.group(1) or m.group(3) or 0)
    if d0 not in (0, 4):
        raise InputError("code", f"{code!r}: the digit before the point (removing no token) must be "
                                 f"0 or 4 (split a heap in two)")
    return (d0, *(int(c) for c in m.group(2) or ""))


def slot_bound(digits: tuple[int, ...], heaps: list[int]) -> int:
    """An upper bound on the number of non-empty heaps of any position reachable from ``heaps``.

    Breaks remove at least kmin tokens (the least k whose digit has bit 4) and add one
    heap; every heap holds a token: h + (h - h0) * kmin <= total.

    >>> slot_bound((0, 7, 7), [10]), slot_bound((0, 6), [1, 1]), slot_bound((0, 0, 3), [9, 9])
    (5, 2, 2)
    """
    h0, t = sum(1 for h in heaps if h > 0), sum(heaps)
    breaks = [k for k, d in enumerate(digits) if d & 4]
    if not breaks:
        return h0
    kmin = breaks[0]
    return (t + h0 * kmin) // (1 + kmin)


def canonical_code(digits: tuple[int, ...]) -> str:
    """The code written without trailing zeros: ``(0, 7, 7, 0)`` -> ``"0.77"``."""
    return f"{digits[0]}." + ("".join(map(str, digits[1:])).rstrip("0") or "0")


def octal_structure(code: str, heaps: list[int]) -> OctalHeaps:
    """The structure on which ``heaps`` are played under ``code``: enough slots, a power of two.

    >>> g = octal_structure("0.770", [10]); g.n, g.code
    (8, '0.77')
    """
    digits = parse_code(code)
    need_slots = max(len(heaps), slot_bound(digits, heaps), 1)
    n = 1 << (need_slots - 1).bit_length()
    return OctalHeaps("heaps", n, names=list(range(n)), code=canonical_code(digits))


class Octal(HeapGame):
    name = "octal"
    summary = ("Octal game with code d0.d1d2... (\"code\" in the JSON): removing k tokens from a heap "
               "may leave no heap if d_k has bit 1, one heap if bit 2, two non-empty heaps if bit 4. "
               "Last mover wins.")
    decompose_over = "heaps"

    def moves(self, g: OctalHeaps, s):
        n = g.n
        free = minimum([ite(s.heap[j] == 0, j, n) for j in g.elements])   # first empty slot; n: none
        for i in g.elements:
            h = s.heap[i]
            for k, d in enumerate(g.digits):
                if k > 0 and d & 3:                        # leave no heap (bit 1) or one heap (bit 2)
                    yield move(f"take {k} from heap {i}",
                               guard=(h >= k) & ((h == k) & bool(d & 1) | (h > k) & bool(d & 2)),
                               update=s.set(heap={i: h - k}))
                if d & 4:                                  # leave two non-empty heaps a + b, a <= b
                    yield move((f"take {k} from heap {i}, leaving " if k else f"split heap {i} into ")
                               + "{a} + {b}",
                               guard=(h >= k + 2) & (free < n),
                               choose=[("a", 1, (h - k) // 2),
                                       ("b", lambda a: h - k - a, lambda a: h - k - a)],
                               update=lambda a, b, i=i: s.set(heap={
                                   j: a if j == i else ite(free == j, b, s.heap[j]) for j in g.elements}))

    def rank(self, g: OctalHeaps, s):
        if g.digits[0] & 4:                                # a split removes no token: count heaps too
            return total(ite(s.heap[i] > 0, 2 * s.heap[i] - 1, 0) for i in g.elements)
        return total(s.heap[i] for i in g.elements)

    def present(self, g, s, i):
        return s.heap[i] > 0

    def read(self, obj: dict) -> tuple[Structure, dict[str, Any]]:
        code = need(obj, "code")
        parse_code(code)                                   # bad code: InputError before the heaps
        heaps = read_heaps(obj)
        g = octal_structure(code, heaps)
        return g, {"heap": heaps + [0] * (g.n - len(heaps))}

    def write(self, g: OctalHeaps, values: dict[str, Any]) -> dict:
        return {"heaps": [values["heap"][i] for i in g.elements if values["heap"][i] > 0],
                "code": g.code}


GAME = Octal()
