"""The house's shape: no import cycle between grundy's modules, no import of the package root
from inside it, and a light front door (what ``import grundy`` and ``grundy --version`` load).
The layers themselves are import-linter's contracts (pyproject.toml, run by .ci/run)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

HEAVY = ("networkx", "z3", "matplotlib", "dask")


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    # imports inside functions count; those under TYPE_CHECKING run nowhere and are left out
    return grimp.build_graph("grundy", exclude_type_checking_imports=True, cache_dir=None)


def _cycles(graph: grimp.ImportGraph, modules: set[str]) -> list[list[str]]:
    """The strongly connected sets of more than one module (Tarjan, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[list[str]] = []
    for root in sorted(modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root) & modules)))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.find_modules_directly_imported_by(w) & modules))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    part = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        part.append(w)
                        if w == v:
                            break
                    if len(part) > 1:
                        out.append(sorted(part))
    return out


def test_no_cycle_between_modules(graph):
    modules = {m for m in graph.modules if m != "grundy"}
    assert _cycles(graph, modules) == []


def test_the_cycle_finder_finds_a_planted_cycle():
    graph = grimp.build_graph("grundy", exclude_type_checking_imports=True, cache_dir=None)
    graph.add_import(importer="grundy.errors", imported="grundy.verify.claims")   # claims imports errors
    assert any("grundy.errors" in c and "grundy.verify.claims" in c
               for c in _cycles(graph, {m for m in graph.modules if m != "grundy"}))


def test_no_module_imports_the_package_root(graph):
    assert graph.find_modules_that_directly_import("grundy") == set()


def _loaded(code: str) -> list[str]:
    probe = (f"{code}\nimport json, sys\n"
             f"print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in {HEAVY!r})))")
    p = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout.splitlines()[-1])


def test_import_grundy_loads_no_heavy_dependency():
    assert _loaded("import grundy") == []
    assert _loaded("import grundy.errors") == []


def test_grundy_version_loads_no_heavy_dependency():
    assert _loaded("from grundy.cli import main\nmain(['--version'])") == []


def test_solving_nim_from_the_command_line_loads_no_heavy_dependency():
    """networkx is loaded only where a graph needs it (start-up of a small `grundy solve`)."""
    assert _loaded("from grundy.cli import main\nmain(['solve', 'nim', '3', '5', '6'])") == []


def test_solving_graph_positions_from_a_file_loads_no_networkx(tmp_path):
    """The premises' cache key reads networkx's version without importing it."""
    f = tmp_path / "k5.json"
    k5 = [[u, v] for u in range(5) for v in range(u + 1, 5)]
    f.write_text(json.dumps([{"game": "edge-nim", "nodes": list(range(5)), "token": 0,
                              "edges": [[u, v, 1 + (i + j) % 2] for j, (u, v) in enumerate(k5)]}
                             for i in range(5)]))
    code = (f"import os\nos.environ['GRUNDY_CACHE'] = {str(tmp_path / 'cache')!r}\n"
            f"from grundy.cli import main\nmain(['solve', {str(f)!r}, '--json'])")
    assert "networkx" not in _loaded(code)


def test_the_probe_sees_a_heavy_dependency_when_one_is_loaded():
    assert "networkx" in _loaded("from grundy.tools import named_graph\nnamed_graph('petersen')")


def test_no_lower_layer_carries_a_notebook_hook_and_hooks_are_declared():
    """Notebook renderers are registered with IPython from the top (grundy.register_notebook_renderers):
    spec, solvers, verify and api define no _repr_ method that would reach up to tools; a hook asked by
    a name nobody declared is an error, not a silent None."""
    import ast

    import pytest

    from grundy import hooks
    root = Path(__file__).resolve().parent.parent / "grundy"
    found = []
    for f in [*(root / "spec").rglob("*.py"), *(root / "solvers").rglob("*.py"), *(root / "verify").rglob("*.py"),
              root / "api.py"]:
        for node in ast.walk(ast.parse(f.read_text())):
            if isinstance(node, ast.FunctionDef) and node.name.startswith("_repr_") and node.name != "__repr__":
                found.append(f"{f.relative_to(root)}:{node.lineno} {node.name}")
    assert not found, found
    with pytest.raises(KeyError, match="no hook named 'position.svgg' is declared"):
        hooks.get("position.svgg")
    assert set(hooks.DECLARED) == {"solve", "make_solver"}
