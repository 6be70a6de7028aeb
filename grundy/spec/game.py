"""Games as guarded commands.

A game lists its fields and, for a given structure, its moves. A move is a
structural choice made by the Python loop that yields it, numeric choices
(intervals given by expressions), a guard and an update. Nothing else defines
the game: both solvers read only what :meth:`Game.rules` returns.

>>> from grundy.spec.games import get_game
>>> from grundy.spec.structure import Structure
>>> r = get_game("nim").rules(Structure.heaps(2))
>>> [m.label for m in r.moves]
['take {k} from heap 1', 'take {k} from heap 2']
"""
from __future__ import annotations

import inspect
import threading
import weakref
from dataclasses import dataclass
from functools import cached_property
from typing import Any, Callable, Hashable, Iterable, Sequence

from ..caches import register
from ..errors import RuleError
from .expr import Expr, Term, Var, lift, show
from .ops import BOOL, INT
from .order import game_moves, moves_part
from .schema import Field, Schema, SymState, domain_keys
from .structure import Structure

MAX_SYMMETRIES = 256  # larger automorphism groups are not used for symmetry reduction
MAX_SYMMETRY_VERTICES = 64  # nor are the groups of larger graphs (finding them costs more than they save)
RULES_CACHE = 128  # structures whose Rules a game keeps (the last used): bounded memory over a sweep
_RULES_LOCK = threading.Lock()
_WITH_RULES: "weakref.WeakSet[Game]" = weakref.WeakSet()   # the games holding cached Rules


def _clear_rules() -> None:
    with _RULES_LOCK:
        for game in list(_WITH_RULES):
            game.__dict__.pop("_rules", None)
            game.__dict__.pop("_rules_last", None)


register("rules", lambda: sum(len(g.__dict__.get("_rules", ())) for g in list(_WITH_RULES)), _clear_rules)


@dataclass(frozen=True)
class Choice:
    """A numeric choice ``lo <= var <= hi``."""

    var: Var
    lo: Expr
    hi: Expr

    @property
    def name(self) -> str:
        return self.var.name


@dataclass
class Move:
    """One guarded command: legal when ``guard`` holds for some choice values; ``update`` gives new slot values."""

    label: str
    guard: Expr
    update: dict[int, Expr]
    choices: tuple[Choice, ...] = ()
    fits: "tuple[Expr, str] | None" = None   # (where the result fits the structure, why not elsewhere):
    # a legal move that does not fit writes a value outside a field's domain (an error, never dropped)


def _call(f: Any, args: list[Var]) -> Any:
    return f(*args) if callable(f) else f


def move(label: str, *, update: Any, guard: Any = True,
         choose: Iterable[tuple[str, Any, Any]] = ()) -> Move:
    """Build a move.

    ``choose`` is a list of ``(name, lo, hi)`` numeric choices (inclusive bounds; a bound
    may be a function of the choices before it). ``guard`` and ``update`` are a value or
    a function of the choice variables, in order.

    Parameters
    ----------
    label : str
        What the move is called in listings; ``{name}`` shows a choice's value.
    update : dict or callable
        The slots the move changes and their new values (expressions of the state and the
        choices), or a function of the choices returning that dict.
    guard : bool, Expr or callable
        When the move is legal (default: always).
    choose : list of (str, lo, hi)
        Numeric choices, each bound an expression or a function of the choices before it.

    Raises
    ------
    TypeError
        A guard that is not boolean, or an update that is not an expression, int or bool.

    Examples
    --------
    >>> from grundy.spec import Var
    >>> h = Var.int("h")
    >>> m = move("take {k}", choose=[("k", 1, h)], update=lambda k: {0: h - k})
    >>> m.label, [str(c.name) for c in m.choices]
    ('take {k}', ['k'])
    """
    vars_: list[Var] = []
    choices: list[Choice] = []
    for name, lo, hi in choose:
        lo_e, hi_e = lift(_call(lo, vars_)), lift(_call(hi, vars_))
        v = Var.int(name)
        choices.append(Choice(v, lo_e, hi_e))
        vars_.append(v)
    g = lift(_call(guard, vars_))
    if g.sort != BOOL:
        raise TypeError(f"move {label!r}: the guard must be a boolean expression, got {show(g)}")
    updates: dict[Any, Expr] = {}
    for slot, v in dict(_call(update, vars_)).items():
        try:
            updates[slot] = lift(v)
        except TypeError:
            raise TypeError(f"move {label!r}: the update of {slot!r} must be an expression, an int or a "
                            f"bool, got {type(v).__name__} {v!r}") from None
    return Move(label, g, updates, tuple(choices))


