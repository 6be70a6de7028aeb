"""Check what a game declares about itself: ``grundy check``, the user's tool.

A game states properties: its heap count, that every update stays in its field's domain, that
every move lowers the rank (which is never negative), that the structure's automorphisms
(heaps: permutations) are symmetries of the rule, and that a position splits into
independent components (``decompose_over``). The solvers take none of them on trust (the heap
count and the domains are checked on every path, the reductions are used only where their
premises are proved: :mod:`grundy.solvers.premises`); :func:`check_game` checks each of them on
chosen structures, for the author, and reports, per property, ``ok`` (with what was covered),
``violated`` (the first violation, one line naming the game, the move, the field and the
position), ``unknown`` or ``not declared``.

How each is checked, per structure:

- **heap count**: the structure is refused by ``Game.rules`` on every path (families,
  solvers, Z3) unless it has ``heap_count`` heaps; checked by asking for one more heap.
- **domains** and **rank**: exhaustively on the positions checked (every move made, its
  result tested), and by Z3 over unbounded integers (every size) when ``smt`` is on.
- **symmetry**: exhaustively: for every position checked and every generator of the group the
  solver would reduce by (:func:`grundy.solvers.premises.symmetry_group`), the options of the
  image are the images of the options, up to symmetry; and by Z3 (``smt``), the premise the
  solver proves before reducing (:func:`grundy.solvers.premises.prove_symmetry`).
- **decomposition**: exhaustively: at every position checked that splits into components,
  the Grundy value computed from the moves equals the XOR of the components' values (each
  from the moves too); a mismatch names a move of the whole position that is no move of a
  single component, or the reverse; and by Z3 (``smt``), the premise the solver proves before
  splitting (:func:`grundy.solvers.premises.prove_decomposition`).

The positions checked: every state of a small box (each numeric field from its least value
to ``bound``; vertex, edge and bool fields over their whole domain; at most ``max_states``,
else a seeded sample, said so) and every position reachable from them (at most
``max_states`` more).

>>> r = check_game("nim", [Structure.heaps(2)], bound=4, smt=False)
>>> [(c.property, c.status) for c in r.checks]
[('heap count', 'not declared'), ('domains', 'ok'), ('rank', 'ok'), ('symmetry', 'ok'), ('decomposition', 'ok')]
>>> r.ok
True
"""
from __future__ import annotations

import itertools
import json
import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

from .. import hooks
from ..errors import GrundyError, RuleError, user_line
from ..spec.game import Game, Rules
from ..spec.games import get_game
from ..spec.position import Position
from ..spec.structure import Structure
from . import premises
from .property_checks import (
    NOT_DECLARED,
    OK,
    UNKNOWN,
    VIOLATED,
    MakeSolver,
    MovesSolver,
    _decomposition,
    _merge,
    _rank_violation,
    _smt,
    _smt_violation,
    _symmetry,
)

__all__ = ["PropertyCheck", "GameReport", "check_game", "check_structure", "default_structures", "parse_structure",
           "fitting_structures", "describe_structure", "MakeSolver", "MovesSolver", "OK", "VIOLATED",
           "UNKNOWN", "NOT_DECLARED", "_smt_violation"]

State = tuple[int, ...]


def _installed() -> MakeSolver:
    """The factory provided from above (the hook ``make_solver``, :class:`grundy.Solver`):
    gamecheck imports no solver class."""
    make = hooks.get("make_solver")
    if make is None:
        raise RuntimeError("no solver factory provided: pass make_solver, or import grundy")
    return make



@dataclass
class PropertyCheck:
    """The outcome of checking one property on one structure."""

    property: str        # "heap count", "domains", "rank", "symmetry", "decomposition"
    status: str          # ok | violated | unknown | not declared
    structure: str       # the structure's description
    detail: str          # what was covered, or the first violation (one line)


@dataclass
class GameReport:
    """Every property checked for one game."""

    game: str
    checks: list[PropertyCheck] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)     # default structures the game cannot be played on

    @property
    def ok(self) -> bool:
        """No property violated (and none left unknown)."""
        return all(c.status in (OK, NOT_DECLARED) for c in self.checks)

    @property
    def violations(self) -> list[PropertyCheck]:
        return [c for c in self.checks if c.status == VIOLATED]

    def lines(self) -> list[str]:
        """One line per property and structure."""
        w = max((len(c.structure) for c in self.checks), default=0)
        return ([f"{c.structure:<{w}}  {c.property:<14} {c.status:<13} {c.detail}" for c in self.checks]
                + [f"not checked on {why}" for why in self.skipped])


