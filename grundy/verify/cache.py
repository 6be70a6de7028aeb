"""The verdict cache of ``grundy verify``: an unchanged claim is not checked again.

A verdict is stored under a key made of *what the check consumed*, never of where it came
from (a file, a module, a game's name). For the claim as the profile checks it
(``claim.at(profile)``), on every structure of its family:

- the game's rules as IR (:meth:`grundy.spec.fingerprint.Digest.rules`: the structure with
  its vertex names, the fields, every move, the rank, the components and the declarations),
  and for a game whose positions are sums of heaps its one-heap rules (the solver's tables,
  and Z3's one-heap form);
- the statement, ``assume``, ``exact``, the strategy (the IR of ``plays(strategy, rules)``) and
  the witnesses, as IR; a table claim's data;
- the values the explicit sweep tries in each slot (bounds resolved on the structure: a bound
  may be a function of it), and a random search's ``sample_bounds``;
- the structure's label; for listed positions, each position (structure, state, convention).

With them: the claim's id, game, kind, convention, timeout and methods, the family's
description, the options that change checking (profile, time limit, executor), and the
versions of grundy (the text of every file of the package: the solvers' code changes verdicts),
Python, networkx and Z3. What cannot change a verdict is left out: the expectation (``expect``),
the paper and what a verdict only shows (text, source, reading, finding); a verdict read from
the cache takes them from the claim as it is now, so editing them re-uses the verdict.

So no helper module (in a sub-package, another folder, site-packages), data file read at
import, environment variable read by a statement, game parameter or second file with the same
claim id can leave a stale verdict: whatever they change, the IR changes, and so does the key.
What a structure's statement is not evaluated on (the bounds allow no position there, and no
method needs it) is not consumed, and not in the key.

A claim is not cached (checked every run, and the run says so) when its key cannot be built:
a statement evaluated in Python on concrete values (a family of sums), a value that cannot be
fingerprinted, a family of more than ``settings.max_structures`` structures or more than
:data:`MAX_POSITIONS` listed positions (counts, never times), or anything that fails while the
key is built (the check then reports it).

The key is built where the claim is checked (in the worker, just before checking: the rules
and statements it builds are the ones the check then uses), or, with ``--executor``, in the
main process. Only settled verdicts are stored (``proved``, ``verified``, ``refuted``): an
``unknown`` or an ``error`` may come from the machine and is always checked again. A verdict
says where it came from (:attr:`Verdict.cache`). The cache lives in ``$GRUNDY_CACHE/verdicts``
(default ``~/.cache/grundy``); ``grundy verify --no-cache`` neither reads nor writes it.

Beside them, ``$GRUNDY_CACHE/times.json`` keeps how long each claim took last time (per profile):
the runner starts the longest claims first. It is a hint for scheduling only (a wrong or
missing time costs wall time, never a verdict), so it is kept with ``--no-cache`` too.

>>> import os, tempfile
>>> saved = os.environ.get("GRUNDY_CACHE")
>>> os.environ["GRUNDY_CACHE"] = tempfile.mkdtemp()
>>> from grundy.verify.claims import Claim
>>> from grundy.verify.check import check_claim
>>> from grundy.verify.families import heaps
>>> LIMIT = 0
>>> claim = Claim("demo/nim", game="nim", kind="char", family=heaps(1), bounds={"heap": 4},
...               statement=lambda g, s: s.heap[0] <= LIMIT)
>>> cache = VerdictCache({"profile": "quick"})
>>> v = cache.verdict(claim, lambda: check_claim(claim)); v.verdict, v.cache
('verified', 'stored')
>>> v = cache.verdict(claim, lambda: check_claim(claim)); v.verdict, v.cache
('verified', 'from the cache')
>>> LIMIT = 1                          # a global the statement reads: its IR, and the key, change
>>> v = cache.verdict(claim, lambda: check_claim(claim)); v.verdict, v.cache
('refuted', 'stored')
>>> _ = os.environ.pop("GRUNDY_CACHE") if saved is None else os.environ.update(GRUNDY_CACHE=saved)
"""
from __future__ import annotations

