"""Claim kinds as registered objects: one module per kind, each defining one
:class:`ClaimKind` registered by name (:data:`KINDS`). A claim's ``kind="char"`` names one.

Adding a kind is one module here (a :class:`ClaimKind` subclass decorated with
:func:`register_kind`: a missing part fails when the class is made) and its name in the import
line below; a user registers one from their own code the same way (docs/claims.md, "Adding a
claim kind").

>>> list(KINDS)
['outcome', 'char', 'grundy', 'strategy', 'conj', 'table', 'period', 'quotient']
>>> [k.name for k in KINDS.values() if k.serves_as]
['char', 'grundy']
"""
from .base import (
    KINDS,
    PARTS,
    ClaimKind,
    KindError,
    accepts,
    kind_named,
    kind_of,
    own_fields,
    register_kind,
    takers,
    unregister_kind,
)
from .fields import OPTIONAL, OptionalField
from .statement import StatementKind

# isort: off
# the built-in kinds, registered in this order (one module each: a new kind adds its name here)
from . import outcome, char, grundy, strategy, conj, table, period, quotient  # noqa: E402, F401
# isort: on

__all__ = ["ClaimKind", "StatementKind", "KindError", "KINDS", "OPTIONAL", "OptionalField", "PARTS", "register_kind",
           "unregister_kind", "kind_of", "kind_named", "takers", "accepts", "own_fields"]
