"""State schemas: named fields laid out over a structure, packed into a flat tuple.

A rule sees the state through a :class:`SymState`: ``s.weight[e]`` is the IR
variable of one slot, ``s.set(weight={e: w}, token=v)`` an update.

>>> from grundy.spec.structure import Structure
>>> sch = Schema(Structure.heaps(2), [Field("heap", over="heaps")])
>>> sch.slots
[('heap', 0), ('heap', 1)]
>>> s = sch.symbolic()
>>> s.heap[1]
heap[1]
>>> sch.pack({"heap": [3, 5]})
(3, 5)
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import Any, Hashable, NoReturn

from ..errors import RuleError
from .expr import Expr, Var, lift, variable
from .ops import BOOL, INT
from .structure import Structure

DOMAINS = (None, "vertices", "edges", "heaps", "pairs", "opairs")
KINDS = ("int", "bool", "vertex", "edge")


@dataclass(frozen=True)
class Field:
    """One field of a position.

    ``over``: None (a single value), ``"vertices"``, ``"edges"``, ``"heaps"``, ``"pairs"``
    (unordered vertex pairs with the diagonal: a dynamic adjacency with loops) or
    ``"opairs"`` (ordered pairs with the diagonal: dynamic arcs).
    ``kind``: ``"int"`` (bounded below by ``lower``), ``"bool"``, ``"vertex"`` (a vertex
    number) or ``"edge"`` (an edge number, or -1 for none).
    ``empty``: the value an element takes outside its component (decomposition).

    Parameters
    ----------
    name : str
        How rules read it: ``s.<name>[element]`` (or ``s.<name>`` for a single value).
    over : str or None
        The structure's elements it has a value on (see above).
    kind : str
        ``"int"``, ``"bool"``, ``"vertex"`` or ``"edge"``.
    lower : int
        The smallest value of an ``"int"`` field.
    empty : int
        The value outside a component.

    Raises
    ------
    ValueError
        ``over`` or ``kind`` is not one of the names above (the message names the field).

    Examples
    --------
    >>> Field("weight", over="edges").sort, Field("alive", over="vertices", kind="bool").sort
    ('int', 'bool')
    >>> Field("w", over="faces")
    Traceback (most recent call last):
    ...
    ValueError: field w: over must be one of (None, 'vertices', 'edges', 'heaps', 'pairs', 'opairs')
    """

    name: str
    over: str | None = None
    kind: str = "int"
    lower: int = 0
    empty: int = 0

    def __post_init__(self) -> None:
        if self.over not in DOMAINS:
            raise ValueError(f"field {self.name}: over must be one of {DOMAINS}")
        if self.kind not in KINDS:
            raise ValueError(f"field {self.name}: kind must be one of {KINDS}")

    @property
    def sort(self) -> str:
        return BOOL if self.kind == "bool" else INT


def domain_keys(g: Structure, over: str | None) -> list[Hashable]:
    if over is None:
        return [None]
    if over in ("vertices", "heaps"):
        return list(range(g.n))
    if over == "edges":
        return list(range(len(g.edges)))
    if over == "pairs":
        return [(i, j) for i in range(g.n) for j in range(i, g.n)]
    return [(i, j) for i in range(g.n) for j in range(g.n)]


class Schema:
    """The layout of a game's fields on one structure."""

    def __init__(self, structure: Structure, fields: list[Field]):
        self.structure = structure
        self.fields = {f.name: f for f in fields}
        self.slots: list[tuple[str, Hashable]] = []
        self.slot_of: dict[tuple[str, Hashable], int] = {}
        for f in fields:
            for k in domain_keys(structure, f.over):
                self.slot_of[(f.name, k)] = len(self.slots)
                self.slots.append((f.name, k))

    def __len__(self) -> int:
        return len(self.slots)

    def var_name(self, slot: int) -> str:
        name, key = self.slots[slot]
        if key is None:
            return name
        return f"{name}[{','.join(map(str, key))}]" if isinstance(key, tuple) else f"{name}[{key}]"

    @cached_property
    def variables(self) -> list[Var]:
        return [variable(self.var_name(i), self.fields[f].sort) for i, (f, _) in enumerate(self.slots)]

    @cached_property
    def slot_by_var(self) -> dict[str, int]:
        return {self.var_name(i): i for i in range(len(self.slots))}

    def symbolic(self) -> "SymState":
        return SymState(self)

    def key(self, name: str, key: Hashable) -> tuple[str, Hashable]:
        if name in self._pair_fields and isinstance(key, tuple):
            key = (min(key), max(key))
        return (name, key)

    @cached_property
    def _pair_fields(self) -> frozenset[str]:
        """The fields indexed by unordered pairs (their keys are sorted)."""
        return frozenset(n for n, f in self.fields.items() if f.over == "pairs")

    def pack(self, values: dict[str, Any]) -> tuple[int, ...]:
        """Field values (a list per indexed field, in domain order, or a dict) to a state tuple.
        A list of the wrong length is a :class:`RuleError` (a game's reader out of step with its
        fields), never a state filled in or cut short.

        >>> sch = Schema(Structure.heaps(2), [Field("heap", over="heaps")])
        >>> sch.pack({"heap": [3]})
        Traceback (most recent call last):
        ...
        grundy.errors.RuleError: field heap: 1 value given for 2 slots
        """
        out: list[int] = []
        for name, f, keys, _ in self._layout:       # a field's slots are consecutive, in order
            v = values[name]
            if f.over is None:
                out.append(int(v))
            elif isinstance(v, dict):
                out.extend([int(v[k]) for k in keys])
            elif len(v) != len(keys):
                raise RuleError(f"field {name}: {len(v)} value{'s' if len(v) != 1 else ''} given "
                                f"for {len(keys)} slots")
            else:
                out.extend(map(int, v))
        return tuple(out)

    @cached_property
    def _layout(self) -> list[tuple[str, Field, list[Hashable], list[int]]]:
        """Per field: its domain keys and their slots, in domain order."""
        out = []
        for name, f in self.fields.items():
            keys: list[Hashable] = [None] if f.over is None else list(domain_keys(self.structure, f.over))
            out.append((name, f, keys, [self.slot_of[(name, k)] for k in keys]))
        assert [i for *_, slots in out for i in slots] == list(range(len(self.slots))), "pack relies on it"
        return out

    def unpack(self, state: tuple[int, ...]) -> dict[str, Any]:
        """A state tuple to field values: a scalar, or a dict key -> value."""
        out: dict[str, Any] = {}
        for (name, key), v in zip(self.slots, state, strict=False):
            f = self.fields[name]
            v = bool(v) if f.kind == "bool" else v
            if f.over is None:
                out[name] = v
            else:
                out.setdefault(name, {})[key] = v
        return out


