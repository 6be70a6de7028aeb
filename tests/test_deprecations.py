"""Names that moved in 0.3 still answer, with a DeprecationWarning naming their new home;
the front door has at most twenty-one names and each of them loads."""
from __future__ import annotations

import importlib

import pytest

import grundy


def test_the_front_door_is_small_and_every_name_loads():
    assert len(grundy.__all__) <= 21 and len(set(grundy.__all__)) == len(grundy.__all__)
    for name in grundy.__all__:
        assert getattr(grundy, name) is not None, name
    assert set(grundy.__all__) <= set(dir(grundy))


@pytest.mark.parametrize("old, new, where", [
    ("grundy:read_position", "grundy.spec:read_position", "grundy.spec"),
    ("grundy:GAMES", "grundy.spec.registry:GAMES", "grundy.spec"),
    ("grundy:InputError", "grundy.errors:InputError", "grundy.errors"),
    ("grundy:SolverLimit", "grundy.errors:SolverLimit", "grundy.errors"),
    ("grundy:plot_values", "grundy.tools:plot_values", "grundy.tools"),
    ("grundy:Play", "grundy.tools:Session", "Session"),
    ("grundy.tools:Play", "grundy.tools:Session", "Session"),
    ("grundy.solvers.explicit:Solver", "grundy.solvers.solver:Solver", "grundy.solvers.solver"),
    ("grundy.solvers.explicit.solver:SourceLog", "grundy.solvers.solver:SourceLog", "grundy.solvers.solver"),
    ("grundy.spec.expr:Rebuild", "grundy.spec.rebuild:Rebuild", "grundy.spec.rebuild"),
    ("grundy.spec.expr:rebuild", "grundy.spec.rebuild:rebuild", "grundy.spec.rebuild"),
])
def test_a_moved_name_answers_with_a_warning(old, new, where):
    def get(spec: str):
        module, _, name = spec.partition(":")
        return getattr(importlib.import_module(module), name)
    with pytest.warns(DeprecationWarning, match=where):
        value = get(old)
    assert value is get(new)


def test_solve_heaps_is_deprecated_and_solves_as_before():
    game = importlib.import_module("grundy.spec").get_game("lasker-nim")
    with pytest.warns(DeprecationWarning, match="position"):
        got = game.solve_heaps([3, 4])
    assert got == grundy.solve(game.position([3, 4]))


def test_an_unknown_name_is_an_attribute_error():
    with pytest.raises(AttributeError, match="no_such_name"):
        grundy.no_such_name  # noqa: B018
