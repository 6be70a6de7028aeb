"""The C source of a kernel, kept on disk so that a new process does not generate it again.

:func:`grundy.solvers.native.kernel.c_source` writes a kernel's C text from the rules' IR
(building the moves, the symmetries' tables): 1-5 ms, paid by every process that solves on
a structure, before the compiled library (cached by the hash of that text and the compiler's
flags, see :mod:`grundy.solvers.native.build`) can be found. :func:`kernel_source` keeps the
text in ``$GRUNDY_CACHE/sources`` under a key made of what the text is generated from: the
rules' content (:func:`grundy.spec.fingerprint.rules_digest`: the structure with its vertex
names, the fields, every move's guard and update as IR, the rank, the components and the
declarations), the box and the options, the switches of :mod:`grundy.solvers.symmetric`, and
the grundy package's files and versions (the generator's own code). Digesting the IR costs
a third to a fifth of generating the text, hence this cache.

So a rule whose IR changes gets a new kernel whatever changed it: the game's code, a module
global it reads (a constant from another module or from the environment), a parameter; the
game's name or where its class is defined is not what the key is made of. Any error while
making the key (a declaration that cannot be read back) means the text is generated, as
without a cache.

>>> from grundy.spec.games import get_game
>>> from grundy.spec.structure import Structure
>>> from grundy.solvers.native.kernel import Box, c_source
>>> rules = get_game("nim").rules(Structure.heaps(2))
>>> box = Box.around(rules, [(3, 4)])
>>> kernel_source(rules, box, True, True) == c_source(rules, box, True, True)
True
"""
from __future__ import annotations

import hashlib
import json
import os

from ...digest import cache_root, package_digest
from ...errors import GrundyError
from ...spec.fingerprint import rules_digest
from ...spec.game import Rules

__all__ = ["kernel_source"]

_END = "\n/* end of the kernel */\n"


def _key(rules: Rules, box, symmetry: bool, decompose: bool) -> str | None:
    try:
        content = rules_digest(rules)
    except (TypeError, ValueError, GrundyError):  # a value that cannot be read back as content
        return None
    # the switches of grundy.solvers.symmetric choose the canonical form c_source emits
    from .. import symmetric
    text = json.dumps([package_digest(), content, list(box.lo), list(box.radix), list(box.order),
                       bool(symmetry), bool(decompose),
                       [symmetric.ENABLED, symmetric.FORCE, symmetric.CAP] if symmetry else None])
    return hashlib.sha256(text.encode()).hexdigest()


def kernel_source(rules: Rules, box, symmetry: bool = False, decompose: bool = False) -> str:
    """``c_source(rules, box, symmetry, decompose)``, from the disk when it was written before
    under the same key (see the module's docstring), else generated and stored."""
    from .kernel import c_source
    key = _key(rules, box, symmetry, decompose)
    if key is None:
        return c_source(rules, box, symmetry, decompose)
    path = cache_root() / "sources" / f"{key}.c"
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        head, _, source = text.partition("\n")
        if head == f"/* {key} */" and source.endswith(_END):   # whole (written at once, see below)
            return source[:-len(_END)]
    except OSError:
        pass
    source = c_source(rules, box, symmetry, decompose)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{key}.{os.getpid()}.tmp")
        tmp.write_text(f"/* {key} */\n{source}{_END}", encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass                                      # a cache that cannot be written is no cache
    return source
