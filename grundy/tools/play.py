"""Playing a position out, move by move: in the terminal (``grundy play``) or in a notebook.

>>> p = Session({"game": "nim", "heaps": [1, 2]})
>>> [(o.label, o.grundy, o.outcome) for o in p.options()]
[('take 1 from heap 1', 2, 'N'), ('take 1 from heap 2', 0, 'P'), ('take 2 from heap 2', 1, 'N')]
>>> p.move(1).position.to_json()["heaps"]
[1, 1]
>>> p.grundy_move().label                         # grundy moves for the other side
'take 1 from heap 1'
>>> p.undo().position.to_json()["heaps"], len(p.history)
([1, 1], 1)
"""
from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import IO

from ..solvers.solver import DEFAULT, Solver
from ..spec.position import InputError, Position, SumPosition
from ..spec.reader import as_position
from .positions import draw

__all__ = ["Session", "Option", "play_in_terminal"]


@dataclass(frozen=True)
class Option:
    """One move from the current position: its label, the position it leads to, and that
    position's value (Grundy value in normal play, None in misère) and outcome."""

    label: str
    position: Position
    grundy: int | None
    outcome: str

    @property
    def wins(self) -> bool:
        """A move to a P-position: the mover wins by playing it."""
        return self.outcome == "P"


class Session:
    """A game session on one position: its options with their values, moves, grundy's
    replies and undo. ``history`` holds the (label, position) pairs played so far.

    Parameters
    ----------
    position : dict, Position or SumPosition
        Where play starts (a dict in the JSON format of docs/positions.md).
    solver : Solver, optional
        The solver that values the options (the shared default otherwise).

    Raises
    ------
    InputError
        A move number that is not listed, or a move or undo with nothing left to play or undo.

    Examples
    --------
    >>> from grundy import Session
    >>> s = Session({"game": "nim", "heaps": [1, 2]})
    >>> [(o.label, o.grundy) for o in s.options()][:2]
    [('take 1 from heap 1', 2), ('take 1 from heap 2', 0)]
    >>> s.move(1).outcome(), len(s.undo().history)
    ('P', 0)
    """

    def __init__(self, position: "dict | Position | SumPosition", solver: Solver | None = None):
        self.start = as_position(position)
        self.solver = solver or DEFAULT
        self.history: list[tuple[str, Position | SumPosition]] = []

    @property
    def position(self) -> "Position | SumPosition":
        return self.history[-1][1] if self.history else self.start

    @property
    def normal(self) -> bool:
        return self.position.convention == "normal"

    def value(self, pos: Position | SumPosition | None = None) -> int | None:
        """The Grundy value (normal play), None in misère play."""
        pos = pos or self.position
        return self.solver.grundy(pos) if pos.convention == "normal" else None

    def outcome(self, pos: Position | SumPosition | None = None) -> str:
        return self.solver.outcome(pos or self.position)

    def options(self) -> list[Option]:
        """Every move from the current position, in the rules' order."""
        return [Option(lab, q, self.value(q), self.outcome(q)) for lab, q in self.solver.options(self.position)]

    @property
    def over(self) -> bool:
        return not self.solver.options(self.position)

    def move(self, i: int) -> "Session":
        """Play option number ``i`` (as in ``options()``, from 0)."""
        opts = self.solver.options(self.position)
        if not 0 <= i < len(opts):
            raise InputError("move", f"no move number {i}: {len(opts)} move{'s' * (len(opts) != 1)} here"
                             if opts else "no move left: the game is over")
        self.history.append(opts[i])
        return self

    def grundy_move(self) -> Option:
        """grundy plays: a winning move if there is one, else the move that lasts longest
        (the first listed for ties). Returns the option played."""
        opts = self.options()
        if not opts:
            raise InputError("move", "no move left: the game is over")
        wins = [o for o in opts if o.wins]
        if wins:
            pick = wins[0]
        else:
            pick = max(opts, key=lambda o: self._rank(o.position))
        self.history.append((pick.label, pick.position))
        return pick

    def _rank(self, pos: "Position | SumPosition") -> int:
        """The game's rank at ``pos`` (of a sum: the parts' ranks added)."""
        if isinstance(pos, SumPosition):
            return sum(self._rank(p) for p in pos.parts)
        return self.solver.table(pos.game, pos.structure).code.rank(pos.state)

    def undo(self) -> "Session":
        """Take back the last move."""
        if not self.history:
            raise InputError("undo", "nothing to undo")
        self.history.pop()
        return self

    def verdict(self) -> str:
        """Who wins from here, in words."""
        if self.over:
            last = "the player who moved last" if self.history else "the second player"
            return (f"no move left: {last} wins" if self.normal else
                    "no move left: the player to move wins (misère play)")
        o = self.outcome()
        who = "the player to move wins" if o == "N" else "the player to move loses"
        v = self.value()
        return f"{o}-position{'' if v is None else f', Grundy value {v}'}: {who} with best play"

    def __str__(self) -> str:
        lines = [draw(self.position), self.verdict()]
        for i, o in enumerate(self.options()):
            val = f"grundy {o.grundy:>2}  " if o.grundy is not None else ""
            lines.append(f"  {i + 1:>3}. {o.label:<40} {val}{o.outcome}{'  wins' if o.wins else ''}")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        from .display import play_html
        return play_html(self)


HELP = "number = play that move, g = grundy moves, u = undo, q = quit"


def play_in_terminal(position: dict | Position | SumPosition, *, stdin: IO[str] | None = None,
                     stdout: IO[str] | None = None, solver: Solver | None = None) -> int:
    """The terminal session of ``grundy play``; returns the exit status (0)."""
    inp, out = stdin or sys.stdin, stdout or sys.stdout
    p = Session(position, solver)

    def say(text: str = "") -> None:
        print(text, file=out, flush=True)

    say(HELP)
    while True:
        say()
        say(str(p))
        if p.over:
            say("(u = undo, q = quit)")
        out.write("> ")
        out.flush()
        line = inp.readline()
        if not line:                      # end of input
            say()
            return 0
        cmd = line.strip().lower()
        if not inp.isatty():              # a transcript reads like the session it was
            say(cmd)
        try:
            if cmd in ("q", "quit", "exit"):
                return 0
            if cmd in ("u", "undo"):
                p.undo()
                say("undone")
            elif cmd in ("g", "grundy"):
                o = p.grundy_move()
                say(f"grundy plays: {o.label}")
            elif cmd.isdigit():
                n = len(p.solver.options(p.position))
                if not 1 <= int(cmd) <= n:
                    raise InputError("move", f"no move number {cmd}: the moves are numbered 1..{n}"
                                     if n else "no move left: the game is over")
                p.move(int(cmd) - 1)
                say(f"you play: {p.history[-1][0]}")
            elif cmd in ("", "h", "help", "?"):
                say(HELP)
            else:
                say(f"? {cmd!r}: {HELP}")
        except InputError as e:
            say(f"! {e.problem}")


def __getattr__(name: str) -> type:
    if name == "Play":             # renamed in 0.3: grundy.spec.Play is a strategy's case
        import warnings
        warnings.warn("grundy.tools.play.Play is deprecated: it is Session now", DeprecationWarning, stacklevel=2)
        return Session
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
