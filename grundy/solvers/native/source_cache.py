"""Generated source text kept on disk, so that a new process does not generate it again.

:func:`cached_text` keeps a text in ``$GRUNDY_CACHE/sources`` under a key made of what the
text is generated from (the caller's ``key_parts``, JSON) and the grundy package's files and
versions (the generator's own code). A text is written whole (a temporary file renamed) and
read back only when its first line names the key and its end marker is there; a cache that
cannot be read or written is no cache. The C kernels use it
(:func:`grundy.solvers.native.kernel.kernel_source` says what their key is made of).

>>> import time
>>> key = ["cached_text's example", time.time()]
>>> cached_text(key, lambda: "int one(void) { return 1; }")
'int one(void) { return 1; }'
>>> cached_text(key, lambda: "not made again")
'int one(void) { return 1; }'
>>> cached_text(None, lambda: "no key: made, not stored")
'no key: made, not stored'
"""
from __future__ import annotations

import hashlib
import json
import os
from typing import Any, Callable

from ...digest import cache_root, package_digest

__all__ = ["cached_text"]

_END = "\n/* end of the kernel */\n"


def _key(key_parts: list[Any]) -> str:
    text = json.dumps([package_digest(), *key_parts])
    return hashlib.sha256(text.encode()).hexdigest()


def cached_text(key_parts: list[Any] | None, make: Callable[[], str]) -> str:
    """``make()``, from the disk when it was written before under the same ``key_parts`` (and
    the same package), else made and stored. ``key_parts`` None: made, not stored."""
    if key_parts is None:
        return make()
    key = _key(key_parts)
    path = cache_root() / "sources" / f"{key}.c"
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
        head, _, source = text.partition("\n")
        if head == f"/* {key} */" and source.endswith(_END):   # whole (written at once, see below)
            return source[:-len(_END)]
    except OSError:
        pass
    source = make()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{key}.{os.getpid()}.tmp")
        tmp.write_text(f"/* {key} */\n{source}{_END}", encoding="utf-8")
        os.replace(tmp, path)
    except OSError:
        pass                                      # a cache that cannot be written is no cache
    return source
