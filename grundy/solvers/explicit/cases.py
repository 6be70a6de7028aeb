"""A strategy's cases compiled to one Python function: the first case whose condition holds at
a state, and the choices it makes there, as reading the cases one by one (each condition, then
that case's choices, evaluated as :func:`~grundy.solvers.explicit.compile.compile_expr` would)
gives them, in one call instead of one a case.

>>> from grundy.spec.games import get_game
>>> from grundy.spec import Play, Structure
>>> rules = get_game("nim").rules(Structure.heaps(2))
>>> s = rules.state                  # take the difference from the larger heap
>>> plays = [Play(s.heap[0] > s.heap[1], 0, {"k": s.heap[0] - s.heap[1]}),
...          Play(s.heap[1] > s.heap[0], 1, {"k": s.heap[1] - s.heap[0]})]
>>> pick = compile_cases(rules, plays)
>>> pick((5, 2)), pick((1, 2)), pick((2, 2))
((0, (3,)), (1, (1,)), None)
"""
from __future__ import annotations

from typing import Any, Callable, Sequence

from ...spec.game import Rules
from .compile import _code, _def, _expr_sources
from .plan import PythonSyntax, slot_sources

__all__ = ["compile_cases"]


def compile_cases(rules: Rules, plays: Sequence[Any]) -> Callable[[tuple[int, ...]], tuple[int, tuple] | None]:
    """``pick(s)``: (i, choices) for the first of ``plays`` (:class:`~grundy.spec.strategy.Play`,
    lifted) whose condition holds at ``s``, its choices in the order of its move's; None where none
    holds."""
    names = slot_sources(rules)
    body: list[str] = []
    for i, p in enumerate(plays):
        (when,), lines = _expr_sources([p.when], names)
        body += lines + [f"if {when}:"]
        chosen = []
        for c in rules.moves[p.move].choices:
            (x,), lines = _expr_sources([p.choice[c.name]], names)
            body += ["    " + ln for ln in lines]
            chosen.append(x)
        body.append(f"    return {i}, ({''.join(x + ', ' for x in chosen)})")
    body.append("return None")
    env: dict = dict(PythonSyntax.RUNTIME)
    src = _def("pick", body)
    exec(_code(src, "<grundy strategy>"), env)
    fn = env["pick"]
    fn.__source__ = src
    return fn
