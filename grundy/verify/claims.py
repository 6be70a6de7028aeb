"""Claims: a published result, stated in the IR, with how to check it and what to expect.

A theorem file is a Python module defining ``CLAIMS``, a list of :class:`Claim`; it
should read like the paper's list of results.

>>> from grundy.verify.families import heaps
>>> c = Claim("demo/nim-2", source=Source("demo", "Theorem 1"), game="nim", kind="char",
...           family=heaps(2), bounds={"heap": 6},
...           statement=lambda g, s: s.heap[0] == s.heap[1],   # P iff the heaps are equal
...           methods=["explicit", "smt"], expect="proved")
>>> c.paper, [str(m) for m in c.methods]
('demo', ['explicit', 'smt (unbounded integers)'])

A claim says what it is in words (``text``), how its statement was read where the source
was damaged (``reading``), and, for a claim expected to be refuted, what kind of finding the
refutation is (``finding``: see :class:`Finding`):

>>> bad = Claim("demo/nim-1", text="Nim on one heap: every position is P.", game="nim",
...             kind="char", family=heaps(1), statement=lambda g, s: True, expect="refuted",
...             finding=Finding("planted"))
>>> bad.finding.label
'planted false claim'
>>> Claim("demo/x", game="nim", kind="char", family=heaps(1), statement=lambda g, s: True,
...       colour="red")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
grundy.errors.ClaimError: ...: claim 'demo/x': unknown field 'colour' (fields: ...)
>>> Claim("demo/y", game="nim", kind="char", family=heaps(2), bounds={"heap": (5, 3)},
...       statement=lambda g, s: True)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
grundy.errors.ClaimError: ...: claim 'demo/y': bounds['heap']: empty range (5, 3): no value
"""
from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from ..errors import ClaimError, GrundyError
from ..spec.game import Game
from ..spec.position import Convention
from ..spec.registry import GAMES, GameError, register
from .claim_fields import COMMON, _eager  # noqa: F401  (_eager: grundy.verify.loading reads it here)
from .families import Family, table_positions
from .kinds import KINDS, OPTIONAL, ClaimKind, accepts, kind_named, own_fields, takers
from .kinds.fields import Validator
from .methods import Explicit, Levelled, Smt, bitvec  # noqa: F401  (bitvec: grundy.verify.claims.bitvec as before)
from .verdict import VerdictName

Kind = str      # the name of a registered claim kind (grundy.verify.kinds.KINDS)
DEFAULT_TIMEOUT = 120.0     # seconds a claim gets when neither it nor the run sets a limit



@dataclass(frozen=True)
class Source:
    """Where a claim comes from: the seed's short id, the result's number, its section."""

    paper: str
    number: str = ""
    section: str = ""

    def __str__(self) -> str:
        return ", ".join(x for x in (self.paper, self.number, self.section) if x)


FINDINGS = {
    "paper-error": "error in the paper",
    "lost-hypothesis": "hypothesis lost in extraction, restored",
    "degenerate": "degenerate instance only",
    "planted": "planted false claim",
}


@dataclass(frozen=True)
class Finding:
    """What the refutation of a claim means (a claim expected to be ``refuted``).

    - ``"paper-error"``: the paper's statement is false; ``corrected`` (required) is the id of the
      claim stating the corrected result.
    - ``"lost-hypothesis"``: the statement as extracted from the paper lost a hypothesis (or a
      word); ``corrected`` (required) is the id of the claim with it restored, which carries the
      paper's result.
    - ``"degenerate"``: the statement fails only at degenerate instances (a single vertex, equal
      heaps, ...); ``corrected``, optional, is the claim without them.
    - ``"planted"``: a false claim planted on purpose, to show the check finds it.

    The claim's ``reading`` says why this class was chosen. An id in ``corrected`` must be a
    claim of the theorem files loaded with it (checked by :func:`grundy.verify.loading.check_findings`).

    >>> Finding("paper-error", corrected="demo/thm1-corrected").label
    'error in the paper'
    >>> Finding("typo")
    Traceback (most recent call last):
    ...
    grundy.errors.ClaimError: unknown finding 'typo' (one of: paper-error, lost-hypothesis, degenerate, planted)
    >>> Finding("paper-error")
    Traceback (most recent call last):
    ...
    grundy.errors.ClaimError: a 'paper-error' finding needs corrected='<claim id>'
    """

    kind: str
    corrected: str = ""

    def __post_init__(self) -> None:
        if self.kind not in FINDINGS:
            raise ClaimError(f"unknown finding {self.kind!r} (one of: {', '.join(FINDINGS)})")
        if not isinstance(self.corrected, str):
            raise ClaimError(f"a finding's corrected= is a claim id (a string), not {self.corrected!r}")
        if self.kind in ("paper-error", "lost-hypothesis") and not self.corrected:
            raise ClaimError(f"a {self.kind!r} finding needs corrected='<claim id>'")

    @property
    def label(self) -> str:
        """The class in words, as reports show it."""
        return FINDINGS[self.kind]

    def to_json(self) -> dict[str, str]:
        out = {"kind": self.kind, "label": self.label}
        if self.corrected:
            out["corrected"] = self.corrected
        return out


