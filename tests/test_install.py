"""How grundy is installed: a script run beside a folder named ``grundy`` (a clone of this
repository) imports the package, never the folder as a namespace package."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_a_clone_named_grundy_beside_the_script_does_not_shadow_the_package(tmp_path):
    (tmp_path / "grundy").symlink_to(ROOT, target_is_directory=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    p = subprocess.run([sys.executable, "-c", "import grundy; print(grundy.__file__); print(grundy.load_games)"],
                       cwd=tmp_path, capture_output=True, text=True, env=env, timeout=120)
    assert p.returncode == 0, p.stderr
    first = p.stdout.splitlines()[0]
    assert first.endswith(os.path.join("grundy", "__init__.py")) and first != "None", p.stdout
