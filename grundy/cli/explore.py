"""``grundy explore POSITION [-o tree.html]``: a position's game tree as a self-contained page
(see :mod:`grundy.tools.explorer`), or served on this computer with ``--serve``."""
from __future__ import annotations

import argparse
import sys
from typing import Any

from ..errors import GrundyError
from ..spec.position import InputError

__all__ = ["add_explore_command", "cmd_explore"]


def _fail(msg: str) -> int:
    print(f"grundy: {msg}", file=sys.stderr)
    return 2


def cmd_explore(args: argparse.Namespace) -> int:
    from ..tools.explorer import explore
    from .workbench import read_positions
    try:
        items = list(read_positions(args.position, args))
        if len(items) != 1:
            raise InputError("position", f"give one position to explore, got {len(items)}")
        _, obj, err = items[0]
        if err is not None:
            raise InputError("position", err)
        tree = explore(obj, depth=args.depth, max_nodes=args.max_nodes)
    except OSError as e:
        return _fail(f"cannot read {args.position[0]}: {e.strerror}")
    except GrundyError as e:
        return _fail(str(e))
    done = sum(1 for n in tree.nodes if n["options"] is not None)
    if args.serve is not None:
        return _serve(tree, args.serve)
    try:
        tree.save(args.output)
    except OSError as e:
        return _fail(f"output: cannot write {args.output}: {e.strerror}")
    print(f"wrote {args.output}: {len(tree.nodes)} positions, the options of {done} "
          f"(the tree {args.depth} moves deep)")
    return 0


def _serve(e: Any, port: int) -> int:
    from ..tools.explorer.serve import server
    try:
        httpd = server(e, port)
    except OSError as err:
        return _fail(f"serve: cannot listen on port {port}: {err.strerror}")
    real = httpd.server_address[1]
    print(f"serving the explorer at http://127.0.0.1:{real}/ (Ctrl-C stops it)", flush=True)
    try:
        httpd.serve_forever()
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
    finally:
        httpd.server_close()
    return 0


def _natural(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer, got {text!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError(f"must be >= 0, got {n}")
    return n


def add_explore_command(sub: Any) -> None:
    """Register ``explore`` on the ``grundy`` command's subparsers."""
    from .workbench import POSITION_HELP, add_position_options
    e = sub.add_parser("explore", help="a position's game tree as an HTML page: options that open "
                                       "level by level, each with its value and outcome",
                       description="grundy explore nim 3 5 7 -o tree.html | grundy explore grim petersen "
                                   "--depth 2 | grundy explore edge-nim C5 --weights 2 --serve")
    e.add_argument("position", nargs="+", metavar="POSITION", help=POSITION_HELP)
    add_position_options(e)
    e.add_argument("-o", "--output", metavar="FILE", default="explore.html",
                   help="the page to write (default explore.html)")
    e.add_argument("--depth", type=_natural, default=3, metavar="D",
                   help="the tree D moves deep in the page: the options of every position fewer than D "
                        "moves from the start (default 3)")
    e.add_argument("--max-nodes", type=_natural, default=1500, metavar="N",
                   help="at most N positions in the page (default 1500); the nearest first")
    e.add_argument("--serve", type=_natural, nargs="?", const=0, metavar="PORT",
                   help="serve the page on 127.0.0.1 (any free port, or PORT) and compute the options of "
                        "any position when it is opened; no file is written")
    e.set_defaults(run=cmd_explore)
