"""``grundy quotient GAME [--code 0.75] [--max-heap N] [--json]``: the misère quotient of a heap game
(see :mod:`grundy.solvers.misere`): its presentation, order, P-portion, the pretending function with
its period (proved or apparent) and whether the game is tame."""
from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..errors import GrundyError

__all__ = ["add_quotient_command", "cmd_quotient"]


def add_quotient_command(sub: Any) -> None:
    from .params import add_game_options
    q = sub.add_parser("quotient", help="the misère quotient of a heap game (octal, subtraction, ...): "
                                        "presentation, |Q|, |P|, pretending function and its period")
    q.add_argument("game", help="a game whose positions are sums of heaps (see grundy games)")
    q.add_argument("--max-heap", type=int, default=200, metavar="N",
                   help="compute the quotient of the sums of heaps <= N at most (default 200); it stops "
                        "earlier once a period is proved")
    q.add_argument("--time-limit", type=float, default=None, metavar="S",
                   help="stop after S CPU seconds (checked between heaps) with what is proved")
    q.add_argument("--json", action="store_true", help="one JSON object")
    add_game_options(q, misere=False)
    q.set_defaults(run=cmd_quotient)


def cmd_quotient(args: argparse.Namespace) -> int:
    from ..solvers.misere import Quotient
    from .params import game_params
    try:
        params = game_params(args)
        if args.max_heap < 1:
            raise GrundyError("--max-heap: at least 1")
        q = Quotient(args.game, max_heap=args.max_heap, time_limit=args.time_limit, **params)
    except GrundyError as e:
        print(f"grundy: {e}", file=sys.stderr)
        return 2
    out = q.to_json()
    if args.json:
        print(json.dumps(out))
        return 0
    print("\n".join(_text(out)))
    return 0


def _text(o: dict[str, Any]) -> list[str]:
    if o["period"] is None:
        per = "no period proved or apparent"
    else:
        how = "proved (misère periodicity, docs/misere.md)" if o["period_proved"] else "apparent, not proved"
        per = f"period {o['period']} from heap {o['preperiod']}: {how}"
    scope = "every heap" if o["period_proved"] else f"the sums of heaps <= {o['heaps_computed']}"
    return [f"{o['game']}: misère quotient of {scope}",
            f"  |Q| = {o['order']}, |P| = {o['p_portion']}, {'tame' if o['tame'] else 'wild'}",
            f"  presentation: <{', '.join(o['presentation']) or '1'}>",
            f"  P = {{{', '.join(o['P'])}}}",
            f"  pretending function (heaps 0..{len(o['pretending']) - 1}): {' '.join(w.replace(' ', '') for w in o['pretending'])}",
            f"  {per}",
            f"  checked exactly on every sum of heaps <= {o['heaps_computed']}; {o['stopped']}"
            + (f"; classes split (relearnt) {o['splits']} time(s)" if o["splits"] else "")]
