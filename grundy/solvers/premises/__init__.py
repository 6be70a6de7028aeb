"""Premises: what a value source of the solver relies on, established on a structure before use.

The solver has sources of values besides plain search over the moves, and each rests on a
property of the game's rule on the structure at hand:

- **symmetry** (the Python path's canonical forms, sorted heaps, the S_n plan of
  :mod:`grundy.solvers.symmetric`, the C kernel's canonical forms): the rule commutes with
  every map of the group the source reduces by. :func:`symmetry_group` names that group and a
  generating set of it (heaps: a swap and a cycle of S_n; graphs whose automorphisms are every
  vertex permutation: the same two, acting on the slots; other graphs: generators of the
  listed automorphism group). :func:`prove_symmetry` asks Z3, over unbounded integers (every
  size), that for each generator σ and each move m, σ(m(s)) is a move of σ(s), unless that is
  shown term for term (:mod:`~grundy.solvers.premises.identity`: the image of every move is a
  move of the rule as the same expression, "proved by construction", no Z3). It first looks
  for the *matched* move (the move of σ(s) reaching σ(m(s)) with the same choice values, found
  by evaluating the rule on a few concrete states) and asks a quantifier-free query; the full
  query ("some move, some choices") only when that fails. If σ maps each move's results into
  the moves of the image, for a σ of finite order the two sets of options are equal, and so
  by induction on the rank are the values of s and σ(s), for every element of the group.
- **decomposition** (values as the XOR of components', in the Python search and the kernel):
  :func:`prove_decomposition` asks Z3 that the rule is a disjunctive sum on the structure: for
  every position s, every split of its present elements into two sides A and B with no link
  between them, the restrictions s|A and s|B (the other side's elements emptied, as the solver's
  components are) satisfy: (1) presence of an element in s|A is its presence in s on side A
  (so s|A splits further exactly as s does); (2) every move of s is the same move (same
  choices) of s|A or of s|B, and its result restricts to the result there and to the other
  side unchanged (so the split persists); (3) every move of s|A is a move of s with that
  effect. By induction on the rank, G(s) = G(s|A) XOR G(s|B): the options of s are the options
  of the sum. A check at the positions where the search splits would not do: the sum's
  positions that the search never visits (a component moved, the other not) are where a rule
  that reads several components would differ.

A premise is ``proved`` (the source may be used), ``violated`` (a one-line reason naming the
game, the move and the position, confirmed on the concrete rule), ``unknown`` (Z3 gave up
within its deterministic resource limit ``settings.premise_rlimit``, or cannot encode the rule) or ``not
declared``. Only ``proved`` admits the source: anything else means slower, never wrong.
Proofs are kept on disk (``$GRUNDY_CACHE/premises``) under a key of everything they depend
on: the rules' content digest (:func:`grundy.spec.fingerprint.rules_digest`), the generators,
the resource limit, the grundy package and Z3's version.

>>> from grundy.spec.games import get_game
>>> from grundy.spec import Structure
>>> rules = get_game("nim").rules(Structure.heaps(3))
>>> group = symmetry_group(rules)
>>> group.name, [g.what for g in group.generators]
('S_3 on heaps', ['swapping heaps 0 and 1', 'cycling heaps 0 -> 1 -> 2'])
>>> prove_symmetry(rules, cache=False).how
'symmetry (S_3 on heaps) proved by construction, 2 generators'
>>> prove_decomposition(rules, cache=False).status
'proved'
"""
from __future__ import annotations

from ...settings import current as settings
from ...spec.game import Rules
from .base import (
    FORMAT,
    NOT_DECLARED,
    PROVED,
    REPLAY,
    SAMPLES,
    UNKNOWN,
    VIOLATED,
    Premise,
    Proof,
    State,
    _cached,
    _key,
    declared,
)
from .groups import Generator, Group, group_order, symmetry_group

__all__ = ["Generator", "Group", "Premise", "declared", "prove_decomposition", "prove_symmetry",
           "symmetry_group", "group_order", "PROVED", "VIOLATED", "UNKNOWN", "NOT_DECLARED",
           "SAMPLES", "REPLAY", "FORMAT", "State", "Proof", "_key"]



def prove_symmetry(rules: Rules, group: Group | None = None, *, cache: bool = True,
                   budget: int | None = None) -> Premise:
    """Whether the rule commutes with every generator of ``group`` (default: the group the
    solver would reduce by, :func:`symmetry_group`) at every position, proved by Z3 within
    ``budget`` resource units (default ``settings.premise_rlimit``)."""
    budget = settings().premise_rlimit if budget is None else budget
    game = rules.game
    group = group if group is not None else symmetry_group(rules)
    dec = declared(game, "symmetric")
    if not game.symmetric:
        return Premise("symmetry", NOT_DECLARED, "no symmetry (symmetric = False)", declared=dec)
    if group is None or not group.generators:
        return Premise("symmetry", NOT_DECLARED, "no symmetry on this structure", declared=dec)
    from .symmetry import _symmetry, _uniform_heap_rule  # the proofs: imported when first asked
    if rules.heap_sorting and _uniform_heap_rule(rules):
        return Premise("symmetry", PROVED, f"symmetry ({group.name}) by construction (one rule for every heap)",
                       declared=dec)
    extra = [group.name, [g.key() for g in group.generators], budget]
    return _cached("symmetry", rules, extra, cache, lambda: _symmetry(rules, group, budget), dec)



def prove_decomposition(rules: Rules, *, cache: bool = True, budget: int | None = None) -> Premise:
    """Whether positions split into independent components as the game declares
    (``decompose_over``), proved by Z3 on this structure (see the module's docstring) within
    ``budget`` resource units (default ``settings.premise_rlimit``)."""
    budget = settings().premise_rlimit if budget is None else budget
    game = rules.game
    dec = declared(game, "decompose_over")
    if rules.present is None:
        return Premise("decomposition", NOT_DECLARED, "no decomposition declared", declared=dec)
    from .decomposition import _decomposition  # the proof: imported when first asked
    return _cached("decomposition", rules, [budget], cache, lambda: _decomposition(rules, budget), dec)


