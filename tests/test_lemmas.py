"""Claims that cite claims (issue 20, item 3): a lemma chain is "proved, using ..."; with the
lemma planted false the dependent claim is not a pass; a value no lemma covers is unknown;
value_of without lemmas is solved and named in the scope."""
from grundy.verify import Claim, heaps, value_of
from grundy.verify.check import check_claim

ONE_HEAP = Claim("lemma/nim-one-heap", game="nim", kind="grundy", family=heaps(1), bounds={"heap": 9},
                 statement=lambda g, s: s.heap[0], methods=["explicit", "smt"], expect="proved")
PLANTED = Claim("lemma/nim-one-heap-planted", game="nim", kind="grundy", family=heaps(1), bounds={"heap": 9},
                statement=lambda g, s: s.heap[0] % 7, methods=["explicit", "smt"], expect="refuted")


def pairs(lemma, **kw):
    # on two heaps, P iff h0 ^ h1 == 0, written with the value of a heap of 5 read from the lemma:
    # G(5) ^ h0 == G(5) ^ h1
    return Claim("lemma/pairs", game="nim", kind="char", family=heaps(2), bounds={"heap": 5}, uses=[lemma],
                 statement=lambda g, s: (value_of({"game": "nim", "heaps": [5]}) ^ s.heap[0])
                 == (value_of({"game": "nim", "heaps": [5]}) ^ s.heap[1]),
                 methods=["explicit", "smt"] if not kw.get("bits") else ["explicit", kw["bits"]], expect="proved")


def test_a_lemma_chain_is_proved_using_the_lemma():
    from grundy.verify import bitvec
    v = check_claim(pairs(ONE_HEAP, bits=bitvec(8)))
    assert v.verdict == "proved", (v.scope, v.detail)
    assert 'using: lemma/nim-one-heap (proved, 1 value read: {"heaps": [5]})' in v.scope, v.scope


def test_a_planted_false_lemma_makes_the_dependent_claim_unknown_naming_it():
    from grundy.verify import bitvec
    assert check_claim(PLANTED).verdict == "refuted"
    v = check_claim(pairs(PLANTED, bits=bitvec(8)))
    assert v.verdict == "unknown" and "lemma/nim-one-heap-planted" in v.detail and "refuted" in v.detail, v.detail


def test_a_value_outside_the_lemmas_scope_is_not_a_pass():
    narrow = Claim("lemma/nim-small", game="nim", kind="grundy", family=heaps(1), bounds={"heap": 3},
                   statement=lambda g, s: s.heap[0])
    v = check_claim(pairs(narrow))
    assert v.verdict == "unknown" and "no lemma covers" in v.detail and '{"heaps": [5]}' in v.detail, v.detail


def test_a_chain_of_three_and_a_cycle():
    middle = Claim("lemma/middle", game="nim", kind="grundy", family=heaps(1), bounds={"heap": 6}, uses=[ONE_HEAP],
                   statement=lambda g, s: s.heap[0] + 0 * value_of({"game": "nim", "heaps": [2]}))
    top = Claim("lemma/top", game="nim", kind="grundy", family=heaps(1), bounds={"heap": 4}, uses=[middle],
                statement=lambda g, s: s.heap[0] + value_of({"game": "nim", "heaps": [6]}) - 6)
    v = check_claim(top)
    assert v.verdict == "verified" and "using: lemma/middle (verified" in v.scope, (v.scope, v.detail)
    a = Claim("lemma/a", game="nim", kind="grundy", family=heaps(1), bounds={"heap": 2},
              statement=lambda g, s: s.heap[0])
    b = Claim("lemma/b", game="nim", kind="grundy", family=heaps(1), bounds={"heap": 2}, uses=[a],
              statement=lambda g, s: s.heap[0])
    a.uses.append(b)
    v = check_claim(a)
    assert v.verdict == "unknown" and "lemma/a" in v.detail, v.detail


def test_value_of_without_lemmas_is_solved_and_named():
    c = Claim("lemma/solved", game="nim", kind="grundy", family=heaps(1), bounds={"heap": 4},
              statement=lambda g, s: s.heap[0] + value_of({"game": "nim", "heaps": [3]}) - 3)
    v = check_claim(c)
    assert v.verdict == "verified" and 'values of 1 other position solved: {"heaps": [3]}' in v.scope, v.scope


def test_uses_must_list_claims():
    import pytest

    from grundy.verify import ClaimError
    with pytest.raises(ClaimError, match="uses= lists claims"):
        Claim("lemma/bad", game="nim", kind="grundy", family=heaps(1), statement=lambda g, s: 0, uses=["x"])
