"""Load a theorem file of the repository's theorems/ folder as a module, for tests of its helpers."""
from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

THEOREMS = Path(__file__).resolve().parent.parent / "theorems"


def theorem_module(name: str) -> ModuleType:
    """theorems/<name>.py, executed as a fresh module named ``<name>_theorems``."""
    spec = importlib.util.spec_from_file_location(f"{name}_theorems", THEOREMS / f"{name}.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod
