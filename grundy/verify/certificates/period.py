"""The explicit certificate of a period claim: the heap rule as data, the values G(0..top) of
one heap, the range the period was checked on and the periodicity theorem applied (its code).

>>> from grundy.verify import Claim, check_claim
>>> c = Claim("demo/kayles", game="octal", params={"code": "0.77"}, kind="period", period=(71, 12),
...           expect="proved")
>>> b = period_bundle(c, check_claim(c))
>>> b["period"]["end"], b["period"]["top"], b["period"]["theorem"]["code"]
(156, 167, {'digits': [0, 7, 7], 'tail': 0, 'unequal': False})
"""
from __future__ import annotations

from typing import Any

from ...solvers.heaps import heap_values, sum_of_heaps
from ...solvers.heaps.bounds import code_of_rule, theorem_for
from ...spec.export import NodeTable, export_heap_rule, export_rules, export_structure
from ..claims import Claim
from ..kinds.period import EXTRA, _position
from ..verdict import PROVED, REFUTED, VERIFIED, Verdict
from .common import Unsupported, with_game_digest

__all__ = ["period_bundle"]


def period_bundle(claim: Claim, verdict: Verdict) -> dict[str, Any]:
    """The body of ``explicit.json`` for a period claim's verdict (proved, verified or refuted)."""
    assert claim.period is not None
    if verdict.verdict not in (PROVED, VERIFIED, REFUTED):
        raise Unsupported(f"a {verdict.verdict} verdict has no explicit certificate")
    if claim.convention != "normal":
        raise Unsupported("a period in misère play (one-heap values add by XOR only in normal play)")
    n0, p, s = claim.period
    pos = _position(claim, 0)
    rule = sum_of_heaps(pos.game, pos.structure)
    if rule is None:
        raise Unsupported(f"{claim.game} is not a one-heap game")
    code = code_of_rule(rule)
    th = theorem_for(code) if s == 0 and verdict.verdict == PROVED else None
    if verdict.verdict == PROVED and th is None:
        raise Unsupported("a proved period without a periodicity theorem for its rule")
    if th is not None:
        top, end = th.needed(n0, p), th.end(n0, p)
    else:
        top = verdict.swept - 1 if verdict.swept else int(claim.bounds.get("heap", n0 + 3 * p + EXTRA))
        end = top - p + 1
    values = heap_values(rule, top)
    fails = [n for n in range(n0, end) if values[n + p] != values[n] + s]
    t = NodeTable()
    inst = {"label": "1 heap", "structure": export_structure(pos.structure),
            "rules": export_rules(pos.game.rules(pos.structure), t),
            "heap_rule": export_heap_rule(pos.game, pos.structure, t), "statement": None, "assume": None,
            "nodes": t.nodes, "positions": []}
    theorem = None
    if th is not None:
        assert code is not None
        theorem = {"name": th.name, "t": th.t,
                   "code": {"digits": list(code.digits), "tail": code.tail, "unequal": code.unequal},
                   "premise": ("the options of the rule are the code's on every heap: by construction for "
                               "a take-and-break code, proved by Z3 for a hand-written rule (grundy's "
                               "premise; the checker compares them on heaps 0..top)")}
    return {"instances": [with_game_digest(inst)],
            "period": {"n0": n0, "p": p, "s": s, "top": top, "end": end, "values": list(values[:top + 1]),
                       "theorem": theorem, "counterexample": fails[0] if fails else None}}