class FieldView:
    """``s.weight`` inside a rule: index it by a structure element to get its variable."""

    def __init__(self, state: "SymState", name: str):
        self._state, self._name = state, name

    def __getitem__(self, key: Hashable) -> Var:
        sch = self._state.schema
        try:
            return sch.variables[sch.slot_of[sch.key(self._name, key)]]
        except KeyError:
            raise KeyError(f"field {self._name!r} has no element {key!r}") from None

    def __iter__(self) -> NoReturn:
        raise TypeError(f"iterate over the structure and index s.{self._name}[x] instead")


class SymState:
    """The symbolic state a rule is written against."""

    def __init__(self, schema: Schema):
        self.schema = schema

    def __getattr__(self, name: str) -> Any:     # a Var (a scalar field) or a FieldView: fields are dynamic
        sch = self.__dict__["schema"]
        f = sch.fields.get(name)
        if f is None:
            raise AttributeError(f"the state has no field {name!r} (fields: {', '.join(sch.fields)})")
        if f.over is None:
            return sch.variables[sch.slot_of[(name, None)]]
        return FieldView(self, name)

    def set(self, **changes: Any) -> dict[int, Expr]:
        """An update: ``s.set(weight={e: w}, token=v)``; slots not named keep their value."""
        sch = self.schema
        slot_of, key = sch.slot_of, sch.key
        out: dict[int, Expr] = {}
        for name, val in changes.items():
            f = sch.fields.get(name)
            if f is None:
                raise KeyError(f"the state has no field {name!r}")
            items = {None: val}.items() if f.over is None else val.items()
            sort = f.sort
            for k, v in items:
                e = v if isinstance(v, Expr) else lift(v)
                if e.sort != sort:
                    raise TypeError(f"field {name} holds {sort} values, not {e.sort}")
                out[slot_of[key(name, k)]] = e
        return out