# ------------------------------------------------------------------------------ structures
def describe_structure(g: Structure) -> str:
    """``2 heaps``, ``graph n=4 m=3`` (and what a structure subclass adds, e.g. a code)."""
    import dataclasses
    base = {f.name for f in dataclasses.fields(Structure)}
    extra = ""
    for f in dataclasses.fields(g):
        v = getattr(g, f.name)
        if f.name in base or v in ((), None, ""):
            continue
        if isinstance(v, tuple) and all(isinstance(x, tuple) and len(x) == 2 for x in v):
            extra += "".join(f" {k}={list(x) if isinstance(x, tuple) else x}" for k, x in v)   # parameters
        else:
            extra += f" {f.name}={v}"
    if g.kind == "heaps":
        return f"{g.n} heap{'s' * (g.n != 1)}{extra}"
    return f"{g.kind} n={g.n} m={len(g.edges)}{extra}"


def default_structures(game: Game) -> list[Structure]:
    """Small structures suited to the game: its own ``check_structures()`` (a game that gives
    ``check_positions()`` is checked from those instead)."""
    return list(game.check_structures())


def parse_structure(text: str) -> Structure:
    """A structure from a short text: ``heaps:N``, ``path:N``, ``cycle:N``, ``complete:N``,
    ``star:N`` (a centre and N leaves), ``dicycle:N`` (a directed cycle), or a JSON list of
    edges ``[[0,1],[1,2]]`` (vertices 0..max).

    >>> parse_structure("heaps:3").n, parse_structure("cycle:4").edges
    (3, [(0, 1), (0, 3), (1, 2), (2, 3)])
    """

    import networkx as nx
    text = text.strip()
    if text.startswith("["):
        try:
            edges = [tuple(e) for e in json.loads(text)]
            names = sorted({v for e in edges for v in e})
            return Structure.graph(names, edges)
        except (ValueError, TypeError) as e:
            raise GrundyError(f"structure {text!r}: not a JSON list of edges ({e})") from None
    kind, _, n = text.partition(":")
    makers: dict[str, Callable[[int], Structure]] = {
        "heaps": Structure.heaps,
        "path": lambda k: Structure.from_networkx(nx.path_graph(k)),
        "cycle": lambda k: Structure.from_networkx(nx.cycle_graph(k)),
        "complete": lambda k: Structure.from_networkx(nx.complete_graph(k)),
        "star": lambda k: Structure.from_networkx(nx.star_graph(k)),
        "dicycle": lambda k: Structure.graph(range(k), [(i, (i + 1) % k) for i in range(k)], directed=True),
    }
    if kind not in makers or not n.isdigit():
        raise GrundyError(f"structure {text!r}: write one of {', '.join(k + ':N' for k in makers)} "
                          f"or a JSON edge list")
    return makers[kind](int(n))


# ------------------------------------------------------------------------------ positions
def _box(rules: Rules, bound: int, max_states: int, seed: int = 0) -> tuple[list[State], str]:
    """States of a small box (int slots lower..lower+b, b <= bound), a sample when too many."""
    doms = rules.slot_domains
    fixed: list[list[int]] = []
    for d in doms:
        if d is None:
            fixed.append([0, 1])
        elif d[1] is not None:
            fixed.append(list(range(d[0], d[1] + 1)))
    n_int = sum(1 for d in doms if d is not None and d[1] is None)
    base = 1
    for v in fixed:
        base *= len(v)
    b = bound
    while b > 1 and base * (b + 1) ** n_int > max_states:
        b -= 1
    values = [[0, 1] if d is None else list(range(d[0], d[0] + b + 1)) if d[1] is None
              else list(range(d[0], d[1] + 1)) for d in doms]
    total = 1
    for v in values:
        total *= len(v)
    what = f"a box: numeric fields <= least + {b}"
    if total <= max_states:
        return [tuple(s) for s in itertools.product(*values)], what
    rnd = random.Random(seed)
    out = {tuple(rnd.choice(v) for v in values) for _ in range(max_states)}
    return sorted(out), f"{len(out):,} sampled of {total:,} states with {what}"


