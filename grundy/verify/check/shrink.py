"""Shrinking a counterexample: lower its numeric fields, one at a time and all together, while
the claim stays false (within ten CPU seconds and the claim's time limit).
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .deadline import Deadline, State

if TYPE_CHECKING:
    from .instance import Instance


def shrink(inst: "Instance", state: State, deadline: Deadline) -> State:
    """Lower the numeric fields one at a time (and all together) while the claim stays false."""
    sch = inst.rules.schema
    nums = [i for i, (f, _) in enumerate(sch.slots) if sch.fields[f].kind == "int"]
    lower = {i: sch.fields[sch.slots[i][0]].lower for i in nums}

    def bad(t: State) -> bool:
        return bool(inst.assume(t)) and inst.judge(t) is not None

    stop = deadline.clock() + min(10.0, max(0.0, deadline.left()))
    better = True
    while better and deadline.clock() < stop:
        better = False
        for i in nums:
            v = state[i]
            for c in sorted({lower[i], (lower[i] + v) // 2, v - 1}):
                if not lower[i] <= c < v:
                    continue
                t = state[:i] + (c,) + state[i + 1:]
                if bad(t):
                    state, better = t, True
                    break
        step = min((state[i] - lower[i] for i in nums), default=0)
        for d in sorted({1, step}):
            if not 1 <= d <= step:
                continue
            t = tuple(v - d if i in lower else v for i, v in enumerate(state))
            if bad(t):
                state, better = t, True
                break
    return state
