"""Take-and-break codes as data: :class:`TakeBreak` (the digits, which splits are allowed) and
:func:`parse_octal` (an octal code such as ``"0.77"`` or ``"4.07"`` read into one). The games
written from a code are :class:`~grundy.spec.heaprule.TakeAndBreak` subclasses.

>>> parse_octal("0.77").digits
(0, 7, 7)
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from ..errors import InputError, RuleError

__all__ = ["TakeBreak", "parse_octal"]

_OCTAL = re.compile(r"([0-7]?)\.([0-7]*)|([0-7])")


@dataclass(frozen=True)
class TakeBreak:
    """A take-and-break code: removing k tokens from a heap may leave no heap (bit 1 of
    digit d_k), one heap (bit 2), or two non-empty heaps (bit 4; with ``unequal``, two
    unequal heaps). ``digits`` are d_0, d_1, ...; ``tail`` is d_k for every k beyond them
    (0 for an octal code; 3 for "take any number"). d_0 is 0 or 4 (removing nothing may only
    split a heap).

    >>> TakeBreak((0, 7, 7)).text, TakeBreak((4,), tail=3).text, TakeBreak((4,), unequal=True).text
    ('0.77', '4.333...', '4.0 (unequal splits)')
    """

    digits: tuple[int, ...]
    tail: int = 0
    unequal: bool = False

    def __post_init__(self) -> None:
        ds = tuple(int(d) for d in self.digits) or (0,)
        while len(ds) > 1 and ds[-1] == self.tail:   # canonical: no trailing digits equal to the tail
            ds = ds[:-1]
        object.__setattr__(self, "digits", ds)
        if any(not 0 <= d <= 7 for d in ds + (self.tail,)):
            raise RuleError(f"take-and-break code {ds}: digits are 0..7")
        if ds[0] not in (0, 4):
            raise RuleError(f"take-and-break code {ds}: d0 (removing nothing) must be 0 or 4")

    def digit(self, k: int) -> int:
        return self.digits[k] if k < len(self.digits) else self.tail

    @property
    def text(self) -> str:
        out = f"{self.digits[0]}." + ("".join(map(str, self.digits[1:])) or ("" if self.tail else "0"))
        if self.tail:
            out += str(self.tail) * 3 + "..."
        return out + (" (unequal splits)" if self.unequal else "")

    @property
    def breaks(self) -> bool:
        return any(d & 4 for d in self.digits) or bool(self.tail & 4)

    @property
    def last(self) -> int | None:
        """The most tokens a move removes (None: unbounded)."""
        if self.tail:
            return None
        return max((k for k, d in enumerate(self.digits) if d), default=0)

    def max_heaps(self, heaps: list[int]) -> int:
        """Heaps of any position reachable from ``heaps``: breaks remove at least kmin
        tokens and add one heap; every heap holds a token: h + (h - h0) * kmin <= total."""
        h0, t = sum(1 for h in heaps if h > 0), sum(heaps)
        ks = [k for k, d in enumerate(self.digits) if d & 4] + ([len(self.digits)] if self.tail & 4 else [])
        if not ks:
            return h0
        return (t + h0 * ks[0]) // (1 + ks[0])


def parse_octal(code: Any, field: str = "code") -> TakeBreak:
    """An octal code ``"d0.d1d2..."`` (InputError naming ``field`` if it is not one).

    >>> parse_octal("0.137").digits, parse_octal("4.07").digits, parse_octal(".6").digits
    ((0, 1, 3, 7), (4, 0, 7), (0, 6))
    """
    if not isinstance(code, str):
        raise InputError(field, f"must be a string such as \"0.77\", got {code!r}")
    m = _OCTAL.fullmatch(code.strip())
    if m is None:
        raise InputError(field, f"{code!r} is not an octal code: digits 0-7, as in \"0.77\" or \"4.07\"")
    d0 = int(m.group(1) or m.group(3) or 0)
    if d0 not in (0, 4):
        raise InputError(field, f"{code!r}: the digit before the point (removing no token) must be "
                                f"0 or 4 (split a heap in two)")
    return TakeBreak((d0, *(int(c) for c in m.group(2) or "")))
