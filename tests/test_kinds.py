"""Claim kinds as registered objects (grundy.verify.kinds): every kind has every part, a kind
missing a part fails when it is defined, a user's kind registered from here works end to end,
and the kind string tests are gone from the code outside the kinds."""
from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from grundy.errors import ClaimError
from grundy.solvers.explicit import compile_expr
from grundy.solvers.solver import Solver
from grundy.spec.games import GAMES
from grundy.spec.position import Position
from grundy.verify import Claim, ClaimKind, StatementKind, heaps, register_kind
from grundy.verify.check import check_claim
from grundy.verify.families import slot_values
from grundy.verify.kinds import KINDS, OPTIONAL, PARTS, KindError, kind_of, unregister_kind
from grundy.verify.verdict import REFUTED, VERIFIED, Counterexample

ROOT = Path(__file__).resolve().parent.parent
BUILT_IN = ["outcome", "char", "grundy", "strategy", "conj", "table", "period"]


def test_the_built_in_kinds_are_registered_in_order():
    assert list(KINDS)[:len(BUILT_IN)] == BUILT_IN
    for name in BUILT_IN:                      # one module each, named after the kind
        assert type(KINDS[name]).__module__ == f"grundy.verify.kinds.{name}"


@pytest.mark.parametrize("name", list(KINDS))
def test_every_registered_kind_has_every_part(name):
    k = KINDS[name]
    assert k.name == name
    for part in PARTS:
        assert hasattr(k, part), part
    assert k.statement in ("bool", "int", "either", "none") and k.says
    assert set(k.needs) <= set(k.takes) | set(k.fields) and set(k.takes) <= set(OPTIONAL)
    assert not set(k.fields) & set(OPTIONAL)          # a kind's own fields are its alone
    for m in ("prepare", "problems", "statement_problem", "obligations", "cache_key", "facts"):
        assert callable(getattr(k, m))


def test_what_the_kinds_say_about_themselves():
    serving = {n: k.serves_as for n, k in KINDS.items() if k.serves_as}
    assert serving == {"char": "P", "grundy": "grundy"}
    assert [n for n, k in KINDS.items() if k.gives_values] == ["grundy", "table"]
    assert [n for n, k in KINDS.items() if k.claims_strategy] == ["strategy"]
    assert [n for n, k in KINDS.items() if k.special_check is not None] == ["period", "quotient"]
    assert KINDS["table"].implied_by == "table" and KINDS["period"].implied_by == "period"


def _minimal(**over):
    ns = dict(name="half", says="half a kind", statement="bool", takes=frozenset(), needs=frozenset(),
              implied_by=None, serves_as=None, gives_values=False, claims_strategy=False, special_check=None)
    ns.update(over)
    return ns


@pytest.mark.parametrize("part", ["says", "statement", "takes", "serves_as", "obligations", "facts", "cache_key"])
def test_a_kind_missing_a_part_fails_when_it_is_defined(part):
    ns = {k: v for k, v in _minimal().items() if k != part}
    if part in ("obligations", "facts", "cache_key"):
        base: type = ClaimKind                  # the methods come from StatementKind: leave them out
        ns.update({m: (lambda self, *a: None) for m in ("prepare", "problems", "statement_problem",
                                                         "obligations", "facts", "cache_key") if m != part})
    else:
        base = StatementKind
    with pytest.raises(KindError, match=f"has no {part!r}: every kind needs"):
        type("Half", (base,), ns)
    assert "half" not in KINDS


@pytest.mark.parametrize("over,match", [
    (dict(statement="maybe"), "statement must be one of"),
    (dict(takes=frozenset({"colour"})), "takes names no optional field: colour"),
    (dict(needs=frozenset({"strategy"})), "needs must be a part of takes"),
    (dict(serves_as="yes"), "serves_as must be"),
    (dict(name="two words"), "name must be a word"),
])
def test_a_kind_with_a_wrong_part_fails_when_it_is_defined(over, match):
    with pytest.raises(KindError, match=match):
        type("Half", (StatementKind,), _minimal(**over))


def test_an_abstract_base_may_leave_parts_and_a_name_cannot_be_taken_twice():
    class Base(ClaimKind, abstract=True):      # no error: its subclasses give the parts
        says = "shared wording"

    with pytest.raises(KindError, match="two claim kinds named 'char'"):
        register_kind(type("OtherChar", (StatementKind,), _minimal(name="char")))
    assert type(KINDS["char"]).__name__ == "Char"
    with pytest.raises(KindError, match="takes a ClaimKind"):
        register_kind("char")                                  # type: ignore[type-var]


# ------------------------------------------------------------------------------- a user's kinds
class Positive(StatementKind):
    """A toy statement kind: a boolean statement of the P-positions with a report fact of its own
    and no optional field (what a new statement kind needs to say)."""

    name = "toy_p"
    says = "the P-positions, as a toy"
    statement = "bool"
    takes = frozenset()
    serves_as = None
    gives_values = False
    claims_strategy = False

    def facts(self, claim):
        return [("toy", f"a toy claim on {claim.game}")]


