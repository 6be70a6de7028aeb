"""``grundy check GAME``: check the properties a game declares on small structures."""
from __future__ import annotations

import argparse
import json
import sys

from ..errors import GrundyError
from ..spec.position import InputError
from ..spec.reader import malformed_json
from ..spec.registry import GAMES


def cmd_check(args: argparse.Namespace) -> int:
    from ..solvers.gamecheck import check_game, parse_structure
    try:
        game = GAMES.get(args.game)
        if game is None:
            raise InputError("game", GAMES.unknown(args.game))
        structures = [parse_structure(s) for s in args.structures] or None
        positions = [json.loads(p) for p in args.position or []] or None
        if positions is not None and structures is None:
            structures = []
        report = check_game(game, structures, positions=positions, bound=args.bound,
                            max_states=args.max_states, smt=not args.no_smt, timeout=args.timeout)
    except json.JSONDecodeError as e:
        print(f"grundy: --position: {malformed_json(e)}", file=sys.stderr)
        return 2
    except GrundyError as e:
        print(f"grundy: {e}", file=sys.stderr)
        return 2
    for line in report.lines():
        print(line)
    bad = report.violations
    unknown = [c for c in report.checks if c.status == "unknown"]
    print(f"{game.name}: {len(bad)} violated, {len(unknown)} unknown, "
          f"{sum(c.status == 'ok' for c in report.checks)} ok")
    return 0 if report.ok else 1
