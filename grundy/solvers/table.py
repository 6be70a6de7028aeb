"""The table of one game on one structure: its compiled rules, its memo tables, its kernels and
the premises of its reductions (asked once, see :meth:`grundy.solvers.solver.Solver.establish`)."""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from itertools import islice
from typing import Any

from ..errors import RuleError
from ..spec.game import Rules
from .explicit.compile import Compiled, State, _moves_key, compile_rules, unchanged
from .native.kernel import Kernel
from .premises import PROVED, Premise

__all__ = ["Table", "Stores", "relation_key", "REACH_SAMPLE", "IN_REACH"]

REACH_SAMPLE = 256      # stored positions :meth:`Table.reach` looks at (the last ones, values first)
IN_REACH = 0.1          # the share of them that must split for decomposition to be in reach


def _domain_violation(t: "Table", state: State) -> RuleError:
    """The kernel stopped at a move leaving a field's domain from ``state``: the Python path,
    generated from the same plan, names the move (one message for both)."""
    try:
        t.code.successors(state)
    except RuleError as e:
        return e
    return RuleError(f"{t.rules.game.name}: a move leaves a field's domain at {t.rules.describe(state)}")


class Stores:
    """The Python search's memo tables, shared between the tables of one solver whose rules
    have the same move relation: a game that keeps its structure in the state (vertexnim's
    adjacency) has the same moves on every graph of n vertices, and one graph's positions are
    reached from many others. Keyed by :func:`relation_key` (the moves, by node identity, and
    the slots with their domains: what the successors of a state are made of); every entry is
    the value of the state it is stored under, computed from that state's own moves (or by a
    reduction whose premise was proved on the same move relation), so it holds on every table
    with that key. The last ``limit`` move relations used are kept.

    >>> from grundy.caches import release
    >>> release()         # a fresh intern table: the key compares nodes by identity, and a table
    >>> from grundy.spec.games import get_game        # restarted between the two rules differs
    >>> from grundy.spec import Structure
    >>> game = get_game("vertexnim")
    >>> path, star = Structure.graph(range(3), [(0, 1), (1, 2)]), Structure.graph(range(3), [(0, 1), (0, 2)])
    >>> relation_key(game.rules(path)) == relation_key(game.rules(star))   # adjacency is state
    True
    """

    def __init__(self, limit: int):
        self.limit = limit
        self._by_key: dict[tuple, tuple[Rules, dict, dict, dict]] = {}
        self.vm: dict[tuple, Any] = {}     # the interpreter's tables (native/vm.py), by move relation, box, mode

    VM_LIMIT = 8                           # ... the last this many used are kept

    def keep_vm(self, key: tuple, k: Any) -> None:
        """Keep the interpreter's table ``k`` under ``key`` (:func:`relation_key`, its box and
        mode: every value it stores is that of its state under these moves)."""
        while len(self.vm) >= self.VM_LIMIT:
            del self.vm[next(iter(self.vm))]
        self.vm[key] = k

    def share(self, t: "Table") -> None:
        """Give ``t`` the memo tables of its move relation (its own, if it is the first or has
        stored something already)."""
        if t.grundy or t.misere_grundy or t.wins:
            return
        key = relation_key(t.rules)
        hit = self._by_key.pop(key, None)      # popped and put back: the order is the order of use
        if hit is None:
            hit = (t.rules, t.grundy, t.misere_grundy, t.wins)     # the rules keep the key's nodes alive
            while len(self._by_key) >= self.limit:
                del self._by_key[next(iter(self._by_key))]
        self._by_key[key] = hit
        t.grundy, t.misere_grundy, t.wins = hit[1], hit[2], hit[3]


def relation_key(rules: Rules) -> tuple:
    """What the successors of a state depend on: each move's guard, choices, updates and fit
    (node ids: the IR is hash-consed, so equal ids are equal expressions while the nodes live),
    the slots' variables and their domains."""
    key = _moves_key(rules)[0]
    fits = tuple(None if m.fits is None else id(m.fits[0]) for m in rules.moves)
    return (key, fits, tuple(rules.schema.fields[f].sort for f, _ in rules.schema.slots))


