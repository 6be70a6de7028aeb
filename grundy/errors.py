"""One base class for every error grundy raises on purpose.

Catch :class:`GrundyError` to handle anything the tool reports about its input (a
position, a claim, a game's rules) as opposed to a bug in grundy itself.

>>> from grundy.errors import GrundyError, RuleError
>>> issubclass(RuleError, GrundyError)
True
"""
from __future__ import annotations

__all__ = ["DeclarationWarning", "GrundyError", "RuleError", "ClaimError", "LoadError", "Disagreement", "ExecutorError", "GengMissing", "MissingDependency"]


class GrundyError(Exception):
    """Base class of grundy's own errors: each has a one-line message meant for the user."""


class RuleError(GrundyError, ValueError):
    """A game's rules break a property the game declares or the tool relies on: an update
    leaves a field's domain, a move does not lower the rank, a declared symmetry or
    decomposition does not hold, a fixed heap count is not respected."""


class DeclarationWarning(UserWarning):
    """A property a game declares (a symmetry, a decomposition) does not hold on a structure the
    solver met: the solver did not use it (its values come from the moves), and says so."""


class ClaimError(GrundyError, ValueError):
    """A claim that is written wrongly (an unknown field, kind, verdict, method...)."""


class LoadError(GrundyError):
    """A theorem file that cannot be used: the message names the file (and claim)."""


class Disagreement(GrundyError):
    """The reference engine and the verdict disagree: the claim's verdict is ``error``."""


class ExecutorError(GrundyError, ValueError):
    """A bad ``--executor`` value, or a cluster that cannot be reached."""


class GengMissing(GrundyError, RuntimeError):
    """nauty's ``geng`` is not installed."""


class MissingDependency(GrundyError, ImportError):
    """An optional package a feature needs is not installed."""
