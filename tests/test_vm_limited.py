"""A structure whose interpreter meets its store limit (csweep's sweep_vm, ``vm.STORE_LIMIT``)
has its table put in use for its C kernel (``Solver.vm_limited``): the Python path that judges
the rest gets its values from the kernel, not from a Python search of ``native_after``
positions first. Against the same sweep without the hand-over (the Python search answers):
the same counts, verdict text, counterexample and cross-check sample, on true and planted
false claims, in both conventions."""
import pytest

from grundy import Solver
from grundy.solvers import sources
from grundy.solvers.native import build
from grundy.spec import Structure
from grundy.spec.games import get_game
from grundy.verify.check.deadline import Deadline
from grundy.verify.check.sweep import sweep
from grundy.verify.claims import Claim, Explicit
from grundy.verify.families import complete
from grundy.verify.recheck import CrossCheck

pytestmark = pytest.mark.skipif(not build.available(), reason="no C compiler here")


def n_always(g, s):
    return False                  # claimed N everywhere (unit K_n, n > 1: the first player wins)


def token_zero_p(g, s):
    return s.token == 0           # planted: P exactly with the token on vertex 0


def run(claim: Claim, hand_over: bool, monkeypatch) -> tuple[tuple, bool, int]:
    """The sweep's result and sample, whether a kernel served the largest structure, and how
    often the interpreter met its limit (made small here: 300 positions)."""
    monkeypatch.setattr(sources, "STORE_LIMIT", 300)
    met = []
    real = Solver.vm_limited

    def spy(self, game, structure):
        met.append(structure)
        if hand_over:
            real(self, game, structure)
    monkeypatch.setattr(Solver, "vm_limited", spy)
    solver, cross = Solver(), CrossCheck(claim)
    r = sweep(claim, Explicit(), claim.bounds, solver, Deadline(None), cross=cross)
    cex = r.cex and (r.cex.witness, r.cex.claimed, r.cex.actual, r.cex.structure, r.cex.how)
    sample = [(e[0], e[1], e[3]) for e in cross.sample.entries()]
    last = list(claim.family.items())[-1][1]
    kernel = bool(solver.table(get_game(claim.game), last).kernels) if met else False
    return (r.checked, r.met, r.structures, r.complete, r.text, cex, sample), kernel, len(met)


@pytest.mark.parametrize("statement, convention", [(n_always, "normal"), (token_zero_p, "normal"),
                                                   (token_zero_p, "misere")])
def test_the_kernel_after_the_interpreters_limit_answers_as_the_python_search(statement, convention, monkeypatch):
    family = complete(5, 6) if statement is n_always else complete(6)     # (a failure on K_5 ends the sweep there)
    claim = Claim("t/vm-limited", game="edge-nim", kind="char", family=family, statement=statement,
                  bounds={"weight": (1, 1)}, convention=convention,
                  expect="verified" if statement is n_always and convention == "normal" else "refuted")
    with_kernel, kernel, met = run(claim, True, monkeypatch)
    without, no_kernel, met_too = run(claim, False, monkeypatch)
    assert met > 0 and met == met_too                 # the interpreter met its limit, both times
    assert kernel and not no_kernel                   # the values came from the kernel, else from Python
    assert with_kernel == without
    checked, _, _, complete_, _, cex, _ = with_kernel
    assert complete_ and checked > 0
    assert (cex is None) == (claim.expect == "verified")


def test_without_a_kernel_the_table_is_left_alone():
    """Where no kernel may serve (the solver without the native path), nothing is put in use."""
    solver = Solver(native=False)
    g = Structure.graph(range(3), [(0, 1), (1, 2), (0, 2)])
    solver.vm_limited(get_game("edge-nim"), g)
    assert not solver.table(get_game("edge-nim"), g).in_use