@dataclass
class Table:
    """Compiled rules and the memo tables of one game on one structure.

    ``symmetry`` and ``decompose``: whether the solver allows these reductions; they are used
    only once their premises are proved on this structure (:meth:`Solver.establish`):
    until then the table is solved from the moves alone."""

    rules: Rules
    symmetry: bool
    decompose: bool
    grundy: dict[State, int] = field(default_factory=dict)
    misere_grundy: dict[State, int] = field(default_factory=dict)     # misère Grundy values
    wins: dict[tuple[str, State], bool] = field(default_factory=dict)  # (convention, state) -> mover wins
    kernels: dict[int, Kernel] = field(default_factory=dict)          # native tables by mode
    native: bool = True                                                # False once the kernel cannot serve
    in_use: bool = False                                               # the kernel serves this table
    py_stored: int = 0                                                 # positions the Python path stored
    full_group: bool = True        # the Python path canonicalizes under S_n (K_n, edgeless graphs)
    premises: dict[str, Premise] = field(default_factory=dict)        # asked once (see Solver.establish)
    asked: bool = False            # every premise the solver allows was asked
    ask_after: int = 0             # the Python path asks again once it has stored more (0: the solver's)
    noted: set[tuple[int, str]] = field(default_factory=set)          # (a log's serial, engine) noted there
    stores: "Stores | None" = field(default=None, repr=False, compare=False)  # the solver's, by move relation
    shared: bool = False           # the memo tables were looked up in ``stores`` (on the first compile)
    would: "Compiled | None" = field(default=None, repr=False, compare=False)  # reach's, for code to take

    @property
    def symmetric(self) -> bool:
        """Symmetry reduction is in use: allowed, and its premise proved on this structure."""
        p = self.premises.get("symmetry")
        return self.symmetry and p is not None and p.status == PROVED

    @property
    def decomposed(self) -> bool:
        """Positions split into components: allowed, and the premise proved on this structure."""
        p = self.premises.get("decomposition")
        return self.decompose and p is not None and p.status == PROVED

    def reach(self, kinds: list[str]) -> list[str]:
        """Those of ``kinds`` (``"symmetry"``, ``"decomposition"``) that the Python search would
        reduce by here, were their premises proved: symmetry where its canonical form uses the
        group (not where the group is too large to list, K_n, K_{m,n}: the kernel reduces by it
        there); decomposition where at least :data:`IN_REACH` of the last :data:`REACH_SAMPLE`
        positions stored split into components, by the functions compiled as they would be
        (nothing is reduced here: the premises decide that)."""
        would = self.would = compile_rules(self.rules, True, True, full_group=self.full_group)
        out = [k for k in kinds if k == "symmetry" and would.canonical is not unchanged]
        if "decomposition" in kinds:
            sample = [*islice(reversed(self.grundy), REACH_SAMPLE), *islice(reversed(self.misere_grundy), REACH_SAMPLE),
                      *(s for _, s in islice(reversed(self.wins), REACH_SAMPLE))][:REACH_SAMPLE]
            if sum(would.components(s) is not None for s in sample) >= IN_REACH * max(1, len(sample)):
                out.append("decomposition")
        return out

    @cached_property
    def code(self) -> Compiled:
        """The Python functions (compiled when the Python path first needs them, and again
        when a reduction's premise is proved: the functions :meth:`reach` compiled, when both
        were). On the first compile, the memo tables become those of every table of the solver
        with the same move relation (:class:`Stores`)."""
        code, self.would = self.would, None
        if code is None or not (self.symmetric and self.decomposed):
            code = compile_rules(self.rules, self.symmetric, self.decomposed, full_group=self.full_group)
        if not self.shared and self.stores is not None:
            self.shared = True
            self.stores.share(self)
        return code