def _reachable(succ: Callable[[State], list[State]], starts: Iterable[State], limit: int) -> tuple[list[State], bool]:
    """The starts and what their moves reach (at most ``limit`` more); complete or not."""
    seen = dict.fromkeys(starts)
    frontier = list(seen)
    added = 0
    while frontier:
        nxt = []
        for s in frontier:
            for t in succ(s):
                if t not in seen:
                    if added >= limit:
                        return list(seen), False
                    seen[t] = None
                    added += 1
                    nxt.append(t)
        frontier = nxt
    return list(seen), True


# ------------------------------------------------------------------------------ the checks
def check_game(game: Game | str, structures: Sequence[Structure] | None = None, *, bound: int = 4,
               max_states: int = 3000, smt: bool = True, timeout: float = 5.0,
               positions: Iterable[Any] | None = None, make_solver: MakeSolver | None = None) -> GameReport:
    """Check every property ``game`` declares on ``structures`` (default: the game's
    ``check_structures()``) and return a :class:`GameReport`. ``positions``: JSON positions
    (or :class:`~grundy.spec.position.Position` objects) whose structures are checked too,
    starting from them. ``smt``: also ask Z3 about domains and rank (unbounded integers,
    ``timeout`` seconds per obligation). ``make_solver``: the solver factory of the
    decomposition check (default: the hook ``make_solver``, :class:`grundy.Solver`).

    Parameters
    ----------
    game : Game or str
        The game, or a registered game's name.
    structures : list of Structure, optional
        Where to check (default: the game's check positions, else ``check_structures()``).
    bound : int
        Field values up to this in the exhaustive checks.
    max_states : int
        States per structure at most in the exhaustive checks.
    smt : bool
        Also ask Z3 about domains and rank, ``timeout`` seconds per obligation.
    positions : iterable, optional
        Positions (JSON dicts or Position objects) whose structures are checked from them.

    Returns
    -------
    GameReport
        Each property's status (``ok``, ``violated`` with a witness, ``unknown``) and what
        was skipped; ``report.ok`` is True when nothing is violated.

    Raises
    ------
    grundy.errors.GrundyError
        The game cannot be played on a structure or position given (one line).

    Examples
    --------
    >>> check_game("nim", smt=False).ok
    True
    """
    g0 = get_game(game) if isinstance(game, str) else game
    report = GameReport(g0.name)
    if structures is None and positions is None:
        positions = [{"game": g0.name, **p} for p in g0.check_positions()] or None
        structures, report.skipped = ([], []) if positions else fitting_structures(g0)
    else:
        for g in structures or []:
            why = _unfit(g0, g)
            if why:
                raise GrundyError(f"{g0.name} cannot be played on {describe_structure(g)}: {why}")
    work: list[tuple[Structure, list[State] | None]] = [(g, None) for g in structures or []]
    starts: dict[Structure, list[State]] = {}
    for p in positions or []:
        pos = p if isinstance(p, Position) else _read(g0, p)
        why = _unfit(g0, pos.structure)
        if why:
            raise GrundyError(f"{g0.name} cannot be played on the position {p if isinstance(p, dict) else p.to_json()}: {why}")
        starts.setdefault(pos.structure, []).append(pos.state)
    work += list(starts.items())
    for g, from_states in work:
        report.checks.extend(check_structure(g0, g, from_states, bound=bound, max_states=max_states,
                                             smt=smt, timeout=timeout, make_solver=make_solver))
    return report


def _read(game: Game, obj: dict) -> Position:
    """A JSON position of ``game`` (its "game" key may be left out)."""
    try:
        structure, values = game.read({k: v for k, v in obj.items() if k != "game"})
        return Position(game, structure, game.rules(structure).schema.pack(values))
    except GrundyError:
        raise
    except Exception as e:        # the game's own code failing on it: one line, where it failed
        raise GrundyError(f"{game.name} cannot read the position {obj}: {_failure(e)}") from None


def _unfit(game: Game, g: Structure) -> str:
    """Why ``game`` cannot be played on ``g`` (its rules, moves and rank do not build there), or ""."""
    try:
        _ = game.rules(g).moves           # built on first use: here, so that a failure shows now
    except Exception as e:       # a RuleError (another kind, heap count) or the game's own code failing
        return _failure(e)
    return ""


def _failure(e: Exception) -> str:
    """An exception in one line: a GrundyError's text, else its type, text and where it was raised."""
    if isinstance(e, GrundyError):
        return str(e)
    return f"{type(e).__name__}: {e}{user_line(e)}"


