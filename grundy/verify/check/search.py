"""Random search (hypothesis) within a claim's ``sample_bounds``, for families too large to
sweep; what it finds is shrunk.
"""
from __future__ import annotations

from ...solvers.solver import Solver
from ..claims import Claim, Explicit
from .deadline import Deadline
from .instance import Instance
from .shrink import shrink


def _random_search(claim: Claim, method: Explicit, solver: Solver, deadline: Deadline):
    """Hypothesis-driven random search within ``sample_bounds``, shrinking what it finds."""
    from hypothesis import HealthCheck, find, settings
    from hypothesis import strategies as st
    from hypothesis.errors import NoSuchExample

    from ..families import slot_values

    bounds = method.sample_bounds or claim.bounds
    insts = [Instance(claim, label, g, solver) for label, g in claim.family.items()]
    ranges = [slot_values(i.rules, bounds) for i in insts]

    @st.composite
    def position(draw):
        k = draw(st.integers(0, len(insts) - 1))
        return k, tuple(draw(st.sampled_from(v)) if len(v) < 8 or v != list(range(v[0], v[-1] + 1))
                        else draw(st.integers(v[0], v[-1])) for v in ranges[k])

    tried = [0]

    def wrong(kp) -> bool:
        k, state = kp
        if deadline.left() <= 0:
            return False
        inst = insts[k]
        if not inst.assume(state):
            return False
        tried[0] += 1
        return inst.judge(state) is not None

    try:
        k, state = find(position(), wrong, settings=settings(
            max_examples=method.samples, database=None, derandomize=True, deadline=None,
            suppress_health_check=list(HealthCheck)))
    except NoSuchExample:
        return None, tried[0]
    inst = insts[k]
    state = shrink(inst, state, deadline)
    return inst.counterexample(state, inst.judge(state), "a counterexample found by random search "
                               "(hypothesis), shrunk (not known to be the smallest)"), tried[0]
