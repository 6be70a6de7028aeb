"""Misère quotients (issue 40): a claimed order or P-portion smaller than the quotient's is refuted
by sums pairwise told apart, each pair by a sum misère search finds of different outcome; the
controls are the quotients the papers give (0.75: order 8, P-portion 2; 0.31 and subtraction {1, 2}:
the tame quotient of order 6, P-portion 2)."""
from _seed import xor  # noqa: F401  (also puts theorems/ on the path)

from grundy.verify import Claim, Source

SRC = Source("soundness", "misère quotients (S10)")

CLAIMS = [
    Claim("quotients/0.75-order-6-planted", source=SRC, game="octal", params={"code": "0.75"},
          quotient={"order": 6, "p_portion": 2}, expect="refuted"),
    Claim("quotients/0.75-p-1-planted", source=SRC, game="octal", params={"code": "0.75"},
          quotient={"p_portion": 1}, expect="refuted"),
    Claim("quotients/0.31-order-2-planted", source=SRC, game="octal", params={"code": "0.31"},
          quotient={"order": 2}, expect="refuted"),
    Claim("quotients/0.75", source=SRC, game="octal", params={"code": "0.75"},
          quotient={"order": 8, "p_portion": 2}, expect="proved"),
    Claim("quotients/0.31-tame", source=SRC, game="octal", params={"code": "0.31"},
          quotient={"order": 6, "p_portion": 2}, expect="proved"),
]