def fitting_structures(game: Game) -> tuple[list[Structure], list[str]]:
    """The game's default check structures on which it can be played, and why each other one
    is left out; a GrundyError (one line) if none is left, asking for structures or
    ``check_positions()``.

    >>> [g.n for g in fitting_structures(get_game("nim"))[0]]
    [1, 2, 3]
    """
    fit, skipped = [], []
    for g in default_structures(game):
        reason = _unfit(game, g)
        if reason:
            skipped.append(f"{describe_structure(g)}: {reason}")
        else:
            fit.append(g)
    if not fit:
        raise GrundyError(f"{game.name} cannot be played on any of its default check structures ({skipped[0]}): "
                          f"give some (grundy check {game.name} STRUCTURE ..., or --position JSON), or "
                          f"define check_structures() or check_positions() in the game")
    return fit, skipped


def check_structure(game: Game, g: Structure, starts: list[State] | None = None, *, bound: int = 4,
                    max_states: int = 3000, smt: bool = True, timeout: float = 5.0,
                    make_solver: MakeSolver | None = None) -> list[PropertyCheck]:
    """The checks of :func:`check_game` on one structure."""
    name = describe_structure(g)
    out: list[PropertyCheck] = []

    def add(prop: str, status: str, detail: str) -> None:
        out.append(PropertyCheck(prop, status, name, detail))

    rules = game.rules(g)     # a structure the game is not played on: RuleError, one line
    # heap count: a row with one more heap must be refused
    if game.structure == "heaps" and game.heap_count is not None:
        try:
            game.rules(Structure.heaps(g.n + 1))
        except RuleError:
            add("heap count", OK, f"played on exactly {game.heap_count} heaps; {g.n + 1} heaps refused")
        else:
            add("heap count", VIOLATED, f"{game.name}: declares {game.heap_count} heaps but accepts {g.n + 1}")
    else:
        add("heap count", NOT_DECLARED, "any number of heaps" if game.structure == "heaps" else "not a heap game")

    from .explicit.compile import compile_rules
    plain = compile_rules(rules, symmetry=False, decompose=False)
    # the positions: a box (or the given starts) and what their moves reach
    if starts is None:
        starts, box_text = _box(rules, bound, max_states)
    else:
        box_text = f"{len(starts)} given position{'s' * (len(starts) != 1)}"
    try:
        states, complete = _reachable(plain.successors, starts, max_states)
    except RuleError as e:
        add("domains", VIOLATED, str(e))
        return out
    cover = (f"{len(states):,} positions ({box_text}, and all they reach"
             f"{'' if complete else ', cut at ' + format(max_states, ',') + ' more'})")

    # domains and rank: every move of every position checked, and Z3 for every size
    one_heap = getattr(game, "one_heap_rules", None) if game.heap_rule(g) is not None else None
    zres = _smt(rules, timeout, one_heap(g) if one_heap is not None else None) if smt else {}
    dom_bad = zres.get("domain", (None, ""))
    add("domains", *(_merge(None, dom_bad, cover, "every move's result is in its fields' domains")))
    rank_bad = _rank_violation(rules, plain, states)
    add("rank", *(_merge(rank_bad, zres.get("rank", (None, "")), cover,
                         "non-negative, and every move lowers it")))

    # symmetry: exhaustively up to symmetry, and by Z3 exactly (a Z3 violation that holds up
    # to symmetry at its position, as a rule that places a new heap in the first free slot, is
    # tested there and noted)
    status, detail = _symmetry(rules, plain, states, cover)
    if smt and status == OK:          # the premise the solver proves before it reduces by symmetry
        p = premises.prove_symmetry(rules)
        if p.status == premises.VIOLATED:
            again = _symmetry(rules, plain, [p.state] if p.state else [], "the position Z3 found")
            if again[0] == VIOLATED:
                status, detail = VIOLATED, p.violation
            else:
                detail += ("; Z3: the rule commutes only up to symmetry (the solver does not reduce by "
                           "it: slower, never wrong)")
        else:
            detail += f"; Z3: {p.how}"
    add("symmetry", status, detail)
    # decomposition: exhaustively, and by Z3 (the premise the solver proves before it splits)
    status, detail = _decomposition(rules, plain, states, cover, make_solver or _installed())
    if smt and status == OK and rules.present is not None:
        p = premises.prove_decomposition(rules)
        status, detail = (VIOLATED, p.violation) if p.status == premises.VIOLATED else (OK, f"{detail}; Z3: {p.how}")
    add("decomposition", status, detail)
    return out