import itertools
import json
import os
import sys
import weakref
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from ..digest import package_digest
from ..settings import current as settings
from ..spec.expr import Var
from ..spec.fingerprint import Digest
from ..spec.game import Rules
from ..spec.games import GAMES
from ..spec.position import SumPosition
from ..spec.strategy import Play, plays
from .claims import Claim, Explicit, Smt
from .families import Geng, Positions, TableStatement, slot_values
from .kinds import kind_of
from .verdict import Verdict

__all__ = ["MAX_POSITIONS", "SETTLED", "NotCacheable", "VerdictCache", "cache_dir",
           "claim_key", "read_times", "record_times"]

SETTLED = ("proved", "verified", "refuted")   # the verdicts stored; any other is checked again
MAX_POSITIONS = 100_000     # nor a family listing more positions
HIT, STORED, CHECKED, UNCACHEABLE = "from the cache", "stored", "checked", "not cacheable"


class NotCacheable(Exception):
    """A claim whose key cannot be built; the message says why (one line)."""


def cache_dir() -> Path:
    """Where verdicts are stored: ``$GRUNDY_CACHE/verdicts`` (default ``~/.cache/grundy``)."""
    return Path(os.environ.get("GRUNDY_CACHE") or Path.home() / ".cache" / "grundy") / "verdicts"


@lru_cache(maxsize=None)
def versions() -> str:
    """What checking runs on: the grundy package's files and version, Python, networkx
    (:func:`grundy.digest.package_digest`) and Z3 (read once per process)."""
    import z3
    return f"{package_digest()} python {sys.version} z3 {z3.get_version_string()}"


# ------------------------------------------------------------------------------- the key
_RULES: "weakref.WeakKeyDictionary[Rules, str]" = weakref.WeakKeyDictionary()


def _rules_digest(rules: Rules) -> str:
    """The digest of one Rules object, kept while the object lives (a game keeps the Rules of
    the structures it used last: the same object, the same content)."""
    got = _RULES.get(rules)
    if got is None:
        got = _RULES[rules] = Digest("rules").rules(rules).hexdigest()
    return got


def _runs(values: list[int]) -> list[tuple[int, int]]:
    """A sorted list of ints as runs (first, last) of consecutive values.

    >>> _runs([0, 1, 2, 5, 7, 8])
    [(0, 2), (5, 5), (7, 8)]
    """
    out: list[tuple[int, int]] = []
    for v in values:
        if out and v == out[-1][1] + 1:
            out[-1] = (out[-1][0], v)
        else:
            out.append((v, v))
    return out


def _plays(d: Digest, cases: Iterable[Any]) -> None:
    for p in cases:
        p = p if isinstance(p, Play) else Play(*p)
        d.value(["play", p.move, sorted(p.choice)])
        d.expr(p.when)
        d.exprs(p.choice[k] for k in sorted(p.choice))


