"""The symmetry premise's proof: each generator commutes with the rule (term for term, with no
Z3 query, :mod:`~grundy.solvers.premises.identity`; else Z3 on the matched move first, then on
any move), or the rule is symmetric by construction; violations replayed on the concrete rule."""
from __future__ import annotations

from typing import Any, Sequence

from ...errors import GrundyError
from ...spec.expr import Expr, Var, all_of, any_of, evaluate, ite, lift, not_
from ...spec.fingerprint import rules_digest
from ...spec.game import Rules
from ...spec.heaprule import HeapRule
from .base import _Z3, PROVED, REPLAY, UNKNOWN, VIOLATED, Proof, State, _compiled, _encoding, _samples
from .groups import Generator, Group


# ------------------------------------------------------------------------------ symmetry
def _uniform_heap_rule(rules: Rules) -> bool:
    """Whether the moves are :class:`~grundy.spec.HeapRule`'s own derivation (see
    :func:`grundy.solvers.heaps.sum_of_heaps`) and its ``options`` give every heap the same
    options (the one-heap form with ``n`` read as that heap). Then a permutation of the heaps
    permutes the positions the moves reach, up to the order of the heaps: the options of a
    position depend on its multiset of heaps only (parts go to empty slots, whichever), which
    is what sorted heaps, the canonical form, keep."""
    from ...spec.fingerprint import expr_digest
    from ..heaps import sum_of_heaps
    game, g = rules.game, rules.structure
    if sum_of_heaps(game, g) is None:
        return False
    assert isinstance(game, HeapRule)          # sum_of_heaps answers only for a HeapRule
    from ...spec.expr import free_vars
    try:
        base = list(game.options(g, Var.int("n")))
        for o in base:              # an option reads its heap and its own choices, nothing else
            names = {"n"} | {c.name for c in o.choices}
            exprs = [o.guard, *o.update.values(), *(x for c in o.choices for x in (c.lo, c.hi))]
            if any(not free_vars(lift(e)) <= names for e in exprs):
                return False
        for i in g.elements:
            h = rules.state.heap[i]
            mine = list(game.options(g, h))
            if len(mine) != len(base):
                return False
            for a, b in zip(base, mine, strict=False):
                if a.label != b.label or sorted(a.update) != sorted(b.update) or len(a.choices) != len(b.choices):
                    return False
                pairs = [(a.guard, b.guard)] + [(a.update[k], b.update[k]) for k in a.update]
                pairs += [(x, y) for ca, cb in zip(a.choices, b.choices, strict=False) if ca.name == cb.name
                          for x, y in ((ca.lo, cb.lo), (ca.hi, cb.hi))]
                if any(ca.name != cb.name for ca, cb in zip(a.choices, b.choices, strict=False)):
                    return False
                from ..smt.encode import substitute
                if any(expr_digest(substitute(lift(x), {"n": h})) != expr_digest(y) for x, y in pairs):
                    return False
    except Exception:            # noqa: BLE001  (options that cannot be built so: not by construction)
        return False
    return True


# (the rules' content but for the structure's edges and names, a generator) -> the Z3 resource
# units its proof used: a generator proved to commute with the same moves on another structure
# of the same size (vertexnim's moves read the adjacency from the state: every graph on n
# vertices has the same rules) is not proved again; its units are charged to the budget as
# if it were.
_PROVED: dict[tuple[str, str], int] = {}
_PROVED_MAX = 100_000


def _content(rules: Rules) -> str | None:
    """What a generator's proof reads of the rules (:func:`rules_digest` without the structure's
    edges and names: the moves' IR, the schema and the slots' domains); None if unreadable."""
    try:
        return rules_digest(rules, structure=False)
    except (TypeError, ValueError, GrundyError):
        return None


def _symmetry(rules: Rules, group: Group, budget: int) -> Proof:
    content: str | None = ""             # read when a generator needs Z3
    made: tuple | None = None            # (encoding, Z3, compiled rules): made when a generator needs them
    used = 0
    n = len(group.generators)
    by_z3 = 0                            # generators not shown by construction
    for gen in group.generators:
        if _by_identity(rules, gen):
            continue
        by_z3 += 1
        if content == "":
            content = _content(rules)
        key = None if content is None else (content, repr((gen.perm, gen.tables, gen.lows)))
        cost = _PROVED.get(key) if key is not None else None
        if cost is not None and used + cost <= budget:
            used += cost                 # proved before on the same moves
            continue
        try:
            if made is None:
                enc = _encoding(rules)
                made = (enc, _Z3(enc, budget), _compiled(rules))
            enc, z, code = made
            z.used = max(z.used, used)
            before = z.used
            status, detail, state = _commutes(rules, enc, z, code, gen)
        except Exception as e:   # noqa: BLE001  (a rule or an expression Z3 cannot take)
            return UNKNOWN, f"symmetry ({group.name}) not proved ({type(e).__name__}): not used", "", None
        if status == VIOLATED:
            return VIOLATED, f"symmetry ({group.name}) violated: not used", detail, state
        if status != PROVED:
            return UNKNOWN, f"symmetry ({group.name}) not proved ({detail}): not used", "", None
        used = z.used
        if key is not None:
            if len(_PROVED) >= _PROVED_MAX:
                _PROVED.clear()
            _PROVED[key] = z.used - before
    how = "by Z3" if by_z3 == n else "by construction" if not by_z3 else f"by construction and by Z3 ({by_z3})"
    return PROVED, f"symmetry ({group.name}) proved {how}, {n} generator{'s' * (n != 1)}", "", None


