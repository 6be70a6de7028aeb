"""Hooks: what a lower layer asks of an upper one, named here and provided from above.

A position draws itself in a notebook, a verdict shows itself as HTML, ``check_game`` needs
a solver: the code that does it lives above the code that asks (spec and verify import
nothing from tools). The asking side calls :func:`get`; the top of the package
(``grundy/__init__.py``) names each provider as ``"module:attribute"`` with :func:`provide`,
imported only when first asked for, so ``import grundy`` stays light.

>>> provide("example.upper", "operator:neg")
>>> get("example.upper")(3)
-3
>>> get("example.nobody") is None
True
"""
from __future__ import annotations

import importlib
from typing import Any, Callable

__all__ = ["provide", "get"]

_PROVIDERS: dict[str, str | Callable[..., Any]] = {}


def provide(name: str, target: str | Callable[..., Any]) -> None:
    """Provide hook ``name``: a callable, or ``"module:attribute"`` imported when first asked for."""
    _PROVIDERS[name] = target


def get(name: str) -> Callable[..., Any] | None:
    """The callable provided for hook ``name``, or None when nothing provides it."""
    target = _PROVIDERS.get(name)
    if isinstance(target, str):
        module, _, attribute = target.partition(":")
        target = _PROVIDERS[name] = getattr(importlib.import_module(module), attribute)
    return target