class _Key:
    """The digest of one claim as one profile checks it (see the module's docstring)."""

    def __init__(self, claim: Claim, profile: str):
        self.claim, self.profile = claim, profile
        self.d = Digest("grundy verdict")
        self.smt = any(isinstance(m, Smt) for m in claim.methods)
        self.explicit = [m for m in claim.methods if isinstance(m, Explicit)]
        self.sampled = [m for m in self.explicit if m.samples]
        # Instances on every structure: Z3 goes through them all, and so does a random search
        self.every = self.smt or bool(self.sampled)

    def build(self) -> str:
        c, d = self.claim, self.d
        d.value(["claim", c.id, c.game, c.kind, c.convention, c.timeout,       # not what only words change
                 [[type(m).__name__, getattr(m, "samples", None), getattr(m, "bits", None)] for m in c.methods]])
        if self.sampled:                            # a random search is derandomized: its version counts
            import hypothesis
            d.value(["hypothesis", hypothesis.__version__])
        if c.game == "sum":
            raise NotCacheable("a statement on sums is evaluated in Python on concrete values")
        if getattr(c, "uses", None):
            raise NotCacheable("a claim that uses lemmas is checked with them each time")
        if kind_of(c).cache_key(c, self.profile, d.value, _rules_digest):   # the kind's part is the whole key
            return d.hexdigest()                                             # (a period: its one-heap rule)
        fam = c.family
        d.value(["family", type(fam).__name__, fam.scope])
        if getattr(fam, "open", False):             # the first members and the counting rule's template
            from .check.everyn import key_claim
            self.claim = c = key_claim(c, self.profile)
            fam = c.family
        if isinstance(c.statement, TableStatement):
            d.value(["table", sorted(c.statement.table.items())])
        if isinstance(fam, Positions):
            self._positions(fam)
        else:
            self._structures(fam)
        return d.hexdigest()

    def _structures(self, fam: Any) -> None:
        if isinstance(fam, Geng) and fam.span() > settings().max_structures:
            raise NotCacheable(f"a family of up to {fam.span():,} structures (more than {settings().max_structures:,})")
        items = list(itertools.islice(fam.items(), settings().max_structures + 1))
        if len(items) > settings().max_structures:
            raise NotCacheable(f"a family of more than {settings().max_structures:,} structures")
        game = GAMES[self.claim.game]
        bounds = self.claim.bounds_for(self.profile)
        for label, g in items:
            rules = game.rules(g)
            self.d.value(["structure", label, _rules_digest(rules)])
            used = self.every
            if self.explicit:
                vals = slot_values(rules, bounds)
                self.d.value(["bounds", [_runs(v) for v in vals]])
                used = used or all(vals)       # the sweep builds no Instance where no state is allowed
            for m in self.sampled:
                self.d.value(["sample bounds", [_runs(v) for v in slot_values(rules, m.sample_bounds or bounds)]])
            if used:
                self._consumed(game, rules)

    def _positions(self, fam: Positions) -> None:
        from .check.listed import _listed_position
        listed = fam.listed()
        if len(listed) > MAX_POSITIONS:
            raise NotCacheable(f"a family of {len(listed):,} listed positions (more than {MAX_POSITIONS:,})")
        game = GAMES[self.claim.game]
        seen: dict[Any, int] = {}
        for label, item in listed:
            raw = item.get("convention") if isinstance(item, dict) else getattr(item, "convention", None)
            pos = _listed_position(self.claim, item)      # as the check reads it
            if isinstance(pos, SumPosition):
                raise NotCacheable("a statement on sums is evaluated in Python on concrete values")
            at = seen.get(pos.structure)
            if at is None:
                at = seen[pos.structure] = len(seen)
                rules = game.rules(pos.structure)
                self.d.value(["structure", at, _rules_digest(rules)])
                self._consumed(game, rules)
            self.d.value(["position", label, at, [int(x) for x in pos.state], pos.convention, raw])

    def _consumed(self, game: Any, rules: Rules) -> None:
        """What an Instance of the claim on these rules reads: statement, assume, exact,
        strategy, witnesses, and the one-heap rules."""
        c, d = self.claim, self.d
        g, s = rules.structure, rules.state
        if not isinstance(c.statement, TableStatement):
            d.value("statement")
            d.expr(c.statement(g, s))
        for name, f in (("assume", c.assume), ("exact", c.exact)):
            if f is not None:
                d.value(name)
                d.expr(f(g, s))
        if c.strategy is not None:
            d.value("strategy")
            _plays(d, plays(c.strategy, rules))
        every = [rules]
        if game.heap_rule(g) is not None:             # the solver's one-heap tables
            every.append(game.one_heap_rules(g))
        if self.smt and hasattr(game, "one_heap_rules"):
            try:
                every.append(game.one_heap_rules())   # Z3's one-heap form (for the claims that use it)
            except Exception as e:                    # then the check that calls it fails too
                d.value(["no one-heap form", type(e).__name__, str(e)])
        for r in every[1:]:
            d.value(["one heap", _rules_digest(r)])
        if self.smt and c.witnesses is not None:
            from ..solvers.smt.obligations import VALUE
            for r in every:
                d.value("witnesses")
                _plays(d, c.witnesses(r.structure, r.state, r, Var.int(VALUE)))


