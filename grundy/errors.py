"""One base class for every error grundy raises on purpose.

Catch :class:`GrundyError` to handle anything the tool reports about its input (a
position, a claim, a game's rules) as opposed to a bug in grundy itself.

>>> from grundy.errors import GrundyError, RuleError
>>> issubclass(RuleError, GrundyError)
True
"""
from __future__ import annotations

__all__ = ["DeclarationWarning", "GrundyError", "RuleError", "ClaimError", "LoadError", "Disagreement", "ExecutorError", "GengMissing", "MissingDependency", "GameError", "MissingOperator", "UnsupportedOperator", "InputError", "SolverLimit", "CycleError", "ReferenceLimit", "ReferenceCycle", "BuildError", "KernelError", "OutOfBox", "user_line"]


class GrundyError(Exception):
    """Base class of grundy's own errors: each has a one-line message meant for the user.

    Catch it to handle every error grundy raises on bad input or broken rules; the command line
    prints its message on one line and exits with 2.

    Examples
    --------
    >>> issubclass(InputError, GrundyError), issubclass(RuleError, GrundyError)
    (True, True)
    """


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


class GameError(GrundyError, KeyError, RuntimeError):
    """An unknown game, a name registered twice, or a game file that cannot be loaded (a
    KeyError for lookups, a RuntimeError for clashes, as before the registry had its class)."""

    def __str__(self) -> str:          # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class MissingOperator(GrundyError, TypeError):
    """A backend (a :class:`grundy.spec.ops.Walker` subclass) lacks an operator of the catalogue."""


class UnsupportedOperator(GrundyError, ValueError):
    """A backend explicitly refuses an operator (in some mode): the message says what to do."""


class InputError(GrundyError, ValueError):
    """Bad input, with the JSON field it concerns."""

    def __init__(self, field: str, problem: str):
        super().__init__(f"{field}: {problem}" if field else problem)
        self.field, self.problem = field, problem


class SolverLimit(GrundyError, RuntimeError):
    """The solver stored as many positions as it was allowed to."""


class CycleError(GrundyError, RuntimeError):
    """A move led back to a position on the current line: the game's rank does not decrease."""


class ReferenceLimit(GrundyError, RuntimeError):
    """The reference engine spent its budget of work units."""


class ReferenceCycle(GrundyError, RuntimeError):
    """A move leads back to a position on the current line: the game's rank does not decrease."""


class BuildError(GrundyError, RuntimeError):
    """The C compiler rejected generated code (a bug in a generator, never in a user's input)."""


class KernelError(GrundyError, RuntimeError):
    """The C kernel stopped; ``status`` says why (one of :mod:`grundy.solvers.native.kernel`'s codes)."""

    def __init__(self, status: int, text: str | None = None, key: int | None = None):
        super().__init__(text or f"status {status}")
        self.status = status
        self.key = key      # DOMAIN: the packed position whose move left a domain


class OutOfBox(KernelError):
    """A successor left the box: slot ``slot`` took ``value``."""

    def __init__(self, slot: int, value: int):
        super().__init__(1, f"slot {slot} took value {value}, outside the box")
        self.slot, self.value = slot, value


def user_line(e: BaseException, default: "tuple[str, int] | None" = None) -> str:
    """`` (at FILE:LINE)``: where an error met in a user's code comes from, the innermost frame
    of its traceback in a user's file (a games file, a theorem file, a statement), not in
    grundy's own modules, Python's library or an installed package; else ``default`` (such as a
    statement's first line), else ``""``. With ``GRUNDY_DEBUG`` set (``--debug``), the innermost
    frame whatever it is.

    >>> user_line(ValueError("raised nowhere"), ("mine.py", 3))
    ' (at mine.py:3)'
    """
    import os
    import sysconfig
    import traceback
    from pathlib import Path
    frames = traceback.extract_tb(e.__traceback__) if e.__traceback__ else []
    if os.environ.get("GRUNDY_DEBUG") and frames:
        return f" (at {frames[-1].filename}:{frames[-1].lineno})"
    own = [Path(__file__).resolve().parent] + [Path(p).resolve() for p in {sysconfig.get_paths()[k] for k in
                                                                          ("stdlib", "platstdlib", "purelib", "platlib")}]
    for fr in reversed(frames):
        if fr.filename.startswith("<"):
            continue
        f = Path(fr.filename).resolve()
        if not any(f == d or d in f.parents for d in own):
            return f" (at {fr.filename}:{fr.lineno})"
    return f" (at {default[0]}:{default[1]})" if default else ""
