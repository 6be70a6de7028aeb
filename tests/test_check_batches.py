"""A large sweep asks the kernel for its starts' truths in batches (grundy/verify/check/sweep.py):
the verdict, the count and the counterexample must be those of judging start by start."""
import pytest

from grundy import Solver
from grundy.settings import current as current_settings
from grundy.solvers.native import build
from grundy.spec import all_of, any_of
from grundy.verify.check import check_claim
from grundy.verify.claims import Claim
from grundy.verify.families import complete

pytestmark = pytest.mark.skipif(not build.available(), reason="no C compiler here")


def heavy(g, s):
    """A planted false characterization: P iff every edge at the token weighs at least 3."""
    return any_of((s.token == t) & all_of(s.weight[g.edge_id(min(t, u), max(t, u))] >= 3
                                          for u in g.vertices if u != t) for t in g.vertices)


def weight_sum(g, s):
    """A planted false Grundy formula: the weight at edge 0 (true on K_2, false beyond)."""
    return s.weight[0]


CLAIMS = [
    Claim("t/heavy", game="edge-nim", kind="char", family=complete(4), statement=heavy,
          bounds={"weight": (1, 5)}, expect="refuted"),
    Claim("t/heavy-misere", game="edge-nim", kind="char", family=complete(4), statement=heavy,
          bounds={"weight": (1, 5)}, convention="misere", expect="refuted"),
    Claim("t/edge0", game="edge-nim", kind="grundy", family=complete(4), statement=weight_sum,
          bounds={"weight": (1, 5)}, expect="refuted"),
]


@pytest.mark.parametrize("claim", CLAIMS, ids=[c.id for c in CLAIMS])
def test_batched_sweep_equals_one_by_one(claim, tune):
    assert 4 ** 6 * 4 < current_settings().batch_from <= 5 ** 6 * 4      # this sweep is batched
    batched = check_claim(claim, solver=Solver(native="always"))
    tune(batch_from=10 ** 9)
    single = check_claim(claim, solver=Solver(native="always"))
    assert batched.verdict == single.verdict == "refuted"
    assert batched.scope == single.scope
    assert batched.counterexample == single.counterexample
