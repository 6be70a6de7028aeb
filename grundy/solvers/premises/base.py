"""What every premise shares: its statuses and record (:class:`Premise`), whether the author
declared it, the proofs kept on disk, one Z3 session per premise with its resource budget, and
the concrete states the matched moves are looked for on.
"""
from __future__ import annotations

import hashlib
import json
import os
import random
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Callable

from ...digest import cache_root, package_digest
from ...spec.expr import BOOL, lift
from ...spec.fingerprint import rules_digest
from ...spec.game import Game, Rules

PROVED, VIOLATED, UNKNOWN, NOT_DECLARED = "proved", "violated", "unknown", "not declared"
SAMPLES = 24               # concrete states the matched moves are looked for on
REPLAY = 100_000           # moves a violation's replay on the concrete rule may enumerate
FORMAT = 1                 # of the stored proofs (part of their key)

State = tuple[int, ...]


# ------------------------------------------------------------------------------ declarations
def declared(game: Game, attr: str) -> bool:
    """Whether the game's author set ``attr`` (``symmetric``, ``decompose_over``): on the object
    or in a class of its own, not left at a default of grundy's base classes.

    >>> from grundy.spec.games import get_game
    >>> declared(get_game("grim"), "decompose_over"), declared(get_game("grim"), "symmetric")
    (True, False)
    """
    if attr in vars(game):
        return True
    for cls in type(game).__mro__:
        if attr in vars(cls):
            mod = cls.__module__
            return not (mod in _BASE_MODULES or mod.startswith("grundy.spec.games._"))
    return False


_BASE_MODULES = {"grundy.spec.game", "grundy.spec.heaprule", "grundy.spec.heaps", "grundy.spec.graphs"}


# ------------------------------------------------------------------------------ premises
@dataclass(frozen=True)
class Premise:
    """What is known of one premise on one structure: ``status`` (proved, violated, unknown,
    not declared), ``how`` (a short phrase for the scope), ``violation`` (one line naming the
    game, the move and the position, when violated) and whether the author ``declared`` it."""

    name: str
    status: str
    how: str
    violation: str = ""
    declared: bool = False
    state: tuple[int, ...] | None = None      # the position the violation names

    @property
    def holds(self) -> bool:
        return self.status == PROVED

    def to_json(self) -> dict:
        return {"name": self.name, "status": self.status, "how": self.how, "violation": self.violation}


def _key(kind: str, rules: Rules, extra: Any) -> str | None:
    try:
        text = json.dumps([FORMAT, kind, rules_digest(rules), extra, package_digest(), _z3_version()])
    except TypeError:            # something in the rules that cannot be read back as content
        return None
    return hashlib.sha256(text.encode()).hexdigest()


@lru_cache(maxsize=1)
def _z3_version() -> str:
    """Z3's version, without importing it (a stored proof costs no import); read once per
    process (reading a distribution's metadata takes about a millisecond)."""
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("z3-solver")
    except PackageNotFoundError:
        import z3
        return z3.get_version_string()


def _stored(key: str | None) -> dict | None:
    if key is None:
        return None
    try:
        with open(cache_root() / "premises" / f"{key}.json", encoding="utf-8") as f:
            d = json.load(f)
    except (OSError, ValueError):
        return None
    return d if isinstance(d, dict) and d.get("key") == key else None


