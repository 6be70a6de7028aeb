"""wygthoff (selfref thesis, Chapter 6): wyg where one end of the edge may be emptied.

"The rules are equivalent to those of wyg with the exception that after the edge is
chosen, it is legal to remove up to all of the chips from the vertex with the larger
stack. So, if wygthoff were being played and an edge was chosen with vertices a and b
having stacks of sizes 2 and 3, respectively, the legal moves are to remove up to 2
chips from a, up to 3 chips from b, or up to 2 chips from both."

Everything else (active edge, who chooses the next edge, no decomposition) is wyg's.

>>> from grundy import solve
>>> solve({"game": "wygthoff", "nodes": [["a", 2], ["b", 3]], "edges": [["a", "b"]]})
{'grundy': 1, 'outcome': 'N'}
"""
from typing import cast

from grundy.spec import Expr, SymState
from grundy.spec.games.wyg import Wyg


class Wygthoff(Wyg):
    name = "wygthoff"
    summary = ("wygthoff (selfref ch. 6): as wyg, but on the edge take any k <= c(x) from one end x, "
               "or k <= min(c(u), c(v)) from both.")

    def one_end(self, s: SymState, x: int, y: int) -> Expr:
        """From one end x: "up to all of the chips" of x."""
        return cast(Expr, s.chips[x])             # s.chips is Any to a type checker (SymState.__getattr__)


GAME = Wygthoff()
