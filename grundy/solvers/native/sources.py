"""The C source of a kernel, kept on disk so that a new process does not generate it again.

:func:`grundy.solvers.native.kernel.c_source` writes a kernel's C text from the rules' IR
(building the moves, the symmetries' tables): a few milliseconds, paid by every process that
solves on a structure, before the compiled library (cached by the hash of that text, see
:mod:`grundy.solvers.native.build`) can be found. :func:`kernel_source` keeps the text in
``$GRUNDY_CACHE/sources`` under a key covering everything it is made from: the grundy
package's files and versions (the generators), the game's own definition
(:func:`grundy.digest.game_digest`), the structure (every field, names included), the box
and the options. When the key cannot be made (a game whose definition cannot be read back),
the text is generated, as without a cache.

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

from ...digest import cache_root, game_digest, package_digest
from ...spec.game import Rules

__all__ = ["kernel_source"]

_END = "\n/* end of the kernel */\n"

def _key(rules: Rules, box, symmetry: bool, decompose: bool) -> str | None:
    g = game_digest(rules.game)
    if g is None:
        return None
    from .. import symmetric              # its switches choose the canonical form c_source emits
    text = json.dumps([package_digest(), g, repr(rules.structure), list(box.lo), list(box.radix),
                       list(box.order), bool(symmetry), bool(decompose),
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