def _store(key: str | None, d: dict) -> None:
    if key is None:
        return
    path = cache_root() / "premises" / f"{key}.json"
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{key}.{os.getpid()}.tmp")
        tmp.write_text(json.dumps(dict(d, key=key)), encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass                                  # a cache that cannot be written is no cache


Proof = tuple[str, str, str, "State | None"]      # status, how, violation, its position


def _cached(kind: str, rules: Rules, extra: Any, cache: bool, prove: Callable[[], Proof],
            declared_: bool) -> Premise:
    key = _key(kind, rules, extra) if cache else None
    d = _stored(key)
    if d is None:
        status, how, violation, state = prove()
        d = {"status": status, "how": how, "violation": violation, "state": state}
        _store(key, d)
    state = d.get("state")
    return Premise(kind, d["status"], d["how"], d["violation"], declared_, None if state is None else tuple(state))


class _Z3:
    """One Z3 solver for a premise's queries (push/pop), with the premise's resource budget."""

    def __init__(self, enc, budget: int):
        import z3
        self.z3, self.enc = z3, enc
        self.tr = enc.translator(None)
        # a context of its own: Z3's answers (its models) then depend on this premise's queries
        # only, not on what the process asked Z3 before (terms are translated into it)
        self.ctx = z3.Context()
        self.s = z3.Solver(ctx=self.ctx)
        self.budget, self.used = budget, 0
        self._state_terms: list | None = None
        self.s.add(self.tr(enc.family).translate(self.ctx))

    def assume(self, items: list) -> None:
        """Assert ``items`` for every later query (added once, before any push)."""
        for it in items:
            self.s.add(self.tr.part(self.enc.prepare(it)).translate(self.ctx))

    def value(self, model, term) -> Any:
        return model.eval(term.translate(self.ctx), model_completion=True)

    def state(self, model) -> State:
        """The state (schema order) in a model."""
        if self._state_terms is None:    # translated into this context once
            self._state_terms = [v.translate(self.ctx) for v in self.enc.state_vars]
        terms = self._state_terms
        vals = [model.eval(t, model_completion=True) for t in terms]
        return tuple(int(self.z3.is_true(x)) if k == "bool" else x.as_long() for x, k in zip(vals, self.enc.kinds, strict=False))

    def integer(self, model, name: str) -> int:
        return self.value(model, self.tr.var(name, "int")).as_long()

    def truth(self, model, name: str) -> bool:
        return bool(self.z3.is_true(self.value(model, self.tr.var(name, BOOL))))

    def check(self, items: list, shrink: bool = False, prepared: bool = False) -> tuple[str, Any]:
        """sat (with the model), unsat or unknown, for the conjunction of ``items`` (IR
        formulas or :class:`~grundy.solvers.smt.encode.Exists`; ``prepared``: IR formulas
        already in ``enc.prepare``'s form). ``shrink``: a model whose int fields total as little
        as a few more queries find (a violation is shown small)."""
        z3 = self.z3
        s = self.s
        s.push()
        try:
            for it in items:
                s.add(self.tr.part(it if prepared else self.enc.prepare(it)).translate(self.ctx))
            r = self._check()
            if r == z3.sat:
                model = s.model()
                return "sat", self._shrink(model) if shrink else model
            return ("unsat", None) if r == z3.unsat else ("unknown", None)
        finally:
            s.pop()

    def _check(self) -> Any:
        left = self.budget - self.used
        if left <= 0:
            return self.z3.unknown
        s = self.s
        s.set("rlimit", left)
        before = _rlimit(s)
        r = s.check()
        self.used += max(0, _rlimit(s) - before)
        return r

    def _shrink(self, model: Any) -> Any:
        """Halve the bound on the int fields' total while Z3 finds a model within it (at most
        12 queries, within the budget)."""
        sch = self.enc.rules.schema
        size = [v - sch.fields[f].lower for v, (f, _) in zip(sch.variables, sch.slots, strict=False) if sch.fields[f].kind == "int"]
        if not size:
            return model
        total = self.tr(lift(sum(size[1:], size[0]))).translate(self.ctx)
        lo, hi = 0, model.eval(total, model_completion=True).as_long()
        for _ in range(12):
            if lo >= hi:
                break
            mid = (lo + hi) // 2
            self.s.push()
            self.s.add(total <= mid)
            r = self._check()
            if r == self.z3.sat:
                model = self.s.model()
                hi = model.eval(total, model_completion=True).as_long()
            self.s.pop()
            if r == self.z3.unsat:
                lo = mid + 1
            elif r != self.z3.sat:
                break
        return model


def _rlimit(s) -> int:
    try:
        return int(s.statistics().get_key_value("rlimit count"))
    except Exception:            # noqa: BLE001  (no statistics yet)
        return 0


def _encoding(rules: Rules):
    from ..smt.encode import encoding
    return encoding(rules)


def _compiled(rules: Rules):
    from ..explicit.compile import compile_rules
    return compile_rules(rules, symmetry=False, decompose=False)


def _samples(rules: Rules, n: int = SAMPLES) -> list[State]:
    """A few concrete states within the field domains (seeded: the same every time), from full
    (every int field 3 above its least value, every bool true) to sparse (most at their least:
    moves that need emptiness are legal there)."""
    rnd = random.Random(1729)
    out = []
    for k in range(n):
        sparse = k / n                          # the share of int fields at their least value
        s = []
        for d in rules.slot_domains:
            if d is None:
                s.append(rnd.randint(0, 1) if k else 1)
            elif d[1] is None:
                s.append(d[0] if rnd.random() < sparse else d[0] + (rnd.randint(1, 6) if k else 3))
            else:
                s.append(rnd.randint(d[0], d[1]))
        out.append(tuple(s))
    return out


