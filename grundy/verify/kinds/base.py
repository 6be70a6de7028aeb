"""What a claim kind is: :class:`ClaimKind`, the registry :data:`KINDS` and :func:`register_kind`.

A kind owns everything that differs between claims of different kinds: which optional fields
of a :class:`~grundy.verify.Claim` it needs or refuses, its own rules across fields, the sort
of its statement, its SMT obligations (or its own check, as the period check), its part of
the verdict-cache key, its wording and its report facts. Every part is required: a subclass
that misses one fails when the class is created, naming the part (pass ``abstract=True`` to
the class statement for a base that leaves parts to its subclasses), as a backend missing an
operator does (:class:`grundy.spec.ops.Walker`).

>>> class Half(ClaimKind):  # doctest: +ELLIPSIS
...     name = "half"
...     says = "half a kind"
Traceback (most recent call last):
...
grundy.verify.kinds.base.KindError: claim kind Half (...) has no 'statement': every kind needs ...
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterator, TypeVar

from ...errors import GrundyError
from .fields import OPTIONAL, OptionalField

if TYPE_CHECKING:
    from ..claims import Claim

__all__ = ["ClaimKind", "KindError", "KINDS", "PARTS", "SORTS", "register_kind", "unregister_kind",
           "kind_of", "kind_named", "takers", "own_fields", "accepts", "COMMON_FIELDS"]

COMMON_FIELDS = frozenset({"id", "source", "game", "kind", "family", "statement", "strategy", "witnesses",
                           "exact", "assume", "bounds", "full", "full_family", "methods", "timeout",
                           "expect", "convention", "note", "text", "reading", "finding", "table",
                           "period", "params", "serves", "uses"})
"""The keyword fields :class:`~grundy.verify.Claim` itself has (a kind's own field takes none of them)."""

SORTS = ("bool", "int", "either", "none")
"""What a kind's statement is: a boolean (true exactly at the P-positions), an int (the Grundy
value), either (decided by the expression's sort), or none (the claim is another field)."""

PARTS = ("name", "says", "statement", "takes", "needs", "implied_by", "serves_as", "gives_values",
         "claims_strategy", "prepare", "problems", "statement_problem", "obligations", "special_check",
         "cache_key", "facts")
"""Every part a kind must have (see :class:`ClaimKind`)."""

Add = Callable[[Any], object]         # adds a value to the verdict-cache key
RulesDigest = Callable[[Any], str]    # the digest of a Rules object, kept while it lives


class KindError(GrundyError, TypeError):
    """A claim kind defined or registered wrongly (a missing part, a name taken)."""


class ClaimKind:
    """One kind of claim. A subclass sets every part of :data:`PARTS`:

    - ``name`` (what ``Claim(kind=...)`` names), ``says`` (its wording: what such a claim
      states, for reports and docs), ``statement`` (one of :data:`SORTS`);
    - ``takes``: the optional fields (:data:`grundy.verify.kinds.fields.OPTIONAL`) it accepts,
      ``needs``: those it requires, ``implied_by``: an optional field whose presence makes a
      claim without ``kind=`` of this kind (or None);
    - ``serves_as``: what a proved claim answers for the solver (``"grundy"``: the Grundy value,
      ``"P"``: true exactly at the P-positions, None: it does not serve); ``gives_values``: a
      lemma of this kind gives Grundy values; ``claims_strategy``: its ``strategy=`` is part of
      what it claims (not only the witness of a proof);
    - ``prepare(where, given)``: the given fields (a dict) completed with what the kind implies;
      ``problems(claim)``: its own rules across fields (one line each);
      ``statement_problem(expr)``: why an expression cannot be its statement (None: it can);
    - ``obligations(claim, by_value)``: the names of its SMT obligations on one structure;
      ``special_check``: None, or ``f(claim, verdict, profile, tick, recheck)`` checking the claim
      instead of the sweep and the proof;
    - ``cache_key(claim, profile, add, rules_digest)``: adds its part of the verdict-cache key;
      True when that is the whole key (no family, no statement to key);
    - ``facts(claim)``: (label, text) pairs reports show under the claim's kind.

    Optional: ``fields``, the keyword fields of :class:`~grundy.verify.Claim` the kind adds and
    owns (name -> :class:`~grundy.verify.kinds.fields.OptionalField`: whether a claim gives it,
    the line for a claim of another kind, its validators). ``Claim(..., name=value)`` then
    takes it, ``claim.name`` reads it (None where not given), and the kind's ``prepare`` sees it
    among the given fields; ``takes``, ``needs`` and ``implied_by`` may name it. Two registered
    kinds cannot own one name.
    """

    name: ClassVar[str]
    says: ClassVar[str]
    statement: ClassVar[str]
    takes: ClassVar[frozenset[str]]
    needs: ClassVar[frozenset[str]]
    implied_by: ClassVar[str | None]
    serves_as: ClassVar[str | None]
    gives_values: ClassVar[bool]
    claims_strategy: ClassVar[bool]
    special_check: ClassVar[Callable[..., None] | None]
    fields: ClassVar[dict[str, OptionalField]] = {}

    if TYPE_CHECKING:  # the methods, as the subclasses define them (none here: each is a required part)
        def prepare(self, where: str, given: dict[str, Any]) -> dict[str, Any]: ...
        def problems(self, claim: Claim) -> Iterator[str]: ...
        def statement_problem(self, expr: Any) -> str | None: ...
        def obligations(self, claim: Claim, by_value: bool) -> tuple[str, ...]: ...
        def cache_key(self, claim: Claim, profile: str, add: Add, rules_digest: RulesDigest) -> bool: ...
        def facts(self, claim: Claim) -> list[tuple[str, str]]: ...

    def __init_subclass__(cls, abstract: bool = False, **kw: Any):
        super().__init_subclass__(**kw)
        if not abstract:
            _check_parts(cls)

    def __repr__(self) -> str:
        return f"<claim kind {self.name!r}>"


def _check_parts(cls: type) -> None:
    """KindError naming the first part ``cls`` lacks or sets wrongly."""
    here = f"claim kind {cls.__qualname__} ({cls.__module__})"
    for part in PARTS:
        if not hasattr(cls, part):
            raise KindError(f"{here} has no {part!r}: every kind needs {', '.join(PARTS)} "
                            f"(or abstract=True for a base class)")
    c: Any = cls
    problem = _bad_part(c)
    if problem:
        raise KindError(f"{here}: {problem}")


def _bad_part(c: Any) -> str:
    """What is wrong with the parts of kind class ``c`` ("" if nothing)."""
    if not isinstance(c.name, str) or not c.name.isidentifier():
        return f"name must be a word (letters, digits, _), got {c.name!r}"
    if not isinstance(c.says, str) or not c.says:
        return "says must say in words what such a claim states"
    if c.statement not in SORTS:
        return f"statement must be one of {', '.join(SORTS)}, got {c.statement!r}"
    own = _own_problem(c)
    if own:
        return own
    unknown = set(c.takes) - set(OPTIONAL) - set(c.fields)
    if unknown:
        return f"takes names no optional field: {', '.join(sorted(unknown))} (fields: {', '.join(OPTIONAL)})"
    if not set(c.needs) <= set(c.takes) | set(c.fields):
        return "needs must be a part of takes"
    if c.implied_by is not None and c.implied_by not in set(c.takes) | set(c.fields):
        return f"implied_by={c.implied_by!r} is not a field it takes"
    if c.serves_as not in (None, "grundy", "P"):
        return f"serves_as must be None, 'grundy' or 'P', got {c.serves_as!r}"
    if c.special_check is not None and not callable(c.special_check):
        return "special_check must be None or a function (claim, verdict, profile, tick, recheck)"
    methods = ("prepare", "problems", "statement_problem", "obligations", "cache_key", "facts")
    return next((f"{m} must be a method" for m in methods if not callable(getattr(c, m))), "")


def _own_problem(c: Any) -> str:
    """What is wrong with the own fields of kind class ``c`` ("" if nothing)."""
    if not isinstance(c.fields, dict):
        return "fields must be a dict: name -> OptionalField"
    for name, f in c.fields.items():
        if not (isinstance(name, str) and name.isidentifier()) or not isinstance(f, OptionalField) or f.name != name:
            return f"fields: {name!r} must map a word to OptionalField({name!r}, ...)"
        if name in COMMON_FIELDS or name in OPTIONAL:
            return f"fields: {name!r} is already a field of every claim"
    return ""


KINDS: dict[str, ClaimKind] = {}
"""Every registered kind by name, in the order registered (the built-in ones first)."""

K = TypeVar("K", bound="ClaimKind | type[ClaimKind]")


def register_kind(kind: K, *, replace: bool = False) -> K:
    """Register a kind (a :class:`ClaimKind` subclass, instantiated here, or an instance) under
    its name; usable as a class decorator. A name already taken by another kind is a
    :class:`KindError` unless ``replace=True``.

    >>> from grundy.verify.kinds import KINDS
    >>> KINDS["char"].serves_as, KINDS["grundy"].statement
    ('P', 'int')
    """
    obj = kind() if isinstance(kind, type) else kind
    if not isinstance(obj, ClaimKind):
        raise KindError(f"register_kind takes a ClaimKind (a subclass or an instance), got {kind!r}")
    _check_parts(type(obj))
    old = KINDS.get(obj.name)
    same = old is not None and (type(old).__module__, type(old).__qualname__) == (type(obj).__module__,
                                                                                   type(obj).__qualname__)
    if old is not None and not same and not replace:       # the same class again: a file loaded twice
        raise KindError(f"two claim kinds named {obj.name!r}: {type(old).__qualname__} and "
                        f"{type(obj).__qualname__} (pass replace=True to replace it)")
    taken = {n: k.name for k in KINDS.values() if k.name != obj.name for n in k.fields}
    clash = sorted(set(obj.fields) & set(taken))
    if clash:
        raise KindError(f"claim kind {obj.name!r}: field {clash[0]!r} is kind {taken[clash[0]]!r}'s")
    KINDS[obj.name] = obj
    return kind


def unregister_kind(name: str) -> None:
    """Remove a registered kind (a user's kind, e.g. at the end of a test)."""
    KINDS.pop(name, None)


def kind_named(name: Any) -> ClaimKind | None:
    """The kind registered under ``name`` (a ClaimKind given is itself), or None."""
    if isinstance(name, ClaimKind):
        return name
    return KINDS.get(name) if isinstance(name, str) else None


def kind_of(claim: Claim) -> ClaimKind:
    """The kind object of ``claim`` (its ``kind`` names a registered kind: the claim checked it
    when it was made).

    >>> from grundy.verify import Claim, heaps
    >>> kind_of(Claim("demo/k", game="nim", kind="grundy", family=heaps(1), statement=lambda g, s: s.heap[0]))
    <claim kind 'grundy'>
    """
    got = KINDS.get(claim.kind)
    if got is None:
        raise KindError(f"claim {claim.id!r}: kind {claim.kind!r} is not registered (kinds: {', '.join(KINDS)})")
    return got


def takers(field: str) -> list[str]:
    """The names of the registered kinds that take the optional field ``field``, in order."""
    return [k.name for k in KINDS.values() if accepts(k, field)]


def accepts(kind: ClaimKind, field: str) -> bool:
    """Whether ``kind`` takes the optional field ``field`` (one of its own fields, or in ``takes``)."""
    return field in kind.takes or field in kind.fields


def own_fields() -> dict[str, OptionalField]:
    """The fields the registered kinds add to :class:`~grundy.verify.Claim`, by name.

    >>> sorted(own_fields())
    ['quotient']
    """
    return {n: f for k in KINDS.values() for n, f in k.fields.items()}