def _bound_check(claim, v, profile, tick, recheck):
    """G(position) <= statement(g, s) at every position of the sweep (a toy special check)."""
    game, solver = GAMES[claim.game], Solver()
    checked = 0
    for label, g in claim.family.items():
        rules = game.rules(g)
        bound = compile_expr(rules, claim.statement(g, rules.state))
        for state in itertools.product(*slot_values(rules, claim.bounds_for(profile))):
            pos = Position(game, g, state, claim.convention)
            value, most = solver.grundy(pos), bound(state)
            checked += 1
            if value > most:
                v.verdict, v.scope = REFUTED, f"{label}: G = {value} > {most}"
                v.counterexample = Counterexample(pos.to_json(), most, value, structure=label, how="toy bound")
                return
    v.verdict, v.scope = VERIFIED, f"{checked} positions: G <= the bound"
    v.coverage["positions"] = checked


class Bound(ClaimKind):
    """A toy kind with its own check: the statement is an upper bound on the Grundy value."""

    name = "toy_bound"
    says = "an upper bound on the Grundy value"
    statement = "int"
    takes = frozenset()
    needs = frozenset()
    implied_by = None
    serves_as = None
    gives_values = False
    claims_strategy = False
    special_check = staticmethod(_bound_check)

    def prepare(self, where, given):
        return given

    def problems(self, claim):
        if any(str(m).startswith("smt") for m in claim.methods):
            yield "a toy bound is checked by its own sweep (no smt method)"

    def statement_problem(self, expr):
        return None

    def obligations(self, claim, by_value):
        return ()

    def cache_key(self, claim, profile, add, rules_digest):
        return False

    def facts(self, claim):
        return []


@pytest.fixture
def toys():
    register_kind(Positive)
    register_kind(Bound())
    yield
    unregister_kind("toy_p")
    unregister_kind("toy_bound")


def test_a_user_statement_kind_works_end_to_end(toys):
    equal = lambda g, s: s.heap[0] == s.heap[1]      # noqa: E731
    c = Claim("toy/nim-2", game="nim", kind="toy_p", family=heaps(2), bounds={"heap": 5}, statement=equal,
              methods=["explicit", "smt"], expect="proved")
    assert kind_of(c) is KINDS["toy_p"]
    v = check_claim(c)
    assert v.verdict == "proved", v.detail
    assert {"rank", "T", "PN", "NP"} <= {o["obligation"] for o in v.obligations}     # the partition theorem
    assert v.kind == "toy_p" and v.facts == [["toy", "a toy claim on nim"]]
    assert v.to_json()["facts"] == [["toy", "a toy claim on nim"]]
    bad = Claim("toy/nim-2-bad", game="nim", kind=KINDS["toy_p"], family=heaps(2), bounds={"heap": 5},
                statement=lambda g, s: s.heap[0] == 0, expect="refuted")
    assert bad.kind == "toy_p" and check_claim(bad).verdict == "refuted"
    with pytest.raises(ClaimError, match=r"strategy= is not used by a toy_p claim \(only by the kinds outcome, "
                                         r"char, strategy, conj\)"):
        Claim("toy/s", game="nim", kind="toy_p", family=heaps(2), statement=equal,
              strategy=lambda g, s, rules: [])


def test_a_user_kind_with_its_own_check_works_end_to_end(toys):
    ok = Claim("toy/bound", game="nim", kind="toy_bound", family=heaps(2), bounds={"heap": 4},
               statement=lambda g, s: s.heap[0] + s.heap[1])          # G = a ^ b <= a + b
    v = check_claim(ok)
    assert (v.verdict, v.coverage["positions"]) == ("verified", 25)
    tight = Claim("toy/bound-bad", game="nim", kind="toy_bound", family=heaps(2), bounds={"heap": 4},
                  statement=lambda g, s: s.heap[0], expect="refuted")
    v = check_claim(tight)
    assert v.verdict == "refuted" and v.counterexample.actual > v.counterexample.claimed
    with pytest.raises(ClaimError, match="no smt method"):
        Claim("toy/b", game="nim", kind="toy_bound", family=heaps(2), statement=lambda g, s: 0, methods=["smt"])


def test_a_user_kind_from_a_theorem_file_runs_in_the_worker_pool(tmp_path):
    f = tmp_path / "toy.py"
    f.write_text('''
from grundy.verify import Claim, StatementKind, heaps, register_kind

@register_kind
class Even(StatementKind):
    name = "toy_file"
    says = "the P-positions, from a theorem file"
    statement = "bool"
    takes = frozenset()
    serves_as = None
    gives_values = False
    claims_strategy = False

CLAIMS = [Claim("toy/file", game="nim", kind="toy_file", family=heaps(2), bounds={"heap": 3},
                statement=lambda g, s: s.heap[0] == s.heap[1])]
''')
    from grundy.verify.loading import load
    from grundy.verify.schedule.pool import run
    try:
        claims = load([str(f)])
        claims2 = load([str(f)])                # the file read again: the same kind, no clash
        assert [c.kind for c in claims + claims2] == ["toy_file", "toy_file"]
        (v,) = list(run(claims, jobs=2))
        assert v.verdict == "verified", v.detail
    finally:
        unregister_kind("toy_file")


