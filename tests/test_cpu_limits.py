"""Z3's checks are limited in CPU seconds, never by its wall-clock ``timeout``: a busy machine
makes a proof slower, never gives it another answer (an invariant, a locality or code proof
that times out would turn a verdict into ``unknown``)."""
import re
from pathlib import Path

import z3

from grundy.solvers.smt.runner import check_within

GRUNDY = Path(__file__).resolve().parent.parent / "grundy"


def test_no_wall_clock_timeout_in_grundy():
    pattern = re.compile(r"""\.set\(\s*["']timeout["']|set_param\(\s*["']timeout["']""")   # Z3's own
    found = [f"{p.relative_to(GRUNDY)}:{i}" for p in GRUNDY.rglob("*.py")
             for i, line in enumerate(p.read_text().splitlines(), 1) if pattern.search(line)]
    assert found == []


def test_check_within_answers_and_stops_on_cpu_time():
    s = z3.Solver()
    x = z3.Int("x")
    s.add(x > 2, x < 1)
    assert check_within(s, 5.0) == (z3.unsat, "")
    hard = z3.Solver()            # a search a CPU limit of a few milliseconds cannot finish
    a, b, c = z3.Ints("a b c")
    hard.add(a > 0, b > 0, c > 0, a * a * a + b * b * b == c * c * c)
    r, why = check_within(hard, 0.05)
    assert r == z3.unknown and why.startswith("timeout")