def claim_key(claim: Claim, options: dict[str, Any]) -> str:
    """The key of a claim's verdict under ``options`` (profile, time limit, executor; see the
    module's docstring). :class:`NotCacheable` (its message says why) when it cannot be built.

    >>> from grundy.verify.claims import Claim
    >>> from grundy.verify.families import heaps
    >>> a = Claim("demo/a", game="nim", kind="char", family=heaps(2), bounds={"heap": 3},
    ...           statement=lambda g, s: s.heap[0] == s.heap[1])
    >>> b = Claim("demo/a", game="nim", kind="char", family=heaps(2), bounds={"heap": 3},
    ...           statement=lambda g, s: s.heap[1] == s.heap[0])
    >>> claim_key(a, {"profile": "quick"}) == claim_key(a, {"profile": "quick"}) != claim_key(b, {"profile": "quick"})
    True
    >>> claim_key(a, {"profile": "quick"}) != claim_key(a, {"profile": "full"})
    True
    """
    profile = options.get("profile", "quick")
    key = _Key(claim.at(profile), profile)
    key.d.value(["versions", versions()])
    key.d.value(["options", options])
    try:
        return key.build()
    except NotCacheable:
        raise
    except Exception as e:                        # the check meets it too, and reports it
        text = str(e).splitlines()[0] if str(e) else ""
        raise NotCacheable(f"building its key failed: {type(e).__name__}: {text}"[:200]) from None


# ------------------------------------------------------------------------------- the store
def _read(key: str) -> Verdict | None:
    try:
        with open(cache_dir() / f"{key}.json", encoding="utf-8") as f:
            d = json.load(f)
        v = Verdict.from_json(d["verdict"])
    except (OSError, ValueError, KeyError, TypeError):
        return None
    return v if v.verdict in SETTLED and d.get("key") == key else None


def _write(key: str, v: Verdict) -> None:
    d = cache_dir()
    try:
        d.mkdir(parents=True, exist_ok=True)
        tmp = d / f".{key}.{os.getpid()}.tmp"
        tmp.write_text(json.dumps({"key": key, "verdict": v.to_json()}), encoding="utf-8")
        os.replace(tmp, d / f"{key}.json")
    except OSError:
        pass                                  # a cache that cannot be written is no cache


class VerdictCache:
    """The verdict cache for one run: ``options`` are what changes checking (profile, time
    limit, executor). :meth:`verdict` serves one claim where it is checked (a worker);
    :meth:`around` serves a list of claims checked elsewhere (an executor)."""

    def __init__(self, options: dict[str, Any]):
        self.options = dict(options)
        versions()                       # read once here: forked workers inherit it

    def lookup(self, claim: Claim) -> tuple[str | None, str, Verdict | None]:
        """(the claim's key or None, why it has none, the stored verdict or None)."""
        try:
            key = claim_key(claim, self.options)
        except NotCacheable as e:
            return None, str(e), None
        v = _read(key)
        if v is not None:
            v.cache = HIT
            v.expected, v.paper = claim.expect, claim.paper      # words and expectations: the claim's now
            for k, x in claim.describe().items():
                setattr(v, k, x)
        return key, "", v

    def store(self, key: str | None, why: str, v: Verdict) -> Verdict:
        """Store a fresh verdict (when settled and keyed); mark where it came from."""
        if key is None:
            v.cache = f"{UNCACHEABLE}: {why}"
        elif v.verdict in SETTLED:
            v.cache = STORED
            _write(key, v)
        else:
            v.cache = CHECKED
        return v

    def verdict(self, claim: Claim, check: Callable[[], Verdict], read: bool = True) -> Verdict:
        """The stored verdict of ``claim`` when its key is stored, else ``check()`` (stored
        when settled). ``read=False``: always ``check()`` (stored when settled), as for a
        certificate, which needs the queries of a check made now."""
        key, why, v = self.lookup(claim)
        return v if v is not None and read else self.store(key, why, check())

    def around(self, claims: list[Claim], check: Callable[[list[Claim]], Iterable[Verdict]]) -> Iterator[Verdict]:
        """The verdicts of ``claims`` in order: a stored one for each claim whose key is stored
        (keys built here), the others from ``check`` (called once, on the claims missing, in
        order) and stored when settled."""
        found = [self.lookup(c) for c in claims]
        missing = [c for c, (_, _, v) in zip(claims, found, strict=True) if v is None]
        return _Merged(self, found, iter(check(missing)) if missing else iter(()))


