"""A claim kind adds its own keyword fields to Claim: one module (here, one class) and tests."""
import pytest

from grundy.errors import ClaimError
from grundy.verify import Claim, StatementKind, heaps, register_kind
from grundy.verify.check import check_claim
from grundy.verify.kinds import KINDS, KindError, OptionalField, own_fields, unregister_kind


def _losing_kind():
    class Losing(StatementKind):
        name = "losing_by"
        says = "the losing positions (P), with the page of the paper that names them"
        statement = "bool"
        fields = {"page": OptionalField("page", lambda c: c.page is not None,
                                        "page= belongs to {kinds_or} claims, not {kind!r}",
                                        (lambda c: None if isinstance(c.page, int) and c.page > 0
                                         else f"page must be a positive page number, got {c.page!r}",))}
        takes = frozenset()
        needs = frozenset({"page"})
        serves_as, gives_values, claims_strategy = None, False, False

        def facts(self, claim):
            return [("losing", f"P-positions, page {claim.page}")]
    return Losing


@pytest.fixture
def losing():
    kind = register_kind(_losing_kind())
    yield kind
    unregister_kind("losing_by")


def _claim(**kw):
    return Claim("demo/losing", game="nim", family=heaps(2), bounds={"heap": 5},
                 statement=lambda g, s: s.heap[0] == s.heap[1], **kw)


def test_a_kind_adds_a_field_that_claims_take_and_read(losing):
    c = _claim(kind="losing_by", page=12, expect="verified")
    assert c.page == 12 and own_fields()["page"].name == "page"
    assert ["losing", "P-positions, page 12"] in c.describe()["facts"]
    v = check_claim(c)
    assert v.verdict == "verified", v.detail
    assert _claim(kind="char").page is None                # another kind's claim: the field reads None


def test_the_kind_validates_its_field_and_other_kinds_refuse_it(losing):
    with pytest.raises(ClaimError, match="page must be a positive page number, got 'xii'"):
        _claim(kind="losing_by", page="xii")
    with pytest.raises(ClaimError, match="needs page="):
        _claim(kind="losing_by")
    with pytest.raises(ClaimError, match="page= belongs to losing_by claims, not 'char'"):
        _claim(kind="char", page=3)


def test_without_the_kind_the_field_is_unknown_and_two_kinds_cannot_own_it(losing):
    unregister_kind("losing_by")
    with pytest.raises(ClaimError, match="unknown field 'page'"):
        _claim(kind="char", page=3)
    register_kind(_losing_kind())
    other = _losing_kind()
    other.name = "other_losing"
    with pytest.raises(KindError, match="field 'page' is kind 'losing_by'"):
        register_kind(other)
    assert "other_losing" not in KINDS


def test_a_kind_cannot_take_a_common_field_as_its_own():
    with pytest.raises(KindError, match="'note' is already a field of every claim"):
        class Noted(StatementKind):
            name = "noted"
            says = "a claim with its own note"
            statement = "bool"
            fields = {"note": OptionalField("note", lambda c: True, "")}
            takes = needs = frozenset()
            serves_as, gives_values, claims_strategy = None, False, False

            def facts(self, claim):
                return []


def test_quotient_stays_a_keyword_of_claim():
    c = Claim("demo/q", game="octal", params={"code": "0.75"}, quotient={"order": 8, "p_portion": 2})
    assert c.kind == "quotient" and c.quotient == {"order": 8, "p_portion": 2}
    assert KINDS["quotient"].fields["quotient"].name == "quotient"