class Game:
    """Base class of a game: subclass it in a game file of your own (registered with
    ``--games``, ``GRUNDY_GAMES``, an entry point or ``Claim(game=obj)``; see
    docs/writing-games.md) or, for a built-in game, in one file of ``grundy/spec/games``.
    :class:`~grundy.spec.HeapGame` and :class:`~grundy.spec.GraphGame` do most of the work
    for games on heaps and for games that delete vertices.

    Set ``name``, ``summary`` (the rules in words), ``structure`` (``"graph"``,
    ``"digraph"`` or ``"heaps"``) and implement :meth:`fields`, :meth:`moves`,
    :meth:`rank`, :meth:`read` and :meth:`write`.

    Attributes
    ----------
    name, summary : str
        The name positions and claims give (``{"game": name}``), and the rules in words.
    structure : {"graph", "digraph", "heaps"}
        What the game is played on.
    convention : {"normal", "misere"}
        The default convention of its positions and claims.
    symmetric : bool
        Declared: the structure's automorphisms are symmetries (a premise Z3 proves on each
        structure before the solver reduces by it).
    decompose_over : {"vertices", "edges", "heaps"} or None
        Declared: positions split into independent components (proved likewise).
    heap_count : int or None
        Heap games: the only number of heaps it is played on.
    moves_per_order : bool
        :meth:`moves` reads only the structure's order: built once per order (:mod:`~grundy.spec.order`).

    Examples
    --------
    >>> from grundy.spec import Structure, get_game
    >>> nim = get_game("nim")
    >>> nim.structure, len(nim.rules(Structure.heaps(2)).moves) > 0
    ('heaps', True)
    """

    name: str = ""
    summary: str = ""
    structure: str = "graph"
    convention: str = "normal"
    symmetric: bool = True               # structure automorphisms (heaps: permutations) are symmetries
    decompose_over: str | None = None    # "vertices", "edges" or "heaps": independent components
    heap_count: int | None = None        # heap games: the only number of heaps it is played on
    moves_per_order: bool = False        # moves() reads only the structure's Order: built once per order

    def fields(self, g: Structure) -> list[Field]:
        raise NotImplementedError

    def moves(self, g: Structure, s: SymState) -> Iterable[Move]:
        raise NotImplementedError

    def rank(self, g: Structure, s: SymState) -> Term:
        """A non-negative integer that every move strictly lowers."""
        raise NotImplementedError

    def present(self, g: Structure, s: SymState, x: int) -> Term:
        """With ``decompose_over``: whether element x takes part in the position."""
        raise NotImplementedError

    def decomposable(self, g: Structure, s: SymState) -> Term:
        """With ``decompose_over``: when the components really are independent."""
        return True

    def picture(self, obj: dict[str, Any]) -> tuple[str, Any]:
        """How a report draws a JSON position of this game: ``("bars", heights)`` for heaps,
        ``("graph", obj)`` for a graph with weights and a token (override for other pictures)."""
        if self.structure == "heaps":
            return "bars", list(obj.get("heaps", []))
        return "graph", obj

    def heap_rule(self, g: Structure) -> Any:
        """A capability the solver asks of every game: when positions on ``g`` are sums of
        single heaps played by one rule, a :class:`~grundy.spec.heaprule.OneHeap` (the
        solver then adds one-heap values by XOR); None otherwise."""
        return None

    def read(self, obj: dict[str, Any]) -> tuple[Structure, dict[str, Any]]:
        """A JSON position to a structure and field values (raise InputError on bad input)."""
        raise NotImplementedError

    def write(self, g: Structure, values: dict[str, Any]) -> dict[str, Any]:
        """Field values back to a JSON position (without "game")."""
        raise NotImplementedError

    # derived ------------------------------------------------------------------
    def rules(self, g: Structure) -> "Rules":
        """The game's moves on one structure, as IR (cached: the ``RULES_CACHE`` structures
        used last, so that a sweep over many structures keeps flat memory). A structure of
        another kind than the game's, or another number of heaps than its ``heap_count``, is
        a RuleError: every path (families, solvers, Z3) gets its rules here.

        >>> from grundy.spec.games import get_game
        >>> get_game("wythoff").rules(Structure.heaps(3))
        Traceback (most recent call last):
        ...
        grundy.errors.RuleError: wythoff is played on exactly 2 heaps, not 3
        >>> nim = get_game("nim")
        >>> nim.rules(Structure.heaps(2)) is nim.rules(Structure.heaps(2))
        True
        """
        last = self.__dict__.get("_rules_last")    # a batch on one structure: the same object
        if last is not None and last[0] is g and last[1] == g.names:
            hit: Rules = last[2]
            return hit
        cache: dict[Structure, Rules] = self.__dict__.setdefault("_rules", {})
        _WITH_RULES.add(self)
        key = g                  # structures are equal only with the same names (move labels use them)
        with _RULES_LOCK:
            r = cache.pop(key, None)   # popped and put back: the dict's order is the order of use
        if r is None:
            self.check_structure(g)
            r = Rules(self, g)
        with _RULES_LOCK:
            while len(cache) >= RULES_CACHE:
                del cache[next(iter(cache))]      # the least recently used
            cache[key] = r
        self.__dict__["_rules_last"] = (g, list(g.names), r)
        return r

    def check_structure(self, g: Structure) -> None:
        """RuleError unless the game is played on ``g``: its kind, and ``heap_count`` heaps."""
        heaps = self.structure == "heaps"
        if heaps != (g.kind == "heaps"):
            raise RuleError(f"{self.name} is played on {'heaps' if heaps else 'a ' + self.structure}, "
                            f"not on {'heaps' if g.kind == 'heaps' else 'a ' + g.kind}")
        n = self.heap_count
        if heaps and n is not None and g.n != n:
            raise RuleError(f"{self.name} is played on exactly {n} heap{'s' * (n != 1)}, not {g.n}")

    def check_structures(self) -> list[Structure]:
        """Small structures on which ``grundy check`` tests the game's declared properties
        (override to suit a game whose structures carry more, as octal codes do)."""
        if self.structure == "heaps":
            return [Structure.heaps(self.heap_count)] if self.heap_count else [Structure.heaps(n) for n in (1, 2, 3)]
        if self.structure == "digraph":
            return [Structure.graph(range(3), [(0, 1), (1, 2), (2, 0)], directed=True),
                    Structure.graph(range(3), [(0, 1), (1, 0), (1, 2), (2, 0)], directed=True)]
        return [Structure.graph(range(3), [(0, 1), (1, 2)]),                    # a path
                Structure.graph(range(4), [(0, 1), (1, 2), (2, 3), (0, 3)]),    # a cycle
                Structure.graph(range(4), [(0, 1), (0, 2), (0, 3)]),            # a star
                Structure.graph(range(4), [(0, 1), (1, 2), (0, 2), (2, 3)]),    # a triangle and a pendant
                Structure.graph(range(4), [(u, v) for u in range(4) for v in range(u + 1, 4)])]  # K_4

    def sized(self, g: Structure, state: tuple[int, ...]) -> tuple[Structure, tuple[int, ...]]:
        """The structure and state on which the position ``state`` of ``g`` is solved: itself,
        unless the game's moves from there may need more room than ``g`` has (a
        :class:`~grundy.spec.HeapRule` on too few heap slots: the slots reading its JSON gives).

        >>> from grundy.spec.games import get_game
        >>> g, st = get_game("lasker-nim").sized(Structure.heaps(1), (3,))
        >>> g.n, st
        (4, (3, 0, 0, 0))
        >>> get_game("nim").sized(Structure.heaps(1), (3,))[0] == Structure.heaps(1)
        True
        """
        return g, state

    def check_positions(self) -> list[dict[str, Any]]:
        """JSON positions from which ``grundy check`` tests the game instead of boxes of states
        on ``check_structures()`` (for games whose states mean something only when reached
        from a position read, as octal heaps laid out on enough slots)."""
        return []

    def source(self) -> str:
        """The text of the game's rule (for ``grundy games``)."""
        return inspect.getsource(type(self).moves)