class _Merged:
    """Stored and fresh verdicts in claim order; an interrupt thrown in (``throw``) goes on
    to the runner, so that the verdicts it had finished are still given out."""

    def __init__(self, cache: VerdictCache, items: list[tuple[str | None, str, Verdict | None]],
                 fresh: Iterator[Verdict]):
        self.cache, self.items, self.fresh, self.i, self.pending = cache, items, fresh, 0, None

    def __iter__(self) -> "_Merged":
        return self

    def __next__(self) -> Verdict:
        if self.i >= len(self.items):
            raise StopIteration
        key, why, v = self.items[self.i]
        if v is None:
            v = self.pending if self.pending is not None else next(self.fresh)
            self.pending = None
            self.cache.store(key, why, v)
        self.i += 1
        return v

    def throw(self, exc: BaseException) -> Verdict:
        thrower = getattr(self.fresh, "throw", None)
        if thrower is None or self.pending is not None or all(v is not None for _, _, v in self.items[self.i:]):
            raise exc
        self.pending = thrower(exc)
        return next(self)


def cache_note(verdicts: Iterable[Verdict], total: int, most: int = 10) -> list[str]:
    """The lines a run prints about the cache: how many verdicts came from it, and which
    claims could not be cached (and were checked).

    >>> vs = [Verdict("a", "char", "verified", cache=HIT), Verdict("b", "char", "verified", cache=STORED),
    ...       Verdict("c", "char", "verified", cache="not cacheable: a family of sums")]
    >>> print("\\n".join(cache_note(vs, 3)))
    1 of 3 verdicts from the cache (unchanged claims; --no-cache checks them again)
    1 claim not cacheable (checked on every run): c
    """
    vs = list(verdicts)
    hits = sum(v.cache == HIT for v in vs)
    out = []
    if hits:
        out.append(f"{hits} of {total} verdicts from the cache (unchanged claims; --no-cache checks them again)")
    no = [v.id for v in vs if v.cache.startswith(UNCACHEABLE)]
    if no:
        more = f" and {len(no) - most} more" if len(no) > most else ""
        out.append(f"{len(no)} claim{'s' * (len(no) != 1)} not cacheable (checked on every run): "
                   f"{', '.join(no[:most])}{more}")
    return out


# ------------------------------------------------------------------------------- claim times
def _times_file() -> Path:
    return cache_dir().parent / "times.json"        # beside the verdicts, not among them


def _read_times_file() -> dict[str, dict[str, float]]:
    try:
        d = json.loads(_times_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return d if isinstance(d, dict) else {}


def read_times(profile: str) -> dict[str, float]:
    """The seconds each claim took when it was last checked under ``profile`` (by claim id;
    empty when nothing was recorded). A scheduling hint only.

    >>> import os, tempfile
    >>> saved = os.environ.get("GRUNDY_CACHE")
    >>> os.environ["GRUNDY_CACHE"] = tempfile.mkdtemp()
    >>> read_times("quick")
    {}
    >>> record_times("quick", {"demo/a": 2.5, "demo/b": 0.1})
    >>> record_times("quick", {"demo/b": 0.2})
    >>> read_times("quick"), read_times("full")
    ({'demo/a': 2.5, 'demo/b': 0.2}, {})
    >>> _ = os.environ.pop("GRUNDY_CACHE") if saved is None else os.environ.update(GRUNDY_CACHE=saved)
    """
    got = _read_times_file().get(profile)
    if not isinstance(got, dict):
        return {}
    return {k: float(v) for k, v in got.items() if isinstance(k, str) and isinstance(v, (int, float))}


def record_times(profile: str, seconds: dict[str, float]) -> None:
    """Remember the seconds of the claims just checked under ``profile`` (others are kept)."""
    if not seconds:
        return
    d = _read_times_file()
    mine: dict[str, float] = d[profile] if isinstance(d.get(profile), dict) else {}
    mine.update({k: round(float(v), 3) for k, v in seconds.items()})
    d[profile] = mine
    folder = _times_file().parent
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".times.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(d, sort_keys=True), encoding="utf-8")
        os.replace(tmp, _times_file())
    except OSError:
        pass                                  # no place to write: the next run keeps file order
