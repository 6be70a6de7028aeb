"""Hooks: what a lower layer asks of an upper one, named here and provided from above.

A position draws itself in a notebook, a verdict shows itself as HTML, ``check_game`` needs
a solver: the code that does it lives above the code that asks (spec and verify import
nothing from tools). The asking side calls :func:`get`; the top of the package
(``grundy/__init__.py``) names each provider as ``"module:attribute"`` with :func:`provide`,
imported only when first asked for, so ``import grundy`` stays light.

Every hook is declared in :data:`DECLARED` with what it must be; asking for a name not
declared there is an error (a misspelt hook never reads as "nothing provides it").

>>> DECLARED["example.upper"] = "(x) -> -x"
>>> provide("example.upper", "operator:neg")
>>> get("example.upper")(3)
-3
>>> get("example.nobody")
Traceback (most recent call last):
...
KeyError: "no hook named 'example.nobody' is declared (grundy.hooks.DECLARED: solve, make_solver, example.upper)"
>>> del DECLARED["example.upper"], _PROVIDERS["example.upper"]
"""
from __future__ import annotations

import importlib
from typing import Any, Callable

__all__ = ["provide", "get", "DECLARED"]

# the hooks, with what each provider is (a lower layer's question, answered from above)
DECLARED: dict[str, str] = {
    "solve": "grundy.solve(position) -> SolveResult (spec's deprecated HeapRule.solve_heaps)",
    "make_solver": "() -> Solver (solvers.gamecheck's decomposition check)",
}

_PROVIDERS: dict[str, str | Callable[..., Any]] = {}


def provide(name: str, target: str | Callable[..., Any]) -> None:
    """Provide hook ``name``: a callable, or ``"module:attribute"`` imported when first asked for."""
    _declared(name)
    _PROVIDERS[name] = target


def _declared(name: str) -> None:
    if name not in DECLARED:
        raise KeyError(f"no hook named {name!r} is declared (grundy.hooks.DECLARED: {', '.join(DECLARED)})")


def get(name: str) -> Callable[..., Any] | None:
    """The callable provided for hook ``name``, or None when nothing provides it (KeyError for
    a name that is not declared)."""
    _declared(name)
    target = _PROVIDERS.get(name)
    if isinstance(target, str):
        module, _, attribute = target.partition(":")
        target = _PROVIDERS[name] = getattr(importlib.import_module(module), attribute)
    return target