def _by_identity(rules: Rules, gen: Generator) -> bool:
    """Whether σ maps every move onto a move term for term (no Z3: see
    :mod:`grundy.solvers.premises.identity`); False also when the rule cannot be read so."""
    from .identity import commutes_by_identity
    maps: dict[tuple[int, int], tuple[Expr, Expr]] = {}     # (slot, id(e)) -> (e, its image)
    try:
        enc = _encoding(rules)
        def slot_image(i: int, e: Expr) -> Expr:
            t = gen.tables[i]
            if t is None:
                return e
            hit = maps.get((i, id(e)))       # a value map built once per expression (e kept alive)
            if hit is None:
                hit = maps[(i, id(e))] = (e, _value_map(e, t, gen.lows[i]))
            return hit[1]
        tables = {i: (gen.lows[i], t) for i, t in enumerate(gen.tables) if t is not None}
        return commutes_by_identity(enc, gen.perm, slot_image, tables)
    except Exception:            # noqa: BLE001  (a rule the encoding cannot take: left to Z3's path)
        return False


def _value_map(x: Expr, table: Sequence[int], lo: int) -> Expr:
    out = lift(table[-1])
    for v in range(len(table) - 2, -1, -1):
        out = ite(x == v + lo, table[v], out)
    return out


def _image_exprs(gen: Generator, vals: list[Expr]) -> list[Expr]:
    """The state σ(vals): slot perm[i] holds table_i(vals[i])."""
    out: list[Expr] = [lift(0)] * len(vals)
    for i, v in enumerate(vals):
        t = gen.tables[i]
        out[gen.perm[i]] = v if t is None else _value_map(v, t, gen.lows[i])
    return out


def _matches(rules: Rules, code, gen: Generator) -> dict[int, list[int]]:
    """For each move, the moves of the image position that reach the image of its result with
    the same choice values on every sample where it is legal (the candidates to prove)."""
    out: dict[int, set[int]] = {}
    for s in _samples(rules):
        for mi, found in _matched_at(code, gen, s).items():
            out[mi] = out[mi] & found if mi in out else found
    return {mi: sorted(c) for mi, c in out.items()}


def _matched_at(code, gen: Generator, s: State, only: tuple[int, tuple] | None = None) -> dict[int, set[int]]:
    """At one concrete state: for each move legal there (``only``: this move with these choices),
    the moves of the image position reaching the image of its result with the same choices."""
    try:
        mine = code.options(s)
        theirs: dict[tuple, set[int]] = {}
        for mj, cv, t in code.options(gen.image(s)):
            theirs.setdefault((tuple(cv), t), set()).add(mj)
    except Exception:            # noqa: BLE001  (a state the rule does not take: no information)
        return {}
    out: dict[int, set[int]] = {}
    for mi, cv, t in mine:
        if only is not None and (mi, tuple(cv)) != only:
            continue
        found = theirs.get((tuple(cv), gen.image(t)), set())
        out[mi] = out[mi] & found if mi in out else set(found)
    return out


def _commutes(rules: Rules, enc, z: _Z3, code, gen: Generator) -> tuple[str, str, State | None]:
    """Whether σ maps the result of every move into the moves of the image (see the module's
    docstring): the matched moves first, all in one quantifier-free query (then move by move if
    that fails), the full query for a move whose match is not proved."""
    from ..smt.rewrite import substituter
    names, var = enc.names, rules.schema.variables
    n = len(names)
    at_image = dict(zip(names, _image_exprs(gen, list(var)), strict=False))
    candidates = _matches(rules, code, gen)
    todo = []                   # (move, legal, target, candidates)
    for mv in enc.moves:
        ren: dict[str, Expr] = {new: Var.int(new + "!") for _, new, _, _ in mv.choices}
        renamed = substituter(ren)    # one memo for the guard and every slot's update
        legal = renamed(mv.legal)
        target = _image_exprs(gen, [renamed(mv.update.get(names[k], var[k])) for k in range(n)])
        cands = candidates.get(mv.index)
        if not cands:            # never legal on the samples: a state where it is, from Z3
            status, model = z.check([legal])
            if status == "unsat":
                continue         # never legal: nothing to map
            if status == "sat":
                cv = tuple(z.integer(model, new + "!") for _, new, _, _ in mv.choices)
                cands = sorted(_matched_at(code, gen, z.state(model), (mv.index, cv)).get(mv.index, ()))
        todo.append((mv, legal, target, list(cands or ())))
    made: dict[tuple[int, int], Expr | None] = {}     # (move, candidate) -> _match's formula, made once

    def match(mv, j: int, target: list[Expr]) -> Expr | None:
        key = (mv.index, j)
        if key not in made:
            made[key] = _match(enc, at_image, mv, enc.moves[j], target)
        return made[key]
    first = [(legal, match(mv, c[0], target)) for mv, legal, target, c in todo if c]
    matched = [(legal, ok) for legal, ok in first if ok is not None]
    if len(first) == len(todo) and len(matched) == len(first):
        if z.check([any_of([legal & not_(ok) for legal, ok in matched])])[0] == "unsat":
            return PROVED, "", None           # every move matched, in one query
    image_moves: list[tuple[Expr, list[Expr]]] | None = None      # each move at the image (full queries)
    for mv, legal, target, cands in todo:
        if any(_matched(z, match(mv, j, target), legal) for j in cands):
            continue
        if image_moves is None:
            imaged = substituter(at_image)
            image_moves = [(imaged(mj.legal), [imaged(mj.update.get(names[k], var[k])) for k in range(n)])
                           for mj in enc.moves]
        found = _full(rules, z, code, gen, mv, legal, target, image_moves)
        if found is not None:
            return found
    return PROVED, "", None