def _method(m: Any) -> Explicit | Smt:
    if isinstance(m, (Explicit, Smt)):
        return m
    if m == "explicit":
        return Explicit()
    if m == "smt":
        return Smt()
    if m == "search":
        return Explicit(sums="search")
    if m == "levelled":
        return Levelled()
    raise ClaimError(f"unknown method {m!r} (use 'explicit', 'search', 'levelled', 'smt', bitvec(k), "
                     f"Explicit(...), Levelled(...), Smt(...))")


Statement = Callable[..., Any]   # (g, s) -> Expr; a strategy: (g, s, rules) -> list[Play]

_UNSET: Any = object()

_FIELDS = ("source", "game", "kind", "family", "statement", "strategy", "witnesses", "exact", "assume",
           "bounds", "full", "full_family", "methods", "timeout", "expect", "convention", "note",
           "text", "reading", "finding", "table", "period", "params", "serves", "uses")


def _caller() -> str:
    """``file:line`` of the code that built the claim (the theorem file's line)."""
    import sys
    from types import FrameType
    f: FrameType | None = sys._getframe(1)
    here = __file__
    while f is not None and f.f_code.co_filename == here:
        f = f.f_back
    return f"{f.f_code.co_filename}:{f.f_lineno}" if f is not None else ""


class Claim:
    """One published claim (every field but the id is a keyword).

    - ``id``: e.g. ``"selfref/thm5.2"``; ``source``: a :class:`Source` (default: the id's prefix).
    - ``game``: a registered game's name, or a :class:`~grundy.spec.Game` object (registered by its
      name; a game file beside the theorem file needs no ``--games``); ``"sum"`` for a family of
      sums of positions. ``family``: a :class:`~grundy.verify.families.Family`, or
      :func:`~grundy.verify.families.positions` (the positions themselves: no sweep, no bounds).
    - ``table``: instead of ``statement``, the claimed values as data: a list (one heap of n, or
      the single numeric field, -> ``table[n]``) or a dict state -> value (a state: an int, a
      tuple of the slots such as the heaps); a value is a Grundy value (int) or ``"P"``/``"N"``.
      Exactly the table's positions are checked, on the family's structures (default: as many
      heaps as a key has).
    - ``kind``: outcome | char | grundy | strategy | conj | table | period, or a kind registered
      with :func:`~grundy.verify.register_kind` (its name or the kind object; what each means
      and checks: docs/claims.md).
    - ``statement(g, s)``: an IR expression over the symbolic state ``s`` on structure ``g``:
      for outcome/char/conj/strategy a boolean, true exactly at the **P-positions**; for grundy
      and table the claimed Grundy value (an int expression; in misère play the misère Grundy
      value: the mex of the options, 1 at a terminal position). On a family of sums, ``g`` and
      ``s`` are tuples (one structure and one *concrete* state per part) and it returns a bool
      or an int.
    - ``strategy(g, s, rules)``: a list of :class:`~grundy.spec.strategy.Play` (kind strategy; for
      a boolean claim it serves the SMT check as the witness move). ``exact`` (kind strategy
      only): the strategy's moves (every case whose ``when`` holds) are *all* the winning moves
      (True, or a function (g, s) -> Expr: the positions where they are).
    - ``witnesses(g, s, rules, v)``: for a grundy claim's Z3 proof, Play cases naming an option
      of value ``v`` (an IR variable below the claimed value): the mex condition's existential.
      For a game whose positions are sums of heaps (``one_heap_rules``), a grundy claim on one
      heap is proved on the one-heap rules: ``s.heap[0]`` is the heap, the moves are its
      options, and an option's value is the XOR of the statement's values of its parts.
    - ``assume(g, s)``: the positions of the structure the claim is about (closed under moves;
      both methods use it). ``bounds`` only limit the explicit sweep; they are not part of the
      claim.
    - ``bounds``: per numeric field, the values the explicit sweep tries: ``{"heap": 30}`` (0..30),
      ``{"weight": (1, 3)}`` or a list of values; ``full``: the same for ``--profile full``;
      ``full_family``: a larger family for ``--profile full`` (default: ``family``).
    - ``methods``: ``"explicit"``, ``"smt"`` (unbounded integers), ``bitvec(k)``, ``"levelled"``
      (the explicit sweep, its values from the levelled solver: :class:`Levelled`).
    - ``timeout`` (CPU seconds: docs/claims.md, "Time limits"), ``expect`` (proved | verified | refuted | unknown | error),
      ``convention`` (normal | misere; default: the game's declared convention, so a claim on a
      game declared misère is misère unless it says ``convention="normal"``), ``note``.

    - ``uses``: other claims this one uses as lemmas (their statements, or the values
      :func:`~grundy.verify.value_of` reads from them). Each is checked first; unless every one is
      proved or verified, and covers every position whose value is read from it, the verdict
      is ``unknown``, naming the lemma. A pass says "using: ..." in its scope.

    A claim that is written wrongly is a :class:`ClaimError` naming the claim and the line
    that built it.
    - ``text``: the statement in words, as a reader of the paper would state it (reports show it);
      ``reading``: how the statement was read where the source is damaged or ambiguous, or why a
      refuted claim has its ``finding`` (a :class:`Finding`, only with ``expect="refuted"``).
    - a registered kind may add its own keyword fields (``quotient=``: the misère-quotient
      kind's; :attr:`ClaimKind.fields <grundy.verify.kinds.ClaimKind>`).

    Parameters
    ----------
    id : str
        The claim's name, ``"paper/label"``.
    game, kind, family, statement
        What the claim is about and what it states (above); ``kind`` may be implied by
        ``table=``, ``period=`` or a kind's own field.
    **fields
        The optional fields above, and those the registered kinds add.

    Raises
    ------
    grundy.errors.ClaimError
        A field missing, unknown, of the wrong form, or not taken by the claim's kind (one
        line naming the claim and the line that built it).

    Examples
    --------
    >>> from grundy.verify import heaps
    >>> from grundy.verify.check import check_claim
    >>> c = Claim("demo/nim2", game="nim", kind="char", family=heaps(2), bounds={"heap": 6},
    ...           statement=lambda g, s: s.heap[0] == s.heap[1])
    >>> check_claim(c).verdict
    'verified'
    >>> Claim("demo/bad", game="nim", kind="char", family=heaps(2), statement=lambda g, s: True, quotient={"order": 2})
    Traceback (most recent call last):
    ...
    grundy.errors.ClaimError: ...claim 'demo/bad': quotient= is the claim of kind 'quotient', not 'char'
    """

    def __init__(self, id: str, *, game: "str | Game" = _UNSET, kind: "Kind | ClaimKind" = _UNSET,
                 family: Family = _UNSET,
                 statement: Statement = _UNSET, source: Source | str | None = None,
                 strategy: Statement | None = None, witnesses: Statement | None = None,
                 exact: bool | Statement = False,
                 assume: Statement | None = None, bounds: dict[str, Any] | None = None,
                 full: dict[str, Any] | None = None, full_family: Family | None = None,
                 methods: Iterable[Any] = ("explicit",), timeout: float | None = None,
                 expect: VerdictName = "verified", convention: Convention | None = None,
                 note: str = "", text: str = "", reading: str = "", finding: "Finding | None" = None,
                 table: Any = None, period: Any = None, params: dict[str, Any] | None = None,
                 serves: bool = False, uses: Iterable["Claim"] = (), **more: Any):
        self.id = id
        self.where: str = _caller()
        where = f"{self.where + ': ' if self.where else ''}claim {id!r}"
        own = own_fields()                       # the fields the registered kinds add (quotient=)
        for k in more:
            if k not in own:
                raise ClaimError(f"{where}: unknown field {k!r} (fields: {', '.join((*_FIELDS, *own))})")
        more = {k: x for k, x in more.items() if x is not None}
        if table is not None:                    # the claimed values as data
            if statement is not _UNSET:
                raise ClaimError(f"{where}: give statement= or table=, not both")
            try:
                family, statement = table_positions(None if family is _UNSET else family, table)
            except (TypeError, ValueError) as e:
                raise ClaimError(f"{where}: table: {e}") from None
        if game is _UNSET:
            raise ClaimError(f"{where}: field 'game' is missing")
        kind = _kind(where, kind, dict(strategy=strategy, witnesses=witnesses, exact=exact, serves=serves,
                                       params=params, period=period, table=table, **more))
        given = {k: x for k, x in (("family", family), ("statement", statement), ("period", period),
                                   *more.items(), ("convention", convention))
                 if x is not _UNSET and x is not None}
        given = KINDS[kind].prepare(where, given)      # what the kind implies (a period: one heap)
        family, statement = given.get("family", _UNSET), given.get("statement", _UNSET)
        for k, x in (("family", family), ("statement", statement)):
            if x is _UNSET:
                raise ClaimError(f"{where}: field {k!r} is missing")
        self.serves = serves             # registered for its game: the solver answers by it once proved
        self.period: Any = given.get("period")          # a period claim's (n0, p, s)
        self.fields: dict[str, Any] = {k: given[k] for k in own if given.get(k) is not None}   # kinds' own fields
        convention = given.get("convention", convention)
        self.params: dict[str, Any] = dict(params or {})
        if isinstance(game, Game):               # a game object: registered by its name
            try:
                game = register(game).name
            except GameError as e:
                raise ClaimError(f"{where}: {e}") from None
        self.game: str = game
        self.kind: Kind = kind
        self.family: Family = family
        self.statement: Statement = statement
        self.strategy: Statement | None = strategy
        self.witnesses: Statement | None = witnesses
        self.exact_given = exact if callable(exact) else bool(exact)
        self.exact: Statement | None = exact if callable(exact) else (lambda g, s: True) if exact else None
        self.assume: Statement | None = assume
        self.bounds: dict[str, Any] = dict(bounds or {})
        self.full: dict[str, Any] = {**self.bounds, **dict(full or {})}
        self.full_family: Family | None = full_family
        if isinstance(methods, (str, Explicit, Smt)):
            methods = [methods]
        try:
            self.methods: list[Explicit | Smt] = [_method(m) for m in methods]
        except ClaimError as e:
            raise ClaimError(f"{where}: {e}") from None
        self.timeout: float | None = timeout
        self.expect: VerdictName = expect
        self.convention_given: str | None = convention
        self.note: str = note
        self.text: str = text
        self.reading: str = reading
        self.finding: Finding | None = finding
        self.uses: list[Claim] = list(uses) if not isinstance(uses, Claim) else [uses]
        self.file: str = ""                      # the theorem file (set when loaded)
        self.source: Source = (source if isinstance(source, Source)
                               else Source(id.split("/")[0], str(source or "")))
        self._validate()

    def __getattr__(self, name: str) -> Any:
        """A field a registered kind adds (``claim.quotient``): its value, None where not given."""
        if not name.startswith("__") and name != "fields" and name in own_fields():
            return self.__dict__.get("fields", {}).get(name)
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def fail(self, problem: str) -> "ClaimError":
        """A :class:`ClaimError` naming this claim and its line."""
        return ClaimError(f"{self.where + ': ' if self.where else ''}claim {self.id!r}: {problem}")

    def _validate(self) -> None:
        """Each common field by its validators (:data:`_COMMON`), then the optional fields and
        the rules of the claim's kind (:mod:`grundy.verify.kinds`): the first problem raised."""
        for check in _COMMON:
            problem = check(self)
            if problem:
                raise self.fail(problem)
        kind = KINDS[self.kind]
        for f in (*OPTIONAL.values(), *own_fields().values()):
            if not f.given(self):
                if f.name in kind.needs:
                    raise self.fail(f"a {self.kind} claim needs {f.name}=...")
                continue
            if not accepts(kind, f.name):
                raise self.fail(f.refusal(self.kind, takers(f.name)))
            problem = next((p for p in (v(self) for v in f.validators) if p), None)
            if problem:
                raise self.fail(problem)
        for problem in kind.problems(self):
            raise self.fail(problem)

    def describe(self) -> dict[str, Any]:
        """What the claim is, for reports: its text (without ``text=``, the statement's docstring
        or source text: :func:`~grundy.verify.words.statement_words`), source, reading and finding
        (as JSON).

        >>> from grundy.verify.families import heaps
        >>> Claim("demo/a", text="Nim: P iff the heaps are equal.", source=Source("demo", "Thm 1"),
        ...       game="nim", kind="char", family=heaps(2), statement=lambda g, s: True).describe()
        {'text': 'Nim: P iff the heaps are equal.', 'source': 'demo, Thm 1', 'reading': '', 'finding': None}
        """
        from .words import statement_words
        out: dict[str, Any] = {"text": self.text or statement_words(self.statement), "source": str(self.source),
                               "reading": self.reading,
                               "finding": self.finding.to_json() if self.finding else None}
        facts = KINDS[self.kind].facts(self)        # what the kind adds (a period, an exact strategy)
        if facts:
            out["facts"] = [list(f) for f in facts]
        return out

    def check_fields(self, names: Iterable[str]) -> None:
        """ClaimError if a bounds key is not a field of the game (``names``: the game's fields)."""
        names = list(names)
        for label, bs in (("bounds", self.bounds), ("full", self.full)):
            for k in bs:
                if k not in names:
                    raise self.fail(f"{label}: {k!r} is not a field of {self.game} "
                                    f"(fields: {', '.join(names)})")
        for m in self.methods:
            if isinstance(m, Explicit) and m.sample_bounds:
                for k in m.sample_bounds:
                    if k not in names:
                        raise self.fail(f"sample_bounds: {k!r} is not a field of {self.game} "
                                        f"(fields: {', '.join(names)})")

    @property
    def convention(self) -> str:
        """The play convention the claim is checked in: as given, else the game's declared one
        (a claim on a game declared misère is misère unless it says otherwise).

        >>> from grundy.spec.games import get_game
        >>> from grundy.verify.families import heaps
        >>> class MisereNim(type(get_game("nim"))):
        ...     name, convention = "doc-misere-nim", "misere"
        >>> c = Claim("demo/m", game=MisereNim(), kind="char", family=heaps(1), statement=lambda g, s: True)
        >>> c.convention, Claim("demo/n", game="doc-misere-nim", kind="char", family=heaps(1),
        ...                     statement=lambda g, s: True, convention="normal").convention
        ('misere', 'normal')
        """
        if self.convention_given is not None:
            return self.convention_given
        if self.game == "sum":
            return "normal"
        try:
            return GAMES[self.game].convention
        except GrundyError:            # not registered (yet): checking it names the unknown game
            return "normal"

    @property
    def paper(self) -> str:
        return self.source.paper

    def limit(self, timeout: float | None = None) -> float:
        """The claim's time limit in CPU seconds: the run's ``timeout`` if given, else the claim's
        own, else :data:`DEFAULT_TIMEOUT`.

        >>> from grundy.verify.families import heaps
        >>> c = Claim("demo/t", game="nim", kind="char", family=heaps(1), statement=lambda g, s: True)
        >>> c.limit(), c.limit(5.0)
        (120.0, 5.0)
        """
        return timeout if timeout is not None else (self.timeout or DEFAULT_TIMEOUT)

    def bounds_for(self, profile: str) -> dict[str, Any]:
        return self.full if profile == "full" else self.bounds

    def at(self, profile: str) -> "Claim":
        """The claim as the profile checks it (the full family under ``--profile full``)."""
        if profile != "full" or self.full_family is None:
            return self
        c = copy.copy(self)
        c.family, c.full_family = self.full_family, None
        return c

    def __repr__(self) -> str:
        return f"Claim({self.id!r}, game={self.game!r}, kind={self.kind!r}, expect={self.expect!r})"