def test_a_kind_without_obligations_is_no_proof():
    class Silent(StatementKind):
        name, says, statement, takes = "toy_silent", "nothing to prove", "bool", frozenset()
        serves_as, gives_values, claims_strategy = None, False, False

        def obligations(self, claim, by_value):
            return ()

    register_kind(Silent)
    try:
        c = Claim("toy/silent", game="nim", kind="toy_silent", family=heaps(1), statement=lambda g, s: False,
                  methods=["smt"])
        v = check_claim(c)
    finally:
        unregister_kind("toy_silent")
    assert v.verdict == "error" and "has no SMT obligation" in v.detail


# ------------------------------------------------------------------------------- the old errors
@pytest.mark.parametrize("fields,match", [
    (dict(kind="nonsense"), r"unknown kind 'nonsense' \(one of: outcome, char, grundy, strategy, conj, table, "
                            r"period"),
    (dict(kind="grundy", strategy=lambda g, s, r: []), "strategy= is not used by a grundy claim"),
    (dict(kind="char", witnesses=lambda g, s, r, v: []), "witnesses must be a function .* for a grundy claim"),
    (dict(kind="grundy", witnesses=lambda g, s: []), "witnesses must be a function"),
    (dict(kind="outcome", serves=True), "serves=True registers a char or grundy claim"),
    (dict(kind="char", exact=True), "exact= is checked only for kind 'strategy', not 'char'"),
    (dict(kind="strategy"), "a strategy claim needs strategy="),
    (dict(kind="char", params={"code": "0.7"}), "params= serves period or quotient claims only"),
    (dict(kind="char", period=(1, 2)), "period= is the claim of kind 'period', not 'char'"),
    (dict(kind="char", methods=[]), "no method"),
    (dict(kind="char", timeout=0), "timeout must be a positive number"),
    (dict(kind="char", note=3), "note must be a string"),
])
def test_the_validation_errors_name_the_claim_and_the_field(fields, match):
    base = dict(game="nim", family=heaps(2), statement=lambda g, s: True)
    with pytest.raises(ClaimError, match=r"test_kinds\.py:\d+: claim 'k/x': " + match):
        Claim("k/x", **{**base, **fields})


def test_table_and_period_imply_their_kind_and_the_period_is_a_report_fact():
    assert Claim("k/t", game="nim", table=[0, 1, 2]).kind == "table"
    p = Claim("k/p", game="octal", params={"code": "0.77"}, period=(71, 12), expect="proved")
    assert p.kind == "period" and p.period == (71, 12, 0)
    assert p.describe()["facts"] == [["period", "G(n + 12) = G(n) for every n >= 71"], ["parameters", "code=0.77"]]
    from grundy.tools.report.text import fields
    from grundy.verify.verdict import Verdict
    v = Verdict("k/p", "period", "proved", "proved", **p.describe())
    assert ("period", "G(n + 12) = G(n) for every n >= 71") in fields(v)
    assert ("kind", f"period: {KINDS['period'].says}") in fields(v)        # the kind's own wording
    assert "facts" not in Claim("k/c", game="nim", kind="char", family=heaps(1),
                                statement=lambda g, s: True).describe()


def test_kind_may_be_given_as_a_kind_object():
    char = type(KINDS["char"])
    assert Claim("k/o", game="nim", kind=char(), family=heaps(1), statement=lambda g, s: True).kind == "char"
    stranger = type("Char", (StatementKind,), _minimal(name="char"))      # not registered: refused
    with pytest.raises(ClaimError, match="unknown kind"):
        Claim("k/o", game="nim", kind=stranger(), family=heaps(1), statement=lambda g, s: True)


def test_the_verdict_cache_key_leaves_the_facts_out():
    from grundy.verify.cache import claim_key
    a = Claim("k/s", game="nim", kind="strategy", family=heaps(2), bounds={"heap": 2},
              statement=lambda g, s: s.heap[0] == s.heap[1], strategy=lambda g, s, rules: [])
    b = Claim("k/s", game="nim", kind="strategy", family=heaps(2), bounds={"heap": 2},
              statement=lambda g, s: s.heap[0] == s.heap[1], strategy=lambda g, s, rules: [], exact=True)
    opts = {"profile": "quick", "timeout": None}
    assert "facts" in b.describe() and claim_key(a, opts) != claim_key(b, opts)    # exact= is keyed as before


def test_no_claim_kind_is_tested_by_its_name_outside_the_kinds():
    names = "|".join(BUILT_IN)
    pattern = re.compile(rf"""(claim|lemma|\bc|v)\.kind\s*(==|!=|in|not in)\s*[("']*({names})\b""")
    hits = []
    for path in (ROOT / "grundy").rglob("*.py"):
        if "kinds" in path.parts:
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if pattern.search(line) or re.search(rf"""\bkind\s*==\s*["']({names})["']""", line):
                hits.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    allowed = ("grundy/tools/table.py", "grundy/tools/latex.py")   # a value Table's kind: grundy | outcome
    assert [h for h in hits if not h.startswith(allowed)] == []