class Rules:
    """A game instantiated on a structure: schema, symbolic moves, rank, symmetries, components."""

    def __init__(self, game: Game, g: Structure):
        self.game, self.structure = game, g
        self.schema = Schema(g, game.fields(g))
        self.state = self.schema.symbolic()

    # built when first needed: reading a position needs only the schema (a heap of 20,000 tokens
    # of a splitting rule has 32,768 slots, and a rank of as many terms)
    @cached_property
    def rank(self) -> Expr:
        """The rank: an integer expression every move lowers."""
        rank = lift(self.game.rank(self.structure, self.state))
        if rank.sort != INT:
            raise TypeError(f"{self.game.name}: the rank must be an integer expression")
        return rank

    @cached_property
    def present(self) -> list[Expr] | None:
        """Per component element, whether it is present (None: the game does not decompose)."""
        if not self.game.decompose_over:
            return None
        return [lift(self.game.present(self.structure, self.state, x)) for x in self.component_elements]

    @cached_property
    def decomposable(self) -> Expr:
        """Where the position splits into components."""
        return lift(self.game.decomposable(self.structure, self.state)) if self.game.decompose_over else lift(True)

    @cached_property
    def moves(self) -> list[Move]:
        """The moves, built when first needed (reading a position needs only the schema)."""
        self._shared_moves, moves = game_moves(self.game, self.structure, self.state)   # (per order: shared)
        names = set(self.schema.fields)
        for c in (c for m in moves for c in m.choices):
            if c.name in names or "[" in c.name:
                raise ValueError(f"{self.game.name}: choice name {c.name!r} clashes with a field")
        return moves

    @cached_property
    def slot_domains(self) -> list[tuple[int, int | None] | None]:
        """Per slot, the values its field allows: (least, greatest or None), None for a bool."""
        out: list[tuple[int, int | None] | None] = []
        g = self.structure
        for name, _ in self.schema.slots:
            f = self.schema.fields[name]
            out.append(None if f.kind == "bool" else (f.lower, None) if f.kind == "int" else
                       (0, g.n - 1) if f.kind == "vertex" else (-1, len(g.edges) - 1))
        return out

    @cached_property
    def moves_key(self) -> tuple[tuple[Any, ...], list[Any]]:
        """The moves by node identity (each move's label, guard, choices and updates), the
        slots' variables and their domains: equal keys, equal moves, while the nodes live (the
        IR is hash-consed); and the nodes the key names, for whoever keeps the key past these rules."""
        key, keep = moves_part(self.moves, self._shared_moves)
        return ("moves", key, tuple(self.schema.slot_by_var.items()), tuple(self.slot_domains)), keep

    def describe(self, state: tuple[int, ...]) -> str:
        """A state as JSON (the game's ``write``), or slot by slot when ``write`` cannot show it."""
        import json
        try:
            return json.dumps(self.game.write(self.structure, self.schema.unpack(state)))
        except Exception:   # a state the game's write does not expect: every slot shown
            return "{" + ", ".join(f"{self.schema.var_name(i)}: {v}" for i, v in enumerate(state)) + "}"

    def move_text(self, mi: int, choice_values: tuple[int, ...]) -> str:
        """Move ``mi``'s label with its choice values filled in."""
        m = self.moves[mi]
        try:
            return m.label.format(**{c.name: v for c, v in zip(m.choices, choice_values, strict=False)})
        except (KeyError, IndexError, ValueError):
            return m.label

    def domain_error(self, mi: int, choice_values: tuple[int, ...], state: tuple[int, ...]) -> RuleError:
        """The one-line error for move ``mi`` (with these choices) taking a field out of its
        domain at ``state`` (found by evaluating the move's update)."""
        from .expr import evaluate
        m = self.moves[mi]
        env: dict[str, Any] = {self.schema.var_name(i): v for i, v in enumerate(state)}
        env.update({c.name: v for c, v in zip(m.choices, choice_values, strict=False)})
        if m.fits is not None and not evaluate(m.fits[0], env):
            return RuleError(f"{self.game.name}: move {self.move_text(mi, choice_values)!r} at "
                             f"{self.describe(state)} does not fit {self.structure.kind} on "
                             f"{self.structure.n}: {m.fits[1]}")
        for slot, e in sorted(m.update.items()):
            dom = self.slot_domains[slot]
            if dom is None:
                continue
            v = evaluate(e, env)
            if v < dom[0] or (dom[1] is not None and v > dom[1]):
                want = f">= {dom[0]}" if dom[1] is None else f"in {dom[0]}..{dom[1]}"
                return RuleError(f"{self.game.name}: move {self.move_text(mi, choice_values)!r} sets "
                                 f"{self.schema.var_name(slot)} to {v} (its domain: {want}) at "
                                 f"{self.describe(state)}")
        return RuleError(f"{self.game.name}: move {self.move_text(mi, choice_values)!r} leaves a "
                         f"field's domain at {self.describe(state)}")

    @cached_property
    def component_elements(self) -> list[int]:
        over = self.game.decompose_over
        return list(range(len(self.structure.edges))) if over == "edges" else list(range(self.structure.n))

    @cached_property
    def links(self) -> list[tuple[int, int]]:
        """Pairs of component elements that are linked when both are present."""
        g, over = self.structure, self.game.decompose_over
        if over == "vertices":
            return list(g.edges)
        if over == "edges":
            return [(i, j) for i, a in enumerate(g.edges) for j, b in enumerate(g.edges)
                    if i < j and set(a) & set(b)]
        return []

    @cached_property
    def element_slots(self) -> list[list[int]]:
        """For each component element, the slots that belong to it (restricted away outside its component)."""
        over = self.game.decompose_over
        out: list[list[int]] = [[] for _ in self.component_elements]
        for slot, (name, key) in enumerate(self.schema.slots):
            if self.schema.fields[name].over == over:
                assert isinstance(key, int)     # a vertex or an edge: the keys of fields over either are ints
                out[key].append(slot)
        return out

    @cached_property
    def symmetries(self) -> list[tuple[list[int], list[Callable[[int], int] | None]]]:
        """Slot permutations (with value maps for vertex/edge-valued slots) induced by the
        structure's automorphisms (:attr:`automorphisms`, in that order); the identity first.
        Heaps: see ``heap_sorting``."""
        return [self.slot_action(sigma) for sigma in self.automorphisms]

    @cached_property
    def automorphisms(self) -> list[tuple[int, ...]]:
        """The automorphisms the solver reduces by (identity first; none for heaps or ``symmetric =
        False``); over ``MAX_SYMMETRIES``, a subgroup (``Structure.stabiliser_at_most``; the premise
        is proved for its generators), but none where all permutations are (the S_n plan)."""
        g = self.structure
        if not self.game.symmetric or g.kind == "heaps" or g.n > MAX_SYMMETRY_VERTICES:
            return []
        auts = g.automorphisms_at_most(MAX_SYMMETRIES)
        if auts is None and not g.every_permutation:
            auts = g.stabiliser_at_most(MAX_SYMMETRIES)
        return [tuple(a) for a in auts] if auts is not None else []

    def slot_action(self, sigma: tuple[int, ...]) -> tuple[list[int], list[Callable[[int], int] | None]]:
        """How the vertex permutation ``sigma`` (an automorphism of the structure) acts on
        states: slot ``i`` goes to slot ``perm[i]``, its value mapped by ``vmaps[i]`` (vertex-
        and edge-valued slots; None: unchanged).

        >>> from grundy.spec.games import get_game
        >>> path = Structure.graph(range(3), [(0, 1), (1, 2)])
        >>> perm, vmaps = get_game("edge-nim").rules(path).slot_action((2, 1, 0))
        >>> perm, vmaps[2](0)                   # weights of 01, 12 swap; the token on 0 goes to 2
        ([1, 0, 2], 2)
        """
        g = self.structure
        emap = [g.edge_id(*_orient(g, sigma[u], sigma[v])) for u, v in g.edges]
        perm: list[int] = [0] * len(self.schema)
        vmaps: list[Callable[[int], int] | None] = [None] * len(self.schema)

        def edge_image(e: int, emap: list[int] = emap) -> int:
            return -1 if e < 0 else emap[e]
        for slot, (name, key) in enumerate(self.schema.slots):
            f = self.schema.fields[name]
            perm[slot] = self.schema.slot_of[self.schema.key(name, _image(f.over, key, sigma, emap))]
            if f.kind == "vertex":
                vmaps[slot] = tuple(sigma).__getitem__
            elif f.kind == "edge":
                vmaps[slot] = edge_image
        return perm, vmaps

    @cached_property
    def heap_sorting(self) -> bool:
        """Heap games whose heaps form a multiset: canonical form = sorted heaps."""
        return (self.game.symmetric and self.structure.kind == "heaps"
                and all(f.over == "heaps" and f.kind == "int" for f in self.schema.fields.values())
                and len(self.schema.fields) == 1)


def _orient(g: Structure, u: int, v: int) -> tuple[int, int]:
    return (u, v) if g.directed else (min(u, v), max(u, v))


def _image(over: str | None, key: Hashable, sigma: Sequence[int], emap: Sequence[int]) -> Hashable:
    if over is None:
        return None
    if over == "vertices":
        assert isinstance(key, int)         # domain_keys: a vertex
        return sigma[key]
    if over == "edges":
        assert isinstance(key, int)         # domain_keys: an edge id
        return emap[key]
    if over in ("pairs", "opairs"):
        assert isinstance(key, tuple)       # domain_keys: a pair of vertices
        return (sigma[key[0]], sigma[key[1]])
    return key


def field_keys(g: Structure, f: Field) -> list[Hashable]:
    return domain_keys(g, f.over)