def _full(rules: Rules, z: _Z3, code, gen: Generator, mv, legal: Expr, target: list[Expr],
          image_moves: list[tuple[Expr, list[Expr]]]) -> tuple[str, str, State | None] | None:
    """The full query for one move: no move from the image reaches the image of its result, for
    any choices. None when Z3 proves it cannot happen, else (status, violation, position)."""
    from ..smt.encode import Exists
    n = len(target)
    items: list = [legal]
    for mj, (lg, up) in zip(z.enc.moves, image_moves, strict=False):
        body = all_of([lg] + [up[k] == target[k] for k in range(n)])
        items.append(~Exists(mj.names, body) if mj.names else not_(body))
    status, model = z.check(items, shrink=True)
    if status == "unsat":
        return None
    if status == "unknown":
        return UNKNOWN, "Z3 unknown within its resource limit", None
    state = z.state(model)
    cv = tuple(z.integer(model, new + "!") for _, new, _, _ in mv.choices)
    why = _symmetry_violation(rules, code, gen, state, mv.index, cv)
    if why is None:              # Z3's model is no violation of the concrete rule: not proved
        return UNKNOWN, "Z3's counterexample does not replay", None
    return VIOLATED, why, state


def _match(enc, at_image: dict, mv, mj, target: list[Expr]) -> Expr | None:
    """The formula "``mj`` with the same choices as ``mv`` is legal at the image and reaches the
    image of ``mv``'s result" (None: their choices do not correspond)."""
    if len(mj.choices) != len(mv.choices):
        return None
    names, var = enc.names, enc.rules.schema.variables
    sub = dict(at_image)
    sub.update({new: Var.int(mine + "!") for (_, new, _, _), (_, mine, _, _) in zip(mj.choices, mv.choices, strict=False)})
    from ..smt.rewrite import substituter
    at = substituter(sub)             # one memo for the guard and every slot's update
    return all_of([at(mj.legal)] + [at(mj.update.get(names[k], var[k])) == target[k] for k in range(len(names))])


def _matched(z: _Z3, ok: Expr | None, legal: Expr) -> bool:
    """Proved: wherever a move is ``legal``, ``ok`` (:func:`_match`: a candidate with the same
    choices is legal at the image and reaches the image of its result; None: their choices do not
    correspond) holds (one quantifier-free query)."""
    return ok is not None and z.check([legal, not_(ok)])[0] == "unsat"


def _symmetry_violation(rules: Rules, code, gen: Generator, s: State, mi: int, cv: tuple) -> str | None:
    """The one-line violation at ``s`` (move ``mi`` with choices ``cv``), checked on the rule: its
    result, and the image's successors (at most :data:`REPLAY` of them: past that, not
    confirmed, None)."""
    try:
        t = _made(rules, mi, cv, s)
        img = gen.image(s)
        want = gen.image(t) if t is not None else None
        if want is None:
            return None
        for k, u in enumerate(code.successors_lazy(img)):
            if u == want or k >= REPLAY:
                return None
    except Exception:            # noqa: BLE001  (a position the rule does not take: not confirmed)
        return None
    assert t is not None         # else want is None and we returned above
    return (f"{rules.game.name}: the rule does not commute with {gen.what}: at {rules.describe(s)} "
            f"move {rules.move_text(mi, cv)!r} reaches {rules.describe(t)}, but no move from "
            f"{rules.describe(img)} reaches its image (found by Z3)")


def _made(rules: Rules, mi: int, cv: tuple, s: State) -> State | None:
    """The position move ``mi`` with choices ``cv`` reaches from ``s`` (None: not legal there),
    evaluated on the rule's IR."""
    m = rules.moves[mi]
    env: dict[str, Any] = {rules.schema.var_name(i): v for i, v in enumerate(s)}
    for c, v in zip(m.choices, cv, strict=False):
        if not evaluate(c.lo, env) <= v <= evaluate(c.hi, env):
            return None
        env[c.name] = v
    if not evaluate(m.guard, env):
        return None
    t = list(s)
    for slot, e in m.update.items():
        t[slot] = int(evaluate(e, env))
    return tuple(t)


