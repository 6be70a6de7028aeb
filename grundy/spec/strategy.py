"""Strategies: a claimed winning-move rule, written in the same IR as the game.

A strategy maps the symbolic state to cases in priority order: when ``when`` holds
(and no earlier case does), play move number ``move`` of the rules with the given
numeric choices. Both backends read it: the explicit solver plays it, the SMT
backend checks it is legal and lands in the claimed P-positions.

>>> from grundy.spec.games import get_game
>>> from grundy.spec import Structure
>>> r = get_game("nim").rules(Structure.heaps(2))
>>> s = r.state
>>> mirror = lambda g, s, rules: [Play(s.heap[0] > s.heap[1], 0, {"k": s.heap[0] - s.heap[1]}),
...                               Play(s.heap[1] > s.heap[0], 1, {"k": s.heap[1] - s.heap[0]})]
>>> plays = mirror(r.structure, s, r)
>>> plays[0].move, sorted(plays[0].choice)
(0, ['k'])
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from .expr import Term, lift
from .game import Rules
from .schema import SymState
from .structure import Structure


@dataclass
class Play:
    """One case of a strategy: when ``when`` holds, play ``rules.moves[move]`` with ``choice``."""

    when: Term
    move: int
    choice: dict[str, Term] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.when = lift(self.when)
        self.choice = {k: lift(v) for k, v in self.choice.items()}


Strategy = Callable[[Structure, SymState, Rules], list[Play]]


def move_index(rules: Rules, label_prefix: str) -> int:
    """The number of the move whose label starts with ``label_prefix`` (exactly one must)."""
    hits = [i for i, m in enumerate(rules.moves) if m.label.startswith(label_prefix)]
    if len(hits) != 1:
        labels = ", ".join(repr(m.label) for m in rules.moves[:6]) + (", ..." if len(rules.moves) > 6 else "")
        raise KeyError(f"{len(hits)} moves of {rules.game.name} have a label starting {label_prefix!r} "
                       f"(its moves: {labels}; since grundy 0.2 labels count heaps from 1)")
    return hits[0]


def plays(strategy: Strategy, rules: Rules) -> list[Play]:
    """The strategy's cases on these rules, checked against the moves' choices."""
    out = strategy(rules.structure, rules.state, rules)
    for p in out:
        m = rules.moves[p.move]
        names = {c.name for c in m.choices}
        if set(p.choice) != names:
            raise ValueError(f"strategy plays move {m.label!r} with choices {sorted(p.choice)}, "
                             f"it needs {sorted(names)}")
    return out