def _kind(where: str, kind: Any, optional: dict[str, Any]) -> str:
    """The name of the claim's registered kind: as given (a name or a ClaimKind), else the
    kind an optional field given implies (``table=``: table, ``period=``: period)."""
    if kind is _UNSET:
        given = {k for k, x in optional.items() if x is not None and x is not False and x != {}}
        implied = [k.name for k in KINDS.values() if k.implied_by in given]
        if not implied:
            raise ClaimError(f"{where}: field 'kind' is missing")
        return implied[0]
    got = kind_named(kind)
    if got is None or type(KINDS.get(got.name)) is not type(got):     # a name, or an instance, registered
        raise ClaimError(f"{where}: unknown kind {kind!r} (one of: {', '.join(KINDS)})")
    return got.name


# ------------------------------------------------------------------------------- the common fields
def _uses(c: Claim) -> str | None:
    for lemma in c.uses:
        if not isinstance(lemma, Claim):
            return f"uses= lists claims (Claim objects), got {type(lemma).__name__} {lemma!r}"
        if lemma is c or lemma.id == c.id:
            return "a claim cannot use itself as a lemma"
    return None


def _finding(c: Claim) -> str | None:
    if c.finding is None:
        return None
    if not isinstance(c.finding, Finding):
        return "finding must be a Finding(...), e.g. Finding('paper-error', corrected='<claim id>')"
    if c.expect != "refuted":
        return "a finding classifies a refutation: it needs expect='refuted'"
    if c.finding.corrected == c.id:
        return "the finding's corrected claim is the claim itself"
    return None


_COMMON: tuple[Validator, ...] = (*COMMON, _uses, _finding)
"""The common fields' validators, in the order they are checked (the kind's rules come after)."""
